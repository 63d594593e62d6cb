"""The seed's self-attention model as an oracle: ONNX model, blob and float64 math.

Tests and benchmarks need the same model three ways: as the constants blob the
pipeline would write for the seed's final IR, as an equivalent `.onnx` model for
ONNX Runtime, and as plain numpy float64 arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from onnx import TensorProto, helper, numpy_helper

D_MODEL = 64
SCALE = 0.125
WEIGHT_OFFSETS = (0, 16384, 32768)
"""Byte offsets of Wq, Wk, Wv in `model.constants.bin` (seed: `hip.external_data`)."""


@dataclass(frozen=True)
class AttentionWeights:
    wq: np.ndarray
    wk: np.ndarray
    wv: np.ndarray

    @classmethod
    def random(cls, seed: int = 0) -> AttentionWeights:
        rng = np.random.default_rng(seed)
        ws = [
            (rng.standard_normal((D_MODEL, D_MODEL)) / 8.0).astype(np.float32)
            for _ in range(3)
        ]
        return cls(*ws)

    def constants_blob(self) -> bytes:
        """The bytes of `model.constants.bin` for the seed's final IR."""
        blob = bytearray(WEIGHT_OFFSETS[-1] + self.wv.nbytes)
        for offset, w in zip(WEIGHT_OFFSETS, (self.wq, self.wk, self.wv)):
            raw = np.ascontiguousarray(w, dtype="<f4").tobytes()
            blob[offset : offset + len(raw)] = raw
        return bytes(blob)

    def reference(self, x: np.ndarray) -> np.ndarray:
        """softmax((X Wq)(X Wk)^T * 0.125) (X Wv) in float64."""
        x64 = x.astype(np.float64)
        q, k, v = (x64 @ w.astype(np.float64) for w in (self.wq, self.wk, self.wv))
        scores = (q @ k.transpose(0, 2, 1)) * SCALE
        scores -= scores.max(axis=-1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=-1, keepdims=True)
        return p @ v

    def onnx_model(self) -> bytes:
        """The seed's attention graph as a serialized ONNX model."""

        def init(name: str, value: np.ndarray) -> TensorProto:
            return numpy_helper.from_array(value, name)

        nodes = [
            helper.make_node("MatMul", ["X", "Wq"], ["q"], name="q_proj"),
            helper.make_node("MatMul", ["X", "Wk"], ["k"], name="k_proj"),
            helper.make_node("MatMul", ["X", "Wv"], ["v"], name="v_proj"),
            helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
            helper.make_node("MatMul", ["q", "kt"], ["s"], name="qk_matmul"),
            helper.make_node("Mul", ["s", "scale"], ["ss"], name="score_scale"),
            helper.make_node("Softmax", ["ss"], ["p"], axis=-1, name="softmax"),
            helper.make_node("MatMul", ["p", "v"], ["out"], name="attn_v"),
        ]
        shape = ["batch", "seq", D_MODEL]
        graph = helper.make_graph(
            nodes,
            "attention_dynamic",
            [helper.make_tensor_value_info("X", TensorProto.FLOAT, shape)],
            [helper.make_tensor_value_info("out", TensorProto.FLOAT, shape)],
            [
                init("Wq", self.wq),
                init("Wk", self.wk),
                init("Wv", self.wv),
                init("scale", np.array(SCALE, dtype=np.float32)),
            ],
        )
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8
        )
        return model.SerializeToString()
