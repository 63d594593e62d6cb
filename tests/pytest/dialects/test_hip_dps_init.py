"""`HipDPSOp.__init__` builds the first compute op of each key with IRDL's
builder and the later ones without it (`base._SEGMENTS`); each must be the op
IRDL's builder makes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from xdsl.dialects import test
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, TensorType, f32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation

from tests.pytest.transforms.test_op_building import (
    _assert_same,  # pyright: ignore[reportPrivateUsage]
    _values,  # pyright: ignore[reportPrivateUsage]
)
from xhip.dialects import hip
from xhip.dialects.hip import base
from xhip.dialects.hip.base import ContextType, HipDPSOp, i64_attr
from xhip.transforms.onnx_to_hip.compute import ELEMENTWISE

D = DYNAMIC_INDEX


CTX, A, B, OUT, SCALAR, I0, I1, BUF = _values(
    ContextType(),
    TensorType(f32, [D, D, 64]),
    TensorType(f32, [D, 64, D]),
    TensorType(f32, [D, D, D]),
    TensorType(f32, []),
    IndexType(),
    IndexType(),
    MemRefType(f32, [4, 4]),
)


@pytest.fixture(autouse=True)
def _fresh_segments(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(base, "_SEGMENTS", {})
    yield


def _irdl_built(
    make: Callable[[], HipDPSOp], monkeypatch: pytest.MonkeyPatch
) -> HipDPSOp:
    """`make()` with the shortcut off: every op through IRDL's builder."""
    with monkeypatch.context() as m:
        m.setattr(base, "_SEGMENTS", _NeverKept())
        return make()


class _NeverKept(dict[object, Attribute]):
    def __setitem__(self, key: object, value: Attribute) -> None:
        pass


CASES: dict[str, Callable[[], HipDPSOp]] = {
    "matmul": lambda: hip.MatmulOp.make(CTX, a=A, b=B, out=OUT),
    "matmul in memref mode": lambda: hip.MatmulOp.make(CTX, a=BUF, b=BUF, out=BUF),
    "softmax": lambda: hip.SoftmaxOp.make(CTX, src=OUT, out=OUT),
    "softmax axis": lambda: hip.SoftmaxOp.make(CTX, src=OUT, out=OUT, axis=1),
    "transpose": lambda: hip.TransposeOp.make(CTX, src=A, out=B, dim0=I0, dim1=I1),
    "mul": lambda: hip.MulOp.make(CTX, OUT, SCALAR, out=OUT),
    "leaky relu": lambda: hip.LeakyReluOp.make(CTX, OUT, out=OUT, alpha=0.5),
}


@pytest.mark.parametrize("name", CASES)
def test_second_build_is_irdls(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    make = CASES[name]
    first = make()  # IRDL's builder, which records the segment sizes
    (segments,) = base._SEGMENTS.values()  # pyright: ignore[reportPrivateUsage]
    second = make()  # without it
    assert second.properties["operandSegmentSizes"] is segments
    expected = _irdl_built(make, monkeypatch)
    _assert_same(first, expected)
    _assert_same(second, expected)


def test_key_tells_property_sets_and_arities_apart() -> None:
    """Softmax with and without `axis`, and a variadic op with 1 or 2 `ins`,
    each keep their own segment sizes; a build with attributes keeps none."""
    hip.SoftmaxOp.make(CTX, src=OUT, out=OUT)
    hip.SoftmaxOp.make(CTX, src=OUT, out=OUT, axis=1)
    assert len(base._SEGMENTS) == 2  # pyright: ignore[reportPrivateUsage]
    op = hip.SoftmaxOp(CTX, [OUT], [OUT], attributes={"x": i64_attr(1)})
    assert op.attributes == {"x": i64_attr(1)}
    assert len(base._SEGMENTS) == 2  # pyright: ignore[reportPrivateUsage]


def test_ops_given_operations_take_their_results() -> None:
    """Operands may be given as ops (their one result), as IRDL's builder takes them."""
    producer = test.TestOp(result_types=[OUT.type])
    for _ in range(2):
        op = hip.ReluOp(CTX, [producer], [OUT])
        assert list(op.operands) == [CTX, producer.results[0], OUT]


ELEMENTWISE_TYPES = {t.name: t for t in ELEMENTWISE.values()}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE_TYPES))
def test_elementwise_second_build_is_irdls(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every op `convert-onnx-to-hip` builds for an elementwise ONNX op."""
    hip_type = ELEMENTWISE_TYPES[name]
    ins = [OUT] * hip_type.arity()
    params = {n: 0.25 * (i + 1) for i, n in enumerate(hip_type.FORMULA.params())}

    def make() -> HipDPSOp:
        return hip_type.make(CTX, *ins, out=OUT, **params)

    expected = _irdl_built(make, monkeypatch)
    for _ in range(2):  # IRDL's builder, then the shortcut
        _assert_same(make(), expected)


def test_shortcut_is_the_irdl_builder_not_a_copy() -> None:
    """The first build of a key goes through `IRDLOperation.__init__`."""
    calls: list[Operation] = []
    original = IRDLOperation.__init__

    def counting(self: IRDLOperation, **kwargs: object) -> None:
        calls.append(self)
        original(self, **kwargs)  # pyright: ignore[reportArgumentType]

    with pytest.MonkeyPatch.context() as m:
        m.setattr(IRDLOperation, "__init__", counting)
        first = hip.ReluOp(CTX, [OUT], [OUT])
        second = hip.ReluOp(CTX, [OUT], [OUT])
    assert calls == [first]
    assert second is not first
