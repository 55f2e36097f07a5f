"""The zygote: the one process that forks sandbox children.

The worker talks to Node, checks and compiles requests and reads results; it
never forks. It starts the zygote once, right after its own set-up, and from
then on hands it one job per child: the compiled code (marshalled into shared
memory) and which tests to run. The zygote forks the child, enforces the
deadlines, kills whatever the child left behind and reports the wait status.

Why a separate process: fork write-protects every page of the forking
process, so each page it writes afterwards costs a fault (a copy while a child
still shares it). The worker writes hundreds of pages per request (JSON,
compiling, results); the zygote writes a few. And where the OS allows it the
zygote is pid 1 of its own pid namespace, which makes clean-up after a child a
single kill(-1) (see `Isolation.sweep`) instead of a namespace per child.

Nothing here may return into the worker's code after the fork: `start` ends
the zygote with os._exit whatever happens.
"""

from __future__ import annotations

import gc
import marshal
import mmap
import os
import select
import struct
import sys
import time

import child
import progress as P

# Room for one request's marshalled code and test list. Anonymous shared
# memory: untouched pages cost nothing.
JOB_SIZE = 64 << 20
# code bytes at 0 (0: the previous request's code again), offset and bytes of
# the pending test list, RLIMIT_CPU seconds, hard deadline (monotonic)
_REQUEST = struct.Struct("<qqqqd")
# wait status (or NO_CHILD), killed at a deadline
_REPLY = struct.Struct("<qq")
NO_CHILD = -1
WNOHANG = os.WNOHANG
# How often the zygote looks at a running child's progress: the child moves
# to shorter deadlines without waking it.
_POLL = 0.1


def _read_exact(fd: int, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


class ZygoteLost(RuntimeError):
    """The zygote died (the worker cannot score without it)."""


class Zygote:
    """Worker side: the zygote's pid and the ends of its pipes."""

    Lost = ZygoteLost

    def __init__(self, pid: int, requests: int, replies: int, jobs: mmap.mmap) -> None:
        self.pid = pid
        self._requests = requests
        self._replies = replies
        self._jobs = jobs
        self._code_len = 0
        self._fresh = False
        self.fork = ""  # how the zygote forks children, for the hello message
        self.loaded: set = set()  # modules already asked of the zygote

    def load(self, blob: bytes) -> None:
        """The code of one request, for all the children that score it; the
        zygote unmarshals it with the next run."""
        if len(blob) > JOB_SIZE // 2:
            raise ValueError(f"compiled code of {len(blob)} bytes exceeds {JOB_SIZE // 2}")
        self._jobs[:len(blob)] = blob
        self._code_len = len(blob)
        self._fresh = True

    def run(self, pending: list, cpu_seconds: int, hard_deadline: float,
            meanwhile=None, modules: frozenset = frozenset()) -> tuple[int, bool]:
        """One child for the pending tests: (wait status, killed at a deadline).
        `meanwhile()`, if given, runs while the child does (it must not touch
        the job area: the zygote may not have read it yet). The zygote imports
        those of `modules` it has not yet before it forks the child."""
        new = sorted(modules.difference(self.loaded)) if modules else []
        self.loaded.update(new)
        tail = marshal.dumps((pending, new))
        at = self._code_len
        if at + len(tail) > JOB_SIZE:
            raise ValueError("too many tests for the job area")
        self._jobs[at:at + len(tail)] = tail
        try:
            code_len = self._code_len if self._fresh else 0
            self._fresh = False
            os.write(self._requests, _REQUEST.pack(code_len, at, len(tail), cpu_seconds,
                                                   hard_deadline))
            if meanwhile is not None:
                meanwhile()
            reply = _read_exact(self._replies, _REPLY.size)
        except BrokenPipeError:
            reply = None
        if reply is None:
            raise ZygoteLost(f"the sandbox zygote (pid {self.pid}) exited")
        status, killed = _REPLY.unpack(reply)
        if status == NO_CHILD:
            raise OSError("the zygote could not fork a sandbox child")
        return status, bool(killed)

    def close(self) -> None:
        """Ends the zygote (it exits at end of input) and waits for it."""
        os.close(self._requests)
        os.close(self._replies)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def load_native(path: str | None):
    """The C fork-and-set-up of native/sandbox_fork.c, loaded (in the worker,
    before its mount namespace hides the file): (function, "") or (None, why
    not). The pool builds the library; without one, children set themselves
    up in Python."""
    if not path:
        return None, "no native library (no C compiler?)"
    try:
        import ctypes
        lib = ctypes.PyDLL(path, use_errno=True)  # PyDLL: the GIL stays held
        if lib.cb_version() != _NATIVE_VERSION:
            return None, f"{path} is not version {_NATIVE_VERSION}"
        function = lib.cb_fork_child
        function.restype = ctypes.c_long
        function.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                             ctypes.c_long, ctypes.c_long, ctypes.c_int, ctypes.c_int]
        return function, ""
    except (OSError, AttributeError) as err:
        return None, f"{type(err).__name__}: {err}"


