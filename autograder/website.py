"""The course as a static site: ``release/`` executed and rendered by Sphinx with MyST-NB (``make site``).

Every page comes from ``release/`` (never ``source/``): the home page is ``release/README.md``, each
lesson is its release notebook executed here (demos keep their outputs and figures; answer and test
cells are shown without outputs, and a demo cell's ``NotImplementedError`` from an unfinished exercise is
dropped). Under each lesson's title sit a download link (the release notebook as released, no outputs)
and an "open in a hosted notebook" link built from ``[tool.course-site]``. The site also serves what the
notebooks' setup cell installs: ``wheels/<course wheel>`` and ``notebooks/<id>/hints.toml``.

Offline: MathJax is copied from the ``django-static-mathjax`` package, the wheel is built without an
index, and the MNIST data comes from ``COURSE_DATA_DIR``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder import course_folder as course_mod
from autograder.errors import AutograderError
from autograder.notebooks import is_formative
from autograder.setup_cell import NOTEBOOK_FOLDER, WHEEL_FOLDER, SiteConfig, site_config, wheel_name

# The parts of MathJax 3 that the TeX-to-HTML page script loads (the rest is other input/output formats).
MATHJAX_PARTS = ("tex-chtml.js", "input/tex/extensions", "output/chtml/fonts/woff-v2", "ui", "a11y")
EXECUTE_TIMEOUT_S = 600
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


@dataclass(frozen=True)
class SiteReport:
    """What a build produced: its folder, page count, total size in bytes and seconds taken."""

    out: Path
    pages: int
    size_bytes: int
    seconds: float


def hosted_url(config: SiteConfig, assignment: str) -> str | None:
    """The Colab URL that opens ``release/<id>/<id>.ipynb`` of the repository, or None off GitHub."""
    prefix = "https://github.com/"
    if not config.repository.startswith(prefix):
        return None
    repo = config.repository[len(prefix) :].removesuffix(".git")
    return (
        f"https://colab.research.google.com/github/{repo}/blob/{config.branch}/release/{assignment}/{assignment}.ipynb"
    )


def links_cell(config: SiteConfig, assignment: str) -> nbformat.NotebookNode:
    """The markdown cell under a lesson's title: download the notebook, open it in a hosted notebook."""
    links = [
        f'<a class="course-download" href="../{NOTEBOOK_FOLDER}/{assignment}/{assignment}.ipynb" download>下载笔记本 (.ipynb)</a>'
    ]
    url = hosted_url(config, assignment)
    if url:
        links.append(f'<a class="course-colab" href="{url}">在 Colab 中打开 (open in Colab)</a>')
    return nbformat.v4.new_markdown_cell(f'<p class="course-links">{" ".join(links)}</p>')


def _is_exercise(cell: nbformat.NotebookNode) -> bool:
    """Answer, test and "predict first" check cells: unanswered, they only show the learner's error."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("solution") or meta.get("grade")) or is_formative(cell)


def clean_outputs(nb: nbformat.NotebookNode) -> None:
    """Answer, test and prediction cells lose their outputs; other cells lose an unfinished exercise's error."""
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if _is_exercise(cell):
            cell.outputs = []
            cell.execution_count = None
        else:
            cell.outputs = [
                out
                for out in cell.outputs
                if not (out.output_type == "error" and out.get("ename") == "NotImplementedError")
            ]


def execute(path: Path, workdir: Path) -> nbformat.NotebookNode:
    """Run a copy of the release notebook at ``path`` in ``workdir`` (its assignment folder's copy)."""
    from nbclient import NotebookClient

    shutil.copytree(path.parent, workdir)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=EXECUTE_TIMEOUT_S,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(workdir)}},
    )
    # Figures as the learner sees them in JupyterLab: the inline backend, whatever MPLBACKEND says here.
    client.execute(env={**os.environ, "MPLBACKEND": INLINE_BACKEND})
    return nb


def lesson_page(path: Path, assignment: str, config: SiteConfig, workdir: Path) -> nbformat.NotebookNode:
    """The executed, cleaned notebook with the links under its title: what the lesson page shows."""
    nb = execute(path, workdir)
    clean_outputs(nb)
    title = next((i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source.startswith("# ")), -1)
    nb.cells.insert(title + 1, links_cell(config, assignment))
    return nb


SITE_NOTE = (
    "> 这是课程的网页版：每一课都可以先读再装。课程页面顶部可以下载笔记本，或在 Colab 中打开"
    "（第一个代码单元会安装课程包）；本地完整环境请克隆仓库后运行 `make lab`。"
)
LOCAL_LINK = re.compile(r"\[([^\]]+)\]\((?![a-z]+:|#)([^)\s]+)\)")


