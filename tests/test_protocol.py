"""The one framer: the same messages whether read whole, byte by byte, or from a blocking socket."""

from __future__ import annotations

import socket

import pytest

from autograder.wire.protocol import MAX_HEADER, CodecError, Framer, MessageLimits, dumps, recv, send

MESSAGES = [({"op": "run", "source": "x = 1"}, []), ({"op": "call", "id": 2}, [b"abc", b"", bytearray(5)])]


def _wire() -> bytes:
    return b"".join(bytes(part) for header, buffers in MESSAGES for part in dumps(header, buffers))


def _feed(framer: Framer, data: bytes, step: int) -> list:
    pending, found = bytearray(), []
    for i in range(0, len(data), step):
        pending += data[i : i + step]
        while len(pending) >= framer.wants():
            size = framer.wants()
            piece = pending[:size]
            del pending[:size]
            message = framer.take(piece)
            if message is not None:
                found.append(message)
    return found


@pytest.mark.parametrize("step", [1, 7, 1 << 20])
def test_protocol_framer_reads_the_same_messages_in_pieces_of_any_size(step):
    found = _feed(Framer(), _wire(), step)
    assert [(h, [bytes(b) for b in bufs]) for h, bufs in found] == [
        (h, [bytes(b) for b in bufs]) for h, bufs in MESSAGES
    ]


def test_protocol_recv_reads_through_the_same_framer():
    left, right = socket.socketpair()
    with left, right:
        for header, buffers in MESSAGES:
            send(left, header, buffers)
        got = [recv(right, deadline=None) for _ in MESSAGES]
    assert [(h, [bytes(b) for b in bufs]) for h, bufs in got] == [(h, [bytes(b) for b in bufs]) for h, bufs in MESSAGES]


def test_protocol_framer_refuses_oversized_headers_and_buffers_before_reading_them():
    with pytest.raises(CodecError):
        Framer().take(bytearray((MAX_HEADER + 1).to_bytes(8, "big")))
    parts = dumps({"op": "x"}, [b"12345678"])
    framer = Framer(MessageLimits(max_bytes=4))
    framer.take(bytearray(parts[0]))
    with pytest.raises(CodecError):
        framer.take(bytearray(parts[1]))
