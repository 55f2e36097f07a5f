"""The worker's side of the zygote: starting it and handing it jobs.

The zygote (zygote_main.py) is the one process that forks sandbox children.
The worker talks to Node, checks and compiles requests and reads results; it
never forks a child. It starts the zygote once, after isolation is set up,
and from then on hands it one job per child: the compiled code (marshalled
into shared memory) and which tests to run. The zygote forks the child,
enforces the deadlines, kills whatever the child left behind and reports the
wait status.

Why a program of its own, exec'd rather than forked from the worker: a fork
copies the page tables of everything the forking process holds, and a child
then runs with them; the worker holds its protocol, JSON, compiling, ctypes
and all its set-up. A fresh interpreter that holds only what children need
(the modules bundled below, nothing from site) makes each child ~20% cheaper
and each fork cheaper too. The zygote's code comes from the worker as
marshalled code objects in a memfd, since the worker's dir is hidden by the
mount namespace by then.
"""

from __future__ import annotations

import marshal
import mmap
import os
import select
import sys
from importlib.machinery import SourceFileLoader

import progress as P
import reuse
from zygote_main import NO_CHILD, READY_LENGTH, REPLY, REQUEST, read_exact

# A child still running after this long (seconds) is slow: the worker then
# hands the requests waiting behind it back to the pool (see Zygote.run).
STALL_AFTER = 0.03
# Room for one request's marshalled code and test list. Shared memory:
# untouched pages cost nothing.
JOB_SIZE = 64 << 20
# The zygote's modules, in the order they are run there.
BUNDLE = ("limits", "progress", "child", "sandbox", "zygote_main")
# Run by the fresh interpreter: load the bundled modules from the memfd, then
# hand over to zygote_main. argv: memfd, nothing else.
_BOOT = """\
import marshal, os, sys
fd = int(sys.argv[1])
bundle = marshal.loads(os.pread(fd, os.fstat(fd).st_size, 0))
os.close(fd)
sys.path[:] = bundle["settings"]["path"]  # not -c's "" (the cwd) first
for name, path, code in bundle["modules"]:
    module = type(sys)(name)
    module.__file__ = path
    sys.modules[name] = module
    exec(code, module.__dict__)
sys.modules["zygote_main"].main(bundle["settings"])
"""


def read_sources(directory: str) -> list:
    """The bundle's code, read while the worker's dir is still in view: from
    the import system's bytecode cache where it is current (the worker has
    imported every one of these modules already), else compiled from source.
    Compiling all five cost each worker start ~6 ms."""
    sources = []
    for name in BUNDLE:
        path = os.path.join(directory, name + ".py")
        sources.append((name, path, SourceFileLoader(name, path).get_code(name)))
    return sources


class ZygoteLost(RuntimeError):
    """The zygote died (the worker cannot score without it)."""