def home_page(readme: str, assignments: list[str]) -> str:
    """The course home page: release/README.md, a note on the site, and the navigation's table of contents.

    A link to a local file that is not a lesson (``course_map.html``, written in a learner's checkout)
    becomes its text: the site has no such file.
    """
    lessons = {f"{a}/{a}.ipynb" for a in assignments}
    text = LOCAL_LINK.sub(lambda m: m.group(0) if m.group(2) in lessons else m.group(1), readme.rstrip())
    title, _, rest = text.partition("\n")
    toc = "\n".join(f"{a}/{a}" for a in assignments)
    return f"{title}\n\n{SITE_NOTE}\n{rest}\n\n```{{toctree}}\n:hidden:\n:maxdepth: 1\n\n{toc}\n```\n"


def copy_mathjax(target: Path) -> None:
    """MathJax 3 from the ``django-static-mathjax`` package into ``target`` (served by the site itself)."""
    try:
        import mathjax
    except ModuleNotFoundError:
        raise AutograderError("the site needs MathJax: pip install -e '.[site]'") from None
    es5 = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
    for part in MATHJAX_PARTS:
        src = es5 / part
        if src.is_dir():
            shutil.copytree(src, target / part)
        else:
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / part)


def build_wheel(course_root: Path, target: Path, scratch: Path) -> Path:
    """The course package's wheel, built offline from a copy of the project (no build folder in the repo)."""
    copy = scratch / "project"
    copy.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(course_root / name, copy / name)
    for package in ("course", "autograder"):
        shutil.copytree(course_root / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index", "--no-build-isolation"]
    done = subprocess.run([*command, "-w", str(target), str(copy)], capture_output=True, text=True)
    if done.returncode != 0:
        raise AutograderError(f"building the course wheel failed:\n{done.stdout}{done.stderr}")
    wheels = list(target.glob("*.whl"))
    if len(wheels) != 1:
        raise AutograderError(f"expected one wheel in {target}, found {[w.name for w in wheels]}")
    return wheels[0]


def stage(course_root: Path, stage_dir: Path, log=print) -> None:
    """Lay out Sphinx's sources (``src/``) and the files served as they are (``extra/``) in ``stage_dir``."""
    config = site_config(course_root)
    release = course_root / "release"
    assignments = course_mod.assignments(course_root)
    src, extra = stage_dir / "src", stage_dir / "extra"
    shutil.copytree(course_root / "web", src)
    copy_mathjax(src / "_static" / "mathjax")
    wheel = build_wheel(course_root, extra / WHEEL_FOLDER, stage_dir)
    if wheel.name != wheel_name(config):
        raise AutograderError(f"the wheel is {wheel.name}, the setup cell installs {wheel_name(config)}")
    figures = 0
    for assignment in assignments:
        path = release / assignment / f"{assignment}.ipynb"
        if not path.is_file():
            raise AutograderError(f"{path} is missing: run python -m autograder generate")
        shutil.copytree(release / assignment, extra / NOTEBOOK_FOLDER / assignment)
        start = time.monotonic()
        nb = lesson_page(path, assignment, config, stage_dir / "run" / assignment)
        (src / assignment).mkdir()
        nbformat.write(nb, src / assignment / path.name)
        figures += sum("image/png" in out.get("data", {}) for c in nb.cells for out in c.get("outputs", []))
        log(f"executed {assignment} in {time.monotonic() - start:.1f} s")
    if figures == 0:
        raise AutograderError("no demo drew a figure: is matplotlib's inline backend available to the kernel?")
    readme = (release / "README.md").read_text(encoding="utf-8")
    (src / "index.md").write_text(home_page(readme, assignments), encoding="utf-8")


def build(course_root: Path, out: Path, log=print) -> SiteReport:
    """Build the site from ``release/`` into ``out`` (replaced); return what was built."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="course-site-") as tmp:
        stage_dir = Path(tmp)
        stage(course_root, stage_dir, log)
        if out.exists():
            shutil.rmtree(out)
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going"]
        command += ["-d", str(stage_dir / "doctrees"), str(stage_dir / "src"), str(out)]
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        if done.returncode != 0:
            raise AutograderError(f"sphinx-build failed:\n{done.stdout}{done.stderr}")
    files = [p for p in out.rglob("*") if p.is_file()]
    pages = sum(1 for p in files if p.suffix == ".html")
    return SiteReport(
        out=out, pages=pages, size_bytes=sum(p.stat().st_size for p in files), seconds=time.monotonic() - start
    )
