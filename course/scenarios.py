"""Scenarios: test code that must run beside the learner's objects, started with ``course.remote.run``.

A test cell in the judge holds only stand-ins for the learner's functions, so anything that needs the
learner's live objects (autograd through a learner's result, counting what a learner's function does
while it runs) is a function here. In a notebook kernel ``remote.run(scenario, fn, ...)`` simply calls
``scenario(fn, ...)``; when grading it runs in the learner's process and only its result comes back.

What a scenario *observes* inside the learner's process (how many syncs, which calls) is a fact the
learner's own code could forge: it catches honest mistakes, not cheating. Values the judge compares
(results, gradients copied back) are the guaranteed part.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import glob
import inspect
import io
import logging
import os
import sys
import sysconfig
import threading
import types
import weakref
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.overrides import TorchFunctionMode, _get_current_function_mode_stack
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes
from torch.utils.data import Dataset

from course import cellflags, checks, settings, writes


def backward(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``out = fn(*args, **kwargs)``, then ``out.backward()``; return ``out``.

    The arguments' ``.grad`` (leaf tensors, module parameters) come back to the caller, as in a kernel.
    """
    out = fn(*args, **kwargs)
    out.backward()
    return out


_T = torch.Tensor
SYNC_CALLS = {
    _T.item: ".item()",
    _T.__float__: "float()",
    _T.__int__: "int()",
    _T.__complex__: "complex()",
    _T.__bool__: "bool() / if",
    _T.__index__: "index (range(t), seq[t])",
    _T.tolist: ".tolist()",
    _T.numpy: ".numpy()",
    _T.__array__: "np.asarray / np.array",
    _T.__repr__: "print / repr / str",
    _T.__format__: "f-string / format",
    _T.__contains__: "x in t",
}
# Loss functions whose first argument is the prediction and second the target (``loss(input, target)``).
_LOSSES = {
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "poisson_nll_loss",
}  # fmt: skip


def _swapped(args: tuple, kwargs: dict) -> bool:
    """Whether a loss call got its arguments the wrong way round: the target needs grad, the prediction does not."""
    prediction = args[0] if len(args) > 0 else kwargs.get("input")
    target = args[1] if len(args) > 1 else kwargs.get("target")
    if not (isinstance(prediction, torch.Tensor) and isinstance(target, torch.Tensor)):
        return False
    return target.requires_grad and not prediction.requires_grad


