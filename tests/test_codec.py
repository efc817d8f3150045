"""What crosses from the learner to the judge is data, rebuilt and checked by the judge; in-place changes
to arguments come back; facts about tensors survive; nothing the learner sends is executed or trusted."""

from __future__ import annotations

import collections
import os

import pytest
import torch
from torch import nn

from autograder.child.codec import JudgeDecoder, JudgeEncoder, LearnerEncoder
from autograder.child.judge import Learner, LearnerGone, LoopbackChannel, Remote
from autograder.child.learner import Server, exec_cell
from autograder.wire.protocol import CodecError, MessageLimits
from course import remote


def learner(source: str) -> Learner:
    """A learner process stand-in: ``source`` run in its own namespace, answering over the real encoding."""
    namespace: dict = {"__name__": "__main__"}
    exec(compile("import torch\nfrom torch import nn\n" + source, "<learner>", "exec"), namespace)
    return Learner(LoopbackChannel(Server(namespace, exec_cell(namespace))))


def call(source: str, name: str, *args, **kwargs):
    return Remote(learner(source), ["name", name])(*args, **kwargs)


def roundtrip(value):
    """``value`` sent by the learner's process and rebuilt by the judge."""
    enc = LearnerEncoder(handles=[])
    tree = enc.encode(value)
    buffers = [bytearray(memoryview(b).cast("B")) for b in enc.buffers]
    return JudgeDecoder(buffers, remote=lambda info: info).decode(tree)


# ---------------------------------------------------------------------------------------------------
# Tensors are rebuilt from bytes, with their facts


def test_a_learner_tensor_subclass_arrives_as_a_plain_tensor_with_its_values():
    source = (
        "class Liar(torch.Tensor):\n"
        "    @classmethod\n"
        "    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
        "        if getattr(func, '__name__', '') in ('equal', '__eq__'):\n"
        "            return True\n"
        "        return super().__torch_function__(func, types, args, kwargs or {})\n"
        "def f():\n    return torch.zeros(3).as_subclass(Liar)\n"
    )
    out = call(source, "f")
    assert type(out) is torch.Tensor
    assert not torch.equal(out, torch.ones(3)) and torch.equal(out, torch.zeros(3))


def test_strides_offsets_and_non_contiguous_layouts_survive():
    out = roundtrip(torch.arange(24.0).reshape(4, 6)[1:, ::2].t())
    assert torch.equal(out, torch.arange(24.0).reshape(4, 6)[1:, ::2].t())
    assert not out.is_contiguous() and out.stride() == (2, 6) and out.storage_offset() == 6


def test_requires_grad_leaf_and_grad_fn_come_back_as_facts():
    out = call(
        "def f(x):\n    w = torch.ones(2, requires_grad=True)\n    return (w * x, w, x.detach())\n", "f", torch.ones(2)
    )
    product, leaf, detached = out
    assert product.requires_grad and not product.is_leaf and remote.grad_fn_name(product) == "MulBackward0"
    assert leaf.requires_grad and leaf.is_leaf and leaf.grad_fn is None
    assert not detached.requires_grad


def test_an_inference_tensor_stays_one_and_a_parameter_stays_a_parameter():
    out = call(
        "def f():\n    with torch.inference_mode():\n        a = torch.ones(2)\n    return a, nn.Parameter(torch.ones(1))\n",
        "f",
    )
    assert out[0].is_inference() and isinstance(out[1], nn.Parameter)


def test_a_returned_view_of_an_argument_shares_the_judges_own_storage():
    x = torch.arange(6.0)
    view, copy = call("def f(x):\n    return x[1:4], x.clone()\n", "f", x)
    assert view.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert copy.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()


def test_a_tensor_the_learner_returned_can_still_be_resized_by_its_code_as_in_the_kernel():
    source = "buf = torch.empty(0)\ndef f(x):\n    torch.add(x, 1, out=buf)\n    return buf\n"
    lrn = learner(source)
    first = Remote(lrn, ["name", "f"])(torch.ones(2))
    second = Remote(lrn, ["name", "f"])(torch.ones(5))  # out= resizes the storage it returned before
    assert first.tolist() == [2.0, 2.0] and second.tolist() == [2.0] * 5


def test_returning_the_argument_itself_returns_the_judges_object():
    x = torch.ones(2)
    assert call("def f(x):\n    return x\n", "f", x) is x


def test_meta_tensors_travel_without_data():
    out = roundtrip(torch.empty(3, 4, device="meta"))
    assert out.device.type == "meta" and out.shape == (3, 4)


