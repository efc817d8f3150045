"""``python -m autograder report OUT``: what the class got wrong, as one offline HTML page (and JSON).

Sections: the class (students, submissions by status, score distribution per assignment), per question
(attempted, full-credit rate, mean points, discrimination, flags), misconceptions per question (ranked by
students, with the catalogue's hint and links to the students' feedback pages), per student (points lost
and the mistakes behind them), and with ``--compare OLD_OUT`` every change between two gradings.
Plots are PNGs inside the page (matplotlib, Agg): no CDN, no second file.
"""

from __future__ import annotations

import base64
import functools
import html
import importlib.util
import io
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

from autograder.results import classdata
from autograder.results.classdata import QuestionStats, StudentStats
from autograder.results.journal import atomic_write

REPORT = "report.html"
REPORT_JSON = "report.json"
PLOTTED_QUESTIONS = 40  # at most this many bars in the full-credit plot (the lowest rates)


def catalogue() -> dict[str, Any]:
    """course.mistakes.CATALOGUE, loaded from its file: the course package itself would import torch."""
    spec = importlib.util.find_spec("course")
    locations = list(spec.submodule_search_locations or []) if spec else []
    if not locations:
        return {}
    path = Path(locations[0]) / "mistakes.py"
    module_spec = importlib.util.spec_from_file_location("_course_mistakes", path)
    if module_spec is None or module_spec.loader is None or not path.is_file():
        return {}
    module = sys.modules.get("course.mistakes") or sys.modules.get(module_spec.name)
    if module is None:
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_spec.name] = module  # dataclasses look their module up there
        module_spec.loader.exec_module(module)
    return dict(module.CATALOGUE)


def build(out: Path, compare_with: Path | None = None) -> dict[str, Any]:
    """Everything the report shows, as plain data (the ``--json`` output)."""
    data = classdata.load(out)
    old = classdata.load(compare_with) if compare_with is not None else None
    names = catalogue()
    questions = classdata.question_stats(data)
    result: dict[str, Any] = {
        "out": str(out),
        "notes": list(data.notes),
        "has_mistakes": data.has_mistakes,
        "class": classdata.class_summary(data),
        "questions": [_question_json(q, names) for q in questions],
        "students": [_student_json(s) for s in classdata.student_stats(data)],
        "feedback": _feedback_base(Path(out)),
    }
    if old is not None:
        result["compare"] = {"old": str(compare_with), "changes": [asdict(c) for c in classdata.compare(old, data)]}
        result["notes"] += [f"{compare_with}: {n}" for n in old.notes]
    return result


def _question_json(q: QuestionStats, names: dict[str, Any]) -> dict[str, Any]:
    mistakes = []
    for m in q.mistakes:
        entry = names.get(m.mistake)
        mistakes.append(
            {
                "mistake": m.mistake,
                "zh": entry.zh if entry else "",
                "en": entry.en if entry else ("no named mistake" if m.mistake == classdata.UNKNOWN else ""),
                "hint": entry.hint if entry else "",
                "count": len(m.students),
                "share": m.share,
                "students": m.students,
            }
        )
    return {
        "assignment": q.assignment,
        "grade_id": q.grade_id,
        "max_points": q.max_points,
        "attempted": q.attempted,
        "full_credit": q.full_credit,
        "full_credit_rate": q.full_credit_rate,
        "mean_points": q.mean_points,
        "discrimination": q.discrimination,
        "flags": q.flags,
        "mistakes": mistakes,
    }


def _student_json(s: StudentStats) -> dict[str, Any]:
    return {
        "student": s.student,
        "score": s.score,
        "max_score": s.max_score,
        "statuses": dict(s.statuses),
        "lost": [
            {
                "assignment": q.assignment,
                "grade_id": q.grade_id,
                "max_points": q.max_points,
                "status": q.status,
                "mistake": q.mistake,
            }
            for q in s.lost
        ],  # fmt: skip
        "mistakes": dict(s.mistakes.most_common()),
    }


