"""Write a stack of pre-LN transformer blocks with its weights as external data.

The model of `docs/benchmarks.md`, "Big models: weights streamed": `--layers`
blocks of `benchmarks/transformer_block.py`'s shape (LayerNormalization,
multi-head self-attention, residual, LayerNormalization, erf-GELU MLP 4x,
residual) on X [batch, seq, d], built with `onnx.helper`. Weights are drawn
from a seeded numpy generator and appended one by one to `model.onnx.data`
(so writing 2.4 GB never holds more than one weight in memory); every
initializer of `--external-min-bytes` or more lives there, the rest (shapes,
scalars) inline in `model.onnx`.

    .venv/bin/python benchmarks/big_model.py /tmp/big48                  # 48 x d=1024, 2.42 GB
    .venv/bin/python benchmarks/big_model.py /tmp/tiny --layers 2 --d-model 64
"""

from __future__ import annotations

import argparse
import math
import os
from typing import IO, Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

DATA_FILE = "model.onnx.data"


class _Builder:
    """Nodes and initializers of one model; big initializers go to `data`."""

    def __init__(self, data: IO[bytes], rng: np.random.Generator, min_bytes: int):
        self.data = data
        self.rng = rng
        self.min_bytes = min_bytes
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def const(self, name: str, value: object) -> str:
        array = np.asarray(value)
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        if array.nbytes < self.min_bytes:
            self.initializers.append(numpy_helper.from_array(array, name))
            return name
        offset = self.data.tell()
        self.data.write(
            np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        )
        tensor = TensorProto(
            name=name, data_type=helper.np_dtype_to_tensor_dtype(array.dtype)
        )
        tensor.dims.extend(array.shape)
        tensor.data_location = TensorProto.EXTERNAL
        for key, val in (
            ("location", DATA_FILE),
            ("offset", str(offset)),
            ("length", str(array.nbytes)),
        ):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, val
        self.initializers.append(tensor)
        return name

    def weight(self, name: str, *shape: int) -> str:
        w = self.rng.standard_normal(shape, dtype=np.float32)
        w *= np.float32(1 / math.sqrt(shape[0]))
        return self.const(name, w)

    def node(self, op: str, inputs: list[str], output: str, **attrs: Any) -> str:
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output


def _block(b: _Builder, x: str, p: str, d: int, heads: int) -> str:
    """One pre-LN block on `x`; every name starts with `p`."""
    rng = b.rng
    hidden = 4 * d

    def linear(x: str, name: str, d_in: int, d_out: int) -> str:
        y = b.node(
            "MatMul", [x, b.weight(f"{p}{name}_w", d_in, d_out)], f"{p}{name}_mm"
        )
        bias = b.const(f"{p}{name}_b", rng.normal(0, 0.1, d_out))
        return b.node("Add", [y, bias], f"{p}{name}")

    def layer_norm(x: str, name: str) -> str:
        scale = b.const(f"{p}{name}_g", rng.uniform(0.5, 1.5, d))
        bias = b.const(f"{p}{name}_beta", rng.normal(0, 0.1, d))
        return b.node(
            "LayerNormalization", [x, scale, bias], f"{p}{name}", epsilon=1e-5
        )

    ln1 = layer_norm(x, "ln1")
    q = b.node("Reshape", [linear(ln1, "q", d, d), "split"], f"{p}q_heads")
    k = b.node("Reshape", [linear(ln1, "k", d, d), "split"], f"{p}k_heads")
    v = b.node("Reshape", [linear(ln1, "v", d, d), "split"], f"{p}v_heads")
    q = b.node("Transpose", [q], f"{p}q_t", perm=[0, 2, 1, 3])
    k = b.node("Transpose", [k], f"{p}k_t", perm=[0, 2, 3, 1])
    v = b.node("Transpose", [v], f"{p}v_t", perm=[0, 2, 1, 3])
    scores = b.node("MatMul", [q, k], f"{p}scores")
    scaled = b.node("Mul", [scores, "scale"], f"{p}scaled")
    probs = b.node("Softmax", [scaled], f"{p}probs", axis=-1)
    context = b.node("MatMul", [probs, v], f"{p}context")
    context = b.node("Transpose", [context], f"{p}context_t", perm=[0, 2, 1, 3])
    context = b.node("Reshape", [context, "merge"], f"{p}context_m")
    r1 = b.node("Add", [x, linear(context, "o", d, d)], f"{p}r1")
    h = linear(layer_norm(r1, "ln2"), "fc1", d, hidden)
    e = b.node("Erf", [b.node("Div", [h, "sqrt2"], f"{p}g1")], f"{p}g2")
    g = b.node("Mul", [b.node("Add", [e, "one"], f"{p}g3"), h], f"{p}g4")
    g = b.node("Mul", [g, "half"], f"{p}gelu")
    return b.node("Add", [r1, linear(g, "fc2", hidden, d)], f"{p}out")


def write_big_model(
    directory: str,
    layers: int = 48,
    d: int = 1024,
    heads: int = 16,
    seed: int = 0,
    external_min_bytes: int = 1024,
) -> str:
    """Write `directory/model.onnx` and its `model.onnx.data`; return the model's path."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, DATA_FILE), "wb") as data:
        b = _Builder(data, np.random.default_rng(seed), external_min_bytes)
        for name, value in (
            ("split", np.array([0, 0, heads, d // heads], np.int64)),
            ("merge", np.array([0, 0, d], np.int64)),
            ("scale", 1 / math.sqrt(d // heads)),
            ("sqrt2", math.sqrt(2)),
            ("one", 1.0),
            ("half", 0.5),
        ):
            b.const(name, value)
        x = "X"
        for layer in range(layers):
            x = _block(b, x, f"l{layer}_", d, heads)
        b.node("Identity", [x], "Y")
    f = TensorProto.FLOAT
    graph = helper.make_graph(
        b.nodes,
        f"big{layers}",
        [helper.make_tensor_value_info("X", f, ["batch", "seq", d])],
        [helper.make_tensor_value_info("Y", f, ["batch", "seq", d])],
        b.initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    path = os.path.join(directory, "model.onnx")
    onnx.save_model(model, path)
    onnx.checker.check_model(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("directory", help="where model.onnx and model.onnx.data go")
    parser.add_argument("--layers", type=int, default=48)
    parser.add_argument("--d-model", type=int, default=1024)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    path = write_big_model(
        args.directory, args.layers, args.d_model, args.heads, args.seed
    )
    weights = os.path.getsize(os.path.join(args.directory, DATA_FILE))
    nodes = len(onnx.load(path, load_external_data=False).graph.node)
    print(f"{path}: {nodes} nodes, {weights / 1e9:.2f} GB of external weights")


if __name__ == "__main__":
    main()
