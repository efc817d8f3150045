"""``python -m autograder``: a thin command line over the functions in this package."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from autograder.errors import AutograderError


def _course_root(path: str | None) -> Path:
    from autograder.course_folder import course_root

    return course_root(path)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Course tools: generate student notebooks and grade notebooks with the hidden tests."""


@cli.command()
@click.argument("assignments", nargs=-1)
@click.option("--course", "course", type=click.Path(file_okay=False), help="Course folder (default: found from here).")
def generate(assignments: tuple[str, ...], course: str | None) -> None:
    """Regenerate release/ from source/ through nbgrader.

    \b
    Example:
      python -m autograder generate            # every assignment
      python -m autograder generate 01_tensors
    """
    from autograder.generate import generate as run_generate

    root = _course_root(course)
    for folder in run_generate(course_root=root, assignments=list(assignments) or None):
        click.echo(f"generated {folder.relative_to(root) if folder.is_relative_to(root) else folder}")


@cli.command("setup-cell")
@click.option("--course", "course", type=click.Path(file_okay=False), help="Course folder (default: found from here).")
def setup_cell(course: str | None) -> None:
    """Insert or update the setup cell (installs the course package in a hosted notebook) in source/.

    \b
    Idempotent; run `python -m autograder generate` afterwards. The site's URL is [tool.course-site].
    """
    from autograder.setup_cell import insert

    root = _course_root(course)
    changed = insert(root)
    for path in changed:
        click.echo(f"updated {path.relative_to(root)}")
    if not changed:
        click.echo("setup cells are current")


@cli.command("site")
@click.option("--out", "out", type=click.Path(file_okay=False), default="_site", show_default=True, help="Site folder.")
@click.option("--course", "course", type=click.Path(file_okay=False), help="Course folder (default: found from here).")
def site(out: str, course: str | None) -> None:
    """Build the course site from release/ (Sphinx + MyST-NB, offline); the demos run with COURSE_DATA_DIR."""
    from autograder.website import build

    root = _course_root(course)
    report = build(root, Path(out).resolve(), log=click.echo)
    click.echo(f"site: {report.out} ({report.pages} pages, {report.size_bytes / 1e6:.1f} MB, {report.seconds:.0f} s)")


