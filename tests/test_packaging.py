"""Dependencies are declared once; the README's two commands are what CI and users run."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement

from tests.notebooks import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DEPENDENCIES = {Requirement(r).name: Requirement(r) for r in PYPROJECT["project"]["dependencies"]}


def test_environment_yml_installs_this_project_and_declares_nothing_else():
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    entries = [ln.strip()[2:].strip() for ln in text.splitlines() if ln.strip().startswith("- ")]
    assert entries == ["conda-forge", "python=3.11", "pip", "pip:", '-e ".[test]"'], entries


def test_dependency_ranges_admit_the_torch_build_on_this_machine_and_newer_releases():
    assert DEPENDENCIES["torch"].specifier.contains("2.14.1")
    assert DEPENDENCIES["torchvision"].specifier.contains("0.29.1")
    assert DEPENDENCIES["torch"].specifier.contains("2.20.0"), "do not cap torch: users get current releases"
    assert DEPENDENCIES["nbgrader"].specifier.contains("0.9.6")


def test_the_stack_named_in_the_design_is_declared():
    assert {"torch", "torchvision", "jupyterlab", "nbgrader", "matplotlib"} <= set(DEPENDENCIES)


def test_readme_names_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab" in readme and "make test" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [ln.strip() for ln in ci.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    assert commands[-1] == "make test"
    assert re.search(r"COURSE_DATA_DIR", ci)
