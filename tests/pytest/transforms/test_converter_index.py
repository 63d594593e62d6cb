"""`convert-onnx-to-hip` loads only the pattern modules its ops need
(`xhip.transforms.onnx_to_hip.Converters`, through the generated
`converter_index`): each op must still be given the same patterns, in the same
order, as by the whole pattern list."""

from __future__ import annotations

import pytest
from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern

from xhip.dialects import onnx
from xhip.transforms.convert_onnx_to_hip import ConverterApplier
from xhip.transforms.onnx_to_hip import Converters, converter_index_gen, patterns
from xhip.transforms.onnx_to_hip.support import ConversionState
from xhip.transforms.typed_patterns import TypedPatternApplier, matched_types


def test_the_index_is_current() -> None:
    """Regenerated, it is the file: else run `python -m
    xhip.transforms.onnx_to_hip.converter_index_gen`."""
    assert converter_index_gen.PATH.read_text() == converter_index_gen.render()


def _signature(
    found: tuple[RewritePattern, ...],
) -> list[tuple[type[RewritePattern], tuple[type[Operation], ...] | None]]:
    """What tells two lists apart: each pattern's class and the ops it matches
    (one `ConvertElementwise` per table entry)."""
    return [(type(p), matched_types(p)) for p in found]


def test_each_op_gets_the_patterns_of_the_whole_list() -> None:
    """One applier meets every onnx op in turn, loading modules as it goes;
    each op's patterns are the whole list's, though more modules load after."""
    state = ConversionState()
    whole = TypedPatternApplier(patterns(state))
    lazy = ConverterApplier([], Converters(state), [])
    for op in reversed(onnx.OPS):
        assert _signature(lazy.patterns_for(op)) == _signature(whole.patterns_for(op))
    for op in onnx.OPS:  # the answers given first still hold
        assert _signature(lazy.patterns_for(op)) == _signature(whole.patterns_for(op))


@pytest.mark.parametrize("op", [onnx.MatMulOp, onnx.ReluOp, onnx.ReduceL2Op])
def test_an_op_loads_only_its_modules(op: type[Operation]) -> None:
    converters = Converters(ConversionState())
    assert converters.load_for(op.name)
    assert not converters.load_for(op.name)
    assert set(converters.loaded) == set(converter_index_gen.converters()[op.name])
    assert not converters.load_for("func.func")


def test_a_pattern_for_ops_it_cannot_key_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pattern for any op (or another dialect's) could not be found through
    an op's name, so the generator refuses it."""

    class AnyOp(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: object) -> None:
            pass

    def with_any(state: ConversionState) -> list[RewritePattern]:
        return [*patterns(state), AnyOp()]

    monkeypatch.setattr(converter_index_gen, "patterns", with_any)
    with pytest.raises(ValueError, match="AnyOp"):
        converter_index_gen.converters()