@cli.command()
@click.argument("notebook", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--assignment", help="Assignment id, when the file or folder name does not tell it.")
@click.option(
    "--course", "course", type=click.Path(file_okay=False), help="Course folder with source/ (default: found)."
)
@click.option(
    "--cold", "cold", is_flag=True, help="Start a fresh engine for this check instead of the warm background one."
)
@click.option(
    "--hub", "hub", is_flag=True, help="Ask the class hub's grading service (hidden tests) about your saved notebook."
)
def check(notebook: str, as_json: bool, assignment: str | None, course: str | None, cold: bool, hub: bool) -> None:
    """Grade one notebook and print a per-question table ending in `score X / Y`.

    Uses the hidden tests when the course's source/ is found, else the visible tests alone (and says so).
    Hidden test code is never printed, only the messages. The verdict is the one `grade` would give (same
    engine). The first check starts that engine in the background; later ones reuse it (it stops after
    15 idle minutes).

    \b
    Example:
      python -m autograder check release/01_tensors/01_tensors.ipynb
      python -m autograder check my_copy.ipynb --assignment 01_tensors --json
      python -m autograder check --hub 01_tensors/01_tensors.ipynb   # on the class hub
    """
    if hub:
        from autograder.service import client

        answer = client.ask(
            assignment or client.guess_assignment(Path(notebook)), client.relative_to_home(Path(notebook))
        )
        if as_json:
            click.echo(json.dumps({**answer.result.to_json(), "next_at": answer.next_at}, ensure_ascii=False))
        else:
            click.echo(client.render(answer, Path(notebook).resolve().parent))
        return
    from autograder.check import check_notebook, format_table

    warm = not cold
    root = _course_root(course) if course else None
    result = check_notebook(Path(notebook), course_root=root, assignment=assignment, warm=warm)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        click.echo(format_table(result))


@cli.command()
@click.argument("submissions", type=click.Path(file_okay=False), required=False)
@click.option("--out", type=click.Path(file_okay=False), help="Folder for grades.csv, questions.csv, feedback/.")
@click.option(
    "--nbgrader-course",
    type=click.Path(file_okay=False),
    help="Grade an nbgrader course in place: its submitted/, gradebook, autograded/ and feedback/.",
)
@click.option("--gradebook", "gradebook_url", help="SQLAlchemy URL of the gradebook (default: SQLite in OUT/nbgrader).")
@click.option("--show-hints", is_flag=True, help="Add each failed question's first hint to the feedback pages.")
@click.option("--cluster", help="Dask scheduler address (tcp://host:8786), or local:N for N local worker processes.")
@click.option(
    "--assignment", "assignments", multiple=True, help="Assignment id to grade (repeatable; default: all found)."
)
@click.option("--jobs", type=click.IntRange(min=1), help="Submissions graded at once (default: the machine's cores).")
@click.option(
    "--timeout", type=click.FloatRange(min=1), help="Seconds per cell (default: nbgrader_config's Execute.timeout)."
)
@click.option(
    "--notebook-timeout", type=click.FloatRange(min=1), default=900, show_default=True, help="Seconds per notebook."
)
@click.option("--memory", default="4G", show_default=True, help="Memory a submission may allocate.")
@click.option(
    "--sandbox", "sandbox_mode", type=click.Choice(["auto", "bwrap", "none"]), default="auto", show_default=True
)
@click.option("--resume", is_flag=True, help="Finish an interrupted run in the same --out: grade only what is left.")
@click.option(
    "--course", "course", type=click.Path(file_okay=False), help="Course folder with source/ (default: found)."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def grade(
    submissions,
    out,
    nbgrader_course,
    gradebook_url,
    show_hints,
    cluster,
    assignments,
    jobs,
    timeout,
    notebook_timeout,
    memory,
    sandbox_mode,
    resume,
    course,
    quiet,
) -> None:
    """Grade a class in parallel and in a sandbox; every student and assignment gets its rows.

    SUBMISSIONS is nbgrader's layout: SUBMISSIONS/<student_id>/<assignment>/<assignment>.ipynb.
    Writes OUT/grades.csv, OUT/questions.csv, OUT/feedback/<student>/<assignment>/<assignment>.html and an
    nbgrader gradebook in OUT/nbgrader/ (nbgrader's export and formgrader work on it). Every point is
    decided in a judge process that never runs learner code (docs/grading.md).

    \b
    Example:
      python -m autograder grade submitted/ --out grades/ --jobs 2
      python -m autograder grade submitted/ --out grades/ --resume      # after an interruption
      python -m autograder grade --nbgrader-course /srv/nbgrader/course  # after nbgrader collect
      python -m autograder grade submitted/ --out grades/ --cluster local:4 \\
          --gradebook postgresql+psycopg://grader@db/gradebook              # Dask workers, shared gradebook
    """
    from autograder.grade import grade as run_grade

    if nbgrader_course is None and (submissions is None or out is None):
        raise AutograderError("give SUBMISSIONS and --out, or --nbgrader-course COURSE")
    records = run_grade(
        Path(submissions) if submissions else None,
        Path(out) if out else None,
        nbgrader_course=Path(nbgrader_course) if nbgrader_course else None,
        gradebook_url=gradebook_url,
        show_hints=show_hints,
        cluster=cluster,
        course_root=_course_root(course) if nbgrader_course is None else Path(nbgrader_course),
        assignments=list(assignments) or None,
        jobs=jobs,
        cell_timeout=timeout,
        notebook_timeout=notebook_timeout,
        memory=memory,
        sandbox_mode=sandbox_mode,
        resume=resume,
        progress=not quiet,
        warn=lambda text: click.echo(text, err=True),
    )
    counts: dict[str, int] = {}
    for record in records.values():
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    where = out or Path(nbgrader_course) / "grades"
    click.echo(f"graded {len(records)} submissions ({summary}); results in {where}")


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--map", "map_path", type=click.Path(dir_okay=False), help="Where to write the course map page.")
@click.option(
    "--course", "course", type=click.Path(file_okay=False), help="Course folder with source/ (default: found)."
)
def progress(folder: str | None, as_json: bool, map_path: str | None, course: str | None) -> None:
    """Check every assignment notebook in FOLDER and show where you stand in the whole course.

    FOLDER holds <id>/<id>.ipynb for each assignment (default: the course's release/). Prints one row
    per assignment (score, the questions that remain) and the next thing to do, and writes the course map
    FOLDER/course_map.html that the course home page links to. Your notebooks are only read.

    \b
    Example:
      python -m autograder progress
      python -m autograder progress ~/my-course-copies --json
    """
    from autograder.progress import MAP_NAME, format_table, render_map, to_json
    from autograder.progress import progress as run_progress

    root = _course_root(course) if course else None
    if folder is None:
        base = root or _course_root(None)
        folder = str(base / "release")
    rows = run_progress(Path(folder), course_root=root, warm=True)
    target = Path(map_path) if map_path else Path(folder) / MAP_NAME
    try:
        target.write_text(render_map(rows), encoding="utf-8")
    except OSError as exc:
        raise AutograderError(f"cannot write the course map {target}: {exc.strerror}") from None
    if as_json:
        click.echo(json.dumps(to_json(rows), ensure_ascii=False))
    else:
        click.echo(format_table(rows))
        click.echo(f"course map: {target}")


@cli.command()
@click.argument("out", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Write OUT/report.json instead of OUT/report.html.")
@click.option("--compare", "old", type=click.Path(), help="An earlier grading of the same class: list what changed.")
def report(out: str, as_json: bool, old: str | None) -> None:
    """What the class got wrong: OUT/report.html from a grading run's OUT folder alone.

    Per question: attempted, full-credit rate, mean points, discrimination and flags; the misconceptions
    behind failures, ranked by students, with hints and links to feedback pages; per student: what was
    lost. With --compare OLD_OUT: every student whose score or status changed, per question.

    \b
    Example:
      python -m autograder report grades-out
      python -m autograder report grades-out --compare grades-out-before-fix
    """
    from autograder.results.report import write

    target = write(Path(out), as_json=as_json, compare_with=Path(old) if old else None)
    click.echo(f"report: {target}")


def main() -> None:
    """Entry point: domain errors become one line on stderr and exit status 2."""
    try:
        cli.main(standalone_mode=False, prog_name="python -m autograder")
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except AutograderError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
