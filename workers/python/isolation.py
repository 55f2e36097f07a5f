"""Process isolation for sandbox children.

`setup` runs once in the worker: it moves the worker into a network namespace
with no usable interface and a mount namespace where the whole tree is
read-only, directories that may hold private data are masked by empty tmpfs,
and scratch dirs live on a private, size-limited tmpfs. It also probes which
per-child measures the OS allows. The zygote inherits the worker's namespaces,
limits and environment, and gets the rest as settings for sandbox.py, where
each child's own set-up and the clean-up after it live. Every measure falls
back (and says so in `describe`) where the OS refuses it.
"""

from __future__ import annotations

import ctypes
import os
import resource

import _signal as signal  # `signal` brings enum

from limits import Limits
from sandbox import remove_tree

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
SYS_MOUNT_SETATTR = 442  # same number on every architecture that has it
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1

# Directories that may hold credentials, datasets or sockets; Python's own
# prefix is bound back in where it lives below one of them.
MASKED_ROOTS = ("/root", "/home", "/work", "/srv", "/mnt", "/media", "/opt", "/run", "/var")
CGROUP_NAME = "colbench-sandbox-"
# The only environment children see (the BLAS ones keep numpy single-threaded).
# LD_BIND_NOW: the dynamic linker resolves symbols once, in the zygote, not
# again in each child (lazy binding writes to pages the child would copy).
KEPT_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "LD_BIND_NOW", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                    "MKL_NUM_THREADS")
# Unprivileged uids for children: far above real users, one per worker.
UID_BASE = 1_800_000_000

_libc = ctypes.CDLL(None, use_errno=True)


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def _setns(fd: int, nstype: int) -> None:
    _check(_libc.setns(ctypes.c_int(fd), ctypes.c_int(nstype)), "setns")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    enc = lambda s: None if s is None else s.encode()  # noqa: E731
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {target}")


_libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                        ctypes.c_ulong]


def _prctl(option: int, arg: int) -> None:
    _check(_libc.prctl(option, arg, 0, 0, 0), "prctl")


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _unescape(field: str) -> str:
    # mountinfo escapes space, tab, newline and backslash as \ooo
    out, i = [], 0
    while i < len(field):
        digits = field[i + 1:i + 4]
        if field[i] == "\\" and len(digits) == 3 and digits.isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def _mounts() -> list[tuple[str, set[str], str]]:
    """(mount point, per-mount options, filesystem type) from mountinfo."""
    result = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            parts = line.split()
            sep = parts.index("-")
            result.append((_unescape(parts[4]), set(parts[5].split(",")), parts[sep + 1]))
    return result


