"""The static bans' walk over a learner's code (``course.fixtures.autograd._walk_learner_code``), which 05's and 08's
checks make before each call of the learner's function: with the walk skipping torch's and Python's classes (now)
against reading every member of every reached object's class (before stop 63), side by side in one run.

Usage: .venv/bin/python benchmarks/static_walk.py [--calls 300]

Prints milliseconds per call of each check for both and the ratio before / now.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from course.fixtures import autograd, clipping  # noqa: E402

_LEARNER = """
import torch
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(torch.linalg.vector_norm(p.grad, norm_type))
    layers = {k: torch.linalg.vector_norm(torch.stack(v), norm_type) for k, v in groups.items()}
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
"""


def per_call(fn, calls: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    namespace: dict = {"__name__": "__main__"}
    exec(compile(_LEARNER, "<cell>", "exec"), namespace)  # a learner's cell: its functions' globals
    checks = {
        "05 passes_batched_grads(jacobian)": lambda: autograd.passes_batched_grads(namespace["jacobian"]),
        "05 referenced(jacobian)": lambda: autograd.referenced(namespace["jacobian"]),
        "08 named_shortcuts(layer_grad_norms)": lambda: clipping.named_shortcuts(namespace["layer_grad_norms"]),
    }
    skipped = autograd._NOT_THE_LEARNERS
    print(f"torch {torch.__version__}, {args.calls} calls each; ms per call")
    for name, check in checks.items():
        now = per_call(check, args.calls)
        autograd._NOT_THE_LEARNERS = ()  # every class read member by member, as before
        try:
            before = per_call(check, args.calls)
        finally:
            autograd._NOT_THE_LEARNERS = skipped
        print(f"{name:40s} before {before:7.3f}  now {now:7.3f}  ({before / now:.1f}x)")


if __name__ == "__main__":
    main()
