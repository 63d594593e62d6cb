"""`TypedPatternApplier` tries only the patterns that can match an op's class,
and `one-shot-bufferize` keeps its tensor-to-buffer table instead of
`bufferization.to_tensor` wrappers: both give the IR xDSL's
`GreedyRewritePatternApplier` and the wrappers gave.

Compared with the passes run with xDSL's applier (patched in), not with
recorded output; the golden IR and the seed's per-pass dumps hold the rest.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer
from xdsl.utils.exceptions import PassFailedException

from tests.pytest.conftest import REPO
from xhip.context import make_context
from xhip.dialects import hip
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import parse_module
from xhip.transforms import convert_onnx_to_hip, one_shot_bufferize
from xhip.transforms.one_shot_bufferize import (
    BufferizeHipOp,
    Buffers,
    OneShotBufferizePass,
)
from xhip.transforms.onnx_to_hip import Converters, patterns
from xhip.transforms.onnx_to_hip.support import ConversionState
from xhip.transforms.typed_patterns import TypedPatternApplier, matched_types

from .test_compile_complexity import attention_layers

INPUTS = sorted((REPO / "tests" / "filecheck" / "Inputs").glob("*.onnx.mlir"))


class _One(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.DimOp, rewriter: PatternRewriter) -> None:
        pass


class _Either(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.DimOp | arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        pass


class _Any(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        pass


def test_matched_types_read_the_declared_types() -> None:
    assert matched_types(_One()) == (tensor.DimOp,)
    assert matched_types(_Either()) == (tensor.DimOp, arith.ConstantOp)
    assert matched_types(_Any()) is None
    assert matched_types(BufferizeHipOp(Buffers())) == (hip.HipDPSOp,)
    state = ConversionState()
    for pattern in patterns(state):
        assert matched_types(pattern) == (pattern.op_type,)


def test_applier_keeps_the_order_of_the_patterns_that_can_match() -> None:
    one, either, any_ = _One(), _Either(), _Any()
    applier = TypedPatternApplier([one, either, any_])
    assert applier.patterns_for(tensor.DimOp) == (one, either, any_)
    assert applier.patterns_for(arith.ConstantOp) == (either, any_)
    assert applier.patterns_for(func.ReturnOp) == (any_,)


def _stages(text: str, tmp: Path) -> list[str]:
    """The IR after passes 1-3 of `onnx-to-hip`, printed."""
    ctx = make_context()
    module = parse_module(text)
    texts: list[str] = []
    for p in onnx_to_hip_passes(externalize_output_dir=str(tmp))[:3]:
        p.apply(ctx, module)
        stream = io.StringIO()
        Printer(stream).print_op(module)
        texts.append(stream.getvalue())
    return texts


@pytest.mark.parametrize(
    "name", ["2 layers", *(p.name for p in INPUTS)], ids=lambda n: n
)
def test_passes_give_what_xdsl_applier_gives(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (
        attention_layers(2)
        if name == "2 layers"
        else (INPUTS[0].parent / name).read_text()
    )
    ours = _stages(text, tmp_path / "ours")

    def whole_list(
        first: list[RewritePattern], converters: Converters, last: list[RewritePattern]
    ) -> GreedyRewritePatternApplier:
        """xDSL's applier over every pattern module's patterns, all loaded."""
        return GreedyRewritePatternApplier([*first, *patterns(converters.state), *last])

    monkeypatch.setattr(convert_onnx_to_hip, "ConverterApplier", whole_list)
    monkeypatch.setattr(
        one_shot_bufferize, "TypedPatternApplier", GreedyRewritePatternApplier
    )
    assert ours == _stages(text, tmp_path / "xdsl")


def test_an_op_left_tensor_reads_a_wrapper_of_the_buffer() -> None:
    """The error names only the op no pattern converts, which reads the
    buffer through a `bufferization.to_tensor`, as when every converted op
    was replaced by its wrappers."""
    module: ModuleOp = parse_module(
        """
        func.func @f(%i: index) -> f32 {
          %t = tensor.empty() : tensor<4xf32>
          %x = tensor.extract %t[%i] : tensor<4xf32>
          func.return %x : f32
        }
        """
    )
    with pytest.raises(PassFailedException, match=r"1 op\(s\).*tensor.extract in @f$"):
        OneShotBufferizePass().apply(make_context(), module)
    extract = next(op for op in module.walk() if isinstance(op, tensor.ExtractOp))
    wrapper = extract.tensor.owner
    assert isinstance(wrapper, Operation)
    assert wrapper.name == "bufferization.to_tensor"
    assert wrapper.operands[0].owner.name == "memref.alloc"  # pyright: ignore[reportAttributeAccessIssue]
    assert not any(isinstance(op, tensor.EmptyOp) for op in module.walk())
