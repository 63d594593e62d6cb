"""Every hip compute op has every piece: a pass that emits it, a backend builder,
a CPU implementation and a GPU one (or a listed reason why not).

The pieces are derived from each op's declaration (`FORMULA` or
`RUNTIME_CALL`), so this test is what keeps a new op from landing half-done.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import xhip
from xhip.backend.cpu import CpuRuntime
from xhip.backend.cuda import CudaRuntime
from xhip.backend.elementwise import KERNELS, kernel_case
from xhip.backend.gpu import CPU_ONLY, kernel_source
from xhip.backend.hip import HipRuntime
from xhip.backend.interpreter import builder_of
from xhip.backend.runtime import Runtime, implements
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


@pytest.mark.parametrize("op", OPS)
def test_the_cpu_runs_it(op: type[hip.HipDPSOp]) -> None:
    assert implements(CpuRuntime, op.runtime_call()), (
        f"CpuRuntime lacks {op.runtime_call()} for {op.name}"
    )


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("runtime", [CudaRuntime, HipRuntime])
def test_the_gpus_run_it_or_say_why_not(
    op: type[hip.HipDPSOp], runtime: type[Runtime]
) -> None:
    if op.name in CPU_ONLY:
        assert not implements(runtime, op.runtime_call())
        return
    assert implements(runtime, op.runtime_call()), (
        f"{runtime.__name__} lacks {op.runtime_call()} for {op.name}; list it in "
        "gpu.CPU_ONLY with the reason, or implement it"
    )


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
