"""The builders of `arith` (on index values) and `memref` (views of `DeviceArray`s).

See `build_env.py` for what a builder is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from xhip.backend.build_env import (
    BuildEnv,
    Builders,
    OpFn,
    RuntimeStep,
    UnsupportedOpError,
    allocation_name,
    memref_type,
    numpy_dtype,
    shape_filler,
)
from xhip.backend.runtime import DeviceArray, MemoryPlanError, check_call, check_view
from xhip.dialects import hip
from xhip.dialects import memref as xmemref
from xhip.transforms.index_arith import INDEX_BINARY, INDEX_COMPARE

STD = Builders()
"""The builders of `arith` and `memref` ops."""

# arith on index values: `index_arith.INDEX_BINARY`, the one table of their semantics.


def _check_index(op: Operation) -> None:
    if not all(isinstance(r.type, IndexType) for r in op.results):
        raise UnsupportedOpError(
            f"the xhip backend runs '{op.name}' on index values only"
        )


@STD.of(*INDEX_BINARY)
def _build_int_binary(op: Operation, env: BuildEnv) -> OpFn:
    _check_index(op)
    return INDEX_BINARY[type(op)]


_INT_COMPARE = list(INDEX_COMPARE.values())
"""`arith.cmpi` by predicate: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge."""


@STD.of(arith.CmpiOp)
def _build_cmpi(op: arith.CmpiOp, env: BuildEnv) -> OpFn:
    if not isinstance(op.lhs.type, IndexType):
        raise UnsupportedOpError(
            f"the xhip backend runs '{op.name}' on index values only"
        )
    return _INT_COMPARE[op.predicate.value.data]


@STD.of(arith.SelectOp)
def _build_select(op: arith.SelectOp, env: BuildEnv) -> OpFn:
    return lambda cond, a, b: a if cond else b


@STD.of(arith.ConstantOp)
def _build_constant(op: arith.ConstantOp, env: BuildEnv) -> OpFn:
    if not isinstance(op.value, IntegerAttr):
        raise UnsupportedOpError(
            f"the xhip backend runs 'arith.constant' on scalars, not {op.value}"
        )
    value: int | bool = op.value.value.data
    if isinstance(op.value.type, IntegerType) and op.value.type.width.data == 1:
        value = bool(value)
    return lambda: value


@STD.of(arith.IndexCastOp)
def _build_index_cast(op: arith.IndexCastOp, env: BuildEnv) -> OpFn:
    return lambda x: x


# memref.


@STD.of(memref.AllocOp, memref.AllocaOp)
def _build_alloc(op: memref.AllocOp, env: BuildEnv) -> OpFn:
    mtype = op.memref.type
    fill = shape_filler(mtype.get_shape())
    dtype = numpy_dtype(mtype.get_element_type())
    runtime = env.runtime
    what = allocation_name(mtype)

    def alloc(*sizes: int) -> DeviceArray:
        return runtime.empty(fill(sizes), dtype, what)

    return alloc


@STD.of(memref.DeallocOp)
def _build_dealloc(op: memref.DeallocOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    return lambda value: runtime.free(value.buffer)


@STD.of(xmemref.DimOp, memref.DimOp)
def _build_dim(op: memref.DimOp, env: BuildEnv) -> OpFn:
    return lambda value, index: value.shape[index]


@STD.of(memref.ViewOp)
def _build_view(op: memref.ViewOp, env: BuildEnv) -> OpFn:
    mtype = memref_type(op.result)
    fill = shape_filler(mtype.get_shape())
    dtype = numpy_dtype(mtype.get_element_type())
    debug = env.runtime.debug

    def view(source: DeviceArray, shift: int, *sizes: int) -> DeviceArray:
        result = source.view(shift, fill(sizes), dtype)
        if debug:
            check_view(result, "memref.view")
        return result

    return view


@STD.of(xmemref.CastOp, memref.CastOp)
def _build_cast(op: memref.CastOp, env: BuildEnv) -> OpFn:
    if not env.runtime.debug:
        return lambda value: value
    static = memref_type(op.dest).get_shape()

    def cast(value: DeviceArray) -> DeviceArray:
        if len(value.shape) != len(static) or any(
            s not in (DYNAMIC_INDEX, d) for s, d in zip(static, value.shape)
        ):
            raise MemoryPlanError(
                f"memref.cast of shape {value.shape} to {memref_type(op.dest)}"
            )
        return value

    return cast


def _mixed(static: Sequence[int]) -> Callable[[Sequence[int]], list[int]]:
    """Static values with the dynamic ones taken, in order, from operands."""
    fill = shape_filler(static)
    return lambda dynamic: list(fill(dynamic))


@STD.of(memref.ReinterpretCastOp)
def _build_reinterpret_cast(op: memref.ReinterpretCastOp, env: BuildEnv) -> OpFn:
    offsets = _mixed(op.static_offsets.get_values())
    sizes = _mixed(op.static_sizes.get_values())
    strides = _mixed(op.static_strides.get_values())
    n_off, n_size = len(op.offsets), len(op.sizes)
    debug = env.runtime.debug

    def reinterpret(source: DeviceArray, *dyn: int) -> DeviceArray:
        offset = offsets(dyn[:n_off])[0]
        shape = tuple(sizes(dyn[n_off : n_off + n_size]))
        result = source.reinterpret(
            offset, shape, tuple(strides(dyn[n_off + n_size :]))
        )
        if debug:
            check_view(result, "memref.reinterpret_cast")
        return result

    return reinterpret


@STD.of(memref.SubviewOp)
def _build_subview(op: memref.SubviewOp, env: BuildEnv) -> OpFn:
    offsets = _mixed(op.static_offsets.get_values())
    sizes = _mixed(op.static_sizes.get_values())
    steps = _mixed(op.static_strides.get_values())
    n_off, n_size = len(op.offsets), len(op.sizes)
    result_shape = memref_type(op.result).get_shape()
    debug = env.runtime.debug

    def subview(source: DeviceArray, *dyn: int) -> DeviceArray:
        result = source.subview(
            offsets(dyn[:n_off]),
            sizes(dyn[n_off : n_off + n_size]),
            steps(dyn[n_off + n_size :]),
            result_shape,
        )
        if debug:
            check_view(result, "memref.subview")
        return result

    return subview


def _reassociation(attr: ArrayAttr[Any]) -> list[list[int]]:
    return [[int(i.value.data) for i in group] for group in attr.data]


@STD.of(memref.CollapseShapeOp)
def _build_collapse_shape(op: memref.CollapseShapeOp, env: BuildEnv) -> OpFn:
    groups = _reassociation(op.reassociation)
    return lambda source: source.collapse(groups)


@STD.of(memref.ExpandShapeOp)
def _build_expand_shape(op: memref.ExpandShapeOp, env: BuildEnv) -> OpFn:
    groups = _reassociation(op.reassociation)
    fill = shape_filler(op.static_output_shape.get_values())
    return lambda source, *sizes: source.expand(groups, fill(sizes))


@STD.of(memref.GetGlobalOp)
def _build_get_global(op: memref.GetGlobalOp, env: BuildEnv) -> OpFn:
    name = op.name_.root_reference.data
    value = env.globals.get(name)
    if value is None:
        value = _load_global(op, name, env)
        env.globals[name] = value
    return lambda: value


def _load_global(op: memref.GetGlobalOp, name: str, env: BuildEnv) -> DeviceArray:
    global_op = SymbolTable.lookup_symbol(env.module or op, name)
    if not isinstance(global_op, memref.GlobalOp):
        raise UnsupportedOpError(f"memref.get_global: no memref.global @{name}")
    mtype = global_op.type
    dtype = numpy_dtype(mtype.get_element_type())
    shape = tuple(mtype.get_shape())
    external = global_op.attributes.get(hip.EXTERNAL_DATA_ATTR)
    if isinstance(external, DictionaryAttr):
        if env.constants is None:
            raise UnsupportedOpError(
                f"memref.get_global @{name} is externalized but no constants blob "
                "was given"
            )
        offset = external.data["offset"]
        assert isinstance(offset, IntegerAttr)
        result = env.constants.view(offset.value.data, shape, dtype)
        check_view(result, f"constant @{name}")
        return result
    initial = global_op.initial_value
    if not isinstance(initial, DenseIntOrFPElementsAttr):
        raise UnsupportedOpError(f"memref.global @{name} has no dense initial value")
    values = np.asarray(initial.get_values(), dtype=dtype).reshape(-1)
    if values.size == 1:  # a splat
        array = np.full(shape, values[0], dtype=dtype)
    else:
        array = values.reshape(shape)
    return env.runtime.upload(array, copy=True)


@STD.of(memref.CopyOp)
def _build_memref_copy(op: memref.CopyOp, env: BuildEnv) -> OpFn:
    def check(args: Sequence[Any]) -> None:
        check_call("memref.copy", (args[0],), args[1], inplace_ok=False)

    return RuntimeStep(
        env.runtime,
        "copy",
        lambda args: {"src": args[0], "out": args[1]},
        op.name,
        check if env.runtime.debug else None,
    )
