"""GroupQueryAttention and `com.microsoft.RotaryEmbedding` against ONNX
Runtime's CPU EP, which defines them: small models over the ops' attributes
and inputs, each run as a first prompt, a decode step with a ragged past
(per-batch `seqlens_k`) and a later prompt chunk; and the Llama models of
`tests/fixtures/genai/`, made by onnxruntime-genai's model builder (fp32 and
int4), a prompt and then a decode step on its KV cache."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from xhip.backend.session import CompiledModel

MS = "com.microsoft"
GENAI = Path(__file__).resolve().parents[2] / "fixtures" / "genai"
MAX_POSITIONS = 64
"""Rows of the rotary caches."""
RTOL, ATOL = 1e-4, 1e-5

Compiled = Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]
GQA_INPUTS = (
    "query",
    "key",
    "value",
    "past_key",
    "past_value",
    "seqlens_k",
    "total_sequence_length",
    "cos_cache",
    "sin_cache",
    "position_ids",
    "attention_bias",
    "head_sink",
)
"""GroupQueryAttention's inputs in ORT's order (those xhip reads)."""


def _caches(half: int) -> list[onnx.TensorProto]:
    angles = np.random.default_rng(1).uniform(0, 6, (MAX_POSITIONS, half))
    return [
        numpy_helper.from_array(np.cos(angles).astype(np.float32), "cos_cache"),
        numpy_helper.from_array(np.sin(angles).astype(np.float32), "sin_cache"),
    ]


def gqa_model(
    *,
    heads: int = 4,
    kv_heads: int = 2,
    head: int = 16,
    packed: bool = False,
    past: bool = True,
    rotary: int = 0,
    bias: list[str | int] | None = None,
    sink: bool = False,
    **attributes: Any,
) -> onnx.ModelProto:
    """One GroupQueryAttention node; `rotary` the rotated dims (0: none),
    `bias` the attention_bias's dims, `sink` a head_sink initializer."""
    hidden = (heads + 2 * kv_heads) * head if packed else heads * head
    kv = ["batch", "seq", kv_heads * head]
    cache = ["batch", kv_heads, "past", head]
    declared: dict[str, tuple[int, list[str | int]]] = {
        "query": (TensorProto.FLOAT, ["batch", "seq", hidden])
    }
    if not packed:
        declared |= {"key": (TensorProto.FLOAT, kv), "value": (TensorProto.FLOAT, kv)}
    if past:
        declared |= {
            "past_key": (TensorProto.FLOAT, cache),
            "past_value": (TensorProto.FLOAT, cache),
        }
    declared |= {
        "seqlens_k": (TensorProto.INT32, ["batch"]),
        "total_sequence_length": (TensorProto.INT32, []),
    }
    if bias is not None:
        declared["attention_bias"] = (TensorProto.FLOAT, bias)
    initializers: list[onnx.TensorProto] = []
    if rotary:
        initializers += _caches(rotary // 2)
        attributes["do_rotary"] = 1
    if sink:
        values = np.linspace(-1.0, 2.0, heads).astype(np.float32)
        initializers.append(numpy_helper.from_array(values, "head_sink"))
    given = {*declared, *(t.name for t in initializers)}
    names = [n if n in given else "" for n in GQA_INPUTS]
    while not names[-1]:
        names.pop()
    node = helper.make_node(
        "GroupQueryAttention",
        names,
        ["output", "present_key", "present_value"],
        name="gqa",
        domain=MS,
        num_heads=heads,
        kv_num_heads=kv_heads,
        **attributes,
    )
    present = ["batch", kv_heads, "total", head]
    graph = helper.make_graph(
        [node],
        "gqa",
        [helper.make_tensor_value_info(n, t, d) for n, (t, d) in declared.items()],
        [
            helper.make_tensor_value_info(
                "output", TensorProto.FLOAT, ["batch", "seq", heads * head]
            ),
            helper.make_tensor_value_info("present_key", TensorProto.FLOAT, present),
            helper.make_tensor_value_info("present_value", TensorProto.FLOAT, present),
        ],
        initializer=initializers,
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)]
    )


