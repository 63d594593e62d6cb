"""`hip-fold-attention-layouts` and `hip-fold-attention-bias` on the CPU: the
transformer blocks fold every head copy and Q/K/V bias add into the fused
attention and still match ONNX Runtime; the fixtures fold what they can and
match it too (their attentions: tests/pytest/transforms/test_hip_fuse_attention.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from tests.pytest.backend import test_bert_contrib_models as bert
from tests.pytest.backend.test_contrib_f16_models import f16_feeds, to_f16
from tests.pytest.conftest import REPO
from xhip.api import compile_to_ir
from xhip.backend.session import CompiledModel
from xhip.context import make_context
from xhip.dialects import hip

MODELS = Path(__file__).parents[2] / "fixtures" / "models"


def pre_ln_block(d: int, heads: int) -> onnx.ModelProto:
    """The pre-LN block of the benchmarks (`benchmarks/transformer_block.py`)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from transformer_block import (  # pyright: ignore[reportMissingImports]
            transformer_block,
        )
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return transformer_block(d, heads)  # pyright: ignore[reportUnknownVariableType]


def _count(model: CompiledModel, *kinds: type) -> int:
    return sum(isinstance(op, kinds) for op in model.module.walk())


def onnx_runtime(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> list[np.ndarray]:
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, feeds)