class Isolation:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.network = "none"
        self.filesystem = "none"
        self.pid = "process group"
        self.user = "root"
        self.cgroup = "none"
        self.masked: list[str] = []
        self.warnings: list[str] = []
        self.uid: int | None = None
        self.pidns_fd: int | None = None
        self.scratch_root = ""
        self._own_scratch_root = False
        self._devnull = -1
        self._fd_limit = 1 << 16
        self.cgroup_fds: list[int] = []
        self._cgroup_dirs: list[str] = []
        self._writable_mounts: list[str] = []

    def describe(self) -> dict:
        return {
            "network": self.network,
            "filesystem": self.filesystem,
            "masked": self.masked,
            "pid": self.pid,
            "user": self.user,
            "cgroup": self.cgroup,
            "warnings": self.warnings,
        }

    # the zygote (see zygote.py) and its pid namespace

    def fork_zygote(self) -> int:
        """fork() for the zygote: where allowed it is pid 1 of a fresh pid
        namespace, which every sandbox child is born into. The worker itself
        stays in its own namespace and never forks again."""
        if self.pidns_fd is None:
            return os.fork()
        _unshare(CLONE_NEWPID)
        try:
            pid = os.fork()
        except BaseException:
            _setns(self.pidns_fd, CLONE_NEWPID)
            raise
        if pid != 0:
            _setns(self.pidns_fd, CLONE_NEWPID)
        return pid

    def prepare_zygote(self) -> None:
        """In the forked zygote, before it execs its fresh interpreter: what
        it and every child would otherwise do for themselves. All of it
        survives exec."""
        in_pidns = self.pidns_fd is not None
        if in_pidns:
            os.close(self.pidns_fd)
            self.pidns_fd = None
        # Children inherit these: fds 0-2 on /dev/null, never the worker's
        # protocol pipes.
        for fd in (0, 1, 2):
            os.dup2(self._devnull, fd)
        os.close(self._devnull)
        self._devnull = -1
        # A session of its own (no controlling terminal for any child to
        # open) and no supplementary groups, for children to inherit.
        os.setsid()
        if self.uid is not None:
            os.setgroups([])
        # If the worker dies, so does the zygote; if the zygote (pid 1 of the
        # namespace) dies, the kernel kills every process in its namespace.
        # Set here because the zygote stays root: a uid change would clear it.
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if not in_pidns:
            # Without a namespace of our own, orphans would go to the system's
            # init, which may leave them as zombies (counted against the
            # children's RLIMIT_NPROC): have them re-parented to us instead.
            try:
                _prctl(PR_SET_CHILD_SUBREAPER, 1)
            except OSError:
                pass

    def confinement_settings(self) -> dict:
        """What the zygote needs of all this (sandbox.Confinement): plain
        values, passed through exec."""
        return {
            "uid": self.uid,
            "pidns": self.pidns_fd is not None,
            "scratch_root": self.scratch_root,
            "own_scratch_root": self._own_scratch_root,
            "fd_limit": self._fd_limit,
        }

    def move_into_cgroups(self, pid: int) -> None:
        """Moves the zygote (before its first fork) into the children's cgroups."""
        for fd in self.cgroup_fds:
            os.write(fd, str(pid).encode())

    def close(self) -> None:
        for fd in self.cgroup_fds:
            os.close(fd)
        self.cgroup_fds = []
        for path in self._cgroup_dirs:
            try:
                os.rmdir(path)
            except OSError:
                pass
        self._cgroup_dirs = []
        if self._own_scratch_root:
            remove_tree(self.scratch_root)


def setup(limits: Limits, keep: list[str]) -> Isolation:
    iso = Isolation(limits)
    os.chdir("/")
    _setup_network(iso)
    _setup_cgroups(iso)
    _setup_filesystem(iso, keep)
    _probe_pid_namespace(iso)
    _probe_user(iso, keep)
    _inheritable_settings(iso)
    return iso


def _inheritable_settings(iso: Isolation) -> None:
    """Settings children inherit through fork, made once here so that each
    child has less to do (and fewer pages to copy)."""
    limits = iso.limits
    # The worker lives with these too; none of them bind what it does.
    settings = [
        ("RLIMIT_CORE", 0),
        ("RLIMIT_AS", limits.address_space),
        ("RLIMIT_FSIZE", limits.file_size),
        ("RLIMIT_NOFILE", limits.open_files),
    ]
    if iso.uid is not None:
        # Counted per real uid: it binds the children's private uid, not
        # root. Without one it would count all of the user's processes.
        settings.append(("RLIMIT_NPROC", limits.processes))
    else:
        iso.warnings.append("no private uid: a fork bomb is bounded only by the time limits")
    for name, value in settings:
        soft, hard = resource.getrlimit(getattr(resource, name))
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(getattr(resource, name), (value, value))
    # A write past RLIMIT_FSIZE should fail the call, not kill the child.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    # No exec'd setuid binary (sudo, su, mount) can give a child root back.
    # The worker never execs, so it loses nothing.
    try:
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
    except OSError as err:
        iso.warnings.append(f"no_new_privs refused: {err.strerror}")
    iso._devnull = os.open("/dev/null", os.O_RDWR)
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    iso._fd_limit = soft if 0 < soft < (1 << 20) else (1 << 20)
    # Children get exactly this environment.
    for key in list(os.environ):
        if key not in KEPT_ENVIRONMENT:
            del os.environ[key]


def _setup_network(iso: Isolation) -> None:
    try:
        _unshare(CLONE_NEWNET)
    except OSError as err:
        iso.network = f"none (network namespace refused: {err.strerror})"
        iso.warnings.append("answers can reach the network")
        return
    # A new namespace has only a loopback device, and it is down.
    iso.network = "netns (no interface up)"


