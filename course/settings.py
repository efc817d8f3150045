"""The process-wide settings a graded function must leave as it found them.

A learner's function that calls ``torch.set_default_dtype``, ``warnings.filterwarnings`` or
``torch.set_float32_matmul_precision`` changes every line its caller runs after it. Every call of a learner's
function is watched where it runs: in a notebook kernel by ``course.checks.call_learner``, in the grader by
the learner process around each call (the judge gets the change as a field of the reply, never from text).
Either way the setting is put back at once, so later checks run as they would have.
"""

from __future__ import annotations

import functools
import gc
import logging
import operator
import os
import random
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch
from torch._tensor_str import PRINT_OPTS
from torch.nn.modules import module as _module
from torch.optim import optimizer as _optimizer

from course import hooks


def _set_attr(owner: Any, name: str) -> Callable[[Any], None]:
    return lambda value: setattr(owner, name, value)


class _ReadAroundImports:
    """A reading of some process state, with the number of modules imported when it was taken: a library that
    Python imports during a call may change that state for itself, which is not the learner's doing."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.modules = len(sys.modules)

    def same(self, other: Any, imported: bool) -> bool:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.same(other, imported=self.modules != other.modules)  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


class _Filters(_ReadAroundImports):
    """``warnings.filters``: two readings differ when an entry was added or removed; around an import only the
    blanket entries for Python's own categories count (no message or module pattern, the ones
    ``filterwarnings("ignore")`` adds; SymPy's import adds ``("once", SymPyDeprecationWarning)``)."""

    def __init__(self) -> None:
        super().__init__(tuple(warnings.filters))

    def counted(self, imported: bool) -> list[Any]:
        if not imported:
            return list(self.value)
        return [e for e in self.value if e[1] is None and e[3] is None and e[2].__module__ == "builtins"]

    def same(self, other: _Filters, imported: bool) -> bool:
        return self.counted(imported) == other.counted(imported)


def _set_filters(value: _Filters) -> None:
    warnings.filters[:] = list(value.value)
    warnings._filters_mutated()  # type: ignore[attr-defined]  # as warnings.filterwarnings does


class _Environ(_ReadAroundImports):
    """``os.environ``; readings taken around an import are the same (a library may set variables for itself)."""

    def __init__(self) -> None:
        raw = getattr(os.environ, "_data", None)  # the encoded mapping: a C-level copy (this runs around every call)
        super().__init__(dict(raw) if isinstance(raw, dict) else dict(os.environ))

    @property
    def text(self) -> dict[str, str]:
        """The variables as ``os.environ`` shows them."""
        if all(isinstance(k, bytes) for k in self.value):
            return {os.fsdecode(k): os.fsdecode(v) for k, v in self.value.items()}
        return dict(self.value)

    def same(self, other: _Environ, imported: bool) -> bool:
        return imported or self.value == other.value


def _set_environ(value: _Environ) -> None:
    wanted = value.text
    for name in set(os.environ) - set(wanted):
        del os.environ[name]
    for name, text in wanted.items():
        if os.environ.get(name) != text:
            os.environ[name] = text


class _PythonRandom(_ReadAroundImports):
    """Python's global ``random`` state (``random.seed()``, ``random.setstate()``, or numbers drawn from it)."""

    def __init__(self) -> None:
        super().__init__(random.getstate())

    def same(self, other: _PythonRandom, imported: bool) -> bool:
        return imported or self.value == other.value


class _NumpyRandom(_ReadAroundImports):
    """NumPy's global RNG (``np.random.seed()``, ``np.random.set_state()``, or numbers drawn from it); readings
    taken around an import are the same (a library may draw for itself)."""

    def __init__(self) -> None:
        super().__init__(np.random.get_state(legacy=False))

    def _key(self) -> tuple[Any, ...]:
        state = self.value["state"]
        return (
            self.value["bit_generator"],
            state["key"].tobytes(),
            state["pos"],
            self.value["has_gauss"],
            self.value["gauss"],
        )

    def same(self, other: _NumpyRandom, imported: bool) -> bool:
        return imported or self._key() == other._key()


def _flush_denormal() -> bool:
    """Whether ``torch.set_flush_denormal(True)`` is on (torch has no getter): a subnormal float32 times 1 is 0."""
    return bool(torch.mul(_SUBNORMAL, 1.0).item() == 0.0)


# the smallest subnormal float32, made once from its bits (a conversion from 1e-40 is flushed to 0 while the flag is on)
_SUBNORMAL = torch.tensor([1], dtype=torch.int32).view(torch.float32)


_PROBE_SEED = 0x5EED_2117_113  # the global seed a watched call starts from: one no learner writes


class _Seed:
    """The global RNG's seed, ``torch.initial_seed()``: ``torch.manual_seed`` and ``torch.seed`` change it, drawing
    random numbers does not. A reading taken before a call arms a probe: the seed field of the generator's state
    becomes ``_PROBE_SEED`` while the stream of random numbers goes on unchanged, so that even a
    ``torch.manual_seed(0)`` in a notebook seeded with 0 shows. :func:`restore_changed` puts the seed back."""

    def __init__(self, arm: bool) -> None:
        self.state = torch.get_rng_state()
        self.seed = torch.initial_seed()
        if arm:
            _set_seed_field(_PROBE_SEED)
        self.value = torch.initial_seed()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Seed) and self.value == other.value

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


