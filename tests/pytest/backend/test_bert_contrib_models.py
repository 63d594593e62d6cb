"""`com.microsoft` MultiHeadAttention, Attention and EmbedLayerNormalization
against ONNX Runtime's CPU EP, which defines them: one small model per form
of their inputs and attributes (every mask form ORT's CPU EP takes, attention
bias, past and present KV, `unidirectional`, `qkv_hidden_sizes`, `scale`,
`mask_filter_value`); and BERT fused by ORT's transformers optimizer
(`tests/fixtures/bert/`).

ORT's CPU EP refuses MultiHeadAttention's packed QKV and packed KV forms
(its CUDA EP's); those models are checked against ORT running the same
numbers unpacked (`PACKED`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import xhip

MS = "com.microsoft"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "bert"
RTOL, ATOL = 1e-4, 1e-5
DIMS = {"batch": 2, "seq": 3, "kv": 4, "past": 2, "total": 5, "vocab": 11}
"""The sizes of the symbolic dims the models declare."""
HEADS, HEAD = 2, 4
HIDDEN = HEADS * HEAD

Compiled = Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]
Dims = list[str | int]


@dataclass
class Case:
    """One contrib node: its inputs (name -> element type, dims; "" skips
    one), outputs, attributes and how to fill some inputs."""

    op: str
    inputs: list[tuple[str, int, Dims]]
    outputs: list[str]
    attributes: dict[str, Any] = field(default_factory=dict[str, Any])
    values: dict[str, np.ndarray] = field(default_factory=dict[str, np.ndarray])
    """Fixed values (masks, ids); the other inputs are random floats."""


F, I32 = TensorProto.FLOAT, TensorProto.INT32
QUERY = ("query", F, ["batch", "seq", HIDDEN])
KEY = ("key", F, ["batch", "kv", HIDDEN])
VALUE = ("value", F, ["batch", "kv", HIDDEN])
SKIP = ("", F, [])
PAST_KV = [("past_key", F, ["batch", HEADS, "past", HEAD]),
           ("past_value", F, ["batch", HEADS, "past", HEAD])]  # fmt: skip
MASK_2D = np.array([[1, 1, 0, 1], [1, 1, 1, 0]], np.int32)
MASK_3D = (np.random.default_rng(7).random((2, 3, 4)) > 0.4).astype(np.int32)
MASK_3D[1, 2] = 0  # a row with every key masked: uniform over the filter values


def _mha(
    inputs: list[tuple[str, int, Dims]],
    outputs: list[str] | None = None,
    values: dict[str, np.ndarray] | None = None,
    **attributes: Any,
) -> Case:
    return Case(
        "MultiHeadAttention",
        inputs,
        outputs or ["output"],
        {"num_heads": HEADS, **attributes},
        values or {},
    )


MHA_CASES: dict[str, Case] = {
    "separate": _mha([QUERY, KEY, VALUE]),
    "bias": _mha([QUERY, KEY, VALUE, ("bias", F, [3 * HIDDEN])]),
    "v_hidden": _mha(
        [
            QUERY,
            KEY,
            ("value", F, ["batch", "kv", 2 * HIDDEN]),
            ("bias", F, [4 * HIDDEN]),
        ]
    ),  # fmt: skip
    "mask_2d": _mha(
        [QUERY, KEY, VALUE, SKIP, ("mask", I32, ["batch", "kv"])],
        values={"mask": MASK_2D},
    ),
    "mask_lengths": _mha(
        [QUERY, KEY, VALUE, SKIP, ("mask", I32, ["batch"])],
        values={"mask": np.array([4, 2], np.int32)},
        mask_filter_value=-50.0,
    ),
    "mask_3d": _mha(
        [QUERY, KEY, VALUE, SKIP, ("mask", I32, ["batch", "seq", "kv"])],
        values={"mask": MASK_3D},
        mask_filter_value=-3.0,
    ),
    "attention_bias": _mha(
        [
            QUERY,
            KEY,
            VALUE,
            ("bias", F, [3 * HIDDEN]),
            ("mask", I32, ["batch", "kv"]),
            ("attention_bias", F, [1, HEADS, "seq", "kv"]),
        ],
        values={"mask": MASK_2D},
        scale=0.3,
    ),  # fmt: skip
    "bias_per_batch": _mha(
        [
            QUERY,
            KEY,
            VALUE,
            SKIP,
            SKIP,
            ("attention_bias", F, ["batch", 1, "seq", "kv"]),
        ]
    ),  # fmt: skip
    "bnsh_kv": _mha(
        [
            QUERY,
            ("key", F, ["batch", HEADS, "kv", HEAD]),
            ("value", F, ["batch", HEADS, "kv", HEAD]),
            ("bias", F, [3 * HIDDEN]),
        ]
    ),  # fmt: skip
    "past_unidirectional": _mha(
        [
            ("query", F, ["batch", "seq", HIDDEN]),
            ("key", F, ["batch", "seq", HIDDEN]),
            ("value", F, ["batch", "seq", HIDDEN]),
            ("bias", F, [3 * HIDDEN]),
            ("mask", I32, ["batch", "total"]),
            SKIP,
            *PAST_KV,
        ],
        ["output", "present_key", "present_value"],
        values={"mask": np.array([[1, 1, 1, 1, 1], [0, 1, 1, 1, 0]], np.int32)},
        unidirectional=1,
    ),  # fmt: skip
}
"""MultiHeadAttention over its inputs' forms, ORT's CPU EP the oracle."""

PACKED: dict[str, tuple[Case, Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]], Case]] = {
    "packed_qkv": (
        _mha([("qkv", F, ["batch", "seq", HEADS, 3, HEAD]), SKIP, SKIP,
              ("bias", F, [3 * HIDDEN]), ("mask", I32, ["batch", "seq"])],
             values={"mask": np.array([[1, 1, 0], [1, 1, 1]], np.int32)}),
        lambda f: {
            "query": f["qkv"][:, :, :, 0].reshape(2, 3, HIDDEN),
            "key": f["qkv"][:, :, :, 1].reshape(2, 3, HIDDEN),
            "value": f["qkv"][:, :, :, 2].reshape(2, 3, HIDDEN),
            "bias": f["bias"], "mask": f["mask"],
        },
        _mha([("query", F, ["batch", "seq", HIDDEN]), ("key", F, ["batch", "seq", HIDDEN]),
              ("value", F, ["batch", "seq", HIDDEN]), ("bias", F, [3 * HIDDEN]),
              ("mask", I32, ["batch", "seq"])]),
    ),
    "packed_kv": (
        _mha([("query", F, ["batch", "kv", HIDDEN]), ("kv", F, ["batch", "kv", HEADS, 2, HEAD]),
              SKIP, ("bias", F, [3 * HIDDEN])], unidirectional=1),
        lambda f: {
            "query": f["query"],
            "key": f["kv"][:, :, :, 0].reshape(2, 4, HIDDEN),
            "value": f["kv"][:, :, :, 1].reshape(2, 4, HIDDEN),
            "bias": f["bias"],
        },
        _mha([("query", F, ["batch", "kv", HIDDEN]), KEY, VALUE, ("bias", F, [3 * HIDDEN])],
             unidirectional=1),
    ),
}  # fmt: skip
"""Packed forms: (packed model, its feeds unpacked, the unpacked model)."""


def _attention(
    inputs: list[tuple[str, int, Dims]],
    outputs: list[str] | None = None,
    values: dict[str, np.ndarray] | None = None,
    columns: int = 3 * HIDDEN,
    batch: str | int = "batch",
    **attributes: Any,
) -> Case:
    base = [("input", F, [batch, "seq", 6]), ("weights", F, [6, columns]),
            ("bias", F, [columns])]  # fmt: skip
    return Case(
        "Attention",
        [*base, *inputs],
        outputs or ["output"],
        {"num_heads": HEADS, **attributes},
        values or {},
    )


ATTENTION_CASES: dict[str, Case] = {
    "plain": _attention([]),
    "mask_2d": _attention(
        [("mask", I32, ["batch", "seq"])],
        values={"mask": np.array([[1, 1, 0], [0, 1, 1]], np.int32)},
    ),
    "mask_lengths": _attention(
        [("mask", I32, ["batch"])], values={"mask": np.array([3, 1], np.int32)}
    ),
    "mask_end_start": _attention(
        [("mask", I32, [4])],
        values={"mask": np.array([3, 2, 1, 0], np.int32)},
        batch=2,  # (2B,) is told from (B,) by a static batch
    ),
    "mask_3d": _attention(
        [("mask", I32, ["batch", "seq", "seq"])],
        values={"mask": MASK_3D[:, :, :3].copy()},
        mask_filter_value=-7.0,
    ),
    "qkv_hidden_sizes": _attention(
        [], columns=4 * HIDDEN, qkv_hidden_sizes=[HIDDEN, HIDDEN, 2 * HIDDEN]
    ),
    "unidirectional": _attention([], unidirectional=1),
    "past_present": _attention(
        [
            ("mask", I32, ["batch", "total"]),
            ("past", F, [2, "batch", HEADS, "past", HEAD]),
        ],
        ["output", "present"],
        values={"mask": np.array([[1, 1, 1, 1, 0], [0, 1, 1, 1, 1]], np.int32)},
        unidirectional=1,
    ),  # fmt: skip
    "attention_bias_scale": _attention(
        [
            ("", F, []),
            ("", F, []),
            ("attention_bias", F, ["batch", HEADS, "seq", "seq"]),
        ],
        scale=0.25,
    ),  # fmt: skip
}
"""com.microsoft Attention over its inputs' forms."""


