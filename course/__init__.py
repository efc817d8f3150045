"""Helpers that the course notebooks import: feedback checks, hints, data, devices."""

import os
import traceback

from course import cellflags, hints
from course.checks import CheckError, describe

__all__ = ["CheckError", "check_with_hidden_tests", "describe"]


def check_with_hidden_tests(notebook=None, *, assignment=None):
    """On the class hub: the hidden-test verdict of this notebook as saved (press Ctrl+S first), from the
    hub's grading service; prints the table ``check`` prints, with hints (autograder.service.client)."""
    from autograder.service.client import check_with_hidden_tests as ask

    return ask(notebook, assignment=assignment)


def _short_check_errors() -> None:
    """In Jupyter, show a failed check as its message alone instead of a traceback into course.checks.

    The cell still ends in an error (so nbgrader scores it 0); only the display is shorter.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or getattr(shell, "_course_short_errors", False):
        return

    package = os.path.dirname(os.path.abspath(__file__))

    def show(shell, etype, value, tb, tb_offset=None):
        lines = [f"\x1b[0;31m{etype.__name__}\x1b[0m: {value}"]
        hint = hints.record_failure()  # the same test cell failed again: its next hint, after the mistake
        if hint:
            lines.append(f"\x1b[0;34m{hint}\x1b[0m")
        outside = [f for f in traceback.extract_tb(tb) if not os.path.abspath(f.filename).startswith(package)]
        if outside and outside[-1].line:
            lines.append(f"\x1b[2m（测试单元里没有通过的一行：{outside[-1].line.strip()}）\x1b[0m")
        shell._showtraceback(etype, value, lines)  # publishes an error output, as a traceback would
        return lines

    shell.set_custom_exc((AssertionError,), show)
    shell.events.register("post_run_cell", lambda result: hints.clear())
    shell.events.register("pre_run_cell", lambda info: cellflags.note_cell(info.raw_cell, shell.user_ns))
    shell._course_short_errors = True


_short_check_errors()
