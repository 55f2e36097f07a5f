"""ColBench backend scoring worker (see README.md beside this file).

Started by lib/scoring/backend/worker.ts as `python3 -S -E worker.py [CONFIG_JSON]`
where CONFIG_JSON may carry {"limits": {...}, "preload": [...]}. Speaks
protocol.py framing on stdin/stdout; stderr is for diagnostics only.
"""

from __future__ import annotations

import os
import sys

# The C module: `signal` brings enum (~3 ms of every worker's start).
import _signal

import isolation
import protocol
import scoring
import zygote as Z
from limits import Limits

# Modules answers and ground truths often use: the zygote imports one before
# forking a child whose code names it, once answers keep naming it (see
# scoring._Demand), so children find it loaded, and no child pays for what
# none uses. Each loaded megabyte makes every later fork a little dearer.
DEFAULT_PRELOAD = (
    "math", "re", "collections", "itertools", "functools", "datetime", "random",
    "string", "heapq", "bisect", "json", "typing", "copy", "operator",
)


def _add_site_packages() -> None:
    # Run with -S: no .pth files are executed, but installed packages stay importable.
    import site
    for path in site.getsitepackages():
        if path not in sys.path and os.path.isdir(path):
            sys.path.append(path)


def _python_dirs(own_dir: str) -> list[str]:
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    dirs.update(p for p in sys.path if p and os.path.isdir(p))
    dirs.discard(own_dir)
    return sorted(dirs)


def _prepare(message: dict, limits):
    """A score request checked and compiled ahead of its turn (a Plan), or the
    error that preparing it raised."""
    if message.get("type") != "score":
        return None
    try:
        return scoring.prepare(message, limits)
    except Exception as err:
        return err


class Door:
    """The worker's input while a child runs. The pool sends requests ahead
    so that the worker never waits on a round trip: the next one is read and
    compiled meanwhile, so that the zygote, once done, waits for little more
    than the results to be read. Behind a slow child those requests would
    wait while other workers idle: `release` hands them back ("released")
    for the pool to send elsewhere."""

    def __init__(self, channel: protocol.Channel, limits) -> None:
        self._channel = channel
        self._limits = limits
        self.ahead: list = []  # (message, prepared) read ahead of its turn
        self.current = None  # the id of the request being worked on
        # What the pool lets us do while its child runs long: None, "release"
        # or "split" (lib/scoring/backend/protocol.ts, ScoreRequest.stall).
        self.stall = None

    def fileno(self) -> int:
        return self._channel.fileno()

    def meanwhile(self) -> None:
        if not self.ahead:
            message = self._channel.poll()
            if message is not None:
                self.ahead.append((message, _prepare(message, self._limits)))

    def waiting(self) -> bool:
        """Whether another request is already here (read ahead if so)."""
        self.meanwhile()
        return bool(self.ahead)

    def release(self) -> bool:
        """Hands back every request waiting here; False once the input has
        ended (nothing more can arrive)."""
        waiting = [message for message, _ in self.ahead]
        self.ahead.clear()
        more = self._channel.drain()
        waiting.extend(more or [])
        for message in waiting:
            self._channel.reply({"id": message.get("id"), "type": "released"})
        self._channel.flush()
        return more is not None

    def give_away(self, tests: list) -> None:
        """Tells the pool that these tests (indices into the current request's
        list) are left for another worker (see scoring._Share)."""
        self._channel.reply({"id": self.current, "type": "split", "tests": tests})

    def next(self):
        """(message, prepared or None), or raises ValueError for a bad frame;
        message is None at the end of input."""
        if self.ahead:
            return self.ahead.pop(0)
        return self._channel.read(), None


def _handle(message: dict, prepared, zygote, limits, shared, door) -> dict:
    request_id = message.get("id")
    kind = message.get("type")
    try:
        if kind == "score":
            door.current = request_id
            door.stall = message.get("stall")
            if isinstance(prepared, Exception):
                raise prepared
            plan = prepared if prepared is not None else scoring.prepare(message, limits)
            reply = scoring.execute(plan, zygote, limits, shared, door)
            reply.update({"id": request_id, "type": "result"})
            return reply
        if kind == "ping":
            return {"id": request_id, "type": "pong"}
        raise ValueError(f"unknown request type {kind!r}")
    except zygote.Lost:
        raise  # nothing can be scored any more: main() exits, the pool starts a new worker
    except Exception as err:
        return {"id": request_id, "type": "error", "message": f"{type(err).__name__}: {err}"}


def _pin(slot) -> int | None:
    """Keeps this process (and so its zygote and every child) on one core:
    the slot-th of the cores it may use (wrapping around). None if it cannot."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        core = cores[int(slot) % len(cores)]
        os.sched_setaffinity(0, {core})
    except (AttributeError, OSError, ValueError, TypeError, ZeroDivisionError):
        return None
    return core


def main() -> int:
    own_dir = os.path.dirname(os.path.abspath(__file__))
    config = protocol.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    core = _pin(config["cpu"]) if config.get("cpu") is not None else None
    # The pool stops us by closing stdin; a terminal's Ctrl-C is for it, not us.
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    _add_site_packages()
    # Single-threaded BLAS: threads count against the child's process limit
    # and a forked child cannot use the parent's threads anyway.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"

    limits = Limits(**(config.get("limits") or {}))
    # Read now, while this dir is in view: the mount namespace hides it.
    sources = Z.read_sources(own_dir)
    iso = isolation.setup(limits, _python_dirs(own_dir))
    lazy = frozenset(DEFAULT_PRELOAD) - set(config.get("preload") or [])
    path = [p for p in sys.path if p and p != own_dir]
    # From here on only the zygote forks (see zygote.py). Modules the pool
    # asked for (numpy for its numpy lane) are imported there, before any child.
    zygote = Z.start(iso, limits, sources, list(config.get("preload") or []), lazy, path)
    scoring.LAZY_MODULES = lazy - set(zygote.preloaded)
    scoring.REUSE = config.get("reuse", True) is not False
    shared = zygote.progress
    protocol.write_message(1, {
        "type": "hello",
        "pid": os.getpid(),
        "zygote": zygote.pid,
        "zygote_fork": zygote.fork,
        "cpu": core,
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "isolation": iso.describe(),
        # The derived budget goes with them, so the Node side never recomputes it.
        "limits": {**limits.as_dict(), "per_test_budget": limits.per_test_budget()},
        "preloaded": zygote.preloaded,
        "preload_on_demand": sorted(scoring.LAZY_MODULES),
        "reuse": scoring.REUSE,
    })
    channel = protocol.Channel(0, 1)
    door = Door(channel, limits)
    try:
        while True:
            try:
                message, prepared = door.next()
            except ValueError as err:
                channel.reply({"id": None, "type": "error", "message": f"bad frame: {err}"})
                channel.flush()
                return 2
            if message is None:
                return 0
            try:
                channel.reply(_handle(message, prepared, zygote, limits, shared, door))
            except Z.ZygoteLost as err:
                channel.flush()  # what was scored before stays scored
                sys.stderr.write(f"worker: {err}\n")
                return 3
    except BrokenPipeError:
        return 0
    finally:
        zygote.close()
        iso.close()


if __name__ == "__main__":
    sys.exit(main())
