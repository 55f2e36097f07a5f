"""Framing on the worker's stdin/stdout: 4-byte big-endian length, then that
many bytes of UTF-8 JSON. Raw fds, so no Python-level buffering is involved."""

from __future__ import annotations

import os
import select
import struct

# The C half of the json package, used directly: `import json` brings re and
# enum (~6 ms of every worker's start), for what these two calls do.
import _json

MAX_FRAME = 64 << 20
_LENGTH = struct.Struct(">I")


class _Plain:
    """What _json.make_scanner asks of its decoder: plain JSON, no hooks, no
    NaN or Infinity (JSON.stringify never writes them)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str):
        raise ValueError(f"{name} is not JSON")


_scan = _json.make_scanner(_Plain)
_WHITESPACE = " \t\n\r"


def _unencodable(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# json.dumps(..., ensure_ascii=False, allow_nan=False) with its default separators.
_encode = _json.make_encoder(None, _unencodable, _json.encode_basestring, None, ": ", ", ",
                             False, False, False)


def loads(text: str):
    """json.loads for one document; ValueError if it is not one."""
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as err:
        raise ValueError(f"Expecting value at character {err.value}") from None
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"Extra data at character {end}")
    return value


def dumps(value) -> str:
    return "".join(_encode(value, 0))


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks = []
    while n > 0:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_message(fd: int) -> dict | None:
    """The next message, or None at end of input."""
    head = _read_exact(fd, _LENGTH.size)
    if head is None:
        return None
    (length,) = _LENGTH.unpack(head)
    if length > MAX_FRAME:
        raise ValueError(f"frame of {length} bytes exceeds {MAX_FRAME}")
    body = _read_exact(fd, length)
    if body is None:
        return None
    message = loads(body.decode("utf-8"))
    if not isinstance(message, dict):
        raise ValueError("a message must be a JSON object")
    return message


def write_message(fd: int, message: dict) -> None:
    body = dumps(message).encode("utf-8", "replace")
    data = _LENGTH.pack(len(body)) + body
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def encode(message: dict) -> bytes:
    body = dumps(message).encode("utf-8", "replace")
    return _LENGTH.pack(len(body)) + body


class Channel:
    """Frames in and out of a pair of fds, for a worker under a steady stream
    of requests: replies wait in a buffer while more requests are already
    here, and go out together when the queue runs low (so the peer refills it
    before we run dry) or when we would otherwise wait for input. Each batch
    costs the peer one wake-up instead of one per reply; a lone request is
    still answered at once."""

    def __init__(self, fd_in: int, fd_out: int, low: int = 2, most: int = 16) -> None:
        self._in = fd_in
        self._out = fd_out
        self._buf = bytearray()
        self._frames: list[bytes] = []  # complete request frames not yet handed out
        self._eof = False
        self._replies: list[bytes] = []
        self._bad: ValueError | None = None  # a broken frame behind the good ones
        self._low = low
        self._most = most

    def _split(self) -> None:
        buf = self._buf
        at = 0
        while len(buf) - at >= _LENGTH.size:
            (length,) = _LENGTH.unpack_from(buf, at)
            if length > MAX_FRAME:
                self._bad = ValueError(f"frame of {length} bytes exceeds {MAX_FRAME}")
                self._eof = True
                break
            if len(buf) - at - _LENGTH.size < length:
                break
            self._frames.append(bytes(buf[at + _LENGTH.size:at + _LENGTH.size + length]))
            at += _LENGTH.size + length
        if at:
            del buf[:at]

    def _fill(self, block: bool) -> None:
        if self._eof:
            return
        if not block and not select.select([self._in], [], [], 0)[0]:
            return
        chunk = os.read(self._in, 1 << 20)
        if not chunk:
            self._eof = True
            return
        self._buf += chunk
        self._split()

    def read(self) -> dict | None:
        """The next request, or None at end of input. Sends the replies
        waiting in the buffer before it blocks."""
        while not self._frames:
            if self._bad is not None:
                raise self._bad
            if self._eof:
                return None
            self.flush()
            self._fill(block=True)
        message = loads(self._frames.pop(0).decode("utf-8"))
        if not isinstance(message, dict):
            raise ValueError("a message must be a JSON object")
        return message

    def poll(self) -> dict | None:
        """The next request if one is already here (never blocks); None if not,
        or if what is here is broken (read() then reports it)."""
        if not self._frames:
            self._fill(block=False)
        if not self._frames:
            return None
        try:
            message = loads(self._frames[0].decode("utf-8"))
        except ValueError:
            return None
        if not isinstance(message, dict):
            return None
        self._frames.pop(0)
        return message

    def fileno(self) -> int:
        return self._in

    def drain(self) -> list[dict] | None:
        """Every request already here (never blocks), in order; None once the
        input has ended and nothing is left. Stops short of a broken frame,
        which read() then reports."""
        while not self._eof and select.select([self._in], [], [], 0)[0]:
            self._fill(block=False)
        messages = []
        while (message := self.poll()) is not None:
            messages.append(message)
        if not messages and self._eof:
            return None
        return messages

    def reply(self, message: dict) -> None:
        self._replies.append(encode(message))
        if len(self._frames) < self._low:
            self._fill(block=False)
        if len(self._frames) < self._low or len(self._replies) >= self._most:
            self.flush()

    def flush(self) -> None:
        if self._replies:
            data = b"".join(self._replies)
            self._replies = []
            view = memoryview(data)
            while view:
                view = view[os.write(self._out, view):]
