"""Hints that unfold: each time the same test cell fails again, its message gains the next hint.

Hints live beside the notebook in ``hints.toml`` (generated into ``release/`` with it): one table per
exercise, named as in the test cell's ``checks.exercise("name")``, with 2 or 3 hints from the idea to the
API to nearly the answer. The k-th failure of that cell shows hint k of n ("提示 (hint) k / n"); a pass
resets the count. Counts are kept in ``.course_hints.json`` in the same folder, so they survive a kernel
restart; delete the file to start over. Grading never shows hints (the judge does not count failures),
unless an instructor asks ``grade --show-hints``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from course import remote

HINTS_FILE = "hints.toml"
STATE_FILE = ".course_hints.json"

_current: str | None = None


def load(folder: Path | str = ".") -> dict[str, list[str]]:
    """The hints in ``folder/hints.toml`` by exercise name ({} when there is no such file)."""
    path = Path(folder) / HINTS_FILE
    if not path.is_file():
        return {}
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    return {name: [str(h) for h in table.get("hints", [])] for name, table in data.items() if isinstance(table, dict)}


def start(name: str) -> None:
    """A test cell for exercise ``name`` is running (no-op in the judge)."""
    global _current
    _current = None if remote.IN_JUDGE else name


def clear() -> None:
    """The cell finished: whatever fails next is not this exercise's test."""
    global _current
    _current = None


def _state(folder: Path) -> dict[str, int]:
    try:
        data = json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: int(v) for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) else {}


def _save(folder: Path, state: dict[str, int]) -> None:
    try:
        (folder / STATE_FILE).write_text(json.dumps(state, ensure_ascii=False, indent=0), encoding="utf-8")
    except OSError:  # a read-only folder: hints still show, counts just do not persist
        pass


def record_failure(folder: Path | str = ".") -> str:
    """Count one more failure of the running exercise; return its next hint as a line ('' if none)."""
    if _current is None:
        return ""
    folder = Path(folder)
    state = _state(folder)
    state[_current] = state.get(_current, 0) + 1
    _save(folder, state)
    texts = load(folder).get(_current, [])
    if not texts:
        return ""
    k = min(state[_current], len(texts))
    return f"提示 (hint) {k} / {len(texts)}：{texts[k - 1]}"


def record_pass(folder: Path | str = ".") -> None:
    """The running exercise passed its visible tests: its hints start from the first again."""
    if _current is None:
        return
    folder = Path(folder)
    state = _state(folder)
    if state.pop(_current, None) is not None:
        _save(folder, state)