def _set_seed_field(seed: int) -> None:
    """``torch.initial_seed()`` becomes ``seed``; the generator's stream of numbers stays where it is (the seed is
    the first 8 bytes of the CPU generator's state)."""
    state = torch.get_rng_state()
    state[:8] = _seed_bytes(seed)  # a uint64, little-endian
    torch.set_rng_state(state)


@functools.lru_cache(maxsize=64)
def _seed_bytes(seed: int) -> torch.Tensor:
    return torch.tensor(list(seed.to_bytes(8, "little")), dtype=torch.uint8)


def _set_seed(value: _Seed) -> None:
    torch.set_rng_state(value.state)  # the stream as it was before the call, and the seed


PYTHON_RANDOM = "random.seed() / random.setstate()（Python 的全局随机数生成器）"
NUMPY_RANDOM = "numpy.random.seed() / numpy.random.set_state()（NumPy 的全局随机数生成器）"
_UNREADABLE = "(读不出：fp32_precision 新接口已被改过)"


def _tolerant(read: Callable[[], Any]) -> Callable[[], Any]:
    """``read`` of a legacy precision flag, which torch refuses once the ``fp32_precision`` API has set another
    value; then a marker that differs from every real reading (the new API's own entry names the change)."""

    def reading() -> Any:
        try:
            return read()
        except RuntimeError:
            return _UNREADABLE

    return reading


_FP32_PRECISION = [  # torch 2.9+: where the new API keeps the TF32 choice
    ("torch.backends", "fp32_precision"),
    ("torch.backends.cuda.matmul", "fp32_precision"),
    ("torch.backends.cudnn", "fp32_precision"),
    ("torch.backends.cudnn.conv", "fp32_precision"),
    ("torch.backends.cudnn.rnn", "fp32_precision"),
    ("torch.backends.mkldnn", "fp32_precision"),
    ("torch.backends.mkldnn.matmul", "fp32_precision"),
    ("torch.backends.mkldnn.conv", "fp32_precision"),
    ("torch.backends.mkldnn.rnn", "fp32_precision"),
]


class _Precision:
    """One ``fp32_precision`` attribute: "none" means "as its parent" (the top level's "none": "ieee"), so two
    readings are equal when the precision in effect is (``torch.set_float32_matmul_precision("highest")`` put
    back writes "ieee" where "none" was); the raw value is what is put back."""

    def __init__(self, path: str, name: str) -> None:
        self.value = getattr(_OWNERS[path], name)
        self.effective = _effective_precision(path, name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Precision) and self.effective == other.effective

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.value)


def _effective_precision(path: str, name: str) -> str:
    while True:
        owner = _OWNERS.get(path) or _OWNERS.setdefault(path, _owner(path))
        value = getattr(owner, name, "none")
        if value != "none" or path == "torch.backends":
            return "ieee" if value == "none" else value
        path = path.rsplit(".", 1)[0]


def _owner(path: str) -> Any:
    owner: Any = torch
    for part in path.split(".")[1:]:
        owner = getattr(owner, part, None)
    return owner


_OWNERS = {path: _owner(path) for path, _ in _FP32_PRECISION}


def _fp32_precision_settings() -> dict[str, tuple[Callable[[], Any], Callable[[Any], None]]]:
    found = {}
    for path, name in _FP32_PRECISION:
        owner = _owner(path)
        if owner is not None and hasattr(owner, name):
            found[f"{path}.{name}"] = (
                lambda p=path, n=name: _Precision(p, n),
                lambda value, o=owner, n=name: setattr(o, n, value.value),
            )
    return found


class _CudaSeed:
    """The CUDA generators' seeds. Before CUDA starts (always on a machine without a GPU), torch only queues a
    ``torch.cuda.manual_seed*`` / ``seed*`` / ``set_rng_state`` call to run when it does: a reading is what is
    queued (compared by identity); once CUDA runs, each device's ``initial_seed()``."""

    def __init__(self) -> None:
        cuda = torch.cuda
        if cuda._initialized:  # the real state, also where a played GPU answers is_initialized()
            self.value: tuple[Any, ...] = tuple(_device_seed(i) for i in range(cuda.device_count()))
        else:
            tracker = cuda._lazy_seed_tracker
            self.value = (tracker.manual_seed_all_cb, tracker.manual_seed_cb, _queued_rng_calls())
            self.order = list(tracker.call_order)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _CudaSeed)
            and len(self.value) == len(other.value)
            and all(a is b or _same_calls(a, b) for a, b in zip(self.value, other.value))
        )

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "torch.cuda 的种子" if hasattr(self, "order") else f"initial_seed {self.value}"


def _queued_rng_calls() -> tuple[Any, ...]:
    """The queued CUDA calls that set a generator (torch.cuda.random's; a library imported during a call may queue
    others, such as a capability check, which are not the learner's doing)."""
    return tuple(c for c in torch.cuda._queued_calls if getattr(c[0], "__module__", "") == "torch.cuda.random")


def _same_calls(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):  # queued calls: the same entries, by identity
        return len(a) == len(b) and all(x is y for x, y in zip(a, b))
    return a == b


