"""Specializing on the values of small integer inputs: a model whose types
depend on input data (a value's rank decided by an If on a `size` input) is
compiled per value of those inputs, at the ONNX level (`docs/shape-values.md`,
"Specializing on input values").

`xhip.compile` returns a `ValueSpecializingModel` where the importer refuses
the model only because it cannot infer some value's type, and the graph has
small integer inputs (`value_inputs`). Each call reads those inputs and looks
their values up in a cache; on a miss it imports a copy of the `ModelProto`
with them as initializers (so onnx's shape inference and the importer see
constants), folds what they decide (`decided`) and compiles that, keeping
the last `max_specializations`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects.builtin import ModuleOp

from xhip.backend.runtime import Runtime
from xhip.backend.session import Dim, InputError, Signature, TensorSpec
from xhip.context import make_context
from xhip.frontend import OnnxImportError, import_model
from xhip.specialize import Model, Specializer, folded, main_graph
from xhip.transforms.onnx_fold_shapes import OnnxFoldShapesPass
from xhip.transforms.onnx_to_hip.control_flow import inline_constant_ifs

MAX_ELEMENTS = 16
"""The most elements an input read at each call may have."""

_INTEGERS = (TensorProto.INT32, TensorProto.INT64)

Values = tuple[bytes, ...]


def untyped(error: OnnxImportError) -> bool:
    """Whether the importer refused only for a type it could not infer."""
    return "cannot infer the" in str(error)


def value_inputs(model: onnx.ModelProto) -> list[str]:
    """The graph inputs whose values may decide the types: int32/int64, of a
    static shape with at most `MAX_ELEMENTS` elements."""
    initializers = {t.name for t in model.graph.initializer}
    names: list[str] = []
    for value in model.graph.input:
        t = value.type.tensor_type
        if value.name in initializers or t.elem_type not in _INTEGERS:
            continue
        if not value.type.HasField("tensor_type") or not t.HasField("shape"):
            continue
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim]
        if all(d >= 0 for d in dims) and int(np.prod(dims)) <= MAX_ELEMENTS:
            names.append(value.name)
    return names


def with_constant_inputs(
    model: onnx.ModelProto, values: Mapping[str, np.ndarray]
) -> onnx.ModelProto:
    """A copy of `model` with the graph inputs in `values` as initializers."""
    result = onnx.ModelProto()
    result.CopyFrom(model)
    kept = [v for v in result.graph.input if v.name not in values]
    del result.graph.input[:]
    result.graph.input.extend(kept)
    result.graph.initializer.extend(
        numpy_helper.from_array(array, name) for name, array in values.items()
    )
    return result


def _spec(value: onnx.ValueInfoProto) -> TensorSpec:
    t = value.type.tensor_type
    dims: list[Dim] = []
    for d in t.shape.dim if t.HasField("shape") else ():
        if d.HasField("dim_value"):
            dims.append(d.dim_value)
        else:
            dims.append(d.dim_param or None)
    dtype = (
        np.dtype(helper.tensor_dtype_to_np_dtype(t.elem_type))
        if t.elem_type
        else np.dtype(np.float32)
    )
    return TensorSpec(value.name, dtype, tuple(dims))


def proto_signature(model: onnx.ModelProto) -> Signature:
    """The graph's inputs and outputs as declared (an output's shape may be
    unknown: its rank is what the values decide)."""
    initializers = {t.name for t in model.graph.initializer}
    return Signature(
        tuple(_spec(v) for v in model.graph.input if v.name not in initializers),
        tuple(_spec(v) for v in model.graph.output),
    )


def decided(module: ModuleOp) -> ModuleOp:
    """A copy of `module` with its shapes folded and each `onnx.If` whose
    condition is then constant inlined, until none is left: a branch taken
    can hold the next If's condition (AffineGrid's `N` then `D == 1`)."""
    result = folded(module)
    while inline_constant_ifs(main_graph(result)):
        OnnxFoldShapesPass().apply(make_context(), result)
    return result


class ValueSpecializingModel(Specializer[Values]):
    """A model compiled per value of its small integer inputs:
    `model({name: array}) -> {name: array}`, as `CompiledModel`."""

    def __init__(
        self,
        model: onnx.ModelProto,
        names: list[str],
        compile_model: Callable[[ModuleOp], Model],
        runtime: Runtime,
        *,
        max_specializations: int = 8,
    ):
        super().__init__(runtime, max_specializations)
        self.model = model
        """The `ModelProto` each specialization starts from."""
        self.names = names
        """The inputs read at each call."""
        self._compile = compile_model
        self.signature = proto_signature(model)
        self._specs = {s.name: s for s in self.signature.inputs}

    def specialization(self, values: Mapping[str, np.ndarray]) -> Model:
        """The model built for these input values: from the cache, or compiled."""
        key = tuple(values[name].tobytes() for name in self.names)
        return self._cache.get(key, lambda: self._build(values))

    def _build(self, values: Mapping[str, np.ndarray]) -> Model:
        try:
            module = import_model(with_constant_inputs(self.model, values))
        except OnnxImportError as error:
            given = ", ".join(f"{n} = {values[n].tolist()}" for n in self.names)
            raise OnnxImportError(f"{error} (even with {given} as constants)") from None
        return self._compile(decided(module))

    def _read(self, name: str, value: Any) -> np.ndarray:
        spec = self._specs[name]
        array = np.asarray(value)
        if array.shape != spec.shape:
            raise InputError(f"input {spec.describe()}: got shape {array.shape}")
        return np.ascontiguousarray(array, spec.dtype)

    def __call__(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        self.signature.check_mapping(inputs)
        for name in self.names:
            if name not in inputs:
                raise InputError(f"missing input {self._specs[name].describe()}")
        values = {name: self._read(name, inputs[name]) for name in self.names}
        rest = {k: v for k, v in inputs.items() if k not in values}
        return self.specialization(values)(rest)


def load_proto(model: str | os.PathLike[str] | onnx.ModelProto) -> onnx.ModelProto:
    """`model` as a `ModelProto`, a file's external data read in."""
    return model if isinstance(model, onnx.ModelProto) else onnx.load(model)
