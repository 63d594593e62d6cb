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


def test_output_dims_must_be_named(final_module: ModuleOp) -> None:
    sig = Signature(
        (TensorSpec("X", F32, ("batch", "seq", 64)),),
        (TensorSpec("out", F32, (None, "seq", 64)),),
    )
    with pytest.raises(InputError, match="anonymous dynamic dim"):
        CompiledModel(final_module, sig, b"")


def test_argument_count_mismatch(final_module: ModuleOp) -> None:
    sig = Signature((), (TensorSpec("out", F32, (1, 1, 64)),))
    with pytest.raises(InputError, match="takes 4 arguments"):
        CompiledModel(final_module, sig, b"")


def test_missing_constants(final_module: ModuleOp, signature: Signature) -> None:
    with pytest.raises(InputError, match="constants blob"):
        CompiledModel(final_module, signature, None)({"X": np.zeros((1, 1, 64), F32)})