_NATIVE_VERSION = 1
# cb_fork_child's flags and the steps it reports failing (sandbox_fork.c).
_SETSID, _PDEATHSIG = 1, 2
_STEPS = ("", "setsid", "joining the cgroups", "closing fds", "chdir to the scratch dir",
          "RLIMIT_CPU", "setresgid", "setresuid", "PR_SET_PDEATHSIG", "making the cwds")


def native_failure(code: int) -> str:
    """What cb_fork_child's negative result in a child means."""
    step, err = divmod(-code, 1000)
    name = _STEPS[step] if 0 < step < len(_STEPS) else f"step {step}"
    return f"sandbox set-up failed ({name}): {os.strerror(err)}"


def start(iso, progress: P.Progress, limits, at_fork: list, native=None,
          native_note: str = "") -> Zygote:
    """Forks the zygote; in the worker, returns its handle. `at_fork` lists
    the hooks modules registered with os.register_at_fork; `native` and
    `native_note` are what load_native returned."""
    forker = _Forker(at_fork, native, native_note)
    jobs = mmap.mmap(-1, JOB_SIZE)
    requests_r, requests_w = os.pipe()
    replies_r, replies_w = os.pipe()
    pid = iso.fork_zygote()
    if pid == 0:
        code = 3
        try:
            os.close(requests_w)
            os.close(replies_r)
            iso.enter_zygote()
            forker.bind(iso)
            child.install_stdio()
            # Children do not inherit the job area: the zygote unmarshals
            # their code before it forks, and they have no business reading
            # what other requests left there.
            if hasattr(mmap, "MADV_DONTFORK"):
                jobs.madvise(mmap.MADV_DONTFORK)
            code = _serve(iso, progress, limits, jobs, requests_r, replies_w, forker)
        finally:
            os._exit(code)
    os.close(requests_r)
    os.close(replies_w)
    zygote = Zygote(pid, requests_w, replies_r, jobs)
    zygote.fork = forker.describe()
    return zygote


class _Forker:
    """How the zygote forks: fork(2) without CPython's fork machinery where
    that is safe, else os.fork().

    os.fork() makes the interpreter's locks anew in the child and runs the
    Python-level hooks modules registered: random's reseeds the generator
    through Random.seed, Python code each child runs for the first time. That
    costs every child ~0.15 ms here. The zygote is single-threaded and holds
    no lock when it forks, so the locks need nothing; reseeding the generator
    from the OS in the zygote right before each fork gives every child a fresh
    state of its own just the same. The hooks stay registered, so forks made
    by answer code still run them. Any other hook, a second thread or no
    ctypes: os.fork, for good.

    Where the C library loaded (`native`), it forks and sets the child up
    (uid, limits, fds, cgroups, cwd) before returning into Python in it: the
    same steps as Isolation.enter_child, without the copy-on-write faults
    Python code makes doing them."""

    def __init__(self, at_fork: list, native=None, native_note: str = "") -> None:
        self._libc_fork = None
        self._native = None
        self._native_note = native_note
        self._native_args: tuple = ()
        self._inst = None
        self._reseed = None
        if not self._hooks_known(at_fork) or not self._one_thread():
            return
        try:
            import ctypes
            libc = ctypes.PyDLL(None, use_errno=True)  # PyDLL: the GIL stays held
            libc_fork = libc.fork
            libc_fork.restype = ctypes.c_int
            libc_fork.argtypes = []
            self._get_errno = ctypes.get_errno
        except (OSError, ImportError, AttributeError):
            return
        self._libc_fork = libc_fork
        self._native = native

    @property
    def sets_up_children(self) -> bool:
        """Whether `child()` returns into a child already set up."""
        return self._native is not None and self._libc_fork is not None

    def bind(self, iso) -> None:
        """In the zygote, once enter_zygote has run: what the C set-up needs."""
        if self._native is None:
            return
        import ctypes
        fds = list(iso.cgroup_fds)
        flags = 0 if iso.zygote_init else (_SETSID | _PDEATHSIG)
        self._native_args = ((ctypes.c_int * max(1, len(fds)))(*fds), len(fds),
                             -1 if iso.uid is None else iso.uid, iso._fd_limit, flags)
        self._scratch = ("", b"")
        self._zygote = os.getpid()

    def _hooks_known(self, at_fork: list) -> bool:
        random = sys.modules.get("random")
        self._inst = getattr(random, "_inst", None)
        if self._inst is not None:
            import _random
            self._reseed = _random.Random.seed
        return all(self._inst is not None and hooks == {"after_in_child": self._inst.seed}
                   for hooks in at_fork)

    @staticmethod
    def _one_thread() -> bool:
        try:
            with open("/proc/self/status", encoding="ascii") as handle:
                return [line for line in handle if line.startswith("Threads:")] == ["Threads:\t1\n"]
        except OSError:
            return False

    def describe(self) -> str:
        if self._libc_fork is None:
            return "os.fork"
        how = "fork(2) without CPython's fork hooks (random reseeded before each)"
        if self._native is not None:
            return how + "; child set-up in C (native/sandbox_fork.c)"
        return how + f"; child set-up in Python ({self._native_note or 'C library not usable here'})"

    def child(self, iso, cpu_seconds: int) -> int:
        """Forks a sandbox child. In the zygote: its pid (OSError if fork
        failed). In the child: 0, or, where the C set-up ran and a step of it
        failed, that step's negative code (see native_failure)."""
        if self._libc_fork is None:
            return os.fork()
        if self._inst is not None:
            self._reseed(self._inst)  # what Random.seed() does with no seed: from os.urandom
            self._inst.gauss_next = None
        if self._native is None:
            pid = self._libc_fork()
            if pid < 0:
                err = self._get_errno()
                raise OSError(err, os.strerror(err))
            return pid
        if self._scratch[0] != iso.scratch:
            self._scratch = (iso.scratch, os.fsencode(iso.scratch))
        fds, count, uid, fd_limit, flags = self._native_args
        pid = self._native(self._scratch[1], fds, count, cpu_seconds, uid, fd_limit, flags)
        if pid < 0 and os.getpid() == self._zygote:
            raise OSError(-pid, os.strerror(-pid))
        return pid

    def load(self, names: list) -> None:
        """In the zygote: imports modules on the worker's behalf (names it
        allows), watching which fork hooks they register."""
        registered: list = []
        register = os.register_at_fork

        def recording(**hooks) -> None:
            registered.append(hooks)
            register(**hooks)

        os.register_at_fork = recording
        try:
            for name in names:
                try:
                    __import__(name)
                except Exception:
                    pass  # the child will fail the same way where it imports it
        finally:
            os.register_at_fork = register
        if self._libc_fork is not None and not (self._hooks_known(registered) and self._one_thread()):
            self._libc_fork = None
        # What the import left is the children's starting point: freeze it too.
        gc.collect()
        gc.freeze()


