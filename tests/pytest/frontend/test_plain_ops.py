"""The importer `create`s the ops whose builder only hands its arguments on
(`_Importer._plain`): the same ops, attribute for attribute, as the builder
makes."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects.builtin import ModuleOp

from tests.pytest.frontend.models import make_model, tensor
from xhip.dialects import onnx as onnx_dialect
from xhip.frontend import import_model
from xhip.frontend.onnx_importer import _Importer  # pyright: ignore[reportPrivateUsage]

F = TensorProto.FLOAT


def mixed_model() -> onnx.ModelProto:
    """Plain ops (MatMul, Transpose) among variadic (Concat), optional
    (Clip's bounds) and multi-result (Split) ones."""
    return make_model(
        [
            helper.make_node("MatMul", ["x", "w"], ["y"], name="mm"),
            helper.make_node("Transpose", ["y"], ["t"], perm=[1, 0], name="tr"),
            helper.make_node("Clip", ["t", "lo"], ["c"], name="clip"),
            helper.make_node("Concat", ["c", "c"], ["cat"], axis=0, name="cat"),
            helper.make_node("Split", ["cat"], ["s0", "s1"], axis=0, name="split"),
        ],
        [tensor("x", F, ["batch", 4])],
        [tensor("s0", F, None), tensor("s1", F, None)],
        [
            numpy_helper.from_array(np.ones((4, 3), np.float32), "w"),
            numpy_helper.from_array(np.array(0.0, np.float32), "lo"),
        ],
    )


def test_plain_ops_are_the_builders(monkeypatch: pytest.MonkeyPatch) -> None:
    ours = import_model(mixed_model())
    with monkeypatch.context() as m:
        m.setattr(_Importer, "_plain", lambda self, op: False)  # pyright: ignore
        theirs = import_model(mixed_model())
    assert isinstance(ours, ModuleOp) and ours.is_structurally_equivalent(theirs)
    pairs = list(zip(ours.walk(), theirs.walk(), strict=True))
    for a, b in pairs:
        assert type(a) is type(b)
        assert list(a.properties.items()) == list(b.properties.items())
        assert list(a.attributes.items()) == list(b.attributes.items())
        assert a.result_types == b.result_types
    kinds = {type(a) for a, _ in pairs}
    assert {onnx_dialect.MatMulOp, onnx_dialect.ConcatOp} <= kinds


def test_which_ops_are_plain() -> None:
    importer = _Importer(mixed_model(), "m", "")
    assert importer._plain(onnx_dialect.MatMulOp)  # pyright: ignore[reportPrivateUsage]
    for op in (onnx_dialect.ConcatOp, onnx_dialect.ClipOp, onnx_dialect.SplitOp):
        assert not importer._plain(op)  # pyright: ignore[reportPrivateUsage]