GQA_MODELS: dict[str, onnx.ModelProto] = {
    "separate": gqa_model(),
    "packed": gqa_model(packed=True),
    "no_past": gqa_model(past=False, rotary=16),
    "rotary": gqa_model(rotary=16),
    "rotary_packed": gqa_model(packed=True, rotary=16),
    "rotary_interleaved": gqa_model(rotary=16, rotary_interleaved=1),
    "rotary_partial": gqa_model(head=32, rotary=16, packed=True),
    "multi_head": gqa_model(kv_heads=4, rotary=16),
    "multi_query": gqa_model(kv_heads=1, packed=True),
    "scale_softcap": gqa_model(scale=0.4, softcap=1.5),
    "local_window_1": gqa_model(local_window_size=1, rotary=16),
    "local_window_2": gqa_model(local_window_size=2),
    "local_window_4": gqa_model(local_window_size=4, packed=True),
    "attention_bias": gqa_model(bias=["batch", 1, "seq", "total"]),
    "attention_bias_softcap": gqa_model(
        bias=[1, 4, "seq", "total"], softcap=1.3, rotary=16
    ),
    "bidirectional": gqa_model(causal=0),
    "smooth_softmax": gqa_model(smooth_softmax=1, rotary=16),
    "head_sink": gqa_model(sink=True, packed=True),
    "head_sink_window_softcap": gqa_model(
        sink=True, smooth_softmax=1, local_window_size=2, softcap=2.0
    ),
    "head_sink_multi_query": gqa_model(sink=True, kv_heads=1),
}

STEPS: dict[str, dict[str, Any]] = {
    "prompt": {"batch": 2, "seq": 5, "past": 0, "seqlens": [4, 4], "total": 5},
    "decode_ragged": {"batch": 2, "seq": 1, "past": 6, "seqlens": [6, 3], "total": 7},
    "later_prompt": {"batch": 1, "seq": 3, "past": 6, "seqlens": [8], "total": 9},
}
"""A first prompt (S == total), a decode step whose batch entries have 7 and
4 keys after it, a chunk of 3 after 6 cached keys (ORT allows it at batch 1)."""


def gqa_feeds(model: onnx.ModelProto, step: Mapping[str, Any]) -> dict[str, Any]:
    rng = np.random.default_rng(step["total"] + step["batch"])
    feeds: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        dims = value.type.tensor_type.shape.dim
        shape = [step[d.dim_param] if d.dim_param else d.dim_value for d in dims]
        feeds[value.name] = rng.standard_normal(shape).astype(np.float32)
    feeds["seqlens_k"] = np.asarray(step["seqlens"], np.int32)
    feeds["total_sequence_length"] = np.asarray(step["total"], np.int32)
    return feeds


def onnxruntime_outputs(
    model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in model.graph.output]
    return dict(zip(names, (np.asarray(v) for v in session.run(names, dict(feeds)))))


def check(
    got: Mapping[str, np.ndarray], want: Mapping[str, np.ndarray], what: str
) -> None:
    for name, value in want.items():
        assert got[name].shape == value.shape, (name, what)
        np.testing.assert_allclose(
            got[name], value, rtol=RTOL, atol=ATOL, err_msg=f"{name} {what}"
        )


def check_gqa(name: str, compiled: Compiled) -> None:
    model = GQA_MODELS[name]
    for step, dims in STEPS.items():
        if step == "prompt" or "past_key" in {v.name for v in model.graph.input}:
            feeds = gqa_feeds(model, dims)
            check(compiled(feeds), onnxruntime_outputs(model, feeds), f"{name} {step}")


@pytest.mark.parametrize("name", sorted(GQA_MODELS))
def test_gqa_matches_onnxruntime(name: str) -> None:
    check_gqa(name, xhip.compile(GQA_MODELS[name]))


def rotary_model(
    shape: list[str | int],
    half: int,
    ids: list[str | int] | None = None,
    **attributes: Any,
) -> onnx.ModelProto:
    """`ids`: position_ids' dims, (batch, seq) unless given."""
    node = helper.make_node(
        "RotaryEmbedding",
        ["x", "position_ids", "cos_cache", "sin_cache"],
        ["y"],
        name="rotary",
        domain=MS,
        **attributes,
    )
    graph = helper.make_graph(
        [node],
        "rotary",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, shape),
            helper.make_tensor_value_info(
                "position_ids", TensorProto.INT64, ids or ["batch", "seq"]
            ),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
        initializer=_caches(half),
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)]
    )


ROTARY_MODELS: dict[str, onnx.ModelProto] = {
    "3d_num_heads": rotary_model(["batch", "seq", 64], 8, num_heads=4),
    "3d_from_cache": rotary_model(["batch", "seq", 64], 8),
    "4d": rotary_model(["batch", 4, "seq", 16], 8),
    "4d_interleaved": rotary_model(["batch", 2, "seq", 32], 16, interleaved=1),
    "partial_interleaved": rotary_model(
        ["batch", "seq", 64], 4, num_heads=4, rotary_embedding_dim=8, interleaved=1
    ),
    "scale_ignored": rotary_model(["batch", "seq", 64], 8, scale=2.0, interleaved=1),
    "first_position": rotary_model(["batch", "seq", 64], 8, [1], num_heads=4),
    "first_position_4d": rotary_model(["batch", 2, "seq", 32], 16, [1], interleaved=1),
}
"""`scale`: ORT's CPU EP reads and ignores it; so does xhip."""


