"""The builders of the `hip` dialect: one generic builder for every compute op.

A compute op's contract with the runtimes is its declaration: `RUNTIME_CALL`
(the `Runtime` method), its operand roles (`INDEX`, `INS`, `OUTS`: the
method's parameter names, `bind_roles`) and `runtime_attributes()` (a frozen
dataclass, the method's `attrs`, or None: no `attrs`). `runtime_call` binds
the operands to their roles once per op and calls the method by keyword. A
runtime without the method, or refusing these operands (`Runtime.refuse`),
raises `NotImplementedOnDevice` naming the op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Operation

from xhip.backend.build_env import (
    BuildEnv,
    Builders,
    HipContext,
    OpFn,
    RuntimeStep,
    UnsupportedOpError,
    allocation_name,
    numpy_dtype,
    shape_filler,
)
from xhip.backend.build_std import STD
from xhip.backend.runtime import (
    DeviceArray,
    MemoryPlanError,
    NotImplementedOnDevice,
    check_call,
    overlaps,
)
from xhip.dialects import hip

HIP = Builders()
"""The builders of the `hip` ops that are not compute ops."""


@HIP.of(hip.AllocOp)
def _build_hip_alloc(op: hip.AllocOp, env: BuildEnv) -> OpFn:
    mtype = op.memref.type
    fill = shape_filler(mtype.get_shape())
    dtype = numpy_dtype(mtype.get_element_type())
    runtime = env.runtime
    what = allocation_name(mtype)

    def alloc(ctx: HipContext, *sizes: int) -> DeviceArray:
        return runtime.empty(fill(sizes), dtype, what)

    return alloc


@HIP.of(hip.FreeOp)
def _build_hip_free(op: hip.FreeOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    return lambda ctx, value: runtime.free(value.buffer)


@HIP.of(hip.ReadbackOp)
def _build_readback(op: hip.ReadbackOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    if len(op.values) == 1:
        return lambda ctx, src: runtime.readback(src)[0]
    return lambda ctx, src: runtime.readback(src)


def _refused(op: hip.HipDPSOp, env: BuildEnv) -> OpFn:
    """A runtime without the op's method: each call refuses, naming the op."""
    refusal = NotImplementedOnDevice(env.runtime.name, op=op.name)

    def refuse(*args: Any) -> None:
        raise refusal

    return refuse


def _debug_checks(op: hip.HipDPSOp, n_index: int, n_in: int) -> Callable[..., None]:
    """Debug mode: every out against the ins (`check_call`), the outs against
    each other, and the first out's shape against the op's."""
    name, inplace_ok, expected = op.name, op.IN_PLACE, op.result_shape
    copied = op.copies_overlaps()

    def check(args: Sequence[Any]) -> None:
        index, ins = args[:n_index], args[n_index : n_index + n_in]
        outs: Sequence[DeviceArray] = args[n_index + n_in :]
        for out in outs:
            check_call(name, ins, out, inplace_ok, copied)
        for i, out in enumerate(outs[1:], 1):
            if not copied and overlaps(outs[0], out):
                raise MemoryPlanError(f"{name}: outs 0 and {i} overlap")
        want = expected(*index, *(x.shape for x in ins))
        if want is not None and tuple(want) != outs[0].shape:
            raise MemoryPlanError(
                f"{name}: output has shape {outs[0].shape}, expected {tuple(want)}"
            )

    return check


def runtime_call(op: hip.HipDPSOp, env: BuildEnv) -> OpFn:
    """Any compute op: `getattr(runtime, RUNTIME_CALL)(**roles,
    attrs=runtime_attributes())`, its operands bound to their roles once, here."""
    if op.is_tensor_mode:
        raise UnsupportedOpError(
            f"'{op.name}' is in tensor mode: bufferize before running the IR"
        )
    method = op.runtime_call()
    if getattr(env.runtime, method, None) is None:
        return _refused(op, env)
    n_index, n_in = len(op.index_operands), len(op.inputs)
    positions = op.bind_roles(
        range(n_index, n_index + n_in),
        range(n_index + n_in, len(op.operands) - 1),
        range(n_index),
        op.absent_roles(),
    )
    # The op's operands come after its context: position p is args[p + 1].
    single = [(role, p + 1) for role, p in positions.items() if isinstance(p, int)]
    several = [
        (role, tuple(q + 1 for q in p))
        for role, p in positions.items()
        if isinstance(p, tuple)
    ]
    fixed: dict[str, object] = {
        role: None for role, p in positions.items() if p is None
    }
    attrs = op.runtime_attributes()
    if attrs is not None:
        fixed["attrs"] = attrs
    check = _debug_checks(op, n_index, n_in) if env.runtime.debug else None

    def keywords(args: Sequence[Any]) -> dict[str, Any]:
        bound = {role: args[p] for role, p in single}
        for role, group in several:
            bound[role] = tuple(args[p] for p in group)
        bound.update(fixed)
        return bound

    return RuntimeStep(
        env.runtime,
        method,
        keywords,
        op.name,
        None if check is None else lambda args: check(args[1:]),
    )


def builder_of(op_type: type[Operation]) -> Callable[[Any, BuildEnv], OpFn] | None:
    """The builder of an op type: its own, or, for a compute op, `runtime_call`."""
    builder = STD.get(op_type) or HIP.get(op_type)
    if builder is None and issubclass(op_type, hip.HipDPSOp):
        return runtime_call
    return builder


def build(op: Operation, env: BuildEnv) -> OpFn:
    builder = builder_of(type(op))
    if builder is None:
        raise UnsupportedOpError(f"the xhip backend cannot run '{op.name}'")
    return builder(op, env)