def _setup_filesystem(iso: Isolation, keep: list[str]) -> None:
    try:
        _unshare(CLONE_NEWNS)
        _mount(None, "/", None, MS_REC | MS_PRIVATE)
    except OSError as err:
        iso.scratch_root = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                        f"colbench-sandbox-{os.getpid()}")
        os.mkdir(iso.scratch_root, 0o711)
        iso._own_scratch_root = True
        iso.filesystem = f"scratch dir only (mount namespace refused: {err.strerror})"
        iso.warnings.append("answers can write wherever the child's uid may")
        return
    keep_real = sorted({os.path.realpath(k) for k in keep if os.path.isdir(k)})
    scratch_at = "/tmp"
    if any(_under(k, "/tmp") for k in keep_real):
        scratch_at = "/dev/shm"
    iso.masked = _mask(MASKED_ROOTS, keep_real, iso)
    how = _make_read_only(iso)
    _mount("tmpfs", scratch_at, "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={iso.limits.scratch_size},mode=0755,nr_inodes=65536")
    iso.scratch_root = scratch_at
    iso.filesystem = f"mountns: read-only tree ({how}), scratch on a private tmpfs at {scratch_at}"


def _mask(roots: tuple[str, ...], keep: list[str], iso: Isolation) -> list[str]:
    # Handles opened before anything is covered let us bind the kept paths
    # back in from below the mask.
    handles = {}
    for path in keep:
        if any(_under(path, r) for r in roots):
            handles[path] = os.open(path, os.O_PATH | os.O_DIRECTORY)
    masked = []
    try:
        for root in roots:
            if not os.path.isdir(root) or os.path.realpath(root) != root:
                continue  # absent, or a symlink into something handled elsewhere
            inside = [k for k in handles if _under(k, root)]
            # Drop kept paths nested in other kept paths: the outer bind has them.
            inside = [k for k in inside if not any(o != k and _under(k, o) for o in inside)]
            try:
                _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755")
                for path in inside:
                    os.makedirs(path, exist_ok=True)
                    _mount(f"/proc/self/fd/{handles[path]}", path, None, MS_BIND | MS_REC)
            except OSError as err:
                iso.warnings.append(f"could not mask {root}: {err.strerror}")
                continue
            masked.append(root)
    finally:
        for fd in handles.values():
            os.close(fd)
    return masked


def _make_read_only(iso: Isolation) -> str:
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    done = _libc.syscall(ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), b"/",
                         ctypes.c_uint(AT_RECURSIVE), ctypes.byref(attr),
                         ctypes.c_size_t(ctypes.sizeof(attr))) == 0
    how = "mount_setattr"
    if not done:
        how = "per-mount remount"
        for point, options, _ in _mounts():
            flags = MS_BIND | MS_REMOUNT | MS_RDONLY
            for name, bit in (("nosuid", MS_NOSUID), ("nodev", MS_NODEV), ("noexec", MS_NOEXEC)):
                if name in options:
                    flags |= bit
            try:
                _mount(None, point, None, flags)
            except OSError as err:
                iso.warnings.append(f"{point} stays writable: {err.strerror}")
    # The worker removes its cgroups on exit; children cannot write there
    # anyway (root-owned files, unprivileged uid).
    for point in iso._writable_mounts:
        if done:
            clear = _MountAttr(0, MOUNT_ATTR_RDONLY, 0, 0)
            _libc.syscall(ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD),
                          point.encode(), ctypes.c_uint(0), ctypes.byref(clear),
                          ctypes.c_size_t(ctypes.sizeof(clear)))
        else:
            try:
                _mount(None, point, None, MS_BIND | MS_REMOUNT)
            except OSError:
                pass
    return how


def _own_cgroups() -> dict[str, str]:
    """controller (or "" for the unified hierarchy) -> our cgroup path."""
    result = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(","):
                result[name] = path
    return result


