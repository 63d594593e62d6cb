"""Shared fixtures: where the seed lives, and a fresh xhip Context."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from xdsl.context import Context

from xhip.context import make_context

REPO = Path(__file__).resolve().parents[2]
SEED = Path(os.environ.get("XHIP_SEED", REPO.parent / "shared" / "seed"))
STAGES = SEED / "stages"


@pytest.fixture
def ctx() -> Context:
    return make_context()