# ---------------------------------------------------------------------------------------------------
# In-place changes to arguments come back


def test_in_place_writes_grads_and_requires_grad_on_arguments_come_back():
    source = "def f(x, p):\n    x.add_(1)\n    p.grad = torch.full_like(p, 7.0)\n    p.requires_grad_(False)\n"
    x, p = torch.zeros(3), torch.zeros(2, requires_grad=True)
    call(source, "f", x, p)
    assert torch.equal(x, torch.ones(3))
    assert torch.equal(p.grad, torch.full((2,), 7.0)) and not p.requires_grad


def test_an_in_place_write_that_puts_the_values_back_still_moves_the_judges_version_counter():
    source = "def f(x, y):\n    x.unsqueeze_(0)\n    x.squeeze_(0)\n    return y.sum()\n"
    x, y = torch.ones(3), torch.ones(2)
    before = (x._version, y._version)
    call(source, "f", x, y)
    assert x._version > before[0] and y._version == before[1]
    assert torch.equal(x, torch.ones(3))


def test_a_dict_and_a_list_the_learner_fills_come_back_filled():
    buffers, log = {}, []
    call("def f(b, log):\n    b[0] = torch.ones(2)\n    log.append('step')\n", "f", buffers, log)
    assert set(buffers) == {0} and torch.equal(buffers[0], torch.ones(2)) and log == ["step"]


def test_a_module_trained_by_the_learner_keeps_its_identity_and_gets_the_new_weights():
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    weight = model.weight
    source = (
        "def step(model, opt):\n    model.train()\n    opt.zero_grad()\n"
        "    model(torch.ones(4, 2)).sum().backward()\n    opt.step()\n"
    )
    before = model.weight.detach().clone()
    model.eval()
    call(source, "step", model, opt)
    assert model.weight is weight and model.training
    assert torch.allclose(model.weight.detach(), before - 0.5 * 4)
    assert opt.param_groups[0]["params"][0] is model.weight


def test_optimizer_state_created_by_a_step_comes_back():
    w = nn.Parameter(torch.ones(2))
    opt = torch.optim.AdamW([w], lr=0.1)
    call("def step(w, opt):\n    (w * 2).sum().backward()\n    opt.step()\n", "step", w, opt)
    assert len(opt.state) == 1 and "exp_avg" in opt.state[w]


def test_an_optimizers_own_plain_attributes_come_back_both_ways_and_torchs_own_never_cross():
    w = nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w], lr=0.1)
    source = (
        "def step(w, opt):\n"
        "    opt._calls = getattr(opt, '_calls', 0) + 1\n"
        "    opt.log = [*getattr(opt, 'log', []), opt._calls]\n"
        "    opt.seen = {'last': 0.5}\n"
        "    opt._optimizer_step_pre_hooks = {}\n"
        "    opt.params = [w]\n"
    )
    learner_side = learner(source)
    Remote(learner_side, ["name", "step"])(w, opt)
    Remote(learner_side, ["name", "step"])(w, opt)
    assert (opt._calls, opt.log, opt.seen) == (2, [1, 2], {"last": 0.5})
    assert isinstance(opt._optimizer_step_pre_hooks, collections.OrderedDict) and not hasattr(opt, "params")


def test_a_generators_state_comes_back_after_the_learner_draws_from_it():
    g = torch.Generator().manual_seed(0)
    drawn = call("def f(g):\n    return torch.rand(3, generator=g)\n", "f", g)
    assert torch.equal(drawn, torch.rand(3, generator=torch.Generator().manual_seed(0)))
    assert torch.equal(torch.rand(1, generator=g), torch.rand(4, generator=torch.Generator().manual_seed(0))[3:])


# ---------------------------------------------------------------------------------------------------
# Models and objects


def test_a_model_of_torch_layers_is_rebuilt_in_the_judge_and_runs_there():
    model = call("def build():\n    return nn.Sequential(nn.Linear(3, 2), nn.ReLU())\n", "build")
    assert isinstance(model, nn.Sequential) and isinstance(model[0], nn.Linear)
    assert model(torch.ones(1, 3)).shape == (1, 2)


def test_a_model_of_the_learners_own_class_stays_in_the_learner_process():
    source = "class Net(nn.Module):\n    def forward(self, x):\n        return x * 2\ndef build():\n    return Net()\n"
    model = call(source, "build")
    assert isinstance(model, Remote) and not isinstance(model, nn.Module)
    assert torch.equal(model(torch.ones(2)), torch.full((2,), 2.0))


