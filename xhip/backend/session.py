"""`CompiledModel`: final IR + signature + constants + runtime, callable on numpy.

The final IR's arguments carry no names (`@main_graph(%ctx, %inputs...,
%outputs..., %constants)`), so the compile step hands in a `Signature` taken
from an earlier stage, where arguments still have `onnx.name` and
`onnx.dim_params`. The signature also says how big each output is: its dims
are static, named after input dims, or formulas of the input dims read from the
last stage that still returns the outputs (`Signature.with_result_dims`).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument

from xhip.backend import build_guard  # noqa: F401 (registers hip.guard's builder)
from xhip.backend.cpu import CpuRuntime
from xhip.backend.inplace import InPlace
from xhip.backend.interpreter import (
    BuildEnv,
    HipContext,
    Plan,
    find_function,
    make_interpreter,
    numpy_dtype,
)
from xhip.backend.memory import MemoryLimitError
from xhip.backend.plan import BoundPlan
from xhip.backend.runtime import DeviceArray, IndexOutOfRange, InputError, Runtime
from xhip.backend.shapes import DimExpr, result_dims
from xhip.dialects.hip import ContextType
from xhip.dialects.onnx import parse_dim_params
from xhip.transforms.buffer_results_to_out_params import RETURNED_ATTR
from xhip.transforms.hip_fold_attention_bias import HipFoldAttentionBiasPass
from xhip.transforms.hip_fold_attention_layouts import HipFoldAttentionLayoutsPass
from xhip.transforms.hip_fuse_attention import HipFuseAttentionPass
from xhip.transforms.hip_fuse_conv_relu import HipFuseConvReluPass
from xhip.transforms.hip_fuse_elementwise import HipFuseElementwisePass
from xhip.transforms.hip_fuse_scaled_softmax import HipFuseScaledSoftmaxPass

Dim = int | str | DimExpr | None
"""A static size, a named dynamic size (`batch`), a formula of input dims (only
in outputs: `(batch*seq)`), or an anonymous dynamic size."""


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

    def check_mapping(self, arrays: object) -> None:
        """A model's call takes `{name: array}`, as ONNX Runtime's `run` does;
        an array or a list in its place is a user's slip, said as one."""
        if not isinstance(arrays, Mapping):
            expected = ", ".join(repr(s.name) for s in self.inputs)
            raise InputError(
                f"a model takes its inputs as a dict {{name: array}}, not "
                f"{type(arrays).__name__!r}; the model takes {expected}"
            )

    def bind(
        self, arrays: Mapping[str, Any]
    ) -> tuple[list[np.ndarray], dict[str, int]]:
        """Checks the inputs; returns them in order and the sizes of named dims."""
        self.check_mapping(arrays)
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

    def unsized_output_dim(self, returned: Sequence[int] = ()) -> str | None:
        """Why some output the caller allocates (not one of the `returned`)
        cannot be allocated before the call, or None."""
        bound = self.input_dim_names()
        for number, spec in enumerate(self.outputs):
            for i, d in enumerate(spec.shape if number not in returned else ()):
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
    name_attr = attrs.get("onnx.name")
    name = name_attr.data if isinstance(name_attr, StringAttr) else fallback
    if not isinstance(typ, MemRefType | TensorType):
        raise InputError(
            f"{name!r} has type {typ}, not a tensor: a model with a sequence "
            "or optional input compiles per list of elements "
            "(xhip.frontend.sequence_types.with_tensor_inputs; docs/sequences.md)"
        )
    shape: list[Dim] = [None if d == DYNAMIC_INDEX else d for d in typ.get_shape()]
    params = attrs.get("onnx.dim_params")
    if isinstance(params, StringAttr):
        for index, param in parse_dim_params(params.data).items():
            shape[index] = param
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

IN_PLACE_MIN_BYTES = 32768
"""Below this, copying an input or output costs less than rebuilding the
calls that view it (`CompiledModel.in_place_min_bytes`): on the seed at
1 x 128 (a 32 KiB input and output, 4 calls rebuilt, about 1.1 us each)
the copies took 4.5 us less a call, one thread; at 8 x 128, 6 us more."""


