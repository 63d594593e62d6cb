"""What the interpreter's builders share: the values they make, their registry.

Each supported op has one *builder* that turns the op (its static attributes,
types and the runtime) into a Python function of the op's operand values
(`OpFn`). `build_std.py` has the builders of `arith` and `memref`,
`build_hip.py` those of `hip`; `plan.py` looks them up (`build`), and both
execution engines, `Plan` and the xDSL interpreter (`interpreter.py`), run
what they make, so they share one semantics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xhip.backend.runtime import DeviceArray, NotImplementedOnDevice, Runtime

OpFn: TypeAlias = Callable[..., Any]
"""An op's semantics: operand values in, None / the one result / a tuple out."""


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


class RuntimeStep:
    """The `OpFn` of an op that runs a runtime method on its operands (a
    compute op, `memref.copy`): `keywords` maps the operands to the method's
    parameters. `bind` fixes them once, for a bound plan (plan.py) to replay.
    """

    __slots__ = ("runtime", "method", "keywords", "name", "check")

    def __init__(
        self,
        runtime: Runtime,
        method: str,
        keywords: Callable[[Sequence[Any]], dict[str, Any]],
        name: str,
        check: Callable[[Sequence[Any]], None] | None = None,
    ):
        self.runtime = runtime
        self.method = method
        self.keywords = keywords
        """The method's keyword arguments for the op's operand values."""
        self.name = name
        """The op's name, for a refusal."""
        self.check = check
        """Debug mode's checks of the operands, if any."""

    def __call__(self, *args: Any) -> None:
        if self.check is not None:
            self.check(args)
        self.naming(getattr(self.runtime, self.method), **self.keywords(args))

    def bind(self, args: Sequence[Any]) -> Callable[[], object]:
        """The call with these operands, as `Runtime.bind_call` makes it."""
        return self.naming(self.runtime.bind_call, self.method, self.keywords(args))

    def naming(self, fn: Callable[..., Any], *args: Any, **keywords: Any) -> Any:
        """`fn(*args, **keywords)`; a runtime's refusal names the op."""
        try:
            return fn(*args, **keywords)
        except NotImplementedOnDevice as refusal:
            if refusal.op:
                raise
            raise refusal.naming(self.name) from None


Builder: TypeAlias = Callable[[Any, BuildEnv], OpFn]


class Builders(dict[type[Operation], Builder]):
    """The builders of one family of ops, by op type (`@BUILDERS.of(op)`)."""

    def of(self, *op_types: type[Operation]) -> Callable[[Builder], Builder]:
        def register(builder: Builder) -> Builder:
            for op_type in op_types:
                self[op_type] = builder
            return builder

        return register


# Types.

_FLOAT_DTYPES: dict[type[Attribute], np.dtype[Any]] = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
    Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    Float8E4M3FNUZType: np.dtype(ml_dtypes.float8_e4m3fnuz),
    Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    Float8E5M2FNUZType: np.dtype(ml_dtypes.float8_e5m2fnuz),
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
        unsigned = element_type.signedness.data == Signedness.UNSIGNED
        if width == 4:  # one element per byte (docs/frontend.md)
            return np.dtype(ml_dtypes.uint4 if unsigned else ml_dtypes.int4)
        if width in (8, 16, 32, 64):
            return np.dtype(f"{'u' if unsigned else ''}int{width}")
    raise UnsupportedOpError(f"the xhip backend has no element type {element_type}")


def memref_type(value: SSAValue) -> MemRefType[Attribute]:
    assert isinstance(value.type, MemRefType)
    return value.type  # pyright: ignore[reportUnknownVariableType]


def shape_filler(static: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
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


def allocation_name(mtype: MemRefType[Attribute]) -> str:
    """What an allocation is, for `MemoryLimitError`: `hip-pool-allocs` makes
    the pool one byte buffer."""
    element = mtype.get_element_type()
    if isinstance(element, IntegerType) and element.width.data == 8:
        if mtype.get_num_dims() == 1:
            return "the memory pool"
    return f"a buffer of {mtype}"
