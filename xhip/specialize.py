"""Guarded specialization: a model whose structure depends on run-time values
(`docs/shape-values.md`, "Guards").

Where an operand that decides structure (an op's `STRUCTURE_OPERANDS`: Reduce
axes, Resize scales, If's condition, ...) is data, `xhip.compile` returns a
`SpecializingModel`. Each call reads those values (a graph input from the
call's inputs; a computed value by running the `prefix`, a model of the part
of the graph that computes it), and runs the specialization built for them:
the model compiled with the values as constants, each behind a `hip.guard`
(`hip-guard-assumptions`). Specializations are kept by value, the last
`max_specializations` of them (LRU); a new value compiles a new one.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, OpResult, Region, SSAValue

from xhip.backend.build_guard import GuardFailed
from xhip.backend.runtime import Runtime
from xhip.backend.session import CompiledModel, Signature
from xhip.context import make_context
from xhip.dialects import onnx
from xhip.transforms.hip_guard_assumptions import ASSUME, structure_operands
from xhip.transforms.onnx_fold_shapes import OnnxFoldShapesPass

if TYPE_CHECKING:
    from xhip.specialize_shapes import ShapeSpecializingModel
    from xhip.specialize_values import ValueSpecializingModel

Model: TypeAlias = "CompiledModel | SpecializingModel | ShapeSpecializingModel | ValueSpecializingModel"
Key = tuple[tuple[str, tuple[int, ...], bytes], ...]


def main_graph(module: ModuleOp) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == "main_graph":
            return op
    raise ValueError("the module has no @main_graph function")


def folded(module: ModuleOp) -> ModuleOp:
    """A copy of `module` with its shape values folded (`onnx-fold-shapes`):
    what tells a structure operand that is data from a shape value."""
    result = module.clone()
    OnnxFoldShapesPass().apply(make_context(), result)
    return result


def specializes(module: ModuleOp) -> bool:
    """Whether some structure operand of `module` (onnx dialect) is data.

    Shapes are folded (on a copy) only where folding can decide it: not for
    constants, nor for the integers a conversion reads back itself (an
    exported Range over computed sizes), which need no specialization."""
    function = main_graph(module)
    if not any(
        _undecided(op, value)
        for op in function.walk()
        if isinstance(op, onnx.OnnxOp)
        for name in type(op).STRUCTURE_OPERANDS
        if isinstance(value := getattr(op, name), SSAValue)
    ):
        return False
    return bool(structure_operands(main_graph(folded(module))))


def _undecided(op: onnx.OnnxOp, value: SSAValue) -> bool:
    if isinstance(value.owner, onnx.ConstantOp):
        return False
    t = value.type
    read_back = (
        isinstance(t, TensorType)
        and isinstance(t.get_element_type(), IntegerType)
        and op.READS_BACK_INTEGERS
    )
    return not read_back


def _names(function: func.FuncOp) -> dict[BlockArgument, str]:
    attrs = function.arg_attrs.data if function.arg_attrs is not None else ()
    names: dict[BlockArgument, str] = {}
    for arg, d in zip(function.args, attrs):
        name = d.data.get("onnx.name") if isinstance(d, DictionaryAttr) else None
        if isinstance(name, StringAttr):
            names[arg] = name.data
    return names


def _prefix(module: ModuleOp, positions: list[tuple[int, int]]) -> ModuleOp:
    """`module` returning the values at `(op position, result)` instead of its
    outputs, with only the ops that compute them."""
    prefix = module.clone()
    function = main_graph(prefix)
    ops = list(function.walk())
    values = [ops[p].results[r] for p, r in positions]
    block = function.body.block
    returned = block.last_op
    assert isinstance(returned, func.ReturnOp)
    returned.detach()
    returned.erase()
    block.add_op(func.ReturnOp(*values))
    types = [v.type for v in values]
    function.function_type = FunctionType.from_lists(
        function.function_type.inputs.data, types
    )
    function.res_attrs = ArrayAttr(
        [
            DictionaryAttr({"onnx.name": StringAttr(f"xhip.assumed.{i}")})
            for i in range(len(values))
        ]
    )
    for op in reversed(list(block.ops)[:-1]):
        if all(not r.uses for r in op.results):
            op.detach()
            op.erase()
    return prefix


def tensor_signature(function: func.FuncOp) -> Signature:
    """The function's signature; its sequence and optional results, which
    each specialization returns as their elements (`name[i]`), left out."""
    types = function.function_type.outputs.data
    keep = [i for i, t in enumerate(types) if not onnx.is_structured(t)]
    if len(keep) == len(types):
        return Signature.from_function(function)
    attrs = function.res_attrs.data if function.res_attrs is not None else ()
    declaration = func.FuncOp(
        function.sym_name.data,
        (function.function_type.inputs.data, [types[i] for i in keep]),
        Region(),
        arg_attrs=function.arg_attrs,
        res_attrs=ArrayAttr([attrs[i] for i in keep]) if attrs else None,
    )
    return Signature.from_function(declaration)


def _attr(value: SSAValue, array: np.ndarray) -> DenseIntOrFPElementsAttr[Any]:
    t = value.type
    assert isinstance(t, TensorType)
    data = array.reshape(-1).tolist()
    if array.dtype == np.bool_:
        data = [int(x) for x in data]
    typ: TensorType[Any] = t
    return DenseIntOrFPElementsAttr.from_list(typ, data)


K = TypeVar("K")


def _key(arrays: list[np.ndarray]) -> Key:
    return tuple((a.dtype.str, a.shape, a.tobytes()) for a in arrays)


class ModelCache(Generic[K]):
    """Compiled specializations by key, the least recently used released once
    there are more than `limit`: the bounded cache of both specializers."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError("max_specializations must be at least 1")
        self.limit = limit
        self._models: OrderedDict[K, Model] = OrderedDict()
        self.builds = 0
        """How many models `build` has made."""

    def __len__(self) -> int:
        return len(self._models)

    def get(self, key: K, build: Callable[[], Model]) -> Model:
        """The model for `key`: from the cache, or built now."""
        model = self._models.get(key)
        if model is not None:
            self._models.move_to_end(key)
            return model
        model = build()
        self.builds += 1
        self._models[key] = model
        while len(self._models) > self.limit:
            _, dropped = self._models.popitem(last=False)
            dropped.release()
        return model

    def drop(self, key: K) -> None:
        model = self._models.pop(key, None)
        if model is not None:
            model.release()

    def release(self) -> None:
        for model in self._models.values():
            model.release()
        self._models.clear()