def test_a_torch_layer_with_a_learner_hook_stays_in_the_learner_process():
    source = "def build():\n    m = nn.Linear(2, 2)\n    m.register_forward_hook(lambda *a: None)\n    return m\n"
    assert isinstance(call(source, "build"), Remote)


def test_a_torch_layer_carrying_learner_code_in_an_attribute_stays_in_the_learner_process():
    source = (
        "def build():\n    m = nn.Sequential(nn.Linear(1, 1))\n"
        "    m._compiled_call_impl = lambda x: torch.full((len(x), 10), 7.0)\n    return m\n"
    )
    model = call(source, "build")
    assert isinstance(model, Remote), "a module whose attributes hold code must not be rebuilt in the judge"


def test_the_judge_refuses_a_handle_inside_module_state_and_attributes_the_class_defines():
    enc = LearnerEncoder(handles=[])
    tree = enc.encode(nn.Linear(1, 1))
    buffers = [bytearray(memoryview(b).cast("B")) for b in enc.buffers]
    forged = {**tree, "$module": {**tree["$module"], "state": {**tree["$module"]["state"]}}}
    forged["$module"]["state"]["$dict"] = [
        *tree["$module"]["state"]["$dict"],
        ["_compiled_call_impl", {"$handle": {"id": 0, "type": "function", "callable": True, "repr": ""}}],
    ]
    with pytest.raises(CodecError):
        JudgeDecoder(buffers, remote=lambda info: info).decode(forged)
    tree["$module"]["state"]["$dict"].append(["dump_patches", True])  # a class attribute, shadowed
    with pytest.raises(CodecError, match="dump_patches"):
        JudgeDecoder([bytearray(memoryview(b).cast("B")) for b in enc.buffers]).decode(tree)


def test_classes_are_named_by_their_own_module_and_qualname_only():
    tree = {
        "$module": {"class": "torch.nn.modules.module:torch.fx.GraphModule", "state": {"$dict": [], "kind": "dict"}}
    }
    with pytest.raises(CodecError, match="不接收"):
        JudgeDecoder([]).decode(tree)


def test_a_learner_function_comes_back_as_a_remote_that_calls_into_the_learner():
    make = call("def make():\n    return lambda x: x + 1\n", "make")
    assert isinstance(make, Remote) and torch.equal(make(torch.zeros(1)), torch.ones(1))


def test_a_list_or_dict_of_another_class_comes_back_as_what_it_stores_in_an_empty_class_of_its_name():
    source = (
        "class Frozen(dict):\n    def items(self):\n        return [('lie', 1)]\n"
        "class Found(list):\n    def __iter__(self):\n        return iter(['lie'])\n"
        "def make():\n    return Frozen(a=torch.ones(1)), Found(['dtype']), [collections.OrderedDict(b=1)]\n"
    )
    frozen, found, plain = call("import collections\n" + source, "make")
    assert isinstance(frozen, dict) and type(frozen) is not dict and type(frozen).__name__ == "Frozen"
    assert list(frozen) == ["a"] and torch.equal(frozen["a"], torch.ones(1))  # what it stores, not its items()
    assert isinstance(found, list) and type(found).__name__ == "Found" and list(found) == ["dtype"]
    assert type(plain) is list and type(plain[0]) is collections.OrderedDict  # the classes that travel as data
    assert "items" not in vars(type(frozen)) and "__iter__" not in vars(type(found))  # none of the learner's code


def test_a_size_no_tensor_could_have_and_a_defaultdict_of_another_factory_come_back_as_their_data():
    big, table = call(
        "import collections\ndef f():\n"
        "    return torch.Size([2**70, 1] + [1] * 40), collections.defaultdict(lambda: 0.0, {'a': 1.0})\n",
        "f",
    )
    assert big == (2**70, 1, *[1] * 40) and table == {"a": 1.0}


def test_a_scenario_runs_beside_the_learners_objects_and_returns_data():
    from course import scenarios

    lead = learner("def f(x):\n    return (x ** 2).sum()\n")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = remote.run(scenarios.backward, Remote(lead, ["name", "f"]), x)
    assert out.item() == 5.0 and torch.equal(x.grad, torch.tensor([2.0, 4.0]))


# ---------------------------------------------------------------------------------------------------
# What the judge refuses


def test_the_judge_refuses_function_references_from_the_learner():
    with pytest.raises(CodecError, match=r"\$fn"):
        JudgeDecoder([]).decode({"$fn": "os:system"})


def test_the_judge_refuses_modules_of_classes_it_does_not_allow_or_has_not_loaded():
    tree = {"$module": {"class": "subprocess:Popen", "state": {"$dict": [], "kind": "dict"}}, "id": 1}
    with pytest.raises(CodecError, match="不接收"):
        JudgeDecoder([]).decode(tree)


