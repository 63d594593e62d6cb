"""Every hip compute op has every piece: a pass that emits it, a backend builder,
a CPU implementation and a GPU one (or a listed reason why not).

The pieces are derived from each op's declaration (`FORMULA` or
`RUNTIME_CALL`), so this test is what keeps a new op from landing half-done.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from unittest.mock import MagicMock

import numpy as np
import pytest
from xdsl.dialects.builtin import FloatAttr, IndexType, MemRefType, StringAttr, f32, f64
from xdsl.ir import Block

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cuda import CudaRuntime
from xhip.backend.elementwise import KERNELS, kernel_case
from xhip.backend.gpu import CPU_ONLY, KernelRuntime, kernel_source
from xhip.backend.hip import HipRuntime
from xhip.backend.interpreter import BuildEnv, HipContext, builder_of
from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice, Runtime
from xhip.dialects import hip, onnx
from xhip.transforms.onnx_to_hip import compute

TRANSFORMS = Path(xhip.__file__).parent / "transforms"


def _hip_ops_emitted_by_passes() -> set[str]:
    """`hip.<Class>` names that pass code refers to (and so may build)."""
    names: set[str] = set()
    for path in TRANSFORMS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "hip"
            ):
                names.add(node.attr)
    names |= {op.__name__ for op in compute.ELEMENTWISE.values()}
    return names


OPS = [pytest.param(op, id=op.name) for op in hip.COMPUTE_OPS]


@pytest.mark.parametrize("op", OPS)
def test_a_pass_emits_it(op: type[hip.HipDPSOp]) -> None:
    assert op.__name__ in _hip_ops_emitted_by_passes(), (
        f"no pass in xhip/transforms builds {op.name}"
    )


@pytest.mark.parametrize("op", OPS)
def test_the_backend_builds_it(op: type[hip.HipDPSOp]) -> None:
    assert builder_of(op) is not None


class _Mocks(dict[str, Any]):
    """Properties that are all there: a mock for each one `runtime_attributes`
    reads, so the attributes it returns are those of any op of the class."""

    def __missing__(self, name: str) -> Any:
        self[name] = value = MagicMock(name=name)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        return self[name]


def _stand_in(cls: type[hip.HipDPSOp]) -> hip.HipDPSOp:
    """An op of `cls` with every role filled (two values for a variadic one)
    and mock properties (the formula's parameters real floats)."""
    index_roles, in_roles, out_roles = cls.role_groups()

    def count(roles: Sequence[Any]) -> int:
        return sum(2 if r.variadic else 1 for r in roles)

    n_index, n_in, n_out = count(index_roles), count(in_roles), count(out_roles)
    memref = MemRefType(f32, [2, 3])
    block = Block(
        arg_types=[hip.ContextType(), *[IndexType()] * n_index]
        + [memref] * (n_in + n_out)
    )
    ctx, *args = block.args
    op = cls(
        ctx, args[n_index : n_index + n_in], args[n_index + n_in :], args[:n_index]
    )
    op.properties = _Mocks(op.properties)
    if cls is hip.FusedAttentionOp:
        # Its optional bias roles are told by a string (a mock would say none).
        op.properties["biased"] = StringAttr("qkv")
    if issubclass(cls, hip.ElementwiseOp):
        for name in cls.FORMULA.params():
            op.properties[name] = FloatAttr(0.5, f64)
    return op


def _call_keywords(cls: type[hip.HipDPSOp]) -> dict[str, Any]:
    """The keywords the interpreter calls `cls`'s runtime method with: every
    role (an absent optional one is None) and, if any, `attrs`."""
    op = _stand_in(cls)
    attrs = op.runtime_attributes()
    return {**op.bound_roles(), **({} if attrs is None else {"attrs": attrs})}


RUNTIMES = [CpuRuntime, CudaRuntime, HipRuntime]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda r: r.__name__)
def test_the_runtime_method_takes_the_call(
    op: type[hip.HipDPSOp], runtime: type[Runtime]
) -> None:
    """The op's roles and attributes bind to the parameters of each runtime's
    method, so a renamed or missing parameter fails here, not on a device.
    Only the GPUs may lack an op, and only one listed in `gpu.CPU_ONLY`."""
    method = getattr(runtime, op.runtime_call(), None)
    if runtime is not CpuRuntime and op.name in CPU_ONLY:
        assert method is None, (
            f"{op.name} is in gpu.CPU_ONLY but {runtime.__name__} runs it"
        )
        return
    assert method is not None, (
        f"{runtime.__name__} lacks {op.runtime_call()} for {op.name}"
        + ("" if runtime is CpuRuntime else "; list it in gpu.CPU_ONLY with the reason")
    )
    signature = inspect.signature(method)
    try:
        signature.bind(runtime, **_call_keywords(op))
    except TypeError as e:
        pytest.fail(
            f"{runtime.__name__}.{op.runtime_call()}{signature}: {op.name}: {e}"
        )


