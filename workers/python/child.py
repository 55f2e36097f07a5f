"""What a sandbox child runs: every pending test's ground truth first, then the
answer's calls, each compared with `==` right here (outputs can be any Python
object). Verdicts go to shared memory one test at a time, so a child that
crashes or is killed mid-way loses only the test it was on.

Everything here runs after fork, where each page the child writes is copied:
the worker compiles the code beforehand (see scoring.py) and the zygote that
forks children holds the objects every child starts from (`prepare`), so a
child mostly just runs.
"""

from __future__ import annotations

import builtins
import gc
import io
import marshal
import os
import reprlib
import resource
import struct
# The C module: `signal` wraps it in enums, ~0.9 MB that every fork would copy page tables for.
import _signal as signal
import sys

import progress as P

# Bound at import: answer code shares our modules and may replace these.
_exit = os._exit
_mkdir = os.mkdir
_getpid = os.getpid
_loads = marshal.loads
_setitimer = signal.setitimer
_ITIMER_REAL = signal.ITIMER_REAL
_kill = os.kill
_SIGSTOP = signal.SIGSTOP
_collect = gc.collect

OK, TIMEOUT, ERROR = 0, 1, 2
# After the first alarm keep re-firing, so an answer that swallows one
# (`except BaseException: pass`) is interrupted again.
_REFIRE = 0.05


class CallTimeout(BaseException):
    """BaseException, so an answer's `except Exception` does not swallow it."""


class _Clock:
    armed = False
    fired = False
    # A call timed out or ran out of memory: a resident child then ends
    # (an alarm or MemoryError raised anywhere may leave a module half-way).
    tainted = False
    # The message of the exception the last call raised ("" when none, or unprintable).
    message = ""


def _on_alarm(signum, frame):
    _Clock.fired = True
    if _Clock.armed:
        raise CallTimeout()


def _disarm() -> None:
    while True:
        try:
            _Clock.armed = False
            _setitimer(_ITIMER_REAL, 0)
            return
        except CallTimeout:
            pass


def _timed(fn, limit: float):
    """Run fn under an alarm: (OK, value) | (TIMEOUT, None) | (ERROR, type name)."""
    _Clock.fired = False
    try:
        try:
            _Clock.armed = True
            _setitimer(_ITIMER_REAL, limit, _REFIRE)
            result = (OK, fn())
        except CallTimeout:
            result = (TIMEOUT, None)
        except BaseException as err:  # SystemExit and friends fail the call too
            if type(err) is MemoryError:
                _Clock.tainted = True
            result = (ERROR, type(err).__name__[:80])
            # Still under the alarm: str() runs the exception's own __str__, which is answer code.
            _Clock.message = _message(err)
        finally:
            _disarm()
    except CallTimeout:  # fired between the call's end and _disarm()
        result = (TIMEOUT, None)
    if _Clock.fired:
        _Clock.tainted = True
        # Past the limit is None even if the answer swallowed the alarm and
        # went on to return something.
        return (TIMEOUT, None)
    return result


# What a failing test's record carries beside its reason: the exception's message, and what the
# answer printed while that test ran (the start of each; the whole output is in the done record).
_MESSAGE_CHARS = 300
_TEST_OUTPUT_CHARS = 2000


def _message(err) -> str:
    try:
        text = str(err)
    except BaseException:
        return ""
    if type(text) is not str:
        return ""
    return text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS - 1] + "\u2026"


def _run(definition, expression):
    # A fresh namespace per call; exec of the code object behaves exactly
    # like exec of the source text.
    namespace: dict = {}
    exec(definition, namespace)
    return eval(expression, namespace)


class _Sink(io.TextIOBase):
    """stdout/stderr for answer code: keeps the start, drops the rest cheaply."""

    def __init__(self, cap: int) -> None:
        self._parts: list[str] = []
        self._room = cap
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        n = len(text)
        if self._room > 0:
            kept = text[:self._room]
            self._parts.append(kept)
            self._room -= len(kept)
            self.dropped += n - len(kept)
        else:
            self.dropped += n
        return n

    def dirty(self) -> bool:
        return bool(self._parts) or self.dropped > 0

    def text(self) -> str:
        out = "".join(self._parts)
        if self.dropped:
            out += f"\n[... {self.dropped} more characters dropped]"
        return out


