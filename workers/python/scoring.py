"""Scores one answer: banned-string and fence rules, then one sandbox child for
all tests (a fresh child picks up after any test that crashed or hung it).
"""

from __future__ import annotations

import marshal
import math
import os
import time
# The C type itself: the collections package costs each worker's start ~1 ms.
from _collections import deque

import answers
import progress as P
import reuse

# Source this large is refused rather than compiled (the worker compiles
# outside the sandbox; see _compile).
MAX_SOURCE = 4 << 20


class _CodeCache:
    """Compiled code by source text: a task scored k times compiles its
    ground truth and test expressions once, and k samples that are the same
    answer compile it once. Code objects are immutable; children get copies."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: dict = {}

    def get(self, text: str, label: str, mode: str):
        key = (text, mode)
        hit = self._entries.get(key)
        if hit is None:
            hit = _compile(text, label, mode)
            if len(self._entries) >= self._size:
                self._entries.clear()
            self._entries[key] = hit
        return hit


def _compile(text: str, label: str, mode: str):
    """(code, None) or (None, error type name).

    Compiling here, in the worker, instead of in each child saves the child
    ~1 ms of copy-on-write faults; each child unmarshals the result (see
    zygote_main.py). compile() never runs the code; what it can
    do with hostile input is fail or take long, and the size cap bounds that.
    """
    if len(text) > MAX_SOURCE:
        return None, "MemoryError"
    try:
        return compile(text, label, mode, dont_inherit=True), None
    except BaseException as err:  # SyntaxError, ValueError (NUL bytes), RecursionError...
        return None, type(err).__name__[:80]


# The worker never forks (the zygote does), so what it caches costs children nothing.
_DEFINITIONS = _CodeCache(256)
_EXPRESSIONS = _CodeCache(4096)


class Plan:
    """A request checked and compiled, ready to run (or already decided)."""

    __slots__ = ("result", "truth", "code", "expressions", "n", "blob", "modules", "part", "reusable")

    def __init__(self) -> None:
        self.result: dict | None = None
        self.truth = self.code = None
        self.expressions: list = []
        self.n = 0
        self.blob = b""  # all the code, marshalled for the zygote
        self.modules: frozenset = frozenset()  # of LAZY_MODULES, those the code names
        self.part = False  # the tests a split left (the same answer, counted once)
        self.reusable = False  # may run in the resident child (reuse.py)


def prepare(request: dict, limits) -> Plan:
    """Everything before forking: checks, the banned-string and fence rules,
    compiling. Raises ValueError for a malformed request."""
    ground_truth = request.get("ground_truth")
    answer = request.get("answer")
    tests = request.get("tests")
    if not isinstance(ground_truth, str) or not isinstance(answer, str):
        raise ValueError("ground_truth and answer must be strings")
    if not isinstance(tests, list) or not all(
            isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and isinstance(t[1], str)
            for t in tests):
        raise ValueError("tests must be a list of [name, expression] pairs")
    if len(tests) > limits.max_tests:
        raise ValueError(f"more than {limits.max_tests} tests")
    plan = Plan()
    plan.n = len(tests)
    plan.part = request.get("part") is True
    word = answers.banned_substring(answer)
    if word is not None:
        plan.result = _result([{"passed": False, "reason": f"banned: {word}"} for _ in tests], "", 0)
        return plan
    plan.truth = _DEFINITIONS.get(ground_truth, "<code>", "exec")
    plan.code = _DEFINITIONS.get(answers.extract_code(answer), "<code>", "exec")
    get = _EXPRESSIONS.get
    plan.expressions = [get(expression, "<test>", "eval") for _, expression in tests]
    if plan.n:
        plan.blob = marshal.dumps((plan.truth, plan.code, plan.expressions))
        if REUSE:
            plan.reusable = reuse.allows((plan.truth[0], plan.code[0], *(e[0] for e in plan.expressions)))
        if LAZY_MODULES:
            found: set = set()
            for code, _ in (plan.truth, plan.code, *plan.expressions):
                if code is not None:
                    _names_in(code, found)
            plan.modules = LAZY_MODULES.intersection(found)
    return plan


# Modules the zygote may import on a request's behalf (the worker sets these:
# its DEFAULT_PRELOAD). Only these: what an answer names must not make the
# zygote (root, and every later child's parent) run any other module's code.
LAZY_MODULES: frozenset = frozenset()
# Whether requests reuse.py allows run in the zygote's resident child (the
# worker's `reuse` setting); otherwise every request gets a fresh child.
REUSE = True


class _Demand:
    """Which of LAZY_MODULES are worth the zygote importing: those named by at
    least `needed` of the last `window` requests.

    A module in the zygote makes every later fork dearer (page tables for its
    objects, five mappings per extension module: ~0.01-0.05 ms a fork, and
    `re` brings `enum` along), while a child that imports it itself pays once
    (~0.1 ms for math, ~3 ms for re, ~6 ms for typing). So a module named by
    one request in a thousand stays out of the zygote, and one that answers
    keep importing is loaded by the second request that names it."""

    def __init__(self, window: int = 100, needed: int = 2) -> None:
        self._needed = needed
        self._recent: deque = deque(maxlen=window)
        self._counts: dict = {}

    def note(self, modules: frozenset) -> frozenset:
        """Counts one request (naming `modules`); returns those in demand."""
        counts = self._counts
        if len(self._recent) == self._recent.maxlen:
            for name in self._recent[0]:
                counts[name] -= 1
        self._recent.append(modules)
        for name in modules:
            counts[name] = counts.get(name, 0) + 1
        return self.wanted(modules)

    def wanted(self, modules: frozenset) -> frozenset:
        """Those of `modules` in demand (counting nothing)."""
        return frozenset(name for name in modules if self._counts.get(name, 0) >= self._needed)


_DEMAND = _Demand()


def _names_in(code, found: set) -> None:
    # An `import x` or `from x import y` anywhere in the code names x in
    # co_names (so may an attribute: then x is merely loaded needlessly).
    found.update(code.co_names)
    for const in code.co_consts:
        if type(const) is _CODE:
            _names_in(const, found)


_CODE = type(_names_in.__code__)


def execute(plan: Plan, zygote, limits, progress: P.Progress, door=None) -> dict:
    """Runs a prepared request in sandbox children (forked by the zygote).
    `door` is the worker's input while each child runs (see zygote.run)."""
    modules = _DEMAND.wanted(plan.modules) if plan.part else _DEMAND.note(plan.modules)
    if plan.result is not None:
        return plan.result
    n = plan.n
    if n:
        zygote.load(plan.blob)
    results: list = [None] * n
    hard_deadline = time.monotonic() + limits.request_budget(n)
    output: list[str] = []
    children = 0
    pending = list(range(n))
    share = _Share(door, progress) if door is not None else None
    while pending:
        if time.monotonic() >= hard_deadline:
            for i in pending:
                results[i] = {"passed": False, "reason": "timeout"}
            break
        children += 1
        run = _run_child(zygote, limits, progress, pending, hard_deadline,
                         share.door(pending) if share else None, modules, plan.reusable)
        if share:
            for i in share.given:
                results[i] = {"passed": False, "reason": GIVEN_AWAY}
        for i, result in run.results.items():
            if results[i] is None:
                results[i] = result
        if run.output:
            output.append(run.output)
        remaining = [i for i in pending if results[i] is None]
        if run.finished or not remaining:
            for i in remaining:
                results[i] = {"passed": False, "reason": "error: no result from sandbox"}
            break
        if run.index in remaining:
            reason = "ground truth failed" if run.phase == P.GROUND_TRUTH else _cause(run)
            results[run.index] = {"passed": False, "reason": reason}
        elif run.index not in pending:
            # Died outside any test (setup, or a child that lied about its
            # progress): nothing to resume from. (Dying on a test whose
            # verdict is in, while rendering its reprs, is fine.)
            reason = f"error: {run.fatal}" if run.fatal else _cause(run)
            for i in remaining:
                results[i] = {"passed": False, "reason": reason}
            break
        pending = [i for i in remaining if results[i] is None]
    return _result(results, "".join(output), children)


