"""Values as data between the judge and the learner process: a JSON tree plus raw byte buffers, never a pickle.

What one side sends, the other rebuilds from plain parts: numbers, strings, containers, plain ``torch.Tensor``
(rebuilt from its storage bytes, so a learner's tensor subclass never survives), numpy arrays, generators,
and modules / optimizers of known classes (torch's own and ``course``'s, rebuilt from their attributes).

Identity is kept inside one message and across a call: every tensor, storage, list, dict, module,
optimizer and generator gets a number; a second mention is ``{"$ref": n}``. A reply names the objects
of the request it answers with ``{"$arg": n}``, so a returned view of an argument shares the argument's
storage, and ``updates`` carry the new state of every argument the learner changed in place.

The two directions trust differently, and each is a class: ``JudgeDecoder`` / ``JudgeEncoder`` in the
judge, ``LearnerDecoder`` / ``LearnerEncoder`` in the learner's process. The learner side rebuilds whatever the judge sends (functions and
classes by import path: named fixtures in ``course/``). The judge side never imports or calls anything the
learner names: modules and optimizers must be of an allowed class already loaded; anything else the learner
returns (its own functions, classes, generators) stays in the learner process as a handle, and sizes,
depth, dtypes, shapes and strides are checked before a byte is used.
"""

from autograder.child.codec.common import Handle, NotData, plain_extra, qualified, storage_bytes
from autograder.child.codec.decode import Decoder, JudgeDecoder, LearnerDecoder
from autograder.child.codec.encode import Encoder, JudgeEncoder, LearnerEncoder
from autograder.child.codec.rules import check_module_state, set_grad
from autograder.wire.protocol import DEFAULT_LIMITS, CodecError, MessageLimits

__all__ = [
    "DEFAULT_LIMITS",
    "CodecError",
    "Decoder",
    "Encoder",
    "Handle",
    "JudgeDecoder",
    "JudgeEncoder",
    "LearnerDecoder",
    "LearnerEncoder",
    "MessageLimits",
    "NotData",
    "check_module_state",
    "plain_extra",
    "qualified",
    "set_grad",
    "storage_bytes",
]
