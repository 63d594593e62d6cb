"""Transformer models built with `onnx.helper` (random weights, fixed seeds)
through every pass, against ONNX Runtime (CPU EP), at dynamic `batch`, `seq`
(1 included, odd sizes), on the CPU runtime and, at one dims set, on the
emulated GPU runtimes (CUDA warp 32, HIP warps 64 and 32).

- `encoder_erf`: a pre-LN encoder block: LayerNormalization -> multi-head
  self-attention of MatMul/Reshape/Transpose/Softmax with the 1/sqrt(head)
  scale -> residual Add -> LayerNormalization -> MLP with the erf GELU
  `0.5 * x * (1 + Erf(x / sqrt(2)))` -> residual Add.
- `encoder_gelu`, `encoder_gelu_tanh`: the same with opset 20's `Gelu`
  (approximate "none" and "tanh").
- `encoder_stack12`: 12 such blocks (model dim 32, 4 heads) and a final
  LayerNormalization.
- `llama_decoder`: a LLaMA-style decoder block: RMSNorm as
  Pow/ReduceMean/Add/Sqrt/Reciprocal/Mul, rotary embeddings (rotate-half) of
  Sin/Cos of a position `Range(0, seq)` read from `Shape(X)`, a causal mask
  from the same range (Greater -> Where -> Add), 4 query heads over 2 KV heads
  (Unsqueeze/Expand/Reshape), SwiGLU MLP (Sigmoid, Mul).
- `llama_decoder_op23`: the same block with opset 23's RMSNormalization and
  RotaryEmbedding (position ids Expand-ed from the range).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.emulator.conftest import (  # noqa: F401 (fixtures)
    MakeGpu,
    emulated,
    make_gpu,
)
from xhip.api import CompiledIR
from xhip.backend.session import CompiledModel

F = TensorProto.FLOAT
I64 = TensorProto.INT64
RTOL, ATOL = 1e-4, 1e-5
DIMS = [(1, 1), (1, 7), (3, 1), (2, 13), (5, 33)]
GPU_DIMS = (2, 5)


class Graph:
    """Nodes and initializers of a model being built; names made unique."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.count = 0

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}_{self.count}"

    def const(self, value: np.ndarray | float | int | list[int], hint: str) -> str:
        array = np.asarray(value)
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        name = self.fresh(hint)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def weight(self, hint: str, *shape: int) -> str:
        values = self.rng.standard_normal(shape) / np.sqrt(shape[0])
        return self.const(values.astype(np.float32), hint)

    def bias(self, hint: str, n: int) -> str:
        return self.const(self.rng.normal(0, 0.1, n).astype(np.float32), hint)

    def op(self, op_type: str, *inputs: str, outputs: int = 1, **attrs: Any) -> str:
        names = [self.fresh(op_type.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, list(inputs), names, **attrs))
        return names[0]

    def linear(self, x: str, d_in: int, d_out: int, bias: bool = True) -> str:
        y = self.op("MatMul", x, self.weight("w", d_in, d_out))
        return self.op("Add", y, self.bias("b", d_out)) if bias else y

    def model(self, name: str, x: str, y: str, d: int, opset: int) -> onnx.ModelProto:
        self.nodes.append(helper.make_node("Identity", [y], ["Y"]))
        graph = helper.make_graph(
            self.nodes,
            name,
            [helper.make_tensor_value_info(x, F, ["batch", "seq", d])],
            [helper.make_tensor_value_info("Y", F, ["batch", "seq", d])],
            self.initializers,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        onnx.checker.check_model(model)
        return model


# --- pre-LN encoder -------------------------------------------------------------


def layer_norm(g: Graph, x: str, d: int) -> str:
    scale = g.const(g.rng.uniform(0.5, 1.5, d), "ln_g")
    return g.op("LayerNormalization", x, scale, g.bias("ln_b", d), epsilon=1e-5)


def gelu(g: Graph, x: str, kind: str) -> str:
    if kind == "erf":
        e = g.op("Erf", g.op("Div", x, g.const(math.sqrt(2), "sqrt2")))
        half_x = g.op("Mul", x, g.const(0.5, "half"))
        return g.op("Mul", half_x, g.op("Add", e, g.const(1.0, "one")))
    return g.op("Gelu", x, approximate=kind)


def self_attention(g: Graph, x: str, d: int, heads: int) -> str:
    head = d // heads
    split = g.const([0, 0, heads, head], "heads_shape")
    merge = g.const([0, 0, d], "merge_shape")
    q = g.op("Reshape", g.linear(x, d, d), split)
    # -1 for the sequence on K: Reshape's inferred dim at a dynamic one
    k = g.op("Reshape", g.linear(x, d, d), g.const([0, -1, heads, head], "k_shape"))
    v = g.op("Reshape", g.linear(x, d, d), split)
    q = g.op("Transpose", q, perm=[0, 2, 1, 3])
    kt = g.op("Transpose", k, perm=[0, 2, 3, 1])
    v = g.op("Transpose", v, perm=[0, 2, 1, 3])
    scores = g.op("Mul", g.op("MatMul", q, kt), g.const(1 / math.sqrt(head), "scale"))
    probs = g.op("Softmax", scores, axis=-1)
    context = g.op("Transpose", g.op("MatMul", probs, v), perm=[0, 2, 1, 3])
    return g.linear(g.op("Reshape", context, merge), d, d)


def encoder_layer(g: Graph, x: str, d: int, heads: int, act: str) -> str:
    r = g.op("Add", x, self_attention(g, layer_norm(g, x, d), d, heads))
    h = gelu(g, g.linear(layer_norm(g, r, d), d, 4 * d), act)
    return g.op("Add", r, g.linear(h, 4 * d, d))


def encoder(
    act: str = "erf", layers: int = 1, d: int = 36, heads: int = 4, seed: int = 0
) -> onnx.ModelProto:
    g = Graph(seed)
    y = "X"
    for _ in range(layers):
        y = encoder_layer(g, y, d, heads, act)
    if layers > 1:
        y = layer_norm(g, y, d)
    return g.model(f"encoder_{act}_{layers}", "X", y, d, 18 if act == "erf" else 20)


# --- LLaMA-style decoder --------------------------------------------------------


def rms_norm(g: Graph, x: str, d: int, op23: bool) -> str:
    weight = g.const(g.rng.uniform(0.5, 1.5, d), "rms_w")
    if op23:
        return g.op("RMSNormalization", x, weight, axis=-1, epsilon=1e-6)
    mean = g.op(
        "ReduceMean", g.op("Pow", x, g.const(2.0, "two")), g.const([-1], "last")
    )
    rms = g.op("Sqrt", g.op("Add", mean, g.const(1e-6, "eps")))
    return g.op("Mul", g.op("Mul", x, g.op("Reciprocal", rms)), weight)


def rotate_half(g: Graph, x: str, head: int) -> str:
    half, last = g.const([head // 2], "half"), g.const([-1], "last")
    x1 = g.op("Slice", x, g.const([0], "zero"), half, last)
    x2 = g.op("Slice", x, half, g.const([head], "end"), last)
    return g.op("Concat", g.op("Neg", x2), x1, axis=-1)


def llama_decoder(op23: bool = False, seed: int = 1) -> onnx.ModelProto:
    d, heads, kv_heads, hidden = 32, 4, 2, 88
    head, rep = d // heads, heads // kv_heads
    g = Graph(seed)
    shape = g.op("Shape", "X")
    seq = g.op("Gather", shape, g.const(1, "one_i"), axis=0)  # a 0-D int64
    positions = g.op("Range", g.const(0, "start"), seq, g.const(1, "step"))

    n = rms_norm(g, "X", d, op23)
    q = g.op("Reshape", g.linear(n, d, d, False), g.const([0, 0, heads, head], "qs"))
    kv_shape = g.const([0, 0, kv_heads, head], "kvs")
    k = g.op("Reshape", g.linear(n, d, kv_heads * head, False), kv_shape)
    v = g.op("Reshape", g.linear(n, d, kv_heads * head, False), kv_shape)
    q = g.op("Transpose", q, perm=[0, 2, 1, 3])  # [b, heads, s, head]
    k = g.op("Transpose", k, perm=[0, 2, 1, 3])  # [b, kv_heads, s, head]
    v = g.op("Transpose", v, perm=[0, 2, 1, 3])

    inv_freq = 1.0 / 10000 ** (np.arange(0, head, 2) / head)
    if op23:
        table = np.arange(64)[:, None] * inv_freq  # [max positions, head / 2]
        cos = g.const(np.cos(table), "cos_cache")
        sin = g.const(np.sin(table), "sin_cache")
        batch_seq = g.op("Slice", shape, g.const([0], "z"), g.const([2], "two_i"))
        ids = g.op("Expand", positions, batch_seq)  # [b, s]
        q = g.op("RotaryEmbedding", q, cos, sin, ids)
        k = g.op("RotaryEmbedding", k, cos, sin, ids)
    else:
        pos = g.op("Unsqueeze", g.op("Cast", positions, to=F), g.const([1], "ax1"))
        freqs = g.op("Mul", pos, g.const(inv_freq, "inv_freq"))  # [s, head / 2]
        emb = g.op("Concat", freqs, freqs, axis=-1)  # [s, head]
        cos, sin = g.op("Cos", emb), g.op("Sin", emb)
        q = g.op("Add", g.op("Mul", q, cos), g.op("Mul", rotate_half(g, q, head), sin))
        k = g.op("Add", g.op("Mul", k, cos), g.op("Mul", rotate_half(g, k, head), sin))

    # grouped KV heads: [b, kv, s, h] -> [b, kv, rep, s, h] -> [b, heads, s, h]
    repeat = g.const([1, 1, rep, 1, 1], "rep")
    grouped = g.const([0, heads, -1, head], "grouped")
    ax2 = g.const([2], "ax2")
    k = g.op("Reshape", g.op("Expand", g.op("Unsqueeze", k, ax2), repeat), grouped)
    v = g.op("Reshape", g.op("Expand", g.op("Unsqueeze", v, ax2), repeat), grouped)

    rows = g.op("Unsqueeze", positions, g.const([1], "ax1"))  # [s, 1]
    cols = g.op("Unsqueeze", positions, g.const([0], "ax0"))  # [1, s]
    mask = g.op(
        "Where",
        g.op("Greater", cols, rows),
        g.const(-1e9, "neg"),
        g.const(0.0, "zero_f"),
    )
    kt = g.op("Transpose", k, perm=[0, 1, 3, 2])
    scores = g.op("Mul", g.op("MatMul", q, kt), g.const(1 / math.sqrt(head), "scale"))
    probs = g.op("Softmax", g.op("Add", scores, mask), axis=-1)
    context = g.op("Transpose", g.op("MatMul", probs, v), perm=[0, 2, 1, 3])
    context = g.op("Reshape", context, g.const([0, 0, d], "merge"))
    r = g.op("Add", "X", g.linear(context, d, d, False))

    n2 = rms_norm(g, r, d, op23)
    gate = g.linear(n2, d, hidden, False)
    silu = g.op("Mul", gate, g.op("Sigmoid", gate))
    up = g.op("Mul", silu, g.linear(n2, d, hidden, False))
    y = g.op("Add", r, g.linear(up, hidden, d, False))
    return g.model("llama_op23" if op23 else "llama", "X", y, d, 23 if op23 else 18)


MODELS: dict[str, Callable[[], onnx.ModelProto]] = {
    "encoder_erf": encoder,
    "encoder_gelu": lambda: encoder("none"),
    "encoder_gelu_tanh": lambda: encoder("tanh"),
    "encoder_stack12": lambda: encoder(layers=12, d=32, heads=4, seed=2),
    "llama_decoder": llama_decoder,
    "llama_decoder_op23": lambda: llama_decoder(op23=True),
}


def _feeds(model: onnx.ModelProto, batch: int, seq: int) -> dict[str, np.ndarray]:
    d = model.graph.input[0].type.tensor_type.shape.dim[2].dim_value
    x = np.random.default_rng(batch * 100 + seq).standard_normal((batch, seq, d))
    return {"X": x.astype(np.float32)}


def _check(
    compiled: CompiledModel,
    session: ort.InferenceSession,
    model: onnx.ModelProto,
    dims: tuple[int, int],
) -> None:
    feeds = _feeds(model, *dims)
    want = np.asarray(session.run(None, feeds)[0])
    got = compiled(feeds)
    assert list(got) == ["Y"]
    assert got["Y"].shape == want.shape, dims
    assert got["Y"].dtype == want.dtype, dims
    np.testing.assert_allclose(got["Y"], want, rtol=RTOL, atol=ATOL, err_msg=str(dims))


_cache: dict[str, tuple[onnx.ModelProto, ort.InferenceSession]] = {}


def _model(name: str) -> tuple[onnx.ModelProto, ort.InferenceSession]:
    if name not in _cache:
        model = MODELS[name]()
        session = ort.InferenceSession(
            model.SerializeToString(), providers=["CPUExecutionProvider"]
        )
        _cache[name] = model, session
    return _cache[name]


@cache
def _ir(name: str) -> CompiledIR:
    """The final IR, compiled once for the three GPU runtimes."""
    return xhip.compile_to_ir(_model(name)[0])


@pytest.mark.parametrize("name", sorted(MODELS))
def test_transformer_model_matches_onnxruntime(name: str) -> None:
    model, session = _model(name)
    compiled = xhip.compile(model, device="cpu")
    for dims in DIMS:
        _check(compiled, session, model, dims)


@pytest.mark.parametrize("name", ["encoder_erf", "llama_decoder"])
def test_transformer_model_in_debug_mode(name: str) -> None:
    """Poisoned fresh and freed memory, every view checked (docs/runtime.md)."""
    model, session = _model(name)
    compiled = xhip.compile(model, device="cpu", debug=True)
    for dims in [(1, 1), (2, 13)]:
        _check(compiled, session, model, dims)


@pytest.mark.emulator
@pytest.mark.parametrize(
    "name", ["encoder_erf", "encoder_gelu_tanh", "llama_decoder", "llama_decoder_op23"]
)
def test_transformer_model_on_gpu_runtimes(name: str, make_gpu: MakeGpu) -> None:  # noqa: F811
    model, session = _model(name)
    ir = _ir(name)
    compiled = CompiledModel(
        ir.module, ir.signature, ir.constants, make_gpu(debug=True)
    )
    _check(compiled, session, model, GPU_DIMS)