# The reason a test handed to another worker carries here; the pool puts that
# worker's result in its place.
GIVEN_AWAY = "given away"


class _Share:
    """Splits a slow request once: when its child has run past the stall
    threshold, the tests it has not reached go to the pool as a request of
    their own (any idle worker takes them), and the child stops short of
    them. The child runs every ground truth first and then the answer, so the
    cut leaves both sides about the same number of calls still to make."""

    def __init__(self, door, progress: P.Progress) -> None:
        self._door = door
        self._progress = progress
        self._pending: list = []
        self._offered = False
        self.given: list = []

    def door(self, pending: list) -> "_Share":
        self._pending = pending
        return self

    # What zygote.run expects of a door.

    def fileno(self) -> int:
        return self._door.fileno()

    def meanwhile(self) -> None:
        self._door.meanwhile()

    def waiting(self) -> bool:
        return self._door.waiting()

    @property
    def stall(self):
        return self._door.stall

    def release(self) -> bool:
        if not self._offered and self._door.stall == "split":
            self._offered = True
            self._offer()
        return self._door.release()

    def _offer(self) -> None:
        phase, index, _, _ = self._progress.current_call()
        pending = self._pending
        n = len(pending)
        position = pending.index(index) if index in pending else 0
        if phase in (P.SETUP, P.GROUND_TRUTH):
            # Left here: ground truths position..cut-1 and answers 0..cut-1;
            # there: both for cut..n-1.
            cut = round((2 * n + position) / 4)
        elif phase in (P.CALL, P.COMPARE):
            cut = round((2 * n + position) / 3)
        else:
            return
        cut = max(cut, position + 1)
        if cut >= n:
            return
        self._progress.stop_at(cut)
        self.given = pending[cut:]
        self._door.give_away(self.given)