def _feedback_base(out: Path) -> str:
    """Where the feedback pages are, relative to OUT: OUT/feedback, or an nbgrader course's feedback/."""
    if (out / "feedback").is_dir():
        return "feedback"
    if (out.parent / "feedback").is_dir() and (out.parent / "nbgrader_config.py").is_file():
        return "../feedback"
    return "feedback"


def write(out: Path, *, as_json: bool = False, compare_with: Path | None = None) -> Path:
    """Write OUT/report.html (or OUT/report.json) and return its path."""
    out = Path(out)
    report = build(out, compare_with)
    if as_json:
        target = out / REPORT_JSON
        atomic_write(target, json.dumps(report, ensure_ascii=False, indent=1))
    else:
        target = out / REPORT
        atomic_write(target, render(report))
    return target


# ---------------------------------------------------------------------------------------------------
# HTML

esc = html.escape


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


@functools.lru_cache(maxsize=65536)
def _href(base: str, student: str, assignment: str) -> str:
    a = quote(assignment, safe="")
    return esc(f"{base}/{quote(student, safe='')}/{a}/{a}.html")


def _link(report: dict[str, Any], student: str, assignment: str, text: str | None = None) -> str:
    """A link to the student's feedback page for ``assignment`` (its text: ``text`` or the student)."""
    return f'<a href="{_href(report["feedback"], student, assignment)}">{esc(student if text is None else text)}</a>'


def render(report: dict[str, Any]) -> str:
    """The whole page: one self-contained HTML file."""
    notes = "".join(f"<li>{esc(n)}</li>" for n in report["notes"])
    body = [
        f"<h1>Class report · 班级报告</h1><p class=src>{esc(report['out'])}</p>",
        f"<ul class=notes>{notes}</ul>" if notes else "",
        _class_section(report),
        _questions_section(report),
        _mistakes_section(report),
        _students_section(report),
        _changes_section(report) if "compare" in report else "",
    ]
    return f"""<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>Class report</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; max-width: 75em; }}
table {{ border-collapse: collapse; margin: .5em 0 1.5em; }} td, th {{ border: 1px solid #ccc; padding: .3em .5em;
text-align: left; vertical-align: top; }} th {{ background: #f3f3f3; }} td.n {{ text-align: right; }}
.flag {{ color: #cf222e; font-weight: bold; }} .notes {{ background: #fff8c5; padding: .5em 2em; }}
.hint {{ color: #0550ae; }} .src {{ color: #666; }} img {{ max-width: 100%; }} .muted {{ color: #666; }}
section {{ margin-bottom: 2em; }} details summary {{ cursor: pointer; }}
</style></head><body>
{"".join(body)}
</body></html>
"""


def _class_section(report: dict[str, Any]) -> str:
    summary = report["class"]
    if not summary["assignments"]:
        return "<section id=class><h2>Class · 全班</h2><p>No graded submissions in grades.csv.</p></section>"
    statuses = sorted({s for counts in summary["by_status"].values() for s in counts})
    head = "".join(f"<th>{esc(s)}</th>" for s in statuses)
    rows = []
    for a in summary["assignments"]:
        counts = summary["by_status"][a]
        fr = summary["fractions"][a]
        mean = sum(fr) / len(fr) if fr else None
        cells = "".join(f"<td class=n>{counts.get(s, 0)}</td>" for s in statuses)
        rows.append(f"<tr><td>{esc(a)}</td>{cells}<td class=n>{_pct(mean)}</td></tr>")
    return (
        "<section id=class><h2>Class · 全班</h2>"
        f"<p>{summary['students']} students, {len(summary['assignments'])} assignments.</p>"
        f"<table><tr><th>assignment</th>{head}<th>mean score</th></tr>{''.join(rows)}</table>"
        f"{_plot_scores(summary)}</section>"
    )


