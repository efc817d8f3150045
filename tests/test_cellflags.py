"""course.cellflags: what the learner's cells computed at the top level from the machine, made again on a played GPU
(every spelling of "asked once": a flag, a block, a helper, a memo, a query held, a default argument), and put back."""

from __future__ import annotations

import textwrap

import pytest
import torch

from course import cellflags, scenarios


def _run(source: str) -> dict:
    namespace: dict = {"torch": torch, "__name__": "__main__"}  # as in a notebook
    source = textwrap.dedent(source)
    cellflags.note_cell(source, namespace)
    exec(source, namespace)
    return namespace


def _on_a_played_gpu(namespace: dict, name: str = "uses"):
    played, _ = scenarios.count_syncs(namespace[name], torch.ones(1))
    return played


def test_a_flag_the_cell_computed_from_the_machine_is_computed_again_on_a_played_gpu():
    namespace = _run(
        """
        ON_GPU = torch.cuda.is_available()
        USE_AMP = ON_GPU and True
        device = torch.device('cuda' if ON_GPU else 'cpu')
        EPOCHS = 3
        def uses(x):
            return (ON_GPU, USE_AMP, device.type)
        """
    )
    assert cellflags.noted(namespace) == ["ON_GPU", "USE_AMP", "device", "uses"]
    # the device runs again: in a counted call it is the played GPU (tensors read as on it too)
    assert _on_a_played_gpu(namespace) == (True, True, "cuda")
    assert namespace["uses"](None) == (False, False, "cpu")  # put back after the call


