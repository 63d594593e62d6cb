"""The `xdsl.universe` plugin: what plain `xdsl-opt` sees once xhip is installed."""

from __future__ import annotations

import pytest
from xdsl.universe import Universe

from xhip import universe
from xhip.dialects import bufferization, hip, memref, onnx


def test_multiverse_has_our_dialects_and_passes():
    multiverse = Universe.get_multiverse()
    assert multiverse.all_dialects["hip"]() is hip.HIP
    assert multiverse.all_dialects["onnx"]() is onnx.ONNX
    for name in (*universe.PASS_NAMES, "onnx-to-hip", "onnx-to-hip-pipeline"):
        assert name in multiverse.all_passes


def test_memref_and_bufferization_are_the_extended_ones():
    multiverse = Universe.get_multiverse()
    assert multiverse.all_dialects["memref"]() is memref.MemRef
    assert multiverse.all_dialects["bufferization"]() is bufferization.Bufferization
    ops = {op.name: op for op in memref.MemRef.operations}
    assert ops["memref.global"] is memref.GlobalOp
    assert ops["memref.cast"] is memref.CastOp
    assert "memref.realloc" in ops
    # Everything xDSL's memref had is still there.
    from xdsl.dialects import memref as xmemref

    assert {op.name for op in xmemref.MemRef.operations} <= set(ops)


def test_a_second_memref_dialect_is_refused(monkeypatch: pytest.MonkeyPatch):
    """Why we swap factories instead of declaring our own `memref`."""
    import importlib.metadata

    class Plugin:
        def __init__(self, name: str):
            self.name = name

        def load(self) -> Universe:
            return Universe(all_dialects={"memref": lambda: memref.MemRef})

    monkeypatch.setattr(
        importlib.metadata,
        "entry_points",
        lambda group: [Plugin("xdsl"), Plugin("other")],  # pyright: ignore
    )
    with pytest.raises(ValueError, match="Duplicate definition of memref"):
        Universe.get_multiverse()