# Space kept free in shared memory so that every test's verdict fits even
# when reprs of many tests are long (max_tests * a verdict, and the output).
_VERDICT_RESERVE = 320 * 1024

_CONTAINERS = (list, tuple, dict, set, frozenset)
_TEXT = (str, bytes, bytearray)
_REPR = reprlib.Repr()
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxfrozenset = _REPR.maxdict = 20
_REPR.maxstring = _REPR.maxother = 120


def _short_repr(value, cap: int) -> str:
    # Not under the alarm: a __repr__ that hangs is caught by the worker's
    # deadline, and the test's verdict is recorded before this runs.
    try:
        kind = type(value)
        if kind in _TEXT and len(value) > cap:
            text = repr(value[:cap])
        elif kind in _CONTAINERS and len(value) > 64:
            text = _REPR.repr(value)
        else:
            text = repr(value)
        if not isinstance(text, str):
            raise TypeError
    except BaseException:
        return f"<unrepresentable {type(value).__name__[:60]}>"
    return text if len(text) <= cap else text[:cap - 1] + "\u2026"


def _verdict(expected, actual) -> tuple[bool, str]:
    e_status, e_value = expected
    a_status, a_value = actual
    if e_status != OK or e_value is None:
        return False, "ground truth failed"
    if a_status == TIMEOUT:
        return False, "timeout"
    if a_status == ERROR:
        return False, f"exception: {a_value}"
    # Not under the alarm either (answer code may run in __eq__): the
    # worker's compare deadline bounds it. bool() is what the benchmark's
    # `if expected == actual` does.
    try:
        same = bool(e_value == a_value)
    except BaseException as err:
        _Clock.tainted = True
        return False, f"compare failed: {type(err).__name__[:80]}"
    return same, "ok" if same else "mismatch"


_SINK: _Sink
_STDIN: io.StringIO


def prepare(limits) -> None:
    """Zygote-side, before any fork: objects every child starts from. Each
    child gets its own copy-on-write copy in this pristine state."""
    global _SINK, _STDIN
    _SINK = _Sink(limits.output_chars)
    _STDIN = io.StringIO("")
    signal.signal(signal.SIGALRM, _on_alarm)


def install_stdio() -> None:
    """Zygote-side, once: sys.stdin/stdout/stderr as every child needs them,
    so that no child rewrites (and copies) sys and the objects it drops. The
    zygote itself never writes to them (see `fresh_sink`)."""
    sys.stdin = _STDIN
    sys.stdout = sys.stderr = _SINK


def fresh_sink(limits) -> None:
    """Zygote-side, before a fork: if anything reached the sink in the zygote
    (a warning, say), a child must not start with it."""
    global _SINK
    if _SINK.dirty():
        _SINK = _Sink(limits.output_chars)
        sys.stdout = sys.stderr = _SINK


def _guard(own_pid: int) -> None:
    # A fork inside answer code returns into this loop twice; the copy must
    # not go on scoring.
    if _getpid() != own_pid:
        _exit(0)


def _enter_dir(path: str) -> None:
    # No HOME or TMPDIR in the environment: tempfile falls back to the cwd,
    # the only writable place. An already imported tempfile is told directly.
    os.chdir(path)
    tempfile = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile.tempdir = path


def run(box, progress: P.Progress, limits, code: bytes, indices: list, cpu_seconds: int):
    """Entry point in the forked child; never returns. `box` is the zygote's
    sandbox.Confinement; `code` is (truth, answer, expressions) as compiled by
    the worker and marshalled: each (code object, None) or (None, error type
    name); `indices` are the tests to run."""
    try:
        box.enter_child(cpu_seconds)
        _mkdir("ground_truth", 0o700)
        _mkdir("answer", 0o700)
        _score(box, progress, limits, code, indices, _getpid())
    except BaseException as err:
        _fatal(progress, err)
    _exit(0)


