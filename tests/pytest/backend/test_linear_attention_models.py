"""A Gated DeltaNet layer (Qwen3.5's linear-attention block) against ONNX
Runtime's CPU EP, which runs ai.onnx opset 27: the Q, K, V projection through
a CausalConvWithState (SiLU, bias, a carried conv state), then
LinearAttention with its recurrent state, decay and beta, for each update
rule; a prompt (T = 5) and a decode step (T = 1). `check_layer` is shared
with the emulated-GPU test."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip

B, C, HQ, HKV, DK, DV, K = 2, 16, 4, 2, 8, 6, 4
RTOL, ATOL = 1e-4, 1e-5
RULES = ("linear", "gated", "delta", "gated_delta")

Compiled = Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]


def layer_model(rule: str, t: int) -> onnx.ModelProto:
    """x (B, T, C) -> projections -> conv (B, D, T) -> LinearAttention -> y."""
    rng = np.random.default_rng(3)
    widths = [HQ * DK, HKV * DK, HKV * DV]
    d = sum(widths)

    def weight(name: str, *shape: int, scale: float = 0.3) -> onnx.TensorProto:
        array = (rng.standard_normal(shape) * scale).astype(np.float32)
        return numpy_helper.from_array(array, name)

    inits = [
        weight("w_qkv", C, d),
        weight("conv_w", d, 1, K),
        weight("conv_b", d, scale=0.1),
        weight("w_decay", C, HKV),
        weight("w_beta", C, HKV),
        numpy_helper.from_array(np.asarray(widths, np.int64), "split"),
    ]
    gated, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    nodes = [
        helper.make_node("MatMul", ["x", "w_qkv"], ["mixed"]),
        helper.make_node("Transpose", ["mixed"], ["mixed_t"], perm=[0, 2, 1]),
        helper.make_node(
            "CausalConvWithState",
            ["mixed_t", "conv_w", "conv_b", "conv_state"],
            ["conved_t", "conv_present"],
            activation="silu",
        ),
        helper.make_node("Transpose", ["conved_t"], ["conved"], perm=[0, 2, 1]),
        helper.make_node("Split", ["conved", "split"], ["q", "k_raw", "v"], axis=2),
        # Keys normalized per head for the delta rules, as the spec asks.
        helper.make_node("Reshape", ["k_raw", "k_heads"], ["k4"]),
        helper.make_node("LpNormalization", ["k4"], ["k4n"], axis=-1, p=2),
        helper.make_node("Reshape", ["k4n", "k_flat"], ["k"]),
    ]
    inits += [
        numpy_helper.from_array(np.asarray([B, t, HKV, DK], np.int64), "k_heads"),
        numpy_helper.from_array(np.asarray([B, t, HKV * DK], np.int64), "k_flat"),
    ]
    inputs = ["q", "k", "v", "state", "", ""]
    if gated:
        nodes += [
            helper.make_node("MatMul", ["x", "w_decay"], ["a"]),
            helper.make_node("Softplus", ["a"], ["a_plus"]),
            helper.make_node("Neg", ["a_plus"], ["decay"]),
        ]
        inputs[4] = "decay"
    if delta:
        nodes += [
            helper.make_node("MatMul", ["x", "w_beta"], ["b"]),
            helper.make_node("Sigmoid", ["b"], ["beta"]),
        ]
        inputs[5] = "beta"
    while inputs[-1] == "":
        inputs.pop()
    nodes.append(
        helper.make_node(
            "LinearAttention",
            inputs,
            ["y", "state_present"],
            q_num_heads=HQ,
            kv_num_heads=HKV,
            update_rule=rule,
        )
    )
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes,
        f"gated_deltanet_{rule}",
        [
            helper.make_tensor_value_info("x", f, [B, t, C]),
            helper.make_tensor_value_info("conv_state", f, [B, d, K - 1]),
            helper.make_tensor_value_info("state", f, [B, HKV, DK, DV]),
        ],
        [
            helper.make_tensor_value_info("y", f, [B, t, HQ * DV]),
            helper.make_tensor_value_info("conv_present", f, [B, d, K - 1]),
            helper.make_tensor_value_info("state_present", f, [B, HKV, DK, DV]),
        ],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 27)])


def feeds(t: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(t)
    d = HQ * DK + HKV * DK + HKV * DV
    return {
        "x": rng.standard_normal((B, t, C)).astype(np.float32),
        "conv_state": rng.standard_normal((B, d, K - 1)).astype(np.float32),
        "state": (rng.standard_normal((B, HKV, DK, DV)) * 0.1).astype(np.float32),
    }


def check_layer(model: onnx.ModelProto, compiled: Compiled, t: int) -> None:
    inputs = feeds(t)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in model.graph.output]
    want = dict(zip(names, map(np.asarray, session.run(names, inputs)), strict=True))
    got = compiled(inputs)
    for name in names:
        np.testing.assert_allclose(got[name], want[name], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("t", [5, 1])
@pytest.mark.parametrize("rule", RULES)
def test_gated_deltanet_layer_matches_onnxruntime(rule: str, t: int) -> None:
    model = layer_model(rule, t)
    check_layer(model, xhip.compile(model), t)
