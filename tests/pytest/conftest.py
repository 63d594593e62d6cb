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


@pytest.fixture(autouse=True)
def scratch_cwd(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test runs in a scratch folder of its own, so whatever writes to the
    current directory (`xhip compile` to stdout puts the constants file there)
    lands there, never in the source tree."""
    cwd = tmp_path_factory.mktemp("cwd")
    monkeypatch.chdir(cwd)
    return cwd
