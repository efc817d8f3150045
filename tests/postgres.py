"""A real PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a fresh cluster in a temporary
folder, on a free loopback port, stopped afterwards. As root, the cluster runs as the ``postgres`` user
(PostgreSQL refuses to run as root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def binaries() -> Path | None:
    """The folder with initdb and pg_ctl (Debian keeps them under /usr/lib/postgresql/<version>/bin)."""
    found = shutil.which("initdb") and shutil.which("pg_ctl")
    if found:
        return Path(shutil.which("initdb")).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_owner(command: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *command] if owner else command


@contextmanager
def server() -> Iterator[str]:
    """Start a server; yield a SQLAlchemy URL (``postgresql+psycopg://...``) of an empty ``gradebook`` db.

    Its files live in a fresh folder under the system temp dir (pytest's are private to root, and the
    server may run as another user); the folder is removed afterwards.
    """
    bin_dir = binaries()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run installs it)")
    owner = "postgres" if os.geteuid() == 0 else None
    tmp = Path(tempfile.mkdtemp(prefix="autograder-pg-"))
    data, sockets = tmp / "pgdata", tmp / "pgsocket"
    for folder in (data, sockets):
        folder.mkdir(parents=True)
        if owner:
            user = pwd.getpwnam(owner)
            os.chown(folder, user.pw_uid, user.pw_gid)
    if owner:
        os.chmod(tmp, 0o755)
    port = _free_port()
    run = lambda *args: subprocess.run(_as_owner(list(args), owner), check=True, capture_output=True, text=True)  # noqa: E731
    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "grader", "-A", "trust", "--no-sync")
    options = f"-h 127.0.0.1 -p {port} -k {sockets} -c fsync=off"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(sockets / "postgres.log"), "-w", "start")
    try:
        run(str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "grader", "gradebook")
        yield f"postgresql+psycopg://grader@127.0.0.1:{port}/gradebook"
    finally:
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], owner),
            capture_output=True,
        )
        shutil.rmtree(tmp, ignore_errors=True)