def _annotation(fn: Any, name: str) -> Any:
    return typing.get_type_hints(fn).get(name)


@pytest.mark.parametrize("op", OPS)
def test_runtime_attributes_are_one_declared_dataclass(
    op: type[hip.HipDPSOp],
) -> None:
    """`runtime_attributes()` returns the frozen, slotted dataclass its return
    annotation names, every field filled by the op (none has a default), and
    each runtime's method takes that class as `attrs`: one declaration of
    the attributes, checked statically wherever they are read."""
    attrs = _stand_in(op).runtime_attributes()
    declared = _annotation(op.runtime_attributes, "return")
    methods = [
        m for r in RUNTIMES if (m := getattr(r, op.runtime_call(), None)) is not None
    ]
    if attrs is None:
        for method in methods:
            assert "attrs" not in inspect.signature(method).parameters, op.name
        return
    cls = type(attrs)
    assert cls is declared, f"{op.name} returns {cls}, declares {declared}"
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert "__slots__" in vars(cls), f"{cls.__name__} is not slotted"
    fields = dataclasses.fields(cls)
    for field in fields:
        assert field.default is dataclasses.MISSING, (
            f"{cls.__name__}.{field.name} has a default: the op must fill it"
        )
    for method in methods:
        assert _annotation(method, "attrs") is cls, method.__qualname__


def test_cuda_and_hip_share_their_implementations() -> None:
    for op in hip.COMPUTE_OPS:
        method = op.runtime_call()
        shared = getattr(KernelRuntime, method, None)
        assert getattr(CudaRuntime, method, None) is shared
        assert getattr(HipRuntime, method, None) is shared


class _Refusing(CpuRuntime):
    """A runtime lacking TopK and refusing every fill."""

    topk = None

    def fill(self, out: DeviceArray, attrs: hip.FillAttributes) -> None:
        self.refuse("float32 values")


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (hip.TopKOp, "hip.topk is not implemented on cpu"),
        (hip.FillOp, "hip.fill is not implemented on cpu: float32 values"),
    ],
)
def test_refusals_name_the_op(op: type[hip.HipDPSOp], message: str) -> None:
    """The interpreter names the op a runtime lacks or refuses: no runtime
    spells an op's name."""
    runtime = _Refusing()
    fn = builder_of(op)(_stand_in(op), BuildEnv(runtime))  # type: ignore[misc]
    values = runtime.empty((2, 3), np.dtype(np.float32))
    n = len(_stand_in(op).operands) - 1
    with pytest.raises(NotImplementedOnDevice, match=f"^{message}$"):
        fn(HipContext(runtime), *[values] * n)
    runtime.close()


@pytest.mark.parametrize(
    "op", [pytest.param(op, id=op.name) for op in hip.ELEMENTWISE_OPS]
)
def test_elementwise_ops_have_a_kernel_case(op: type[hip.ElementwiseOp]) -> None:
    """A case in the switch of every element type its formula computes in."""
    source = kernel_source()
    kernels = [k for k in KERNELS.values() if op in k.ops]
    assert kernels, f"no kernel runs {op.name}"
    for kernel in kernels:
        assert kernel_case(op, kernel.type) in source, kernel.name
        assert f"__global__ void {kernel.name}(" in source
    kinds = {k.type.kind for k in kernels}
    assert kinds == set(op.kinds()), op.name


def test_the_cpu_only_list_names_real_ops_with_reasons() -> None:
    names = {op.name for op in hip.COMPUTE_OPS}
    for name, reason in CPU_ONLY.items():
        assert name in names and reason.strip()


def test_every_onnx_op_is_converted_or_is_structure() -> None:
    """Each onnx dialect op has a conversion pattern (the importer reads the
    dialect's op list, so a dialect op is an op the importer accepts)."""
    from xhip.transforms.onnx_to_hip import pattern_classes

    converted = {cls.op_type for cls in pattern_classes()} | set(compute.ELEMENTWISE)
    converted |= {onnx.ConstantOp}
    missing = {
        op.name
        for op in onnx.ONNX.operations
        if op not in converted and op is not onnx.EntryPointOp
    }
    assert not missing
