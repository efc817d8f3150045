"""Framing on a stream socket: one message is an 8-byte header length, a JSON header, then raw buffers.

One parser (:class:`Framer`) reads it everywhere: blocking with a deadline (:func:`recv`) and non-blocking
(the pool's result sockets). It checks every length against its limits before reading, so a peer cannot
make it allocate more than ``MessageLimits.max_bytes`` or wait past a deadline. (No torch here: the grader's parent process
imports this module too.)
"""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from typing import Any

MAX_HEADER = 64 * 2**20


class CodecError(Exception):
    """A value that cannot be sent, or a message that breaks the rules; the text says which."""


class ChannelClosed(Exception):
    """The other end closed the channel (its process ended)."""


class ChannelTimeout(Exception):
    """No message arrived before the deadline."""


@dataclass(frozen=True)
class MessageLimits:
    """Caps on what one message may carry (checked while decoding)."""

    max_bytes: int = 768 * 2**20
    max_depth: int = 200
    max_nodes: int = 2_000_000
    max_str: int = 8 * 2**20
    max_dims: int = 32


DEFAULT_LIMITS = MessageLimits()


def _nonneg_int(value: Any) -> bool:
    return type(value) is int and value >= 0


def dumps(header: dict[str, Any], buffers: list[Any]) -> list[bytes | memoryview]:
    """The parts of one message: 8-byte length, JSON header, then each buffer."""
    header = {**header, "buffers": [memoryview(b).nbytes for b in buffers]}
    text = json.dumps(header, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    data = text.encode("utf-8", "replace")  # a lone surrogate in some text becomes "?", never an error
    return [len(data).to_bytes(8, "big"), data, *buffers]


def parse_header(text: bytes, limits: MessageLimits = DEFAULT_LIMITS) -> dict[str, Any]:
    def refuse(name: str) -> Any:
        raise CodecError(f"消息里有不允许的常量 {name}")

    try:
        header = json.loads(text.decode("utf-8"), parse_constant=refuse)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CodecError(f"消息不是合法的 JSON：{str(exc)[:100]}") from None
    _check_text(header)
    lengths = header.get("buffers") if isinstance(header, dict) else None
    if not isinstance(lengths, list) or not all(_nonneg_int(n) for n in lengths):
        raise CodecError("消息格式不对 (buffers)")
    if sum(lengths) > limits.max_bytes:
        raise CodecError(f"消息太大：超过 {limits.max_bytes // 2**20} MiB")
    return header


def _check_text(value: Any) -> None:
    """Every string must be valid Unicode text (JSON's \\ud800 escapes make lone surrogates, which no file,
    notebook or page can hold)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise CodecError("消息里有无效的 Unicode 文本 (lone surrogate)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class Framer:
    """The one parser of the framing, fed piece by piece: ``wants()`` bytes at a time, ``take`` each piece.

    ``recv`` (a blocking socket, with a deadline) and the pool's result sockets (non-blocking, many at
    once) both read through it, so lengths are checked against ``limits`` in one place."""

    def __init__(self, limits: MessageLimits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self._header: dict[str, Any] | None = None
        self._size: int | None = None  # the header's length, once read
        self._lengths: list[int] = []
        self._buffers: list[bytearray] = []

    def wants(self) -> int:
        """How many bytes the next piece has (0 for an empty buffer)."""
        if self._size is None:
            return 8
        if self._header is None:
            return self._size
        return self._lengths[len(self._buffers)]

    def take(self, piece: bytearray) -> tuple[dict[str, Any], list[bytearray]] | None:
        """Consume one piece of ``wants()`` bytes; a whole message (header, buffers) when this completed it."""
        if self._size is None:
            size = int.from_bytes(piece, "big")
            if size > MAX_HEADER:
                raise CodecError("消息头太大 (header too large)")
            self._size = size
        elif self._header is None:
            header = parse_header(bytes(piece), self.limits)
            self._lengths = header.pop("buffers")
            self._header = header
        else:
            self._buffers.append(piece)
        if self._header is None or len(self._buffers) < len(self._lengths):
            return None
        message = (self._header, self._buffers)
        self._header, self._size, self._lengths, self._buffers = None, None, [], []
        return message


SMALL_MESSAGE = 1 << 16  # bytes: a message this small goes out in one write (one wake-up of the reader, not three)


def send(sock: socket.socket, header: dict[str, Any], buffers: list[Any] | None = None) -> None:
    parts = dumps(header, buffers or [])
    if sum(memoryview(part).nbytes for part in parts) <= SMALL_MESSAGE:
        sock.sendall(b"".join(parts))
        return
    for part in parts:  # a large one: no copy
        sock.sendall(part)


def recv(
    sock: socket.socket, *, deadline: float | None = None, limits: MessageLimits = DEFAULT_LIMITS
) -> tuple[dict[str, Any], list[bytearray]]:
    """The next message: (header, buffers). ``deadline`` is a ``time.monotonic()`` value or None (wait)."""
    framer = Framer(limits)
    while True:
        message = framer.take(_read(sock, framer.wants(), deadline))
        if message is not None:
            return message


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
