"""`CompiledModel`: final IR + signature + constants + runtime, callable on numpy.

The final IR's arguments carry no names (`@main_graph(%ctx, %inputs...,
%outputs..., %constants)`), so the compile step hands in a `Signature` taken
from an earlier stage, where arguments still have `onnx.name` and
`onnx.dim_params`. The signature also says how big each output is: its dims
are static, named after input dims, or formulas of the input dims read from the
last stage that still returns the outputs (`Signature.with_result_dims`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument

from xhip.backend.cpu import CpuRuntime
from xhip.backend.interpreter import (
    BuildEnv,
    HipContext,
    Plan,
    find_function,
    make_interpreter,
    numpy_dtype,
)
from xhip.backend.memory import MemoryLimitError
from xhip.backend.runtime import DeviceArray, Runtime
from xhip.backend.shapes import DimExpr, result_dims
from xhip.dialects.hip import ContextType
from xhip.transforms.hip_fuse_scaled_softmax import HipFuseScaledSoftmaxPass

Dim = int | str | DimExpr | None
"""A static size, a named dynamic size (`batch`), a formula of input dims (only
in outputs: `(batch*seq)`), or an anonymous dynamic size."""


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

    def input_dim_names(self) -> set[str]:
        return {d for spec in self.inputs for d in spec.shape if isinstance(d, str)}

    def unknown_dims_error(self, dims: Mapping[str, int]) -> str | None:
        """Why `dims` (as `--dims` gives them) name dims the inputs lack, if they do.

        Unnamed dynamic dims (and onnx's made-up `unk__N`) can't be named:
        the message says which inputs have them, as only given inputs size them.
        """
        named = self.input_dim_names()
        unknown = sorted(set(dims) - named)
        if not unknown:
            return None
        message = (
            f"the model has no dim {', '.join(map(repr, unknown))}; "
            f"its named dims are: {', '.join(sorted(named)) or 'none'}"
        )
        unnamed = [
            f"{spec.name!r} dim {i}"
            for spec in self.inputs
            for i, d in enumerate(spec.shape)
            if d is None or d == ""
        ]
        if unnamed:
            message += (
                f" (unnamed dynamic dims: {', '.join(unnamed)}; they are 1 in "
                "random inputs, or the size of a given input)"
            )
        return message

    def with_result_dims(self, function: func.FuncOp) -> Signature:
        """This signature, with each output dim no input dim binds replaced by
        the formula `function` sizes it with.

        `function` is a stage that still returns the outputs (as memrefs, after
        bufferization): it allocates them, so its IR says how big they are.
        Output dims it does not say stay as they are.
        """
        names = {spec.name: i for i, spec in enumerate(self.inputs)}
        inputs: dict[BlockArgument, tuple[int, tuple[str, ...]]] = {}
        arg_attrs = _attr_dicts(function.arg_attrs, len(function.args))
        for arg, attrs in zip(function.args, arg_attrs):
            name = attrs.get("onnx.name")
            if isinstance(name, StringAttr) and name.data in names:
                number = names[name.data]
                spec = self.inputs[number]
                labels = tuple(
                    d if isinstance(d, str) else f"{spec.name}.shape[{i}]"
                    for i, d in enumerate(spec.shape)
                )
                inputs[arg] = (number, labels)
        formulas = result_dims(function, inputs)
        if len(formulas) != len(self.outputs):
            return self
        bound = self.input_dim_names()
        outputs: list[TensorSpec] = []
        for spec, row in zip(self.outputs, formulas):
            shape: list[Dim] = list(spec.shape)
            if len(row) == len(shape):
                for i, (d, formula) in enumerate(zip(spec.shape, row)):
                    if isinstance(formula, DimExpr) and not (
                        isinstance(d, int) or (isinstance(d, str) and d in bound)
                    ):
                        shape[i] = formula
            outputs.append(TensorSpec(spec.name, spec.dtype, tuple(shape)))
        return Signature(self.inputs, tuple(outputs))

    def unsized_output_dim(self) -> str | None:
        """Why some output cannot be allocated before the call, or None."""
        bound = self.input_dim_names()
        for spec in self.outputs:
            for i, d in enumerate(spec.shape):
                if d is None or (isinstance(d, str) and d not in bound):
                    return (
                        f"output {spec.name!r} dim {i} ({d or 'anonymous'}) is not "
                        "bound by any input dim, and no stage that allocates the "
                        "outputs gave a formula for it (Signature.with_result_dims)"
                    )
        return None

    def output_shape(
        self,
        spec: TensorSpec,
        dims: Mapping[str, int],
        shapes: Sequence[tuple[int, ...]],
    ) -> tuple[int, ...]:
        """`spec`'s shape for inputs of these `shapes` (binding these `dims`)."""
        shape: list[int] = []
        for i, d in enumerate(spec.shape):
            if isinstance(d, int):
                shape.append(d)
            elif isinstance(d, DimExpr):
                size = d.evaluate(shapes)
                if size < 0:
                    raise InputError(
                        f"output {spec.name!r} dim {i} ({d}) would be {size} for "
                        f"inputs of shapes {', '.join(map(str, shapes))}"
                    )
                shape.append(size)
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
    if isinstance(value, np.generic):
        value = np.asarray(value)  # a numpy scalar is a 0-d array
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


def fuse_for_execution(module: ModuleOp) -> ModuleOp:
    """A copy of `module` with the backend's fusions applied, as explicit ops.

    The given module is left as it is: it may be the user's, or a stage.
    """
    fused = module.clone()
    HipFuseScaledSoftmaxPass().apply(Context(), fused)
    return fused


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
        fuse: bool = True,
    ):
        if runtime is None:
            runtime = CpuRuntime()
        self.module = fuse_for_execution(module) if fuse else module
        """The IR that runs: the given module after `hip-fuse-scaled-softmax`,
        unless `fuse` is false."""
        self.signature = signature
        self.runtime = runtime
        self.function = find_function(self.module, entry)
        self._layout()
        blob = None
        if constants is not None:
            blob = runtime.upload(np.frombuffer(constants, dtype=np.uint8), copy=True)
        self._constants = blob
        self._env = BuildEnv(runtime, self.module, blob)
        self._context = HipContext(runtime)
        self.engine = engine
        if engine == "plan":
            self._plan = Plan(self.function, self._env)
        else:
            self._interpreter = make_interpreter(self.module, self._env)

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
        unsized = self.signature.unsized_output_dim() if self._out_params else None
        if unsized is not None:
            raise InputError(unsized)

    def __call__(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        arrays, dims = self.signature.bind(inputs)
        mark = self.runtime.allocations.snapshot()
        try:
            return self._run(arrays, dims)
        except MemoryLimitError as e:
            e.dims = dims
            self._release_since(mark)
            raise
        except BaseException:
            self._release_since(mark)
            raise

    def _release_since(self, mark: set[int]) -> None:
        """Frees what a failed call allocated, so the next call starts clean."""
        for buffer in self.runtime.allocations.since(mark):
            self.runtime.free(buffer)

    def _run(
        self, arrays: list[np.ndarray], dims: dict[str, int]
    ) -> dict[str, np.ndarray]:
        runtime = self.runtime
        args: list[Any] = [self._context] if self._has_context else []
        uploaded = [runtime.upload(a) for a in arrays]
        args += uploaded
        host: list[np.ndarray] = []
        device: list[DeviceArray] = []
        if self._out_params:
            shapes = [a.shape for a in arrays]
            for spec in self.signature.outputs:
                shape = self.signature.output_shape(spec, dims, shapes)
                device.append(runtime.empty(shape, spec.dtype, f"output {spec.name!r}"))
            args += device
        if self._takes_blob:
            if self._constants is None:
                raise InputError("this model needs its constants blob (constants=...)")
            args.append(self._constants)
        # NaN and Inf are data, as on a GPU: they propagate (as in ONNX
        # Runtime), with no numpy warning per op.
        with np.errstate(all="ignore"):
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
        for value in uploaded:  # a GPU runtime's copies of the inputs
            if value.buffer.owned and not value.buffer.freed:
                runtime.free(value.buffer)
        return {spec.name: a for spec, a in zip(self.signature.outputs, host)}

    def close(self) -> None:
        self.runtime.close()
