"""ONNX Runtime's block-quantized weight ops (`com.microsoft` MatMulNBits and
GatherBlockQuantized) in small models with dynamic batch and sequence dims,
against ONNX Runtime's CPU EP, which defines them.

Tolerances. MatMulNBits at accuracy levels 0-3 computes in float32 as ORT
does (dequantize, then a GEMM): they differ in summation order only, so
`atol = 1e-5 * max|y|`. At level 4 ORT quantizes A to int8 per block and
dots in integers (MLAS CompInt8); xhip reproduces that arithmetic, so the
integer dots are the same and only the float32 sum of the blocks' `dot *
scale_a * scale_b` is ordered differently: `atol = 1e-6 * max|y|` (measured
about 2e-7), while the float path is about 1e-2 * max|y| away from ORT's
level 4, which each level-4 case checks, so the test tells the two apart.
GatherBlockQuantized is `float(q - zero) * scale` in float32, as ORT: exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.utils.exceptions import PassFailedException

import xhip

MS = "com.microsoft"
RUNS = ({"batch": 1, "seq": 1}, {"batch": 4, "seq": 16})


def pack(values: np.ndarray, bits: int) -> np.ndarray:
    """Integers in `[0, 2^bits)` packed low bits first along the last axis
    (its length a multiple of `8 / bits`), as ORT's MatMulNBits reads them."""
    per = 8 // bits
    grouped = values.reshape(*values.shape[:-1], -1, per).astype(np.uint16)
    shifts = np.arange(per, dtype=np.uint16) * bits
    return (grouped << shifts).sum(axis=-1).astype(np.uint8)


def _model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    weights: Mapping[str, np.ndarray],
) -> onnx.ModelProto:
    graph = helper.make_graph(
        list(nodes),
        "nbits",
        list(inputs),
        list(outputs),
        initializer=[numpy_helper.from_array(v, k) for k, v in weights.items()],
    )
    return helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)],
    )