# NumPy views of a tensor's memory: on a GPU, ``.numpy()`` / ``np.asarray(t)`` of a device tensor raise TypeError.
_NUMPY_HANDOFFS = {_T.numpy, _T.__array__}
# Results whose shape depends on the data: the host must learn the size before it can go on.
DATA_DEPENDENT = {"nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "bincount", "to_sparse"}
# Calls that return Python values without reading any element (metadata), and comparisons with non-tensors.
METADATA = {  # torch calls that read no values: a shape, a dtype, an attribute
    "size", "dim", "ndimension", "numel", "nelement", "stride", "storage_offset", "element_size", "data_ptr",
    "get_device", "__len__", "__get__", "__set__", "type", "dim_order", "has_names", "result_type", "can_cast",
    "promote_types", "__eq__", "__ne__", "__reduce_ex__", "__sizeof__", "__hash__",
    "_has_compatible_shallow_copy_type",  # module.to(device) asks it of each parameter: metadata, no read
}  # fmt: skip
_FROM_DATA = {"tensor", "as_tensor", "asarray"}
# Calls that move or index values between devices (not a device mix), and calls that join tensors.
_MOVES = {
    "to", "cpu", "cuda", "copy_", "__setitem__", "__getitem__", "type", "type_as", "new_tensor", "tensor",
    "as_tensor", "asarray", "__get__", "__set__", "_to_copy", "set_", "__dlpack__", "_foreach_copy_", "_foreach_copy",
    "_to_cpu", "fill_", "fill",
}  # fmt: skip
_HOST, _ACCELERATOR = torch.device("cpu"), torch.device("cuda")  # the two places SyncCounter tells apart
# What ``t.device`` of a device tensor reads in a SyncCounter on a CPU machine: a CPU device with an index, so that
# ``device=str(t.device)`` ("cpu:0", as "cuda:0" on a GPU) still names the device; a learner's host is plain "cpu".
PLAYED_DEVICE = torch.device("cpu", 0)
# What ``t.device`` of a device tensor reads to the learner's code in :func:`count_syncs`, which plays a GPU machine
# through and through: code guarded by a device check (``if x.is_cuda:``, ``x.device.type == "cuda"``) runs there.
PLAYED_CUDA = torch.device("cuda", 0)
_EVERY_STREAM = object()  # what a device-wide wait covers (SyncCounter._record)
_UNPLAYED = object()  # a metadata read :meth:`SyncCounter._reads_cuda` leaves to torch
# Calls whose result's device the counter decides itself (:meth:`SyncCounter._before`): the dispatcher's _to_copy
# under them is no copy to the host by itself (on a CPU machine every _to_copy names "cpu", ``t.type_as(u)`` too).
_CONVERTS = {"to", "cpu", "type", "type_as", "new_tensor", "tensor", "as_tensor", "asarray", "_to_copy"}
_JOINS = {"cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"}
_IN_PLACE_DUNDERS = {
    "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__", "__iand__",
    "__ior__", "__ixor__", "__ilshift__", "__irshift__", "__imatmul__",
}  # fmt: skip


def writes_in_place(name: str) -> bool:
    """Whether a torch call of this name writes into its first argument (``add_``, ``x += y``): not ``__setitem__``."""
    return name.endswith("_") and not name.startswith("__") or name in _IN_PLACE_DUNDERS


def op_name(func: Any) -> str:
    """The name a torch call goes by: ``"add_"`` for ``Tensor.add_`` and for ``torch.ops.aten.add_.Tensor`` alike
    (an ATen overload's own ``__name__`` is ``"add_.Tensor"``: its op's name says what it writes into)."""
    return func._opname if isinstance(func, torch._ops.OpOverload) else getattr(func, "__name__", "")


def devices_of_call(
    name: str, args: Any, kwargs: dict[str, Any], device_of: Callable[[torch.Tensor], torch.device]
) -> dict[torch.device, tuple[torch.Tensor, bool]]:
    """The devices one call's tensors must share on a GPU, in order: each with its first tensor and whether the
    call writes into that tensor. Two or more is what a GPU refuses ("Expected all tensors to be on the same
    device"). Moves (``.to``, ``copy_``, indexing) need none. A 0-d CPU tensor that is only read is taken like a
    Python number, except in ``cat`` / ``stack``; one written into (``total += loss``, ``out=total``,
    a foreach op's first list) counts.
    """
    if name in _MOVES:
        return {}
    targets = (tensors_in(args[0]) if writes_in_place(name) and args else []) + tensors_in(kwargs.get("out"))
    written = {id(t) for t in targets}
    found: dict[torch.device, tuple[torch.Tensor, bool]] = {}
    for t in tensors_in((args, kwargs)):
        device, writes = device_of(t), id(t) in written
        if device.type == "cpu" and t.dim() == 0 and name not in _JOINS and not writes:
            continue
        found.setdefault(device, (t, writes))
    return found


def written_tensors(func: Any, args: Any, kwargs: dict[str, Any]) -> list[torch.Tensor]:
    """The tensors an ATen overload ``func`` writes (in place, or ``out=``), from its schema (``Tensor(a!)``)."""
    found: list[torch.Tensor] = []
    for i, arg in enumerate(func._schema.arguments):
        if arg.alias_info is None or not arg.alias_info.is_write:
            continue
        value = args[i] if i < len(args) else kwargs.get(arg.name)
        found += [t for t in (value if isinstance(value, (list, tuple)) else [value]) if isinstance(t, torch.Tensor)]
    return found


# aten ops (packet names) that make the host read a tensor's values, or learn a data-dependent size.
ATEN_READS = {
    "_local_scalar_dense", "item", "is_nonzero", "equal", "allclose", "nonzero", "argwhere", "masked_select",
    "_unique", "_unique2", "unique_dim", "unique_consecutive", "unique_dim_consecutive", "bincount",
}  # fmt: skip
_paused = 0
_ATEN_OPS = (torch._ops.OpOverload, torch._ops.OpOverloadPacket)  # torch.ops.aten.to.device, torch.ops.aten.to


class SyncCounter(TorchFunctionMode):
    """Counts host-device syncs: every read of a device tensor's values by the host, whatever API made it.

    On a GPU each of these makes the CPU wait for the device; on a CPU they cost nothing (and ``.to("cpu")``
    of a CPU tensor returns it without copying), so the tests count them instead of timing them. Every torch
    call passes through this mode, which keeps track of where each tensor would live on a GPU machine: on the
    device, except what a transfer to the host made and what is computed from host tensors only. A sync is
    recorded, under the name of the API used, for

    - reading values into Python: ``.item()``, ``float()`` / ``int()`` / ``bool()`` (``if t:``),
      ``.tolist()``, ``print(t)`` / ``f"{t}"``, ``np.asarray(t)`` / ``.numpy()``, ``x in t``, and any torch
      call that returns a Python number (``torch.equal``, ``torch.allclose``, ...);
    - copies to the host: ``.cpu()``, ``.to("cpu")`` / ``.to(cpu_tensor)`` (with ``non_blocking=True`` too:
      the values are not there until a sync), ``.type(torch.FloatTensor)``, ``torch.as_tensor(t, device="cpu")``
      (and ``torch.tensor`` / ``torch.asarray``), ``cpu_tensor.copy_(t)``, ``cpu_tensor[i] = t``,
      ``torch._foreach_copy_([cpu_tensor], [t])`` (one per tensor copied to the host, and so the functional
      ``torch.ops.aten._foreach_copy``), ``cpu_tensor.fill_(t)`` (it reads ``t.item()``), the ATen ops behind
      them (``torch.ops.aten.to.device(t, cpu, dtype)``, ``torch.ops.aten._to_cpu([t, ...])``, ``_to_copy.out``),
      ``torch.tensor([t1, t2])`` (one per tensor it reads);
    - handing device memory to host code: ``np.from_dlpack(t)`` (``t.__dlpack__()``), ``t.untyped_storage()`` /
      ``t.storage()`` (reading a storage on the host copies it), unless torch's own code asked (``torch.save(t)``
      counts: it copies each storage to the host); ``t.apply_(f)`` /
      ``map_`` (CPU-only: they call ``f`` with each value);
    - results whose shape depends on the data: ``nonzero``, ``masked_select``, ``unique``, ``bincount``,
      ``t[mask]``, one-argument ``torch.where``, ``to_sparse``; and writes through a mask whose value is a tensor
      (``t[mask] = u``, ``index_put_((mask,), u)``: a GPU finds the positions with ``nonzero()``; a number, or a
      one-element host tensor, is a ``masked_fill_`` and needs none);
    - a gradient handed to ``backward`` / ``torch.autograd.grad`` on the host for an output on the device (autograd
      copies it there: an upload), and ``t[i] = torch.tensor(1.0)`` onto one element (``t[i].copy_``: an upload);
    - anything else that reaches the dispatcher as a host read (:data:`ATEN_READS`: ``torch.is_nonzero``,
      ``torch.ops.aten._local_scalar_dense``, ...) or a copy to the host (``torch.ops.aten._to_copy``):
      a dispatch mode entered with this one sees every aten op, and a Python-level call is counted once,
      under its own name (``is_nonzero()``), however many aten reads it made.

    Threads the block starts (``threading.Thread``, a ``ThreadPoolExecutor`` made in the block) are counted too: a
    torch mode is per thread, so while it counts, ``Thread.start`` runs each new thread under this counter.

    ``factories_on_device``: whether tensors made in the block without a device (``torch.zeros(3)``) are on
    the device, as in a demo that imagines everything on the GPU (the default). :func:`count_syncs` sets it to
    False: there a learner's ``torch.zeros(3)`` is a CPU tensor, as on a GPU machine, and a tensor is made on
    the device by ``device=t.device`` of a device tensor, or by a ``torch.device`` in ``devices`` (the
    notebook's ``device``); any call with ``device=`` puts its result there (``torch.empty_like(t, device="cpu")``).
    ``loss_nodes`` are the ``grad_fn`` of per-step losses (and of every tensor ``backward()`` runs on in the
    block): a tensor made in the block whose graph reaches two of
    them (``total += loss``, ``torch.stack(losses)`` without ``detach()``) keeps every step's graph alive, even if
    it is detached before it is read; ``accumulated`` names the call that first made one.

    ``plays_cuda`` (set by :func:`count_syncs`): to the learner's code (not torch's own), a device tensor reads as
    on ``cuda:0`` (``t.device``, ``t.is_cuda``, ``t.is_cpu``, ``t.get_device()``, ``t.type()``), so that code a device check
    guards (``if x.device.type == "cuda": torch.cuda.empty_cache()``, ``torch.autocast(x.device.type)``) runs and
    is observed as on a GPU machine; a call that names that device (``device=x.device``, ``.to(str(x.device))``,
    ``.to("cuda")``, ``.cuda()``, a ``torch.device`` rebuilt from it) is the device, and runs on the host of this
    machine; a ``torch.device("cuda")`` the code made itself is not (code that picks the GPU instead of its inputs').
    """

    def __init__(
        self,
        loss_nodes: Any = (),
        *,
        factories_on_device: bool = True,
        devices: Any = (),
        plays_cuda: bool = False,
    ) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.callers: list[str] = []  # per entry of ``calls``: the learner's function that made it (``"evaluate"``)
        # per entry of ``calls``: the torch file the learner's code called into that made it ("optim/adamw.py"), or ""
        self.entered: list[str] = []
        self.uploads: list[str] = []  # the entries of ``calls`` that are blocking copies to the device
        # moves to the device of host tensors or of a module's parameters (``.cuda()``, ``.to(device)``, whoever made
        # them): what a class built on the host, or a Dataset's ``ds[i]``, must not make (``moved_to_device``)
        self.moved: list[str] = []
        self.async_copies: list[str] = []  # the entries of ``calls`` that are non_blocking=True copies to the host
        self.loss_nodes = set(loss_nodes)
        self.tracks_losses = True  # False: no loss's graph is held here (see called_on_a_played_gpu)
        self.on_accumulated_graph = 0
        self.accumulated = ""  # the torch call that first joined two per-step losses' graphs
        self.mixed = ""  # the first call that mixed device and host tensors (an error on a GPU)
        self.mixed_device_arg = ""  # the device= string that put mixed's host tensor there ('cpu'), if one did
        self._named_host: dict[int, tuple[weakref.ref, str]] = {}  # tensors made with device="cpu" -> that string
        self.mixed_copied = ""  # the device-to-host copy (".cpu()") that made mixed's host tensor, if one did
        self._copied_to_host: dict[int, tuple[weakref.ref, str]] = {}  # host copies of device data -> the call
        self.losses_made = 0  # losses the course.fixtures loss functions computed (see note_loss)
        self.sync_losses: list[int] = []  # per entry of ``calls``: ``losses_made`` when that sync happened
        # per-step loss node -> weak refs to tensors computed from that loss with its graph (loss * n, loss.clone())
        self.graph_holders: dict[Any, list[weakref.ref]] = {}
        self._derived: dict[Any, Any] = {}  # grad_fn of such a tensor -> the loss node it comes from
        # per step (how many losses were made before it), weak refs to the tensors with a graph made in it
        self.step_graphs: list[list[weakref.ref]] = []
        self.factories_on_device = factories_on_device
        self.plays_cuda = plays_cuda
        self.learner_globals: list[dict[str, Any]] = []  # where the learner's code finds its names (count_syncs)
        self._host: dict[int, weakref.ref] = {}  # tensors on the host: reading them is free
        self._devices: list[Any] = list(devices)  # torch.device objects (or strings) that name the accelerator
        self._local = threading.local()  # per thread: Python-level calls in progress (see _frames)
        self._dispatch = _AtenReads(self)
        # host tensors a non_blocking=True device-to-host copy made, and what is computed from them, until a
        # blocking sync: on a GPU their values may not have arrived yet; ``unsynced`` names the first read of one
        # (each: a weak ref, the stream its copy was queued on, its copy's number: a wait covers some copies only)
        self._in_flight: dict[int, tuple[weakref.ref, Any, int]] = {}
        # pinned host tensors a non_blocking copy to the device reads from, until a wait covers it (the same numbering)
        self._uploading: dict[int, tuple[weakref.ref, Any, int]] = {}
        self.copies_queued = 0  # the non_blocking copies to the host queued so far (an event covers those before it)
        self._copying = False
        self._pending_async: list[int] = []  # the entries of ``calls`` that are non_blocking copies not yet waited for
        self.unsynced = ""
        # side streams (torch.cuda.Stream(), played): the streams the block is inside (torch.cuda.stream(s)), what was
        # made on each and not yet waited for, and the first call that used such a tensor on the current stream
        self.side_streams: list[Any] = []
        self._side_made: dict[int, tuple[weakref.ref, Any, int]] = {}  # (the tensor, its stream, the tick it was made)
        # a position in the work queued: each torch call is one tick. A wait orders only the work queued before it
        # (``wait_stream`` at its own tick, ``wait_event`` at the event's record), so waits carry ticks; ``token``
        # tells this count's ticks from another's (a stream or event kept between calls waited in another count)
        self.tick = 0
        self.token = object()
        # every tensor made on a side stream (its memory belongs to that stream) and whether record_stream told the
        # allocator the current stream uses it too
        self._side_alloc: dict[int, tuple[weakref.ref, Any, bool]] = {}
        self.race = ""  # the first call that raced (see race_kind), with "()"
        # "unwaited": the current stream used what a side stream made before waiting for it; "stale": a side stream
        # read device data the current stream made before waiting for it; "returned": a tensor a side stream made was
        # handed to the caller with nothing waiting for it; "unrecorded": the current stream used side-stream memory
        # without record_stream
        self.race_kind = ""
        self.synced_all = False  # a device-wide wait happened: every stream's earlier work is done,
        self.synced_at = -1  # the tick of the last one
        # the first use on the current stream of side-stream memory not recorded for it, until the host waits for the
        # current stream (then that use is done before the memory can be freed): an "unrecorded" race at the end
        self._unrecorded = ""
        self._made_current: dict[int, tuple[weakref.ref, int]] = {}  # tensors made or written on the current stream
        self.swapped_loss = ""  # a loss function called with the target needing grad and the prediction not
        # .numpy() / np.asarray of a device tensor raises, as on a GPU (NumPy reads host memory only); off under
        # host_batches(), where the batches handed in are host memory the counter cannot tell from device tensors
        self.numpy_raises = True
        # host tensors made "pinned" in the block (pin_memory=True, t.pin_memory()): played, as a GPU machine pins
        self._pinned: dict[int, weakref.ref] = {}
        self._pinned_memory: dict[int, weakref.ref] = {}  # the same by storage: a view of a pinned tensor is pinned
        self.autocast = ""  # the dtype of a CUDA autocast a torch call ran under ("float16"), if one did
        self.low_precision = ""  # the first call whose result in the autograd graph is float16 / bfloat16 ("half")
        self.low_precision_dtype = ""  # and that result's dtype ("float16")
        self.tf32 = ""  # the reduced float32 matmul precision a torch call ran under (TF32), if one did
        self._tf32_before = matmul_tf32()
        self._cudnn_before = cudnn_flags()
        self.cudnn = ""  # the reproducibility switches a torch call ran under, changed by the call (cudnn_changes)

    def __enter__(self) -> SyncCounter:
        self._waits = [(owner, name, getattr(owner, name), label) for owner, name, label in _WAITS]
        super().__enter__()
        self._dispatch.__enter__()
        answers = _PLAYED if GPU_PLAYED else []  # without a GPU played, torch.cuda answers as this machine does
        self._switches = contextlib.ExitStack()
        if GPU_PLAYED:
            self._switches.enter_context(device_switches_played())
        self._played = [(owner, name, getattr(owner, name)) for owner, name, _ in answers]
        for (owner, name, real), (_, _, value) in zip(self._played, answers):
            setattr(owner, name, _playing(real, value))
        if GPU_PLAYED:  # torch.from_dlpack(np.zeros(1)), torch.frombuffer(...): host memory, as on a GPU machine
            makers = [(owner, name, getattr(owner, name)) for owner, name in _HOST_MAKERS if hasattr(owner, name)]
            self._played += makers
            for owner, name, real in makers:
                setattr(owner, name, _made_on_host(self, real))
        for owner, name, wait, label in self._waits:
            setattr(owner, name, _counting_wait(self, label, wait))
        # the same answers and counted waits where the learner's code bound the functions before the count (from
        # torch.cuda import mem_get_info; a default argument, def step(..., wait=torch.cuda.synchronize); a partial)
        stand_ins = {id(real): (real, getattr(owner, name)) for owner, name, real in self._played}
        stand_ins |= {id(wait): (wait, getattr(owner, name)) for owner, name, wait, _ in self._waits}
        self._rebound = contextlib.ExitStack()
        self._rebound.enter_context(learner_names_rebound(self.learner_globals, stand_ins))
        if answers:  # the learner's top-level flags as the played machine computes them (USE_AMP = is_available())
            gpu = PLAYED_CUDA if self.plays_cuda else None  # DEVICE.type == "cuda" read in the call reads True
            self._rebound.enter_context(cell_flags_played(self.learner_globals, gpu))
            # the switches the cells set on a GPU machine (cudnn.benchmark = True) are the caller's, not the call's
            self._tf32_before, self._cudnn_before = matmul_tf32(), cudnn_flags()
        self._plays_record_stream = GPU_PLAYED and "record_stream" not in vars(_T)  # inherited: set here, deleted after
        if self._plays_record_stream:
            _T.record_stream = _record_stream
        if self.plays_cuda:  # isinstance(x, torch.cuda.FloatTensor): a device tensor of that dtype is one
            legacy = [(name, getattr(torch.cuda, name)) for name in _LEGACY_TYPES if hasattr(torch.cuda, name)]
            self._played += [(torch.cuda, name, real) for name, real in legacy]
            for name, _ in legacy:
                setattr(torch.cuda, name, _LEGACY_PLAYED[name])
            _PlayedLegacyType.counters.append(self)
        self._thread_start = threading.Thread.start
        threading.Thread.start = _counting_threads(self, self._thread_start)
        # a worker of a pool made before the count (at module level) runs what the count's code submits to it
        self._submit = concurrent.futures.ThreadPoolExecutor.submit
        concurrent.futures.ThreadPoolExecutor.submit = _counting_submit(self, self._submit)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._rebound.__exit__(*exc)  # first: it put back the learner's own bindings
        for owner, name, real in self._played:
            setattr(owner, name, real)
        _PlayedLegacyType.counters[:] = [c for c in _PlayedLegacyType.counters if c is not self]
        if self._plays_record_stream:
            del _T.record_stream
        self._switches.close()
        threading.Thread.start = self._thread_start
        concurrent.futures.ThreadPoolExecutor.submit = self._submit
        for owner, name, wait, _ in reversed(self._waits):
            setattr(owner, name, wait)
        self._dispatch.__exit__(*exc)
        super().__exit__(*exc)

    @property
    def _frames(self) -> list[list[bool]]:
        """Per Python-level call in progress in this thread: did the dispatcher read values (or copy them to the
        host), did it run a _to_copy to the host?"""
        if not hasattr(self._local, "frames"):
            self._local.frames = []
        return self._local.frames

    def on_device(self, t: torch.Tensor) -> bool:
        """Whether ``t`` would live on the device (every tensor not known to be on the host)."""
        ref = self._host.get(id(t))
        return ref is None or ref() is not t

    def report(self) -> dict[str, Any]:
        return {
            "calls": list(self.calls),
            "callers": list(self.callers),
            "entered": list(self.entered),
            "uploads": list(self.uploads),
            "async_copies": list(self.async_copies),
            "on_accumulated_graph": self.on_accumulated_graph,
            "accumulated": self.accumulated,
            "mixed": self.mixed,
            "mixed_device_arg": self.mixed_device_arg,
            "mixed_copied": self.mixed_copied,
            "losses_made": self.losses_made,
            "sync_losses": list(self.sync_losses),
            "unsynced": self.unsynced,
            "race": self.race or self._unrecorded,
            "race_kind": self.race_kind or ("unrecorded" if self._unrecorded else ""),
            "swapped_loss": self.swapped_loss,
            "autocast": self.autocast,
            "tf32": self.tf32,
            "cudnn": self.cudnn,
            "low_precision": self.low_precision,
            "low_precision_dtype": self.low_precision_dtype,
        }

    def _note_low_precision(self, name: str, result: Any) -> None:
        """Note ``name`` when its result is a float16 / bfloat16 tensor in the autograd graph: the training
        computation left float32 (``model.half()``, ``x.to(torch.bfloat16)``), where no flag shows it."""
        for t in tensors_in(result):
            if t.requires_grad and t.dtype in (torch.float16, torch.bfloat16):
                self.low_precision, self.low_precision_dtype = name, str(t.dtype).removeprefix("torch.")
                return

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        kwargs = kwargs or {}
        if _paused:  # not counted; a call that names the played GPU still runs on this host (a replayed probe)
            if self.plays_cuda:
                if func is _T.cuda and args:  # torch.zeros(1).cuda(): a copy, here on the host
                    return args[0].clone()
                args, kwargs = _on_this_host(func, op_name(func), args, kwargs)
            return func(*args, **kwargs)
        if self.plays_cuda:
            played = self._reads_cuda(func, args if func is not _T.type or not kwargs else ())
            if played is not _UNPLAYED:
                return played
            if func is _T.cuda and args and _current_cuda(args[1:], kwargs):  # the current GPU: the played one
                options = {k: v for k, v in kwargs.items() if k in ("non_blocking", "memory_format")}
                func, args, kwargs = _T.to, (args[0], PLAYED_CUDA), options
        name = op_name(func)
        self.tick += 1
        if not self.autocast and torch.is_autocast_enabled("cuda"):
            self.autocast = str(torch.get_autocast_dtype("cuda")).removeprefix("torch.")
        if not self.tf32:
            tf32 = matmul_tf32()
            if tf32 and tf32 != self._tf32_before:
                self.tf32 = tf32
        if not self.cudnn:
            self.cudnn = cudnn_changes(self._cudnn_before)
        if func is _T.is_pinned and args and self._is_pinned(args[0]):
            return True
        pin = kwargs.get("pin_memory") is True or func is _T.pin_memory
        if kwargs.get("pin_memory") is True:  # a factory asked for pinned memory: a CPU machine has none to give
            kwargs = {**kwargs, "pin_memory": False}
        if func is _T.pin_memory and args:  # t.pin_memory(): a pinned copy, on a CPU machine a plain one
            func, args, kwargs = _T.clone, args[:1], {}
        tensors = tensors_in((args, kwargs))
        if name in _LOSSES and not self.swapped_loss and _swapped(args, kwargs):
            self.swapped_loss = name
        first = next((t for t in tensors if self.on_device(t)), None)
        recorded = len(self.calls)
        pending = [t for t in tensors if self._is_in_flight(t)]
        if pending and not self.unsynced and (func in SYNC_CALLS or name in _HANDS_OUT_MEMORY):
            self.unsynced = SYNC_CALLS.get(func) or _HANDS_OUT_MEMORY[name]
        if first is not None and not self.mixed:
            self._note_mixed(name, args, kwargs)
        placed = self._before(func, name, args, kwargs, first)
        if self.plays_cuda:
            args, kwargs = _on_this_host(func, name, args, kwargs)
        elif not GPU_PLAYED and (func is _T.to or name == "to"):  # t.to(x.device) stays, as on a CPU machine
            args = tuple(_real_cpu(a) for a in args)
            kwargs = {k: _real_cpu(v) for k, v in kwargs.items()}
        if not self.race and self._uploading:
            self._note_reused(name, args, kwargs)
        if not self.race and name not in METADATA and not name.startswith("is_"):  # metadata: no data read
            if self.current_stream() is not _DEFAULT_STREAM:
                self._note_stale(name, tensors)
            elif self._side_made or self._side_alloc:
                self._note_race(name, tensors)
        self._frames.append([False, False])
        try:
            result = func(*args, **kwargs)
        finally:
            values_read, copied_to_host = self._frames.pop()
        side = self.current_stream()
        if GPU_PLAYED and side is _DEFAULT_STREAM:  # what the current stream made, and when (the stale race)
            for t in tensors_in((result, _written(name, args, kwargs))):
                self._made_current[id(t)] = (weakref.ref(t), self.tick)
        if side is not _DEFAULT_STREAM:  # made on a side stream: the current stream must wait for it before using it
            for t in tensors_in((result, _written(name, args, kwargs))):
                self._side_made[id(t)] = (weakref.ref(t), side, self.tick)
                if id(t) not in self._side_alloc or self._side_alloc[id(t)][0]() is not t:
                    self._side_alloc[id(t)] = (weakref.ref(t), side, False)
        if pin:
            for t in tensors_in(result):
                key = id(t)
                self._pinned[key] = weakref.ref(t, lambda _, key=key: self._pinned.pop(key, None))
                self._pinned_memory[_memory(t)] = weakref.ref(t)
        if placed is False and first is not None and args and result is args[0]:
            result = result.clone()  # a copy of a device tensor to the host is a new tensor (.cpu(), .to("cpu"))
        if placed is False and first is not None and name in _CONVERTS:  # y = y.cpu(): a host copy of device data
            for t in tensors_in(result):
                self._copied_to_host[id(t)] = (weakref.ref(t), f".{name}()")
        if (
            self.plays_cuda
            and name in _STORAGE_CALLS
            and first is not None
            and isinstance(result, (torch.UntypedStorage, torch.TypedStorage))
            and not _called_by_torch(_TENSOR_PY + _SAVE_PY)
            and not _called_from(_SAVE_PY)  # torch.save reads the real storage (and that read is the sync)
        ):
            label = _HANDS_OUT_MEMORY[name]
            result = PlayedStorage(result, PLAYED_CUDA, lambda: self._record(label, first))
        read = values_read or (copied_to_host and name not in _CONVERTS)
        if name == "one_hot" and _given_classes(args, kwargs):
            read = False  # the range checks a CPU makes; a GPU leaves them to the kernel's asserts, no sync
        if self._copying or pending:  # a non_blocking copy to the host, or computed from / written with one
            copying, self._copying = self._copying, False
            written = _written(name, args, kwargs)
            if getattr(func, "__self__", None) is _T.data and args:  # buf.data = copy: buf holds the copy now
                written.append(args[0])
            if copying:
                self.copies_queued += 1
                entry = (self.current_stream(), self.copies_queued)
            else:  # computed from copies in flight: it waits for the same copy
                entry = self._in_flight[id(pending[0])][1:]
            for t in tensors_in(result) + (written if pending or copying else []):  # buf[:] = copy, buf.copy_(t, True)
                self._in_flight[id(t)] = (weakref.ref(t), *entry)
        if not self.low_precision and not torch.is_autocast_enabled("cuda"):
            self._note_low_precision(name, result)
        written = _written(name, args, kwargs)  # buf[i] = loss: buf's graph, though no result holds it
        if self.loss_nodes and not self.accumulated:
            self._note_accumulated(name, [result, written])
        if self.loss_nodes:
            self._note_derived(result)
        self._note_step_graph(result)
        self._note_step_graph(written)
        if read and first is not None and len(self.calls) == recorded:
            self._record(f"{name}()", first)  # a host read only the dispatcher saw (torch.is_nonzero, ...)
            if name == "_to_copy":
                for t in tensors_in(result):
                    self._place(t, on_device=False)
            return result
        if func in SYNC_CALLS or func is _T.__setitem__:
            return result
        if first is not None and _python_value(result) and name not in METADATA and not name.startswith("is_"):
            self._record(f"{name}()（返回 Python 数值）", first)
        if name == "__get__" and isinstance(result, torch.device):
            if first is not None:
                result = PLAYED_DEVICE if result.type == "cpu" else result
                self._devices.append(result)  # t.device of a device tensor names the device
            return result
        on_device = first is not None if placed is None else placed
        named = kwargs.get("device") if placed is False and isinstance(kwargs.get("device"), str) else None
        for t in tensors_in((result, kwargs.get("out"))):
            self._place(t, on_device=on_device)
            if named is not None:  # torch.zeros((), device="cpu"), or device=t.device.type (a string, no index)
                self._named_host[id(t)] = (weakref.ref(t), named)
        return result

    def _reads_cuda(self, func: Any, args: tuple) -> Any:
        """What a device-metadata read of a device tensor answers to the learner's code when the counter plays
        CUDA (``t.device`` is ``cuda:0``); :data:`_UNPLAYED` for any other call, and for torch's own code."""
        if not args or not isinstance(args[0], torch.Tensor) or not self.on_device(args[0]):
            return _UNPLAYED
        prop = getattr(func, "__self__", None) if getattr(func, "__name__", "") == "__get__" else None
        answers = {_T.device: PLAYED_CUDA, _T.is_cuda: True, _T.is_cpu: False}
        type_name = func is _T.type and len(args) == 1  # t.type() names the tensor type: torch.cuda.FloatTensor
        if prop not in answers and func is not _T.get_device and not type_name:
            return _UNPLAYED
        if _called_by_torch():
            return _UNPLAYED
        if type_name:
            return func(*args).replace("torch.", "torch.cuda.", 1)
        return answers[prop] if prop in answers else PLAYED_CUDA.index

    def _note_mixed(self, name: str, args: tuple, kwargs: dict) -> None:
        """Note a call that mixes device tensors with host tensors a GPU would refuse (``mixed``): see
        :func:`devices_of_call`. torch's own code is left out (``torch.ops.aten.*`` forwards the caller's call)."""
        found = devices_of_call(name, args, kwargs, lambda t: _ACCELERATOR if self.on_device(t) else _HOST)
        if len(found) < 2 or _called_by_torch((torch._ops.__file__, *_NN_FORWARDS)):
            return
        host, written = found[_HOST]
        what = "写入结果的 " if written else ""
        self.mixed = f"{name}()：{what}CPU 张量（形状 {tuple(host.shape)}）和设备上的张量"
        ref, named = self._named_host.get(id(host), (None, ""))
        self.mixed_device_arg = named if ref is not None and ref() is host else ""
        ref, copied = self._copied_to_host.get(id(host), (None, ""))
        self.mixed_copied = copied if ref is not None and ref() is host else ""

    def _note_accumulated(self, name: str, result: Any) -> None:
        for t in tensors_in(result):
            if _grad_fn(t) is not None and self._losses_reached(t) >= 2:
                self.accumulated = name
                return

    def _note_derived(self, result: Any) -> None:
        """Remember (weakly) each tensor of ``result`` whose graph starts right after a per-step loss, or after
        another such tensor: while one is alive, that step's graph is alive (:func:`holds_graph`)."""
        for t in tensors_in(result):
            node = _grad_fn(t)
            if node is None:
                continue
            for parent, _ in node.next_functions:
                root = parent if parent in self.loss_nodes else self._derived.get(parent)
                if root is not None:
                    self._derived[node] = root
                    self.graph_holders.setdefault(root, []).append(weakref.ref(t))
                    break

    def _note_step_graph(self, result: Any) -> None:
        """Remember (weakly) each tensor of ``result`` with a graph under its step: the number of losses made
        before it (:func:`earlier_steps_alive`)."""
        for t in tensors_in(result):
            node = _grad_fn(t)
            if node is not None:
                while len(self.step_graphs) <= self.losses_made:
                    self.step_graphs.append([])
                self.step_graphs[self.losses_made].append(weakref.ref(t))
                _stamp(node, self.losses_made)

    def _before(self, func: Any, name: str, args: tuple, kwargs: dict, first: Any) -> bool | None:
        """Record the syncs ``func(*args, **kwargs)`` makes; where its result lives (None: with its inputs)."""
        if func is _T.type and first is not None and len(args) + len(kwargs) > 1:
            target = args[1] if len(args) > 1 else kwargs.get("dtype")
            if _names_host_type(target):
                self._record(f".type({_type_name(target)})", args[0])
                return False
            return None
        if name in ("lift_fresh", "lift_fresh_copy"):  # torch.Tensor([...]), torch.FloatTensor([...]): legacy
            return self.factories_on_device  # constructors, seen only as this op; they make a tensor on the host
        if name == "backward" and args and self.tracks_losses:  # what a step runs backward() on is that step's loss
            self.loss_nodes.update(n for n in map(_grad_fn, tensors_in(args[0])) if n is not None)
        if func in (torch.autograd.grad, torch.autograd.backward, _T.backward) and args:
            # a gradient given on the host for an output on the device: autograd copies it there first (an upload)
            at = 2 if func is torch.autograd.grad else 1  # grad(outputs, inputs, grad_outputs), backward(t, gradient)
            given = args[at] if len(args) > at else next((kwargs[k] for k in _GRAD_ARGS if k in kwargs), None)
            host = [t for t in tensors_in(given) if not self.on_device(t)]
            if host and any(self.on_device(t) for t in tensors_in(args[0])):
                self._blocking_upload(f"{name}(..., 主机上的梯度张量)", host[0], via=_AUTOGRAD_PY)
        if name in _HANDS_OUT_MEMORY and first is not None and not _called_by_torch(_TENSOR_PY + _SAVE_PY):
            if self.plays_cuda and name in _STORAGE_CALLS and not _called_from(_SAVE_PY):
                return None  # the storage itself reads as on the GPU; reading its memory is the sync (_PlayedStorage)
            self._record(_SAVED if _called_from(_SAVE_PY) else _HANDS_OUT_MEMORY[name], first)
            return None
        aten_to = name == "to" and isinstance(func, _ATEN_OPS)  # torch.ops.aten.to.device(t, cpu, dtype), ...
        if func is _T.cpu or ((func is _T.to or aten_to) and args):
            source = self.on_device(args[0])
            wanted = (*args[1:], kwargs.get("device"), kwargs.get("other"))
            targets = [self._names_device(a, moving=source) for a in wanted]
            targets = [t for t in targets if t is not None]
            target = False if func is _T.cpu else (targets[0] if targets else source)
            if source and not target and func is not _T.cpu and _called_by_torch((torch._ops.__file__,)):
                target = True  # torch's own code moving results to the device its inputs came from
            if func is not _T.cpu and any(targets) and (not source or _called_from(_MODULE_PY)):
                self.moved.append("Module.to / .cuda()" if _called_from(_MODULE_PY) else _to_label(func, args, kwargs))
            if source and not target:
                # without a GPU played nothing is copied (t.to("cpu") is t itself): no copy in flight to wait for
                self._copying = GPU_PLAYED and func is not _T.cpu and _non_blocking(args, kwargs)
                label = _to_label(func, args, kwargs)
                self._record(label, args[0])
                if self._copying:
                    self.async_copies.append(label)
            if (
                not source
                and target
                and func is not _T.cpu
                and not self._overlaps(args[0], _non_blocking(args, kwargs))
            ):
                self._blocking_upload("cpu_tensor.to(device)", args[0], pageable=_non_blocking(args, kwargs))
            elif not source and target and func is not _T.cpu and GPU_PLAYED:  # from pinned memory, in flight
                self._note_upload(args[0])
            return target
        if name == "_to_cpu":  # torch.ops.aten._to_cpu([t, ...]): a copy of each on the host
            read = [t for t in tensors_in(args[0] if args else kwargs.get("tensors")) if self.on_device(t)]
            if read:
                self._record("torch.ops.aten._to_cpu([t, ...])", read[0], times=len(read))
            return False
        if name == "_to_copy" and args:  # torch.ops.aten._to_copy(t, device="cpu"), and .out(t, out=buf)
            out = tensors_in(kwargs.get("out"))
            named = self._names_device(kwargs.get("device"), moving=self.on_device(args[0]))
            target = named if named is not None else self.on_device(out[0] if out else args[0])
            if self.on_device(args[0]) and not target:
                where = "out=cpu_tensor" if out and named is None else 'device="cpu"'
                self._record(f"torch.ops.aten._to_copy(t, {where})", args[0])
            if not self.on_device(args[0]) and target and not self._overlaps(args[0], bool(kwargs.get("non_blocking"))):
                label = "torch.ops.aten._to_copy(cpu_tensor, device=...)"
                self._blocking_upload(label, args[0], pageable=bool(kwargs.get("non_blocking")))
            return target
        if name == "type_as" and len(args) > 1 and isinstance(args[1], torch.Tensor):
            # t.type_as(u) is t.type(u.type()): u's dtype and u's device
            if self.on_device(args[0]) and not self.on_device(args[1]):
                self._record(".type_as(cpu_tensor)", args[0])
            if not self.on_device(args[0]) and self.on_device(args[1]):
                self._blocking_upload("cpu_tensor.type_as(t)", args[0])
            return self.on_device(args[1])
        if name in ("masked_fill", "masked_fill_") and len(args) > 2 and isinstance(args[2], torch.Tensor):
            # t.masked_fill(mask, value) with a 0-d value on the device: CUDA reads it with .item() first (a sync)
            if self.on_device(args[0]) and self.on_device(args[2]) and args[2].dim() == 0:
                self._record("masked_fill(mask, 0 维的 GPU 张量)（CUDA 先用 .item() 读出填充值）", args[2])
            return None
        if name in ("fill_", "fill") and len(args) > 1 and isinstance(args[1], torch.Tensor):
            # cpu_tensor.fill_(t): a value on another device is read with .item() (a sync), not refused
            if not self.on_device(args[0]) and self.on_device(args[1]):
                self._record("cpu_tensor.fill_(t)", args[1])
            return self.on_device(args[0])
        if func is _T.copy_ and len(args) > 1:
            if self.staging(args[0], args[1]):
                return False
            if not self.on_device(args[0]) and isinstance(args[1], torch.Tensor) and self.on_device(args[1]):
                # into pinned memory with non_blocking=True: queued, in flight until a wait (see _record)
                self._copying = (
                    GPU_PLAYED and _non_blocking(args, kwargs) and (self._is_pinned(args[0]) or args[0].is_pinned())
                )
                self._record("cpu_tensor.copy_(t)", args[1])
                if self._copying:
                    self.async_copies.append("cpu_tensor.copy_(t, non_blocking=True)")
            if self.on_device(args[0]) and isinstance(args[1], torch.Tensor) and not self.on_device(args[1]):
                if not self._overlaps(args[1], _non_blocking(args, kwargs)):
                    self._blocking_upload("t.copy_(cpu_tensor)", args[1], pageable=_non_blocking(args, kwargs))
                elif GPU_PLAYED:  # from pinned memory, in flight until a wait covers it
                    self._note_upload(args[1])
            return self.on_device(args[0])
        if name == "copy" and len(args) > 1 and all(isinstance(a, torch.Tensor) for a in args[:2]):
            # torch.ops.aten.copy(dst, src): a new tensor where dst is (the host too), with src's values
            if not self.on_device(args[0]) and self.on_device(args[1]):
                self._record("torch.ops.aten.copy(cpu_tensor, t)", args[1])
            return self.on_device(args[0])
        if name in ("_foreach_copy_", "_foreach_copy"):  # (dsts, srcs): one copy per pair, each to the host a sync
            dsts = tensors_in(args[0] if args else kwargs.get("self"))
            srcs = tensors_in(args[1] if len(args) > 1 else kwargs.get("src"))
            read = [s for d, s in zip(dsts, srcs) if not self.on_device(d) and self.on_device(s)]
            if read:
                self._record(f"torch.{name}([cpu_tensor], [t])", read[0], times=len(read))
            flag = bool(args[2] if len(args) > 2 else kwargs.get("non_blocking", False))
            sent = [
                s
                for d, s in zip(dsts, srcs)
                if self.on_device(d) and not self.on_device(s) and not self._overlaps(s, flag)
            ]
            if sent:
                self._blocking_upload(f"torch.{name}([t], [cpu_tensor])", sent[0], times=len(sent), pageable=flag)
            # the functional torch.ops.aten._foreach_copy makes its results where the dsts are
            return None if name == "_foreach_copy_" or any(self.on_device(d) for d in dsts) else False
        if func is _T.__setitem__ and len(args) > 2:
            read = [t for t in tensors_in(args[2]) if self.on_device(t)]
            if not self.on_device(args[0]) and read:
                self._record("cpu_tensor[i] = t", read[0])
            # a 0-d host tensor is a number (a fill), except where it lands on one element whole: t[i] = tensor(1.0) of
            # a 1-d t is t[i].copy_(cpu_tensor), an upload
            sent = [
                t
                for t in tensors_in(args[2])
                if not self.on_device(t) and (t.dim() > 0 or _lands_on_one_element(args[0], args[1]))
            ]
            if self.on_device(args[0]) and sent:
                self._blocking_upload("t[i] = cpu_tensor", sent[0])
            if self.on_device(args[0]) and _bool_index(args[1]) and _not_a_host_number(self, args[2]):
                self._record("布尔掩码赋值 t[mask] = 张量（设备上要先 nonzero() 找出位置）", args[0])
            return None
        if name in ("index_put_", "index_put") and len(args) > 2 and first is not None:
            if self.on_device(args[0]) and _bool_index(tuple(args[1])) and _not_a_host_number(self, args[2]):
                self._record(f"{name}(布尔掩码, 张量)（设备上要先 nonzero() 找出位置）", args[0])
            return None
        data = args[1] if name == "new_tensor" and len(args) > 1 else args[0] if name in _FROM_DATA and args else None
        device = kwargs.get("device")
        moving = isinstance(data, torch.Tensor) and self.on_device(data)
        to_host = device is not None and self._names_device(device, moving=moving) is False
        if name == "new" and args and self.on_device(args[0]) and len(args) > 1:
            if isinstance(args[1], (list, tuple)) and not isinstance(args[1], torch.Size):  # t.new([1, 2]): data
                self._blocking_upload("t.new(list)", None)
        if name == "new_tensor" and device is None and isinstance(data, torch.Tensor):
            # cpu_tensor.new_tensor(t) makes its copy where cpu_tensor is; without device= torch.tensor(t) stays on t's
            if self.on_device(data) and not self.on_device(args[0]):
                self._record("cpu_tensor.new_tensor(t)", data)
            if self.on_device(args[0]) and not self.on_device(data):
                self._blocking_upload("t.new_tensor(cpu_tensor)", data)
            return self.on_device(args[0])
        if isinstance(data, torch.Tensor) and to_host and self.on_device(data):
            self._record(f'torch.{name}(t, device="cpu")', data)
        if name in _FROM_DATA or name == "new_tensor":
            lands = (
                self._names_device(device) if device is not None else name == "new_tensor" and self.on_device(args[0])
            )
            if lands and not any(self.on_device(t) for t in tensors_in(data)):  # Python numbers, NumPy, host tensors
                self._blocking_upload(
                    f"torch.{name}(..., device=...)" if device is not None else ".new_tensor(...)", None
                )
        if isinstance(data, (list, tuple)):
            read = [t for t in tensors_in(data) if self.on_device(t)]
            if read:
                self._record(f"torch.{name}([...张量...])", read[0], times=len(read))
            device = kwargs.get("device")
            if device is not None:
                return bool(self._names_device(device))
            return self.on_device(args[0]) if name == "new_tensor" else self.factories_on_device
        if func in SYNC_CALLS:
            force = bool(kwargs.get("force"))  # t.numpy(force=True) copies to the host first: a sync, no error
            if first is not None and func in _NUMPY_HANDOFFS and self.numpy_raises and not force:  # what CUDA says
                raise TypeError(
                    "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
                    "memory first."
                )
            if first is not None:
                self._record(SYNC_CALLS[func], first)
            return None
        if first is not None and (
            name in DATA_DEPENDENT
            or (name == "where" and len(args) + len(kwargs) == 1)
            or (name == "repeat_interleave" and len(args) > 1 and isinstance(args[1], torch.Tensor))
        ):
            self._record(f"{name}()（结果的形状取决于数据）", first)
        if func is _T.__getitem__ and first is not None and _bool_index(args[1] if len(args) > 1 else None):
            self._record("布尔掩码索引 t[mask]", first)
        if device is not None and self._names_device(device) is not None:
            return bool(self._names_device(device))  # torch.empty_like(t, device="cpu"), t.new_zeros(..., device=...)
        if not tensors_in((args, kwargs)):  # a factory: torch.zeros(3), torch.arange(n)
            return self.factories_on_device
        return None

    def _blocking_upload(
        self, label: str, t: Any, times: int = 1, *, pageable: bool = False, via: tuple[str, ...] = ()
    ) -> None:
        """A copy from host memory to the device that waits (``torch.tensor(xs, device=d)``, ``cpu_t.to(d)``,
        ``t.copy_(cpu_t)``): on a GPU torch waits until the copy, and so everything queued on the stream before it,
        is done: a sync like any other. ``pageable``: asked with ``non_blocking=True`` from memory that is not
        pinned, which CUDA may first stage through a sync with the stream (CUDA's "API synchronization behavior").
        torch's own code is left out (its moves are its own); ``via``: torch files that only forward the learner's call.
        Without a GPU played (:func:`with_no_gpu_played`) host and device are one memory: no copy to count."""
        if GPU_PLAYED and not _called_by_torch((torch._ops.__file__, *via)):
            how = (
                "non_blocking=True，但源不在页锁定内存：CUDA 可能先同步再拷到设备"
                if pageable
                else "从主机内存阻塞拷到设备"
            )
            label = f"{label}（{how}）"
            self._record(label, t, times=times)
            self.uploads.extend([label] * times)

    def _names_device(self, target: Any, *, moving: bool = False) -> bool | None:
        """Whether ``target`` (an argument of ``.to``, ``device=``) names the device; None if it names none.

        ``"cpu:0"`` is what ``str(t.device)`` of a device tensor reads here (:data:`PLAYED_DEVICE`): it names the
        device for a new tensor or a host tensor moved there, not for a device tensor ``moving`` to it (on a GPU
        machine that string is a copy to the host)."""
        if isinstance(target, torch.Tensor):
            return self.on_device(target)
        if isinstance(target, str):
            if any(target is d for d in self._devices):  # the notebook's own device string (see _named_devices)
                return True
            try:
                target = torch.device(target)
            except RuntimeError:
                return None
            if target.type == "cpu" and target.index is None:
                return False
        if isinstance(target, torch.device):
            played = target == PLAYED_DEVICE and not moving
            return target.type != "cpu" or played or any(target is d for d in self._devices)
        if isinstance(target, int) and not isinstance(target, bool):
            return True  # a CUDA device index
        return None

    def _place(self, t: torch.Tensor, *, on_device: bool) -> None:
        key = id(t)
        if on_device:
            self._host.pop(key, None)
        else:
            self._host[key] = weakref.ref(t, lambda _, key=key: self._host.pop(key, None))

    def _overlaps(self, source: Any, non_blocking: bool) -> bool:
        """Whether a copy of ``source`` (a host tensor) to the device may overlap the device's work: only from pinned
        (page-locked) memory with ``non_blocking=True``; from pageable memory CUDA may sync with the stream first."""
        return non_blocking and isinstance(source, torch.Tensor) and (self._is_pinned(source) or source.is_pinned())

    def _note_upload(self, source: torch.Tensor) -> None:
        """A non_blocking copy from pinned ``source`` to the device: in flight, reading that memory, until a wait covers
        it (numbered with the copies to the host; noted against the memory's owner: a slice ``buf[:n]`` dies at once)."""
        self.copies_queued += 1
        self._uploading[_memory(source)] = (weakref.ref(_owner(source)), self.current_stream(), self.copies_queued)

    def staging(self, dst: Any, src: Any) -> bool:
        """Whether ``dst.copy_(src)`` copies a host batch into pinned host memory (to upload it from there): under
        :func:`host_batches` a batch the loader handed in is host memory, not device data."""
        return self._is_pinned(dst) and isinstance(src, torch.Tensor) and not self._device_data(src)

    def _is_pinned(self, t: Any) -> bool:
        ref = self._pinned.get(id(t))
        if ref is not None and ref() is t:
            return True
        if not isinstance(t, torch.Tensor) or not self._pinned_memory:
            return False
        owner = self._pinned_memory.get(_memory(t))
        kept = owner() if owner is not None else None
        return kept is not None and _memory(kept) == _memory(t)  # a view of it (.view, [:n]): the same pinned memory

    def _is_in_flight(self, t: torch.Tensor) -> bool:
        entry = self._in_flight.get(id(t))
        return entry is not None and entry[0]() is t

    def current_stream(self) -> Any:
        """The played stream work goes to now: the innermost ``torch.cuda.stream(s)`` block's, else the default."""
        return self.side_streams[-1] if self.side_streams else _DEFAULT_STREAM

    def _note_race(self, name: str, tensors: list[torch.Tensor]) -> None:
        """Note ``name`` as :attr:`race` if one of its ``tensors``, used on the current stream, was made on a side
        stream not waited for since ("unwaited"), or has memory of a side stream not recorded for it ("unrecorded")."""
        for t in tensors:
            entry = self._side_made.get(id(t))
            if entry is not None and entry[0]() is t:
                self.race, self.race_kind = f"{name}()", "unwaited"
                return
            alloc = self._side_alloc.get(id(t))
            if alloc is not None and alloc[0]() is t and not alloc[2] and not self._unrecorded:
                self._unrecorded = f"{name}()"

    def _note_reused(self, name: str, args: tuple, kwargs: dict) -> None:
        """A "reused" :attr:`race` if ``name`` writes into pinned host memory that a non_blocking copy to the device
        still reads from (no wait since: the next batch written into the one staging buffer)."""
        for t in _written(name, args, kwargs):
            entry = self._uploading.get(_memory(t))
            source = entry[0]() if entry is not None else None
            if source is not None and _memory(source) == _memory(t):  # the memory an upload still reads, any view
                self.race, self.race_kind = f"{name}()", "reused"
                return

    def _note_stale(self, name: str, tensors: list[torch.Tensor]) -> None:
        """Note ``name`` as a "stale" :attr:`race` if, on a side stream that never waited for the current one, one of
        its ``tensors`` is device data made outside that stream (the caller's, or the current stream's)."""
        stream = self.current_stream()
        waited = max(stream.waited_upto(_DEFAULT_STREAM, self.token), self.synced_at)
        for t in tensors:
            alloc = self._side_alloc.get(id(t))
            made_here = alloc is not None and alloc[0]() is t and alloc[1] is stream
            if self.on_device(t) and not made_here and self._device_data(t) and self._made_at(t) > waited:
                self.race, self.race_kind = f"{name}()", "stale"
                return

    def _made_at(self, t: torch.Tensor) -> int:
        """The tick ``t`` was last made or written on the current stream (0: before the count noted it: the caller's
        data, made before any wait of this count)."""
        made = self._made_current.get(id(t))
        return made[1] if made is not None and made[0]() is t else 0

    def _device_data(self, t: torch.Tensor) -> bool:
        """Whether ``t`` is surely data on the device: under :func:`host_batches` the batches handed in are host memory
        the count cannot tell from device tensors, so only parameters, tensors in the autograd graph and what the
        current stream made count there."""
        if not _HOST_BATCHES:
            return True
        made = self._made_current.get(id(t))
        return isinstance(t, nn.Parameter) or t.requires_grad or (made is not None and made[0]() is t)

    def note_returned(self, result: Any) -> None:
        """A "returned" :attr:`race` if ``result`` holds a tensor a side stream made that nothing waited for."""
        if self.race:
            return
        for t in tensors_in(result):
            entry = self._side_made.get(id(t))
            if entry is not None and entry[0]() is t:
                self.race, self.race_kind = "return", "returned"
                return

    def recorded_for(self, t: torch.Tensor, stream: Any) -> None:
        """``t.record_stream(stream)``: the allocator knows ``stream`` uses ``t`` (the current stream, for memory a
        side stream allocated)."""
        alloc = self._side_alloc.get(id(t))
        if alloc is not None and alloc[0]() is t and stream is not alloc[1]:
            self._side_alloc[id(t)] = (alloc[0], alloc[1], True)

    def waited_for(self, stream: Any = None, upto: int | None = None) -> None:
        """The current stream waits for ``stream`` (None: for every stream, a device-wide wait) up to tick ``upto``
        (None: now): what was made there by then, or on a stream it had waited for by then, may be used now."""
        if stream is None:
            self.synced_all, self.synced_at = True, self.tick
            self._side_made = {}
            return
        upto = self.tick if upto is None else upto
        self._side_made = {k: v for k, v in self._side_made.items() if not _ordered(v[1], v[2], stream, upto, self)}

    def _record(self, label: str, t: Any, times: int = 1, *, covers: Any = _EVERY_STREAM) -> None:
        """Count ``times`` syncs named ``label`` (``t``: the tensor read, None for a wait such as synchronize()).
        A ``non_blocking=True`` copy to the host counts as the sync it will need; a wait that follows such copies
        is that sync: the copies and the wait count once together. What the host waited for: ``covers``, for a wait
        (:data:`_EVERY_STREAM`: the whole device; ``(stream, n)``: the copies queued on ``stream``, the first ``n``
        of them, all when ``n`` is None; None: nothing); a read waits for the current stream."""
        if t is None and self._pending_async:
            for i in reversed(self._pending_async):
                del self.calls[i], self.sync_losses[i], self.callers[i], self.entered[i]
        if self._copying:
            self._pending_async.append(len(self.calls))
        else:  # a blocking sync: the copies it waited for have arrived
            if t is not None:
                covers = (self.current_stream(), None)
            if t is not None or covers is _EVERY_STREAM:  # the current stream's work so far is done
                self._unrecorded = ""
            self._in_flight = {k: e for k, e in self._in_flight.items() if not _covered(e, covers)}
            self._uploading = {k: e for k, e in self._uploading.items() if not _covered(e, covers)}
            self._pending_async = []
        self.calls.extend([label] * times)
        self.callers.extend([_learner_function()] * times)
        self.entered.extend([_torch_file_entered()] * times)
        self.sync_losses.extend([self.losses_made] * times)
        if isinstance(t, torch.Tensor) and _grad_fn(t) is not None and self._losses_reached(t) >= 2:
            self.on_accumulated_graph += 1

    def _losses_reached(self, t: torch.Tensor) -> int:
        """How many per-step losses the graph behind ``t`` reaches (counting stops at 2)."""
        seen, stack, hits = set(), [_grad_fn(t)], 0
        while stack and hits < 2:
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            hits += node in self.loss_nodes
            stack.extend(next_node for next_node, _ in node.next_functions)
        return hits


class _AtenReads(TorchDispatchMode):
    """The dispatcher-level half of a :class:`SyncCounter`: sees every aten op, whatever Python API made it.

    A host read (an op in :data:`ATEN_READS`) inside a Python-level call the counter is handling is left to
    the counter, which records it once, under the Python API's name, unless it already recorded that call.
    One with no Python-level call around it, and copies to the host, are recorded here by the aten op's name.
    """

    def __init__(self, counter: SyncCounter) -> None:
        super().__init__()
        self.counter = counter

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        kwargs = kwargs or {}
        if _paused:
            return func(*args, **kwargs)
        counter, name = self.counter, func._opname
        read = name in ATEN_READS or (name == "repeat_interleave" and isinstance(args[0], torch.Tensor))
        first = next((t for t in tensors_in((args, kwargs)) if counter.on_device(t)), None)
        to_host = name == "_to_copy" and _names_host(kwargs.get("device")) and not _casts(args, kwargs)
        copy_to_host = (
            name == "copy_" and len(args) > 1 and not counter.on_device(args[0]) and not counter.staging(*args[:2])
        )
        if counter._frames:
            if read or (copy_to_host and counter.on_device(args[1])):
                counter._frames[-1][0] = True
            if first is not None and to_host:
                counter._frames[-1][1] = True
            return writes.run_keeping_versions(func, args, kwargs)
        result = writes.run_keeping_versions(func, args, kwargs)
        if first is not None and (read or to_host or (copy_to_host and counter.on_device(args[1]))):
            counter._record(f"torch.ops.aten.{name}", first)
        if to_host and isinstance(result, torch.Tensor):
            counter._place(result, on_device=False)
        return result


class _InThread(TorchFunctionMode):
    """A :class:`SyncCounter` in a thread started while it counts: a mode is per thread, and a read in a
    ``threading.Thread`` (or a ``ThreadPoolExecutor`` worker) the counted code starts is a sync all the same."""

    def __init__(self, counter: SyncCounter) -> None:
        super().__init__()
        self.counter = counter

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        return self.counter.__torch_function__(func, types, args, kwargs)


# What blocks the host until the device is done without reading a value: not a torch function, so patched while
# counting (on a CPU-only machine they do nothing or nothing calls them; on a GPU each one is a sync like .item():
# empty_cache() hands cached blocks back with cudaFree, which waits for the device), as (owner, attribute, label).
_ACCELERATOR_WAITS = [
    (owner, name)
    for owner in (getattr(torch, "accelerator", None), getattr(getattr(torch, "accelerator", None), "memory", None))
    for name in ("synchronize", "empty_cache")
    if owner is not None and callable(getattr(owner, name, None))
]
_REAL_STREAM_WAITS = (torch.cuda.Stream.synchronize, torch.cuda.Event.synchronize)
_WAITS = [
    (torch.cuda, "synchronize", "torch.cuda.synchronize()"),
    (torch.cuda.Stream, "synchronize", "Stream.synchronize()"),
    (torch.cuda.Event, "synchronize", "Event.synchronize()"),
    (torch.cuda, "empty_cache", "torch.cuda.empty_cache()"),
    (torch.cuda.memory, "empty_cache", "torch.cuda.empty_cache()"),  # the same function, under its module's name
    *[(owner, name, f"{owner.__name__}.{name}()") for owner, name in _ACCELERATOR_WAITS],
]


def _names_cuda(value: Any, *, index: bool = False) -> bool:
    """Whether ``value`` names the played CUDA device (the one GPU of the played machine, ``cuda:0``): ``x.device`` of a
    device tensor (:data:`PLAYED_CUDA`) or a device rebuilt from it (``torch.device(str(x.device))``), a string
    (``"cuda"``, ``str(x.device)``); an int too when ``index``. A ``torch.device("cuda")`` (no index) is what code that
    picks the GPU itself makes: left to fail here (:func:`count_syncs` says: take the device from the inputs)."""
    if isinstance(value, torch.device):  # x.device, or rebuilt from it: torch.device(str(x.device)), (type, index)
        return value == PLAYED_CUDA
    if isinstance(value, str):
        return value.split(":")[0] == "cuda"
    return index and isinstance(value, int) and not isinstance(value, bool)


def _current_cuda(args: tuple, kwargs: dict) -> bool:
    """Whether ``t.cuda(*args, **kwargs)`` names the current GPU (no device, or index 0): the one a counter plays."""
    device = args[0] if args else kwargs.get("device")
    return device is None or (isinstance(device, int) and not isinstance(device, bool) and device == 0)


def _on_this_host(func: Any, name: str, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """A call that names a CUDA device (``device=x.device``, ``t.to("cuda")``), as it runs on a CPU machine that
    plays a GPU (:class:`SyncCounter` with ``plays_cuda``): with the host named instead. Where its result lives
    is the counter's business (:meth:`SyncCounter._before` read the call as it was written)."""
    if _names_cuda(kwargs.get("device"), index=True):
        kwargs = {**kwargs, "device": "cpu"}
    if (func is _T.to or (name == "to" and isinstance(func, _ATEN_OPS))) and any(
        _names_cuda(a, index=True) for a in args[1:]
    ):
        args = (args[0], *("cpu" if _names_cuda(a, index=True) else a for a in args[1:]))
    return args, kwargs


def _memory(t: torch.Tensor) -> int:
    """Where ``t``'s memory starts (its storage's address): views of one tensor share it."""
    with torch._C.DisableTorchFunction():
        return t.untyped_storage().data_ptr()


def _owner(t: torch.Tensor) -> torch.Tensor:
    """The tensor whose memory ``t`` views (``t`` itself when it is no view): alive as long as its memory is in use."""
    with torch._C.DisableTorchFunction():
        return t._base if t._base is not None else t


def _grad_fn(t: torch.Tensor) -> Any:
    """``t.grad_fn``, or None where reading it raises: a view made in no_grad whose base was written in place with
    grad mode on (the learner's ``x.permute(...).add_(b)`` in the caller's no_grad): torch refuses it only when read."""
    try:
        return t.grad_fn
    except RuntimeError:
        return None


def _ordered(made_on: Any, tick: int, stream: Any, upto: int, counter: SyncCounter) -> bool:
    """Whether work queued on ``made_on`` at ``tick`` is done for a stream that waited for ``stream``'s work up to
    ``upto``: it is ``stream``'s own work by then, or work ``stream`` had waited for by then."""
    if made_on is stream:
        return tick <= upto
    return isinstance(stream, _CountedStream) and tick <= stream.waited_upto(made_on, counter.token, before=upto)


def _covered(entry: tuple[Any, Any, int], covers: Any) -> bool:
    """Whether a wait covering ``covers`` (see :meth:`SyncCounter._record`) waited for the copy of ``entry``."""
    if covers is _EVERY_STREAM:
        return True
    if covers is None:
        return False
    stream, upto = covers
    return entry[1] is stream and (upto is None or entry[2] <= upto)


def _counting_wait(counter: SyncCounter, label: str, wait: Callable[..., Any]) -> Callable[..., Any]:
    """``wait`` (a ``synchronize`` or ``empty_cache``) that counts as one sync named ``label``, then runs where
    there is a real GPU (on a CPU machine the counter plays one: ``torch.cuda.synchronize()`` would raise). Each
    waits for the whole device, but a real GPU's stream's or event's own ``synchronize()`` (the played ones are
    :class:`_CountedStream`): for the race model, those wait for their stream only."""
    device_wide = wait not in _REAL_STREAM_WAITS

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter._record(label, None)
        if device_wide:
            counter.waited_for(None)
        return wait(*args, **kwargs) if _REAL_CUDA() else None

    return counted


_REAL_CUDA = torch.cuda.is_available


# What a GPU machine answers, played while a SyncCounter counts, so that code run only where there is a GPU
# (``if torch.cuda.is_available(): torch.cuda.synchronize()``, ``pin_memory=torch.cuda.is_available()``) runs and
# is counted: (owner, attribute, value). torch's own code gets the real answer (it would call into CUDA), except
# autocast's check (``torch.autocast("cuda", torch.float16)`` is on, as on a GPU: :attr:`SyncCounter.autocast`).
QUERIES_TO_DONE = 16  # a spin loop asks this often in microseconds; q() or q() asks twice and waits for nothing


class _CountedStream:
    """A CUDA stream or event while a :class:`SyncCounter` plays a GPU: ``synchronize()`` is a counted wait; ``query()``
    answers not done (waiting for nothing) until the :data:`QUERIES_TO_DONE`-th look in a row, which answers done and
    is counted (a spin loop waits); ordering between streams (``wait_stream``, ``record``...) is accepted and changes nothing here."""

    stream_id = 0  # what code may read of a stream (torch.cuda.set_stream reads stream_id)
    device_index = 0
    device_type = 1  # CUDA, as torch's own code reads it
    cuda_stream = 0
    priority = 0
    device = torch.device("cuda", 0)

    def __init__(self, *, event: bool = False) -> None:
        self.event = event
        self.recorded_on: _CountedStream | None = None  # an event: the stream it was recorded on,
        self.recorded_upto = 0  # and how many copies to the host were queued then (SyncCounter.copies_queued)
        self.recorded_at: tuple[object, int] = (None, -1)  # and the count's token and tick then
        # a stream: stream -> (count token, the tick up to which it waited for that stream's work, the tick it waited
        # at), through other streams too
        self.waited: dict[_CountedStream, tuple[object, int, int]] = {}

    def waited_upto(self, stream: Any, token: object, before: int | None = None) -> int:
        """The tick up to which this stream waited for ``stream``'s work in the count of ``token`` (-1: it did not),
        counting only waits made by tick ``before``."""
        entry = self.waited.get(stream)
        if entry is None or entry[0] is not token or (before is not None and entry[2] > before):
            return -1
        return entry[1]

    def covers(self) -> Any:
        """What the host waits for in ``synchronize()`` (see :meth:`SyncCounter._record`): a stream's work so far,
        an event's work before its record; an event never recorded, nothing."""
        if not self.event:
            return (self, None)
        return (self.recorded_on, self.recorded_upto) if self.recorded_on is not None else None

    def synchronize(self) -> None:
        self._waited("Stream.synchronize() / Event.synchronize()")

    def _waited(self, label: str) -> None:
        if ACTIVE_COUNTERS:  # the host waited for this stream's work (an event's: the stream it was recorded on)
            ACTIVE_COUNTERS[-1]._record(label, None, covers=self.covers())
            counter = ACTIVE_COUNTERS[-1]
            if not self.event:
                counter.waited_for(self)
            elif self.recorded_on is not None:
                counter.waited_for(self.recorded_on, self._tick_in(counter))

    def _tick_in(self, counter: SyncCounter) -> int:
        """The tick this event was recorded at, in ``counter``'s count (-1: in another's: it covers none of this one)."""
        return self.recorded_at[1] if self.recorded_at[0] is counter.token else -1

    def query(self) -> bool:
        counter = ACTIVE_COUNTERS[-1] if ACTIVE_COUNTERS else None
        if counter is None:
            return False
        counter.queried = getattr(counter, "queried", 0) + 1  # the counter keeps the count: this object is shared
        if counter.queried < QUERIES_TO_DONE:
            return False
        counter.queried = 0
        self._waited("循环 query() 直到完成")
        return True

    def record(self, stream: Any = None) -> None:
        """``event.record(stream)``: the event marks ``stream``'s work so far (the current stream's by default)."""
        counter = ACTIVE_COUNTERS[-1] if ACTIVE_COUNTERS else None
        self.recorded_on = stream if stream is not None else counter.current_stream() if counter else _DEFAULT_STREAM
        self.recorded_upto = counter.copies_queued if counter else 0
        self.recorded_at = (counter.token, counter.tick) if counter else (None, -1)

    def wait(self, stream: Any = None) -> None:
        """``event.wait(stream)``: ``stream`` (the current one by default) waits for the event."""
        counter = ACTIVE_COUNTERS[-1] if ACTIVE_COUNTERS else None
        waiting = stream if stream is not None else counter.current_stream() if counter else _DEFAULT_STREAM
        if isinstance(waiting, _CountedStream) and counter is not None:
            waiting._waits_for(self.recorded_on, self._tick_in(counter))

    def wait_stream(self, stream: Any = None) -> None:
        counter = ACTIVE_COUNTERS[-1] if ACTIVE_COUNTERS else None
        if counter is not None:
            self._waits_for(stream, counter.tick)

    def wait_event(self, event: Any = None) -> None:
        counter = ACTIVE_COUNTERS[-1] if ACTIVE_COUNTERS else None
        if isinstance(event, _CountedStream) and counter is not None:
            self._waits_for(event.recorded_on, event._tick_in(counter))

    def _waits_for(self, stream: Any, upto: int) -> None:
        """This stream waits for the work queued on ``stream`` up to tick ``upto`` (and for what that stream had
        waited for by then)."""
        if not isinstance(stream, _CountedStream) or stream is self:
            return
        counter = ACTIVE_COUNTERS[-1]
        if self is _DEFAULT_STREAM:
            counter.waited_for(stream, upto)
            return
        now = counter.tick
        reached = {stream: upto}
        for other in stream.waited:
            reached[other] = stream.waited_upto(other, counter.token, before=upto)
        for other, tick in reached.items():
            if tick >= max(0, self.waited_upto(other, counter.token)) and other is not self:
                self.waited[other] = (counter.token, tick, now)

    def record_event(self, event: Any = None) -> _CountedStream:
        made = event if isinstance(event, _CountedStream) else _CountedStream(event=True)
        made.record(self)
        return made

    def __enter__(self) -> _CountedStream:
        """``with s:``: ``s`` is the current stream inside the block, as in ``with torch.cuda.stream(s):``."""
        self._blocks = getattr(self, "_blocks", [])
        self._blocks.append(_StreamBlock(self))
        return self._blocks[-1].__enter__()

    def __exit__(self, *exc: object) -> None:
        self._blocks.pop().__exit__(*exc)


_DEFAULT_STREAM = _CountedStream()  # the current (default) stream of the played GPU


def _new_stream() -> _CountedStream:
    """``torch.cuda.Stream()`` while a GPU is played."""
    return _CountedStream()


def _current_stream(*args: Any, **kwargs: Any) -> _CountedStream:
    """``torch.cuda.current_stream()`` while a GPU is played: the side stream of the innermost block, else the default."""
    return ACTIVE_COUNTERS[-1].current_stream() if ACTIVE_COUNTERS else _DEFAULT_STREAM


def _set_stream(stream: Any, *args: Any, **kwargs: Any) -> None:
    """``torch.cuda.set_stream(s)`` while a GPU is played: ``s`` is the current stream until another is set."""
    if not ACTIVE_COUNTERS:
        return
    counter = ACTIVE_COUNTERS[-1]
    counter.side_streams.clear()
    if isinstance(stream, _CountedStream):
        counter.side_streams.append(stream)


class _StreamBlock:
    """``with torch.cuda.stream(s):`` while a GPU is played: inside, work goes to ``s`` (:attr:`SyncCounter.side_streams`)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.counter = ACTIVE_COUNTERS[-1] if ACTIVE_COUNTERS else None

    def __enter__(self) -> Any:
        if self.counter is not None and isinstance(self.stream, _CountedStream):
            self.counter.side_streams.append(self.stream)  # the default stream too: inside, work goes back to it
        return self.stream

    def __exit__(self, *exc: object) -> None:
        if self.counter is not None and self.counter.side_streams and self.counter.side_streams[-1] is self.stream:
            self.counter.side_streams.pop()


class _Made:
    """A played ``torch.cuda`` answer made anew at each call (``fn(*args, **kwargs)``), not one shared value."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn


_REAL_RECORD_STREAM = _T.record_stream


def _record_stream(t: torch.Tensor, stream: Any) -> None:
    """``t.record_stream(s)`` while a GPU is played: noted for a played stream (:meth:`SyncCounter.recorded_for`)."""
    if not isinstance(stream, _CountedStream):
        _REAL_RECORD_STREAM(t, stream)
    elif ACTIVE_COUNTERS:
        ACTIVE_COUNTERS[-1].recorded_for(t, stream)


def _properties(name: str, major: int, minor: int, total_gib: int, sms: int, l2_mib: int) -> types.SimpleNamespace:
    """What ``torch.cuda.get_device_properties(...)`` of a played GPU answers (the fields of a real one)."""
    return types.SimpleNamespace(
        name=name,
        major=major,
        minor=minor,
        total_memory=total_gib * 2**30,
        multi_processor_count=sms,
        is_integrated=False,
        is_multi_gpu_board=False,
        warp_size=32,
        max_threads_per_block=1024,
        max_threads_per_multi_processor=2048,
        regs_per_multiprocessor=65536,
        shared_memory_per_block=48 * 2**10,
        shared_memory_per_block_optin=(227 if major >= 9 else 163 if major == 8 else 96) * 2**10,
        shared_memory_per_multiprocessor=(228 if major >= 9 else 164 if major == 8 else 96) * 2**10,
        L2_cache_size=l2_mib * 2**20,
        clock_rate=1410000,
        memory_clock_rate=1593000,
        memory_bus_width=5120 if major >= 8 else 4096,
        gcnArchName=name,
        uuid="GPU-00000000-0000-0000-0000-000000000000",
        pci_bus_id=0,
        pci_device_id=0,
        pci_domain_id=0,
    )


def _profile(
    props: types.SimpleNamespace, free_gib: float, used_gib: float, arch: list[str], gpus: int = 1
) -> dict[str, Any]:
    """The answers of one played GPU to what code may ask ``torch.cuda`` (see :data:`GPU_PROFILES`); ``gpus``: how
    many the machine has (the tensors stay on the first)."""
    used = int(used_gib * 2**30)
    return {
        "device_count": gpus,
        "get_device_capability": (props.major, props.minor),
        "get_device_name": props.name,
        "get_device_properties": props,
        "get_arch_list": arch,
        "mem_get_info": (int(free_gib * 2**30), props.total_memory),  # (free, total) bytes
        "memory_allocated": used,
        "memory_reserved": used,
        "max_memory_allocated": used,
        "max_memory_reserved": used,
        "memory_stats": _memory_stats(used),
        "memory_summary": f"|  PyTorch CUDA memory summary ({props.name})  |",
        "utilization": 0,
        "is_bf16_supported": props.major >= 8,
        "is_tf32_supported": props.major >= 8,
    }


def _memory_stats(used: int) -> dict[str, int]:
    """What ``torch.cuda.memory_stats()`` of a played GPU answers: every key the caching allocator reports."""
    stats = {"num_alloc_retries": 0, "num_ooms": 0, "num_sync_all_streams": 0, "num_device_alloc": 1}
    stats |= {"num_device_free": 0, "max_split_size": -1}
    for kind in ("allocated_bytes", "reserved_bytes", "active_bytes", "requested_bytes", "inactive_split_bytes"):
        for pool in ("all", "large_pool", "small_pool"):
            value = used if kind != "inactive_split_bytes" and pool != "small_pool" else 0
            for stat in ("current", "peak", "allocated", "freed"):
                stats[f"{kind}.{pool}.{stat}"] = value if stat != "freed" else 0
    for kind in ("allocation", "segment", "active", "inactive_split", "oversize_allocations", "oversize_segments"):
        for pool in ("all", "large_pool", "small_pool"):
            for stat in ("current", "peak", "allocated", "freed"):
                stats[f"{kind}.{pool}.{stat}"] = (
                    1 if kind in ("allocation", "segment", "active") and stat != "freed" else 0
                )
    return stats


# The played GPUs: what a learner's code may ask ``torch.cuda`` about a GPU (a branch on its kind, its free memory, its
# bf16 support) gets one of these answers, chosen per played call from its inputs (:func:`play_gpu_profile_for`): a
# branch for a newer card, an older one or one short of memory runs in some of the checks' calls, on every played GPU
# (count_syncs, a_gpu_machine, fixtures.PlayedCudaModule). The first is the default.
GPU_PROFILES = (
    _profile(_properties("NVIDIA A100-SXM4-80GB (played)", 8, 0, 80, 108, 40), 70, 1, ["sm_80", "sm_90"]),
    _profile(_properties("NVIDIA H200 (played)", 9, 0, 141, 132, 50), 130, 1, ["sm_80", "sm_90"], gpus=2),
    _profile(_properties("Tesla V100-SXM2-16GB (played)", 7, 0, 16, 80, 6), 0.5, 15, ["sm_70"]),
)
GPU_QUERIES = tuple(GPU_PROFILES[0])  # the names answered
_GPU_PROFILE = [0]  # the index in GPU_PROFILES of the GPU played now


def gpu_answer(name: str) -> Any:
    """What the GPU played now answers to ``torch.cuda.<name>(...)``."""
    return GPU_PROFILES[_GPU_PROFILE[0]][name]


def gpu_profile_of(value: Any, shift: int = 0) -> int:
    """The played GPU for a call on ``value`` (its arguments, modules' parameters included): chosen from a hash of
    their shapes, dtypes and first values, so that the kernel and the judge, calling with the same inputs, play the
    same GPU, and the checks' cases meet every GPU; ``shift``: a rerun of the same call plays the next one. Called
    before any mode of the call is entered (the values are read)."""
    tensors = tensors_in(value) + [p for m in _modules(value) for p in m.parameters()]
    if not tensors:
        return shift % len(GPU_PROFILES)
    digest = zlib.crc32(repr([(tuple(t.shape), str(t.dtype)) for t in tensors]).encode())
    with _disable_current_modes(), torch._C.DisableTorchFunction():  # read unseen by the modes recording the call
        for t in tensors[:16]:
            if type(t) in (torch.Tensor, nn.Parameter) and t.device.type == "cpu" and not t.is_complex():
                digest = zlib.crc32(t.detach().reshape(-1)[:8].to(torch.float64).numpy().tobytes(), digest)
    return (digest + shift) % len(GPU_PROFILES)


def _modules(value: Any) -> list[nn.Module]:
    if isinstance(value, nn.Module):
        return [value]
    if isinstance(value, (list, tuple)):
        return [m for v in value for m in _modules(v)]
    if isinstance(value, dict):
        return [m for v in value.values() for m in _modules(v)]
    return []


@contextlib.contextmanager
def playing_gpu_profile(index: int) -> Iterator[None]:
    """Inside the block the played GPU is ``GPU_PROFILES[index]``."""
    before, _GPU_PROFILE[0] = _GPU_PROFILE[0], index
    try:
        yield
    finally:
        _GPU_PROFILE[0] = before


class _Profiled:
    """A played ``torch.cuda`` query answered by the GPU played now (:func:`gpu_answer`)."""

    def __init__(self, name: str) -> None:
        self.name = name


# torch.accelerator's memory queries, by the torch.cuda query that answers them
_ACCELERATOR_QUERIES = {
    "get_memory_info": "mem_get_info",
    **{name: name for name in ("memory_stats", "memory_allocated", "memory_reserved")},
    **{name: name for name in ("max_memory_allocated", "max_memory_reserved")},
}
_CURRENT = object()  # the answer of a played torch.cuda.current_device(): played_current_cuda()
_CURRENT_CUDA = [0]  # the played current CUDA device (device_switches_played switches it)


def played_current_cuda() -> int:
    """The current CUDA device of a played machine: 0, or ``i`` inside a played ``with torch.cuda.device(i):``."""
    return _CURRENT_CUDA[0]


_PLAYED = [
    (torch.cuda, "is_available", True),
    (torch.cuda, "is_initialized", True),  # any process that has run on a GPU
    (torch.cuda, "current_device", _CURRENT),
    # what a learner's device test might ask: the answers of a recent GPU holding the inputs
    (torch.cuda, "current_stream", _Made(_current_stream)),
    (torch.cuda, "set_stream", _Made(_set_stream)),
    (torch.cuda, "StreamContext", _Made(lambda stream=None: _StreamBlock(stream))),
    (torch.cuda, "default_stream", _DEFAULT_STREAM),
    (torch.cuda, "Stream", _Made(lambda *args, **kwargs: _new_stream())),  # a side stream (copies beside compute)
    (torch.cuda, "Event", _Made(lambda *args, **kwargs: _CountedStream(event=True))),
    (torch.cuda, "stream", _Made(lambda stream=None: _StreamBlock(stream))),
    *[(torch.cuda, name, _Profiled(name)) for name in GPU_QUERIES if callable(getattr(torch.cuda, name, None))],
    (torch.backends.cudnn, "is_available", True),
    (torch.backends.cudnn, "is_acceptable", True),
    *[
        (torch.accelerator, name, value)
        for name, value in (
            ("is_available", True),
            ("device_count", _Profiled("device_count")),
            ("current_accelerator", torch.device("cuda")),
            ("current_stream", _Made(_current_stream)),
            ("set_stream", _Made(_set_stream)),
        )
        if callable(getattr(getattr(torch, "accelerator", None), name, None))
    ],
    # the device-generic memory API (torch.accelerator.get_memory_info, .memory_stats ...), under both its names
    *[
        (owner, name, _Profiled(_ACCELERATOR_QUERIES[name]))
        for owner in (getattr(torch, "accelerator", None), getattr(getattr(torch, "accelerator", None), "memory", None))
        for name in _ACCELERATOR_QUERIES
        if owner is not None and callable(getattr(owner, name, None))
    ],
    (torch._C, "_cuda_getDeviceCount", _Profiled("device_count")),  # what torch.cuda.device_count() asks itself
    # the same queries under torch.cuda.memory's own names (torch.cuda.memory.mem_get_info)
    *[
        (torch.cuda.memory, name, _Profiled(name))
        for name in GPU_QUERIES
        if callable(getattr(torch.cuda.memory, name, None))
    ],
]
_PLAYED_FOR_TORCH = (torch.cuda.amp.common.__file__, torch.amp.autocast_mode.__file__, torch.amp.grad_scaler.__file__)


@contextlib.contextmanager
def a_gpu_machine(device_count: int = 1, learner: Any = None) -> Iterator[None]:
    """Inside the block ``torch.cuda`` answers as on a machine with ``device_count`` GPUs (:data:`_PLAYED`) to any
    caller but torch's own code, and its waits (``torch.cuda.synchronize()``, ``empty_cache()``) return at once:
    for a check that plays the devices of tensors itself (:class:`course.fixtures.PlayedDevices`) and counts
    nothing. With the learner's function ``learner``: its own bindings of the queries and what its cells computed
    from the machine answer as the played machine does too (:func:`learner_names_rebound`, :func:`cell_flags_played`)."""
    answers = [(o, n, device_count if n in ("device_count", "_cuda_getDeviceCount") else v) for o, n, v in _PLAYED]
    answers += [(owner, name, None) for owner, name, _ in _WAITS]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in answers]
    try:
        for (owner, name, real), (_, _, value) in zip(saved, answers):
            setattr(owner, name, _playing(real, value))
        names = _learner_globals(learner) if learner is not None else []
        stand_ins = {id(real): (real, getattr(owner, name)) for owner, name, real in saved}
        recorded = "record_stream" not in vars(_T)  # inherited: a played stream's record_stream, deleted after
        if recorded:
            _T.record_stream = _record_stream
        try:
            with device_switches_played(), learner_names_rebound(names, stand_ins), cell_flags_played(names):
                yield
        finally:
            if recorded:
                del _T.record_stream
    finally:
        for owner, name, real in reversed(saved):
            setattr(owner, name, real)


@contextlib.contextmanager
def device_switches_played() -> Iterator[None]:
    """Inside the block ``with torch.cuda.device(i):`` / ``torch.cuda.device_of(t)`` switch the played current device
    (:func:`played_current_cuda`, ``cuda:0`` outside them) instead of reaching the driver this machine lacks: they
    switch through these two, called by torch's own code."""

    def exchange(device: int) -> int:
        before = _CURRENT_CUDA[0]
        if device is not None and device >= 0:
            _CURRENT_CUDA[0] = device
        return before

    switches = [(name, getattr(torch.cuda, name)) for name in ("_exchange_device", "_maybe_exchange_device")]
    outside = _CURRENT_CUDA[0]
    try:
        for name, _ in switches:
            setattr(torch.cuda, name, exchange)
        yield
    finally:
        _CURRENT_CUDA[0] = outside
        for name, real in switches:
            setattr(torch.cuda, name, real)


_LEGACY_TYPES = {
    "FloatTensor": torch.float32,
    "DoubleTensor": torch.float64,
    "HalfTensor": torch.float16,
    "BFloat16Tensor": torch.bfloat16,
    "LongTensor": torch.int64,
    "IntTensor": torch.int32,
    "ShortTensor": torch.int16,
    "CharTensor": torch.int8,
    "ByteTensor": torch.uint8,
    "BoolTensor": torch.bool,
}


class _PlayedLegacyType(type):
    """The stand-ins for ``torch.cuda.FloatTensor`` and the like that ``isinstance`` answers as on a GPU: a device
    tensor (for the innermost counter that plays CUDA) of the class's ``dtype``. Made once, not at every count."""

    counters: list[SyncCounter] = []  # the counters playing CUDA now, innermost last

    def __instancecheck__(cls, t: Any) -> bool:
        counters = _PlayedLegacyType.counters
        return isinstance(t, torch.Tensor) and t.dtype == cls.dtype and bool(counters) and counters[-1].on_device(t)


_LEGACY_PLAYED = {name: _PlayedLegacyType(name, (), {"dtype": dtype}) for name, dtype in _LEGACY_TYPES.items()}


@contextlib.contextmanager
def cell_flags_played(learner_globals: list[dict[str, Any]], gpu: torch.device | None = None) -> Iterator[None]:
    """Inside the block (a GPU played), what the learner's cells computed at the top level from the machine (a flag,
    a memo, a query held in a dict or a closure, a default argument: :mod:`course.cellflags`) is as the played machine
    computes it, where that is a value cheap and safe to make again. ``gpu``: what a ``torch.device`` the played
    machine names a GPU is in the call (:data:`PLAYED_CUDA` where tensors read as on it); without it the cell's own."""
    with contextlib.ExitStack() as stack:
        for names in learner_globals:
            stack.enter_context(cellflags.replayed(names, uncounted, gpu))
        yield


@contextlib.contextmanager
def learner_names_rebound(
    learner_globals: list[dict[str, Any]], stand_ins: dict[int, tuple[Any, Any]]
) -> Iterator[None]:
    """Inside the block, the learner's own bindings of the functions in ``stand_ins`` (``id(real)`` -> (real, stand-in))
    reach the stand-ins: a global name (``from torch.cuda import mem_get_info``), a default argument of the learner's
    functions (``def f(free=torch.cuda.mem_get_info)``), a ``functools.partial`` of it among the globals."""

    def swapped(value: Any) -> Any:
        hit = stand_ins.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        if isinstance(value, functools.partial):
            hit = stand_ins.get(id(value.func))
            if hit is not None and hit[0] is value.func:
                return functools.partial(hit[1], *value.args, **value.keywords)
        return _UNPLAYED

    undo: list[tuple[Any, str, Any]] = []
    try:
        for names in learner_globals:
            for key, value in list(names.items()):
                new = swapped(value)
                if new is not _UNPLAYED:
                    undo.append((names, key, value))
                    names[key] = new
                if not isinstance(value, types.FunctionType):
                    continue
                defaults, kwdefaults = value.__defaults__ or (), value.__kwdefaults__ or {}
                if any(swapped(v) is not _UNPLAYED for v in (*defaults, *kwdefaults.values())):
                    undo.append((value, "__defaults__", value.__defaults__))
                    undo.append((value, "__kwdefaults__", value.__kwdefaults__))
                    pick = lambda v: v if swapped(v) is _UNPLAYED else swapped(v)  # noqa: E731
                    value.__defaults__ = tuple(pick(v) for v in defaults) or None
                    value.__kwdefaults__ = {k: pick(v) for k, v in kwdefaults.items()} or None
        yield
    finally:
        for owner, key, value in reversed(undo):
            if isinstance(owner, dict):
                owner[key] = value
            else:
                setattr(owner, key, value)


# Tensors made from host memory by calls that torch's function modes do not see (the counter places them itself).
_HOST_MAKERS = [
    (torch, "from_numpy"), (torch, "frombuffer"), (torch, "from_dlpack"), (torch.utils.dlpack, "from_dlpack"),
    (torch, "from_file"),
]  # fmt: skip


def _made_on_host(counter: SyncCounter, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real`` (``torch.from_dlpack``, ...), whose result the learner's code gets as host memory: made from a NumPy
    array, bytes or a file (not from a device tensor's ``__dlpack__``)."""

    @functools.wraps(real)
    def made(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        source = args[0] if args else next(iter(kwargs.values()), None)
        from_device = isinstance(source, torch.Tensor) and counter.on_device(source)
        if isinstance(result, torch.Tensor) and not from_device and not is_library(sys._getframe(1).f_code.co_filename):
            counter._place(result, on_device=False)
        return result

    return made


def _playing(real: Callable[..., Any], value: Any) -> Callable[..., Any]:
    """``real`` (``torch.cuda.is_available``, ...) answering ``value`` to any caller but torch's own code."""

    def played(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_code.co_filename
        if caller.startswith(_TORCH_DIR) and caller not in _PLAYED_FOR_TORCH:
            return real(*args, **kwargs)
        if isinstance(value, _Made):
            return value.fn(*args, **kwargs)
        if isinstance(value, _Profiled):
            return gpu_answer(value.name)
        return _CURRENT_CUDA[0] if value is _CURRENT else value

    return played


def _counting_threads(counter: SyncCounter, start: Callable[..., Any]) -> Callable[..., Any]:
    """A ``threading.Thread.start`` that runs the thread's ``run`` under ``counter`` (its modes, in that thread)."""

    def counted_start(thread: threading.Thread, *args: Any, **kwargs: Any) -> Any:
        run = thread.run

        def counted_run() -> None:
            with _InThread(counter), _AtenReads(counter):
                run()

        thread.run = counted_run
        return start(thread, *args, **kwargs)

    return counted_start


def _counting_submit(counter: SyncCounter, submit: Callable[..., Any]) -> Callable[..., Any]:
    """A ``ThreadPoolExecutor.submit`` whose work runs under ``counter`` in the worker thread, unless that thread already
    does (one started while counting: :func:`_counting_threads`)."""

    def counted_submit(pool: Any, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        def counted(*a: Any, **k: Any) -> Any:
            stack = _get_current_function_mode_stack()
            if any(m is counter or getattr(m, "counter", None) is counter for m in stack):
                return fn(*a, **k)
            with _InThread(counter), _AtenReads(counter):
                return fn(*a, **k)

        return submit(pool, counted, *args, **kwargs)

    return counted_submit


def _written(name: str, args: tuple, kwargs: dict) -> list[torch.Tensor]:
    """The tensors an in-place call wrote into (``buf[i:j] = out``, ``buf.narrow(0, i, n).copy_(out)``,
    ``torch.cat(xs, out=buf)``, each tensor of a foreach op's first list: ``torch._foreach_copy_([view], [out])``),
    with the base each is a view of: the graph they carry afterwards is made in this step, though no result of the
    call holds it."""
    targets = tensors_in(kwargs.get("out"))
    if (name == "__setitem__" or writes_in_place(name)) and args:
        targets += tensors_in(args[0])
    with torch._C.DisableTorchFunction():
        return targets + [t._base for t in targets if t._base is not None]


def _given_classes(args: tuple, kwargs: dict) -> bool:
    """Whether ``F.one_hot(labels, num_classes)`` was told the number of classes: without it (-1) the host reads
    ``labels.max()`` on any device, a sync; with it a GPU makes no read (only a CPU checks the range)."""
    classes = args[1] if len(args) > 1 else kwargs.get("num_classes", -1)
    return isinstance(classes, int) and not isinstance(classes, bool) and classes >= 0


def _names_host(device: Any) -> bool:
    return device is not None and torch.device(device).type == "cpu"


def _casts(args: tuple, kwargs: dict) -> bool:
    """Whether an aten ``_to_copy`` changes the dtype: a cast, which a GPU makes where the tensor is. On a CPU machine
    every ``_to_copy`` names the host (the backward of ``x.double()``, autocast's casts), so only a copy that keeps
    the dtype can be a copy to the host; Python-level moves (``.to("cpu", torch.float64)``) are decided by the
    counter itself (:meth:`SyncCounter._before`)."""
    dtype = kwargs.get("dtype")
    return bool(args) and isinstance(args[0], torch.Tensor) and dtype is not None and dtype != args[0].dtype


_GRADER_DIRS = tuple(
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), package) + os.sep
    for package in ("course", "autograder")
)


def _entered_by_grader_code() -> bool:
    """Whether the ``with`` that entered the calling context manager is in the grader's own files (not a learner's
    cell that imported it: ``with scenarios.uncounted(): loss.item()`` must not hide its syncs)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename == contextlib.__file__:
        frame = frame.f_back
    return frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_GRADER_DIRS)


@contextlib.contextmanager
def uncounted() -> Iterator[None]:
    """Torch calls in this block are not counted by running :class:`SyncCounter` s (a fixture's own bookkeeping);
    entered from any code but the grader's, it changes nothing."""
    global _paused
    pause = int(_entered_by_grader_code())
    _paused += pause
    try:
        yield
    finally:
        _paused -= pause


_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_TENSOR_PY = (torch._tensor.__file__,)  # Tensor methods written in Python (__dlpack__, storage)
_MODULE_PY = (torch.nn.modules.module.__file__,)  # nn.Module.to / .cuda: each parameter moved by Module._apply
_SAVE_PY = (torch.serialization.__file__,)  # torch.save: on a GPU it copies every tensor's storage to the host
_SAVED = "torch.save(t)（把存储拷到主机）"
# Calls that hand a tensor's memory to code on the host: on a GPU, reading it there copies it back first.
_HANDS_OUT_MEMORY = {
    "__dlpack__": "np.from_dlpack / __dlpack__",
    "untyped_storage": ".untyped_storage()（在主机上读存储）",
    "storage": ".storage()（在主机上读存储）",
    "_typed_storage": ".storage()（在主机上读存储）",
    "apply_": ".apply_(f)（在主机上逐个读数值）",
    "map_": ".map_(t, f)（在主机上逐个读数值）",
    "map2_": ".map2_(a, b, f)（在主机上逐个读数值）",
}


_STORAGE_CALLS = frozenset({"untyped_storage", "storage", "_typed_storage"})


class PlayedStorage:
    """A played GPU tensor's storage as the learner's code sees it: on ``device`` (``.device``, ``.is_cuda``,
    ``get_device()``, ``type()``), as the tensor's ``t.device`` reads; reading its memory (``tolist()``, indexing,
    ``.cpu()``, iterating, printing) calls ``on_read`` (a counter's sync). What it hands back as a storage again
    (``untyped()``, ``clone()``, ``_untyped_storage``) is played too; anything else is the real storage's
    (``data_ptr()``, ``nbytes()``, ``size()``). One stand-in per real storage object, so ``is`` compares as it does."""

    _READS = frozenset({"tolist", "cpu", "numpy", "_write_file", "copy_", "__reduce__", "__reduce_ex__", "hex"})
    _STORAGES = frozenset({"untyped", "clone", "_untyped_storage", "_new_shared", "share_memory_"})
    _MADE: dict[int, tuple[Any, PlayedStorage]] = {}  # id(real storage) -> (it, its stand-in), while both live

    def __new__(cls, real: Any, device: torch.device, on_read: Callable[[], None] = lambda: None) -> PlayedStorage:
        kept = cls._MADE.get(id(real))
        if kept is not None and kept[0] is real and kept[1]._device == device:
            kept[1]._on_read = on_read  # the count running now is the one a read belongs to
            return kept[1]
        made = super().__new__(cls)
        made._real, made._device, made._on_read = real, device, on_read
        cls._MADE[id(real)] = (real, made)
        if len(cls._MADE) > 4096:  # stand-ins of storages long gone: forget the oldest
            for key in list(cls._MADE)[:2048]:
                del cls._MADE[key]
        return made

    def __init__(self, real: Any, device: torch.device, on_read: Callable[[], None] = lambda: None) -> None:
        pass  # set up in __new__ (a stand-in made once per real storage)

    device = property(lambda self: self._device)
    is_cuda = property(lambda self: self._device.type == "cuda")

    def get_device(self) -> int:
        return self._device.index if self._device.index is not None else 0

    def is_pinned(self, *args: Any) -> bool:
        return False

    def type(self, *args: Any, **kwargs: Any) -> Any:
        name = self._real.type(*args, **kwargs)
        return name.replace("torch.", "torch.cuda.", 1) if isinstance(name, str) and not args and not kwargs else name

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._real, name)
        if name in self._READS:
            self._on_read()
        if name in self._STORAGES and callable(value):
            return lambda *a, **k: _played_storage(value(*a, **k), self._device, self._on_read)
        return value

    def __getitem__(self, index: Any) -> Any:
        self._on_read()
        return self._real[index]

    def __iter__(self) -> Any:
        self._on_read()
        return iter(self._real)

    def __len__(self) -> int:
        return len(self._real)

    def __eq__(self, other: object) -> bool:
        return self._real == (other._real if isinstance(other, PlayedStorage) else other)

    def __hash__(self) -> int:
        return hash(self._real)

    def __repr__(self) -> str:
        self._on_read()
        return repr(self._real).replace("device=cpu", f"device={self._device}")


class FakeTensorStorages(TorchFunctionMode):
    """Inside the block a FakeTensor's storage reads as on the FakeTensor's device (FakeTensorMode keeps storages
    on meta): ``x.untyped_storage().device`` of a fake ``cuda:1`` tensor is ``cuda:1``, as on that GPU."""

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        out = func(*args, **(kwargs or {}))
        if func in (_T.untyped_storage, _T.storage) and args and type(args[0]).__name__ == "FakeTensor":
            return PlayedStorage(out, args[0].device)
        return out


def _played_storage(value: Any, device: torch.device, on_read: Callable[[], None]) -> Any:
    if isinstance(value, (torch.UntypedStorage, torch.TypedStorage)):
        return PlayedStorage(value, device, on_read)
    return value


def _called_by_torch(skip: tuple[str, ...] = ()) -> bool:
    """Whether the torch call being handled was made by torch's own Python code (not a learner's).

    ``skip``: torch files that only forward the learner's own call (a Tensor method written in Python).
    """
    files = (__file__, torch.overrides.__file__, *skip)
    for filename in _stack_files(sys._getframe(1)):
        if filename not in files:
            return filename.startswith(_TORCH_DIR)
    return False


# where code that is not the learner's lives: torch, NumPy, course/ itself, the standard library, site-packages
LIBRARY_PATHS = tuple(
    {os.path.dirname(os.path.abspath(m.__file__)) + os.sep for m in (torch, np)}
    | {os.path.dirname(os.path.abspath(__file__)) + os.sep}  # course/
    | {os.path.abspath(sysconfig.get_paths()[k]) + os.sep for k in ("stdlib", "platstdlib", "purelib", "platlib")}
)


def is_library(filename: str) -> bool:
    """Whether code from ``filename`` is torch's, NumPy's, the course's or the standard library's, not the learner's."""
    return filename.startswith(LIBRARY_PATHS) or filename.startswith("<frozen")


def _learner_function() -> str:
    """The name of the innermost function on the call stack that is not a library's (:func:`is_library`): the
    learner's function that made the torch call being handled."""
    frame = sys._getframe(1)
    code = frame.f_code if frame is not None else None  # read once per frame: each read is an audit event
    while code is not None and is_library(code.co_filename):
        frame = frame.f_back
        code = frame.f_code if frame is not None else None
    return code.co_name if code is not None else ""


_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep


_LOGGING_DIR = os.path.dirname(os.path.abspath(logging.__file__)) + os.sep


def _torch_file_entered() -> str:
    """The torch file (relative to torch's folder: ``"optim/adamw.py"``) whose code the learner's innermost frame
    called into, on the way to the torch call being handled; ``"logging"`` for Python's logging (a ``logger.debug``
    that formats a tensor); "" when the learner's code made that call itself."""
    entered = ""
    for name in _stack_files(sys._getframe(1)):
        if not is_library(name):
            break
        if name.startswith(_TORCH_DIR):
            entered = name.removeprefix(_TORCH_DIR)
        else:
            entered = "logging" if name.startswith(_LOGGING_DIR) else ""
    return entered


def _called_from(files: tuple[str, ...]) -> bool:
    """Whether one of ``files`` is on the call stack of the torch call being handled."""
    return any(filename in files for filename in _stack_files(sys._getframe(1)))


# torch's layers and their functions hand the learner's tensors on as they got them: a device mix in them
# (``F.cross_entropy(logits, y.cpu())``, ``nn.Linear`` on a host batch) is the caller's, as on a GPU machine.
_NN_FORWARDS = (
    torch.nn.functional.__file__,
    *sorted(glob.glob(os.path.join(os.path.dirname(torch.nn.modules.__file__), "*.py"))),
)


def _stack_files(frame: types.FrameType | None) -> Iterator[str]:
    """The file of each frame from ``frame`` outwards (each ``f_code`` read once: every read is an audit event)."""
    while frame is not None:
        yield frame.f_code.co_filename
        frame = frame.f_back


def _type_name(target: Any) -> str:
    if isinstance(target, str):
        return target
    return f"{getattr(target, '__module__', '')}.{getattr(target, '__name__', target)}"


def _names_host_type(target: Any) -> bool:
    """Whether a ``.type(...)`` argument names a CPU tensor type (``torch.FloatTensor``, "torch.DoubleTensor")."""
    if target is None or isinstance(target, torch.dtype):
        return False
    name = _type_name(target)
    return name.startswith("torch.") and name.endswith("Tensor") and name.count(".") == 1


def _to_label(func: Any, args: tuple, kwargs: dict) -> str:
    if func is _T.cpu:
        return ".cpu()"
    shown = [_show(a) for a in args[1:]] + [f"{k}={_show(v)}" for k, v in kwargs.items()]
    if isinstance(func, _ATEN_OPS):  # torch.ops.aten.to.device(t, torch.device("cpu"), torch.float32)
        return f"torch.ops.{func}({', '.join(['t', *shown])})"
    return f".to({', '.join(shown)})"


def _non_blocking(args: tuple, kwargs: dict) -> bool:
    """Whether a ``Tensor.to`` call asked for ``non_blocking=True`` (keyword, or the bool after a device/dtype)."""
    return bool(kwargs.get("non_blocking")) or any(a is True for a in args[2:])


def _show(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        return "一个 CPU 张量"
    if isinstance(value, torch.device):
        return f'torch.device("{value}")'
    return repr(value).replace("'", '"')


def _python_value(value: Any) -> bool:
    return isinstance(value, (bool, int, float, complex, np.ndarray)) and not isinstance(value, torch.Tensor)


_GRAD_ARGS = ("grad_outputs", "gradient", "grad_tensors")
_AUTOGRAD_PY = (torch.autograd.__file__, torch._tensor.__file__)  # torch.autograd.grad, Tensor.backward: Python


def _lands_on_one_element(target: torch.Tensor, index: Any) -> bool:
    """Whether ``target[index]`` (a basic index: numbers, slices) is one 0-d element."""
    items = index if isinstance(index, tuple) else (index,)
    if any(isinstance(i, torch.Tensor) or isinstance(i, (list, tuple)) for i in items):
        return False
    with uncounted():
        return target[index].dim() == 0


def _not_a_host_number(counter: SyncCounter, value: Any) -> bool:
    """Whether ``t[mask] = value`` needs the mask's positions on a GPU: anything but a number or a one-element host
    tensor (those become ``masked_fill_``, which needs none)."""
    if not isinstance(value, torch.Tensor):
        return False
    return counter.on_device(value) or value.numel() != 1


def _bool_index(index: Any) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, torch.Tensor) and i.dtype in (torch.bool, torch.uint8) for i in items)


ACTIVE_COUNTERS: list[SyncCounter] = []


def note_loss(loss: torch.Tensor) -> None:
    """Called by loss fixtures: the running counters treat ``loss``'s graph as one step's loss."""
    for counter in ACTIVE_COUNTERS:
        counter.losses_made += 1
        if loss.grad_fn is not None and counter.tracks_losses:
            counter.loss_nodes.add(loss.grad_fn)


def holds_graph(loss_node: Any) -> bool:
    """Whether a running counter saw a tensor computed from the loss whose ``grad_fn`` is ``loss_node`` (with
    its graph: ``loss * n``, ``loss.clone()``, ``loss.view(1)``) that is still alive."""
    return any(ref() is not None for c in ACTIVE_COUNTERS for ref in c.graph_holders.get(loss_node, ()))


def earlier_steps_alive() -> int:
    """Called by a loss fixture right after :func:`note_loss`: how many earlier steps, the previous one left out,
    still hold a tensor with a graph that was made in their forward (a model output kept in a list, a view of it),
    or whose graph a tensor Python holds still reaches (``all_out = torch.cat([all_out, out])``,
    ``acc = acc + out.sum()``: the newest tensor's graph links every step's), as a running counter saw them. Every
    loop still holds the previous step's loss here (``loss = loss_fn(...)`` rebinds it only after the call), and
    tensors are filed under the number of losses made before them, so the last two files (the previous step's and
    this one's) are left out."""
    return max(
        (len(_steps_held(c) - set(range(c.losses_made - 2, c.losses_made + 1))) for c in ACTIVE_COUNTERS), default=0
    )


def _steps_held(counter: SyncCounter) -> set[int]:
    """The steps (files of ``counter.step_graphs``) that a tensor Python holds was made in, or whose graph nodes
    the graph of such a tensor reaches (read from the step stamped on each node by :func:`_stamp`)."""
    steps: set[int] = set()
    seen: dict[int, Any] = {}  # id -> node: holding the wrappers keeps each node's id (and wrapper) unique
    stack = []
    for step, refs in enumerate(counter.step_graphs):
        for ref in refs:
            if _held_by_python(ref) and ref().grad_fn is not None:  # out.detach_() after backward: no graph held
                steps.add(step)
                stack.append(ref().grad_fn)
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node
        step = _stamp_of(node)
        if step is not None:
            steps.add(step)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return steps


_STEP_KEY = "course.scenarios.step"


def _stamp(node: Any, step: int) -> None:
    """Write on a graph node the step it was made in (its ``metadata`` dict lives as long as the node)."""
    metadata = getattr(node, "metadata", None)
    if isinstance(metadata, dict):
        metadata.setdefault(_STEP_KEY, step)


def _stamp_of(node: Any) -> int | None:
    metadata = getattr(node, "metadata", None)
    return metadata.get(_STEP_KEY) if isinstance(metadata, dict) else None


def _held_by_python(ref: weakref.ref) -> bool:
    """Whether the tensor is alive because Python code holds it, not only because a graph saved it: the counters'
    own references to grad_fn nodes keep a graph's saved tensors alive after ``backward(retain_graph=True)``.

    A tensor such a graph saved (``loss_fn(out.clamp(...), y)`` saves ``out``) has other owners besides Python; torch
    (2.14 here) then holds one reference to its Python object for them, so a Python container holding it too shows
    as a reference beyond that one, ``t`` here and ``getrefcount``'s own argument. (A torch that holds no such
    reference while Python does reads "not held" there, as this check did before.)"""
    t = ref()
    if t is None:
        return False
    references = sys.getrefcount(t)  # before anything else here refers to t (a bound t._use_count would)
    use_count = getattr(t, "_use_count", None)  # the TensorImpl's owners: 1 when only the Python object holds it
    return use_count is None or use_count() == 1 or references > 3


_HOST_BATCHES: list[bool] = []


@contextlib.contextmanager
def host_batches() -> Iterator[None]:
    """Within it, :func:`count_syncs` lets NumPy read any tensor: the capstone's loaders hand out host batches
    (the learner moves them to the device), which the counter, taking every tensor made outside the call for a
    device tensor, cannot tell apart; reading them there is free, not an error."""
    _HOST_BATCHES.append(True)
    try:
        yield
    finally:
        _HOST_BATCHES.pop()


_CUDNN_SWITCHES = (  # what decides whether convolutions are reproducible: cuDNN's switches and torch's deterministic mode
    "torch.backends.cudnn.enabled",
    "torch.backends.cudnn.benchmark",
    "torch.backends.cudnn.deterministic",
    "torch.use_deterministic_algorithms",
)


def cudnn_flags() -> tuple[bool, ...]:
    """The values of :data:`_CUDNN_SWITCHES`, in that order (read on every torch call of a count: a plain tuple)."""
    cudnn = torch.backends.cudnn
    return cudnn.enabled, cudnn.benchmark, cudnn.deterministic, torch.are_deterministic_algorithms_enabled()


def cudnn_changes(before: tuple[bool, ...]) -> str:
    """The switches of :func:`cudnn_flags` that differ from ``before`` now ("name=value、..."), or ""."""
    now = cudnn_flags()
    if now == before:  # the usual case: no names built
        return ""
    return "、".join(f"{name}={value}" for name, was, value in zip(_CUDNN_SWITCHES, before, now) if value != was)


def matmul_tf32() -> str:
    """How float32 matmuls on a GPU are set to run at reduced precision (TF32), as the code wrote it; "" when not.
    Each API is read on its own: torch raises when the legacy and the new one were mixed."""
    readers = (
        ("torch.backends.cuda.matmul.fp32_precision", lambda: torch.backends.cuda.matmul.fp32_precision == "tf32"),
        ("torch.backends.cuda.matmul.allow_tf32", lambda: torch.backends.cuda.matmul.allow_tf32),
        ("torch.set_float32_matmul_precision", lambda: torch.get_float32_matmul_precision() != "highest"),
    )
    for api, reduced in readers:
        try:
            if reduced():
                return api
        except RuntimeError:
            continue
    return ""


GPU_PLAYED = True  # False inside with_no_gpu_played: counts run as on a machine without a GPU


def with_no_gpu_played(scenario: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Scenario: ``scenario(*args, **kwargs)`` as on a machine without a GPU: the counts of :func:`count_syncs` go on
    (syncs, graphs kept, autocast), but ``torch.cuda.is_available()`` is False and tensors read as on the CPU, so code
    that only a CPU runs (``if not x.is_cuda:``) runs. Started by :func:`course.fixtures.again_with_no_gpu_played`."""
    global GPU_PLAYED
    before, GPU_PLAYED = GPU_PLAYED, False
    try:
        return scenario(*args, **kwargs)
    finally:
        GPU_PLAYED = before


def called_on_a_played_gpu(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Scenario: ``fn(*args, **kwargs)`` with a GPU played (:func:`count_syncs`: ``x.is_cuda`` and
    ``torch.cuda.is_available()`` read True), its result only: code that only a GPU runs returns what it returns
    there. Started by :func:`course.fixtures.again_on_a_played_gpu`."""
    return _played_call(fn, fn, args, kwargs)


class PlayedMoveToDevice(RuntimeError):
    """Raised where a learner's class, built by a scenario on a played GPU, moved what it made to the device, or a
    learner's Dataset put a sample there (its message: the moves, as :attr:`SyncCounter.moved` names them): where
    a model or a sample lives is the caller's choice (``model.to(device)``, a batch moved by the training loop)."""


class PlayedLowerPrecision(RuntimeError):
    """Raised where a learner's function, called by a scenario on a played GPU, ran under a reduced precision that
    the same call on the CPU did not (its message: the precision, as :func:`called_on_a_played_gpu_reporting` says)."""


def called_on_a_played_gpu_reporting(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str]:
    """Scenario: :func:`called_on_a_played_gpu`, and the reduced precision the call ran its torch calls under
    (a CUDA autocast: ``"torch.autocast（float16）"``, a lower float32 matmul precision: ``"TF32（high）"``), or "": what
    only a GPU would compute in another precision (a learner-side fact). Started by
    :func:`course.fixtures.again_on_a_played_gpu` for each call :func:`course.checks.call_learner` makes."""
    report: dict[str, str] = {}
    result = _played_call(fn, fn, args, kwargs, report)
    if isinstance(fn, type) and report.get("moved"):  # a class built from host inputs moved itself to the device
        raise PlayedMoveToDevice(report["moved"])
    return result, report.get("precision", "")


def _played_call(
    learner: Callable[..., Any],
    fn: Callable[..., Any],
    args: Any,
    kwargs: Any,
    report: dict[str, str] | None = None,
    on_host: Sequence[torch.Tensor] = (),
) -> Any:
    """``fn(*args, **kwargs)`` with a GPU played for the learner's function ``learner`` (its globals name the device);
    ``report`` gets ``"precision"``: what :func:`called_on_a_played_gpu_reporting` returns, and ``"moved"``: the moves
    to the device it made of host tensors (``on_host``: tensors the caller keeps on the host) or of a module."""
    # inside with_no_gpu_played nothing is played: the tensors read as on the CPU too, as torch.cuda answers there
    counter = SyncCounter(factories_on_device=False, devices=_named_devices(learner), plays_cuda=GPU_PLAYED)
    counter.tracks_losses = False  # the checks see graphs freed as on the CPU: nothing here holds a loss's graph
    counter.learner_globals = _learner_globals(learner)
    counter.numpy_raises = False  # a NumPy read is named by the checks, as on the CPU, not raised
    for step in (*_host_steps((args, kwargs)), *on_host):
        counter._place(step, on_device=False)
    profile = gpu_profile_of((args, kwargs), shift=1)  # a rerun of a call count_syncs made: the next GPU
    ACTIVE_COUNTERS.append(counter)
    try:
        with playing_gpu_profile(profile), counter:  # the cells' flags computed again on this GPU
            result = cellflags.played_version(fn)(*args, **kwargs)
        counter.note_returned(result)
        return result
    finally:
        ACTIVE_COUNTERS.remove(counter)
        if report is not None:
            precision = [f"torch.autocast（{counter.autocast}）" if counter.autocast else ""]
            precision += [f"TF32（{counter.tf32}）" if counter.tf32 else ""]
            report["precision"] = "、".join(p for p in precision if p)
            report["moved"] = "、".join(dict.fromkeys(counter.moved))


def _host_steps(value: Any) -> list[torch.Tensor]:
    """The ``step`` counters of the optimizers among ``value``: Adam, AdamW and the others keep them on the host even
    when the parameters are on a GPU (unless ``capturable`` or ``fused``), so ``step.cpu()`` is the live tensor."""
    optimizers = [v for v in torch.utils._pytree.tree_leaves(value) if isinstance(v, torch.optim.Optimizer)]
    steps = []
    for optimizer in optimizers:
        on_device = any(g.get("capturable") or g.get("fused") for g in optimizer.param_groups)
        for state in optimizer.state.values():
            step = state.get("step") if isinstance(state, dict) else None
            if isinstance(step, torch.Tensor) and not on_device:
                steps.append(step)
    return steps


def with_learner_calls_on_a_played_gpu(scenario: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Scenario: ``scenario(*args, **kwargs)`` with each of the learner's functions among the arguments called on a
    played GPU (:func:`called_on_a_played_gpu`): a check that hands the learner's function to a scenario (a model,
    a loop of its own, a count of forwards) meets the code that only a GPU runs too. A scenario that records every
    call (``observes_every_call``, the recorders of ``course.fixtures``) runs whole with the GPU played around it.
    Not where the call is already counted (:func:`count_syncs` plays the GPU itself) nor where a tensor among the
    arguments is on meta (a check that plays a device itself). Started around every scenario by
    :func:`course.fixtures.again_on_a_played_gpu`."""
    if scenario in (called_on_a_played_gpu, called_on_a_played_gpu_reporting) or _plays_devices_itself((args, kwargs)):
        return scenario(*args, **kwargs)
    if checks._learners(scenario):  # remote.run(the learner's function, ...): a call of it like any other
        return _played_call(scenario, scenario, args, kwargs)
    datasets = [a for a in args if isinstance(a, Dataset) and checks._learners(type(a))]
    if datasets:  # ds[i] of the learner's Dataset, whose tensors the caller gave on the host: samples stay there
        report: dict[str, str] = {}
        on_host = [
            t
            for ds in datasets
            for t in torch.utils._pytree.tree_leaves(list(vars(ds).values()))
            if isinstance(t, torch.Tensor)
        ]
        result = _played_call(type(datasets[0]), scenario, args, kwargs, report, on_host)
        if report["moved"]:
            raise PlayedMoveToDevice(report["moved"])
        return result
    if getattr(scenario, "observes_every_call", False):  # a recorder: the GPU played around it, where it sees nothing
        learner = next((a for a in (*args, *kwargs.values()) if checks._learners(a)), None)
        return scenario(*args, **kwargs) if learner is None else _played_call(learner, scenario, args, kwargs)
    args = tuple(_on_a_played_gpu(a) for a in args)
    kwargs = {name: _on_a_played_gpu(value) for name, value in kwargs.items()}
    return scenario(*args, **kwargs)


def _plays_devices_itself(value: Any) -> bool:
    """Whether a check plays the devices itself, or observes every call: a count running (:func:`count_syncs`), a
    trace or profile function (the recorders of ``course.fixtures``: they would see the played GPU's own work), a
    mode that plays devices (``plays_devices``, :class:`course.fixtures.PlayedDevices`), or among ``value`` a
    tensor on meta or of a subclass (a FakeTensor)."""
    if ACTIVE_COUNTERS or sys.gettrace() is not None or sys.getprofile() is not None:
        return True
    if any(getattr(m, "plays_devices", False) for m in _get_current_function_mode_stack()):
        return True
    leaves = [t for t in torch.utils._pytree.tree_leaves(value) if isinstance(t, torch.Tensor)]
    return any(t.device.type == "meta" or type(t) not in (torch.Tensor, torch.nn.Parameter) for t in leaves)


def _on_a_played_gpu(value: Any) -> Any:
    """``value``, or where it is a function of the learner's, that function called on a played GPU."""
    if not checks._learners(value):
        return value

    @functools.wraps(value)
    def on_a_played_gpu(*args: Any, **kwargs: Any) -> Any:
        if _plays_devices_itself((args, kwargs)):
            return value(*args, **kwargs)
        result, precision = called_on_a_played_gpu_reporting(value, *args, **kwargs)
        if precision:  # the scenario cannot see it: stop it here, named (course.checks.call_learner words it)
            raise PlayedLowerPrecision(precision)
        return result

    return on_a_played_gpu


def cells_tensors(fn: Callable[..., Any], given: Any) -> list[tuple[Callable[[], Any], Any, torch.Tensor]]:
    """The CPU tensors the learner's cells made that ``fn`` reads (the globals its code and its helpers' name, their
    default arguments and closures), other than those in ``given`` (the call's arguments), each as (how to read the
    name or default that holds it again, what it held, the tensor). A cell ran on the host: on a GPU machine such a tensor, made
    without a device (``_ZERO = torch.zeros(1)`` above the function), is in host memory; one the cell put on a device
    it names (``torch.zeros(1, device=DEVICE)``, :func:`course.cellflags.placed_on_a_device`) is not, though a played
    GPU leaves it as the cell made it (a tensor is never made again)"""
    skip = {id(t) for t in tensors_in(given)} | {_memory(t) for t in tensors_in(given)}
    found: list[tuple[Callable[[], Any], Any, torch.Tensor]] = []
    todo, seen = [inspect.unwrap(getattr(fn, "__func__", fn))], set()
    while todo:
        f = todo.pop()
        code = getattr(f, "__code__", None)
        if code is None or id(f) in seen or str(getattr(f, "__module__", "")).startswith(("torch", "course")):
            continue
        seen.add(id(f))
        env = getattr(f, "__globals__", {})
        places: list[tuple[Callable[[], Any], Any]] = [
            (lambda f=f, i=i: dict(enumerate(f.__defaults__ or ())).get(i), v)
            for i, v in enumerate(f.__defaults__ or ())
        ]
        places += [(lambda f=f, k=k: (f.__kwdefaults__ or {}).get(k), v) for k, v in (f.__kwdefaults__ or {}).items()]
        for cell in getattr(f, "__closure__", None) or ():
            try:
                places.append((lambda cell=cell: cell.cell_contents, cell.cell_contents))
            except ValueError:  # an empty cell
                pass
        names = {name for c in _codes(code) for name in c.co_names if name in env}
        names = {name for name in names if not cellflags.placed_on_a_device(env, name)}
        places += [(lambda env=env, name=name: env.get(name), env[name]) for name in sorted(names)]
        for reread, value in places:
            if isinstance(value, types.FunctionType) and value.__globals__ is env:
                todo.append(value)  # a helper of the learner's reads its own globals
            # a tensor itself, or one a tuple holds (a tuple never changes: what it holds was made with it); not one
            # another container holds (a memo the function filled in an earlier call, keyed by device, is what that
            # call made; a module's parameters move with it)
            members = value if type(value) is tuple else (value,)
            found += [
                (reread, value, t)
                for t in members
                if isinstance(t, torch.Tensor)
                and t.device.type == "cpu"
                and id(t) not in skip
                and _memory(t) not in skip
            ]
    return found


def _codes(code: types.CodeType) -> list[types.CodeType]:
    """``code`` and the code objects nested in it (comprehensions, inner functions)."""
    found, todo = [], [code]
    while todo:
        c = todo.pop()
        found.append(c)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return found


def _learner_globals(fn: Callable[..., Any]) -> list[dict[str, Any]]:
    """The globals of the learner's function ``fn`` (seen through :func:`_on_a_played_gpu`'s wrapper), as a list."""
    found = getattr(inspect.unwrap(fn), "__globals__", None)
    cls = fn if isinstance(fn, type) else type(fn) if not isinstance(fn, types.FunctionType) else None
    if cls is not None and found is None:  # a class, a model of one or a callable object: where its methods look
        methods = [f for f in vars(cls).values() if isinstance(f, types.FunctionType)]
        found = methods[0].__globals__ if methods else None
    return [found] if isinstance(found, dict) else []


def _real_cpu(value: Any) -> Any:
    """``value``, with :data:`PLAYED_DEVICE` (``x.device`` of an input, read on a machine without a GPU) as the CPU."""
    return torch.device("cpu") if isinstance(value, torch.device) and value == PLAYED_DEVICE else value


def nothing_counted() -> dict[str, Any]:
    """The report of a count that saw nothing: what a call on the CPU, with nothing played, has to report."""
    return SyncCounter().report()


def count_syncs(
    fn: Callable[..., Any], *args: Any, plays_cuda: bool = True, **kwargs: Any
) -> tuple[Any, dict[str, Any]]:
    """``fn(*args, **kwargs)`` under a :class:`SyncCounter`; returns (result, report).

    The tensors handed to ``fn`` (and every tensor made outside the call) are on the device; tensors ``fn``
    makes without a device are on the host, as on a GPU machine, unless made with ``device=t.device`` or with
    a ``torch.device`` among ``fn``'s globals (a notebook's ``device``). Tensors among the arguments (also
    inside lists) that have a ``grad_fn`` count as per-step losses, and so do losses the ``course.fixtures``
    loss functions compute during the call. ``report["calls"]`` names the API of each sync. To ``fn``'s code the
    machine is a GPU machine: ``torch.cuda.is_available()`` is True and device tensors read as on ``cuda:0``
    (unless ``plays_cuda`` is False: then they read as on the CPU, and the syncs counted are those the same code
    would make on a GPU machine whose inputs were on the host path).
    Python's logging is on at every level during the call (a ``logger.debug`` of a tensor formats it).
    ``report["graph_kept"]`` names the tensors with a graph the call made that are still held after it returned
    (see :func:`_graph_kept`).
    """
    plays_cuda = plays_cuda and GPU_PLAYED
    nodes = [a.grad_fn for a in tensors_in(args) if a.grad_fn is not None]
    devices = _named_devices(fn)
    counter = SyncCounter(nodes, factories_on_device=False, devices=devices, plays_cuda=plays_cuda)
    counter.learner_globals = _learner_globals(fn)
    counter.numpy_raises = not _HOST_BATCHES
    for step in _host_steps((args, kwargs)):  # Adam's step counters live on the host of a GPU machine
        counter._place(step, on_device=False)
    profile = gpu_profile_of((args, kwargs))
    held = cells_tensors(fn, (args, kwargs)) if GPU_PLAYED else []
    ACTIVE_COUNTERS.append(counter)
    try:
        # a logger.debug(...) of a tensor formats it wherever logging is on
        with playing_gpu_profile(profile), counter, _logging_on():
            for reread, value, t in held:  # made by a cell without a device (the replay left them alone)
                if reread() is value:
                    counter._place(t, on_device=False)
            result = cellflags.played_version(fn)(*args, **kwargs)
        counter.note_returned(result)
    except (RuntimeError, AssertionError) as exc:
        if _REAL_CUDA() or not any(text in str(exc) for text in _NO_CUDA):
            raise
        raise RuntimeError(
            f"{str(exc)[:80]}：函数调用了只有真 GPU 才能执行的 CUDA 功能。设备从传进来的东西取（next(model.parameters()).device、"
            'x.device），不要按 torch.cuda.is_available() 自己选 "cuda"，也不要为 GPU 另写一条路（例如只在 GPU 上才调用 '
            "torch.random.fork_rng(devices=...)）。测试按有 GPU 的机器运行（torch.cuda.is_available() 读作 True，传进来的张量"
            "读作在 cuda:0 上），传进来的模型和张量其实都在 CPU 上（没有 GPU 时笔记本的 device 是 CPU）。"
        ) from None
    finally:
        ACTIVE_COUNTERS.remove(counter)
    report = counter.report()
    report["graph_kept"], report["graph_kept_loss"] = _graph_kept(counter, result)
    return result, report


def count_syncs_with_logging_on(fn: Callable[..., Any], *args: Any) -> tuple[Any, dict[str, Any]]:
    """Scenario: :func:`count_syncs` of ``fn(*args)`` (every count runs with logging on, :func:`_logging_on`)."""
    return count_syncs(fn, *args)


@contextlib.contextmanager
def _logging_on() -> Iterator[None]:
    """Python's logging on at every level (into a buffer) inside the block: a ``logger.debug("%.4f", loss)`` formats
    the tensor (a host read on a GPU), as it does wherever the caller turns logging on."""
    root, buffer = logging.getLogger(), io.StringIO()
    handler, level, disabled = logging.StreamHandler(buffer), root.level, logging.root.manager.disable
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    logging.disable(logging.NOTSET)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        logging.disable(disabled)


def _graph_kept(counter: SyncCounter, result: Any) -> tuple[list[str], bool]:
    """The tensors with a graph made during the call, other than those it returned, that Python still holds after
    it returned (``history.append(loss)`` into a list outside the function, an attribute of the model): the names
    of their ``grad_fn`` (each once), and whether one of them is a loss ``backward()`` ran on, or computed from one
    without ``detach()``. A step function that keeps one keeps a graph per call."""
    returned = {id(t) for t in tensors_in(result)}
    names: list[str] = []
    loss = False
    for refs in counter.step_graphs:
        for ref in refs:
            if not _held_by_python(ref):  # before anything here holds the tensor (it counts references)
                continue
            t = ref()
            node = None if t is None or id(t) in returned else t.grad_fn
            if node is None:
                continue
            names.append(type(node).__name__)
            loss = loss or node in counter.loss_nodes or node in counter._derived
    return list(dict.fromkeys(names)), loss


# What torch says when code asks a machine without a GPU for CUDA (while the counter answers is_available() True).
_NO_CUDA = ("NVIDIA driver", "not compiled with CUDA", "no CUDA GPUs", "re-initialize CUDA in forked subprocess")


def _named_devices(fn: Callable[..., Any]) -> list[Any]:
    """The globals of ``fn`` that name the accelerator, as a notebook names it: ``torch.device`` objects
    (``device = torch.device("cuda" if torch.cuda.is_available() else "cpu")``), and a device string ``fn`` reads
    by name while never writing that string as a literal (``device = "cuda" if ... else "cpu"``: here it reads
    ``"cpu"``). A global whose name says host (``HOST``, ``cpu_device``) names the host, as on a GPU machine."""
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    names, literals = (set(code.co_names), _string_constants(code)) if code is not None else (set(), set())
    found: list[Any] = []
    for name, value in getattr(fn, "__globals__", {}).items():
        if "cpu" in name.lower() or "host" in name.lower():
            continue
        if isinstance(value, torch.device):
            found.append(value)
        elif (
            isinstance(value, str)
            and name in names
            and value not in literals
            and value.split(":")[0] in ("cpu", "cuda")
        ):
            found.append(value)
    return found


def _string_constants(code: Any) -> set[str]:
    """Every string constant in ``code`` and the code objects nested in it (comprehensions, inner functions)."""
    return {const for c in _codes(code) for const in c.co_consts if isinstance(const, str)}


def tensors_in(value: Any) -> list[torch.Tensor]:
    """The tensors in ``value`` and in the lists, tuples and dicts it holds, in order (``torch.utils._pytree``'s
    ``tree_leaves`` filtered to tensors, in a fraction of its time: dispatch modes call this at every operator)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    return []


def in_no_grad(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, bool]:
    """``(fn(*args, **kwargs), whether grad mode was on when it returned)`` for a caller that calls ``fn`` inside its
    own ``with torch.no_grad():`` block (``torch.optim`` runs ``step()`` so; TD errors for replay priorities): a
    learner-side fact. Leaving the block puts grad mode back as it was before the scenario."""
    with torch.no_grad():
        out = fn(*args, **kwargs)
        return out, torch.is_grad_enabled()


def in_no_grad_or_refused(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str, bool]:
    """Like :func:`in_no_grad`, for a function that needs a graph and may refuse to run without one (PyTorch's
    "does not require grad" error): ``(fn's result or None, the name of the exception it raised or "", whether grad
    mode was on when it returned or raised)``: learner-side facts."""
    with torch.no_grad():
        try:
            out = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - refusing is allowed here; only grad mode afterwards is judged
            return None, type(exc).__name__, torch.is_grad_enabled()
        return out, "", torch.is_grad_enabled()


def with_tf32_chosen(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[tuple[str, str]]]:
    """``fn(*args, **kwargs)`` for a caller that chose TF32 matrix products (``torch.set_float32_matmul_precision(
    "high")``): ``(result, the process settings fn left changed from the caller's, as course.settings names them)``.
    The caller's choice is put back afterwards, so that the watch around the scenario sees nothing of it."""
    before = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("high")
    try:
        chosen = settings.snapshot()
        out = fn(*args, **kwargs)
        return out, settings.restore_changed(chosen)
    finally:
        torch.set_float32_matmul_precision(before)


def syncs_of(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[list[str], list[str], str]:
    """``fn(*args, **kwargs)`` under :func:`count_syncs`: ``(the API of each sync, those of them that were blocking
    copies from the host to the device, the dtype of a CUDA autocast its torch calls ran under or "")``; learner-side
    facts."""
    _, report = count_syncs(fn, *args, **kwargs)
    return list(report["calls"]), list(report["uploads"]), report["autocast"]