def _device_seed(index: int) -> int:
    with torch.cuda.device(index):
        return torch.cuda.initial_seed()


def _set_cuda_seed(value: _CudaSeed) -> None:
    if not hasattr(value, "order"):  # CUDA runs: seed each device as it was (its stream restarts from there)
        for index, seed in enumerate(value.value):
            with torch.cuda.device(index):
                torch.cuda.manual_seed(seed)
        return
    tracker = torch.cuda._lazy_seed_tracker
    tracker.manual_seed_all_cb, tracker.manual_seed_cb = value.value[0], value.value[1]
    tracker.call_order = list(value.order)
    torch.cuda._queued_calls[:] = [
        c for c in torch.cuda._queued_calls if c not in _queued_rng_calls() or any(c is q for q in value.value[2])
    ]


def _root_logger() -> tuple[int, tuple[Any, ...]]:
    return logging.root.level, tuple(logging.root.handlers)


def _set_root_logger(value: tuple[int, tuple[Any, ...]]) -> None:
    logging.root.setLevel(value[0])
    logging.root.handlers[:] = list(value[1])


_DEFAULT_LOGGER = (logging.NOTSET, (), True, False)


_LIBRARY_LOGGERS: set[str] = set()  # names found to be a library's (its module stays imported)


def _library_logger(name: str) -> bool:
    """Whether a logger belongs to an imported library (``torch._dynamo.guards``): libraries set up their own
    loggers when they load or first run (torch's on the first dispatch mode), which is not the learner's doing."""
    if name in _LIBRARY_LOGGERS:
        return True
    top = name.partition(".")[0]
    if top != "__main__" and top in sys.modules:
        _LIBRARY_LOGGERS.add(name)
        return True
    return False


_NAMES_OF: list[Any] = [-1, []]  # (how many loggers there were, the learner's names among them) at the last reading


def _logger_states() -> dict[str, tuple[int, tuple[Any, ...], bool, bool]]:
    """(level, handlers, propagate, disabled) of every learner's named logger (not a library's) that differs from
    a new logger's: a call that only asks for ``logging.getLogger("train")`` changes nothing; one that adds a
    handler or sets a level does."""
    found = {}
    loggers = logging.Logger.manager.loggerDict
    if len(loggers) != _NAMES_OF[0]:  # a logger was made since the last reading: sort the names again
        _NAMES_OF[:] = [len(loggers), [name for name in list(loggers) if not _library_logger(name)]]
    for name in _NAMES_OF[1]:
        logger = loggers.get(name)
        if isinstance(logger, logging.Logger):
            state = (logger.level, tuple(logger.handlers), logger.propagate, logger.disabled)
            if state != _DEFAULT_LOGGER:
                found[name] = state
    return found


def _set_named_loggers(value: dict[str, tuple[int, tuple[Any, ...], bool, bool]]) -> None:
    for name in set(_logger_states()) | set(value):
        level, handlers, propagate, disabled = value.get(name, _DEFAULT_LOGGER)
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers[:] = list(handlers)
        logger.propagate, logger.disabled = propagate, disabled


def _sys_path() -> tuple[str, ...]:
    return tuple(sys.path)


def _set_sys_path(value: tuple[str, ...]) -> None:
    sys.path[:] = list(value)


def _set_streams(value: tuple[Any, Any]) -> None:
    sys.stdout, sys.stderr = value


def _global_hooks() -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Every process-wide hook table, as (table, its entries): module hooks
    (``torch.nn.modules.module.register_module_forward_hook`` and its kin) and optimizer hooks
    (``torch.optim.optimizer.register_optimizer_step_pre_hook`` / ``_post_hook``)."""
    return tuple((name, tuple(getattr(owner, name).items())) for owner, name in _GLOBAL_HOOK_TABLES)


def _set_global_hooks(value: tuple[tuple[str, tuple[Any, ...]], ...]) -> None:
    for (owner, name), (_, items) in zip(_GLOBAL_HOOK_TABLES, value):
        table = getattr(owner, name)
        table.clear()
        table.update(items)


_GLOBAL_HOOK_TABLES = [
    (owner, n)
    for owner in (_module, _optimizer)
    for n, v in sorted(vars(owner).items())
    if n.startswith("_global_") and isinstance(v, dict)
]

_MISSING = object()
# the namespaces a learner's code calls torch through: a name rebound there (``F.relu = my_relu``,
# ``torch.Tensor.item = ...``) changes every later call in the process
_NAMESPACES: dict[str, Any] = {
    "torch": torch,
    "torch.Tensor": torch.Tensor,
    "torch.Tensor 的方法": torch._C.TensorBase,
    "torch.nn.functional": torch.nn.functional,
    "torch.nn.init": torch.nn.init,
    "torch.linalg": torch.linalg,
    "torch.autograd": torch.autograd,
    "torch.nn.Module": torch.nn.Module,  # __call__, train, eval, state_dict: every model of the caller's goes through them
    "torch.optim.Optimizer": torch.optim.Optimizer,
}


class _Bindings(_ReadAroundImports):
    """What the names of :data:`_NAMESPACES` are bound to, by identity; names added around an import (torch
    imports submodules lazily) are a library's, names rebound or removed are not. A reading is a plain copy of
    each namespace (a C-level copy: this runs around every learner call); :func:`_callables` filters it only
    when two readings differ."""

    def __init__(self) -> None:
        super().__init__({label: dict(vars(ns)) for label, ns in _NAMESPACES.items()})

    def changed(self, other: _Bindings, imported: bool) -> list[str]:
        """The names bound to another object in one reading than in the other, and (unless an import came between)
        the names only one reading has; the same answer whichever reading is ``self``."""
        found = []
        for label, mine_all in self.value.items():
            mine, theirs = _callables(mine_all), _callables(other.value[label])
            shown = "torch.Tensor" if label.startswith("torch.Tensor") else label
            found += [f"{shown}.{k}" for k in mine.keys() & theirs.keys() if mine[k] is not theirs[k]]
            if not imported:
                found += [f"{shown}.{k}" for k in mine.keys() ^ theirs.keys()]
        return sorted(found)

    def same(self, other: _Bindings, imported: bool) -> bool:
        if all(_same_objects(mine, other.value[label]) for label, mine in self.value.items()):
            return True  # the common case, without filtering
        return not self.changed(other, imported)

    def unchanged_now(self) -> bool:
        """Whether every namespace still binds the same names to the same objects (no new reading needed)."""
        return all(_same_objects(mine, vars(_NAMESPACES[label])) for label, mine in self.value.items())


def _same_objects(a: dict[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two namespace copies hold the same names bound to the same objects, by identity (a quick test: False
    may still mean the same callables, see :meth:`_Bindings.same`)."""
    # the same key objects in the same order (a dict unchanged keeps both): equal keys made anew only take the slow path
    return len(a) == len(b) and all(map(operator.is_, a.values(), b.values())) and all(map(operator.is_, a, b))


