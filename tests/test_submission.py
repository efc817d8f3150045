"""autograder.parent.submission.find_notebook: the one rule, for ``grade`` and ``progress``, of which file in
an assignment folder is the submission (plain files on disk; nothing is run)."""

from __future__ import annotations

import os
from pathlib import Path

from autograder.parent.submission import Found, find_notebook

ID = "01_tensors"


def _folder(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / ID
    folder.mkdir()
    for name in names:
        (folder / name).write_text("{}")
    return folder


def test_the_expected_name_is_the_submission_even_beside_other_notebooks(tmp_path):
    folder = _folder(tmp_path, f"{ID}.ipynb", "copy.ipynb")
    assert find_notebook(folder, ID) == Found(folder / f"{ID}.ipynb")


def test_the_expected_name_is_taken_whatever_it_is_so_that_reading_it_refuses_a_link(tmp_path):
    folder = _folder(tmp_path)
    (folder / f"{ID}.ipynb").symlink_to(tmp_path / "nowhere")
    assert find_notebook(folder, ID) == Found(folder / f"{ID}.ipynb")


def test_a_lone_notebook_of_another_name_is_taken_and_said_to_be_renamed(tmp_path):
    folder = _folder(tmp_path, f"{ID} (1).ipynb", ".hidden.ipynb", "notes.txt")
    found = find_notebook(folder, ID)
    assert found.path == folder / f"{ID} (1).ipynb" and found.renamed and not found.refused
    assert found.note == f"notebook renamed: graded {ID} (1).ipynb"


def test_a_lone_notebook_whose_name_is_not_text_is_found_and_refused(tmp_path):
    folder = _folder(tmp_path, os.fsdecode(b"copy-\xff.ipynb"))
    found = find_notebook(folder, ID)
    assert found.path is not None and found.refused == "a file name that is not UTF-8 text"


def test_several_other_notebooks_are_none_and_are_named(tmp_path):
    folder = _folder(tmp_path, "a.ipynb", "b.ipynb")
    assert find_notebook(folder, ID) == Found(None, note=f"several notebooks (a.ipynb, b.ipynb), none named {ID}.ipynb")


def test_an_empty_or_absent_folder_has_no_submission(tmp_path):
    expected = Found(None, note=f"no {ID}.ipynb found")
    assert find_notebook(_folder(tmp_path, "notes.txt"), ID) == expected
    assert find_notebook(tmp_path / "absent", ID) == expected
