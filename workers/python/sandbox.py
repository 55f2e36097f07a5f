"""The zygote's share of isolation: a fresh scratch dir for each child, the
child's own set-up right after fork, and the clean-up once it has ended.

The worker sets isolation up (isolation.py: namespaces, cgroups, limits, the
private uid) and hands the zygote what it needs of it as plain settings
(`Isolation.confinement_settings`). The zygote runs in a fresh interpreter
that holds as little as possible, since every fork copies the page tables of
all it holds: so nothing here imports ctypes (see zygote_main.py).
"""

from __future__ import annotations

import os
import resource

import _signal as signal

_WALL = 0x40000000  # waitpid: children of any kind (clone()d ones too)
PR_SET_PDEATHSIG = 1


class Confinement:
    def __init__(self, settings: dict) -> None:
        self.uid: int | None = settings["uid"]
        # pid 1 of its own pid namespace, which every child is born into.
        self.zygote_init = bool(settings["pidns"]) and os.getpid() == 1
        self.scratch_root: str = settings["scratch_root"]
        self._own_scratch_root = bool(settings["own_scratch_root"])
        self._fd_limit: int = settings["fd_limit"]
        # A resident child's CPU seconds over its whole life (RLIMIT_CPU hard).
        # (Set by the zygote from its limits.)
        self.resident_cpu = 0
        self._scratch_count = 0
        # The scratch root is a private tmpfs (the mount namespace's): the
        # zygote's loop makes and removes scratch dirs itself (see _serve).
        self.quick_scratch = not self._own_scratch_root
        # The signal mask children start with (the zygote blocks SIGCHLD, see zygote_main).
        self.child_mask: set = set()
        self._set_scratch(os.path.join(self.scratch_root, "s"))

    def _set_scratch(self, path: str) -> None:
        # The one scratch dir (see make_scratch) and the two cwds in it.
        self.scratch = path
        self.scratch_truth = os.path.join(path, "ground_truth")
        self.scratch_answer = os.path.join(path, "answer")

    def kill_tree(self, pid: int) -> None:
        """Kill a child and everything it started."""
        try:
            if self.zygote_init:
                # From pid 1: every process in the namespace but ourselves.
                os.kill(-1, signal.SIGKILL)
            else:
                os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def sweep(self, pid: int) -> None:
        """After the child is reaped: make sure nothing it started survives."""
        if self.zygote_init:
            # The child is gone; whatever it started is still in our namespace
            # (orphans are re-parented to us, its init). kill(-1) reaches all of
            # them, and a process forking meanwhile either gets its child in
            # before the kill (and the child is killed too) or has the kill
            # pending and its fork fails. Then reap until we have no children:
            # every process in the namespace descends from us, so none is left.
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                return  # no process at all (a zombie counts) but us: nothing to reap
            while True:
                try:
                    os.waitpid(-1, _WALL)
                except ChildProcessError:
                    return
                except InterruptedError:
                    continue
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.uid is not None:
            # setsid() escapes the process group but not the uid: kill
            # everything the child's uid owns from a process that has it.
            reaper = os.fork()
            if reaper == 0:
                try:
                    os.setresuid(self.uid, self.uid, self.uid)
                    os.kill(-1, signal.SIGKILL)
                finally:
                    os._exit(0)
            os.waitpid(reaper, 0)
        # Reap what has died of it (re-parented to us, the subreaper).
        while True:
            try:
                if os.waitpid(-1, _WALL | os.WNOHANG)[0] == 0:
                    return
            except ChildProcessError:
                return
            except InterruptedError:
                continue

    def enter_child(self, cpu_seconds: int, resident: bool = False) -> None:
        """In the child, right after fork. Kept to the few steps that must
        happen there: every object touched costs the child copy-on-write page
        faults. fds 0-2 are already /dev/null (the zygote's own). A resident
        child (see child.serve) gets `cpu_seconds` as its soft CPU limit and
        sets it anew for each later request, below a hard limit that bounds
        its whole life."""
        signal.pthread_sigmask(signal.SIG_SETMASK, self.child_mask)
        if not self.zygote_init:
            os.setsid()  # the process-group kill needs a group of our own
        # Nothing the zygote holds open (its pipes to the worker above all)
        # may be reachable from answer code.
        os.closerange(3, self._fd_limit)
        os.chdir(self.scratch)
        resource.setrlimit(resource.RLIMIT_CPU,
                           (cpu_seconds, self.resident_cpu if resident else cpu_seconds))
        if self.uid is not None:
            # (The zygote already dropped supplementary groups.)
            os.setresgid(self.uid, self.uid, self.uid)
            os.setresuid(self.uid, self.uid, self.uid)
        if not self.zygote_init:
            # After the uid change, which clears it: if the zygote dies, so
            # does the child. (Without a pid namespace nothing else does it;
            # only then is ctypes loaded, in the child.)
            import ctypes
            if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")

    def make_scratch(self) -> str:
        """A fresh, empty dir for the next child, owned by the child's uid; the
        same path every time (made anew after the last one was removed). The
        child makes its ground_truth/ and answer/ subdirs itself (after
        dropping root)."""
        path = self.scratch
        if self._own_scratch_root:
            # Without a private tmpfs a child of the same user could have
            # planted this name; the worker's own tmpfs is closed to them.
            self._wipe_scratch_root()
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            # The last child left something remove_scratch could not delete
            # (without root, a dir it made unreadable): carry on under a new name.
            self._wipe_scratch_root()
            self._scratch_count += 1
            self._set_scratch(os.path.join(self.scratch_root, f"s{self._scratch_count}"))
            path = self.scratch
            os.mkdir(path, 0o700)
        if self.uid is not None:
            os.chown(path, self.uid, self.uid)
        return path

    def remove_scratch(self, path: str) -> None:
        for sub in (self.scratch_truth, self.scratch_answer, path):
            try:
                os.rmdir(sub)
            except FileNotFoundError:
                pass
            except OSError:
                # Not empty: the child left files (rare), take the slow path.
                remove_tree(path)
                return

    def _wipe_scratch_root(self) -> None:
        for entry in os.listdir(self.scratch_root):
            remove_tree(os.path.join(self.scratch_root, entry))


