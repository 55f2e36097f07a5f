"""The zygote: the one process that forks sandbox children.

A fresh interpreter the worker execs (see zygote.py), holding only the
modules children need and whatever the worker asks it to import ahead. Its
loop: read a job header, copy the job's marshalled code out of shared memory,
fork a child (which unmarshals it), wait for it (killing it at its deadlines),
kill and reap whatever it left, report the wait status.

Every page the zygote writes after a fork costs it a fault, and every object
it holds costs each fork its page tables, so it allocates little, imports
nothing it does not need (no json, no ctypes: settings come marshalled) and
never returns into the loop in a child.
"""

from __future__ import annotations

import gc
import marshal
import mmap
import os
import struct
import time

# The C module (the zygote's own import of `signal` would bring enum).
import _signal

import child
import progress as P
import sandbox
from limits import Limits

# The job header the worker sends (zygote.py uses these too): code bytes at 0
# (0: the previous request's code again), offset and bytes of the pending test
# list, RLIMIT_CPU seconds, hard deadline (monotonic). The reply: wait status
# (or NO_CHILD), killed at a deadline.
REQUEST = struct.Struct("<qqqqd")
REPLY = struct.Struct("<qq")
NO_CHILD = -1
# Length of the one record the zygote sends at start (marshalled, see main).
READY_LENGTH = struct.Struct("<I")
WNOHANG = os.WNOHANG
# How often the zygote looks at a running child's progress: the child moves
# to shorter deadlines without waking it.
_POLL = 0.1


