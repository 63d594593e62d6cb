"""Writes the model of `contrib-qdq.mlir`: x quantized by a `com.microsoft`
QuantizeLinear to int16 per axis, dequantized by one to float32 per tensor
(no zero point), as `quantize_static` writes with `UseQDQContribOps`."""

from __future__ import annotations

import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MS = "com.microsoft"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-o", "--output", required=True)
    path = parser.parse_args().output
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], domain=MS, axis=1),
        helper.make_node("DequantizeLinear", ["q", "t"], ["y"], domain=MS),
    ]
    consts = [
        numpy_helper.from_array(np.asarray([0.5, 0.25, 2.0], np.float32), "s"),
        numpy_helper.from_array(np.asarray([-3, 0, 7], np.int16), "z"),
        numpy_helper.from_array(np.asarray(0.125, np.float32), "t"),
    ]
    graph = helper.make_graph(
        nodes,
        "contrib_qdq",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        consts,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
    )
    onnx.save(model, path)


if __name__ == "__main__":
    main()