SPELLINGS = {
    "a flag set in an if block": """
        ON_GPU = False
        if torch.cuda.is_available():
            ON_GPU = True
        def uses(x):
            return ON_GPU
        """,
    "a tuple of flags": """
        ON_GPU, COUNT = torch.cuda.is_available(), torch.cuda.device_count()
        def uses(x):
            return ON_GPU and COUNT >= 1  # the H200 played has two
        """,
    "a flag computed by a helper": """
        def _has_gpu():
            return torch.cuda.is_available()
        HAVE_GPU = _has_gpu()
        def uses(x):
            return HAVE_GPU
        """,
    "a functools.cache memo": """
        import functools
        @functools.cache
        def _on_gpu():
            return torch.cuda.is_available()
        def uses(x):
            return _on_gpu()
        """,
    "a memo the first call fills in": """
        _AMP = None
        def uses(x):
            global _AMP
            if _AMP is None:
                _AMP = torch.cuda.is_available()
            return _AMP
        """,
    "a query held as a class attribute": """
        class _Machine:
            has_gpu = staticmethod(torch.cuda.is_available)
        def uses(x):
            return _Machine.has_gpu()
        """,
    "a query held in a dict": """
        _QUERIES = {"gpu": torch.cuda.is_available}
        def uses(x):
            return _QUERIES["gpu"]()
        """,
    "a query held in a closure": """
        def _held(query):
            return lambda: query()
        gpu = _held(torch.cuda.is_available)
        def uses(x):
            return gpu()
        """,
    "the query's value as a default argument": """
        def uses(x, on_gpu=torch.cuda.is_available()):
            return on_gpu
        """,
    "a flag as a default argument": """
        USE_AMP = torch.cuda.is_available()
        def uses(x, amp=USE_AMP):
            return amp
        """,
    "a flag set in a try block": """
        try:
            FREE = torch.cuda.mem_get_info()[0]
        except RuntimeError:
            FREE = 0
        def uses(x):
            return FREE > 0
        """,
    "a device string": """
        DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
        def uses(x):
            return DEVICE == "cuda"
        """,
    "an implementation picked once": """
        def _gpu(x):
            return True
        def _cpu(x):
            return False
        _IMPL = _gpu if torch.cuda.is_available() else _cpu
        def uses(x):
            return _IMPL(x)
        """,
    "a dtype picked once": """
        AMP_DTYPE = torch.bfloat16 if torch.cuda.is_available() else None
        def uses(x):
            return AMP_DTYPE is not None
        """,
    "a dict key stored": """
        CONFIG = {"epochs": 3}
        CONFIG["gpu"] = torch.cuda.is_available()
        def uses(x):
            return CONFIG["gpu"] and CONFIG["epochs"] == 3
        """,
    "a dict updated": """
        CONFIG = {}
        CONFIG.update(gpu=torch.cuda.is_available())
        FAST = CONFIG["gpu"]
        def uses(x):
            return FAST
        """,
    "a SimpleNamespace of flags": """
        from types import SimpleNamespace
        cfg = SimpleNamespace(gpu=torch.cuda.is_available())
        def uses(x):
            return cfg.gpu
        """,
    "a dataclass attribute set after": """
        from dataclasses import dataclass
        @dataclass
        class Cfg:
            amp: bool = False
        cfg = Cfg()
        cfg.amp = torch.cuda.is_available()
        def uses(x):
            return cfg.amp
        """,
    "argparse's args.cuda": """
        import argparse
        args = argparse.Namespace(no_cuda=False)
        args.cuda = not args.no_cuda and torch.cuda.is_available()
        def uses(x):
            return args.cuda
        """,
    "a set added to in an if block": """
        FEATURES = set()
        if torch.cuda.is_available():
            FEATURES.add("gpu")
        def uses(x):
            return "gpu" in FEATURES
        """,
    "an OrderedDict memo the first call fills": """
        from collections import OrderedDict
        _MEMO = OrderedDict()
        def uses(x):
            if "gpu" not in _MEMO:
                _MEMO["gpu"] = torch.cuda.is_available()
            return _MEMO["gpu"]
        """,
    "a class attribute the first call fills": """
        class _Cache:
            gpu = None
        def uses(x):
            if _Cache.gpu is None:
                _Cache.gpu = torch.cuda.is_available()
            return _Cache.gpu
        """,
    "a function attribute the first call fills": """
        def uses(x):
            if not hasattr(uses, "gpu"):
                uses.gpu = torch.cuda.is_available()
            return uses.gpu
        """,
    "a generic _once helper": """
        _CACHE = {}
        def _once(key, make):
            if key not in _CACHE:
                _CACHE[key] = make()
            return _CACHE[key]
        def uses(x):
            return _once("gpu", torch.cuda.is_available)
        """,
    "a setup function that sets a global": """
        USE_GPU = False
        def setup():
            global USE_GPU
            USE_GPU = torch.cuda.is_available()
        setup()
        def uses(x):
            return USE_GPU
        """,
    "a walrus in a print": """
        print(f"GPU: {(USE_GPU := torch.cuda.is_available())}")
        def uses(x):
            return USE_GPU
        """,
    "a for loop picking the backend": """
        BACKEND = "cpu"
        for name in ("cuda",):
            if getattr(torch, name).is_available():
                BACKEND = name
                break
        def uses(x):
            return BACKEND == "cuda"
        """,
    "a context picked once": """
        import contextlib
        CTX = torch.autocast("cuda", dtype=torch.bfloat16) if torch.cuda.is_available() else contextlib.nullcontext()
        def uses(x):
            return isinstance(CTX, torch.autocast)
        """,
    "a context computed from a flag": """
        import contextlib
        USE_AMP = torch.cuda.is_available()
        CTX = torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()
        def uses(x):
            return isinstance(CTX, torch.autocast)
        """,
    "an enum member picked once": """
        import enum
        class Precision(enum.Enum):
            FP32 = 1
            BF16 = 2
        PRECISION = Precision.BF16 if torch.cuda.is_available() else Precision.FP32
        def uses(x):
            return PRECISION is Precision.BF16
        """,
    "a match statement": """
        match torch.cuda.is_available():
            case True:
                AMP_DTYPE = torch.bfloat16
            case _:
                AMP_DTYPE = None
        def uses(x):
            return AMP_DTYPE is not None
        """,
    "a dict of flags printed with items()": """
        CONFIG = {"amp": torch.cuda.is_available()}
        for k, v in CONFIG.items():
            print(k, v)
        def uses(x):
            return CONFIG["amp"]
        """,
    "a flag computed by a string method of a device string": """
        DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
        print(DEVICE.upper())
        USE_AMP = DEVICE.startswith("cuda")
        def uses(x):
            return USE_AMP
        """,
    "a flag bound in a block beside a name bound again later": """
        if torch.cuda.is_available():
            device_name, USE_AMP = "cuda", True
        else:
            device_name, USE_AMP = "cpu", False
        device_name = torch.device(device_name)
        def uses(x):
            return USE_AMP
        """,
    "a dict of keyword arguments computed from a flag": """
        HAS_GPU = torch.cuda.is_available()
        AMP_KW = {"enabled": HAS_GPU, "dtype": torch.bfloat16}
        def uses(x):
            return AMP_KW["enabled"]
        """,
    "a flag asked again in a later cell": """
        HAS_GPU = torch.cuda.is_available()
        AMP_DTYPE = torch.bfloat16 if HAS_GPU else None
        HAS_GPU = torch.cuda.is_available()
        def uses(x):
            return AMP_DTYPE is not None
        """,
    "a GradScaler made with a keyword device": """
        SCALER = torch.amp.GradScaler(device="cuda")
        def uses(x):
            return SCALER.is_enabled()
        """,
    "a config dict holding a device": """
        CONFIG = {"device": torch.device("cuda" if torch.cuda.is_available() else "cpu"), "amp": torch.cuda.is_available()}
        def uses(x):
            return CONFIG["amp"]
        """,
    "a number computed from a flag with plain calls": """
        import os
        HAVE_GPU = torch.cuda.is_available()
        NUM_WORKERS = min(4, os.cpu_count() or 1) if HAVE_GPU else 0
        def uses(x):
            return NUM_WORKERS > 0
        """,
    "a flag stored through globals()": """
        globals()["ON_GPU"] = torch.cuda.is_available()
        def uses(x):
            return ON_GPU
        """,
    "a range of devices": """
        GPUS = range(torch.cuda.device_count())
        def uses(x):
            return len(GPUS) > 0
        """,
    "a loss module picked once": """
        class WideMSE(torch.nn.Module):
            def forward(self, a, b):
                return ((a.float() - b.float()) ** 2).mean()
        LOSS = torch.nn.MSELoss() if torch.cuda.is_available() else WideMSE()
        def uses(x):
            return isinstance(LOSS, torch.nn.MSELoss)
        """,
    "a probe that makes a tensor on the GPU": """
        try:
            torch.empty(0, device="cuda")
            ON_GPU = True
        except (RuntimeError, AssertionError):
            ON_GPU = False
        def uses(x):
            return ON_GPU
        """,
    "a flag kept in the environment": """
        import os
        os.environ["COURSE_USE_GPU"] = "1" if torch.cuda.is_available() else "0"
        def uses(x):
            return os.environ["COURSE_USE_GPU"] == "1"
        """,
    "a flag computed again from itself": """
        import os
        ON_GPU = torch.cuda.is_available()
        ON_GPU = ON_GPU and os.environ.get("FORCE_CPU") != "1"
        def uses(x):
            return ON_GPU
        """,
    "a flag in an instance of the notebook's own class": """
        class Config:
            def __init__(self):
                self.use_gpu = torch.cuda.is_available()
        cfg = Config()
        def uses(x):
            return cfg.use_gpu
        """,
    "a flag in a slotted dataclass": """
        from dataclasses import dataclass
        @dataclass(slots=True)
        class Cfg:
            gpu: bool = False
        cfg = Cfg(gpu=torch.cuda.is_available())
        def uses(x):
            return cfg.gpu
        """,
    "a block with a line only a real GPU runs": """
        USE_GPU = False
        if torch.cuda.is_available():
            torch.cuda.set_device(0)
            NAME = torch.cuda.get_device_name(0)
            USE_GPU = True
        def uses(x):
            return USE_GPU
        """,
    "an if block that never ran here": """
        if torch.cuda.is_available():
            GPU_NAME = "played"
        def uses(x):
            return "GPU_NAME" in globals()
        """,
}