def _callables(names: dict[str, Any]) -> dict[str, Any]:
    """The names of a namespace copy and what they are bound to, classes and modules left out (torch rebinds some
    itself: ``torch.set_default_dtype`` sets ``torch.Storage``; submodules appear as they are imported)."""
    return {k: v for k, v in names.items() if not isinstance(v, (type, types.ModuleType)) and k not in _CACHES}


_CACHES = {  # what Python itself stores: on a class the first time it pickles one (torch.save); on a module when a
    "__slotnames__",  # warning is raised from its code (torch.backends.cuda.matmul.fp32_precision = "tf32")
    "__warningregistry__",
}


def _set_bindings(value: _Bindings) -> None:
    imported = value.modules != len(sys.modules)
    for label, names in value.value.items():
        ns = _NAMESPACES[label]
        now = _callables(vars(ns))
        for k, v in _callables(names).items():
            if now.get(k, _MISSING) is not v:
                setattr(ns, k, v)
        for k in [] if imported else [k for k in now if k not in names]:
            delattr(ns, k)


def _mode_stacks() -> tuple[int, int]:
    """How many torch function modes and dispatch modes are entered (``TorchFunctionMode().__enter__()``)."""
    return torch._C._len_torch_function_stack(), torch._C._len_torch_dispatch_stack()


def _set_mode_stacks(value: tuple[int, int]) -> None:
    while torch._C._len_torch_function_stack() > value[0]:
        torch._C._pop_torch_function_stack()
    while torch._C._len_torch_dispatch_stack() > value[1]:
        torch._C._pop_torch_dispatch_stack()


def _saved_tensors_hooks() -> Any:
    """The innermost ``torch.autograd.graph.saved_tensors_hooks`` pair in effect (None when there is none)."""
    return torch._C._autograd._top_saved_tensors_default_hooks(False)


def _set_saved_tensors_hooks(value: Any) -> None:
    for _ in range(64):  # pop what the call pushed and left
        if _saved_tensors_hooks() == value or _saved_tensors_hooks() is None:
            return
        torch._C._autograd._pop_saved_tensors_default_hooks()


_CUDA = torch.backends.cuda
BINDINGS = "torch 的函数 / 方法被换掉了"
GRADER_CODE = "评分器在你的进程里用到的代码（course / autograder 模块、torch 的模式和钩子机制、内置函数）被改动了"  # found by autograder.child.integrity

CUDA_SEED = "torch.cuda.manual_seed() / manual_seed_all() / seed()（GPU 的随机数生成器）"
HOOKS_LEFT, METHOD_REPLACED = hooks.HOOKS_LEFT, hooks.METHOD_REPLACED  # not process-wide: found by course.hooks
ATTRIBUTE_CHANGED = hooks.ATTRIBUTE_CHANGED