def fuse_for_execution(
    module: ModuleOp,
    elementwise: bool = True,
    attention: bool = True,
    fold_attention: bool = True,
    conv_relu: bool = False,
) -> ModuleOp:
    """A copy of `module` with the backend's fusions applied, as explicit ops:
    `hip-fuse-attention` unless `attention` is false, then (unless
    `fold_attention` is false) `hip-fold-attention-bias` and
    `hip-fold-attention-layouts`, `hip-fuse-scaled-softmax`,
    `hip-fuse-conv-relu` if `conv_relu` (a runtime that `fuses_conv_relu`),
    then `hip-fuse-elementwise` unless `elementwise` is false (a runtime
    without `fused_elementwise`).

    The given module is left as it is: it may be the user's, or a stage.
    """
    fused = module.clone()
    if attention:
        HipFuseAttentionPass().apply(Context(), fused)
        if fold_attention:
            HipFoldAttentionBiasPass().apply(Context(), fused)
            HipFoldAttentionLayoutsPass().apply(Context(), fused)
    HipFuseScaledSoftmaxPass().apply(Context(), fused)
    if conv_relu:
        HipFuseConvReluPass().apply(Context(), fused)
    if elementwise:
        HipFuseElementwisePass().apply(Context(), fused)
    return fused


def _upload_constants(runtime: Runtime, constants: bytes | memoryview) -> DeviceArray:
    """The constants blob on the device. Read-only constants (bytes, the mapped
    constants file) are used in place on the CPU, not copied, and still count
    against `max_memory` as the copy did; a GPU copies them to the device."""
    host = np.frombuffer(constants, dtype=np.uint8)
    blob = runtime.upload(host, copy=host.flags.writeable)
    if not blob.buffer.owned:
        runtime.allocations.check(host.nbytes, runtime.max_memory, "the constants")
        # Counted, but its addresses are not checked against the live ones:
        # read-only memory nobody writes, which several models may share.
        runtime.allocations.add(blob.buffer, debug=False)
    return blob


