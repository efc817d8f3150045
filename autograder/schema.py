"""Field values that cross the process boundary and decide statuses (no torch: the parent imports this).

Decisions are made from these fields, never from message text: messages are for people only.
"""

from __future__ import annotations

from enum import StrEnum


class Lost(StrEnum):
    """Why the learner's process can no longer answer, as the judge reports it."""

    HUNG = "hung"  # no answer within the wall-clock backstop
    EXITED = "exited"  # the channel closed: the process ended (crash, exit, kill)
    GARBLED = "garbled"  # a message the judge cannot read, or one that answers another request
    OVERRAN = "overran"  # a test cell's own time ran out while the learner was still answering


class SkipReason(StrEnum):
    """Why a rerun leaves out a cell or a test: what the learner's process did there."""

    HUNG = "hung"  # it stopped answering (status timeout)
    STORAGE = "storage"  # it was stopped for what it wrote outside its memory (status crashed)
    EXITED = "exited"  # it ended or broke the protocol (status crashed)
