"""`CompiledModel`: final IR + signature + constants + runtime, callable on numpy.

The final IR's arguments carry no names (`@main_graph(%ctx, %inputs...,
%outputs..., %constants)`), so the compile step hands in a `Signature` taken
from an earlier stage, where arguments still have `onnx.name` and
`onnx.dim_params`. The signature also says how big each output is: its dims
are static or named, and the inputs bind the names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute

from xhip.backend.interpreter import (
    BuildEnv,
    HipContext,
    Plan,
    find_function,
    make_interpreter,
    numpy_dtype,
)
from xhip.backend.runtime import DeviceArray, Runtime
from xhip.dialects.hip import ContextType

Dim = int | str | None
"""A static size, a named dynamic size (`batch`), or an anonymous dynamic one."""


class InputError(ValueError):
    """The inputs do not fit the model: one line naming the input and the dim."""


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dtype: np.dtype[Any]
    shape: tuple[Dim, ...]

    def describe(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.name}: {self.dtype}[{dims}]"


@dataclass(frozen=True)
class Signature:
    """Names, dtypes and shapes (with `dim_params`) of a model's inputs and outputs."""

    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]

    @classmethod
    def from_function(cls, function: func.FuncOp) -> Signature:
        """Reads `onnx.name` / `onnx.dim_params` from a stage that still has them.

        Outputs are the function's results, or (after buffer-results-to-out-params)
        the arguments marked `bufferize.result`.
        """
        arg_types = function.function_type.inputs.data
        arg_attrs = _attr_dicts(function.arg_attrs, len(arg_types))
        res_types = function.function_type.outputs.data
        res_attrs = _attr_dicts(function.res_attrs, len(res_types))
        inputs: list[TensorSpec] = []
        outputs: list[TensorSpec] = []
        for i, (typ, attrs) in enumerate(zip(arg_types, arg_attrs)):
            if isinstance(typ, ContextType):
                continue
            if "onnx.name" not in attrs and "bufferize.result" not in attrs:
                continue  # the constants blob, or an unnamed internal argument
            spec = _spec(typ, attrs, f"arg{i}")
            (outputs if "bufferize.result" in attrs else inputs).append(spec)
        for i, (typ, attrs) in enumerate(zip(res_types, res_attrs)):
            outputs.append(_spec(typ, attrs, f"result{i}"))
        return cls(tuple(inputs), tuple(outputs))

    def bind(
        self, arrays: Mapping[str, Any]
    ) -> tuple[list[np.ndarray], dict[str, int]]:
        """Checks the inputs; returns them in order and the sizes of named dims."""
        unknown = sorted(set(arrays) - {s.name for s in self.inputs})
        if unknown:
            expected = ", ".join(repr(s.name) for s in self.inputs)
            raise InputError(
                f"unknown input {unknown[0]!r}; the model takes {expected}"
            )
        dims: dict[str, tuple[int, str]] = {}
        ordered: list[np.ndarray] = []
        for spec in self.inputs:
            if spec.name not in arrays:
                raise InputError(f"missing input {spec.describe()}")
            ordered.append(_check_input(spec, arrays[spec.name], dims))
        return ordered, {name: size for name, (size, _) in dims.items()}

    def output_shape(
        self, spec: TensorSpec, dims: Mapping[str, int]
    ) -> tuple[int, ...]:
        shape: list[int] = []
        for i, d in enumerate(spec.shape):
            if isinstance(d, int):
                shape.append(d)
            elif d is not None and d in dims:
                shape.append(dims[d])
            else:
                raise InputError(
                    f"output {spec.name!r} dim {i} ({d or 'anonymous'}) is not bound "
                    "by any input dim"
                )
        return tuple(shape)


def _attr_dicts(attrs: Any, count: int) -> list[dict[str, Attribute]]:
    if attrs is None:
        return [{} for _ in range(count)]
    return [dict(d.data) if isinstance(d, DictionaryAttr) else {} for d in attrs.data]


def _spec(typ: Attribute, attrs: dict[str, Attribute], fallback: str) -> TensorSpec:
    if not isinstance(typ, MemRefType | TensorType):
        raise InputError(f"argument {fallback} has type {typ}, not a tensor or memref")
    name_attr = attrs.get("onnx.name")
    name = name_attr.data if isinstance(name_attr, StringAttr) else fallback
    shape: list[Dim] = [None if d == DYNAMIC_INDEX else d for d in typ.get_shape()]
    params = attrs.get("onnx.dim_params")
    if isinstance(params, StringAttr) and params.data:
        for entry in params.data.split(","):
            index, _, param = entry.partition(":")
            shape[int(index)] = param
    return TensorSpec(name, numpy_dtype(typ.get_element_type()), tuple(shape))


