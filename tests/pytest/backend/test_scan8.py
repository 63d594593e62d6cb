"""Opset 8 Scan (a batch axis first) against ONNX Runtime: read directly
(`xhip/frontend/scan8.py`) as two unrolled Loops, not through
`onnx.version_converter`, whose Scan 8 -> 9 adapter drops the batch axis."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from xhip.frontend import OnnxImportError, import_model
from xhip.onnx_backend import XhipBackend

FLOAT = TensorProto.FLOAT


def scan8_model(directions: list[int], sequence_lens: bool = False) -> onnx.ModelProto:
    """Batch 2, 3 steps: a running sum and a running product of two scan
    inputs, each read in its direction; the sums' steps as a scan output."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["sum_in", "a"], ["sum_out"]),
            helper.make_node("Mul", ["prod_in", "b"], ["prod_out"]),
            helper.make_node("Identity", ["sum_out"], ["step"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("sum_in", FLOAT, [4]),
            helper.make_tensor_value_info("prod_in", FLOAT, [4]),
            helper.make_tensor_value_info("a", FLOAT, [4]),
            helper.make_tensor_value_info("b", FLOAT, [4]),
        ],
        [
            helper.make_tensor_value_info("sum_out", FLOAT, [4]),
            helper.make_tensor_value_info("prod_out", FLOAT, [4]),
            helper.make_tensor_value_info("step", FLOAT, [4]),
        ],
    )
    lens = ["lens"] if sequence_lens else [""]
    graph = helper.make_graph(
        [
            helper.make_node(
                "Scan",
                [*lens, "s0", "p0", "xa", "xb"],
                ["s", "p", "steps"],
                body=body,
                num_scan_inputs=2,
                directions=directions,
            )
        ],
        "scan8",
        [
            *(
                [helper.make_tensor_value_info("lens", TensorProto.INT32, [2])]
                if sequence_lens
                else []
            ),
            helper.make_tensor_value_info("s0", FLOAT, [2, 4]),
            helper.make_tensor_value_info("p0", FLOAT, [2, 4]),
            helper.make_tensor_value_info("xa", FLOAT, [2, 3, 4]),
            helper.make_tensor_value_info("xb", FLOAT, [2, 3, 4]),
        ],
        [
            helper.make_tensor_value_info("s", FLOAT, [2, 4]),
            helper.make_tensor_value_info("p", FLOAT, [2, 4]),
            helper.make_tensor_value_info("steps", FLOAT, [2, 3, 4]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)])
    model.ir_version = 3
    return model


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("directions", [[0, 0], [1, 0], [0, 1]])
def test_opset8_scan_matches_onnxruntime(directions: list[int]) -> None:
    model = scan8_model(directions)
    rng = np.random.default_rng(0)
    feeds = {
        "s0": rng.standard_normal((2, 4)).astype(np.float32),
        "p0": rng.standard_normal((2, 4)).astype(np.float32),
        "xa": rng.standard_normal((2, 3, 4)).astype(np.float32),
        "xb": rng.standard_normal((2, 3, 4)).astype(np.float32),
    }
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    expected = session.run(None, feeds)
    got = XhipBackend.prepare(model).run(feeds)
    for want, have in zip(expected, got, strict=True):
        np.testing.assert_allclose(have, want, rtol=1e-6)
        assert have.shape == want.shape


def test_opset8_scan_with_sequence_lens_is_refused_in_one_line() -> None:
    with pytest.raises(OnnxImportError, match="sequence_lens is not supported"):
        import_model(scan8_model([0, 0], sequence_lens=True))