def read_exact(fd: int, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _send(fd: int, record: dict) -> None:
    data = marshal.dumps(record)
    os.write(fd, READY_LENGTH.pack(len(data)) + data)


class _Modules:
    """Imports on the worker's behalf: at start (`preload`) and later, when
    the worker asks, but only names on the `lazy` list: what an answer names
    must not make the zygote (root, and the parent of every later child) run
    any other module's code."""

    def __init__(self, lazy: list) -> None:
        self._lazy = frozenset(lazy)

    @staticmethod
    def preload(names: list) -> dict:
        loaded = {}
        for name in names:
            try:
                module = __import__(name)
            except Exception:
                continue
            loaded[name] = str(getattr(module, "__version__", ""))
        return loaded

    def load(self, names: list) -> None:
        for name in names:
            if name in self._lazy:
                try:
                    __import__(name)
                except Exception:
                    pass  # the child will fail the same way where it imports it
        # What the import left is the children's starting point: freeze it too.
        gc.collect()
        gc.freeze()


def main(settings: dict) -> None:
    """Entry point (from zygote.py's boot code); never returns."""
    replies = settings["replies"]
    code = 3
    try:
        limits = Limits(**settings["limits"])
        box = sandbox.Confinement(settings["confinement"])
        box.resident_cpu = int(limits.request_budget(limits.max_tests)) + 1
        progress = P.Progress(settings["progress"])
        jobs = mmap.mmap(settings["jobs"], settings["job_size"])
        for fd in (settings["progress"], settings["jobs"]):
            os.close(fd)
        # Children do not inherit the job area: the zygote copies their code
        # out before it forks, and they have no business reading what other
        # requests left there.
        if hasattr(mmap, "MADV_DONTFORK"):
            jobs.madvise(mmap.MADV_DONTFORK)
        modules = _Modules(settings["lazy"])
        preloaded = modules.preload(settings["preload"])
        child.prepare(limits)
        child.warm_up(limits)
        child.install_stdio()
        # Objects that exist now are never collected in a child; freezing
        # them keeps the collector from touching (and copying) their pages.
        gc.collect()
        gc.freeze()
        # Children get the mask back first thing (sandbox.Confinement.enter_child).
        box.child_mask = _signal.pthread_sigmask(_signal.SIG_BLOCK, (_signal.SIGCHLD,))
        how = "os.fork from a fresh interpreter holding only the sandbox's modules"
        _send(replies, {"fork": how + (" (pid 1 of its namespace)" if box.zygote_init else ""),
                        "preloaded": preloaded})
    except BaseException as err:
        try:
            _send(replies, {"error": f"{type(err).__name__}: {err}"[:500]})
        finally:
            os._exit(code)
    try:
        code = _serve(box, progress, limits, jobs, settings["requests"], replies, modules,
                      tuple(settings["watched"]))
    finally:
        os._exit(code)


def _serve(box: sandbox.Confinement, progress: P.Progress, limits, jobs: mmap.mmap,
           requests: int, replies: int, modules: _Modules, watched: tuple) -> int:
    # Every page the zygote writes after a fork costs it a fault (a copy while
    # the child still shares it), so this loop allocates little and touches
    # few objects; in particular it waits for a child without looking at its
    # progress first: no deadline can fall due within `first_wait` of its fork.
    read, write, waitpid, fork = os.read, os.write, os.waitpid, os.fork
    # The child's exit is awaited as a signal: SIGCHLD stays blocked here and
    # sigtimedwait takes it (one call, where a pidfd cost open, poll and close,
    # and the `select` module's five mappings cost every fork).
    wait_child, chld = _signal.sigtimedwait, (_signal.SIGCHLD,)
    loads, unpack, pack, reset = marshal.loads, REQUEST.unpack, REPLY.pack, progress.reset
    make_scratch, remove_scratch, sweep = box.make_scratch, box.remove_scratch, box.sweep
    run_child, serve_child, fresh_sink = child.run, child.serve, child.fresh_sink
    # The usual case spelled out here, with the box's methods as the fallback:
    # every method call and raised exception after a fork is more of the
    # zygote's pages written (and so copied or faulted in) again.
    quick = box.zygote_init and box.quick_scratch
    mkdir, chown, rmdir, kill = os.mkdir, os.chown, os.rmdir, os.kill
    uid, SIGKILL, SIGCONT = box.uid, _signal.SIGKILL, _signal.SIGCONT
    stopped, WAIT = os.WIFSTOPPED, os.WNOHANG | os.WUNTRACED
    mail_pack, MAIL_DATA = child.MAIL.pack_into, child.MAIL_DATA
    setup_timeout = limits.setup_timeout
    first_wait = max(0.0, min(_POLL, limits.grace + min(
        limits.setup_timeout, limits.ground_truth_timeout, limits.call_timeout,
        limits.compare_timeout)))
    view = memoryview(jobs)
    code = None
    size = REQUEST.size
    # The resident child (child.serve), stopped between requests, and the
    # mailbox only it and the zygote map; reusable requests go to it (see
    # reuse.py). Only with the pid namespace: its kill(-1) sweep is what ends
    # it before any other child is forked.
    resident = 0
    mailbox = None
    while True:
        head = read(requests, size)
        if len(head) < size:
            rest = read_exact(requests, size - len(head)) if head else None
            if rest is None:
                return 0  # the worker is done (or gone)
            head += rest
        code_len, at, length, cpu_seconds, hard_deadline = unpack(head)
        try:
            if code_len:
                # Bytes, unmarshalled by each child: a tree of code objects
                # made here would be freed here again after the child (names
                # interned and dropped from the interpreter's table), ~30
                # pages written after every fork; the child makes ~13 more.
                code = None
                code = view[:code_len].tobytes()
            pending, names, reusable, keep = loads(view[at:at + length])
            reusable = reusable and quick
            if resident and not reusable:
                # Another kind of request: the resident child goes first (with
                # its scratch dir), so that no answer ever shares a namespace,
                # a uid's processes or a scratch dir with it.
                resident = 0
                _retire(box, mailbox)
                mailbox = None
            if names:
                modules.load(names)
            if resident:
                scratch = box.scratch
            elif quick:
                scratch = box.scratch
                try:
                    mkdir(scratch, 0o700)
                    if uid is not None:
                        chown(scratch, uid, uid)
                except OSError:
                    scratch = make_scratch()
            else:
                scratch = make_scratch()
        except Exception:
            write(replies, pack(NO_CHILD, 0))
            continue
        status, killed = NO_CHILD, 0
        pid = 0
        try:
            reset(setup_timeout)
            if resident:
                pid = resident
                resident = 0  # until it stops again
                mail_pack(mailbox, 0, code_len, length, cpu_seconds)
                if code_len:
                    mailbox[MAIL_DATA:MAIL_DATA + code_len] = view[:code_len]
                mailbox[MAIL_DATA + code_len:MAIL_DATA + code_len + length] = view[at:at + length]
                kill(pid, SIGCONT)
            else:
                fresh_sink(limits)
                keep = reusable and keep  # a lone request gets a plain child
                if keep:
                    mailbox = mmap.mmap(-1, len(jobs))
                pid = fork()
                if pid == 0:
                    if keep:
                        serve_child(box, progress, limits, mailbox, code, pending, cpu_seconds, watched)
                    run_child(box, progress, limits, code, pending, cpu_seconds)
            wait_child(chld, first_wait)
            done, status = waitpid(pid, WAIT)
            if not done:
                status, killed = _supervise(box, pid, progress, limits, hard_deadline)
            if stopped(status):
                resident, status = pid, 0
        except OSError:
            if not pid:
                # No child (the fork failed): its scratch dir and mailbox go.
                if mailbox is not None:
                    mailbox.close()
                    mailbox = None
                remove_scratch(scratch)
        finally:
            if not resident and pid:
                if mailbox is not None:
                    mailbox.close()
                    mailbox = None
                if quick:
                    # As sweep(): whatever the child left in the namespace.
                    try:
                        kill(-1, SIGKILL)
                    except ProcessLookupError:
                        pass
                    else:
                        sweep(pid)
                    try:
                        rmdir(box.scratch_truth)
                        rmdir(box.scratch_answer)
                        rmdir(scratch)
                    except OSError:
                        remove_scratch(scratch)
                else:
                    sweep(pid)
                    remove_scratch(scratch)
        write(replies, pack(status, killed))


def _retire(box: sandbox.Confinement, mailbox) -> None:
    """Ends the stopped resident child (and anything else in the namespace)
    and removes its scratch dir."""
    box.sweep(0)
    if mailbox is not None:
        mailbox.close()
    box.remove_scratch(box.scratch)


def _supervise(box: sandbox.Confinement, pid: int, progress: P.Progress, limits,
               hard_deadline: float) -> tuple[int, bool]:
    """Wait for a child that is still running; kill it when its current call
    or the whole request runs past its deadline. Returns (wait status, killed)."""
    while True:
        _, _, started, limit = progress.current_call()
        now = time.monotonic()
        deadline = min(hard_deadline, started + limit + limits.grace)
        if now >= deadline:
            box.kill_tree(pid)
            return os.waitpid(pid, 0)[1], True
        # Wakes at the child's exit (or any other child's: then it looks again).
        _signal.sigtimedwait((_signal.SIGCHLD,), min(deadline - now, _POLL))
        # (A resident child stopping after its request counts as done.)
        done, status = os.waitpid(pid, os.WNOHANG | os.WUNTRACED)
        if done:
            return status, False