# Each setting as what the learner would have typed to change it: (read, restore). Read values compare with
# ``==`` (functions, such as showwarning, by identity).
SETTINGS: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {
    # first: a mode left entered sees (and may refuse) every torch call the other readings and restores make
    "进入之后没有退出的 TorchFunctionMode / TorchDispatchMode（__enter__() 而没有 __exit__()）": (
        _mode_stacks,
        _set_mode_stacks,
    ),
    "torch.autograd.graph.saved_tensors_hooks（进入之后没有退出）": (_saved_tensors_hooks, _set_saved_tensors_hooks),
    BINDINGS: (_Bindings, _set_bindings),  # early too: the readings below call torch (Tensor.item among it)
    "torch.manual_seed() / torch.seed()": (lambda: _Seed(arm=False), _set_seed),
    CUDA_SEED: (_CudaSeed, _set_cuda_seed),
    "gc.disable()": (gc.isenabled, lambda on: gc.enable() if on else gc.disable()),
    "gc.set_threshold()": (gc.get_threshold, lambda v: gc.set_threshold(*v)),
    "gc.callbacks": (lambda: tuple(gc.callbacks), lambda v: gc.callbacks.__setitem__(slice(None), list(v))),
    "sys.setswitchinterval()": (sys.getswitchinterval, sys.setswitchinterval),
    "sys.set_int_max_str_digits()": (sys.get_int_max_str_digits, sys.set_int_max_str_digits),
    "os.chdir()（当前工作目录）": (os.getcwd, os.chdir),
    "sys.path": (_sys_path, _set_sys_path),
    "sys.stdout / sys.stderr": (lambda: (sys.stdout, sys.stderr), _set_streams),
    "sys.setrecursionlimit()": (sys.getrecursionlimit, sys.setrecursionlimit),
    "random.seed() / random.setstate()（Python 的全局随机数生成器）": (
        _PythonRandom,
        lambda v: random.setstate(v.value),
    ),
    NUMPY_RANDOM: (
        _NumpyRandom,
        lambda v: np.random.set_state(v.value),
    ),
    "torch.set_flush_denormal()": (_flush_denormal, torch.set_flush_denormal),
    "torch.set_grad_enabled()": (torch.is_grad_enabled, torch.set_grad_enabled),
    "torch.set_default_dtype()": (torch.get_default_dtype, torch.set_default_dtype),
    "torch.set_default_device()": (torch.get_default_device, torch.set_default_device),
    "torch.use_deterministic_algorithms()": (
        lambda: (torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()),
        lambda v: torch.use_deterministic_algorithms(v[0], warn_only=v[1]),
    ),
    "torch.autograd.set_detect_anomaly()": (
        lambda: (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()),
        lambda v: torch.set_anomaly_enabled(*v),
    ),
    "torch.set_float32_matmul_precision()": (
        _tolerant(torch.get_float32_matmul_precision),
        torch.set_float32_matmul_precision,
    ),
    "torch.set_num_threads()": (torch.get_num_threads, torch.set_num_threads),
    "torch.set_autocast_dtype()": (
        lambda: (torch.get_autocast_dtype("cpu"), torch.get_autocast_dtype("cuda")),
        lambda v: (torch.set_autocast_dtype("cpu", v[0]), torch.set_autocast_dtype("cuda", v[1])),
    ),
    "torch.set_autocast_enabled()": (
        lambda: (torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled("cuda")),
        lambda v: (torch.set_autocast_enabled("cpu", v[0]), torch.set_autocast_enabled("cuda", v[1])),
    ),
    "torch.set_warn_always()": (torch.is_warn_always_enabled, torch.set_warn_always),
    "torch.autograd.set_multithreading_enabled()": (
        torch._C._is_multithreading_enabled,
        torch._C._set_multithreading_enabled,
    ),
    "torch.backends.mkldnn.enabled": (
        lambda: torch.backends.mkldnn.enabled,
        _set_attr(torch.backends.mkldnn, "enabled"),
    ),
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction": (
        lambda: torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        _set_attr(torch.backends.cuda.matmul, "allow_fp16_reduced_precision_reduction"),
    ),
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction": (
        lambda: torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
        _set_attr(torch.backends.cuda.matmul, "allow_bf16_reduced_precision_reduction"),
    ),
    "torch.backends.cuda.matmul.allow_tf32": (
        _tolerant(lambda: torch.backends.cuda.matmul.allow_tf32),
        _set_attr(torch.backends.cuda.matmul, "allow_tf32"),
    ),
    "torch.backends.cudnn.allow_tf32": (
        _tolerant(lambda: torch.backends.cudnn.allow_tf32),
        _set_attr(torch.backends.cudnn, "allow_tf32"),
    ),
    "torch.backends.cudnn.benchmark": (
        lambda: torch.backends.cudnn.benchmark,
        _set_attr(torch.backends.cudnn, "benchmark"),
    ),
    "torch.backends.cudnn.deterministic": (
        lambda: torch.backends.cudnn.deterministic,
        _set_attr(torch.backends.cudnn, "deterministic"),
    ),
    "torch.backends.cudnn.enabled": (lambda: torch.backends.cudnn.enabled, _set_attr(torch.backends.cudnn, "enabled")),
    # after the legacy flags: putting a legacy flag back writes these too, so they are read (and put back) last
    **_fp32_precision_settings(),
    "torch.cuda.set_sync_debug_mode()": (
        lambda: torch.cuda.get_sync_debug_mode() if torch.cuda.is_available() else 0,
        lambda v: torch.cuda.set_sync_debug_mode(v) if torch.cuda.is_available() else None,
    ),
    "torch.set_printoptions()": (lambda: dict(vars(PRINT_OPTS)), lambda v: vars(PRINT_OPTS).update(v)),
    "warnings.filterwarnings() / warnings.simplefilter()": (_Filters, _set_filters),
    "warnings.showwarning": (lambda: warnings.showwarning, _set_attr(warnings, "showwarning")),
    "numpy.seterr()": (np.geterr, lambda v: np.seterr(**v)),
    "numpy.set_printoptions()": (np.get_printoptions, lambda v: np.set_printoptions(**v)),
    "torch.utils.backcompat.broadcast_warning.enabled": (
        lambda: torch.utils.backcompat.broadcast_warning.enabled,
        _set_attr(torch.utils.backcompat.broadcast_warning, "enabled"),
    ),
    "torch.utils.backcompat.keepdim_warning.enabled": (
        lambda: torch.utils.backcompat.keepdim_warning.enabled,
        _set_attr(torch.utils.backcompat.keepdim_warning, "enabled"),
    ),
    "torch.nn.modules.module.register_module_forward_hook() / register_optimizer_step_pre_hook() 等全局 hook": (
        _global_hooks,
        _set_global_hooks,
    ),
    "logging.basicConfig() / the root logger": (_root_logger, _set_root_logger),
    "logging.disable()": (lambda: logging.root.manager.disable, logging.disable),
    "logging.getLogger(name) 的级别 / handler": (_logger_states, _set_named_loggers),
    "os.environ": (_Environ, _set_environ),
    "torch.backends.mha.set_fastpath_enabled()": (
        torch.backends.mha.get_fastpath_enabled,
        torch.backends.mha.set_fastpath_enabled,
    ),
    "torch.backends.opt_einsum.enabled / strategy": (
        lambda: (torch.backends.opt_einsum.enabled, torch.backends.opt_einsum.strategy),
        lambda v: (
            setattr(torch.backends.opt_einsum, "enabled", v[0]),
            setattr(torch.backends.opt_einsum, "strategy", v[1]) if v[0] else None,
        ),
    ),
    "torch.backends.cuda.enable_flash_sdp()": (_CUDA.flash_sdp_enabled, _CUDA.enable_flash_sdp),
    "torch.backends.cuda.enable_mem_efficient_sdp()": (_CUDA.mem_efficient_sdp_enabled, _CUDA.enable_mem_efficient_sdp),
    "torch.backends.cuda.enable_math_sdp()": (_CUDA.math_sdp_enabled, _CUDA.enable_math_sdp),
    "torch.backends.cuda.enable_cudnn_sdp()": (_CUDA.cudnn_sdp_enabled, _CUDA.enable_cudnn_sdp),
    "torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp()": (
        _CUDA.fp16_bf16_reduction_math_sdp_allowed,
        _CUDA.allow_fp16_bf16_reduction_math_sdp,
    ),
    "torch.backends.cuda.matmul.allow_fp16_accumulation": (
        lambda: _CUDA.matmul.allow_fp16_accumulation,
        _set_attr(_CUDA.matmul, "allow_fp16_accumulation"),
    ),
    "torch.backends.cuda.preferred_linalg_library()": (_CUDA.preferred_linalg_library, _CUDA.preferred_linalg_library),
    "torch.backends.cuda.preferred_blas_library()": (_CUDA.preferred_blas_library, _CUDA.preferred_blas_library),
    "torch.jit._state.disable() / enable()（TorchScript）": (
        lambda: torch.jit._state._enabled.enabled,
        lambda on: torch.jit._state.enable() if on else torch.jit._state.disable(),
    ),
}