def test_the_judge_refuses_module_state_that_shadows_a_method():
    enc = LearnerEncoder(handles=[])
    tree = enc.encode(nn.Linear(1, 1))
    tree["$module"]["state"]["$dict"].append(["forward", "boom"])
    with pytest.raises(CodecError, match="forward"):
        JudgeDecoder([bytearray(memoryview(b).cast("B")) for b in enc.buffers]).decode(tree)


def test_strides_that_reach_outside_the_storage_are_refused():
    enc = LearnerEncoder()
    tree = enc.encode(torch.zeros(4))
    tree["$tensor"]["stride"] = [1000]
    with pytest.raises(CodecError, match="out of storage bounds"):
        JudgeDecoder([bytearray(memoryview(b).cast("B")) for b in enc.buffers]).decode(tree)


def test_unknown_dtypes_and_tags_are_refused():
    with pytest.raises(CodecError):
        JudgeDecoder([]).decode({"$dtype": "object"})
    with pytest.raises(CodecError):
        JudgeDecoder([]).decode({"$pickle": "gASV..."})


def test_too_deep_or_too_large_values_are_refused():
    deep: list = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(Exception, match="not data"):
        call("def f():\n    x = []\n    for _ in range(100_000):\n        x = [x]\n    return x\n", "f")
    with pytest.raises(CodecError):
        JudgeDecoder([], limits=MessageLimits(max_depth=50)).decode(JudgeEncoder().encode(deep))
    enc = LearnerEncoder()
    tree = enc.encode(torch.zeros(1000))
    with pytest.raises(CodecError):
        JudgeDecoder(
            [bytearray(memoryview(b).cast("B")) for b in enc.buffers], limits=MessageLimits(max_bytes=100)
        ).decode(tree)


def test_a_reply_larger_than_the_judge_accepts_is_refused_by_the_learner_as_an_error(monkeypatch):
    import autograder.child.learner

    monkeypatch.setattr(autograder.child.learner, "DEFAULT_LIMITS", MessageLimits(max_bytes=2**20))
    with pytest.raises(Exception, match="超过评分器能接收的 1 MiB"):
        call("def f():\n    return torch.zeros(2**19)\n", "f")  # 2 MiB
    assert call("def f():\n    return torch.zeros(2**17)\n", "f").shape == (2**17,)  # 512 KiB passes
    assert learner("big = torch.zeros(2**19)\n").names(["big"])["big"][0] == "remote"  # a name: a handle


def test_a_test_cell_lambda_cannot_be_handed_to_the_learner():
    with pytest.raises(CodecError, match="测试单元"):
        JudgeEncoder().encode(lambda x: x)


def test_defaultdicts_keep_their_factory_and_odicts_their_type():
    out = roundtrip({"a": collections.defaultdict(list, {"k": [1]}), "b": collections.OrderedDict(x=1)})
    assert isinstance(out["a"], collections.defaultdict) and out["a"].default_factory is list
    assert isinstance(out["b"], collections.OrderedDict)


# ---------------------------------------------------------------------------------------------------
# A learner that cannot answer


def test_an_exception_comes_back_by_type_name_and_message():
    with pytest.raises(ValueError, match="bad shape"):
        call("def f():\n    raise ValueError('bad shape')\n", "f")
    with pytest.raises(Exception, match="mine") as info:
        call("class Mine(Exception):\n    pass\ndef f():\n    raise Mine('mine')\n", "f")
    assert type(info.value).__name__ == "Mine"


def test_a_lost_learner_cannot_be_swallowed_by_except_exception():
    class Closed:
        limits = MessageLimits()

        def exchange(self, *a):
            from autograder.wire.protocol import ChannelClosed

            raise ChannelClosed()

    lost = Remote(Learner(Closed()), ["name", "f"])
    with pytest.raises(LearnerGone):
        try:
            lost()
        except Exception:  # noqa: BLE001 - what a test cell might write
            pytest.fail("LearnerGone was caught by except Exception")


# ---------------------------------------------------------------------------------------------------
# NumPy scalars, refused values, learner exceptions named like the grader's


NUMPY_SCALAR_TYPES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
NUMPY_FLOAT_TYPES = ["float16", "float32", "float64", "longdouble", "complex64", "complex128", "clongdouble"]


