"""Dataclass methods compiled once and kept, as Python keeps bytecode.

`@dataclass` writes the source of a class's `__init__`, `__repr__`, `__eq__`,
`__hash__`, ... and compiles it with `exec`. Loading what an 8-node `xhip
compile` needs makes some 300 dataclasses (most of them xDSL's), whose 1,450
method texts took about a quarter of that whole process to compile. Only 800
of the texts differ, and none changes from one run to the next.

`install()` gives the `dataclasses` module an `exec` of its own (a module
global shadows the builtin; `dataclasses` calls `exec` only there, from 3.7 to
3.13). A text compiled before, in this process or, through a marshal file in
xhip's `__pycache__`, in an earlier one, is loaded from its marshalled code
instead of compiled: `marshal.loads` makes a new code object equal to what
`compile` would make, so each class still gets code of its own (none shared,
so the interpreter's specialization of one class's method does not see
another's), run in the globals and locals the stdlib gives. `save()` writes
the file once, if this process compiled a text the file lacked.

Only the command line installs it (`xhip.cli`): it changes the standard
library for the whole process, which is the command's own.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib.util
import marshal
import os
import sys
from types import CodeType
from typing import Any, cast

SUPPORTED = ((3, 10), (3, 11), (3, 12), (3, 13))
"""CPython versions whose `dataclasses` calls `exec` only to run the text of
the methods it generates (read in each version's source)."""

_FORMAT = b"xdc1"
"""This file format's version, after the interpreter's bytecode magic number."""

_MAX_ENTRIES = 8192
"""Above this, `save` keeps only this process's texts (the file stays small
however many xhip versions have run)."""

_texts: dict[str, bytes] | None = None
"""Method source text -> its marshalled code; None until first needed."""

_used: set[str] = set()
"""The texts this process ran."""

_compiled = 0
"""How many texts this process compiled (missing from `_texts`)."""

_saved = False
"""Whether `save` ran (it writes at most once per process)."""


def install() -> bool:
    """Reuse compiled dataclass methods from now on in this process; False
    (and nothing changed) where this Python is not one of `SUPPORTED`."""
    if sys.implementation.name != "cpython" or sys.version_info[:2] not in SUPPORTED:
        return False
    dataclasses.exec = _exec  # pyright: ignore[reportAttributeAccessIssue]
    return True


def _exec(
    source: Any,
    globals: dict[str, Any] | None = None,
    locals: Any = None,
    /,
    **kwargs: Any,
) -> None:
    """`exec` with a text's code looked up first; the globals and locals that
    `exec` would take from its caller (`dataclasses`) where not given."""
    if globals is None:
        caller = sys._getframe(1)  # pyright: ignore[reportPrivateUsage]
        globals = caller.f_globals
        if locals is None:
            locals = caller.f_locals
    if type(source) is str:
        source = code_of(source)
    builtins.exec(source, globals, locals, **kwargs)


def code_of(text: str) -> CodeType:
    """What `exec(text)` runs in `dataclasses`: `text` compiled as a file named
    `<string>`, with no `__future__` feature (`dataclasses` imports none)."""
    global _compiled
    texts = _texts if _texts is not None else _load()
    _used.add(text)
    data = texts.get(text)
    if data is not None:
        try:
            code = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            code = None
        if type(code) is CodeType:
            return code
    code = compile(text, "<string>", "exec", dont_inherit=True)
    texts[text] = marshal.dumps(code)
    _compiled += 1
    return code


def cache_path() -> str | None:
    """Where Python would put the bytecode of a module `dataclass-methods.py`
    in this package (`sys.pycache_prefix`, the `-O` level and the
    interpreter's cache tag count), suffix `.marshal`; None where this Python
    keeps no bytecode files."""
    source = os.path.join(os.path.dirname(__file__), "dataclass-methods.py")
    try:
        pyc = importlib.util.cache_from_source(source)
    except NotImplementedError:  # no sys.implementation.cache_tag
        return None
    return pyc.removesuffix(".pyc") + ".marshal"


def _header() -> bytes:
    return importlib.util.MAGIC_NUMBER + _FORMAT


def _load() -> dict[str, bytes]:
    """The file's texts; an empty table where it is missing, unreadable, of
    another interpreter or format, or damaged (`save` then rewrites it)."""
    global _texts
    _texts = {}
    path = cache_path()
    if path is None:
        return _texts
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return _texts
    header = _header()
    if not data.startswith(header):
        return _texts
    try:
        table: object = marshal.loads(memoryview(data)[len(header) :])
    except (EOFError, ValueError, TypeError):
        return _texts
    if isinstance(table, dict):
        entries = cast(dict[object, object], table).items()
        _texts = {
            k: v for k, v in entries if isinstance(k, str) and isinstance(v, bytes)
        }
    return _texts


def save() -> bool:
    """Write the file if this process compiled a text it lacked, at most once
    per process, as Python writes bytecode: not under `-B` or
    `PYTHONDONTWRITEBYTECODE`, to a temporary file renamed into place; a
    directory that cannot be written is left alone. True if written."""
    global _saved
    if _saved or not _compiled or _texts is None or sys.dont_write_bytecode:
        return False
    _saved = True
    path = cache_path()
    if path is None:
        return False
    table = _texts
    if len(table) > _MAX_ENTRIES:
        table = {text: table[text] for text in _used if text in table}
    data = _header() + marshal.dumps(table)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with open(fd, "wb") as f:
                f.write(data)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return False
    return True
