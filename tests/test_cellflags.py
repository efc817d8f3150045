"""course.cellflags: the top-level flags a cell computed from the machine, computed again on a played GPU."""

from __future__ import annotations

import torch

from course import cellflags, scenarios


def test_a_flag_the_cell_computed_from_the_machine_is_computed_again_on_a_played_gpu():
    namespace: dict = {"torch": torch}
    source = (
        "ON_GPU = torch.cuda.is_available()\n"
        "USE_AMP = ON_GPU and True\n"  # computed from a noted flag
        "device = torch.device('cuda' if ON_GPU else 'cpu')\n"  # a device: left as the cell made it
        "EPOCHS = 3\n"
        "def uses(x):\n    return (ON_GPU, USE_AMP, device.type)\n"
    )
    cellflags.note_cell(source, namespace)
    exec(source, namespace)
    assert [name for name, _ in cellflags.noted(namespace)] == ["ON_GPU", "USE_AMP", "device"]
    played, _ = scenarios.count_syncs(namespace["uses"], torch.ones(1))
    assert played == (True, True, "cpu")
    assert namespace["uses"](None) == (False, False, "cpu")  # put back after the call


def test_a_flag_assigned_again_without_asking_the_machine_is_forgotten():
    namespace: dict = {"torch": torch}
    cellflags.note_cell("ON_GPU = torch.cuda.is_available()", namespace)
    cellflags.note_cell("ON_GPU = False", namespace)
    assert cellflags.noted(namespace) == []