@pytest.mark.parametrize("spelling", SPELLINGS, ids=str)
def test_every_spelling_of_a_machine_flag_asked_once_reads_as_on_a_gpu_in_a_played_call_and_is_put_back(spelling):
    namespace = _run(SPELLINGS[spelling])
    assert namespace["uses"](None) is False
    assert _on_a_played_gpu(namespace) is True
    assert namespace["uses"](None) is False  # put back: the same answer as before the played call


def test_a_block_that_never_ran_and_a_result_of_work_are_not_run_again_on_a_played_gpu():
    calls: list = []
    namespace: dict = {"torch": torch, "calls": calls}
    source = textwrap.dedent(
        """
        def work():
            calls.append(1)
            return 0.5
        if torch.cuda.is_available():
            big = torch.ones(3, device="cuda")
        ON_GPU = torch.cuda.is_available()
        acc = work() if ON_GPU or True else 0.0
        model = torch.nn.Linear(1, 1).to("cuda" if ON_GPU else "cpu")
        def uses(x):
            return (ON_GPU, "big" in globals())
        """
    )
    cellflags.note_cell(source, namespace)
    exec(source, namespace)
    assert _on_a_played_gpu(namespace) == (True, False)
    assert calls == [1] and cellflags.noted(namespace) == ["ON_GPU", "uses"]