@pytest.mark.parametrize(("batch", "seq"), [(1, 1), (2, 37)])
def test_the_block_folds_its_copies_and_biases(batch: int, seq: int) -> None:
    """Four copies (Q, V transposed, K permuted, the output back) and three
    bias adds go; folded or not, the outputs are ONNX Runtime's."""
    model = pre_ln_block(64, 4)
    x = np.random.default_rng(seq).standard_normal((batch, seq, 64), np.float32)
    (want,) = onnx_runtime(model, {"X": x})
    ir = compile_to_ir(model)
    folded = CompiledModel(ir.module, ir.signature, ir.constants)
    plain = CompiledModel(ir.module, ir.signature, ir.constants, fold_attention=False)
    assert _count(plain, hip.TransposeOp, hip.PermuteOp) == 4
    assert _count(folded, hip.TransposeOp, hip.PermuteOp) == 0
    assert _count(plain, hip.AddOp) - _count(folded, hip.AddOp) == 3
    (att,) = [op for op in folded.module.walk() if isinstance(op, hip.FusedAttentionOp)]
    assert att.biased_operands() == "qkv"
    for compiled in (folded, plain):
        (got,) = compiled({"X": x}).values()
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("name", "copies"),
    [
        ("bert.torchscript", 2),
        ("bert.dynamo", 4),
        ("gpt2.torchscript", 2),
        ("gpt2.dynamo", 4),
        ("llama.dynamo", 2),
    ],
)
def test_fixtures_fold_their_output_copies_and_match_onnx_runtime(
    name: str, copies: int
) -> None:
    """The exports' attention outputs are transposed back by a copy the
    attention now writes through (their heads are split through dynamic
    reshapes, which keep the input copies and the adds)."""
    path = MODELS / f"{name}.onnx"
    data = dict(np.load(MODELS / f"{name}.npz"))
    model = onnx.load(str(path))
    inputs = {i.name: data[i.name] for i in model.graph.input if i.name in data}
    expected = onnx_runtime(model, inputs)
    ir = compile_to_ir(path)
    folded = CompiledModel(ir.module, ir.signature, ir.constants)
    plain = CompiledModel(ir.module, ir.signature, ir.constants, fold_attention=False)
    kinds = (hip.TransposeOp, hip.PermuteOp)
    assert _count(plain, *kinds) - _count(folded, *kinds) == copies
    for got, want in zip(folded(inputs).values(), expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def times_one(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """`model` with each float input first multiplied by 1, and its feeds:
    the contrib op's inputs become computed buffers of the memory plan, whose
    views it reuses (MultiHeadAttention's packed bias is sliced three times
    into one view)."""
    graph = model.graph
    kinds = (TensorProto.FLOAT, TensorProto.FLOAT16)
    floats = {i.name for i in graph.input if i.type.tensor_type.elem_type in kinds}
    (kind,) = {i.type.tensor_type.elem_type for i in graph.input if i.name in floats}
    one = np.array(1, np.float32 if kind == TensorProto.FLOAT else np.float16)
    muls = [helper.make_node("Mul", [f"{n}_in", "one"], [n]) for n in floats]
    inputs: list[onnx.ValueInfoProto] = []
    for given in graph.input:
        renamed = onnx.ValueInfoProto()
        renamed.CopyFrom(given)
        if given.name in floats:
            renamed.name = f"{given.name}_in"
        inputs.append(renamed)
    new = helper.make_graph(
        [*muls, *graph.node],
        graph.name,
        inputs,
        list(graph.output),
        initializer=[numpy_helper.from_array(one, "one")],
    )
    renamed_feeds = {f"{k}_in" if k in floats else k: v for k, v in feeds.items()}
    return helper.make_model(new, opset_imports=model.opset_import), renamed_feeds


def contrib_case(
    name: str, computed: bool, half: bool
) -> tuple[onnx.ModelProto, dict[str, np.ndarray], dict[str, np.ndarray]]:
    """A contrib attention case (`test_bert_contrib_models`), its feeds and
    ONNX Runtime's outputs; float16 and inputs computed as asked."""
    case = bert.ALL_CASES[name]
    model, feeds = bert.model_of(case), bert.feeds_of(case)
    if half:
        model, feeds = to_f16(model), f16_feeds(feeds)
    want = bert.onnxruntime_outputs(model, feeds)
    if computed:
        model, feeds = times_one(model, feeds)
    return model, feeds, want


CONTRIB = ["mha_bias", "mha_v_hidden", "mha_bnsh_kv", "mha_separate"]
CONTRIB += ["attention_plain", "attention_qkv_hidden_sizes"]


@pytest.mark.parametrize("half", [False, True], ids=["f32", "f16"])
@pytest.mark.parametrize("computed", [False, True], ids=["given", "times_one"])
@pytest.mark.parametrize("name", CONTRIB)
def test_contrib_attentions_folded_match_onnx_runtime(
    name: str, computed: bool, half: bool
) -> None:
    """MultiHeadAttention (cross attention: 3 queries, 4 keys; K and V given
    split into heads; V wider) and Attention (packed Q/K/V projection), inputs
    given or computed: with its inputs times 1, MultiHeadAttention's Q bias
    was folded from a pool view that held the V bias by the attention."""
    model, feeds, want = contrib_case(name, computed, half)
    ir = compile_to_ir(model)
    got = CompiledModel(ir.module, ir.signature, ir.constants)(feeds)
    bert.check(got, want, name)


@pytest.mark.parametrize(
    ("biased", "bias", "message"),
    [
        ("kq", "memref<8xf32>", "biased must name some of q, k, v in order"),
        ("q", "memref<4x1x8xf32>", "q bias shape 4x1x8 does not broadcast to q 4x8"),
        ("q", "memref<3xf32>", "q bias shape 3 does not broadcast to q 4x8"),
    ],
)
def test_the_op_checks_its_biases(biased: str, bias: str, message: str) -> None:
    text = f"""
    func.func @f(%ctx: !hip.context, %q: memref<4x8xf32>, %k: memref<8x4xf32>,
                 %v: memref<4x8xf32>, %b: {bias}, %o: memref<4x8xf32>) {{
      hip.fused_attention(%ctx) ins(%q, %k, %v, %b : memref<4x8xf32>,
        memref<8x4xf32>, memref<4x8xf32>, {bias}) outs(%o : memref<4x8xf32>)
        {{biased = "{biased}"}}
      func.return
    }}"""
    function = Parser(make_context(), text).parse_op()
    with pytest.raises(VerifyException, match=message):
        function.verify()