def _check_input(
    spec: TensorSpec, value: Any, dims: dict[str, tuple[int, str]]
) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise InputError(
            f"input {spec.name!r} is a {type(value).__name__}, expected a numpy array"
        )
    if value.dtype != spec.dtype:
        raise InputError(
            f"input {spec.name!r} has dtype {value.dtype}, expected {spec.dtype}"
        )
    if value.ndim != len(spec.shape):
        raise InputError(
            f"input {spec.name!r} has rank {value.ndim} (shape {value.shape}), "
            f"expected rank {len(spec.shape)} ({spec.describe()})"
        )
    for i, (size, want) in enumerate(zip(value.shape, spec.shape)):
        where = f"input {spec.name!r} dim {i}"
        if isinstance(want, int) and size != want:
            raise InputError(f"{where} is {size}, expected {want}")
        if isinstance(want, str):
            seen = dims.setdefault(want, (size, where))
            if seen[0] != size:
                raise InputError(
                    f"{where} ({want}) is {size}, but {seen[1]} ({want}) is {seen[0]}"
                )
    return value


Engine = Literal["plan", "interpreter"]


class CompiledModel:
    """A final-IR module bound to a runtime: `model({name: array}) -> {name: array}`.

    `engine="plan"` (default) compiles the entry function once into a flat list
    of steps; `engine="interpreter"` walks the IR with xDSL's interpreter.
    """

    def __init__(
        self,
        module: ModuleOp,
        signature: Signature,
        constants: bytes | None = None,
        runtime: Runtime | None = None,
        *,
        entry: str = "main_graph",
        engine: Engine = "plan",
    ):
        if runtime is None:
            from xhip.backend.cpu import CpuRuntime

            runtime = CpuRuntime()
        self.module = module
        self.signature = signature
        self.runtime = runtime
        self.function = find_function(module, entry)
        self._layout()
        blob = None
        if constants is not None:
            blob = runtime.upload(np.frombuffer(constants, dtype=np.uint8), copy=True)
        self._constants = blob
        self._env = BuildEnv(runtime, module, blob)
        self._context = HipContext(runtime)
        self.engine = engine
        if engine == "plan":
            self._plan = Plan(self.function, self._env)
        else:
            self._interpreter = make_interpreter(module, self._env)

    def _layout(self) -> None:
        """Where inputs, outputs and the constants blob sit among the arguments."""
        types = self.function.function_type.inputs.data
        self._has_context = bool(types) and isinstance(types[0], ContextType)
        n_results = len(self.function.function_type.outputs.data)
        n_in = len(self.signature.inputs)
        n_out = len(self.signature.outputs)
        self._out_params = n_out if n_results == 0 else 0
        if n_results not in (0, n_out):
            raise InputError(
                f"@{self.function.sym_name.data} returns {n_results} values but the "
                f"signature has {n_out} outputs"
            )
        extra = len(types) - self._has_context - n_in - self._out_params
        if extra not in (0, 1):
            raise InputError(
                f"@{self.function.sym_name.data} takes {len(types)} arguments; the "
                f"signature accounts for {len(types) - extra}"
            )
        self._takes_blob = extra == 1
        for spec in self.signature.outputs:
            if any(d is None for d in spec.shape):
                raise InputError(
                    f"output {spec.name!r} has an anonymous dynamic dim: give it a "
                    "name in the signature (onnx.dim_params)"
                )

    def __call__(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        arrays, dims = self.signature.bind(inputs)
        runtime = self.runtime
        args: list[Any] = [self._context] if self._has_context else []
        args += [runtime.upload(a) for a in arrays]
        host: list[np.ndarray] = []
        device: list[DeviceArray] = []
        if self._out_params:
            for spec in self.signature.outputs:
                shape = self.signature.output_shape(spec, dims)
                device.append(runtime.empty(shape, spec.dtype))
            args += device
        if self._takes_blob:
            if self._constants is None:
                raise InputError("this model needs its constants blob (constants=...)")
            args.append(self._constants)
        if self.engine == "plan":
            results = self._plan(*args)
        else:
            name = self.function.sym_name.data
            results = self._interpreter.call_op(name, tuple(args))
        if not self._out_params:
            device = list(results)
        runtime.synchronize()
        for value in device:
            host.append(runtime.download(value))
            runtime.free(value.buffer)
        return {spec.name: a for spec, a in zip(self.signature.outputs, host)}

    def close(self) -> None:
        self.runtime.close()
