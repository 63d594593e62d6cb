"""Specializing on input shapes: a model some op of which needs a dim as a
number (an LSTM's sequence length over an image's run-time width) is compiled
per input shape (`docs/shape-values.md`, "Specializing on input shapes").

`xhip.compile` returns a `ShapeSpecializingModel` where the conversion refuses
only such dims (`NeedsStaticShapes`). Each call looks its inputs' shapes up in
a cache; on a miss it compiles the model with every graph input's type made
static (the final IR's argument types are the shapes it was built for, and
the session refuses any other), keeping the last `max_specializations`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute

from xhip.backend.runtime import Runtime
from xhip.backend.session import InputError, Signature
from xhip.dialects.onnx import DIM_PARAMS
from xhip.specialize import Model, Specializer, main_graph

Shapes = tuple[tuple[int, ...], ...]


def with_input_shapes(module: ModuleOp, shapes: Shapes) -> ModuleOp:
    """A copy of `module` whose graph inputs have static `shapes` (and no
    dim names left to stand for other sizes)."""
    result = module.clone()
    function = main_graph(result)
    block = function.body.block
    types: list[Attribute] = []
    for i, (arg, shape) in enumerate(zip(list(block.args), shapes, strict=True)):
        typ = arg.type
        assert isinstance(typ, TensorType)
        static = TensorType(typ.get_element_type(), shape)
        new = block.insert_arg(static, i)
        arg.replace_all_uses_with(new)
        block.erase_arg(arg)
        types.append(static)
    function.function_type = FunctionType.from_lists(
        types, function.function_type.outputs.data
    )
    if function.arg_attrs is not None:
        function.arg_attrs = ArrayAttr(
            DictionaryAttr({k: v for k, v in d.data.items() if k != DIM_PARAMS})
            for d in function.arg_attrs.data
        )
    return result


class ShapeSpecializingModel(Specializer[Shapes]):
    """A model compiled per input shape: `model({name: array}) -> {name: array}`,
    as `CompiledModel`."""

    def __init__(
        self,
        module: ModuleOp,
        compile_module: Callable[[ModuleOp], Model],
        runtime: Runtime,
        *,
        max_specializations: int = 8,
    ):
        super().__init__(runtime, max_specializations)
        self.module = module
        """The onnx-dialect module each specialization starts from."""
        self._compile = compile_module
        self.signature = Signature.from_function(main_graph(module))

    def specialization(self, shapes: Shapes) -> Model:
        """The model built for these input shapes: from the cache, or compiled."""
        return self._cache.get(
            shapes, lambda: self._compile(with_input_shapes(self.module, shapes))
        )

    def __call__(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        self.signature.check_mapping(inputs)
        for spec in self.signature.inputs:
            if spec.name not in inputs:
                raise InputError(f"missing input {spec.describe()}")
            if len(np.shape(inputs[spec.name])) != len(spec.shape):
                raise InputError(
                    f"input {spec.describe()}: got shape {np.shape(inputs[spec.name])}"
                )
        shapes = tuple(np.shape(inputs[s.name]) for s in self.signature.inputs)
        return self.specialization(shapes)(inputs)
