/*
 * fork(2) for the zygote, with the sandbox child's set-up done in C before any
 * Python code runs in it (see ../zygote.py and ../README.md, "Speed").
 *
 * Why C: every page a forked child writes costs it a copy-on-write fault, and
 * CPython writes to every object it touches. Done from Python, the set-up
 * steps below cost each child ~60 such faults; here they touch a few stack
 * pages. The steps and their order are those of Isolation.enter_child, which
 * remains the path where this library cannot be built or loaded.
 *
 * Loaded with ctypes.PyDLL, so the GIL stays held across the call: the zygote
 * is single-threaded and holds no lock when it forks (zygote._Forker checks).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* flags */
#define CB_SETSID 1    /* no pid namespace: the process-group kill needs a group of its own */
#define CB_PDEATHSIG 2 /* no pid namespace: die with the zygote (set after the uid change, which clears it) */

/* Failure in the child is reported as -(step * 1000 + errno), so the Python
 * side can name the step; a failed fork as -errno, in the zygote. */
enum step { STEP_SETSID = 1, STEP_CGROUP, STEP_CLOSE, STEP_CHDIR, STEP_RLIMIT, STEP_GID, STEP_UID, STEP_PDEATHSIG, STEP_MKDIR };

#define FAIL(step) return -((long)(step) * 1000 + errno)

static int close_from(int first, int limit) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return 0;
  if (errno != ENOSYS && errno != EINVAL) return -1;
#endif
  for (int fd = first; fd < limit; fd++) close(fd); /* EBADF for most: fine */
  return 0;
}

/* Returns the child's pid in the zygote (or -errno), 0 in the child once it is
 * set up (or -(step * 1000 + errno) in the child if a step failed). The child
 * starts in `scratch`, with `ground_truth/` and `answer/` made there under its
 * own uid. cgroup_fds: `n_cgroups` open cgroup.procs files to join. uid < 0:
 * keep the zygote's uid. */
long cb_fork_child(const char *scratch, const int *cgroup_fds, int n_cgroups, long cpu_seconds, long uid,
                   int fd_limit, int flags) {
  pid_t pid = fork();
  if (pid < 0) return -errno;
  if (pid > 0) return pid;

  if ((flags & CB_SETSID) && setsid() < 0) FAIL(STEP_SETSID);
  for (int i = 0; i < n_cgroups; i++)
    if (write(cgroup_fds[i], "0", 1) != 1) FAIL(STEP_CGROUP);
  /* Nothing the zygote holds open (its pipes to the worker above all) may be
   * reachable from answer code; fds 0-2 are already /dev/null. */
  if (close_from(3, fd_limit) < 0) FAIL(STEP_CLOSE);
  if (chdir(scratch) < 0) FAIL(STEP_CHDIR);
  struct rlimit cpu = {(rlim_t)cpu_seconds, (rlim_t)cpu_seconds};
  if (setrlimit(RLIMIT_CPU, &cpu) < 0) FAIL(STEP_RLIMIT);
  if (uid >= 0) {
    /* The zygote already dropped supplementary groups. */
    if (setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) < 0) FAIL(STEP_GID);
    if (setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) < 0) FAIL(STEP_UID);
  }
  if ((flags & CB_PDEATHSIG) && prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) FAIL(STEP_PDEATHSIG);
  /* Made by the child, after dropping root, so they are its own. */
  if (mkdir("ground_truth", 0700) < 0 || mkdir("answer", 0700) < 0) FAIL(STEP_MKDIR);
  return 0;
}

/* Lets the Python side check it loaded the library it expects. */
int cb_version(void) { return 1; }
