"""A student's saved notebook from their own home, read without following a link or leaving the home.

The path comes from the student, relative to their home. Every component is opened with ``O_NOFOLLOW``
below the previous one (``openat``), so ``..``, absolute paths, symbolic links (anywhere on the way) and
anything but a regular file are refused before a byte is read; the file is read up to a size limit.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import PurePosixPath

MAX_PATH = 1024


@dataclass
class Refused(Exception):
    """A request the service will not serve: an HTTP status and one line that says why."""

    status: int
    message: str

    def __str__(self) -> str:
        return self.message


def clean_relative(path: str) -> list[str]:
    """The components of a path inside a home; Refused(400) for absolute paths, ``..``, empty or odd ones."""
    if not path or len(path) > MAX_PATH or "\0" in path or "\\" in path:
        raise Refused(400, "the notebook path must be a path inside your home, like 01_tensors/01_tensors.ipynb")
    pure = PurePosixPath(path)
    if pure.is_absolute():
        raise Refused(400, f"the notebook path must be relative to your home, not absolute: {path!r}")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        raise Refused(400, f"the notebook path must stay inside your home (no '..'): {path!r}")
    if not parts[-1].endswith(".ipynb"):
        raise Refused(400, f"only notebooks (.ipynb) can be checked: {path!r}")
    return parts


def read_in_home(home: str, path: str, max_bytes: int) -> bytes:
    """The bytes of ``home/path`` (a regular file of at most ``max_bytes``), never through a link."""
    parts = clean_relative(path)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(home, flags | os.O_DIRECTORY)
    except OSError:
        raise Refused(404, "your home folder is not there (has your server ever started?)") from None
    try:
        for part in parts[:-1]:
            try:
                nxt = os.open(part, flags | os.O_DIRECTORY, dir_fd=fd)
            except OSError as exc:
                raise _refusal(exc, path) from None
            os.close(fd)
            fd = nxt
        try:
            file_fd = os.open(parts[-1], flags | os.O_NONBLOCK, dir_fd=fd)
        except OSError as exc:
            raise _refusal(exc, path) from None
    finally:
        os.close(fd)
    try:
        info = os.fstat(file_fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(400, f"{path} is not a regular file")
        if info.st_size > max_bytes:
            raise Refused(413, f"{path} is {info.st_size} bytes; the limit is {max_bytes} bytes")
        data = b""
        while len(data) <= max_bytes:
            chunk = os.read(file_fd, min(1 << 20, max_bytes + 1 - len(data)))
            if not chunk:
                break
            data += chunk
        if len(data) > max_bytes:
            raise Refused(413, f"{path} is larger than the limit of {max_bytes} bytes")
        return data
    finally:
        os.close(file_fd)


def _refusal(exc: OSError, path: str) -> Refused:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
        return Refused(400, f"{path}: symbolic links are not followed; check the notebook itself")
    if exc.errno == errno.ENOENT:
        return Refused(404, f"{path} is not in your home: save the notebook first (Ctrl+S)")
    if exc.errno == errno.EACCES:
        return Refused(403, f"{path} cannot be read by the grading service")
    return Refused(400, f"{path} cannot be opened: {os.strerror(exc.errno or 0)}")
