"""numba's disk cache keyed on the files a kernel compiles code in from
(`numba_cache.key_on`): after a change to an inlined helper in another
file, a fresh process runs the new code, not the cached old one; the same
bytes keep the cache (a second process loads, compiles nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.pytest.conftest import REPO

HELPER = """
from numba import njit


@njit(inline="always")
def helper():
    return {value}
"""

KERNEL = """
from numba import njit

import helper_mod
from xhip.backend import numba_cache

numba_cache.key_on(__file__, [helper_mod.__file__])


@njit(cache=True)
def kernel():
    return helper_mod.helper()


print(kernel(), len(kernel.stats.cache_hits))
"""


def _run(folder: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    env.pop("NUMBA_CACHE_DIR", None)  # beside the files, in `folder`
    done = subprocess.run(
        [sys.executable, str(folder / "kernel_mod.py")],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip()


def test_a_change_to_an_inlined_helper_recompiles(tmp_path: Path) -> None:
    (tmp_path / "helper_mod.py").write_text(HELPER.format(value=1))
    (tmp_path / "kernel_mod.py").write_text(KERNEL)
    assert _run(tmp_path) == "1 0"  # compiled
    assert _run(tmp_path) == "1 1"  # loaded from the cache
    (tmp_path / "helper_mod.py").write_text(HELPER.format(value=2))
    assert _run(tmp_path) == "2 0"  # the helper's change seen: compiled again
    assert _run(tmp_path) == "2 1"