_SEED = "torch.manual_seed() / torch.seed()"


def snapshot() -> dict[str, Any]:
    """Every setting's value now, taken just before a watched call (it arms the seed probe, see :class:`_Seed`)."""
    before = {name: read() for name, (read, _) in SETTINGS.items() if name != _SEED}
    return {_SEED: _Seed(arm=True), **before}


# the settings a GPU machine's setup cell sets for the computations that follow (TF32, cuDNN, the environment):
# in force for a played call, as there; every other setting a replayed cell changed is put back at once
_FOR_THE_CALL = (
    "matmul", "allow_tf32", "cudnn", "fp32_precision", "os.environ", "deterministic", "sdp", "opt_einsum", "mkldnn",
)  # fmt: skip


class KeptAround:
    """Every setting that can be read when it is made (a played GPU refuses some reads), and the torch CPU
    generator's state, around the course's own run of a learner's setup cell on a played GPU
    (:func:`course.cellflags.replayed`). :meth:`noted` reads them again after that run and at once puts back all it
    changed but the settings a computation runs under (:data:`_FOR_THE_CALL`, as a GPU machine's setup cell leaves
    them for the calls after it); :meth:`put_back` puts those back after the call, unless something changed them
    again since (a learner's call: the watch around it reports that); :meth:`again` sets them as the run left them
    for a later played call. No probe armed, nothing reported."""

    def __init__(self) -> None:
        self.readings: list[tuple[str, Callable[[], Any], Callable[[Any], None], Any]] = []
        for name, (read, restore) in SETTINGS.items():
            if name == _SEED or "sys.stdout" in name or "flush_denormal" in name:  # its reading runs torch ops,
                continue  # which a mode around the played call (a check's op recorder) would see
            try:
                self.readings.append((name, read, restore, read()))
            except Exception:  # noqa: BLE001, S112 - a reading only a real GPU answers
                continue
        self.rng = torch.random.get_rng_state()
        self.after: list[Any] = []

    def noted(self) -> None:
        self.after = [_reading(read) for _, read, _, _ in self.readings]
        for (name, read, restore, value), after in zip(self.readings, self.after, strict=True):
            if after != value and not any(part in name for part in _FOR_THE_CALL):
                _restored(read, restore, value)
        torch.random.set_rng_state(self.rng)  # torch.manual_seed(0) in a GPU block: the caller's stream goes on
        self.rng = None  # not kept alive with the readings (5 KB a check of kept memory would count as the call's)

    def again(self) -> None:
        for (name, read, restore, value), after in zip(self.readings, self.after, strict=False):
            if after != value and any(part in name for part in _FOR_THE_CALL):
                _restored(read, restore, after)

    def put_back(self, first: KeptAround | None = None) -> None:
        """Put back what the run left for the call (``first``'s, where :meth:`again` set it from another)."""
        source = first or self
        wanted = {name: after for (name, *_), after in zip(source.readings, source.after, strict=False)}
        for name, read, restore, value in self.readings:
            after = wanted.get(name, value)
            if any(part in name for part in _FOR_THE_CALL) and after != value and _reading(read) == after:
                _restored(read, restore, value)