def remove_tree(root: str) -> None:
    """Deletes root and what is in it, as far as it can, never following a
    symlink (an answer may plant them). Not shutil.rmtree: importing shutil
    loads zlib, bz2 and lzma into the zygote, and every later fork pays for
    their mappings; and it gives up past ~1000 levels. This walks down and
    back up through dir fds, one open at a time (RLIMIT_NOFILE is low here),
    so a child's deeply nested dirs (paths past PATH_MAX) go too."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        fd = os.open(root, flags)
    except OSError:
        try:
            os.unlink(root)  # a file or a symlink
        except OSError:
            pass
        return
    names: list = []  # the path from root down to fd, one name per level
    stuck: list = [set()]  # per level: entries that would not go
    while True:
        below = None
        try:
            with os.scandir(fd) as entries:
                for entry in entries:
                    if entry.name in stuck[-1]:
                        continue
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            below = entry.name
                            break
                        os.unlink(entry.name, dir_fd=fd)
                    except OSError:
                        stuck[-1].add(entry.name)
        except OSError:
            pass
        if below is not None:
            try:
                child = os.open(below, flags, dir_fd=fd)
            except OSError:
                stuck[-1].add(below)
                continue
            os.close(fd)
            fd = child
            names.append(below)
            stuck.append(set())
            continue
        if not names:
            break
        # Done with this level: up one (".." is the real parent; every process
        # that could have moved things is dead), and remove it there.
        try:
            parent = os.open("..", flags, dir_fd=fd)
        except OSError:
            break
        os.close(fd)
        fd = parent
        name = names.pop()
        stuck.pop()
        try:
            os.rmdir(name, dir_fd=fd)
        except OSError:
            stuck[-1].add(name)
    os.close(fd)
    try:
        os.rmdir(root)
    except OSError:
        pass