def nbits_weights(
    rng: np.random.Generator,
    name: str,
    k: int,
    n: int,
    bits: int,
    block: int,
    zero: str,
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Random B, scales and (`zero`: "none", "packed" or "float") zero
    points for a (k, n) weight: the initializers and the node's inputs."""
    blocks = -(-k // block)
    q = rng.integers(0, 1 << bits, (n, blocks, block))
    weights = {
        f"{name}_b": pack(q, bits),
        f"{name}_s": rng.uniform(0.01, 0.1, (n, blocks)).astype(np.float32),
    }
    names = [f"{name}_b", f"{name}_s"]
    if zero == "packed":
        per = 8 // bits
        z = np.zeros((n, -(-blocks // per) * per), np.int64)
        z[:, :blocks] = rng.integers(0, 1 << bits, (n, blocks))
        weights[f"{name}_z"] = pack(z, bits)
        names.append(f"{name}_z")
    elif zero == "float":
        weights[f"{name}_z"] = rng.uniform(0, (1 << bits) - 1, (n, blocks)).astype(
            np.float32
        )
        names.append(f"{name}_z")
    return weights, names


@dataclass(frozen=True)
class NBitsCase:
    bits: int
    block: int
    k: int = 200
    n: int = 24
    zero: str = "packed"
    bias: bool = False
    level: int = 0

    @property
    def id(self) -> str:
        bias = "_bias" if self.bias else ""
        return (
            f"b{self.bits}_blk{self.block}_k{self.k}_zp-{self.zero}{bias}"
            f"_level{self.level}"
        )

    def model(self, level: int | None = None) -> onnx.ModelProto:
        rng = np.random.default_rng(self.bits * 1000 + self.block + self.k)
        weights, names = nbits_weights(
            rng, "w", self.k, self.n, self.bits, self.block, self.zero
        )
        if self.zero == "none":
            names.append("")
        if self.bias:
            weights["bias"] = rng.standard_normal(self.n).astype(np.float32)
            names += ["", "bias"]
        node = helper.make_node(
            "MatMulNBits",
            ["a", *names],
            ["y"],
            domain=MS,
            K=self.k,
            N=self.n,
            bits=self.bits,
            block_size=self.block,
            accuracy_level=self.level if level is None else level,
        )
        f = TensorProto.FLOAT
        return _model(
            [node],
            [helper.make_tensor_value_info("a", f, ["batch", "seq", self.k])],
            [helper.make_tensor_value_info("y", f, ["batch", "seq", self.n])],
            weights,
        )


CASES = [
    NBitsCase(4, 32),
    NBitsCase(4, 32, level=4),
    NBitsCase(4, 16, zero="none", bias=True),
    NBitsCase(4, 16, zero="none", bias=True, level=4),
    NBitsCase(4, 64, k=256, bias=True, level=4),
    NBitsCase(4, 128, level=4),
    NBitsCase(4, 128, zero="none"),
    NBitsCase(4, 256, k=96, level=4),
    NBitsCase(4, 32, zero="float", bias=True),
    NBitsCase(4, 32, zero="float", level=4),  # ORT: float zero points -> float
    NBitsCase(8, 32),
    NBitsCase(8, 32, level=4),
    NBitsCase(8, 64, zero="none", bias=True, level=4),
    NBitsCase(8, 16, k=40, zero="none"),
    NBitsCase(2, 64, level=4),
    NBitsCase(2, 16, level=4),  # no 2-bit CompInt8 kernel for 16: float
    NBitsCase(2, 32, zero="none", bias=True),
    NBitsCase(4, 32, level=1),
    NBitsCase(4, 32, level=3),
]


def feeds_for(model: onnx.ModelProto, dims: Mapping[str, int]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(sum(dims.values()))
    feeds: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        shape = [
            dims[d.dim_param] if d.dim_param else d.dim_value
            for d in value.type.tensor_type.shape.dim
        ]
        feeds[value.name] = (rng.standard_normal(shape) * 2).astype(np.float32)
    return feeds


def onnxruntime_run(
    model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]
) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(y) for y in session.run(None, dict(feeds))]


def tolerance(level: int, want: np.ndarray) -> float:
    """The absolute tolerance of the module's docstring."""
    return (1e-6 if level == 4 else 1e-5) * float(np.abs(want).max())


def check_case(case: NBitsCase, got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=0, atol=tolerance(case.level, want))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_matmul_nbits_matches_onnxruntime(case: NBitsCase) -> None:
    model = case.model()
    compiled = xhip.compile(model)
    for dims in RUNS:
        feeds = feeds_for(model, dims)
        (want,) = onnxruntime_run(model, feeds)
        check_case(case, compiled(feeds)["y"], want)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.level == 4][:3], ids=lambda c: c.id
)
def test_level_4_tolerance_tells_int8_from_float(case: NBitsCase) -> None:
    """ORT's own level-0 output is far outside the level-4 tolerance: the
    comparison above holds only for the int8 arithmetic."""
    feeds = feeds_for(case.model(), RUNS[1])
    (int8,) = onnxruntime_run(case.model(), feeds)
    (floats,) = onnxruntime_run(case.model(level=0), feeds)
    assert np.abs(int8 - floats).max() > 100 * tolerance(4, int8)


def test_g_idx_is_refused() -> None:
    case = NBitsCase(4, 32)
    model = case.model()
    node = model.graph.node[0]
    node.input.extend(["g_idx"])
    model.graph.initializer.append(
        numpy_helper.from_array((np.arange(case.k) // 32).astype(np.int32), "g_idx")
    )
    with pytest.raises(
        PassFailedException,
        match=r"onnx.MatMulNBits \(node 'y'\): g_idx \(deprecated\) is not supported",
    ):
        xhip.compile(model)


def test_int4_data_is_refused_by_type() -> None:
    f = TensorProto.FLOAT
    data = helper.make_tensor("data", TensorProto.INT4, [4, 32], [0] * 128)
    node = helper.make_node(
        "GatherBlockQuantized", ["data", "idx", "s"], ["y"], domain=MS, block_size=32
    )
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("idx", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", f, [2, 32])],
        initializer=[data, numpy_helper.from_array(np.ones((4, 1), np.float32), "s")],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)]
    )
    with pytest.raises(PassFailedException, match=r"data of i4: uint8 only"):
        xhip.compile(model)


@dataclass(frozen=True)
class GatherCase:
    bits: int
    block: int
    shape: tuple[int, ...] = (10, 64)
    zero: bool = True
    indices: str = "int64"

    @property
    def id(self) -> str:
        zp = "zp" if self.zero else "nozp"
        dims = "x".join(map(str, self.shape))
        return f"b{self.bits}_blk{self.block}_{dims}_{zp}_{self.indices}"

    def model(self) -> onnx.ModelProto:
        """`shape` is that of the values; u8 data packs `8 / bits` of them
        per byte along the last axis."""
        rng = np.random.default_rng(self.bits + self.block + len(self.shape))
        per = 8 // self.bits
        *rows, width = self.shape
        blocks = -(-width // self.block)
        q = rng.integers(0, 1 << self.bits, self.shape)
        weights = {
            "data": pack(q, self.bits),
            "s": rng.uniform(0.01, 0.1, (*rows, blocks)).astype(np.float32),
        }
        names = ["data", "idx", "s"]
        if self.zero:
            z = np.zeros((*rows, -(-blocks // per) * per), np.int64)
            z[..., :blocks] = rng.integers(0, 1 << self.bits, (*rows, blocks))
            weights["z"] = pack(z, self.bits)
            names.append("z")
        node = helper.make_node(
            "GatherBlockQuantized",
            names,
            ["y"],
            domain=MS,
            bits=self.bits,
            block_size=self.block,
            quantize_axis=len(self.shape) - 1,
        )
        kind = TensorProto.INT64 if self.indices == "int64" else TensorProto.INT32
        out = ["batch", "seq", *self.shape[1:]]
        return _model(
            [node],
            [helper.make_tensor_value_info("idx", kind, ["batch", "seq"])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, out)],
            weights,
        )

    def feeds(self, dims: Mapping[str, int]) -> dict[str, np.ndarray]:
        """Indices in range, negative ones, and (zeros in ORT) out of range."""
        rng = np.random.default_rng(sum(dims.values()))
        rows = self.shape[0]
        idx = rng.integers(-rows - 2, rows + 2, (dims["batch"], dims["seq"]))
        dtype = np.int64 if self.indices == "int64" else np.int32
        return {"idx": idx.astype(dtype)}


GATHER_CASES = [
    GatherCase(4, 32),
    GatherCase(4, 16, zero=False, indices="int32"),
    GatherCase(4, 64, shape=(6, 3, 96)),
    GatherCase(8, 32),
    GatherCase(8, 16, zero=False),
    GatherCase(2, 32, shape=(8, 128)),
    GatherCase(2, 64, zero=False),
]


@pytest.mark.parametrize("case", GATHER_CASES, ids=lambda c: c.id)
def test_gather_block_quantized_matches_onnxruntime(case: GatherCase) -> None:
    model = case.model()
    compiled = xhip.compile(model)
    for dims in RUNS:
        feeds = case.feeds(dims)
        (want,) = onnxruntime_run(model, feeds)
        got = compiled(feeds)["y"]
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


HIDDEN, VOCAB, BLOCK = 64, 40, 32


def tied_lm() -> onnx.ModelProto:
    """A tiny int4 LM as onnxruntime-genai's builder writes one with tied
    embeddings: GatherBlockQuantized of the token ids, a MatMulNBits layer
    (level 4), and the LM head a MatMulNBits of the embedding's own bytes."""
    rng = np.random.default_rng(11)
    blocks = HIDDEN // BLOCK
    weights, layer = nbits_weights(rng, "w", HIDDEN, HIDDEN, 4, BLOCK, "packed")
    head = rng.integers(0, 16, (VOCAB, blocks, BLOCK))
    weights["emb"] = pack(head.reshape(VOCAB, HIDDEN), 4)
    weights["head_b"] = pack(head, 4)
    scales = rng.uniform(0.01, 0.1, (VOCAB, blocks)).astype(np.float32)
    weights["emb_s"] = scales
    weights["head_s"] = scales
    nodes = [
        helper.make_node(
            "GatherBlockQuantized",
            ["emb", "ids", "emb_s"],
            ["x"],
            domain=MS,
            block_size=BLOCK,
        ),
        helper.make_node(
            "MatMulNBits",
            ["x", *layer],
            ["h"],
            domain=MS,
            K=HIDDEN,
            N=HIDDEN,
            block_size=BLOCK,
            accuracy_level=4,
        ),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node(
            "MatMulNBits",
            ["r", "head_b", "head_s"],
            ["logits"],
            domain=MS,
            K=HIDDEN,
            N=VOCAB,
            block_size=BLOCK,
            accuracy_level=4,
        ),
    ]
    return _model(
        nodes,
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", "seq"])],
        [
            helper.make_tensor_value_info(
                "logits", TensorProto.FLOAT, ["batch", "seq", VOCAB]
            )
        ],
        weights,
    )


def tied_lm_feeds(dims: Mapping[str, int]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(sum(dims.values()))
    return {"ids": rng.integers(0, VOCAB, (dims["batch"], dims["seq"]))}


def test_tied_int4_lm_matches_onnxruntime() -> None:
    model = tied_lm()
    compiled = xhip.compile(model)
    for dims in RUNS:
        feeds = tied_lm_feeds(dims)
        (want,) = onnxruntime_run(model, feeds)
        got = compiled(feeds)["logits"]
        np.testing.assert_allclose(got, want, rtol=0, atol=tolerance(4, want))
