"""Sandbox limits: one place for every number the worker enforces."""

from __future__ import annotations

GIB = 1 << 30
MIB = 1 << 20

# Seconds. call_timeout is the benchmark's rule; the rest only bound the
# harness work around calls that run code the answer controls.
_DEFAULTS = {
    "call_timeout": 1.0,
    # The benchmark puts no limit on ground truth; a generous one keeps a
    # pathological task from holding a worker forever.
    "ground_truth_timeout": 5.0,
    "compare_timeout": 1.0,
    "repr_timeout": 0.25,
    # Extra time the worker waits past a limit before it kills the child
    # (the in-child alarm should have fired well before). Generous, so that a
    # child starved of CPU on a busy machine is not killed mid-harness.
    "grace": 1.0,
    "setup_timeout": 2.0,
    # Per child process (setrlimit).
    "address_space": 2 * GIB,
    "file_size": 64 * MIB,
    "open_files": 256,
    "processes": 32,
    # Per child tree (cgroup), where cgroups are writable.
    "cgroup_pids": 64,
    "cgroup_memory": 2 * GIB,
    # The tmpfs holding scratch dirs (mount namespace only).
    "scratch_size": 512 * MIB,
    # What comes back to the caller.
    "output_chars": 8192,
    "repr_chars": 300,
    "max_tests": 1000,
}


class Limits:
    # A plain class, not a dataclass: dataclasses imports inspect and ast,
    # and every module the worker holds makes each fork a little dearer.
    call_timeout: float
    ground_truth_timeout: float
    compare_timeout: float
    repr_timeout: float
    grace: float
    setup_timeout: float
    address_space: int
    file_size: int
    open_files: int
    processes: int
    cgroup_pids: int
    cgroup_memory: int
    scratch_size: int
    output_chars: int
    repr_chars: int
    max_tests: int

    def __init__(self, **overrides) -> None:
        for key, value in _DEFAULTS.items():
            setattr(self, key, value)
        for key, value in overrides.items():
            if key not in _DEFAULTS:
                raise ValueError(f"unknown limit {key!r}")
            setattr(self, key, type(_DEFAULTS[key])(value))

    def per_test_budget(self) -> float:
        """Seconds one test may take, harness included: the worst case of the
        ground truth's call, the answer's, comparing and printing both, and the
        grace after each. The only place this sum is made: the Node side reads it
        from the worker's hello to bound a whole request."""
        return (self.ground_truth_timeout + self.call_timeout + self.compare_timeout
                + 2 * self.repr_timeout + 3 * self.grace)

    def request_budget(self, tests: int) -> float:
        """Seconds a request of `tests` tests may take before the rest time out."""
        return self.setup_timeout + tests * self.per_test_budget()

    def as_dict(self) -> dict:
        return {key: getattr(self, key) for key in _DEFAULTS}