def _restored(read: Callable[[], Any], restore: Callable[[Any], None], value: Any) -> None:
    try:
        restore(value)
    except Exception:  # noqa: BLE001, S110 - as unreadable as it was before
        pass


def _reading(read: Callable[[], Any]) -> Any:
    try:
        return read()
    except Exception:  # noqa: BLE001 - a reading only a real GPU answers
        return _UNREADABLE


def restore_changed(before: dict[str, Any]) -> list[tuple[str, str]]:
    """Put back every setting that differs from ``before``; (setting, how it changed) for each, in
    ``SETTINGS`` order, e.g. ``[("torch.set_default_dtype()", "torch.float32 -> torch.float64")]``."""
    changed = []
    for name, (read, restore) in SETTINGS.items():
        if getattr(before[name], "unchanged_now", bool)():  # the namespaces: compared where they are, not copied
            continue
        now = read()
        if now != before[name]:
            changed.append((name, _change(read, before[name], now)))
            if not (isinstance(now, str) and now == _UNREADABLE):  # the fp32_precision entries below put it back
                restore(before[name])
        elif name == _SEED:
            _set_seed_field(before[name].seed)  # the probe off again: the stream goes on from where the call left it
        if name == _SEED:
            before[name].value = before[name].seed  # disarmed: a second look finds nothing new
    return sorted(changed, key=lambda change: _UNREADABLE in change[1])  # a legacy flag torch refused to read: last


def _change(read: Callable[[], Any], before: Any, now: Any) -> str:
    if isinstance(before, _Filters):  # the entries added, not the whole list
        imported = before.modules != now.modules
        was, now_entries = before.counted(imported), now.counted(imported)
        added = [(e[0], e[2].__name__, e[1].pattern if e[1] else None) for e in now_entries if e not in was]
        if added:
            return f"新增 {added[:3]}"
        if len(was) == len(now_entries):
            return "已有的规则被挪到了前面（排在前面的规则先起作用）"
        return f"{len(was)} 条 -> {len(now_entries)} 条"
    if isinstance(before, _Seed):
        return f"调用中种子被重设为 {now.value}"
    if isinstance(before, (_PythonRandom, _NumpyRandom)):
        return "重设了种子，或从中抽了随机数"
    if isinstance(before, _Environ):
        was, is_now = before.text, now.text
        names = sorted(k for k in set(was) | set(is_now) if was.get(k) != is_now.get(k))
        return "变了的变量：" + ", ".join(names[:5])
    if read is _global_hooks:
        counts = {name: len(entries) for name, entries in before}
        return (
            "，".join(
                f"{name} {counts.get(name, 0)} 个 -> {len(entries)} 个"
                for name, entries in now
                if len(entries) != counts.get(name, 0)
            )
            or "换了其中的 hook"
        )
    if read is _mode_stacks:
        return f"多了 {now[0] - before[0]} 个 TorchFunctionMode、{now[1] - before[1]} 个 TorchDispatchMode 没有退出"
    if read is _saved_tensors_hooks:
        return "一对 pack / unpack hook 留在了栈上：之后每次保存张量给反向传播都经过它"
    if isinstance(before, _Bindings):
        names = before.changed(now, imported=before.modules != now.modules)
        return "、".join(names[:4])
    if read is _sys_path:
        added, removed = [p for p in now if p not in before], [p for p in before if p not in now]
        return f"加入 {added[:3]}，去掉 {removed[:3]}" if added or removed else "顺序变了"
    if read is _root_logger:
        return f"级别 {logging.getLevelName(before[0])} -> {logging.getLevelName(now[0])}，handler {len(before[1])} 个 -> {len(now[1])} 个"
    if read is _logger_states:
        names = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
        return "变了的 logger：" + ", ".join(names[:5])
    if isinstance(before, dict) and isinstance(now, dict):  # print options, numpy.seterr: the keys that changed
        keys = [k for k in before if before.get(k) != now.get(k)]
        return "，".join(f"{k}: {before.get(k)!r:.30} -> {now.get(k)!r:.30}" for k in keys[:4])
    if callable(before):
        return f"{getattr(before, '__qualname__', before)!s:.60} -> {getattr(now, '__qualname__', now)!s:.60}"
    return f"{before!r:.100} -> {now!r:.100}"


