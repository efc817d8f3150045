"""Where a learner stands in the whole course: every assignment notebook checked through the check engine.

``progress(folder)`` finds ``folder/<id>/<id>.ipynb`` for each assignment (a lone notebook of another name
in that folder counts, and says "renamed"), checks them all in one engine, and returns a row per
assignment: score, the questions that remain, and a status word (ok, missing, broken, renamed). The same
rows become a table, JSON, and a course map page (one tile per assignment, failing questions named) that
JupyterLab opens from the course home page. The learner's notebooks are only read, never written.
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from autograder import course_folder as course_mod
from autograder.check import check_notebooks, prepare
from autograder.errors import AutograderError
from autograder.notebooks import points, read_notebook
from autograder.parent.submission import find_notebook

MAP_NAME = "course_map.html"


@dataclass
class Row:
    assignment: str
    status: str  # ok, missing, broken or renamed
    score: float = 0.0
    max_score: float = 0.0
    remaining: list[str] = field(default_factory=list)
    note: str = ""
    notebook: str = ""


def progress(folder: Path, *, course_root: Path | None = None, warm: bool = False) -> list[Row]:
    """One row per assignment of the course, in course order."""
    folder = Path(folder)
    if not folder.is_dir():
        raise AutograderError(f"folder not found: {folder}")
    root = course_root or course_mod.find_course_root(folder.resolve(), Path.cwd())
    if root is not None:
        ids = course_mod.assignments(root)
    else:
        ids = sorted(p.name for p in folder.iterdir() if course_mod.ASSIGNMENT_ID.match(p.name) and p.is_dir())
    if not ids:
        raise AutograderError(f"no assignments found in {folder} (expected {folder}/<id>/<id>.ipynb)")
    rows: list[Row] = []
    to_check: list[tuple[Row, Path]] = []
    for assignment in ids:
        maximum = sum(points(read_notebook(course_mod.source_notebook(root, assignment))).values()) if root else 0.0
        found = find_notebook(folder / assignment, assignment)
        path = found.path
        row = Row(assignment, "renamed" if found.renamed else "ok", max_score=maximum, notebook=str(path or ""))
        rows.append(row)
        if path is None or found.refused:
            row.status, row.note = ("missing", found.note) if path is None else ("broken", found.refused)
            continue
        try:
            prepare(path, course_root=root, assignment=assignment)
        except AutograderError as exc:
            row.status, row.note = "broken", str(exc)
            continue
        to_check.append((row, path))
    if to_check:
        results = check_notebooks([p for _, p in to_check], course_root=root, warm=warm, parallel=2)
        for (row, _path), result in zip(to_check, results):
            row.score, row.max_score = result.score, result.max_score
            row.remaining = [q.grade_id for q in result.questions if not q.passed]
            if result.status != "ok":
                row.note = result.note or result.status
    return rows


def next_step(rows: list[Row]) -> str:
    """The first thing left to do, in course order."""
    for row in rows:
        if row.status in ("missing", "broken"):
            return f"{row.assignment}（{row.status}）"
        if row.remaining:
            return f"{row.assignment}: {row.remaining[0].removeprefix('test_')}"
    return "全部完成 (all done)"


def format_table(rows: list[Row]) -> str:
    lines = [f"{'assignment':<18} {'status':<8} {'score':>9}  remaining"]
    for row in rows:
        left = (
            ", ".join(q.removeprefix("test_") for q in row.remaining)
            if row.remaining
            else ("-" if row.status in ("ok", "renamed") else row.note)
        )
        lines.append(f"{row.assignment:<18} {row.status:<8} {row.score:>4g} / {row.max_score:<3g} {left}".rstrip())
    total, maximum = sum(r.score for r in rows), sum(r.max_score for r in rows)
    lines.append(f"next: {next_step(rows)}")
    lines.append(f"course {total:g} / {maximum:g}")
    return "\n".join(lines)


def to_json(rows: list[Row]) -> dict[str, Any]:
    return {
        "assignments": [asdict(r) for r in rows],
        "score": sum(r.score for r in rows),
        "max_score": sum(r.max_score for r in rows),
        "next": next_step(rows),
    }


def render_map(rows: list[Row]) -> str:
    """A self-contained page: one tile per assignment, a bar for its score, its failing questions named."""
    esc = html.escape
    tiles = []
    for row in rows:
        share = row.score / row.max_score if row.max_score else 0.0
        state = "done" if row.status in ("ok", "renamed") and not row.remaining else row.status
        items = "".join(f"<li>{esc(q.removeprefix('test_'))}</li>" for q in row.remaining)
        detail = f"<ul>{items}</ul>" if items else f"<p>{esc(row.note or ('全部通过' if state == 'done' else ''))}</p>"
        link = f"{row.assignment}/{Path(row.notebook).name}" if row.notebook else ""
        title = f'<a href="{esc(link)}">{esc(row.assignment)}</a>' if link else esc(row.assignment)
        tiles.append(
            f'<section class="tile {esc(state)}"><h2>{title}</h2>'
            f'<div class="bar"><div style="width:{share * 100:.0f}%"></div></div>'
            f'<p class="score">{row.score:g} / {row.max_score:g} · {esc(row.status)}</p>{detail}</section>'
        )
    total, maximum = sum(r.score for r in rows), sum(r.max_score for r in rows)
    return f"""<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>课程地图 (course map)</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; }}
.grid {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(15em, 1fr)); gap: 1em; }}
.tile {{ border: 1px solid #d0d7de; border-radius: 8px; padding: .8em; }}
.tile h2 {{ font-size: 1.05em; margin: 0 0 .5em; }}
.bar {{ background: #eaeef2; height: .6em; border-radius: 4px; overflow: hidden; }}
.bar div {{ background: #2da44e; height: 100%; }}
.done {{ background: #dafbe1; }} .missing, .broken {{ background: #fff1e5; }}
.score {{ color: #57606a; margin: .4em 0; }} ul {{ margin: .2em 0 0 1.2em; padding: 0; color: #cf222e; }}
</style></head><body>
<h1>课程地图 (course map)：{total:g} / {maximum:g}</h1>
<p>下一步 (next)：{esc(next_step(rows))}。重新运行 <code>python -m autograder progress</code> 会更新这一页。</p>
<div class="grid">{"".join(tiles)}</div>
</body></html>
"""
