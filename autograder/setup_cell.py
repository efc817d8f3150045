"""The setup cell: the first code cell of every source notebook, so that a release notebook runs anywhere.

In a hosted notebook (Colab and the like) ``course`` is not importable: the cell pip-installs the course
package from the wheel the published site serves (``--no-index --no-deps``: nothing else is resolved),
installs matplotlib and tqdm only where they are missing, and fetches the assignment's ``hints.toml`` into
the working folder. Where ``course`` is importable (``make lab``, the grading sandbox, which has no network)
the cell does nothing. It writes nothing to stderr: pip's output is captured and shown only on failure.

``insert(course_root)`` puts the cell in every ``source/`` notebook, or brings an existing one up to date;
running it twice changes nothing. The site's address comes from ``[tool.course-site]`` in pyproject.toml.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder import course_folder as course_mod

TAG = "course-setup"
WHEEL_FOLDER = "wheels"
NOTEBOOK_FOLDER = "notebooks"


@dataclass(frozen=True)
class SiteConfig:
    """Where the course is published: ``[tool.course-site]`` in pyproject.toml."""

    repository: str  # e.g. https://github.com/OWNER/NAME: "open in a hosted notebook" links open release/ there
    branch: str
    pages: str  # the published site's URL (GitHub Pages), without a trailing slash
    version: str  # the course package's version: the wheel's file name


def site_config(course_root: Path) -> SiteConfig:
    """The ``[tool.course-site]`` settings of the course at ``course_root``."""
    data = tomllib.loads((course_root / "pyproject.toml").read_text(encoding="utf-8"))
    table = data.get("tool", {}).get("course-site", {})
    missing = [key for key in ("repository", "branch", "pages") if not table.get(key)]
    if missing:
        raise ValueError(f"pyproject.toml [tool.course-site] lacks {', '.join(missing)}")
    return SiteConfig(
        repository=str(table["repository"]).rstrip("/"),
        branch=str(table["branch"]),
        pages=str(table["pages"]).rstrip("/"),
        version=str(data["project"]["version"]),
    )


def wheel_name(config: SiteConfig) -> str:
    """The course package's wheel file name, as ``pip wheel`` writes it."""
    return f"pytorch_course-{config.version}-py3-none-any.whl"


def cell_source(assignment: str, config: SiteConfig) -> str:
    """The setup cell's code for ``assignment``."""
    return f'''# 在 Colab 等托管笔记本中：安装课程包 course（检查函数、可见测试与提示）。
# 本地 (make lab) 和评分时 course 已经可以导入，这个单元什么也不做。
import importlib.util

if importlib.util.find_spec("course") is None:
    import os
    import subprocess
    import sys
    import urllib.request

    SITE = os.environ.get("COURSE_SITE_URL", "{config.pages}")
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    commands = [pip + ["--no-deps", "--no-index", f"{{SITE}}/{WHEEL_FOLDER}/{wheel_name(config)}"]]
    missing = [name for name in ("matplotlib", "tqdm") if importlib.util.find_spec(name) is None]
    if missing:
        commands.append(pip + missing)
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError("安装失败：" + " ".join(command) + "\\n" + done.stdout + done.stderr)
    if not os.path.exists("hints.toml"):
        urllib.request.urlretrieve(f"{{SITE}}/{NOTEBOOK_FOLDER}/{assignment}/hints.toml", "hints.toml")
    importlib.invalidate_caches()
    print("已安装课程包 course。")
'''


def is_setup_cell(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and TAG in cell.get("metadata", {}).get("tags", [])


def apply(nb: nbformat.NotebookNode, assignment: str, config: SiteConfig) -> bool:
    """Insert or update the setup cell as ``nb``'s first code cell; return whether ``nb`` changed."""
    source = cell_source(assignment, config)
    existing = [i for i, cell in enumerate(nb.cells) if is_setup_cell(cell)]
    first_code = next((i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"), len(nb.cells))
    if existing == [first_code] and nb.cells[first_code].source == source:
        return False
    for i in reversed(existing):
        del nb.cells[i]
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": [TAG]})
    cell.id = f"{TAG}"
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    nb.cells.insert(first_code, cell)
    return True


def insert(course_root: Path) -> list[Path]:
    """Apply the setup cell to every source notebook of the course; return the notebooks that changed."""
    config = site_config(course_root)
    changed = []
    for assignment in course_mod.assignments(course_root):
        path = course_mod.source_notebook(course_root, assignment)
        nb = nbformat.read(path, as_version=4)
        if apply(nb, assignment, config):
            nbformat.write(nb, path)
            changed.append(path)
    return changed
