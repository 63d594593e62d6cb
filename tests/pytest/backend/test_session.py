"""CompiledModel's input checks: one clear message naming the input and the dim."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel, InputError, Signature, TensorSpec

F32 = np.dtype(np.float32)


@pytest.fixture(scope="module")
def model(
    final_module: ModuleOp, signature: Signature, weights: AttentionWeights
) -> CompiledModel:
    return CompiledModel(final_module, signature, weights.constants_blob())


def test_signature_from_stage_20(signature: Signature) -> None:
    assert signature.inputs == (TensorSpec("X", F32, ("batch", "seq", 64)),)
    assert signature.outputs == (TensorSpec("out", F32, ("batch", "seq", 64)),)


@pytest.mark.parametrize(
    "inputs,message",
    [
        ({}, r"missing input X: float32\[batch, seq, 64\]"),
        ({"X": np.zeros((1, 2, 64), np.float32), "Y": 1}, "unknown input 'Y'"),
        ({"X": [[[0.0] * 64]]}, "input 'X' is a list, expected a numpy array"),
        ({"X": np.zeros((1, 2, 64))}, "input 'X' has dtype float64, expected float32"),
        ({"X": np.zeros((2, 64), np.float32)}, "input 'X' has rank 2"),
        ({"X": np.zeros((1, 2, 32), np.float32)}, "input 'X' dim 2 is 32, expected 64"),
    ],
)
def test_bad_inputs(
    model: CompiledModel, inputs: dict[str, object], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        model(inputs)


def test_dims_sharing_a_name_must_agree(
    final_module: ModuleOp, weights: AttentionWeights
) -> None:
    """Two inputs naming the same dim: the message names both places."""
    sig = Signature(
        (
            TensorSpec("X", F32, ("batch", "seq", 64)),
            TensorSpec("mask", F32, ("batch", "seq")),
        ),
        (TensorSpec("out", F32, ("batch", "seq", 64)),),
    )
    arrays = {
        "X": np.zeros((2, 3, 64), np.float32),
        "mask": np.zeros((2, 4), np.float32),
    }
    with pytest.raises(
        InputError,
        match=r"input 'mask' dim 1 \(seq\) is 4, but input 'X' dim 1 \(seq\) is 3",
    ):
        sig.bind(arrays)


def test_output_dims_must_be_bound(final_module: ModuleOp) -> None:
    """An out-param dim neither an input nor the IR sizes: refused up front."""
    sig = Signature(
        (TensorSpec("X", F32, ("batch", "seq", 64)),),
        (TensorSpec("out", F32, (None, "seq", 64)),),
    )
    with pytest.raises(InputError, match=r"'out' dim 0 \(anonymous\) is not bound"):
        CompiledModel(final_module, sig, b"")


BUFFERIZED = """
func.func @main_graph(
    %x: memref<?x?x8xf32> {onnx.name = "x", onnx.dim_params = "0:batch"},
    %k: memref<?xf32> {onnx.name = "k"}
) -> (memref<?x?xf32>, memref<?x2xf32>, memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = memref.dim %x, %c0 : memref<?x?x8xf32>
  %s = memref.dim %x, %c1 : memref<?x?x8xf32>
  %n = memref.dim %k, %c0 : memref<?xf32>
  %rows = arith.muli %b, %s : index
  %half = arith.ceildivui %n, %c2 : index
  %a = memref.alloc(%rows, %half) : memref<?x?xf32>
  %flat = memref.collapse_shape %x [[0, 1], [2]] : memref<?x?x8xf32> into memref<?x8xf32>
  %pairs = arith.divui %n, %c2 : index
  %e = memref.expand_shape %k [[0, 1]] output_shape [%pairs, 2] : memref<?xf32> into memref<?x2xf32>
  return %a, %e, %flat : memref<?x?xf32>, memref<?x2xf32>, memref<?x8xf32>
}
"""


def test_result_dims_are_read_from_the_ir() -> None:
    """Sizes the function allocates its results with, as formulas of the inputs;
    named input dims print by name, others as `input.shape[i]`."""
    from xdsl.dialects import func

    from xhip.testing import parse_module

    (function,) = parse_module(BUFFERIZED).ops
    assert isinstance(function, func.FuncOp)
    plain = Signature.from_function(function)
    assert plain.outputs[0].shape == (None, None)
    sig = plain.with_result_dims(function)
    assert [o.describe() for o in sig.outputs] == [
        "result0: float32[(batch*x.shape[1]), ceildiv(k.shape[0], 2)]",
        "result1: float32[(k.shape[0]/2), 2]",
        "result2: float32[(batch*x.shape[1]), 8]",
    ]
    arrays, dims = sig.bind(
        {"x": np.zeros((3, 5, 8), np.float32), "k": np.zeros(8, np.float32)}
    )
    shapes = [a.shape for a in arrays]
    assert [sig.output_shape(o, dims, shapes) for o in sig.outputs] == [
        (15, 4),
        (4, 2),
        (15, 8),
    ]


def test_argument_count_mismatch(final_module: ModuleOp) -> None:
    sig = Signature((), (TensorSpec("out", F32, (1, 1, 64)),))
    with pytest.raises(InputError, match="takes 4 arguments"):
        CompiledModel(final_module, sig, b"")


def test_missing_constants(final_module: ModuleOp, signature: Signature) -> None:
    with pytest.raises(InputError, match="constants blob"):
        CompiledModel(final_module, signature, None)({"X": np.zeros((1, 1, 64), F32)})
