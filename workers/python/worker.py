"""ColBench backend scoring worker (see README.md beside this file).

Started by lib/scoring/backend-worker.ts as `python3 -S -E worker.py [CONFIG_JSON]`
where CONFIG_JSON may carry {"limits": {...}, "preload": [...]}. Speaks
protocol.py framing on stdin/stdout; stderr is for diagnostics only.
"""

from __future__ import annotations

import gc
import os
# The C module: `signal` wraps it in enums, ~0.9 MB that every fork would copy page tables for.
import _signal as signal
import sys

# The Python-level fork hooks modules register from here on (random's): where
# the zygote knows every one of them it forks without CPython's fork machinery
# (see zygote._plain_fork). The real register_at_fork is back before any fork.
AT_FORK: list[dict] = []
_register_at_fork = os.register_at_fork


def _recording_register_at_fork(**hooks) -> None:
    AT_FORK.append(hooks)
    _register_at_fork(**hooks)


os.register_at_fork = _recording_register_at_fork

# Modules answers and ground truths often use: the zygote imports one before
# forking the first child whose code names it (scoring.prepare finds the
# names), so children find it loaded, and no child pays for what none uses.
# Each loaded megabyte makes every later fork a little dearer (see README).
DEFAULT_PRELOAD = (
    "math", "re", "collections", "itertools", "functools", "datetime", "random",
    "string", "heapq", "bisect", "json", "typing", "copy", "operator",
)


def _parse_json(text: str):
    """json.loads without importing json: json brings re and ~1 MB with it,
    which every child would then be forked with. The C scanner is the one
    json itself uses."""
    try:
        from _json import make_scanner
    except ImportError:
        import json
        return json.loads(text)

    class Context:
        strict = True
        object_hook = object_pairs_hook = None
        parse_float = parse_constant = float
        parse_int = int

    text = text.strip()
    try:
        value, end = make_scanner(Context)(text, 0)
        if end == len(text):
            return value
    except Exception:
        pass
    import json  # malformed: let json say what is wrong
    return json.loads(text)


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


def _read_modules(directory: str, names) -> list:
    sources = []
    for name in names:
        path = os.path.join(directory, name + ".py")
        with open(path, encoding="utf-8") as handle:
            sources.append((name, path, handle.read()))
    return sources


def _run_modules(sources: list) -> None:
    for name, path, source in sources:
        module = type(sys)(name)
        module.__file__ = path
        sys.modules[name] = module
        exec(compile(source, path, "exec"), module.__dict__)


def _preload(names) -> dict:
    loaded = {}
    for name in names:
        try:
            module = __import__(name)
        except Exception:
            continue
        loaded[name] = str(getattr(module, "__version__", ""))
    return loaded


def _prepare(message: dict, limits):
    """A score request checked and compiled ahead of its turn (a Plan), or the
    error that preparing it raised."""
    import scoring
    if message.get("type") != "score":
        return None
    try:
        return scoring.prepare(message, limits)
    except Exception as err:
        return err


def _handle(message: dict, prepared, zygote, limits, shared, meanwhile) -> dict:
    import scoring
    request_id = message.get("id")
    kind = message.get("type")
    try:
        if kind == "score":
            if isinstance(prepared, Exception):
                raise prepared
            plan = prepared if prepared is not None else scoring.prepare(message, limits)
            reply = scoring.execute(plan, zygote, limits, shared, meanwhile)
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
    config = _parse_json(sys.argv[1]) if len(sys.argv) > 1 else {}
    core = _pin(config["cpu"]) if config.get("cpu") is not None else None
    # The pool stops us by closing stdin; a terminal's Ctrl-C is for it, not us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _add_site_packages()
    # Single-threaded BLAS: threads count against the child's process limit
    # and a forked child cannot use the parent's threads anyway.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"

    # Only what the zygote and its children need, until the zygote is forked.
    from limits import Limits
    import isolation
    import progress as P
    import zygote as Z

    limits = Limits(**(config.get("limits") or {}))
    # The worker's own modules are read now, while their dir is in view, and
    # run only once the zygote is forked (which needs none of them).
    later = _read_modules(own_dir, ("answers", "protocol", "scoring"))
    # Loaded now, like the modules above: the mount namespace hides its dir.
    native, native_note = Z.load_native(config.get("native"))
    native_note = config.get("native_note") or native_note
    iso = isolation.setup(limits, _python_dirs(own_dir))
    # Modules the pool asked for (numpy for its numpy lane) are loaded now.
    preloaded = _preload(list(config.get("preload") or []))
    import child
    child.prepare(limits)
    child.warm_up(limits)
    shared = P.Progress()
    # Objects that exist now are never collected in a child; freezing them
    # keeps the collector from touching (and copying) their pages after fork.
    gc.collect()
    gc.freeze()
    os.register_at_fork = _register_at_fork
    # From here on only the zygote forks (see zygote.py).
    zygote = Z.start(iso, shared, limits, AT_FORK, native, native_note)

    _run_modules(later)
    import protocol
    import scoring
    scoring.LAZY_MODULES = frozenset(DEFAULT_PRELOAD) - set(preloaded)
    protocol.write_message(1, {
        "type": "hello",
        "pid": os.getpid(),
        "zygote": zygote.pid,
        "zygote_fork": zygote.fork,
        "cpu": core,
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "isolation": iso.describe(),
        "limits": limits.as_dict(),
        "preloaded": preloaded,
        "preload_on_demand": sorted(scoring.LAZY_MODULES),
    })
    channel = protocol.Channel(0, 1)
    # The next request, read and compiled while a child runs the current one,
    # so that the zygote, once done, waits for little more than the results
    # to be read before it gets its next job.
    ahead: list = []

    def meanwhile() -> None:
        if not ahead:
            message = channel.poll()
            if message is not None:
                ahead.append((message, _prepare(message, limits)))

    try:
        while True:
            try:
                message, prepared = ahead.pop() if ahead else (channel.read(), None)
            except ValueError as err:
                channel.reply({"id": None, "type": "error", "message": f"bad frame: {err}"})
                channel.flush()
                return 2
            if message is None:
                return 0
            try:
                channel.reply(_handle(message, prepared, zygote, limits, shared, meanwhile))
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
