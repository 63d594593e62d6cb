"""Running the final IR: xDSL interpreter functions, and a compiled fast path.

Each supported op has one *builder* that turns the op (its static attributes,
types and the runtime) into a Python function of the op's operand values. Both
execution engines use the builders, so they share one semantics:

- `XhipFunctions` & co. are `xdsl.interpreter` implementations: they let
  `xdsl.interpreter.Interpreter` walk any stage from bufferization onwards.
- `Plan` compiles a straight-line `func.func` once into a flat list of steps
  over a register file, folding constants. Per call it costs a few hundred
  nanoseconds per op instead of the interpreter's scoped-dict walk.
"""

from __future__ import annotations

import io
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.comparisons import to_signed, to_unsigned

from xhip.backend.runtime import (
    DeviceArray,
    MemoryPlanError,
    Runtime,
    broadcast_shapes,
    check_call,
    check_view,
    overlaps,
)
from xhip.dialects import hip
from xhip.dialects import memref as xmemref

OpFn: TypeAlias = Callable[..., Any]
"""An op's semantics: operand values in, None / the one result / a tuple out."""

INDEX_BITS = 64


class UnsupportedOpError(NotImplementedError):
    """The backend has no implementation for an op of the IR."""


@dataclass
class HipContext:
    """The value of `!hip.context`: which runtime the `hip.*` ops run on."""

    runtime: Runtime


@dataclass
class BuildEnv:
    """What builders may look at: the runtime, the module, the constants blob."""

    runtime: Runtime
    module: ModuleOp | None = None
    constants: DeviceArray | None = None
    """The constants blob, for `memref.get_global` of externalized globals."""
    globals: dict[str, DeviceArray] = field(default_factory=dict[str, DeviceArray])
    """Uploaded globals, once per env."""


Builder: TypeAlias = Callable[[Any, BuildEnv], OpFn]
BUILDERS: dict[type[Operation], Builder] = {}


def builds(*op_types: type[Operation]) -> Callable[[Builder], Builder]:
    def register(builder: Builder) -> Builder:
        for op_type in op_types:
            BUILDERS[op_type] = builder
        return builder

    return register


def builder_of(op_type: type[Operation]) -> Builder | None:
    """The builder of an op type: its own, or the one its declaration implies."""
    builder = BUILDERS.get(op_type)
    if builder is None and issubclass(op_type, hip.ElementwiseOp):
        return _build_elementwise
    if builder is None and issubclass(op_type, hip.HipDPSOp):
        return _build_runtime_call
    return builder


def build(op: Operation, env: BuildEnv) -> OpFn:
    builder = builder_of(type(op))
    if builder is None:
        raise UnsupportedOpError(f"the xhip backend cannot run '{op.name}'")
    return builder(op, env)


# Types.

_FLOAT_DTYPES: dict[type[Attribute], np.dtype[Any]] = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}


def numpy_dtype(element_type: Attribute) -> np.dtype[Any]:
    """The numpy dtype of an MLIR element type."""
    if type(element_type) in _FLOAT_DTYPES:
        return _FLOAT_DTYPES[type(element_type)]
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width in (8, 16, 32, 64):
            unsigned = element_type.signedness.data == Signedness.UNSIGNED
            return np.dtype(f"{'u' if unsigned else ''}int{width}")
    raise UnsupportedOpError(f"the xhip backend has no element type {element_type}")


def _memref_type(value: SSAValue) -> MemRefType[Attribute]:
    assert isinstance(value.type, MemRefType)
    return value.type  # pyright: ignore[reportUnknownVariableType]


