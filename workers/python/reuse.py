"""Which requests may run in a resident child: one sandbox child that scores
request after request (a fresh namespace per call, as always), instead of a
fork per request.

Worker-side. A fork per answer is most of the sandbox's cost (see README.md,
Speed), and what it buys beyond the namespaces, uid and cgroups every child
is in anyway is that no answer can leave anything behind for the next one.
In a resident child that guarantee comes from here instead: a request runs
there only when its compiled code (ground truth, answer and test expressions
alike) provably cannot reach anything that outlives its own namespace, and
everything else gets a fresh child as before (the zygote kills the resident
child first; see zygote_main). The check is on code objects, never on text,
and refuses rather than guesses:

- no name starting with an underscore, except a few dunder method names a
  class may define (so no `__import__`, `__builtins__`, `__class__`,
  `__globals__`, `__subclasses__`, and no `_private` attribute of a module);
- no string constant holding `__` (attribute names spelled as data);
- no built-in that reaches state or names attributes by string: `getattr`,
  `setattr`, `globals`, `vars`, `eval`, `exec`, `open`, `format`...;
- no attribute that leads to frames, code or shared registries (`gi_frame`,
  `f_back`, `tb_frame`, `co_code`, `register`, `cache_clear`, `seed`...), nor
  any module-valued or mutable-container attribute of the modules below (such
  as `typing.sys`, `statistics.random`, `json.encoder`): names, so `x.sys`
  anywhere is refused as well;
- imports only of ALLOWED modules, whose public state has no writer left
  once the rules above hold;
- no attribute assignment or deletion at all (`x.y = ...` could reach a
  shared module or class; the official set has one answer that needs it).

The child itself adds what code inspection cannot see (child.serve): it ends
itself after a request that timed out, ran out of memory or grew it, and
checks that builtins and the allowed modules are the objects they were.
"""

from __future__ import annotations

import opcode

# Modules a resident child's code may import (as `import x`, `from x import y`).
ALLOWED = frozenset((
    "math", "cmath", "re", "typing", "collections", "collections.abc", "itertools",
    "functools", "heapq", "bisect", "string", "datetime", "operator", "fractions",
    "statistics", "copy", "json",
))

# Dunder names ordinary classes define or call (`super().__init__()`), and the
# `if __name__ == "__main__"` idiom; none gives a way into shared state.
_DUNDERS = frozenset((
    "__init__", "__name__", "__module__", "__qualname__", "__doc__", "__repr__", "__str__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__len__",
    "__iter__", "__next__", "__contains__", "__getitem__", "__setitem__", "__delitem__",
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__floordiv__", "__mod__", "__neg__", "__abs__", "__bool__", "__call__", "__enter__",
    "__exit__",
))

_NAMES = frozenset((
    # Built-ins that reach namespaces, frames, files or attributes by string.
    "globals", "locals", "vars", "getattr", "setattr", "delattr", "eval", "exec", "compile",
    "open", "input", "breakpoint", "help", "exit", "quit", "memoryview", "format",
    # Attributes that write shared registries or state, or evaluate strings.
    "register", "cache_clear", "seed", "setstate", "getstate", "format_map", "Formatter",
    "get_type_hints", "ForwardRef", "clear_overloads", "global_enum", "getcontext",
    "setcontext", "localcontext", "attrgetter", "methodcaller", "purge", "cell_contents",
    # Module-valued and mutable-container attributes of ALLOWED (Python 3.11; reuse.test
    # checks this list against the running interpreter).
    "sys", "types", "random", "codecs", "decoder", "encoder", "scanner", "copyreg", "enum",
    "contextlib", "warnings", "numbers", "stdlib_re", "dispatch_table", "EXCLUDED_ATTRIBUTES",
))
# Frames, generators, coroutines, tracebacks and code objects.
_PREFIXES = ("gi_", "cr_", "ag_", "f_", "tb_", "co_")

_IMPORT_NAME = opcode.opmap["IMPORT_NAME"]
_WRITES = frozenset((opcode.opmap["STORE_ATTR"], opcode.opmap["DELETE_ATTR"]))
_EXTENDED_ARG = opcode.EXTENDED_ARG
_MAIN = "__main__"


def allows(codes) -> bool:
    """Whether a request whose compiled code objects are `codes` may run in a
    resident child (None where it did not compile: it never runs)."""
    return all(code is None or _code_allows(code) for code in codes)


def _code_allows(code) -> bool:
    for name in code.co_names:
        if name in _NAMES or name.startswith(_PREFIXES):
            return False
        if name[0] == "_" and name not in _DUNDERS:
            return False
    raw = code.co_code
    arg = 0
    for at in range(0, len(raw), 2):
        op = raw[at]
        if op == _EXTENDED_ARG:
            arg = (arg | raw[at + 1]) << 8
            continue
        if op == _IMPORT_NAME:
            if code.co_names[arg | raw[at + 1]] not in ALLOWED:
                return False
        elif op in _WRITES:
            return False
        arg = 0
    for const in code.co_consts:
        kind = type(const)
        if kind is str:
            if "__" in const and const != _MAIN:
                return False
        elif kind is _CODE:
            if not _code_allows(const):
                return False
        elif kind is tuple or kind is frozenset:
            if not _consts_allow(const):
                return False
    return True


def _consts_allow(values) -> bool:
    for value in values:
        kind = type(value)
        if kind is str:
            if "__" in value and value != _MAIN:
                return False
        elif kind is tuple or kind is frozenset:
            if not _consts_allow(value):
                return False
    return True


_CODE = type(_code_allows.__code__)