def _questions_section(report: dict[str, Any]) -> str:
    if not report["questions"]:
        return "<section id=questions><h2>Questions · 每道题</h2><p>No question rows to show.</p></section>"
    rows = []
    for q in report["questions"]:
        flags = "".join(f"<span class=flag>{esc(f)}</span> " for f in q["flags"])
        rows.append(
            f"<tr><td>{esc(q['assignment'])}</td><td>{esc(q['grade_id'])}</td><td class=n>{q['attempted']}</td>"
            f"<td class=n>{_pct(q['full_credit_rate'])}</td>"
            f"<td class=n>{_num(q['mean_points'])} / {q['max_points']:g}</td>"
            f"<td class=n>{_num(q['discrimination'])}</td><td>{flags}</td></tr>"
        )
    return (
        "<section id=questions><h2>Questions · 每道题</h2>"
        "<p class=muted>Attempted: the submission ran. Discrimination: correlation between the question's score "
        "and the rest of the assignment (PrairieLearn's definition); negative, or nobody passing, usually means a "
        "broken test rather than a hard question.</p>"
        "<table><tr><th>assignment</th><th>question</th><th>attempted</th><th>full credit</th><th>mean points</th>"
        f"<th>discrimination</th><th>flags</th></tr>{''.join(rows)}</table>{_plot_questions(report)}</section>"
    )


def _mistakes_section(report: dict[str, Any]) -> str:
    title = "<section id=misconceptions><h2>Misconceptions · 误解</h2>"
    if not report["has_mistakes"]:
        return title + "<p>No mistake column in questions.csv: misconceptions cannot be counted.</p></section>"
    blocks = []
    for q in report["questions"]:
        if not q["mistakes"]:
            continue
        rows = []
        for m in q["mistakes"]:
            links = ", ".join(_link(report, s, q["assignment"]) for s in m["students"])
            name = f"{esc(m['zh'])}<br><span class=muted>{esc(m['en'])}</span>"
            rows.append(
                f"<tr><td><code>{esc(m['mistake'])}</code></td><td>{name}</td><td class=n>{m['count']}</td>"
                f"<td class=n>{_pct(m['share'])}</td><td class=hint>{esc(m['hint'])}</td>"
                f"<td><details><summary>{m['count']} students</summary>{links}</details></td></tr>"
            )
        blocks.append(
            f"<h3>{esc(q['assignment'])} · {esc(q['grade_id'])}</h3><table><tr><th>id</th><th>mistake</th>"
            f"<th>students</th><th>share</th><th>hint</th><th>who</th></tr>{''.join(rows)}</table>"
        )
    if not blocks:
        return title + "<p>No failed question in this class.</p></section>"
    return title + _plot_mistakes(report) + "".join(blocks) + "</section>"


def _students_section(report: dict[str, Any]) -> str:
    rows = []
    for s in report["students"]:
        lost = ", ".join(_link(report, s["student"], x["assignment"], x["grade_id"]) for x in s["lost"][:12])
        more = f" … +{len(s['lost']) - 12}" if len(s["lost"]) > 12 else ""
        named = ", ".join(f"<code>{esc(m)}</code>×{n}" for m, n in s["mistakes"].items())
        rows.append(
            f"<tr><td>{esc(s['student'])}</td><td class=n>{s['score']:g} / {s['max_score']:g}</td>"
            f"<td class=n>{s['max_score'] - s['score']:g}</td><td>{lost}{more}</td><td>{named}</td></tr>"
        )
    if not rows:
        return "<section id=students><h2>Students · 学生</h2><p>No students.</p></section>"
    return (
        "<section id=students><h2>Students · 学生</h2><p class=muted>Most points lost first: who to help first.</p>"
        "<table><tr><th>student</th><th>score</th><th>lost</th><th>questions lost</th><th>named mistakes</th></tr>"
        f"{''.join(rows)}</table></section>"
    )


