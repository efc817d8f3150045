"""The mistake catalogue is closed both ways: every id a check can emit is in it, and a graded mutant declares
each of its ids (tests/test_mutants.py checks that the judge emits it, as a field of the failure, beside the
message)."""

from __future__ import annotations

import ast
from pathlib import Path

from course import mistakes
from tests import notebooks as nbs

COURSE = Path(__file__).resolve().parents[1] / "course"


def _emitters() -> dict[str, list[nbs.Mutant]]:
    """Catalogue id -> the graded mutants that declare it (``mistake="id"`` in tests/mutants/*.py)."""
    found: dict[str, list[nbs.Mutant]] = {}
    for assignment in nbs.assignments():
        for mutant in nbs.mutants(assignment):
            if mutant.mistake:
                found.setdefault(mutant.mistake, []).append(mutant)
    return found


EMITTERS = _emitters()


def emitted_in_source() -> dict[str, list[str]]:
    """Every mistake id written in course/ code and in the source notebooks' test cells: ``mistake="id"``
    keywords and the string constants that ``*_mistake`` helpers return (file:line where each appears)."""
    found: dict[str, list[str]] = {}
    sources = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(COURSE.rglob("*.py")) if p.name != "mistakes.py"]
    for assignment in nbs.assignments():  # the test cells' own checks.fail(..., mistake=...) (hidden tests too)
        nb = nbs.read(nbs.source_path(assignment))
        sources += [(f"{assignment}:{nbs.meta(c)['grade_id']}", c.source) for c in nbs.grade_cells(nb)]
    for name, text in sources:
        tree = ast.parse(text)
        for node in ast.walk(tree):
            values = []
            if isinstance(node, ast.keyword) and node.arg == "mistake" and isinstance(node.value, ast.Constant):
                values.append(node.value)
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_mistake"):
                values += [
                    r.value for r in ast.walk(node) if isinstance(r, ast.Return) and isinstance(r.value, ast.Constant)
                ]
            for value in values:
                if value.value:
                    found.setdefault(value.value, []).append(f"{name}:{value.lineno}")
    return found


def test_every_id_a_check_can_emit_is_in_the_catalogue():
    found = emitted_in_source()
    assert found, "no mistake ids found in course/: the scan is broken"
    assert {m: where for m, where in found.items() if not mistakes.known(m)} == {}


def test_catalogue_ids_are_well_formed_unique_with_both_names_and_a_hint():
    ids = [entry.id for entry in mistakes._ENTRIES]
    assert sorted({i for i in ids if ids.count(i) > 1}) == [], "an id is in the catalogue twice"
    for key, entry in mistakes.CATALOGUE.items():
        assert key == entry.id and mistakes.ID_PATTERN.fullmatch(key), key
        assert entry.zh and entry.en and entry.hint, key
    assert mistakes.UNKNOWN not in mistakes.CATALOGUE


def test_every_catalogue_id_has_a_mutant_that_emits_it():
    assert sorted(set(mistakes.CATALOGUE) - set(EMITTERS)) == [], "catalogue ids that no mutant declares"
    assert sorted(set(EMITTERS) - set(mistakes.CATALOGUE)) == [], "mutants declare ids not in the catalogue"
    assert not [str(m) for ms in EMITTERS.values() for m in ms if m.formative], "formative checks send no id"


def test_the_judge_sends_the_id_only_for_a_checks_own_failure():
    from autograder.child.judge import _mistake
    from course.checks import CheckError

    assert _mistake(CheckError("x", mistake="not-a-tensor"), "check") == "not-a-tensor"
    assert _mistake(CheckError("x", mistake="not-in-the-catalogue"), "check") == ""
    assert _mistake(CheckError("x", mistake="not-a-tensor"), "learner") == ""
    assert _mistake(AssertionError("x"), "check") == ""


def test_the_grader_takes_the_id_from_the_field_and_unknown_otherwise():
    from autograder.parent.engine import mistake_of
    from autograder.wire.schema import TestResult

    assert mistake_of(TestResult("t", False, ("CheckError", "x"), mistake="not-a-tensor")) == "not-a-tensor"
    assert mistake_of(TestResult("t", False, ("CheckError", "mistake=not-a-tensor"))) == "unknown"
    assert mistake_of(TestResult("t", False, mistake="<b>")) == "unknown"