@pytest.mark.parametrize("kind", NUMPY_SCALAR_TYPES + NUMPY_FLOAT_TYPES)
def test_numpy_scalars_of_every_kind_cross_the_codec_finite_or_not(kind):
    import math

    import numpy as np

    make = getattr(np, kind)
    values = [make(1), make(0)]
    if kind in NUMPY_FLOAT_TYPES:
        values += [make("nan"), make("inf"), make("-inf"), make(-0.0), make(1.5)]
    for value in values:
        literal = repr(bool(value)) if kind == "bool_" else repr(str(value))
        source = f"import numpy as np\ndef f():\n    return np.{kind}({literal})\n"
        back = call(source, "f")
        assert type(back) is type(value), (kind, value, back)
        if isinstance(value, (np.floating, np.complexfloating)) and not np.isfinite(value):
            assert (np.isnan(back) and np.isnan(value)) or back == value, (kind, value, back)
        else:
            assert back == value and math.copysign(1, np.real(back)) == math.copysign(1, np.real(value))


def test_numpy_arrays_of_any_shape_and_layout_cross_both_ways_with_their_shape_and_values():
    import numpy as np

    arrays = [
        np.array(2.5, dtype=np.float32),  # 0-d: not (1,)
        np.zeros((0, 3)),
        np.arange(12.0).reshape(3, 4).T,  # Fortran order
        np.arange(6, dtype=np.int16)[::-1],  # a negative stride
    ]
    for a in arrays:
        back = call("def f(a):\n    return a, a.shape\n", "f", a)  # judge -> learner -> judge
        assert back[1] == a.shape and back[0].shape == a.shape and back[0].dtype == a.dtype, (a.shape, back)
        assert np.array_equal(back[0], a)


def test_a_refused_value_fails_only_where_it_is_used_and_names_itself():
    from autograder.child.judge import RefusedValue

    source = (
        "model = nn.Linear(2, 1)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model.optimizer = optimizer\n"  # an honest capstone wrote this: the judge refuses such a model
        "x = torch.ones(2)\n"
    )
    found = learner(source).names(["model", "x", "optimizer"])
    assert torch.equal(found["x"][1], torch.ones(2))
    assert isinstance(found["optimizer"][1], torch.optim.SGD)
    refused = found["model"][1]
    with pytest.raises(RefusedValue, match="model") as info:
        refused(torch.ones(2))
    assert not isinstance(info.value, LearnerGone)
    assert "model" in repr(refused)


def test_a_learner_exception_named_like_the_graders_gets_the_learners_wording():
    from autograder.parent.engine import LEARNERS_ERROR, message_of

    for name in ("CheckError", "LearnerGone", "AssertionError"):
        with pytest.raises(Exception) as info:  # noqa: PT011 - the learner picks the type
            call(f"class {name}(Exception):\n    pass\ndef f():\n    raise {name}('✔ 通过')\n", "f")
        from autograder.child.judge import _origin

        origin = _origin(info.value)
        assert origin == "learner", name
        message = message_of([type(info.value).__name__, str(info.value)], origin)
        assert message.startswith(LEARNERS_ERROR) and "✔ 通过" in message


def test_control_and_bidi_characters_in_a_message_are_shown_escaped():
    from autograder.parent.engine import message_of

    message = message_of(["ValueError", "a\u202eb\x00c\u200bd\u2066e"], "learner")
    assert "\u202e" not in message and "\x00" not in message and "\u200b" not in message
    assert "\\u202e" in message and "\\u0000" in message


def test_codec_only_the_learners_decoder_imports_what_a_message_names():
    """The judge's decoder refuses function references and classes it has not loaded, which the learner's
    decoder rebuilds by import path: the trust direction is the class, not a string."""
    from autograder.child.codec import LearnerDecoder

    for tree in ({"$fn": "os:getcwd"}, {"$iter": []}, {"$learner": ["name", "f"]}):
        with pytest.raises(CodecError):
            JudgeDecoder([]).decode(tree)
    assert LearnerDecoder([]).decode({"$fn": "os:getcwd"}) is os.getcwd
    with pytest.raises(CodecError):
        LearnerDecoder([]).decode({"$handle": {"id": 0}})


def test_a_tensor_with_a_graph_arrives_as_a_non_leaf_that_is_not_a_view_as_in_the_kernel():
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    loss = w * torch.tensor([1.0, 1.0])
    facts = call("def f(t):\n    return [t.is_leaf, t._base is None, t.requires_grad]\n", "f", loss)
    assert facts == [False, True, True]


def test_a_detach_in_place_of_an_argument_with_a_graph_comes_back():
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    loss = w * torch.tensor([1.0, 1.0])
    call("def f(t):\n    t.detach_()\n", "f", loss)
    assert loss.is_leaf and not loss.requires_grad