def _changes_section(report: dict[str, Any]) -> str:
    changes = report["compare"]["changes"]
    title = f"<section id=changes><h2>Changes since {esc(report['compare']['old'])} · 重新评分的变化</h2>"
    if not changes:
        return title + "<p>No score or status changed.</p></section>"
    rows = []
    for c in changes:
        old = "—" if c["old_points"] is None else f"{c['old_points']:g} ({esc(c['old_status'])})"
        new = "—" if c["new_points"] is None else f"{c['new_points']:g} ({esc(c['new_status'])})"
        rows.append(
            f"<tr><td>{esc(c['student'])}</td><td>{esc(c['assignment'])}</td><td>{esc(c['grade_id'] or 'total')}</td>"
            f"<td>{old}</td><td>{new}</td><td>{esc(c['old_message'])}</td><td>{esc(c['new_message'])}</td></tr>"
        )
    students = len({c["student"] for c in changes})
    return (
        title + f"<p>{students} students changed.</p><table><tr><th>student</th><th>assignment</th><th>question</th>"
        f"<th>old</th><th>new</th><th>old message</th><th>new message</th></tr>{''.join(rows)}</table></section>"
    )


# ---------------------------------------------------------------------------------------------------
# Plots (English labels: the report machine may have no CJK font)


def _png(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)  # no bbox_inches="tight": it draws the figure twice
    plt.close(fig)
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}">'


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _plot_scores(summary: dict[str, Any]) -> str:
    assignments = [a for a in summary["assignments"] if summary["fractions"][a]]
    if not assignments:
        return "<p>No submission ran: no score distribution.</p>"
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(assignments) + 2), 3.5))
    ax.boxplot([[100 * f for f in summary["fractions"][a]] for a in assignments], showmeans=True)
    ax.set_xticks(range(1, len(assignments) + 1), assignments, rotation=30, ha="right")
    ax.set_ylabel("score (% of max)")
    ax.set_ylim(-5, 105)
    ax.set_title("Score distribution per assignment (submissions that ran)")
    fig.subplots_adjust(bottom=0.3, left=0.1, right=0.97)
    return _png(fig)


def _plot_questions(report: dict[str, Any]) -> str:
    qs = [q for q in report["questions"] if q["full_credit_rate"] is not None]
    if not qs:
        return ""
    if len(qs) > PLOTTED_QUESTIONS:  # a readable plot: the questions the fewest students pass
        hardest = sorted(qs, key=lambda q: q["full_credit_rate"])[:PLOTTED_QUESTIONS]
        qs = [q for q in qs if q in hardest]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.22 * len(qs) + 1)))
    labels = [f"{q['assignment']}:{q['grade_id']}" for q in qs]
    colors = ["#cf222e" if q["flags"] else "#2f81f7" for q in qs]
    ax.barh(range(len(qs)), [100 * q["full_credit_rate"] for q in qs], color=colors)
    ax.set_yticks(range(len(qs)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"full credit (% of attempted; at most the {PLOTTED_QUESTIONS} lowest); red: flagged")
    fig.subplots_adjust(left=0.32, right=0.97, bottom=min(0.4, 0.8 / fig.get_figheight()))
    return _png(fig)


def _plot_mistakes(report: dict[str, Any]) -> str:
    totals: dict[str, int] = {}
    for q in report["questions"]:
        for m in q["mistakes"]:
            if m["mistake"] != classdata.UNKNOWN:
                totals[m["mistake"]] = totals.get(m["mistake"], 0) + m["count"]
    top = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
    if not top:
        return "<p>No named misconception in this class.</p>"
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(top) + 1))
    ax.barh(range(len(top)), [n for _, n in top], color="#8250df")
    ax.set_yticks(range(len(top)), [m for m, _ in top], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("students x questions")
    ax.set_title("Most frequent named misconceptions")
    fig.subplots_adjust(left=0.3, right=0.97, bottom=min(0.4, 0.7 / fig.get_figheight()))
    return _png(fig)