def _shape_filler(static: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function filling the dynamic entries of a static shape from operands."""
    dynamic = [i for i, d in enumerate(static) if d == DYNAMIC_INDEX]
    if not dynamic:
        fixed = tuple(static)
        return lambda sizes: fixed
    if len(dynamic) == len(static):
        return tuple

    def fill(sizes: Sequence[int]) -> tuple[int, ...]:
        shape = list(static)
        for i, size in zip(dynamic, sizes):
            shape[i] = size
        return tuple(shape)

    return fill


# arith: index arithmetic with 64-bit wrap-around, as the interpreter's.

_LIMIT = 1 << (INDEX_BITS - 1)


def _wrap(x: int) -> int:
    if -_LIMIT <= x < _LIMIT:
        return x
    return to_signed(x & ((1 << INDEX_BITS) - 1), INDEX_BITS)


def _unsigned(f: Callable[[int, int], int]) -> Callable[[int, int], int]:
    def run(a: int, b: int) -> int:
        return _wrap(f(to_unsigned(a, INDEX_BITS), to_unsigned(b, INDEX_BITS)))

    return run


def _signed(f: Callable[[int, int], int]) -> Callable[[int, int], int]:
    return lambda a, b: _wrap(f(a, b))


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


_INT_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: _signed(operator.add),
    arith.SubiOp: _signed(operator.sub),
    arith.MuliOp: _signed(operator.mul),
    arith.DivUIOp: _unsigned(operator.floordiv),
    arith.DivSIOp: _signed(_trunc_div),
    arith.RemUIOp: _unsigned(operator.mod),
    arith.RemSIOp: _signed(lambda a, b: a - _trunc_div(a, b) * b),
    arith.CeilDivUIOp: _unsigned(_ceil_div),
    arith.CeilDivSIOp: _signed(_ceil_div),
    arith.FloorDivSIOp: _signed(operator.floordiv),
    arith.MaxUIOp: _unsigned(max),
    arith.MinUIOp: _unsigned(min),
    arith.MaxSIOp: _signed(max),
    arith.MinSIOp: _signed(min),
    arith.AndIOp: _signed(operator.and_),
    arith.OrIOp: _signed(operator.or_),
    arith.XOrIOp: _signed(operator.xor),
}
"""Integer ops on index-width values (the IR's only integers)."""


def _check_index(op: Operation) -> None:
    if not all(isinstance(r.type, IndexType) for r in op.results):
        raise UnsupportedOpError(
            f"the xhip backend runs '{op.name}' on index values only"
        )


@builds(*_INT_BINARY)
def _build_int_binary(op: Operation, env: BuildEnv) -> OpFn:
    _check_index(op)
    return _INT_BINARY[type(op)]


_INT_COMPARE: dict[int, Callable[[int, int], bool]] = {
    0: operator.eq,
    1: operator.ne,
    2: operator.lt,
    3: operator.le,
    4: operator.gt,
    5: operator.ge,
    6: lambda a, b: to_unsigned(a, INDEX_BITS) < to_unsigned(b, INDEX_BITS),
    7: lambda a, b: to_unsigned(a, INDEX_BITS) <= to_unsigned(b, INDEX_BITS),
    8: lambda a, b: to_unsigned(a, INDEX_BITS) > to_unsigned(b, INDEX_BITS),
    9: lambda a, b: to_unsigned(a, INDEX_BITS) >= to_unsigned(b, INDEX_BITS),
}
"""`arith.cmpi` by predicate: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge."""


@builds(arith.CmpiOp)
def _build_cmpi(op: arith.CmpiOp, env: BuildEnv) -> OpFn:
    if not isinstance(op.lhs.type, IndexType):
        raise UnsupportedOpError(
            f"the xhip backend runs '{op.name}' on index values only"
        )
    return _INT_COMPARE[op.predicate.value.data]


@builds(arith.SelectOp)
def _build_select(op: arith.SelectOp, env: BuildEnv) -> OpFn:
    return lambda cond, a, b: a if cond else b


@builds(arith.ConstantOp)
def _build_constant(op: arith.ConstantOp, env: BuildEnv) -> OpFn:
    if not isinstance(op.value, IntegerAttr):
        raise UnsupportedOpError(
            f"the xhip backend runs 'arith.constant' on scalars, not {op.value}"
        )
    value: int | bool = op.value.value.data
    if isinstance(op.value.type, IntegerType) and op.value.type.width.data == 1:
        value = bool(value)
    return lambda: value


@builds(arith.IndexCastOp)
def _build_index_cast(op: arith.IndexCastOp, env: BuildEnv) -> OpFn:
    return lambda x: x


# memref.


def _allocation_name(mtype: MemRefType[Attribute]) -> str:
    """What an allocation is, for `MemoryLimitError`: `hip-pool-allocs` makes
    the pool one byte buffer."""
    element = mtype.get_element_type()
    if isinstance(element, IntegerType) and element.width.data == 8:
        if mtype.get_num_dims() == 1:
            return "the memory pool"
    return f"a buffer of {mtype}"


@builds(memref.AllocOp, memref.AllocaOp)
def _build_alloc(op: memref.AllocOp, env: BuildEnv) -> OpFn:
    mtype = op.memref.type
    fill = _shape_filler(mtype.get_shape())
    dtype = numpy_dtype(mtype.get_element_type())
    runtime = env.runtime
    what = _allocation_name(mtype)

    def alloc(*sizes: int) -> DeviceArray:
        return runtime.empty(fill(sizes), dtype, what)

    return alloc


@builds(memref.DeallocOp)
def _build_dealloc(op: memref.DeallocOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    return lambda value: runtime.free(value.buffer)


@builds(xmemref.DimOp, memref.DimOp)
def _build_dim(op: memref.DimOp, env: BuildEnv) -> OpFn:
    return lambda value, index: value.shape[index]


@builds(memref.ViewOp)
def _build_view(op: memref.ViewOp, env: BuildEnv) -> OpFn:
    mtype = _memref_type(op.result)
    fill = _shape_filler(mtype.get_shape())
    dtype = numpy_dtype(mtype.get_element_type())
    debug = env.runtime.debug

    def view(source: DeviceArray, shift: int, *sizes: int) -> DeviceArray:
        result = source.view(shift, fill(sizes), dtype)
        if debug:
            check_view(result, "memref.view")
        return result

    return view


@builds(xmemref.CastOp, memref.CastOp)
def _build_cast(op: memref.CastOp, env: BuildEnv) -> OpFn:
    if not env.runtime.debug:
        return lambda value: value
    static = _memref_type(op.dest).get_shape()

    def cast(value: DeviceArray) -> DeviceArray:
        if len(value.shape) != len(static) or any(
            s not in (DYNAMIC_INDEX, d) for s, d in zip(static, value.shape)
        ):
            raise MemoryPlanError(
                f"memref.cast of shape {value.shape} to {_memref_type(op.dest)}"
            )
        return value

    return cast


def _mixed(static: Sequence[int]) -> Callable[[Sequence[int]], list[int]]:
    """Static values with the dynamic ones taken, in order, from operands."""
    fill = _shape_filler(static)
    return lambda dynamic: list(fill(dynamic))


@builds(memref.ReinterpretCastOp)
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


@builds(memref.SubviewOp)
def _build_subview(op: memref.SubviewOp, env: BuildEnv) -> OpFn:
    offsets = _mixed(op.static_offsets.get_values())
    sizes = _mixed(op.static_sizes.get_values())
    steps = _mixed(op.static_strides.get_values())
    n_off, n_size = len(op.offsets), len(op.sizes)
    result_shape = _memref_type(op.result).get_shape()
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


@builds(memref.CollapseShapeOp)
def _build_collapse_shape(op: memref.CollapseShapeOp, env: BuildEnv) -> OpFn:
    groups = _reassociation(op.reassociation)
    return lambda source: source.collapse(groups)


@builds(memref.ExpandShapeOp)
def _build_expand_shape(op: memref.ExpandShapeOp, env: BuildEnv) -> OpFn:
    groups = _reassociation(op.reassociation)
    fill = _shape_filler(op.static_output_shape.get_values())
    return lambda source, *sizes: source.expand(groups, fill(sizes))


@builds(memref.GetGlobalOp)
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


@builds(memref.CopyOp)
def _build_memref_copy(op: memref.CopyOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    debug = runtime.debug

    def copy(source: DeviceArray, dest: DeviceArray) -> None:
        if debug:
            check_call("memref.copy", (source,), dest, inplace_ok=False)
        runtime.copy(source, dest)

    return copy


# hip.


@builds(hip.AllocOp)
def _build_hip_alloc(op: hip.AllocOp, env: BuildEnv) -> OpFn:
    mtype = op.memref.type
    fill = _shape_filler(mtype.get_shape())
    dtype = numpy_dtype(mtype.get_element_type())
    runtime = env.runtime
    what = _allocation_name(mtype)

    def alloc(ctx: HipContext, *sizes: int) -> DeviceArray:
        return runtime.empty(fill(sizes), dtype, what)

    return alloc


@builds(hip.FreeOp)
def _build_hip_free(op: hip.FreeOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    return lambda ctx, value: runtime.free(value.buffer)


def _dps(
    op: hip.HipDPSOp,
    env: BuildEnv,
    run: Callable[..., None],
    expected_shape: Callable[..., tuple[int, ...] | None] | None = None,
) -> OpFn:
    """An op taking (ctx, *index operands, *inputs, out) that calls `run`.

    `run` gets (*index operands, *inputs, out); in debug mode the operands are
    checked first, and the output's shape against `expected_shape(*index,
    *input shapes)`, by default the op's own `result_shape`.
    """
    if op.is_tensor_mode:
        raise UnsupportedOpError(
            f"'{op.name}' is in tensor mode: bufferize before running the IR"
        )
    if not env.runtime.debug:
        return lambda ctx, *args: run(*args)
    n_index = len(op.index_operands)
    name = op.name
    inplace_ok = op.IN_PLACE
    if expected_shape is None:
        expected_shape = op.result_shape

    def checked(ctx: HipContext, *args: Any) -> None:
        out: DeviceArray = args[-1]
        inputs: tuple[DeviceArray, ...] = args[n_index:-1]
        check_call(name, inputs, out, inplace_ok)
        assert expected_shape is not None
        want = expected_shape(*args[:n_index], *(x.shape for x in inputs))
        if want is not None and tuple(want) != out.shape:
            raise MemoryPlanError(
                f"{name}: output has shape {out.shape}, expected {tuple(want)}"
            )
        run(*args)

    return checked


def _build_elementwise(op: hip.ElementwiseOp, env: BuildEnv) -> OpFn:
    """Any op a `FORMULA` defines: `runtime.unary`, `binary` or `ternary` by
    arity, with the op's kind and the values of its formula's `Param`s."""
    kind = op.kind()
    call = getattr(env.runtime, op.runtime_call())
    params = op.formula_params()
    if params:
        return _dps(op, env, lambda *args: call(kind, *args, params=params))
    return _dps(op, env, lambda *args: call(kind, *args))


def _build_runtime_call(op: hip.HipDPSOp, env: BuildEnv) -> OpFn:
    """Any op naming its `RUNTIME_CALL`: the method, with the op's attributes."""
    method = getattr(env.runtime, op.runtime_call())
    attributes = op.runtime_attributes()
    if not attributes:
        return _dps(op, env, method)
    return _dps(op, env, lambda *args: method(*args, **attributes))


@builds(hip.ReadbackOp)
def _build_readback(op: hip.ReadbackOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    if len(op.values) == 1:
        return lambda ctx, src: runtime.readback(src)[0]
    return lambda ctx, src: runtime.readback(src)


@builds(hip.GemmOp)
def _build_gemm(op: hip.GemmOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    trans_a, trans_b = op.trans_a is not None, op.trans_b is not None
    alpha = 1.0 if op.alpha is None else float(op.alpha.value.data)
    beta = 1.0 if op.beta is None else float(op.beta.value.data)

    def gemm(a: DeviceArray, b: DeviceArray, *rest: DeviceArray) -> None:
        c = rest[0] if len(rest) == 2 else None
        runtime.gemm(a, b, c, rest[-1], trans_a, trans_b, alpha, beta)

    def shape(
        a: tuple[int, ...], b: tuple[int, ...], *c: tuple[int, ...]
    ) -> tuple[int, ...]:
        m = a[1] if trans_a else a[0]
        n = b[0] if trans_b else b[1]
        if c:
            broadcast_shapes(c[0], (m, n))
        return (m, n)

    return _dps(op, env, gemm, shape)


@builds(hip.ConcatOp)
def _build_hip_concat(op: hip.ConcatOp, env: BuildEnv) -> OpFn:
    runtime = env.runtime
    axis = op.axis.value.data

    def concat(*args: DeviceArray) -> None:
        runtime.concat(args[:-1], args[-1], axis)

    def shape(*inputs: tuple[int, ...]) -> tuple[int, ...]:
        dims = list(inputs[0])
        dims[axis] = sum(x[axis] for x in inputs)
        return tuple(dims)

    return _dps(op, env, concat, shape)


@builds(hip.SoftmaxOp)
def _build_softmax(op: hip.SoftmaxOp, env: BuildEnv) -> OpFn:
    """`ins` is the source and, if `hip-fuse-scaled-softmax` put one there,
    the scale."""
    softmax = env.runtime.softmax
    axis = -1 if op.axis is None else op.axis.value.data

    def run(src: DeviceArray, *rest: DeviceArray) -> None:
        softmax(src, rest[-1], axis, rest[0] if len(rest) == 2 else None)

    return _dps(op, env, run)


@builds(hip.AttentionSoftmaxOp)
def _build_attention_softmax(op: hip.AttentionSoftmaxOp, env: BuildEnv) -> OpFn:
    """`ins` (scores[, mask][, nonpad]): the optional ones told apart by type."""
    method = env.runtime.attention_softmax
    attributes = op.runtime_attributes()
    roles = [
        None if v is None else op.inputs.index(v) for v in (op.mask(), op.nonpad())
    ]

    def run(past: int, scores: DeviceArray, *rest: DeviceArray) -> None:
        mask, nonpad = (None if i is None else rest[i - 1] for i in roles)
        method(past, scores, mask, nonpad, rest[-1], **attributes)

    return _dps(op, env, run, lambda past, scores, *rest: scores)


@builds(hip.RotaryEmbeddingOp)
def _build_rotary_embedding(op: hip.RotaryEmbeddingOp, env: BuildEnv) -> OpFn:
    """`ins` (x, cos, sin[, position_ids])."""
    method = env.runtime.rotary_embedding
    attributes = op.runtime_attributes()

    def run(
        x: DeviceArray, cos: DeviceArray, sin: DeviceArray, *rest: DeviceArray
    ) -> None:
        method(x, cos, sin, rest[0] if len(rest) == 2 else None, rest[-1], **attributes)

    return _dps(op, env, run)


@builds(hip.LayerNormOp)
def _build_layer_norm(op: hip.LayerNormOp, env: BuildEnv) -> OpFn:
    """`ins` (x, scale[, bias]), `outs` (y[, mean, inv_std_dev]): the only op
    with several `outs`, so each is checked in debug mode."""
    if op.is_tensor_mode:
        raise UnsupportedOpError(
            f"'{op.name}' is in tensor mode: bufferize before running the IR"
        )
    runtime = env.runtime
    n_in = len(op.inputs)
    attributes = op.runtime_attributes()
    debug = runtime.debug
    name = op.name

    def run(ctx: HipContext, *args: DeviceArray) -> None:
        ins, outs = args[:n_in], args[n_in:]
        if debug:
            for out in outs:
                check_call(name, ins, out, inplace_ok=False)
            if outs[0].shape != ins[0].shape:
                raise MemoryPlanError(
                    f"{name}: output has shape {outs[0].shape}, expected {ins[0].shape}"
                )
        bias = ins[2] if n_in == 3 else None
        mean, inv_std = (outs[1], outs[2]) if len(outs) == 3 else (None, None)
        runtime.layer_norm(ins[0], ins[1], bias, outs[0], mean, inv_std, **attributes)

    return run


def _several_outs(
    op: hip.HipDPSOp,
    env: BuildEnv,
    run: Callable[[Sequence[DeviceArray], Sequence[DeviceArray]], None],
) -> OpFn:
    """An op with several `outs` calling `run(ins, outs)`; in debug mode each
    out is checked against the ins, and the first against `result_shape`."""
    if op.is_tensor_mode:
        raise UnsupportedOpError(
            f"'{op.name}' is in tensor mode: bufferize before running the IR"
        )
    n_in = len(op.inputs)
    if not env.runtime.debug:
        return lambda ctx, *args: run(args[:n_in], args[n_in:])
    name = op.name
    expected = op.result_shape

    def checked(ctx: HipContext, *args: DeviceArray) -> None:
        ins, outs = args[:n_in], args[n_in:]
        for out in outs:
            check_call(name, ins, out, inplace_ok=False)
        for i, out in enumerate(outs[1:], 1):
            if overlaps(outs[0], out):
                raise MemoryPlanError(f"{name}: outs 0 and {i} overlap")
        want = expected(*(x.shape for x in ins))
        if want is not None and tuple(want) != outs[0].shape:
            raise MemoryPlanError(
                f"{name}: output has shape {outs[0].shape}, expected {tuple(want)}"
            )
        run(ins, outs)

    return checked


@builds(hip.ConvOp)
def _build_conv(op: hip.ConvOp, env: BuildEnv) -> OpFn:
    """`ins` (x, w[, bias]), `outs` (y, workspace)."""
    conv = env.runtime.conv
    attributes = op.runtime_attributes()

    def run(ins: Sequence[DeviceArray], outs: Sequence[DeviceArray]) -> None:
        bias = ins[2] if len(ins) == 3 else None
        conv(ins[0], ins[1], bias, outs[0], outs[1], **attributes)  # pyright: ignore[reportArgumentType]

    return _several_outs(op, env, run)


@builds(hip.ConvTransposeOp)
def _build_conv_transpose(op: hip.ConvTransposeOp, env: BuildEnv) -> OpFn:
    """`ins` (x, w[, bias]), `outs` (y, workspace)."""
    conv_transpose = env.runtime.conv_transpose
    attributes = op.runtime_attributes()

    def run(ins: Sequence[DeviceArray], outs: Sequence[DeviceArray]) -> None:
        bias = ins[2] if len(ins) == 3 else None
        conv_transpose(ins[0], ins[1], bias, outs[0], outs[1], **attributes)  # pyright: ignore[reportArgumentType]

    return _several_outs(op, env, run)


@builds(hip.MaxPoolOp, hip.AveragePoolOp)
def _build_pool(op: hip.PoolOp, env: BuildEnv) -> OpFn:
    """`outs` (y[, indices])."""
    pool = env.runtime.pool
    attributes = op.runtime_attributes()

    def run(ins: Sequence[DeviceArray], outs: Sequence[DeviceArray]) -> None:
        indices = outs[1] if len(outs) == 2 else None
        pool(ins[0], outs[0], indices, **attributes)  # pyright: ignore[reportArgumentType]

    return _several_outs(op, env, run)


@builds(hip.TopKOp)
def _build_topk(op: hip.TopKOp, env: BuildEnv) -> OpFn:
    """`outs` (values, indices)."""
    topk = env.runtime.topk
    attributes = op.runtime_attributes()

    def run(ins: Sequence[DeviceArray], outs: Sequence[DeviceArray]) -> None:
        topk(ins[0], outs[0], outs[1], **attributes)  # pyright: ignore[reportArgumentType]

    return _several_outs(op, env, run)


@builds(hip.PadOp)
def _build_pad(op: hip.PadOp, env: BuildEnv) -> OpFn:
    """Index operands (the pads), `ins` (x[, value])."""
    pad = env.runtime.pad
    mode = op.mode.data
    n_pads = len(op.index_operands)

    def run(*args: Any) -> None:
        pads: tuple[int, ...] = args[:n_pads]
        x, *rest = args[n_pads:]
        pad(x, rest[0] if len(rest) == 2 else None, rest[-1], pads, mode)

    return _dps(op, env, run)


@builds(hip.TransposeOp)
def _build_transpose(op: hip.TransposeOp, env: BuildEnv) -> OpFn:
    def shape(dim0: int, dim1: int, src: tuple[int, ...]) -> tuple[int, ...]:
        dims = list(src)
        dims[dim0], dims[dim1] = dims[dim1], dims[dim0]
        return tuple(dims)

    runtime = env.runtime

    def transpose(dim0: int, dim1: int, src: DeviceArray, out: DeviceArray) -> None:
        runtime.transpose(src, out, dim0, dim1)

    return _dps(op, env, transpose, shape)


# xDSL interpreter functions.


class _Builders(InterpreterFunctions):
    """Interpreter functions that run each op through its (cached) builder."""

    def __init__(self, env: BuildEnv):
        self.env = env
        self._fns: dict[Operation, OpFn] = {}

    def _run(self, op: Operation, args: PythonValues) -> PythonValues:
        fn = self._fns.get(op)
        if fn is None:
            fn = self._fns[op] = build(op, self.env)
        result = fn(*args)
        if not op.results:
            return ()
        return (result,) if len(op.results) == 1 else tuple(result)


def _impls_for(*op_types: type[Operation]) -> Callable[[type[Any]], type[Any]]:
    """Adds one `@impl` per op type to a `_Builders` subclass, then registers it."""

    def decorate(cls: type[Any]) -> type[Any]:
        for op_type in op_types:

            def run(
                self: _Builders,
                interpreter: Interpreter,
                op: Operation,
                args: PythonValues,
            ) -> PythonValues:
                return self._run(op, args)

            setattr(cls, f"run_{op_type.__name__}", impl(op_type)(run))
        return register_impls(cls)

    return decorate


@_impls_for(
    *_INT_BINARY, arith.CmpiOp, arith.SelectOp, arith.ConstantOp, arith.IndexCastOp
)
class ArithFunctions(_Builders):
    """`arith` on index values, with the builders `Plan` uses: one semantics.

    It replaces xDSL's own `ArithFunctions`, which since 0.75 passes scalars as
    `IntegerAttr`s, where our memref and hip functions take Python ints.
    """


@_impls_for(
    memref.AllocOp,
    memref.AllocaOp,
    memref.DeallocOp,
    memref.ViewOp,
    memref.ReinterpretCastOp,
    memref.SubviewOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.GetGlobalOp,
    memref.CopyOp,
    xmemref.DimOp,
    xmemref.CastOp,
)
class MemRefFunctions(_Builders):
    """`memref` on DeviceArrays (xDSL's own works on ShapedArrays)."""


@_impls_for(*hip.HIP.operations)
class HipFunctions(_Builders):
    """The `hip` dialect on a Runtime."""


def make_interpreter(module: ModuleOp, env: BuildEnv) -> Interpreter:
    """An xDSL Interpreter for `module` with every xhip implementation registered."""
    env.module = module
    interpreter = Interpreter(module, index_bitwidth=INDEX_BITS)
    interpreter.register_implementations(FuncFunctions())
    for functions in (ArithFunctions, MemRefFunctions, HipFunctions):
        interpreter.register_implementations(functions(env))
    return interpreter


# The compiled fast path.


_ALIAS_OPS = (
    xmemref.CastOp,
    memref.CastOp,
    memref.SubviewOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.ReinterpretCastOp,
)
"""Ops whose result is another name for (part of) their source's memory."""


def _written_operands(op: Operation) -> tuple[int, ...]:
    """Which operands an op writes: every `outs` of a hip op (a conv's
    workspace, a layer norm's mean), a copy's target; none for other ops."""
    if isinstance(op, hip.HipDPSOp):
        n = len(op.operands)
        return tuple(range(n - len(op.outputs), n))
    if isinstance(op, memref.CopyOp):
        return (1,)
    return ()


def printed_names(function: func.FuncOp) -> dict[SSAValue, str]:
    """Each value's name as the printed IR shows it (`%12`, `%arg3`): the
    names a debug-mode error gives are the ones the user can find."""
    printer = Printer(stream=io.StringIO())
    printer.print_op(function)
    names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
    return {value: f"%{name}" for value, name in names.items()}


class ClobberCheck:
    """Debug mode: no op may write bytes that a live, different value still holds.

    Each value written by an op stays live until the last step reading it or
    any alias of it (`memref.cast`, `subview`, ...). Writing overlapping bytes
    of another live value is the mark of a wrong memory plan, so it raises
    `MemoryPlanError` naming both values, instead of silently giving a wrong
    answer. Rewriting the same value (or an alias) is fine: that is DPS reuse.
    """

    def __init__(
        self,
        ops: Sequence[Operation],
        slots: dict[SSAValue, int],
        names: dict[SSAValue, str] | None = None,
    ):
        root: dict[int, int] = {}
        self.names: dict[int, str] = {}
        """How the message calls each value: its name in the printed IR."""
        for value, slot in slots.items():
            root[slot] = slot
            self.names[slot] = (names or {}).get(value) or f"%{value.name_hint or slot}"
        self.ops = list(ops)
        for op in ops:
            if isinstance(op, _ALIAS_OPS):
                root[slots[op.results[0]]] = root[slots[op.operands[0]]]
        self.last_use: dict[int, int] = {}
        for step, op in enumerate(ops):
            for v in op.operands:
                r = root[slots[v]]
                self.last_use[r] = max(self.last_use.get(r, -1), step)
        self.root = root
        self.live: list[tuple[DeviceArray, int, int, str]] = []
        """(value, its root, the last step using it, the op that wrote it) for
        values written so far."""

    def wrap(
        self, fn: OpFn, step: int, op: Operation, slots: dict[SSAValue, int]
    ) -> OpFn:
        positions = _written_operands(op)
        if not positions:
            return fn
        roots = [self.root[slots[op.operands[p]]] for p in positions]
        untils = [self.last_use.get(root, step) for root in roots]

        def checked(*args: Any) -> Any:
            for position, root in zip(positions, roots):
                written: DeviceArray = args[position]
                for value, other, last, writer in self.live:
                    if other != root and last > step and overlaps(value, written):
                        lo, hi = written.byte_extent()
                        other_lo, other_hi = value.byte_extent()
                        raise MemoryPlanError(
                            f"'{op.name}' writes {self.names[root]} over bytes of "
                            f"{self.names[other]}, which is read again later: "
                            f"{self.names[root]} is bytes [{lo}, {hi}) and "
                            f"{self.names[other]} (written by '{writer}', read by "
                            f"'{self.ops[last].name}') bytes [{other_lo}, "
                            f"{other_hi}) of one {written.buffer.nbytes}-byte buffer"
                        )
            result = fn(*args)
            for position, root, until in zip(positions, roots, untils):
                self.live.append((args[position], root, until, op.name))
            return result

        return checked


def _item(k: int) -> OpFn:
    return lambda values: values[k]


class Plan:
    """A straight-line `func.func` compiled once into steps over registers.

    Steps whose operands are all known at build time (constants, index
    arithmetic on them, globals) are folded into the initial registers. In
    debug mode, writes are checked by a `ClobberCheck`.
    """

    _FOLDABLE = (*_INT_BINARY, arith.ConstantOp, arith.IndexCastOp, memref.GetGlobalOp)

    def __init__(self, function: func.FuncOp, env: BuildEnv):
        if len(function.body.blocks) != 1:
            raise UnsupportedOpError(
                f"the fast path runs single-block functions; @{function.sym_name.data} "
                f"has {len(function.body.blocks)} blocks"
            )
        block = function.body.block
        slots: dict[SSAValue, int] = {arg: i for i, arg in enumerate(block.args)}
        hidden = 0
        known: dict[int, Any] = {}
        steps: list[tuple[OpFn, tuple[int, ...], int]] = []
        step_ops: list[Operation] = []
        self.results: tuple[int, ...] = ()
        for op in block.ops:
            if isinstance(op, func.ReturnOp):
                self.results = tuple(slots[v] for v in op.operands)
                step_ops.append(op)
                break
            if op.regions:
                raise UnsupportedOpError(f"the fast path cannot run '{op.name}'")
            fn = build(op, env)
            ins = tuple(slots[v] for v in op.operands)
            out = -1
            if op.results:
                out = len(slots) + hidden
                if len(op.results) == 1:
                    slots[op.results[0]] = out
                else:
                    hidden += 1  # the tuple; one step per result unpacks it
            if isinstance(op, self._FOLDABLE) and all(i in known for i in ins):
                known[out] = fn(*(known[i] for i in ins))
            else:
                steps.append((fn, ins, out))
                step_ops.append(op)
            if len(op.results) > 1:
                for k, result in enumerate(op.results):
                    slot = slots[result] = len(slots) + hidden
                    steps.append((_item(k), (out,), slot))
                    step_ops.append(op)
        self.clobber: ClobberCheck | None = None
        if env.runtime.debug:
            self.clobber = check = ClobberCheck(
                step_ops, slots, printed_names(function)
            )
            steps = [
                (check.wrap(fn, i, op, slots), ins, out)
                for i, ((fn, ins, out), op) in enumerate(zip(steps, step_ops))
            ]
        self.num_args = len(block.args)
        self.registers: list[Any] = [None] * (len(slots) + hidden)
        for slot, value in known.items():
            self.registers[slot] = value
        self.steps = steps

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        if self.clobber is not None:
            self.clobber.live.clear()
        regs = self.registers.copy()
        regs[: self.num_args] = args
        for fn, ins, out in self.steps:
            value = fn(*[regs[i] for i in ins])
            if out >= 0:
                regs[out] = value
        return tuple(regs[i] for i in self.results)


def find_function(module: ModuleOp, name: str) -> func.FuncOp:
    function = SymbolTable.lookup_symbol(module, name)
    if not isinstance(function, func.FuncOp):
        raise UnsupportedOpError(f"the module has no func.func @{name}")
    return function
