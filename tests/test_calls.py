"""autograder.child.calls: a learner's exception, rebuilt in the judge, is caught as the kernel catches it."""

from __future__ import annotations

import pytest

from autograder.child.calls import LearnerError, builtin_base, raised_by_learner, rebuild_error


class NotTrainedYet(ValueError):
    """A learner's own exception class, as an answer cell defines it."""


def test_a_learners_subclass_of_a_builtin_exception_is_that_builtin_in_the_judge():
    error = NotTrainedYet("还没有训练")
    rebuilt = rebuild_error(type(error).__name__, str(error), builtin_base(error))
    assert isinstance(rebuilt, ValueError) and isinstance(rebuilt, LearnerError) and raised_by_learner(rebuilt)
    assert type(rebuilt).__name__ == "NotTrainedYet" and str(rebuilt) == "还没有训练"
    with pytest.raises(ValueError):
        raise rebuilt


def test_builtin_errors_come_back_as_themselves_and_unknown_bases_as_plain_learner_errors():
    assert type(rebuild_error("KeyError", "k", "KeyError")) is KeyError
    assert builtin_base(KeyError("k")) == "KeyError"
    plain = rebuild_error("Odd", "x", "NotABuiltin")
    assert isinstance(plain, LearnerError) and not isinstance(plain, ValueError)
    assert isinstance(rebuild_error("Odd", "x"), LearnerError)  # an old two-field reply


def test_a_base_whose_layout_does_not_mix_still_gives_the_learners_name():
    rebuilt = rebuild_error("MyOSError", "disk", "OSError")
    assert type(rebuilt).__name__ == "MyOSError" and isinstance(rebuilt, LearnerError)