def _cause(run) -> str:
    if run.killed:
        return "timeout"
    if run.signal:
        # Imported the first time a child dies of a signal: `signal` brings
        # enum, ~3 ms of every worker's start otherwise.
        import signal
        try:
            return f"crashed: {signal.Signals(run.signal).name}"
        except ValueError:
            return f"crashed: signal {run.signal}"
    return f"crashed: exit status {run.exit_status}"


def _result(results: list, output: str, children: int) -> dict:
    passed = sum(1 for r in results if r["passed"])
    return {
        "reward": passed / len(results) if results else 0.0,
        "tests": results,
        "output": output,
        "children": children,
    }


class _Run:
    def __init__(self) -> None:
        self.results: dict = {}
        self.finished = False
        self.fatal = ""
        self.output = ""
        self.phase = P.SETUP
        self.index = -1
        self.killed = False
        self.signal = 0
        self.exit_status = 0


def _run_child(zygote, limits, progress: P.Progress, pending: list,
               hard_deadline: float, door, modules: frozenset, reusable: bool) -> _Run:
    cpu_seconds = math.ceil(hard_deadline - time.monotonic()) + 1
    # A resident child stays only while more requests wait: an idle worker
    # holds no child (and no scratch dir) between requests.
    keep = reusable and door is not None and door.waiting()
    status, killed = zygote.run(pending, cpu_seconds, hard_deadline, door, modules, reusable, keep)
    run = _Run()
    run.killed = killed
    if os.WIFSIGNALED(status):
        run.signal = os.WTERMSIG(status)
    else:
        run.exit_status = os.WEXITSTATUS(status)
    run.phase, run.index, _, _ = progress.current_call()
    _collect(run, progress, set(pending))
    return run


def _collect(run: _Run, progress: P.Progress, pending: set) -> None:
    records, _ = progress.records()
    results = run.results
    shown: dict = {}
    VERDICT, SHOWN, DONE, FATAL, FAILED = P.VERDICT, P.SHOWN, P.DONE_RECORD, P.FATAL, P.FAILED
    failed: dict = {}
    for kind, index, passed, first, second in records:
        if kind == DONE:
            run.finished = True
            run.output = first or ""
        elif kind == FATAL:
            run.fatal = (first or "")[:300]
        elif index not in pending:
            continue
        elif kind == VERDICT:
            if index not in results:
                results[index] = {"passed": passed, "reason": (first or "")[:200]}
        elif kind == FAILED:
            failed.setdefault(index, (first, second))
        elif index not in shown:
            shown[index] = (first, second)
    for index, (message, output) in failed.items():
        result = results.get(index)
        if result is None or result["passed"]:
            continue
        if message:
            result["message"] = message[:300]
        if output:
            result["output"] = output[:2000]
    for index, (expected, actual) in shown.items():
        result = results.get(index)
        if result is None:
            continue
        if expected is not None:
            result["expected"] = expected[:1000]
        if actual is not None:
            result["actual"] = actual[:1000]
