"""Shared memory between a sandbox child and the worker that forked it.

The child writes which call it is in (so the worker can enforce per-call
deadlines without being woken for every call) and appends one record per
finished test (so results survive the child being killed). Answer code runs
in the child and can scribble here; that can only spoil its own score, so the
worker validates what it reads and trusts it for nothing else.

Records are small binary structs rather than JSON: encoding them must touch as
little of the interpreter as possible, since every page a forked child writes
is copied.
"""

from __future__ import annotations

import mmap
import os
import struct
import time

SIZE = 1 << 20
# committed bytes, call sequence number, phase, test index, start, limit
_HEADER = struct.Struct("<qqqqdd")
# Then, written by the worker and read by the child before each test: the
# position in its test list at which the child stops (the rest was handed to
# another worker, see scoring._Share).
_STOP = struct.Struct("<q")
_STOP_AT = _HEADER.size
NO_STOP = 1 << 62
_DATA = 64
# kind, test index, passed, then the UTF-8 lengths of its two strings (-1:
# None), which follow: one unpack per record for the worker.
_RECORD = struct.Struct("<ciBii")

SETUP, GROUND_TRUTH, CALL, COMPARE, DONE = range(5)
PHASE_NAMES = ("setup", "ground truth", "call", "compare", "done")

VERDICT = b"V"  # index, passed, reason
SHOWN = b"S"  # index, expected repr, actual repr
DONE_RECORD = b"D"  # captured output
FATAL = b"F"  # message
FAILED = b"X"  # index, the exception's message, what the answer printed during that test
_KINDS = frozenset((VERDICT, SHOWN, DONE_RECORD, FATAL, FAILED))


def shared_memory(size: int, name: str) -> int:
    """A memfd of `size` bytes: memory the worker and the zygote (a program
    of its own, see zygote.py) both map, and every child inherits."""
    fd = os.memfd_create(name, 0)
    os.ftruncate(fd, size)
    return fd


class Progress:
    def __init__(self, fd: int = -1) -> None:
        # MAP_SHARED: forked children write into the same pages; with `fd`
        # (see shared_memory) so does the other process mapping it.
        self._buf = mmap.mmap(fd, SIZE)
        self._committed = 0
        self._seq = 0

    def close(self) -> None:
        self._buf.close()

    # worker side

    def reset(self, setup_limit: float) -> None:
        self._committed = 0
        self._seq = 0
        _HEADER.pack_into(self._buf, 0, 0, 0, SETUP, -1, time.monotonic(), setup_limit)
        _STOP.pack_into(self._buf, _STOP_AT, NO_STOP)

    def stop_at(self, position: int) -> None:
        """Asks the running child to stop before the test at `position`."""
        _STOP.pack_into(self._buf, _STOP_AT, position)

    def current_call(self) -> tuple[int, int, float, float]:
        """(phase, test index, started, limit) of the child's current call."""
        for _ in range(3):
            _, seq, phase, index, started, limit = _HEADER.unpack_from(self._buf, 0)
            if _HEADER.unpack_from(self._buf, 0)[1] == seq:
                break
        return phase, index, started, limit

    def records(self) -> tuple[list[tuple], bool]:
        """[(kind, index, passed, first, second)] the child committed, and
        whether all of it parsed."""
        committed = _HEADER.unpack_from(self._buf, 0)[0]
        if committed < 0 or committed > SIZE - _DATA:
            return [], False
        data = self._buf[_DATA:_DATA + committed]
        end = len(data)
        out: list[tuple] = []
        unpack, size, kinds = _RECORD.unpack_from, _RECORD.size, _KINDS
        at = 0
        try:
            while at < end:
                kind, index, passed, first, second = unpack(data, at)
                at += size
                if kind not in kinds or first > end - at or second > end - at - max(first, 0):
                    return out, False
                if first >= 0:
                    start, at = at, at + first
                    first = data[start:at].decode("utf-8", "replace")
                else:
                    first = None
                if second >= 0:
                    start, at = at, at + second
                    second = data[start:at].decode("utf-8", "replace")
                else:
                    second = None
                out.append((kind, index, passed != 0, first, second))
        except struct.error:
            return out, False
        return out, True

    # child side

    def rewind(self) -> None:
        """A resident child's own counters, for its next request (the zygote
        has reset the shared header)."""
        self._committed = 0
        self._seq = 0

    def begin(self, phase: int, index: int, limit: float) -> None:
        self._seq += 1
        _HEADER.pack_into(self._buf, 0, self._committed, self._seq, phase, index,
                          time.monotonic(), limit)

    def stopped(self, position: int) -> bool:
        """Whether the worker asked us to stop before this test."""
        return position >= _STOP.unpack_from(self._buf, _STOP_AT)[0]

    def room(self) -> int:
        """Bytes still free for records."""
        return SIZE - _DATA - self._committed

    def append(self, kind: bytes, index: int, passed: bool, first: str | None,
               second: str | None = None) -> bool:
        one = b"" if first is None else first.encode("utf-8", "replace")
        two = b"" if second is None else second.encode("utf-8", "replace")
        record = _RECORD.pack(kind, index, passed, -1 if first is None else len(one),
                              -1 if second is None else len(two)) + one + two
        end = self._committed + len(record)
        if end > SIZE - _DATA:
            return False
        self._buf[_DATA + self._committed:_DATA + end] = record
        self._committed = end
        struct.pack_into("<q", self._buf, 0, end)
        return True