class Zygote:
    """Worker side: the zygote's pid and the ends of its pipes."""

    Lost = ZygoteLost

    def __init__(self, pid: int, requests: int, replies: int, jobs: mmap.mmap,
                 progress: P.Progress) -> None:
        self.pid = pid
        self._requests = requests
        self._replies = replies
        self._jobs = jobs
        self.progress = progress  # the worker's view of the children's records
        self._code_len = 0
        self._fresh = False
        self.fork = ""  # how the zygote forks children, for the hello message
        self.preloaded: dict = {}  # module -> version, imported before any child
        self.loaded: set = set()  # modules already asked of the zygote

    def load(self, blob: bytes) -> None:
        """The code of one request, for all the children that score it; the
        zygote copies it out with the next run, and each child unmarshals it."""
        if len(blob) > JOB_SIZE // 2:
            raise ValueError(f"compiled code of {len(blob)} bytes exceeds {JOB_SIZE // 2}")
        self._jobs[:len(blob)] = blob
        self._code_len = len(blob)
        self._fresh = True

    def run(self, pending: list, cpu_seconds: int, hard_deadline: float,
            door=None, modules: frozenset = frozenset(), reusable: bool = False,
            keep: bool = False) -> tuple[int, bool]:
        """One child for the pending tests: (wait status, killed at a deadline).
        `door`, if given, is the worker's input while the child runs (see
        worker.Door): `door.meanwhile()` runs once the child is under way (it
        must not touch the job area: the zygote may not have read it yet), and
        `door.release()` whenever the child is slow and requests wait. The
        zygote imports those of `modules` it has not yet before it forks.
        `reusable`: the request may run in the resident child (see reuse.py),
        which stays for the next one if `keep` (more requests are waiting)."""
        new = sorted(modules.difference(self.loaded)) if modules else []
        self.loaded.update(new)
        tail = marshal.dumps((pending, new, reusable, keep))
        at = self._code_len
        if at + len(tail) > JOB_SIZE:
            raise ValueError("too many tests for the job area")
        self._jobs[at:at + len(tail)] = tail
        try:
            code_len = self._code_len if self._fresh else 0
            self._fresh = False
            os.write(self._requests, REQUEST.pack(code_len, at, len(tail), cpu_seconds,
                                                  hard_deadline))
            if door is not None:
                door.meanwhile()
                if door.stall:
                    self._await_reply(door)
            reply = read_exact(self._replies, REPLY.size)
        except BrokenPipeError:
            reply = None
        if reply is None:
            raise ZygoteLost(f"the sandbox zygote (pid {self.pid}) exited")
        status, killed = REPLY.unpack(reply)
        if status == NO_CHILD:
            raise OSError("the zygote could not fork a sandbox child")
        return status, bool(killed)

    def _await_reply(self, door) -> None:
        # Requests queued here wait for this child; most children take a
        # millisecond, but one that takes seconds would hold them while other
        # workers sit idle. Past STALL_AFTER, what waits goes back to the pool,
        # and so does whatever arrives until the child is done.
        if select.select([self._replies], [], [], STALL_AFTER)[0]:
            return
        watching = door.release()
        while True:
            ready = select.select([self._replies, door] if watching else [self._replies], [], [])[0]
            if self._replies in ready:
                return
            watching = door.release()

    def close(self) -> None:
        """Ends the zygote (it exits at end of input) and waits for it."""
        os.close(self._requests)
        os.close(self._replies)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def start(iso, limits, sources: list, preload: list, lazy: frozenset, path: list) -> Zygote:
    """Starts the zygote (see the module doc); returns its handle once it is
    ready to fork children. `preload`: modules it imports before any child;
    `lazy`: the only ones it may import later, when the worker asks;
    `path`: its sys.path."""
    jobs_fd = P.shared_memory(JOB_SIZE, "colbench-jobs")
    progress_fd = P.shared_memory(P.SIZE, "colbench-progress")
    jobs = mmap.mmap(jobs_fd, JOB_SIZE)
    progress = P.Progress(progress_fd)
    requests_r, requests_w = os.pipe()
    replies_r, replies_w = os.pipe()
    bundle_fd = os.memfd_create("colbench-zygote", 0)
    settings = {
        "limits": limits.as_dict(),
        "confinement": iso.confinement_settings(),
        "requests": requests_r,
        "replies": replies_w,
        "jobs": jobs_fd,
        "job_size": JOB_SIZE,
        "progress": progress_fd,
        "preload": list(preload),
        "lazy": sorted(lazy),
        "path": list(path),
        # What a resident child checks it still holds after each request.
        "watched": sorted(reuse.ALLOWED),
    }
    os.write(bundle_fd, marshal.dumps({"modules": sources, "settings": settings}))
    inherited = [requests_r, replies_w, jobs_fd, progress_fd, bundle_fd]
    pid = iso.fork_zygote()
    if pid == 0:
        try:
            os.close(requests_w)
            os.close(replies_r)
            iso.prepare_zygote()
            for fd in inherited:
                os.set_inheritable(fd, True)
            # -S: nothing from site; -E: no PYTHON* variables; -B: nothing written.
            os.execv(sys.executable, [sys.executable, "-S", "-E", "-B", "-c", _BOOT, str(bundle_fd)])
        finally:
            os._exit(3)
    for fd in (requests_r, replies_w, jobs_fd, progress_fd, bundle_fd):
        os.close(fd)
    zygote = Zygote(pid, requests_w, replies_r, jobs, progress)
    # Into the children's cgroups before its first fork, so that every child is
    # born in them. Done from here while the zygote boots: a cgroup v1 move
    # waits ~5-8 ms for an RCU grace period, and the zygote uses the core
    # meanwhile (when it moved itself at the end of its start, that wait was
    # start-up time). Its own few MiB then count against the children's limit.
    try:
        iso.move_into_cgroups(pid)
    except OSError as err:
        zygote.close()
        raise RuntimeError(f"the sandbox zygote could not join the children's cgroups: {err}") from err
    # The zygote says it is ready (or why it is not) in one marshalled record.
    head = read_exact(replies_r, READY_LENGTH.size)
    body = read_exact(replies_r, READY_LENGTH.unpack(head)[0]) if head else None
    ready = marshal.loads(body) if body else {"error": "exited while starting"}
    if "error" in ready:
        zygote.close()
        raise RuntimeError(f"the sandbox zygote failed to start: {ready['error']}")
    zygote.fork = ready["fork"]
    zygote.preloaded = ready["preloaded"]
    return zygote
