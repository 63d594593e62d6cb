"""Models of Attention and RotaryEmbedding (opset 23) through every pass and
the CPU runtime, against ONNX Runtime (which runs opset-23 Attention), at
several dynamic dims (batch, sequence, cached keys; 1 included).

- `decoder_gqa_rope`: a decoder layer's attention on 3-D hidden states:
  projections, RotaryEmbedding of Q and K (position ids, 2-D caches), causal
  grouped-query Attention (4 query heads over 2 KV heads) with a KV cache,
  present_key/present_value out, the output projection.
- `encoder_mask_softcap`: 4-D Q, K, V with a float mask broadcast over the
  heads, softcap; `softcap_qk_after_softcap` with a 2-D one and
  qk_matmul_output after the softcap (mode 1).
- `bool_mask_scaled_qk`: 4-D, a bool mask (keys of a padded batch), `scale`,
  and the post-softmax qk_matmul_output (mode 3).
- `plain_mha`: no mask, no causal: the library softmax with the scale folded.
- `rope_interleaved_partial`: RotaryEmbedding alone, 4-D, interleaved, half
  the head rotated, 3-D caches.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip

F = TensorProto.FLOAT
OPSET = [helper.make_opsetid("", 23)]
HIDDEN, HEADS, KV_HEADS, HEAD = 32, 4, 2, 8


def _weight(rng: np.random.Generator, name: str, *shape: int) -> onnx.TensorProto:
    values = rng.standard_normal(shape) / np.sqrt(shape[0])
    return numpy_helper.from_array(values.astype(np.float32), name)


def decoder_gqa_rope() -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    positions = np.arange(64)[:, None] / (10000 ** (np.arange(HEAD // 2) / (HEAD // 2)))
    initializers = [
        _weight(rng, "wq", HIDDEN, HEADS * HEAD),
        _weight(rng, "wk", HIDDEN, KV_HEADS * HEAD),
        _weight(rng, "wv", HIDDEN, KV_HEADS * HEAD),
        _weight(rng, "wo", HEADS * HEAD, HIDDEN),
        numpy_helper.from_array(np.cos(positions).astype(np.float32), "cos"),
        numpy_helper.from_array(np.sin(positions).astype(np.float32), "sin"),
    ]
    nodes = [
        helper.make_node("MatMul", ["X", "wq"], ["q0"]),
        helper.make_node("MatMul", ["X", "wk"], ["k0"]),
        helper.make_node("MatMul", ["X", "wv"], ["v"]),
        helper.make_node(
            "RotaryEmbedding", ["q0", "cos", "sin", "pos"], ["q"], num_heads=HEADS
        ),
        helper.make_node(
            "RotaryEmbedding", ["k0", "cos", "sin", "pos"], ["k"], num_heads=KV_HEADS
        ),
        helper.make_node(
            "Attention",
            ["q", "k", "v", "", "past_key", "past_value"],
            ["attn", "present_key", "present_value"],
            q_num_heads=HEADS,
            kv_num_heads=KV_HEADS,
            is_causal=1,
        ),
        helper.make_node("MatMul", ["attn", "wo"], ["Y"]),
    ]
    cache = ["batch", KV_HEADS, "past", HEAD]
    present = ["batch", KV_HEADS, "total", HEAD]
    graph = helper.make_graph(
        nodes,
        "decoder_gqa_rope",
        [
            helper.make_tensor_value_info("X", F, ["batch", "seq", HIDDEN]),
            helper.make_tensor_value_info("pos", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("past_key", F, cache),
            helper.make_tensor_value_info("past_value", F, cache),
        ],
        [
            helper.make_tensor_value_info("Y", F, ["batch", "seq", HIDDEN]),
            helper.make_tensor_value_info("present_key", F, present),
            helper.make_tensor_value_info("present_value", F, present),
        ],
        initializers,
    )
    return helper.make_model(graph, opset_imports=OPSET)


def _four_d(
    name: str,
    mask: tuple[int, list[Any]] | None,
    qk_shape: list[Any] | None,
    seq: str | int = "seq",
    **attributes: Any,
) -> onnx.ModelProto:
    shape = ["batch", HEADS, seq, HEAD]
    inputs = [helper.make_tensor_value_info(n, F, shape) for n in "QKV"]
    names = ["Q", "K", "V"]
    if mask is not None:
        inputs.append(helper.make_tensor_value_info("mask", *mask))
        names.append("mask")
    outputs = [helper.make_tensor_value_info("Y", F, shape)]
    results = ["Y"]
    if qk_shape is not None:
        outputs.append(helper.make_tensor_value_info("qk", F, qk_shape))
        results += ["", "", "qk"]
    node = helper.make_node("Attention", names, results, **attributes)
    graph = helper.make_graph([node], name, inputs, outputs)
    return helper.make_model(graph, opset_imports=OPSET)


def rope_interleaved_partial() -> onnx.ModelProto:
    x = ["batch", HEADS, "seq", 16]
    cache = ["batch", "seq", 4]
    node = helper.make_node(
        "RotaryEmbedding",
        ["X", "cos", "sin"],
        ["Y"],
        interleaved=1,
        rotary_embedding_dim=8,
    )
    graph = helper.make_graph(
        [node],
        "rope_interleaved_partial",
        [
            helper.make_tensor_value_info("X", F, x),
            helper.make_tensor_value_info("cos", F, cache),
            helper.make_tensor_value_info("sin", F, cache),
        ],
        [helper.make_tensor_value_info("Y", F, x)],
    )
    return helper.make_model(graph, opset_imports=OPSET)


SEQ = 6
SCORES = ["batch", HEADS, SEQ, SEQ]
"""qk_matmul_output at a static sequence: onnx's shape inference (1.23) makes
its key dim 0 for a symbolic one without past_key."""
MODELS: dict[str, tuple[onnx.ModelProto, list[dict[str, int]]]] = {
    "decoder_gqa_rope": (
        decoder_gqa_rope(),
        [
            {"batch": 1, "seq": 1, "past": 0},
            {"batch": 2, "seq": 5, "past": 3},
            {"batch": 1, "seq": 1, "past": 9},
            {"batch": 3, "seq": 7, "past": 0},
        ],
    ),
    "encoder_mask_softcap": (
        _four_d(
            "encoder_mask_softcap",
            (F, ["batch", 1, "seq", "seq"]),
            None,
            softcap=2.0,
        ),
        [{"batch": 1, "seq": 1}, {"batch": 2, "seq": 6}, {"batch": 3, "seq": 11}],
    ),
    "softcap_qk_after_softcap": (
        _four_d(
            "softcap_qk_after_softcap",
            (F, [SEQ, SEQ]),
            SCORES,
            seq=SEQ,
            softcap=2.0,
            qk_matmul_output_mode=1,
        ),
        [{"batch": 1}, {"batch": 3}],
    ),
    "bool_mask_scaled_qk": (
        _four_d(
            "bool_mask_scaled_qk",
            (TensorProto.BOOL, ["batch", 1, SEQ, SEQ]),
            SCORES,
            seq=SEQ,
            scale=0.2,
            qk_matmul_output_mode=3,
        ),
        [{"batch": 1}, {"batch": 2}, {"batch": 4}],
    ),
    "plain_mha": (
        _four_d("plain_mha", None, None),
        [{"batch": 1, "seq": 1}, {"batch": 2, "seq": 13}],
    ),
    "rope_interleaved_partial": (
        rope_interleaved_partial(),
        [{"batch": 1, "seq": 1}, {"batch": 2, "seq": 5}],
    ),
}


def _inputs(model: onnx.ModelProto, dims: dict[str, int]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(sum(dims.values()))
    feeds: dict[str, np.ndarray] = {}
    for value in model.graph.input:
        tensor = value.type.tensor_type
        shape = [d.dim_value or dims[d.dim_param] for d in tensor.shape.dim]
        if tensor.elem_type == TensorProto.INT64:  # position ids after the cache
            start = dims.get("past", 0)
            feeds[value.name] = np.broadcast_to(
                np.arange(start, start + shape[1]), shape
            ).astype(np.int64)
        elif tensor.elem_type == TensorProto.BOOL:
            mask = rng.random(shape) > 0.3
            mask[..., 0] = True  # every row sees a key
            feeds[value.name] = mask
        else:
            feeds[value.name] = rng.standard_normal(shape).astype(np.float32)
    return feeds


def expected(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return [np.asarray(x) for x in session.run(None, feeds)]


def check(got: dict[str, np.ndarray], want: list[np.ndarray], where: str) -> None:
    assert len(got) == len(want)
    for (name, value), reference in zip(got.items(), want, strict=True):
        assert value.shape == reference.shape, f"{name} {where}"
        np.testing.assert_allclose(
            value, reference, rtol=1e-4, atol=1e-5, err_msg=f"{name} {where}"
        )


@pytest.mark.parametrize("debug", [False, True], ids=["plan", "debug"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_attention_model_matches_onnxruntime(name: str, debug: bool) -> None:
    model, runs = MODELS[name]
    compiled = xhip.compile(model, device="cpu", debug=debug)
    for dims in runs:
        feeds = _inputs(model, dims)
        check(compiled(feeds), expected(model, feeds), str(dims))


def test_plain_attention_is_the_library_softmax() -> None:
    """No mask, causal or softcap: `hip.miopen.softmax` with the scale, no
    attention kernel; grouped heads are views, not copies of K or V."""
    text = str(xhip.compile_to_ir(MODELS["plain_mha"][0]).module)
    assert "hip.miopen.softmax" in text
    assert "hip.attention_softmax" not in text
    text = str(xhip.compile_to_ir(MODELS["decoder_gqa_rope"][0]).module)
    assert text.count("hip.attention_softmax") == 1
    assert text.count("hip.concat") == 2
