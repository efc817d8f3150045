"""Reading what a student handed in: their own regular file, inside their own folder, of a bounded size.

A submission folder is written by students (through nbgrader's exchange, git, an upload), so nothing in it
is trusted: a symbolic link (to the instructor's source notebook, a classmate's submission, ``/dev/zero``),
a folder, a FIFO or a device named ``<assignment>.ipynb`` is refused with a one-line reason, never
followed, opened for reading or waited on. A notebook that carries the instructor's material (solution or
hidden-test markers, or a source cell verbatim) is refused too: it would score on the instructor's work.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.errors import AutograderError
from autograder.notebooks import MAX_NOTEBOOK_BYTES, is_test, meta, test_cells  # a notebook is at most 32 MB

MAX_SMALL_FILE = 64 * 2**10  # timestamp.txt, submission_secret.txt
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")

_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def kind_of(mode: int) -> str:
    """A file type in words, for a refusal."""
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_own_file(root: Path, parts: tuple[str, ...], limit: int = MAX_NOTEBOOK_BYTES) -> bytes:
    """The bytes of ``root/parts...``, opened without following any link below ``root``.

    Every folder in ``parts`` and the file itself must be the real thing (no symbolic link), the file a
    regular file of at most ``limit`` bytes. Anything else raises AutograderError with one line saying why.
    """
    name = "/".join(parts)
    fds: list[int] = []
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        fds.append(fd)
        for part in parts[:-1]:
            try:
                fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                raise AutograderError(f"{name}: folder {part!r} is {_why(exc, part, fd)}") from None
            fds.append(fd)
        leaf = parts[-1]
        try:
            mode = os.stat(leaf, dir_fd=fd, follow_symlinks=False).st_mode
        except OSError as exc:
            raise AutograderError(f"{name}: cannot be read ({exc.strerror})") from None
        if not stat.S_ISREG(mode):
            raise AutograderError(f"{name} is {kind_of(mode)}, not the student's own notebook file")
        try:
            file_fd = os.open(leaf, _FLAGS, dir_fd=fd)
        except OSError as exc:
            raise AutograderError(f"{name}: cannot be read ({exc.strerror})") from None
        fds.append(file_fd)
        info = os.fstat(file_fd)
        if not stat.S_ISREG(info.st_mode):  # swapped between the stat and the open
            raise AutograderError(f"{name} is {kind_of(info.st_mode)}, not the student's own notebook file")
        if info.st_size > limit:
            raise AutograderError(f"{name} is {info.st_size / 2**20:.1f} MB, over the {limit / 2**20:g} MB limit")
        data = _read_upto(file_fd, limit + 1)
        if len(data) > limit:
            raise AutograderError(f"{name} is over the {limit / 2**20:g} MB limit")
        return data
    finally:
        for fd in reversed(fds):
            os.close(fd)


def _read_upto(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _why(exc: OSError, part: str, dir_fd: int) -> str:
    try:
        mode = os.stat(part, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return f"missing ({exc.strerror})"
    return kind_of(mode) if not stat.S_ISDIR(mode) else f"unreadable ({exc.strerror})"


def read_small_text(root: Path, parts: tuple[str, ...]) -> str | None:
    """A small regular file's text (timestamp.txt), or None when it is absent or anything else."""
    try:
        return read_own_file(root, parts, MAX_SMALL_FILE).decode("utf-8", "replace")
    except AutograderError:
        return None


@dataclass(frozen=True)
class Found:
    """Which file in an assignment folder is the submission. ``path``: None when there is none;
    ``renamed``: the folder's one notebook has another name; ``note``: for people (why none, or which file
    was taken); ``refused``: why the file found cannot be graded."""

    path: Path | None
    renamed: bool = False
    note: str = ""
    refused: str = ""


def find_notebook(folder: Path, assignment: str) -> Found:
    """The submission in ``folder`` (the assignment's folder; ``grade`` and ``progress`` both decide here):
    ``<assignment>.ipynb`` when that name is there, whatever it is (reading it refuses what is not a regular
    file), else the folder's only other ``*.ipynb`` (hidden names left out). Nothing is followed or opened."""
    expected = folder / f"{assignment}.ipynb"
    try:
        expected.lstat()
        return Found(expected)
    except OSError:
        pass
    try:
        entries = list(folder.iterdir())
    except OSError:
        entries = []
    found = sorted(p for p in entries if p.name.endswith(".ipynb") and not p.name.startswith("."))
    if len(found) == 1:
        shown = display_name(found[0].name)
        if shown != found[0].name:
            return Found(found[0], renamed=True, refused="a file name that is not UTF-8 text")
        return Found(found[0], renamed=True, note=f"notebook renamed: graded {shown}")
    if found:
        names = ", ".join(display_name(p.name) for p in found)
        return Found(None, note=f"several notebooks ({names}), none named {expected.name}")
    return Found(None, note=f"no {expected.name} found")


def display_name(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by Python as surrogates) become \\xNN escapes."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def instructor_material(nb: Any, source: Any) -> str:
    """'' for a learner's notebook; else why it carries the instructor's material (markers, source cells).

    nbgrader's markers never reach a release notebook (generate_assignment removes them with what they
    enclose), and no honest notebook holds an instructor's solution or hidden-test cell character for
    character, markers included. Test cells are not looked at: nbgrader replaces them with the
    instructor's before grading, whatever they hold."""
    verbatim = {
        cell.source.strip()
        for cell in source.cells
        if any(marker in cell.source for marker in MARKERS) and cell.source.strip()
    }
    tests = set(test_cells(source))
    for index, cell in enumerate(nb.cells, 1):
        if is_test(cell) and meta(cell)["grade_id"] in tests:
            continue  # nbgrader puts the instructor's own version of a test cell in its place before grading
        text = cell.get("source", "")
        text = "".join(text) if isinstance(text, list) else str(text)
        if text.strip() in verbatim:
            return f"cell {index} is the instructor's own solution or hidden-test cell, copied verbatim"
        for marker in MARKERS:
            if marker in text:
                return f"cell {index} holds the instructor's marker '{marker}': this is not a student's notebook"
    return ""