def _embed(
    inputs: list[tuple[str, int, Dims]],
    outputs: list[str],
    values: dict[str, np.ndarray],
    **attributes: Any,
) -> Case:
    return Case("EmbedLayerNormalization", inputs, outputs, attributes, values)


IDS: tuple[str, int, Dims] = ("input_ids", I32, ["batch", "seq"])
WORDS: tuple[str, int, Dims] = ("word_embedding", F, ["vocab", HIDDEN])
POSITIONS: tuple[str, int, Dims] = ("position_embedding", F, [6, HIDDEN])
NORM: list[tuple[str, int, Dims]] = [("gamma", F, [HIDDEN]), ("beta", F, [HIDDEN])]
TOKENS = np.array([[1, 5, 10], [0, 3, 3]], np.int32)
EMBED_CASES: dict[str, Case] = {
    "full": _embed(
        [IDS, ("segment_ids", I32, ["batch", "seq"]), WORDS, POSITIONS,
         ("segment_embedding", F, [2, HIDDEN]), *NORM, ("mask", I32, ["batch", "seq"])],
        ["output", "mask_index", "embedding_sum"],
        {"input_ids": TOKENS, "segment_ids": np.array([[0, 0, 1], [1, 1, 0]], np.int32),
         "mask": np.array([[1, 1, 0], [1, 2, 0]], np.int32)},
        epsilon=1e-5,
    ),
    "position_ids": _embed(
        [IDS, ("", I32, []), WORDS, POSITIONS, ("", F, []), *NORM, ("", I32, []),
         ("position_ids", I32, ["batch", "seq"])],
        ["output", "mask_index"],
        {"input_ids": TOKENS, "position_ids": np.array([[5, 0, 2], [1, 1, 4]], np.int32)},
    ),
    "no_mask": _embed(
        [IDS, ("", I32, []), WORDS, POSITIONS, ("", F, []), *NORM],
        ["output", "mask_index"],
        {"input_ids": TOKENS},
    ),
}  # fmt: skip
"""EmbedLayerNormalization: segments, the mask's counts, position ids."""