def message(setting: str, change: str) -> tuple[str, str]:
    """(what to tell the learner after "fn 返回之后，", mistake id) for a setting a call left changed."""
    if setting == "torch.set_grad_enabled()":
        return (
            (
                "grad mode 仍然关着 (torch.is_grad_enabled() 为 False)：torch.set_grad_enabled(False) 这样不带 with 的调用"
                "改的是全局设置，一直留到有人再打开它，调用者之后的训练不再建图，loss.backward() 会报错。"
                "真要不建图，用 with torch.no_grad(): 只关这一块。",
                "grad-mode-left-off",
            )
            if change.endswith("False")
            else (
                f"grad mode 变了（{change}）：torch.set_grad_enabled() 不带 with 改的是全局设置，调用者之后的每一步都跟着变。",
                "global-setting-changed",
            )
        )
    if setting == BINDINGS:
        return (
            f"torch 里的名字被绑到了别的对象上：{change}（monkey patch，测试已经改回去）。这是整个进程共用的，"
            "调用者之后每次调用它都走你的代码，不是 PyTorch 的。不要给 torch、torch.nn.functional、torch.Tensor 打补丁；"
            "要不同的行为，在函数里写自己的函数并直接调用它。",
            "global-setting-changed",
        )
    if setting == GRADER_CODE:
        return (
            f"评分器在你的进程里用到的代码被改动了：{change}（测试已经改回去）。测试在你的进程里观察你的函数怎么算"
            "（数主机-设备同步、记下模式和设备），用的是 course / autograder 模块里的代码和 torch 的模式、钩子机制："
            "改动它们不会让答案变对，只会让这个测试不通过。不要给这些模块、torch 的类或内置函数打补丁。",
            "global-setting-changed",
        )
    if setting == METHOD_REPLACED:
        return (
            f"调用者传入的模型上，{change} 被换成了你写的代码（函数、可调用对象或子类：给模块的方法打补丁，monkey patch）："
            "调用者之后调用它时走的是你的代码，不是 PyTorch 的。不要替换模块的方法；用模块本来的方法（module.eval()、p.requires_grad_(False) ……）"
            "做到规格要求的事。",
            "",
        )
    if setting == ATTRIBUTE_CHANGED:
        return (
            f"调用者传入的模块的设置被改了：{change}（测试已经改回去）。调用者之后每次用这个模块都按改过的设置算"
            "（例如 loss 从平均变成求和）。不要改传进来的模块的属性；需要别的算法时，在函数里另建一个"
            '（nn.MSELoss(reduction="sum")），或直接用函数形式（F.mse_loss(..., reduction="sum")）。',
            "",
        )
    if setting == HOOKS_LEFT:
        return (
            f"调用者传入的模块或优化器上留下了 hook（{change}）：register_*_hook 返回的 handle 要在函数返回前 remove()"
            "（放在 finally 里），否则调用者之后每次 forward / backward 都会再运行它，每调用一次函数还多挂一个。"
            "不要改调用者的模型和优化器。",
            "hook-left-on-module",
        )
    if setting == CUDA_SEED:
        return (
            "重设了 GPU 的随机种子（torch.manual_seed 也会重设它们；或 torch.cuda.manual_seed / manual_seed_all / seed、"
            "torch.cuda.set_rng_state）：它们改的是整个进程里随机数生成器的状态，调用者之后的 torch.rand / randn、Dropout 的掩码都跟着变，"
            "每次调用还会重复同样的随机数（没有 GPU 的机器上，torch 把这次调用排进队列，等 CUDA 启动时执行）。"
            "函数里不要动全局的随机数生成器；要可复现的随机数，用传进来的或自己新建的 torch.Generator。",
            "global-seed-reset",
        )
    if setting in (PYTHON_RANDOM, NUMPY_RANDOM):
        return (
            f"{setting.split('（')[1].rstrip('）')}的状态变了（{change}）：它是整个进程共用的，调用者之后的 "
            "random.shuffle / np.random.rand 之类都跟着变（重设了种子的话，每次调用还会重复同样的随机数）。"
            "函数里不要动全局的随机数生成器；要随机数，用传进来的或自己新建的 torch.Generator（题目给了的话）。",
            "global-seed-reset",
        )
    if setting == _SEED:
        return (
            f"重设了全局随机种子：全局随机数生成器的状态被换掉了（{change}）。torch.manual_seed()、torch.seed()、"
            "torch.set_rng_state() 改的是整个进程的随机数生成器，"
            "调用者之后的 torch.rand / randn、Dropout 的掩码、DataLoader 的打乱顺序都跟着变，每次调用还会重复同样的随机数。"
            "函数里不要动全局的随机数生成器；要可复现的随机数，用传进来的或自己新建的 torch.Generator。",
            "global-seed-reset",
        )
    return (
        f"全局设置变了：{setting}（{change}）。这是整个进程的设置，会一直留到有人再改回来，"
        "调用者之后的每一步都跟着变。函数只该返回结果，不要改全局设置；真要临时改，"
        "用只管一个块的写法（with torch.no_grad(): / with warnings.catch_warnings(): 等）。",
        "global-setting-changed",
    )
