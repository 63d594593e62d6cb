"""Running the final IR with xDSL's interpreter, and the backend's entry points.

`ArithFunctions`, `MemRefFunctions` and `HipFunctions` are `xdsl.interpreter`
implementations that run each op through its builder (`build_std.py`,
`build_hip.py`): they let `xdsl.interpreter.Interpreter` walk any stage from
bufferization onwards. `Plan` (plan.py) is the compiled fast path over the
same builders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Operation

from xhip.backend.build_env import (
    BuildEnv,
    HipContext,
    OpFn,
    UnsupportedOpError,
    numpy_dtype,
)
from xhip.backend.build_hip import build, builder_of
from xhip.backend.plan import Plan, find_function
from xhip.backend.runtime import DeviceArray, Runtime
from xhip.dialects import bufferization as xbufferization
from xhip.dialects import hip
from xhip.dialects import memref as xmemref
from xhip.transforms.index_arith import INDEX_BINARY, INDEX_BITS

__all__ = [
    "BuildEnv",
    "DeallocFunctions",
    "HipContext",
    "Plan",
    "UnsupportedOpError",
    "build",
    "builder_of",
    "find_function",
    "make_interpreter",
    "numpy_dtype",
]


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
    *INDEX_BINARY, arith.CmpiOp, arith.SelectOp, arith.ConstantOp, arith.IndexCastOp
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


@register_impls
class DeallocFunctions(InterpreterFunctions):
    """What the deallocation stages (7-11) add to the memref IR, for running
    those stages (`xhip verify-passes`): `memref.extract_strided_metadata` and
    `bufferization.dealloc` on the runtime's buffers."""

    def __init__(self, runtime: Runtime):
        self.runtime = runtime

    @impl(memref.ExtractStridedMetaDataOp)
    def run_extract_strided_metadata(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        assert isinstance(value, DeviceArray)
        base = DeviceArray(value.buffer, value.base, (), (), value.dtype, value.base)
        offset = (value.offset - value.base) // value.itemsize
        return (base, offset, *value.shape, *value.strides)

    @impl(xbufferization.DeallocOp)
    def run_dealloc(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        assert isinstance(op, xbufferization.DeallocOp)
        n, m = len(op.memrefs), len(op.conditions)
        memrefs: Sequence[DeviceArray] = args[:n]
        conditions: Sequence[bool] = args[n : n + m]
        retained: Sequence[DeviceArray] = args[n + m :]
        kept = {id(r.buffer) for r in retained}
        freed: set[int] = set()
        for value, condition in zip(memrefs, conditions):
            key = id(value.buffer)
            if condition and key not in kept and key not in freed:
                freed.add(key)
                self.runtime.free(value.buffer)
        return tuple(
            any(c and v.buffer is r.buffer for v, c in zip(memrefs, conditions))
            for r in retained
        )