def _score(box, progress: P.Progress, limits, code: bytes, indices: list, own: int) -> None:
    truth, answer, expressions = _loads(code)
    _enter_dir(box.scratch_truth)
    expected = _expected(progress, limits, truth, expressions, indices, own)
    # The answer gets its own cwd: it never sees files the ground truth made.
    _enter_dir(box.scratch_answer)
    _answers(progress, limits, answer, expressions, indices, expected, own)
    progress.begin(P.DONE, -1, limits.setup_timeout)
    progress.append(P.DONE_RECORD, -1, False, _SINK.text())


def _fatal(progress: P.Progress, err: BaseException) -> None:
    try:
        progress.append(P.FATAL, -1, False, f"{type(err).__name__}: {err}"[:300])
    except BaseException:
        pass


# The job a resident child is given next (written by the zygote into the
# mailbox it shares with that child alone): code bytes (0: the same code as
# the last job), bytes of the marshalled (test list, ...), RLIMIT_CPU seconds;
# then the code, then the test list.
MAIL = struct.Struct("<qqq")
MAIL_DATA = 32
# A resident child ends itself after this many requests, or once its peak
# memory has grown this much since its first (a fresh child starts small).
RESIDENT_REQUESTS = 512
RESIDENT_GROWTH_KIB = 32 << 10


def serve(box, progress: P.Progress, limits, mailbox, code: bytes, indices: list,
          cpu_seconds: int, watched: tuple) -> None:
    """Entry point of a resident child (never returns): scores the request it
    was forked for, then stops itself (SIGSTOP; the zygote sees it stopped)
    and, continued, scores the next one from `mailbox`, until a request leaves
    it in a state a fresh child would not start in: then it exits after that
    request's results, and the zygote forks anew. Only requests reuse.py
    allows come here. `watched` names the modules whose objects must stay
    the ones they were (reuse.ALLOWED)."""
    try:
        box.enter_child(cpu_seconds, resident=True)
        _mkdir("ground_truth", 0o700)
        _mkdir("answer", 0o700)
    except BaseException as err:
        _fatal(progress, err)
        _exit(0)
    own = _getpid()
    usage, self_usage = resource.getrusage, resource.RUSAGE_SELF
    peak = usage(self_usage).ru_maxrss + RESIDENT_GROWTH_KIB
    ceiling = resource.getrlimit(resource.RLIMIT_CPU)[1]
    modules = sys.modules
    count = len(modules)
    seen = _fingerprint(modules, watched)
    keep = True
    for _ in range(RESIDENT_REQUESTS):
        _Clock.tainted = False
        try:
            _score(box, progress, limits, code, indices, own)
        except BaseException as err:
            _fatal(progress, err)
            break
        if not keep or _Clock.tainted:
            break
        # Cycles the request left are collected now, on its time: a finalizer
        # must not run during the next request.
        _collect()
        if (usage(self_usage).ru_maxrss > peak or len(modules) != count
                or _fingerprint(modules, watched) != seen):
            break
        _kill(own, _SIGSTOP)
        # Continued by the zygote: the next job is in the mailbox.
        try:
            code_len, tail_len, cpu_seconds = MAIL.unpack_from(mailbox, 0)
            if code_len:
                code = mailbox[MAIL_DATA:MAIL_DATA + code_len]
            at = MAIL_DATA + code_len
            indices, _, _, keep = _loads(mailbox[at:at + tail_len])
            progress.rewind()
            _fresh_output(limits)
            used = usage(self_usage)
            soft = int(used.ru_utime + used.ru_stime) + 1 + cpu_seconds
            if soft > ceiling:
                break  # as if fresh: this request's own CPU limit would not fit
            resource.setrlimit(resource.RLIMIT_CPU, (soft, ceiling))
        except BaseException as err:
            _fatal(progress, err)
            break
    _exit(0)


