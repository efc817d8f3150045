"""Run every CUDA branch of the course on a real GPU and print one table; without CUDA, say so and exit 0.

Steps (each timed; the first failure does not stop the others):

- ``04_devices``: the source notebook's cells, solutions and tests, with ``device = cuda`` (its CUDA branches);
- ``10_lenet_mnist``: the capstone's cells, the model trained on ``cuda``, and its tests;
- ``sync budget``: ``course.scenarios.count_syncs`` on real CUDA tensors, cross-checked with CUDA's own sync
  detector (``torch.cuda.set_sync_debug_mode``): the solution's ``train_one_epoch`` and ``evaluate`` and two
  one-line probes;
- ``load_mnist on cuda``: tests/test_data.py's CUDA test;
- ``benchmarks/capstone.py``: one run per recipe on ``cuda``, its table printed after ours.

    .venv/bin/python benchmarks/gpu_check.py        (make gpu-check)

Exit status 0 when every step passed (or there is no CUDA device), 1 otherwise. Meant to finish in under
5 minutes on one modern GPU with mnist-mini (COURSE_DATA_DIR).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _notebook(assignment: str) -> Callable[[], str]:
    def run() -> str:
        from tests import notebooks as nbs

        namespace = nbs.run_cells(nbs.read(nbs.source_path(assignment)))
        device = namespace.get("device")
        if str(device) != "cuda" and getattr(device, "type", None) != "cuda":
            raise AssertionError(f"the notebook chose device {device!r}, not cuda")
        history = namespace.get("history")
        if isinstance(history, dict) and history.get("val_acc"):
            best = history.get("best_epoch")
            return (
                f"device {device}, best validation accuracy {max(history['val_acc']):.4f} (epoch {best}), tests passed"
            )
        return f"device {device}, every cell and test passed"

    return run


def _sync_budget() -> str:
    """count_syncs on CUDA tensors against CUDA's sync detector: both must see the same (zero / non-zero)."""
    import torch
    from torch import nn

    from course import scenarios
    from tests import notebooks as nbs

    ns = nbs.learner_cells_namespace(nbs.read(nbs.source_path("10_lenet_mnist")))
    device = torch.device("cuda")
    x = torch.randn(300, 1, 28, 28, device=device)
    y = torch.randint(0, 10, (300,), device=device)
    torch.manual_seed(0)
    model = ns["LeNet"]().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    gen = torch.Generator().manual_seed(0)  # the capstone's loader: CPU tensors, pinned batches, non_blocking copies
    loader = ns["make_loader"](x.cpu(), y.cpu(), 128, shuffle=True, generator=gen, pin_memory=True)
    cases = [
        ("x.sum() (no read)", lambda: (x * 2).sum(), False),
        ("x.sum().item()", lambda: (x * 2).sum().item(), True),
        (
            "train_one_epoch",
            lambda: ns["train_one_epoch"](model, optimizer, nn.CrossEntropyLoss(), loader, 1.0),
            False,
        ),
        ("evaluate (one .item())", lambda: ns["evaluate"](model, x, y, 128), True),
    ]
    found = []
    for name, fn, syncs in cases:
        _, report = scenarios.count_syncs(fn)
        counted = len(report["calls"])
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("warn")
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                fn()
        finally:
            torch.cuda.set_sync_debug_mode("default")
        real = sum("synchroniz" in str(w.message).lower() for w in caught)
        if (counted > 0) != syncs or (real > 0) != syncs:
            raise AssertionError(
                f"{name}: counted {counted} sync(s), CUDA saw {real}; expected {'some' if syncs else 'none'}"
            )
        found.append(f"{name}: {counted}/{real}")
    return "counted/CUDA-detected: " + "; ".join(found)


def _pytest_cuda() -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/test_data.py", "-k", "requested_device", "-p", "no:cacheprovider"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    last = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    if proc.returncode != 0 or "skipped" in last or "passed" not in last:
        raise AssertionError(last)
    return last


BENCH_OUTPUT: list[str] = []


def _benchmark() -> str:
    proc = subprocess.run(
        [sys.executable, "benchmarks/capstone.py", "--device", "cuda", "--repeats", "1"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    BENCH_OUTPUT.append(proc.stdout)
    if proc.returncode != 0:
        raise AssertionError((proc.stderr.strip().splitlines() or ["(no output)"])[-1])
    ratios = [line.strip() for line in proc.stdout.splitlines() if "=" in line and "x" in line.split("=")[-1]]
    return ratios[-1] if ratios else "ran"


STEPS: list[tuple[str, Callable[[], str]]] = [
    ("04_devices notebook on cuda", _notebook("04_devices")),
    ("10_lenet_mnist notebook on cuda", _notebook("10_lenet_mnist")),
    ("sync budget on CUDA tensors", _sync_budget),
    ("load_mnist on cuda (test_data)", _pytest_cuda),
    ("benchmarks/capstone.py on cuda", _benchmark),
]


def main() -> int:
    import torch

    if not torch.cuda.is_available():
        print("gpu-check: skipped: no CUDA device here (torch.cuda.is_available() is False); nothing was run")
        return 0
    os.environ.setdefault("COURSE_DATA_DIR", str(ROOT.parent / "shared" / "data" / "mnist-mini"))
    print(f"gpu-check on {torch.cuda.get_device_name(0)} | torch {torch.__version__} | CUDA {torch.version.cuda}")
    rows, failed = [], 0
    start = time.perf_counter()
    for name, step in STEPS:
        t0 = time.perf_counter()
        try:
            note, ok = step(), True
        except Exception as exc:  # noqa: BLE001 - a failing step is a row of the table, not the end of the run
            note, ok = (
                f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ''}",
                False,
            )
            traceback.print_exc(file=sys.stderr)
            failed += 1
        rows.append((name, "ok" if ok else "FAIL", time.perf_counter() - t0, note))
        print(f"  {name}: {'ok' if ok else 'FAIL'} ({rows[-1][2]:.1f} s)", flush=True)
    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'step':<{width}}  result  seconds  detail")
    print("-" * (width + 40))
    for name, result, seconds, note in rows:
        print(f"{name:<{width}}  {result:<6}  {seconds:7.1f}  {note}")
    print(f"total {time.perf_counter() - start:.1f} s; {len(rows) - failed} of {len(rows)} steps passed")
    for output in BENCH_OUTPUT:
        print("\nbenchmarks/capstone.py --device cuda --repeats 1:\n" + output)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
