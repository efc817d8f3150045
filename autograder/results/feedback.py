"""Feedback HTML for one graded notebook: per-question result and message, never the test code."""

from __future__ import annotations

import html
from typing import Any

STATUS_TEXT = {
    "ok": "已评分",
    "timeout": "部分单元超时 (timeout)",
    "crashed": "运行中崩溃 (crashed)",
    "invalid": "文件无法读取 (invalid)",
    "missing": "没有提交 (missing)",
}


def render(record: dict[str, Any], hints: dict[str, list[str]] | None = None) -> str:
    """One self-contained HTML page for a journal record (see autograder.grade).

    ``hints`` (exercise name -> hints, from the assignment's hints.toml) adds the first hint under each
    failed question: only when the instructor asks for it (``grade --show-hints``).
    """
    esc = html.escape
    rows = []
    for q in record["questions"]:
        ok = q["status"] == "passed"
        hint = ""
        if hints and not ok:
            texts = hints.get(q["grade_id"].removeprefix("test_"), [])
            hint = f"<div class=hint>提示 (hint) 1 / {len(texts)}：{esc(texts[0])}</div>" if texts else ""
        rows.append(
            f"<tr class={'pass' if ok else 'fail'}><td>{esc(q['grade_id'])}</td>"
            f"<td>{q['points']:g} / {q['max_points']:g}</td><td>{'✔' if ok else '✘'}</td>"
            f"<td>{esc(q['message'] or ('通过' if ok else ''))}{hint}</td></tr>"
        )
    note = f"<p class=note>{esc(record['message'])}</p>" if record.get("message") else ""
    return f"""<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8">
<title>{esc(record["assignment"])} — {esc(record["student_id"])}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; max-width: 60em; }}
table {{ border-collapse: collapse; width: 100%; }} td, th {{ border: 1px solid #ccc; padding: .4em; text-align: left; }}
tr.pass td:nth-child(3) {{ color: #1a7f37; }} tr.fail td:nth-child(3) {{ color: #cf222e; }}
.note {{ background: #fff8c5; padding: .5em; }} .hint {{ color: #0550ae; margin-top: .3em; }}
</style></head><body>
<h1>{esc(record["assignment"])}：{record["score"]:g} / {record["max_score"]:g}</h1>
<p>学生 (student): {esc(record["student_id"])} · 状态 (status): {esc(record["status"])} — {STATUS_TEXT[record["status"]]}</p>
{note}
<table><thead><tr><th>题目 (question)</th><th>得分 (points)</th><th></th><th>反馈 (feedback)</th></tr></thead>
<tbody>
{"".join(rows)}
</tbody></table>
<p>每道题的反馈来自测试单元的消息；测试代码 (test code) 不在这里显示。</p>
</body></html>
"""
