"""Framing on a stream socket: one message is an 8-byte header length, a JSON header, then raw buffers.

The receiver checks every length against its limits before reading, so a peer cannot make it allocate
more than ``Limits.max_bytes`` or wait past a deadline.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from autograder.codec import DEFAULT_LIMITS, CodecError, Limits, dumps, parse_header

MAX_HEADER = 64 * 2**20


class ChannelClosed(Exception):
    """The other end closed the channel (its process ended)."""


class ChannelTimeout(Exception):
    """No message arrived before the deadline."""


def send(sock: socket.socket, header: dict[str, Any], buffers: list[Any] | None = None) -> None:
    for part in dumps(header, buffers or []):
        sock.sendall(part)


def recv(
    sock: socket.socket, *, deadline: float | None = None, limits: Limits = DEFAULT_LIMITS
) -> tuple[dict[str, Any], list[bytearray]]:
    """The next message: (header, buffers). ``deadline`` is a ``time.monotonic()`` value or None (wait)."""
    size = int.from_bytes(_read(sock, 8, deadline), "big")
    if size > MAX_HEADER:
        raise CodecError("消息头太大 (header too large)")
    header = parse_header(bytes(_read(sock, size, deadline)), limits)
    buffers = [_read(sock, n, deadline) for n in header.pop("buffers")]
    return header, buffers


def _read(sock: socket.socket, n: int, deadline: float | None) -> bytearray:
    data = bytearray(n)
    view = memoryview(data)
    got = 0
    while got < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChannelTimeout()
            sock.settimeout(left)
        else:
            sock.settimeout(None)
        try:
            chunk = sock.recv_into(view[got:], min(n - got, 1 << 22))
        except TimeoutError:
            raise ChannelTimeout() from None
        except (ConnectionResetError, BrokenPipeError):
            raise ChannelClosed() from None
        if chunk == 0:
            raise ChannelClosed()
        got += chunk
    return data
