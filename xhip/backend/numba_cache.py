"""numba's disk cache for kernels that compile in code from other files.

numba keys a function's cache by its own file's source alone: a kernel that
inlines `cpu_kernels_attention._tile` (the GEMMs) or `cpu_kernels_rows.exp32`
(the attention) keeps its stale machine code after a change to them, in a
dev tree, until its own file changes too. `key_on` makes the cache of a
file's functions key on the sources of the files it compiles in as well: a
change to any recompiles its kernels, once (the stamp is the files'
content, not their times: a checkout of the same bytes keeps the cache).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from numba.core import caching

_KEYS: dict[str, tuple[str, ...]] = {}
"""A kernel file's path -> the paths its cache is keyed on (its own among them)."""


@cache
def _digest(paths: tuple[str, ...], stats: tuple[tuple[float, int], ...]) -> bytes:
    """SHA-256 of the files' sources in turn (`stats` only keys the memo)."""
    h = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.digest()


def sources_stamp(paths: tuple[str, ...]) -> bytes:
    """The stamp of a kernel file: the hash of the sources it is keyed on."""
    stats = tuple((s.st_mtime, s.st_size) for s in map(os.stat, paths))
    return _digest(paths, stats)


class _GroupLocator:
    """Another locator's cache place, with the group's stamp."""

    def __init__(self, inner: Any, paths: tuple[str, ...]):
        self._inner = inner
        self._paths = paths

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return self._inner.get_cache_path()

    def get_source_stamp(self) -> bytes:
        return sources_stamp(self._paths)

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(
        cls, py_func: Callable[..., Any], py_file: str
    ) -> _GroupLocator | None:
        paths = _KEYS.get(os.path.abspath(py_file))
        if paths is None:
            return None
        others: list[Any] = caching.CacheImpl._locator_classes  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue, reportUnknownMemberType]
        for other in others:
            if other is not cls:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner, paths)
        return None


def key_on(module_file: str, sources: Iterable[str]) -> None:
    """Keys the cache of the functions of `module_file` (a module's
    `__file__`) on its source and `sources` (other modules' files); before
    its kernels are made (`njit` finds its cache place then)."""
    own = os.path.abspath(module_file)
    _KEYS[own] = (own, *sorted({os.path.abspath(f) for f in sources} - {own}))
    locators: list[Any] = caching.CacheImpl._locator_classes  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue, reportUnknownMemberType]
    if _GroupLocator not in locators:
        locators.insert(0, _GroupLocator)