def _fingerprint(modules: dict, watched: tuple) -> tuple:
    """The objects builtins and the watched modules hold, by identity."""
    seen = [tuple(map(id, builtins.__dict__.values()))]
    for name in watched:
        module = modules.get(name)
        if module is not None:
            seen.append(tuple(map(id, module.__dict__.values())))
    return tuple(seen)


def _fresh_output(limits) -> None:
    global _SINK
    _SINK = _Sink(limits.output_chars)
    sys.stdout = sys.stderr = _SINK
    _STDIN.seek(0)


def _expected(progress: P.Progress, limits, truth, expressions, indices, own: int) -> dict:
    # The benchmark puts no limit on ground truth; the zygote's deadline
    # (not an alarm) bounds it, which saves two syscalls per test.
    expected = {}
    stopped = progress.stopped
    for position, index in enumerate(indices):
        if stopped(position):
            break
        progress.begin(P.GROUND_TRUTH, index, limits.ground_truth_timeout)
        error = truth[1] or expressions[index][1]
        if error:
            expected[index] = (ERROR, error)
            continue
        try:
            expected[index] = (OK, _run(truth[0], expressions[index][0]))
        except BaseException as err:
            if type(err) is MemoryError:
                _Clock.tainted = True
            expected[index] = (ERROR, type(err).__name__[:80])
        _guard(own)
    return expected


def _answers(progress: P.Progress, limits, answer, expressions, indices, expected: dict,
             own: int) -> None:
    cap = limits.repr_chars
    stopped = progress.stopped
    for position, index in enumerate(indices):
        if stopped(position):
            break
        progress.begin(P.CALL, index, limits.call_timeout)
        error = answer[1] or expressions[index][1]
        _Clock.message = ""
        printed = len(_SINK._parts)
        if error:
            actual = (ERROR, error)
        else:
            definition, expression = answer[0], expressions[index][0]
            actual = _timed(lambda: _run(definition, expression), limits.call_timeout)
            _guard(own)
        # One deadline for comparing and rendering: cheaper than two, and
        # a verdict already recorded survives a kill while rendering.
        progress.begin(P.COMPARE, index, limits.compare_timeout + 2 * limits.repr_timeout)
        passed, reason = _verdict(expected[index], actual)
        _guard(own)
        progress.append(P.VERDICT, index, passed, reason)
        if progress.room() < _VERDICT_RESERVE:
            continue  # keep what is left for verdicts: reprs are only for display
        if not passed:
            # Why it failed beyond the exception's class, and what it printed meanwhile.
            output = "".join(_SINK._parts[printed:])[:_TEST_OUTPUT_CHARS]
            if _Clock.message or output:
                progress.append(P.FAILED, index, False, _Clock.message or None, output or None)
        shown_expected = shown_actual = None
        if expected[index][0] == OK:
            shown_expected = _short_repr(expected[index][1], cap)
        if actual[0] == OK:
            shown_actual = _short_repr(actual[1], cap)
        _guard(own)
        progress.append(P.SHOWN, index, False, shown_expected, shown_actual)


def warm_up(limits, rounds: int = 24) -> None:
    """Zygote-side, before its first fork: runs the loops above on a
    trivial task. CPython 3.11 rewrites a function's bytecode in place as it
    warms up (quickening, then specializing); done here, it is done once,
    instead of in every child, each copying the pages it rewrites."""
    progress = P.Progress()
    truth = (compile("def f(x):\n    return [x, 'x']\n", "<warm-up>", "exec"), None)
    expressions = [(compile(f"f({i})", "<warm-up>", "eval"), None) for i in range(8)]
    indices = list(range(8))
    own = _getpid()
    try:
        for _ in range(rounds):
            progress.reset(limits.setup_timeout)
            expected = _expected(progress, limits, truth, expressions, indices, own)
            _answers(progress, limits, truth, expressions, indices, expected, own)
            progress.begin(P.DONE, -1, limits.setup_timeout)
            progress.append(P.DONE_RECORD, -1, False, "")
    finally:
        progress.close()