def test_a_flag_assigned_again_without_asking_the_machine_is_forgotten():
    namespace = _run("ON_GPU = torch.cuda.is_available()\nON_GPU = False\n")
    assert cellflags.noted(namespace) == []


def test_a_plain_function_defined_again_keeps_its_object_for_a_check_that_holds_it():
    namespace = _run(
        """
        def uses(x, on_gpu=torch.cuda.is_available()):
            return on_gpu
        """
    )
    held = namespace["uses"]
    assert _on_a_played_gpu(namespace) is True  # count_syncs called the object it was given
    assert namespace["uses"] is held and held(None) is False


def test_a_flag_computed_from_a_device_the_cell_chose_and_the_device_itself_read_as_on_the_played_gpu():
    namespace = _run(
        """
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        USE_AMP = device.type == "cuda"
        WORKERS = 2 if USE_AMP else 0
        DEVICE, FAST = (torch.device("cuda"), True) if torch.cuda.is_available() else (torch.device("cpu"), False)
        def uses(x):
            return (device.type, USE_AMP, WORKERS, DEVICE.type, FAST)
        """
    )
    assert _on_a_played_gpu(namespace) == ("cuda", True, 2, "cuda", True)
    assert namespace["uses"](None) == ("cpu", False, 0, "cpu", False)


def test_a_table_filled_by_work_and_a_docstring_that_mentions_cuda_are_left_alone():
    calls: list = []
    namespace: dict = {"torch": torch, "calls": calls}
    source = textwrap.dedent(
        """
        def work():
            calls.append(1)
            return 0.5
        RUN = {}
        RUN["cuda"] = torch.cuda.is_available()
        RUN["acc"] = work()
        def uses(x):
            return RUN["cuda"], RUN["acc"]
        def plain(x):
            \"\"\"Works on CUDA and on the CPU.\"\"\"
            return 1
        """
    )
    cellflags.note_cell(source, namespace)
    exec(source, namespace)
    # RUN is not made again (its "acc" took work), and its "cuda" runs again on it in place, then is put back
    assert _on_a_played_gpu(namespace) == (True, 0.5) and calls == [1]
    assert namespace["RUN"] == {"cuda": False, "acc": 0.5}
    assert "plain" not in cellflags.noted(namespace)