def _setup_cgroups(iso: Isolation) -> None:
    limits = iso.limits
    mounts = {point: fstype for point, _, fstype in _mounts()}
    own = _own_cgroups()
    name = f"{CGROUP_NAME}{os.getpid()}"
    plans = []
    if mounts.get("/sys/fs/cgroup/pids") == "cgroup" and mounts.get("/sys/fs/cgroup/memory") == "cgroup":
        plans.append(("v1", [
            ("/sys/fs/cgroup/pids", own.get("pids", "/"), {"pids.max": limits.cgroup_pids + 1}),
            ("/sys/fs/cgroup/memory", own.get("memory", "/"), {"memory.limit_in_bytes": limits.cgroup_memory}),
        ]))
    elif mounts.get("/sys/fs/cgroup") == "cgroup2":
        plans.append(("v2", [
            ("/sys/fs/cgroup", own.get("", "/"), {"pids.max": limits.cgroup_pids + 1, "memory.max": limits.cgroup_memory}),
        ]))
    if not plans:
        iso.cgroup = "none (no writable pids+memory controllers)"
        return
    # The worker moves the zygote into these cgroups as it starts
    # (move_into_cgroups) and every child is born in them: one more process
    # for pids.max.
    version, entries = plans[0]
    made: list[str] = []
    fds: list[int] = []
    try:
        for mount_point, own_path, settings in entries:
            parent = os.path.join(mount_point, own_path.lstrip("/"))
            _sweep_stale_cgroups(parent)
            if version == "v2":
                with open(os.path.join(parent, "cgroup.subtree_control"), "w") as handle:
                    handle.write("+pids +memory")
            path = os.path.join(parent, name)
            os.mkdir(path)
            made.append(path)
            for key, value in settings.items():
                with open(os.path.join(path, key), "w") as handle:
                    handle.write(str(value))
            fds.append(os.open(os.path.join(path, "cgroup.procs"), os.O_WRONLY))
            iso._writable_mounts.append(mount_point)
    except OSError as err:
        for fd in fds:
            os.close(fd)
        for path in reversed(made):
            try:
                os.rmdir(path)
            except OSError:
                pass
        iso._writable_mounts = []
        iso.cgroup = f"none (cgroup {version} refused: {err.strerror})"
        return
    iso.cgroup_fds = fds
    iso._cgroup_dirs = made
    iso.cgroup = (f"{version}: pids.max={limits.cgroup_pids}, "
                  f"memory={limits.cgroup_memory >> 20} MiB per child tree")


def _sweep_stale_cgroups(parent: str) -> None:
    # Workers killed with SIGKILL cannot remove their cgroup; the next one does.
    try:
        entries = os.listdir(parent)
    except OSError:
        return
    for entry in entries:
        if not entry.startswith(CGROUP_NAME):
            continue
        pid = entry[len(CGROUP_NAME):]
        if pid.isdigit() and os.path.exists(f"/proc/{pid}"):
            continue
        try:
            os.rmdir(os.path.join(parent, entry))
        except OSError:
            pass


def _probe_pid_namespace(iso: Isolation) -> None:
    # Probe in a throwaway process: a half-done unshare/setns pair in the
    # worker itself would leave it unable to fork.
    probe = os.fork()
    if probe == 0:
        code = 1
        try:
            own = os.open("/proc/self/ns/pid", os.O_RDONLY)
            for _ in range(2):
                _unshare(CLONE_NEWPID)
                child = os.fork()
                if child == 0:
                    os._exit(0 if os.getpid() == 1 else 1)
                _setns(own, CLONE_NEWPID)
                _, status = os.waitpid(child, 0)
                if status != 0:
                    break
            else:
                code = 0
        except BaseException:
            pass
        os._exit(code)
    _, status = os.waitpid(probe, 0)
    if status == 0:
        iso.pidns_fd = os.open("/proc/self/ns/pid", os.O_RDONLY)
        iso.pid = ("pidns: the zygote is its pid 1; after each child it kills (kill -1) and "
                   "reaps all that is left in it")
    else:
        iso.pid = "process group (pid namespace refused)"
        iso.warnings.append("a child that calls setsid() escapes the process-group kill")


def _probe_user(iso: Isolation, keep: list[str]) -> None:
    uid = UID_BASE + os.getpid()
    # The child must still be able to import from Python's own prefix.
    stdlib = os.path.dirname(os.__file__)
    probe = os.fork()
    if probe == 0:
        code = 1
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.listdir(stdlib)
            for path in keep:
                if os.path.isdir(path):
                    os.listdir(path)
            code = 0
        except BaseException:
            pass
        os._exit(code)
    _, status = os.waitpid(probe, 0)
    if status == 0:
        iso.uid = uid
        iso.user = (f"uid {uid} (unprivileged, no capabilities; RLIMIT_NPROC="
                    f"{iso.limits.processes} applies to it)")
    elif os.geteuid() != 0:
        iso.user = f"uid {os.geteuid()} (worker's own)"
        iso.warnings.append("children run as the worker's user")
    else:
        iso.user = "root (could not switch to an unprivileged uid that can read Python)"
        iso.warnings.append("children run as root: RLIMIT_NPROC does not bind and the "
                            "read-only tree can be remounted")