RANKS = {"output": 3, "present_key": 4, "present_value": 4, "present": 5,
         "mask_index": 1, "embedding_sum": 3}  # fmt: skip


def model_of(case: Case) -> onnx.ModelProto:
    """The case's node as a model; its non-fixed float inputs are graph
    inputs, as are the fixed ones (fed by `feeds_of`)."""
    names = [name for name, _, _ in case.inputs]
    node = helper.make_node(
        case.op,
        names,
        case.outputs,
        name=case.op.lower(),
        domain=MS,
        **case.attributes,
    )
    inputs = [
        helper.make_tensor_value_info(name, element, dims)
        for name, element, dims in case.inputs
        if name
    ]
    outputs = [
        helper.make_tensor_value_info(
            name, I32 if name == "mask_index" else F, [None] * RANKS[name]
        )
        for name in case.outputs
    ]
    graph = helper.make_graph([node], case.op.lower(), inputs, outputs)
    return helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)],
    )


def feeds_of(case: Case, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    feeds: dict[str, np.ndarray] = {}
    for name, _, dims in case.inputs:
        if not name:
            continue
        if name in case.values:
            feeds[name] = case.values[name]
        else:
            shape = [DIMS[d] if isinstance(d, str) else d for d in dims]
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
    return feeds


def onnxruntime_outputs(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in session.get_outputs()]
    results: list[np.ndarray] = session.run(names, feeds)  # pyright: ignore[reportAssignmentType]
    return dict(zip(names, results, strict=True))


def check(got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str) -> None:
    for name, expected in want.items():
        assert got[name].shape == expected.shape, f"{what}: {name} shape"
        if expected.dtype.kind in "iu":
            np.testing.assert_array_equal(
                got[name], expected, err_msg=f"{what}: {name}"
            )
        else:
            np.testing.assert_allclose(
                got[name], expected, rtol=RTOL, atol=ATOL, err_msg=f"{what}: {name}"
            )


ALL_CASES = {
    **{f"mha_{k}": v for k, v in MHA_CASES.items()},
    **{f"attention_{k}": v for k, v in ATTENTION_CASES.items()},
    **{f"embed_{k}": v for k, v in EMBED_CASES.items()},
}


def check_case(name: str, compile_: Callable[[onnx.ModelProto], Compiled]) -> None:
    case = ALL_CASES[name]
    model = model_of(case)
    feeds = feeds_of(case)
    check(compile_(model)(feeds), onnxruntime_outputs(model, feeds), name)


def check_packed(name: str, compile_: Callable[[onnx.ModelProto], Compiled]) -> None:
    packed, unpack, plain = PACKED[name]
    feeds = feeds_of(packed)
    want = onnxruntime_outputs(model_of(plain), unpack(feeds))
    check(compile_(model_of(packed))(feeds), want, name)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_bert_op_matches_onnxruntime(name: str) -> None:
    check_case(name, xhip.compile)


@pytest.mark.parametrize("name", sorted(PACKED))
def test_packed_mha_matches_onnxruntime_unpacked(name: str) -> None:
    check_packed(name, xhip.compile)


def fused_bert() -> onnx.ModelProto:
    return onnx.load(FIXTURES / "fused_bert.onnx")


def bert_feeds(batch: int, seq: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Token ids, segments, and a mask that pads the end of every row but the
    first."""
    rng = np.random.default_rng(seed)
    mask = np.ones((batch, seq), np.int64)
    for b in range(1, batch):
        mask[b, seq - b :] = 0
    return {
        "input_ids": rng.integers(0, 50, (batch, seq)).astype(np.int64),
        "token_type_ids": rng.integers(0, 2, (batch, seq)).astype(np.int64),
        "attention_mask": mask,
    }


def check_bert(compiled: Compiled) -> None:
    model = fused_bert()
    for batch, seq in ((1, 5), (3, 7)):
        feeds = bert_feeds(batch, seq)
        check(compiled(feeds), onnxruntime_outputs(model, feeds), f"bert {batch}x{seq}")


def test_fused_bert_matches_onnxruntime() -> None:
    ops = {n.op_type for n in fused_bert().graph.node}
    assert {"EmbedLayerNormalization", "Attention", "SkipLayerNormalization",
            "BiasGelu"} <= ops  # fmt: skip
    check_bert(xhip.compile(fused_bert()))


def test_unidirectional_cross_attention_is_refused() -> None:
    """ORT's CPU EP leaves the last query row unmasked when the key length
    differs from the query's; xhip refuses that (static) case in one line."""
    case = _mha(
        [("query", F, [2, 3, HIDDEN]), ("key", F, [2, 4, HIDDEN]),
         ("value", F, [2, 4, HIDDEN])],
        unidirectional=1,
    )  # fmt: skip
    with pytest.raises(Exception, match="last query row unmasked"):
        xhip.compile(model_of(case))