def _serve(iso, progress: P.Progress, limits, jobs: mmap.mmap, requests: int, replies: int,
           fork: _Forker) -> int:
    # Every page the zygote writes after a fork costs it a fault (a copy while
    # the child still shares it), so this loop allocates little and touches
    # few objects; in particular it waits for a child without looking at its
    # progress first: no deadline can fall due within `first_wait` of its fork.
    read, write, waitpid, pidfd_open, close = (
        os.read, os.write, os.waitpid, os.pidfd_open, os.close)
    wait_readable, loads, unpack, pack, reset = (
        select.select, marshal.loads, _REQUEST.unpack, _REPLY.pack, progress.reset)
    make_scratch, remove_scratch, sweep = iso.make_scratch, iso.remove_scratch, iso.sweep
    run_child, fresh_sink = child.run, child.fresh_sink
    fork_child = fork.child
    setup_timeout = limits.setup_timeout
    first_wait = max(0.0, min(_POLL, limits.grace + min(
        limits.setup_timeout, limits.ground_truth_timeout, limits.call_timeout,
        limits.compare_timeout)))
    view = memoryview(jobs)
    code = None
    size = _REQUEST.size
    while True:
        head = read(requests, size)
        if len(head) < size:
            rest = _read_exact(requests, size - len(head)) if head else None
            if rest is None:
                return 0  # the worker is done (or gone)
            head += rest
        code_len, at, length, cpu_seconds, hard_deadline = unpack(head)
        try:
            if code_len:
                code = None
                code = loads(view[:code_len])
            pending, modules = loads(view[at:at + length])
            if modules:
                fork.load(modules)
            scratch = make_scratch()
        except Exception:
            write(replies, pack(NO_CHILD, 0))
            continue
        status, killed = NO_CHILD, 0
        try:
            reset(setup_timeout)
            fresh_sink(limits)
            pid = fork_child(iso, cpu_seconds)
            if pid <= 0:  # in the child (the zygote gets a pid or OSError)
                run_child(iso, progress, limits, code, pending, cpu_seconds,
                          fork.sets_up_children, pid)
            try:
                pidfd = pidfd_open(pid)
                try:
                    wait_readable((pidfd,), (), (), first_wait)
                finally:
                    close(pidfd)
                done, status = waitpid(pid, WNOHANG)
                if not done:
                    status, killed = _supervise(iso, pid, progress, limits, hard_deadline)
            finally:
                sweep(pid)
        except OSError:
            pass
        finally:
            remove_scratch(scratch)
        write(replies, pack(status, killed))


def _supervise(iso, pid: int, progress: P.Progress, limits, hard_deadline: float) -> tuple[int, bool]:
    """Wait for a child that is still running; kill it when its current call
    or the whole request runs past its deadline. Returns (wait status, killed)."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = -1
    try:
        pause = 0.0005
        while True:
            _, _, started, limit = progress.current_call()
            now = time.monotonic()
            deadline = min(hard_deadline, started + limit + limits.grace)
            if now >= deadline:
                iso.kill_tree(pid)
                return os.waitpid(pid, 0)[1], True
            wait = min(deadline - now, _POLL)
            if pidfd >= 0:
                select.select([pidfd], [], [], wait)
            else:
                time.sleep(min(pause, wait))
                pause = min(pause * 2, 0.01)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status, False
    finally:
        if pidfd >= 0:
            os.close(pidfd)