class Specializer(Generic[K]):
    """What the specializers share: compiled models in a bounded cache, all on
    one runtime, closed with it."""

    def __init__(self, runtime: Runtime, max_specializations: int):
        self._cache = ModelCache[K](max_specializations)
        self.runtime = runtime
        """The runtime every specialization runs on."""

    @property
    def max_specializations(self) -> int:
        """How many specializations the cache holds at most."""
        return self._cache.limit

    @max_specializations.setter
    def max_specializations(self, limit: int) -> None:
        self._cache.limit = limit

    @property
    def builds(self) -> int:
        """How many specializations have been compiled."""
        return self._cache.builds

    @property
    def specializations(self) -> int:
        """How many specializations are held now (at most `max_specializations`)."""
        return len(self._cache)

    def release(self) -> None:
        self._cache.release()

    def close(self) -> None:
        self.release()
        self.runtime.close()


class SpecializingModel(Specializer[Key]):
    """A model compiled per value of its structure operands, behind guards:
    `model({name: array}) -> {name: array}`, as `CompiledModel`."""

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
        """The onnx-dialect module (shapes folded) each specialization starts from."""
        self._compile = compile_module
        function = main_graph(module)
        self.signature = tensor_signature(function)
        ops = list(function.walk())
        found = structure_operands(function)
        if not found:
            raise ValueError("the model has no structure operand that is data")
        self.values: list[SSAValue] = []
        """The distinct values specialized on."""
        self._uses: list[tuple[int, str, int]] = []
        for op, name, value in found:
            if value not in self.values:
                self.values.append(value)
            self._uses.append((ops.index(op), name, self.values.index(value)))
        names = _names(function)
        self._inputs: dict[int, str] = {}
        computed: list[tuple[int, int]] = []
        self._computed: list[int] = []
        for i, value in enumerate(self.values):
            if isinstance(value, BlockArgument):
                self._inputs[i] = names[value]
            else:
                assert isinstance(value, OpResult)
                computed.append((ops.index(value.owner), value.index))
                self._computed.append(i)
        self.prefix: Model | None = (
            compile_module(_prefix(module, computed)) if computed else None
        )
        """The model of the values computed from data, if any are."""

    def read(self, inputs: Mapping[str, Any]) -> list[np.ndarray]:
        """The values this call's specialization is for."""
        arrays: list[np.ndarray | None] = [None] * len(self.values)
        for i, name in self._inputs.items():
            arrays[i] = np.asarray(inputs[name])
        if self.prefix is not None:
            outputs = self.prefix(inputs)
            for n, i in enumerate(self._computed):
                arrays[i] = outputs[f"xhip.assumed.{n}"]
        return [a for a in arrays if a is not None]

    def specialization(self, arrays: list[np.ndarray]) -> Model:
        """The model built for these values: from the cache, or compiled."""
        return self._cache.get(_key(arrays), lambda: self._build(arrays))

    def _build(self, arrays: list[np.ndarray]) -> Model:
        module = self.module.clone()
        ops = list(main_graph(module).walk())
        assumed: dict[int, dict[str, Attribute]] = {}
        for position, name, i in self._uses:
            value = self.values[i]
            assumed.setdefault(position, {})[name] = _attr(value, arrays[i])
        for position, attrs in assumed.items():
            ops[position].attributes[ASSUME] = DictionaryAttr(attrs)
        return self._compile(module)

    def drop(self, arrays: list[np.ndarray]) -> None:
        self._cache.drop(_key(arrays))

    def __call__(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        self.signature.check_mapping(inputs)
        arrays = self.read(inputs)
        try:
            return self.specialization(arrays)(inputs)
        except GuardFailed:
            # The values read disagree with those the model computes: build
            # from what it reads now, once; never answer from a wrong one.
            self.drop(arrays)
            return self.specialization(self.read(inputs))(inputs)

    def release(self) -> None:
        super().release()
        if self.prefix is not None:
            self.prefix.release()
