"""``python -m autograder check NOTEBOOK`` read without click: a warm check's start-up is part of its latency.

Only the plain form is read here: ``check NOTEBOOK [--json] [--assignment ID] [--course DIR]`` (each option at
most once, ``--opt VALUE`` or ``--opt=VALUE``). Anything else (help, ``--cold``, ``--hub``, a repeated option, a
value that looks like an option, a folder given as the notebook) is left to click's command line in
``autograder.cli``, which gives the same result for the plain form, so its help and errors stay the one source.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from autograder.errors import AutograderError

VALUE_OPTIONS = {"--assignment": "assignment", "--course": "course"}


def parse(argv: list[str]) -> dict[str, str | bool | None] | None:
    """The plain form's fields (notebook, as_json, assignment, course), or None to leave ``argv`` to click."""
    if not argv or argv[0] != "check":
        return None
    fields: dict[str, str | bool | None] = {"notebook": None, "as_json": False, "assignment": None, "course": None}
    rest = argv[1:]
    while rest:
        arg, rest = rest[0], rest[1:]
        name, has_value, value = arg.partition("=")
        if arg == "--json" and not fields["as_json"]:
            fields["as_json"] = True
        elif name in VALUE_OPTIONS and fields[VALUE_OPTIONS[name]] is None:
            if not has_value:
                if not rest:
                    return None
                value, rest = rest[0], rest[1:]
            if not value or value.startswith("-"):
                return None
            fields[VALUE_OPTIONS[name]] = value
        elif not arg.startswith("-") and fields["notebook"] is None:
            fields["notebook"] = arg
        else:
            return None
    notebook, course = fields["notebook"], fields["course"]
    if not isinstance(notebook, str) or os.path.isdir(notebook):  # click refuses a folder with its own message
        return None
    if isinstance(course, str) and os.path.isfile(course):
        return None
    return fields


def main(argv: list[str]) -> int | None:
    """Run the plain form of ``check`` and return its exit status; None when ``argv`` is not that form."""
    fields = parse(argv)
    if fields is None:
        return None
    from autograder.check import check_notebook, format_table
    from autograder.course_folder import course_root

    try:
        course = fields["course"]
        root = course_root(str(course)) if course else None
        assignment = fields["assignment"]
        result = check_notebook(
            Path(str(fields["notebook"])),
            course_root=root,
            assignment=str(assignment) if assignment else None,
            warm=True,
        )
    except AutograderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\naborted", file=sys.stderr)
        return 130
    print(json.dumps(result.to_json(), ensure_ascii=False) if fields["as_json"] else format_table(result))
    return 0
