"""How `pytest -n 3` (`make test`) shares the suite (tests/conftest.py): which tests form one work unit, and which go first."""

from tests.conftest import unit_cost, work_unit


def test_a_files_tests_are_one_unit_and_shared_set_ups_join_their_files():
    assert work_unit("tests/test_grade.py::test_a") == work_unit("tests/test_grade.py::test_b[x]")
    assert work_unit("tests/test_notebooks.py::test_a[01_tensors]") == work_unit("tests/test_progress.py::test_b")
    assert work_unit("tests/hub/test_round_trip.py::t") == work_unit("tests/hub/test_browser_student.py::t") == "hub"
    assert work_unit("tests/site/test_site_browser.py::t") == "site"
    assert work_unit("tests/browser/test_report_page.py::t") != work_unit("tests/browser/test_student_flow.py::t")


def test_the_mutants_and_hints_of_a_notebook_are_one_unit_per_notebook():
    a = work_unit("tests/test_mutants.py::test_kernel[01_tensors:test_make_inputs:int]")
    b = work_unit("tests/test_mutants.py::test_judge[01_tensors:test_time_grid:float64]")
    c = work_unit("tests/test_mutants.py::test_kernel[10_lenet_mnist:test_lenet:no relu]")
    d = work_unit("tests/test_hints.py::test_the_kth_failure_shows_the_kth_hint[10_lenet_mnist]")
    assert a == b != c == d == "notebook:10_lenet_mnist"
    assert work_unit("tests/test_hints.py::test_hints_toml_is_well_formed") == "tests/test_hints.py"


def test_the_units_with_a_long_shared_set_up_go_before_units_with_many_quick_tests():
    units = {"tests/test_codec.py": 51, "tests/browser/test_report_page.py": 4, "site": 13, "tests/test_cli.py": 15}
    order = sorted(units, key=lambda unit: -unit_cost(unit, units[unit]))
    assert order[:2] == ["tests/browser/test_report_page.py", "site"], order
