"""The final IR of the seed model and of every committed fixture, held to the
text saved before the wave-3 refactor (`scripts/save_golden_ir.py`).

A refactor of the dialects, the conversion or the passes must not change a
byte of what `onnx-to-hip` prints, nor of the constants blob.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "final_ir"
FIXTURES = ROOT / "tests" / "fixtures" / "models"
MODELS: dict[str, Path] = {
    "seed_attention": ROOT / "tests" / "filecheck" / "Inputs" / "attention.onnx.mlir",
    "attention_example": ROOT / "examples" / "attention.onnx",
    **{p.stem: p for p in sorted(FIXTURES.glob("*.onnx"))},
}


def final_ir(path: Path) -> tuple[str, bytes]:
    """The final IR's text and the constants blob of `path`."""
    from xhip.api import compile_to_ir
    from xhip.testing import parse_module

    model = parse_module(path.read_text()) if path.suffix == ".mlir" else path
    compiled = compile_to_ir(model)
    return str(compiled.module) + "\n", compiled.constants


@pytest.mark.parametrize("name", sorted(MODELS))
def test_final_ir_is_unchanged(name: str) -> None:
    text, blob = final_ir(MODELS[name])
    want = (GOLDEN / f"{name}.mlir").read_text()
    assert text == want, f"the final IR of {name} changed (diff with {GOLDEN}/{name}.mlir)"
    digest = (GOLDEN / f"{name}.constants.sha256").read_text().strip()
    assert hashlib.sha256(blob).hexdigest() == digest, f"{name}'s constants changed"
