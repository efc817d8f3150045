"""Hidden-test checks through the hub's grading service under load, beside a local `check`.

Usage: .venv/bin/python benchmarks/hub_service.py [ASSIGNMENT ...] [--students 10] [--rounds 3] [--workers 2]
                                                  [--capstone-rounds 1]

Starts the class hub as the tests do (deploy/hub/jupyterhub_config.py on loopback, the grading service
started by the hub; no limits but the queue), gives each of ``--students`` students the right answers to
each assignment in their home, and warms the service (one check per worker). Then, ``--rounds`` times, every
student asks at the same moment (``POST api/check`` with their own hub token, as ``check --hub`` does); the
table shows p50 and p95 of those latencies (queueing included: ``--workers`` notebooks are graded at once)
beside a local warm `python -m autograder check` of the same notebook, run alone ``--local-rounds`` times (p50, p95)
with the background engine already up. Machines here are shared and noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hub import grader  # noqa: E402
from tests.hub import hub as hubs  # noqa: E402
from tests.notebooks import honest_submission  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered) + 0.4999))
    return ordered[min(rank, len(ordered)) - 1]


def through_service(hub: hubs.Hub, tokens: dict[str, str], assignment: str, rounds: int) -> list[float]:
    """Every student asks at once, ``rounds`` times; each request's seconds."""
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    path = f"{assignment}/{assignment}.ipynb"
    for _ in range(rounds):
        gate = threading.Barrier(len(tokens))

        def one(token: str, gate: threading.Barrier) -> None:
            gate.wait()
            start = time.perf_counter()
            reply = grader.ask(hub, token, assignment, path)
            elapsed = time.perf_counter() - start
            with lock:
                if reply.status != 200 or reply.body["result"]["score"] != reply.body["result"]["max_score"]:
                    errors.append(f"the service answered {reply.status}: {reply.text[:500]}")
                times.append(elapsed)

        threads = [threading.Thread(target=one, args=(token, gate)) for token in tokens.values()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            log = hub.state / "grader" / "requests.jsonl"
            raise SystemExit(errors[0] + "\n" + (log.read_text()[-2000:] if log.exists() else "") + hub.log_tail(3000))
    return times


def local_check(notebook: Path, rounds: int) -> list[float]:
    """``python -m autograder check NOTEBOOK`` with the warm engine up (one unmeasured check first)."""
    command = [sys.executable, "-m", "autograder", "check", str(notebook), "--course", str(ROOT)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times = []
    for i in range(rounds + 1):
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"check failed: {done.stderr.strip()[-500:]}")
        if i:
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", default=["01_tensors", "10_lenet_mnist"])
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--capstone-rounds", type=int, default=1, help="rounds for 10_lenet_mnist (it trains)")
    parser.add_argument("--local-rounds", type=int, default=3, help="local checks per assignment (after a warm one)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    students = [f"s{i:02d}" for i in range(1, args.students + 1)]
    settings = {
        "COURSE_GRADER_COOLDOWN_S": "0",
        "COURSE_GRADER_PER_HOUR": "0",
        "COURSE_GRADER_WORKERS": str(args.workers),
        "COURSE_GRADER_QUEUE": str(args.students),
        "COURSE_GRADER_CELL_TIMEOUT": "600",
        "COURSE_GRADER_NOTEBOOK_TIMEOUT": "1800",
    }
    rows = []
    with tempfile.TemporaryDirectory(prefix="hub-bench-") as tmp:
        with hubs.running_hub(Path(tmp), instructors=["instructor"], students=students, grader=settings) as hub:
            grader.wait_until_up(hub)
            tokens = {name: hub.user_token(name) for name in students}
            for assignment in args.assignments:
                notebook = json.loads(json.dumps(honest_submission(assignment)))
                for name in students:
                    grader.write(hub.home(name), f"{assignment}/{assignment}.ipynb", notebook)
                warm = dict(list(tokens.items())[: args.workers])
                through_service(hub, warm, assignment, 1)  # warm: one check per worker
                rounds = args.capstone_rounds if assignment.startswith("10_") else args.rounds
                service = through_service(hub, tokens, assignment, rounds)
                local = local_check(hub.home(students[0]) / assignment / f"{assignment}.ipynb", args.local_rounds)
                rows.append((assignment, service, local))
                print(f"{assignment}: service {sorted(round(t, 2) for t in service)}", flush=True)
                print(f"{assignment}: local   {sorted(round(t, 2) for t in local)}", flush=True)
    print(
        f"\n{args.students} students asking at once, {args.rounds} rounds ({args.capstone_rounds} for 10_*), {args.workers} workers, {os.cpu_count()} cores"
    )
    print("| assignment | service p50 (s) | service p95 (s) | local warm check p50 (s) | p95 (s) | p50 ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for assignment, service, local in rows:
        s50, s95 = statistics.median(service), percentile(service, 95)
        l50, l95 = statistics.median(local), percentile(local, 95)
        print(f"| {assignment} | {s50:.2f} | {s95:.2f} | {l50:.2f} | {l95:.2f} | {s50 / l50:.1f}x |")


if __name__ == "__main__":
    main()