def check_rotary(name: str, compiled: Compiled) -> None:
    model = ROTARY_MODELS[name]
    for batch, seq in ((1, 1), (2, 5)):
        rng = np.random.default_rng(batch * 10 + seq)
        dims = model.graph.input[0].type.tensor_type.shape.dim
        sizes = {"batch": batch, "seq": seq}
        shape = [sizes[d.dim_param] if d.dim_param else d.dim_value for d in dims]
        ids = model.graph.input[1].type.tensor_type.shape.dim
        first = len(ids) == 1  # positions from position_ids[0] on
        feeds = {
            "x": rng.standard_normal(shape).astype(np.float32),
            "position_ids": rng.integers(0, MAX_POSITIONS - seq, 1)
            if first
            else rng.integers(0, MAX_POSITIONS, (batch, seq)),
        }
        check(compiled(feeds), onnxruntime_outputs(model, feeds), f"{name} {shape}")


@pytest.mark.parametrize("name", sorted(ROTARY_MODELS))
def test_rotary_embedding_matches_onnxruntime(name: str) -> None:
    check_rotary(name, xhip.compile(ROTARY_MODELS[name]))


def genai_model(precision: str) -> onnx.ModelProto:
    """The builder's model, as it wrote it."""
    return onnx.load(GENAI / f"llama_{precision}.onnx")


def genai_feeds(
    model: onnx.ModelProto, batch: int, seq: int, past: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """Token ids, an all-ones attention mask over past and new tokens, and the
    KV cache `past` (empty caches where it has none)."""
    rng = np.random.default_rng(batch * 100 + seq)
    cached = next(iter(past.values())).shape[2] if past else 0
    feeds: dict[str, np.ndarray] = {
        "input_ids": rng.integers(0, 256, (batch, seq)),
        "attention_mask": np.ones((batch, cached + seq), np.int64),
    }
    for value in model.graph.input:
        if value.name.startswith("past_key_values."):
            name = value.name.replace("past_key_values.", "present.")
            empty = np.zeros((batch, 2, 0, 16), np.float32)
            feeds[value.name] = past.get(name, empty)
    return feeds


def check_genai(model: onnx.ModelProto, compiled: Compiled, batch: int) -> None:
    """A prompt of 6 tokens, then a decode step on ONNX Runtime's cache."""
    feeds = genai_feeds(model, batch, 6, {})
    want = onnxruntime_outputs(model, feeds)
    check(compiled(feeds), want, f"prompt, batch {batch}")
    presents = {k: v for k, v in want.items() if k.startswith("present.")}
    feeds = genai_feeds(model, batch, 1, presents)
    check(compiled(feeds), onnxruntime_outputs(model, feeds), f"decode, batch {batch}")


@pytest.mark.parametrize("precision", ["fp32", "int4"])
def test_genai_model_matches_onnxruntime(precision: str) -> None:
    model = genai_model(precision)
    compiled = xhip.compile(model)
    for batch in (1, 2):
        check_genai(model, compiled, batch)


def test_genai_model_as_written() -> None:
    """The builder declares the Constant '/model/constants/INT64/[1]' (shape
    [1]) a scalar; the Constant's value wins, as in ONNX Runtime."""
    xhip.compile(onnx.load(GENAI / "llama_fp32.onnx"))


def _with_input(model: onnx.ModelProto, index: int, name: str) -> onnx.ModelProto:
    model = onnx.ModelProto.FromString(model.SerializeToString())
    node = model.graph.node[0]
    while len(node.input) <= index:
        node.input.append("")
    node.input[index] = name
    model.graph.input.append(
        helper.make_tensor_value_info(name, TensorProto.FLOAT, [1])
    )
    return model


REFUSALS: dict[str, tuple[Callable[[], onnx.ModelProto], str]] = {
    "quantized cache scale": (
        lambda: _with_input(gqa_model(), 12, "k_scale"),
        "has 13 inputs, xhip supports 12",
    ),
    "qk_output": (lambda: gqa_model(qk_output=1), "qk_output"),
    "kv_cache_bit_width": (
        lambda: gqa_model(kv_cache_bit_width=8),
        "attribute 'kv_cache_bit_width' is not supported",
    ),
    "rotary is_packed_batching": (
        lambda: rotary_model(["batch", "seq", 64], 8, is_packed_batching=1),
        "is_packed_batching is not supported",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_unsupported_forms_are_one_line(name: str) -> None:
    make, message = REFUSALS[name]
    with pytest.raises(Exception, match=message) as error:
        xhip.compile(make())
    assert "\n" not in str(error.value).strip() or "cannot be converted" in str(
        error.value
    )


def compiled_on(runtime: Any, model: onnx.ModelProto) -> Compiled:
    """`model` compiled to run on `runtime` (the emulator tests' GPU ones)."""
    ir = xhip.compile_to_ir(model)
    return CompiledModel(ir.module, ir.signature, ir.constants, runtime)