class CompiledModel:
    """A final-IR module bound to a runtime: `model({name: array}) -> {name: array}`.

    `engine="plan"` (default) compiles the entry function once into a flat list
    of steps; `engine="interpreter"` walks the IR with xDSL's interpreter.

    With the plan engine (outside debug mode), the first call with given input
    shapes binds the plan (`Plan.bind`): later calls with those shapes copy
    the inputs into the bound plan's own buffers and replay its runtime calls
    (or, where it pays, read the inputs and write new outputs in place:
    inplace.py, `in_place_min_bytes`).
    The last `max_bound_plans` input shapes keep theirs (LRU), with their
    memory; `bound_plans` says how many are held, 0 turns them off.
    """

    def __init__(
        self,
        module: ModuleOp,
        signature: Signature,
        constants: bytes | memoryview | None = None,
        runtime: Runtime | None = None,
        *,
        entry: str = "main_graph",
        engine: Engine = "plan",
        fuse: bool = True,
        fuse_elementwise: bool = True,
        fuse_attention: bool = True,
        fold_attention: bool = True,
        max_bound_plans: int = 8,
    ):
        if runtime is None:
            runtime = CpuRuntime()
        elementwise = fuse_elementwise and hasattr(runtime, "fused_elementwise")
        self.module = (
            fuse_for_execution(
                module,
                elementwise,
                fuse_attention,
                fold_attention,
                runtime.fuses_conv_relu,
            )
            if fuse
            else module
        )
        """The IR that runs: the given module after `hip-fuse-attention`
        (unless `fuse_attention` is false) and its folds (unless
        `fold_attention` is false), `hip-fuse-scaled-softmax`,
        `hip-fuse-conv-relu` (where the runtime `fuses_conv_relu`) and
        (unless `fuse_elementwise` is false, or the runtime cannot run
        it) `hip-fuse-elementwise`; as given if `fuse` is false."""
        self.signature = signature
        self.runtime = runtime
        self.function = find_function(self.module, entry)
        self._layout()
        blob = None if constants is None else _upload_constants(runtime, constants)
        self._constants = blob
        self._env = BuildEnv(runtime, self.module, blob)
        self._context = HipContext(runtime)
        self.engine = engine
        self.max_bound_plans = max_bound_plans
        """How many input shapes keep a bound plan (LRU); 0: none."""
        self._bound: OrderedDict[tuple[tuple[int, ...], ...], BoundPlan | None] = (
            OrderedDict()
        )
        """Bound plans by input shapes; None: these shapes run unbound."""
        self._bound_lock = threading.Lock()
        """Held while a bound plan runs or the cache changes: a call finding it
        taken (another thread's) runs unbound."""
        _MODELS.add(self)
        self._input_names = [spec.name for spec in signature.inputs]
        self._input_dtypes = [spec.dtype for spec in signature.inputs]
        self.in_place_min_bytes = IN_PLACE_MIN_BYTES
        """The smallest input or output a bound plan reads or writes in place
        (inplace.py) rather than copying."""
        self._binds = False
        if engine == "plan":
            self._plan = Plan(self.function, self._env)
            self._binds = self._plan.kinds is not None and max_bound_plans > 0
        else:
            self._interpreter = make_interpreter(self.module, self._env)

    @property
    def bound_plans(self) -> int:
        """How many input shapes hold a bound plan now (at most
        `max_bound_plans`)."""
        return sum(plan is not None for plan in self._bound.values())

    def _layout(self) -> None:
        """Where inputs, outputs and the constants blob sit among the arguments."""
        types = self.function.function_type.inputs.data
        self._has_context = bool(types) and isinstance(types[0], ContextType)
        n_results = len(self.function.function_type.outputs.data)
        n_in = len(self.signature.inputs)
        n_out = len(self.signature.outputs)
        returned = self.function.attributes.get(RETURNED_ATTR)
        self._returned: tuple[int, ...] = (
            tuple(int(v) for v in returned.get_values())
            if isinstance(returned, DenseArrayBase)
            else tuple(range(n_results))
        )
        """The outputs the call returns (sized by a value read back): the
        runtime allocates them during the call; the caller, the others."""
        self._out_params = n_out - n_results
        if n_results != len(self._returned) or (
            not isinstance(returned, DenseArrayBase) and n_results not in (0, n_out)
        ):
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
        unsized = self.signature.unsized_output_dim(self._returned)
        if unsized is not None:
            raise InputError(unsized)

    def __call__(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        try:
            return self._call(inputs)
        except IndexError as e:
            message = str(e)
            if isinstance(e, InputError) or not (
                "out of range" in message or "out of bounds" in message
            ):
                raise
            # numpy's `take` and the kernels: an index the inputs give.
            if not message.startswith("hip."):
                message = f"an index the inputs give is out of range: {message}"
            raise IndexOutOfRange(message) from None

    def _call(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        if self._binds and self._bound_lock.acquire(blocking=False):
            try:
                replayed = self._replay(inputs)
            finally:
                self._bound_lock.release()
            if replayed is not None:
                return replayed
        arrays, dims = self.signature.bind(inputs)
        mark = self.runtime.allocations.snapshot()
        try:
            if self._binds and self._bound_lock.acquire(blocking=False):
                try:
                    return self._bind_and_run(arrays, dims, mark)
                finally:
                    self._bound_lock.release()
            return self._run(arrays, dims)
        except MemoryLimitError as e:
            e.dims = dims
            self._release_since(mark)
            raise
        except BaseException:
            self._release_since(mark)
            raise

    def _replay(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray] | None:
        """The call by the bound plan of these input shapes; None when there
        is none, or the inputs need `Signature.bind`'s checks (not all numpy
        arrays of the signature's dtypes: the slow path says what is wrong)."""
        if len(inputs) != len(self._input_names):
            return None
        try:
            arrays = [inputs[name] for name in self._input_names]
            key = tuple([a.shape for a in arrays])
            plan = self._bound.get(key)
        except (KeyError, AttributeError, TypeError):
            return None
        if plan is None:
            return None
        for array, dtype in zip(arrays, self._input_dtypes):
            if type(array) is not np.ndarray or array.dtype != dtype:
                return None
        self._bound.move_to_end(key)
        try:
            return self._run_bound(plan, arrays)
        except MemoryLimitError as e:  # a runtime's own scratch memory
            e.dims = self.signature.bind(inputs)[1]
            raise

    def _run_bound(
        self, plan: BoundPlan, arrays: Sequence[np.ndarray]
    ) -> dict[str, np.ndarray]:
        runtime = self.runtime
        inplace = plan.inplace
        if inplace is None:
            for value, array in zip(plan.inputs, arrays):
                runtime.write(value, array)
            with np.errstate(all="ignore"):
                plan()
            return self._download(plan)
        targets, results, copied = inplace.targets(arrays)
        for number in copied:
            runtime.write(plan.inputs[number], arrays[number])
        with np.errstate(all="ignore"):
            inplace.run(targets)
        runtime.synchronize()
        return {
            spec.name: runtime.download(value) if fresh is None else fresh
            for spec, value, fresh in zip(self.signature.outputs, plan.results, results)
        }

    def _download(self, plan: BoundPlan) -> dict[str, np.ndarray]:
        runtime = self.runtime
        runtime.synchronize()
        # Downloads are copies: a later call rewrites the plan's memory.
        names = self.signature.outputs
        return {spec.name: runtime.download(v) for spec, v in zip(names, plan.results)}

    def _bind_and_run(
        self, arrays: list[np.ndarray], dims: dict[str, int], mark: set[int]
    ) -> dict[str, np.ndarray]:
        """The first call with these input shapes: binds the plan on buffers of
        its own, keeps it (dropping the least recently used beyond
        `max_bound_plans`) and returns its outputs.

        Where the kept buffers do not fit in memory (`max_memory`), the call
        runs unbound, and so will later ones with these shapes.
        """
        key = tuple([a.shape for a in arrays])
        if key in self._bound:  # None: these shapes run unbound
            return self._run(arrays, dims)
        runtime = self.runtime
        try:
            ins = [
                runtime.empty(a.shape, a.dtype, f"input {name!r}")
                for a, name in zip(arrays, self._input_names)
            ]
            args, outs = self._arguments(ins, dims, [a.shape for a in arrays])
            for value, array in zip(ins, arrays):
                runtime.write(value, array)
            with np.errstate(all="ignore"):
                plan = self._plan.bind(*args)
        except MemoryLimitError:
            self._release_since(mark)
            self._keep(key, None)
            return self._run(arrays, dims)
        plan.inputs = tuple(ins)
        if self._out_params:
            plan.results = tuple(self._merge(outs, list(plan.results)))
        plan.buffers += [v.buffer for v in ins + outs]
        self._keep(key, plan)
        results = self._download(plan)  # `bind` ran the calls once
        plan.inplace = self._in_place(plan, outs, arrays, results)
        return results

    def _in_place(
        self,
        plan: BoundPlan,
        outs: list[DeviceArray],
        arrays: list[np.ndarray],
        expected: dict[str, np.ndarray],
    ) -> InPlace | None:
        """The bound plan's in-place form (inplace.py), if it has one that
        gives the `expected` outputs bit for bit on these `arrays` with the
        inputs' own buffers and the new outputs poisoned (all bits set), and
        leaves the caller's `arrays` as they were (a plan may write an input's
        buffer once it has read it)."""
        found = InPlace.find(
            plan.calls, plan.inputs, plan.results, outs, self.in_place_min_bytes
        )
        if found is None:
            return None
        targets, results, copied = found.targets(arrays)
        if any(found.inputs[number] is not None for number in copied):
            return None  # these arrays cannot show it works
        for slot, value in zip(found.inputs, plan.inputs):
            if slot is not None:
                value.buffer.handle.fill(0xFF)
        for fresh in results:
            if fresh is not None:
                fresh.reshape(-1).view(np.uint8).fill(0xFF)
        runtime = self.runtime
        held = [array.tobytes() for array in arrays]
        try:
            with np.errstate(all="ignore"):
                found.run(targets)
            runtime.synchronize()
        except Exception:  # noqa: BLE001 (a call refusing a view: copies stay)
            return None
        finally:
            for value, array in zip(plan.inputs, arrays):
                runtime.write(value, array)
        if any(array.tobytes() != bytes_ for array, bytes_ in zip(arrays, held)):
            return None  # a call writes an input's buffer: the caller's array
        for spec, value, fresh in zip(self.signature.outputs, plan.results, results):
            got = runtime.download(value) if fresh is None else fresh
            if got.tobytes() != expected[spec.name].tobytes():
                return None
        return found

    def _keep(self, key: tuple[tuple[int, ...], ...], plan: BoundPlan | None) -> None:
        self._bound[key] = plan
        while len(self._bound) > self.max_bound_plans:
            _, dropped = self._bound.popitem(last=False)
            if dropped is not None:
                self._drop(dropped)

    def _drop(self, plan: BoundPlan) -> None:
        for buffer in plan.buffers:
            if not buffer.freed:
                self.runtime.free(buffer)

    def _release_since(self, mark: set[int]) -> None:
        """Frees what a failed call allocated, so the next call starts clean."""
        for buffer in self.runtime.allocations.since(mark):
            self.runtime.free(buffer)

    def _arguments(
        self,
        inputs: list[DeviceArray],
        dims: dict[str, int],
        shapes: Sequence[tuple[int, ...]],
    ) -> tuple[list[Any], list[DeviceArray]]:
        """The entry function's arguments for these inputs, and the outputs
        it writes (allocated here) when it takes them as arguments."""
        runtime = self.runtime
        args: list[Any] = [self._context] if self._has_context else []
        args += inputs
        device: list[DeviceArray] = []
        if self._out_params:
            for number, spec in enumerate(self.signature.outputs):
                if number in self._returned:
                    continue
                shape = self.signature.output_shape(spec, dims, shapes)
                device.append(runtime.empty(shape, spec.dtype, f"output {spec.name!r}"))
            args += device
        if self._takes_blob:
            if self._constants is None:
                raise InputError("this model needs its constants blob (constants=...)")
            args.append(self._constants)
        return args, device

    def _merge(self, outs: list[Any], results: list[Any]) -> list[Any]:
        """The outputs in signature order: the returned ones from `results`,
        the others from `outs` (the out-params)."""
        returned, kept = iter(results), iter(outs)
        count = len(self.signature.outputs)
        return [next(returned if n in self._returned else kept) for n in range(count)]

    def _run(
        self, arrays: list[np.ndarray], dims: dict[str, int]
    ) -> dict[str, np.ndarray]:
        runtime = self.runtime
        uploaded = [runtime.upload(a) for a in arrays]
        args, device = self._arguments(uploaded, dims, [a.shape for a in arrays])
        # NaN and Inf are data, as on a GPU: they propagate (as in ONNX
        # Runtime), with no numpy warning per op.
        with np.errstate(all="ignore"):
            if self.engine == "plan":
                results = self._plan(*args)
            else:
                name = self.function.sym_name.data
                results = self._interpreter.call_op(name, tuple(args))
        device = self._merge(device, list(results or ()))
        runtime.synchronize()
        host = [runtime.download(value) for value in device]
        # Returned outputs may share a buffer (a view of another output: an
        # Unsqueeze of a NonZero-sized result): each buffer is freed once.
        for buffer in {id(v.buffer): v.buffer for v in device}.values():
            runtime.free(buffer)
        for value in uploaded:  # a GPU runtime's copies of the inputs
            if value.buffer.owned and not value.buffer.freed:
                runtime.free(value.buffer)
        return {spec.name: a for spec, a in zip(self.signature.outputs, host)}

    def _after_fork(self) -> None:
        """In a forked child: the bound plans go (rebinding asks
        `cpu_host.numba_pool` again, which says no in a child: GNU OpenMP
        aborts a child that launches the parent's pool), and so does the
        lock, which a thread the child lacks may hold. A GPU runtime's plans
        are forgotten, not freed: its device context is the parent's."""
        self._bound_lock = threading.Lock()
        plans = [plan for plan in self._bound.values() if plan is not None]
        self._bound.clear()
        if isinstance(self.runtime, CpuRuntime):
            for plan in plans:
                self._drop(plan)
        self.runtime.after_fork()

    def close(self) -> None:
        with self._bound_lock:
            for plan in self._bound.values():
                if plan is not None:
                    self._drop(plan)
            self._bound.clear()
        self.runtime.close()

    def release(self) -> None:
        """Frees what this model holds on its runtime (bound plans, the
        constants) and leaves the runtime open: a runtime several models
        share, as a specializing model's (`xhip.specialize`) do."""
        with self._bound_lock:
            for plan in self._bound.values():
                if plan is not None:
                    self._drop(plan)
            self._bound.clear()
        blob, self._constants = self._constants, None
        if blob is not None and not blob.buffer.freed:
            if not blob.buffer.owned:  # counted by `_upload_constants`
                self.runtime.allocations.remove(blob.buffer)
            self.runtime.free(blob.buffer)


_MODELS: weakref.WeakSet[CompiledModel] = weakref.WeakSet()
"""Every live model, for `_after_fork_in_child`."""


def _after_fork_in_child() -> None:
    for model in list(_MODELS):
        model._after_fork()  # pyright: ignore[reportPrivateUsage]


os.register_at_fork(after_in_child=_after_fork_in_child)
