"""Build the seed's self-attention model as a real `.onnx` file.

    python examples/attention.py [-o examples/attention.onnx] [--seed 0]

`X[batch, seq, 64]` -> Q/K/V projections (three seeded-random 64x64 float32
weights) -> `softmax(Q @ K^T * 0.125) @ V` -> `out[batch, seq, 64]`, with the
seed's node names. Importing it gives the seed's pass-1 input, weights aside.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 64
SCALE = 0.125
OPSET = 17
NAME = "attention_dynamic"


def build(seed: int = 0) -> onnx.ModelProto:
    """The model; weights are `N(0, 1/sqrt(64))`, so the softmax is not flat."""
    rng = np.random.default_rng(seed)
    weights = [
        numpy_helper.from_array(
            (rng.standard_normal((HIDDEN, HIDDEN)) / np.sqrt(HIDDEN)).astype(
                np.float32
            ),
            name,
        )
        for name in ("w_q", "w_k", "w_v")
    ]
    scale = numpy_helper.from_array(np.array(SCALE, dtype=np.float32), "scale")
    nodes = [
        helper.make_node("MatMul", ["X", "w_q"], ["q"], name="q_proj"),
        helper.make_node("MatMul", ["X", "w_k"], ["k"], name="k_proj"),
        helper.make_node("MatMul", ["X", "w_v"], ["v"], name="v_proj"),
        helper.make_node(
            "Transpose", ["k"], ["k_t"], name="k_transpose", perm=[0, 2, 1]
        ),
        helper.make_node("MatMul", ["q", "k_t"], ["scores"], name="qk_matmul"),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"], name="score_scale"),
        helper.make_node("Softmax", ["scaled"], ["probs"], name="softmax"),
        helper.make_node("MatMul", ["probs", "v"], ["out"], name="attn_v"),
    ]
    graph = helper.make_graph(
        nodes,
        NAME,
        [
            helper.make_tensor_value_info(
                "X", TensorProto.FLOAT, ["batch", "seq", HIDDEN]
            )
        ],
        [
            helper.make_tensor_value_info(
                "out", TensorProto.FLOAT, ["batch", "seq", HIDDEN]
            )
        ],
        initializer=[*weights, scale],
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="xhip-examples",
    )
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path(__file__).with_name("attention.onnx"),
        help="where to write the model (default: next to this script)",
    )
    parser.add_argument("--seed", type=int, default=0, help="weights' random seed")
    args = parser.parse_args()
    onnx.save(build(args.seed), args.output)
    print(args.output)


if __name__ == "__main__":
    main()
