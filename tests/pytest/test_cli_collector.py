"""A whole `xhip` process leaves the cyclic collector off
(`xhip.cli.common.collector_paused`); a library caller's collector is left as
it was."""

from __future__ import annotations

import gc
import subprocess
import sys

from xhip.cli.common import collector_paused

PROBE = """
import gc
from xhip.cli.common import collector_paused
assert gc.isenabled()
with collector_paused(whole_process=True):
    assert not gc.isenabled()
print(gc.isenabled())
"""


def test_whole_process_leaves_the_collector_off() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False"]


def test_library_caller_keeps_its_collector() -> None:
    before = gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()
    with collector_paused():
        assert not gc.isenabled()
    assert (gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()) == before
