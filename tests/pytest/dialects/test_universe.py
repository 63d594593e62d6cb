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


def test_extend_xdsl_dialects_patches_xdsls_own_universe():
    """The one patch of xDSL's dialects: its universe's factories give ours, so
    the Multiverse (what `xdsl-opt` and `make_context()` read) does too."""
    from xdsl.universe import XDSL_UNIVERSE

    assert XDSL_UNIVERSE.all_dialects["memref"]() is memref.MemRef
    assert XDSL_UNIVERSE.all_dialects["bufferization"]() is (
        bufferization.Bufferization
    )
    before = dict(XDSL_UNIVERSE.all_dialects)
    universe.extend_xdsl_dialects()
    assert XDSL_UNIVERSE.all_dialects == before
    assert Universe.get_multiverse().all_dialects["memref"]() is memref.MemRef
    assert set(universe.EXTENDED_XDSL_DIALECTS) == {"memref", "bufferization"}


def test_plain_xdsl_opt_parses_the_extended_syntax(tmp_path):
    """`xdsl-opt` with no flags: `memref.global` without an initial value is ours."""
    import subprocess
    import sys
    from pathlib import Path

    source = tmp_path / "g.mlir"
    source.write_text(
        'memref.global "private" @w : memref<4xf32> '
        "{hip.external_data = {offset = 0 : i64, size = 16 : i64}}\n"
    )
    xdsl_opt = Path(sys.executable).with_name("xdsl-opt")
    done = subprocess.run(
        [str(xdsl_opt), str(source)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert 'memref.global "private" @w : memref<4xf32>' in done.stdout


def test_onnx_frontend_is_registered():
    from xhip.frontend.xdsl_frontend import OnnxFrontend

    assert Universe.get_multiverse().all_frontends["onnx"]() is OnnxFrontend