def test_a_cell_with_ipython_magics_is_noted_without_them():
    namespace: dict = {"torch": torch}
    source = "%matplotlib inline\n!nvidia-smi\nUSE_GPU = torch.cuda.is_available()\ndef uses(x):\n    return USE_GPU\n"
    cellflags.note_cell(source, namespace)
    exec("USE_GPU = torch.cuda.is_available()\ndef uses(x):\n    return USE_GPU\n", namespace)
    assert cellflags.noted(namespace) == ["USE_GPU", "uses"]


def test_a_device_the_cell_chose_names_the_played_gpu_in_a_counted_call_and_runs_on_this_host():
    namespace = _run(
        """
        DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        def uses(x):
            y = torch.zeros(2, device=DEVICE) + x.to(DEVICE)
            return (DEVICE.type, y.is_cuda, y.sum().item())
        """
    )
    assert _on_a_played_gpu(namespace) == ("cuda", True, 2.0)
    assert namespace["DEVICE"].type == "cpu"


@pytest.mark.parametrize(
    "magic",
    ["gpu_info = !nvidia-smi\nprint(gpu_info)\n", "if True:\n    !nvidia-smi -L\n    pass\n", "torch.cuda?\n"],
    ids=["an assigned shell command", "an indented shell command", "a help query"],
)
def test_a_cell_with_ipython_syntax_anywhere_is_noted(magic):
    namespace: dict = {"torch": torch}
    tail = "USE_GPU = torch.cuda.is_available()\ndef uses(x):\n    return USE_GPU\n"
    cellflags.note_cell(magic + tail, namespace)
    exec(tail, namespace)
    assert cellflags.noted(namespace) == ["USE_GPU", "uses"]


def test_a_flag_kept_in_the_environment_reads_as_on_a_gpu_in_every_played_call():
    namespace = _run(SPELLINGS["a flag kept in the environment"])
    assert [_on_a_played_gpu(namespace) for _ in range(3)] == [True, True, True]
    assert namespace["uses"](None) is False


def test_settings_a_replayed_gpu_block_sets_hold_in_the_call_and_are_put_back_after():
    import random
    import warnings

    namespace = _run(
        """
        import random, warnings, os
        USE_GPU = False
        if torch.cuda.is_available():
            USE_GPU = True
            torch.backends.cudnn.benchmark = True
            torch.manual_seed(0)
            torch.cuda.manual_seed_all(0)
            random.seed(0)
            warnings.filterwarnings("ignore")
            os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
        def uses(x):
            return (USE_GPU, torch.backends.cudnn.benchmark, "PYTORCH_CUDA_ALLOC_CONF" in os.environ)
        """
    )
    state, filters = (torch.random.get_rng_state(), random.getstate()), list(warnings.filters)
    assert _on_a_played_gpu(namespace) == (True, True, True)  # as the cells left them on a GPU machine
    assert torch.equal(torch.random.get_rng_state(), state[0]) and random.getstate() == state[1]
    assert warnings.filters == filters and not torch.backends.cudnn.benchmark
    assert "PYTORCH_CUDA_ALLOC_CONF" not in __import__("os").environ


def test_a_time_cell_and_a_setup_block_that_sets_the_default_device_are_replayed_and_leave_nothing():
    namespace: dict = {"torch": torch, "__name__": "__main__"}
    source = "%%time\nUSE_GPU = torch.cuda.is_available()\nif USE_GPU:\n    torch.set_default_device('cuda')\n"
    cellflags.note_cell(source, namespace)
    exec(
        "USE_GPU = torch.cuda.is_available()\ndef uses(x):\n    return (USE_GPU, torch.zeros(1).device.type)\n",
        namespace,
    )
    cellflags.note_cell("def uses(x):\n    return (USE_GPU, torch.zeros(1).device.type)\n", namespace)
    assert _on_a_played_gpu(namespace) == (True, "cpu")
    assert torch.get_default_device().type == "cpu"
