"""A thin door into nbgrader's own API, working whatever is on PATH.

nbgrader runs the ``alembic`` command from PATH when it creates a gradebook (``alembic heads``, only to read
the schema's revision), so a venv's Python called by its full path (``.venv/bin/python -m autograder``)
would fail on a fresh course, and every new gradebook costs a Python start-up (seconds on a busy machine).
:func:`prepare_nbgrader` reads that revision in-process from nbgrader's own migration scripts instead, and
still puts the running interpreter's ``bin/`` first on PATH for the ``jupyter`` commands nbgrader runs.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

from autograder.errors import AutograderError


def ensure_tools_on_path() -> None:
    """Put this interpreter's scripts folder (``alembic``, ``jupyter``) first on PATH."""
    bin_dir = str(Path(sys.executable).parent)
    parts = os.environ.get("PATH", "").split(os.pathsep)
    if parts[:1] != [bin_dir]:
        os.environ["PATH"] = os.pathsep.join([bin_dir, *[p for p in parts if p != bin_dir]])


@functools.cache
def alembic_head() -> str:
    """The gradebook schema's revision: what ``alembic heads`` prints for nbgrader's migration scripts."""
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    return ScriptDirectory(ALEMBIC_DIR).get_current_head()


def prepare_nbgrader() -> None:
    """Before nbgrader opens or creates a gradebook: tools on PATH, and the revision read in-process."""
    import nbgrader.api

    ensure_tools_on_path()
    nbgrader.api.get_alembic_version = alembic_head


def make_course(tmp: Path, course_root: Path, *assignments: str) -> Path:
    """A throw-away nbgrader course under ``tmp`` with the course's config and these source assignments."""
    course = tmp / "course"
    (course / "source").mkdir(parents=True)
    shutil.copy2(course_root / "nbgrader_config.py", course / "nbgrader_config.py")
    for assignment in assignments:
        shutil.copytree(
            course_root / "source" / assignment,
            course / "source" / assignment,
            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
        )
    return course


def load_config(course: Path):  # -> traitlets Config
    """The course folder's ``nbgrader_config.py`` as nbgrader reads it."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()


def api(course: Path, db_url: str | None = None):  # -> nbgrader.apps.NbGraderAPI (nbgrader is slow to import)
    """nbgrader's API over ``course``, configured by that folder's ``nbgrader_config.py``.

    The gradebook is ``db_url`` when given (any SQLAlchemy URL), else ``course/gradebook.db``.
    """
    prepare_nbgrader()
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    config = load_config(course)
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.db_url = db_url or f"sqlite:///{course / 'gradebook.db'}"
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def log_or_raise(result: dict, what: str) -> str:
    """Raise a one-line error when an API call failed; return its log otherwise."""
    if not result.get("success"):
        lines = [ln for ln in (result.get("error") or result.get("log") or "").splitlines() if ln.strip()]
        detail = lines[-1].strip() if lines else "no detail"
        raise AutograderError(f"nbgrader could not {what}: {detail}")
    return result.get("log", "")


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Hide the chatter nbgrader, SQLAlchemy and kernels write to stderr (fd 2) while grading.

    nbgrader's API already captures its own log into the result it returns; what is left on fd 2 is
    kernel start-up noise. It is kept in a temporary file and shown only if the block raises.
    """
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as sink, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os.dup2(sink.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            sink.seek(0)
            sys.stderr.write(sink.read().decode("utf-8", "replace")[-4000:])
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)
