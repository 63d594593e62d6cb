"""A whole `xhip` process freezes what its modules made and lets the youngest
generation grow (`xhip.cli.common.collector_paused`); a library caller's
collector is left as it was."""

from __future__ import annotations

import gc
import subprocess
import sys

from xhip.cli.common import YOUNG_COLLECTION_THRESHOLD, collector_paused

PROBE = """
import gc
from xhip.cli.common import collector_paused
with collector_paused(freeze=True):
    assert not gc.isenabled()
print(gc.isenabled(), gc.get_threshold()[0], gc.get_freeze_count() > 0)
"""


def test_whole_process_freezes_and_raises_threshold() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", str(YOUNG_COLLECTION_THRESHOLD), "True"]


def test_library_caller_keeps_its_collector() -> None:
    before = gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()
    with collector_paused():
        assert not gc.isenabled()
    assert (gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()) == before
