"""RotaryEmbedding, ai.onnx's and `com.microsoft`'s, on a hidden size (or a
4-D head size) known only at run time, against ONNX Runtime's CPU EP: each
model runs at two sizes. Both used to be refused ("the hidden size must be
static"; fuzz seed 130291 drew ai.onnx's after a ConcatFromSequence)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.backend.test_gqa_models import (
    MAX_POSITIONS,
    Compiled,
    check,
    onnxruntime_outputs,
    rotary_model,
)


def onnx_rotary_model(half: int, **attributes: Any) -> onnx.ModelProto:
    """ai.onnx RotaryEmbedding-23 of x (batch, seq, hidden): caches (P, half)
    at position_ids (batch, seq)."""
    angles = np.random.default_rng(2).uniform(0, 6, (MAX_POSITIONS, half))
    node = helper.make_node(
        "RotaryEmbedding",
        ["x", "cos_cache", "sin_cache", "position_ids"],
        ["y"],
        **attributes,
    )
    shape: list[str | int | None] = ["batch", "seq", "hidden"]
    graph = helper.make_graph(
        [node],
        "rotary",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, shape),
            helper.make_tensor_value_info(
                "position_ids", TensorProto.INT64, ["batch", "seq"]
            ),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
        initializer=[
            numpy_helper.from_array(np.cos(angles).astype(np.float32), "cos_cache"),
            numpy_helper.from_array(np.sin(angles).astype(np.float32), "sin_cache"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])


DYNAMIC: list[str | int] = ["batch", "seq", "hidden"]
MODELS: dict[str, tuple[onnx.ModelProto, tuple[int, ...]]] = {
    # com.microsoft: num_heads given, the head all rotated (2 * the caches' 8).
    "ms_num_heads": (rotary_model(DYNAMIC, 8, num_heads=4), (64,)),
    # num_heads and a partial rotary_embedding_dim: head = hidden / num_heads.
    "ms_partial": (
        rotary_model(DYNAMIC, 4, num_heads=2, rotary_embedding_dim=8, interleaved=1),
        (32, 48),
    ),
    # Neither: heads of the caches' 2 * 8, as many as the hidden size holds.
    "ms_from_cache": (rotary_model(DYNAMIC, 8), (64, 48)),
    "ms_from_cache_first": (rotary_model(DYNAMIC, 8, [1], interleaved=1), (32,)),
    # 4-D with the head size open.
    "ms_4d": (
        rotary_model(
            ["batch", 2, "seq", "hidden"], 4, num_heads=2, rotary_embedding_dim=8
        ),
        (16, 24),
    ),
    # ai.onnx: num_heads, rotary dim from the attribute or the caches.
    "onnx_num_heads": (onnx_rotary_model(8, num_heads=2), (32,)),
    "onnx_partial": (
        onnx_rotary_model(4, num_heads=2, rotary_embedding_dim=8, interleaved=1),
        (32, 48),
    ),
}
"""name -> (model, the run-time hidden sizes, or 4-D head sizes, it runs at)."""


def check_dynamic_rotary(name: str, compiled: Compiled) -> None:
    model, hiddens = MODELS[name]
    dims = model.graph.input[0].type.tensor_type.shape.dim
    first = len(model.graph.input[1].type.tensor_type.shape.dim) == 1
    for hidden in hiddens:
        for batch, seq in ((1, 1), (2, 5)):
            rng = np.random.default_rng(batch * 10 + seq + hidden)
            sizes = {"batch": batch, "seq": seq, "hidden": hidden}
            shape = [sizes[d.dim_param] if d.dim_param else d.dim_value for d in dims]
            positions = (
                rng.integers(0, MAX_POSITIONS - seq, 1)
                if first
                else rng.integers(0, MAX_POSITIONS, (batch, seq))
            )
            feeds = {
                "x": rng.standard_normal(shape).astype(np.float32),
                "position_ids": positions,
            }
            want = onnxruntime_outputs(model, feeds)
            check(compiled(feeds), want, f"{name} {shape}")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_rotary_with_a_dynamic_hidden_size(name: str) -> None:
    check_dynamic_rotary(name, xhip.compile(MODELS[name][0]))


def test_rotary_dim_without_num_heads_is_refused() -> None:
    """ORT: "num_heads must be provided if rotary_embedding_dim is specified"."""
    model = rotary_model(DYNAMIC, 4, rotary_embedding_dim=8)
    with pytest.raises(Exception, match="rotary_embedding_dim needs num_heads"):
        xhip.compile(model)
