"""Translation validation: the IR after every pass, run and compared to ONNX Runtime.

`verify_passes(model)` imports a model, runs the pipeline pass by pass, keeps
the module after each pass and runs it on the same (seeded, random or given)
inputs; each stage's outputs are compared with ONNX Runtime's on the original
model. The first stage whose outputs differ names the pass that broke the
model. `xhip verify-passes` (`xhip/cli/verify_passes.py`) prints the report.

Three engines run the stages, chosen by what the stage holds:

- **memref stages** (from `one-shot-bufferize` on): the backend itself
  (`CompiledModel`): the compiled plan, or the xDSL interpreter where the IR
  has regions or ops with several results (the deallocation stages: `scf.if`,
  `memref.extract_strided_metadata`, `bufferization.dealloc`, implemented
  here). The CPU runtime runs in debug mode: fresh memory is NaN, every view
  and every write is checked, so a broken memory plan fails at the pass that
  made it.
- **tensor stages** (after `convert-onnx-to-hip`): op by op on the same CPU
  runtime. A `hip` op in tensor mode runs as its memref-mode twin (same class,
  attributes and builder) writing fresh buffers: one semantics for both modes.
- **onnx-dialect ops** (the import, `hip-add-context-arg`, any onnx op left in
  a mixed stage): one single-node ONNX model per op, run by ONNX Runtime.
  These stages check the importer and the passes before the conversion.

A stage an engine cannot run (an op no engine knows) is "not run", with the
reason; it is never counted as a mismatch.

`Injection` is a test-only fault: it corrupts the module right after pass N
(a float constant perturbed, or two operands swapped), so a test can prove the
tool names that pass.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects import arith, func, memref, tensor
from xdsl.dialects import bufferization as xdsl_bufferization
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import DiagnosticException

from xhip.backend.cpu import CpuRuntime
from xhip.backend.interpreter import (
    BuildEnv,
    DeallocFunctions,
    HipContext,
    UnsupportedOpError,
    build,
    numpy_dtype,
)
from xhip.backend.memory import physical_memory
from xhip.backend.runtime import DeviceArray, Runtime
from xhip.backend.session import CompiledModel, Signature
from xhip.context import make_context
from xhip.dialects import hip
from xhip.dialects import onnx as onnx_dialect
from xhip.dialects.hip import CONSTANTS_FILE, ContextType
from xhip.frontend.onnx_importer import import_model
from xhip.pipeline import build_pipeline, onnx_to_hip_passes
from xhip.transforms.composite import expand_composite_passes

RTOL = 1e-4
ATOL = 1e-5
"""A stage agrees when its max abs error is at most `ATOL + RTOL * scale`,
`scale` the largest |value| of the reference output (at least 1)."""

IMPORT_STAGE = "import"
"""The name of stage 0: the onnx-dialect module the pipeline starts from."""

FUSED_STAGE = "backend fusions"
"""The name of the last row: the final IR as `xhip run` runs it (after
`hip-fuse-scaled-softmax`, which the backend applies)."""


class VerifyError(ValueError):
    """The model cannot be verified at all (bad inputs, ONNX Runtime cannot run
    it, an injection that finds nothing to corrupt); one line."""


class NotRunnable(Exception):
    """A stage has an op no engine here can run: the stage is not run."""


Status = Literal["ok", "differs", "failed", "not run"]


@dataclass
class StageResult:
    number: int
    """0: the import; N: the module after the N-th pass of the pipeline; the
    number after the last: the backend fusions row."""
    name: str
    status: Status
    max_abs: float | None = None
    max_rel: float | None = None
    """Max abs error over the largest |value| of the reference output."""
    detail: str = ""
    """Why a stage was not run or failed, or which output differs."""
    engine: str = ""

    @property
    def bad(self) -> bool:
        return self.status in ("differs", "failed")


@dataclass
class Report:
    inputs: dict[str, np.ndarray]
    stages: list[StageResult] = field(default_factory=lambda: [])
    injected: str | None = None
    """What the test-only injection changed, if one was asked for."""

    @property
    def first_bad(self) -> StageResult | None:
        return next((s for s in self.stages if s.bad), None)


# The test-only fault.

InjectionKind = Literal["constant", "swap"]
INJECTION_KINDS: tuple[InjectionKind, ...] = ("constant", "swap")


@dataclass(frozen=True)
class Injection:
    """Corrupt the module right after pass `after` (1-based)."""

    after: int
    kind: InjectionKind = "constant"

    @classmethod
    def parse(cls, text: str) -> Injection:
        """`N` or `N:KIND` (KIND: constant, swap)."""
        number, _, kind = text.partition(":")
        if not number.isdigit() or int(number) < 1:
            raise VerifyError(
                f"--inject-bug: expected N[:KIND] with N >= 1, got {text!r}"
            )
        kind = kind or "constant"
        if kind not in INJECTION_KINDS:
            raise VerifyError(
                f"--inject-bug: unknown kind {kind!r} (one of {', '.join(INJECTION_KINDS)})"
            )
        return cls(int(number), kind)  # pyright: ignore[reportArgumentType]


def _float_dense(attr: Attribute | None) -> DenseIntOrFPElementsAttr | None:
    if isinstance(attr, DenseIntOrFPElementsAttr):
        if numpy_dtype(attr.get_element_type()).kind == "f":
            return attr
    return None


def _perturbed(attr: DenseIntOrFPElementsAttr) -> DenseIntOrFPElementsAttr:
    values: list[float] = (2.0 * _dense_array(attr).reshape(-1) + 1.0).tolist()
    return DenseIntOrFPElementsAttr.from_list(attr.type, values)  # pyright: ignore[reportArgumentType, reportCallIssue]


def _perturb_constant(module: ModuleOp) -> str | None:
    for op in module.walk():
        if isinstance(op, onnx_dialect.ConstantOp | arith.ConstantOp):
            key, attrs = (
                "value",
                (op.attributes if "value" in op.attributes else op.properties),
            )
            dense = _float_dense(attrs.get(key))
            if dense is not None:
                attrs[key] = _perturbed(dense)
                return f"'{op.name}' value x -> 2x+1"
        if isinstance(op, memref.GlobalOp):
            dense = _float_dense(op.initial_value)
            if dense is not None:
                op.properties["initial_value"] = _perturbed(dense)
                return f"memref.global @{op.sym_name.data} value x -> 2x+1"
    return None


def _same_shape_and_type(a: Attribute, b: Attribute) -> bool:
    """Equal shapes and element types (a memref's layout may differ: an
    argument is strided, an allocation is not)."""
    if isinstance(a, TensorType | MemRefType) and isinstance(
        b, TensorType | MemRefType
    ):
        return (
            type(a) is type(b)
            and a.get_shape() == b.get_shape()
            and a.get_element_type() == b.get_element_type()
        )
    return a == b


def _swap_operands(module: ModuleOp) -> str | None:
    for op in module.walk():
        if isinstance(op, hip.HipDPSOp):
            values = list(op.inputs)
            start = len(op.operands) - len(op.inputs) - len(op.outputs)
        elif isinstance(op, onnx_dialect.OnnxOp):
            values, start = list(op.operands), 0
        else:
            continue
        if len(values) >= 2 and values[0] != values[1]:
            if _same_shape_and_type(values[0].type, values[1].type):
                op.operands[start] = values[1]
                op.operands[start + 1] = values[0]
                return f"'{op.name}' operands 0 and 1 swapped"
    return None


def inject_bug(module: ModuleOp, kind: InjectionKind) -> str | None:
    """Corrupt `module` in place; what was changed, or None if nothing could be."""
    return _perturb_constant(module) if kind == "constant" else _swap_operands(module)


# Inputs and the reference.


def random_inputs(
    signature: Signature,
    dims: Mapping[str, int],
    seed: int,
    given: Mapping[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """The given inputs plus random ones (as `xhip run` makes them): named dims
    from `dims`, other dynamic dims 1."""
    if error := signature.unknown_dims_error(dims):
        raise VerifyError(f"--dims: {error}")
    rng = np.random.default_rng(seed)
    inputs = dict(given)
    for spec in signature.inputs:
        if spec.name in inputs:
            continue
        shape = tuple(
            d if isinstance(d, int) else dims.get(d, 1) if isinstance(d, str) else 1
            for d in spec.shape
        )
        if spec.dtype.kind == "f":
            inputs[spec.name] = rng.standard_normal(shape).astype(spec.dtype)
        elif spec.dtype.kind == "b":
            inputs[spec.name] = rng.integers(0, 2, shape).astype(spec.dtype)
        else:
            inputs[spec.name] = rng.integers(0, 10, shape).astype(spec.dtype)
    return inputs


def reference_outputs(
    model: str | bytes, inputs: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    import onnxruntime as ort  # lazy: optional (the dev extra), the oracle only

    options = ort.SessionOptions()
    options.log_severity_level = 4
    try:
        session = ort.InferenceSession(
            model, options, providers=["CPUExecutionProvider"]
        )
        names = [o.name for o in session.get_outputs()]
        values = session.run(names, dict(inputs))
    except Exception as e:  # ORT raises its own exception types
        message = " ".join(str(e).split())
        raise VerifyError(f"ONNX Runtime cannot run the model: {message}") from None
    return {n: np.asarray(v) for n, v in zip(names, values)}


def compare(
    got: Mapping[str, np.ndarray],
    want: Mapping[str, np.ndarray],
    rtol: float = RTOL,
    atol: float = ATOL,
) -> tuple[float, float, str | None]:
    """(max abs error, max rel error, the first problem or None) over outputs."""
    worst_abs = worst_rel = 0.0
    problem: str | None = None

    def note(text: str) -> None:
        nonlocal problem
        problem = problem or text

    for name, expected in want.items():
        if name not in got:
            note(f"output {name!r} missing")
            continue
        value = np.asarray(got[name])
        if value.shape != expected.shape:
            note(f"output {name!r} has shape {value.shape}, expected {expected.shape}")
            continue
        if value.dtype != expected.dtype:
            note(f"output {name!r} has dtype {value.dtype}, expected {expected.dtype}")
            continue
        if value.size == 0:
            continue
        a = value.astype(np.float64)
        b = expected.astype(np.float64)
        if not np.array_equal(np.isnan(a), np.isnan(b)):
            note(
                f"output {name!r}: NaN where ONNX Runtime has none, or none where it has"
            )
            worst_abs = worst_rel = math.inf
            continue
        finite = np.isfinite(b)
        if not np.array_equal(a[~finite & ~np.isnan(b)], b[~finite & ~np.isnan(b)]):
            note(f"output {name!r}: infinities differ")
        if not finite.any():
            continue
        scale = max(float(np.max(np.abs(b[finite]))), 1.0)
        error = float(np.max(np.abs(a[finite] - b[finite])))
        if math.isnan(error):
            error = math.inf
        worst_abs = max(worst_abs, error)
        worst_rel = max(worst_rel, error / scale)
        if error > atol + rtol * scale:
            note(f"output {name!r}: max abs error {error:.3g} (scale {scale:.3g})")
    return worst_abs, worst_rel, problem


# The memref engine: the backend, plus the ops of the deallocation stages.


class _StageModel(CompiledModel):
    """A memref stage on the backend: the plan, else the interpreter with the
    deallocation ops (the plan runs neither regions nor multi-result ops)."""

    def __init__(
        self,
        module: ModuleOp,
        signature: Signature,
        constants: bytes,
        runtime: Runtime,
        fuse: bool,
    ):
        try:
            super().__init__(module, signature, constants, runtime, fuse=fuse)
        except UnsupportedOpError:
            super().__init__(
                module, signature, constants, runtime, engine="interpreter", fuse=fuse
            )
            self._interpreter.register_implementations(ScfFunctions())
            self._interpreter.register_implementations(DeallocFunctions(runtime))


# The tensor engine.


def _main(module: ModuleOp) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == "main_graph":
            return op
    raise NotRunnable("the module has no func.func @main_graph")


def _is_tensor_stage(function: func.FuncOp) -> bool:
    types = [*function.function_type.inputs.data, *function.function_type.outputs.data]
    if any(isinstance(t, TensorType) for t in types):
        return True
    return any(isinstance(op, onnx_dialect.OnnxOp) for op in function.walk())


def _filled(static: Sequence[int], dynamic: Sequence[int]) -> tuple[int, ...]:
    sizes = iter(dynamic)
    return tuple(next(sizes) if d == DYNAMIC_INDEX else d for d in static)


def _dense_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    dtype = numpy_dtype(attr.get_element_type())
    shape = tuple(attr.type.get_shape())
    values = np.asarray(attr.get_values(), dtype=dtype).reshape(-1)
    if values.size == 1 and math.prod(shape) != 1:
        return np.full(shape, values[0], dtype=dtype)
    return values.reshape(shape)


def _onnx_attribute(name: str, value: Attribute) -> Any:
    if isinstance(value, IntegerAttr):
        return helper.make_attribute(name, int(value.value.data))
    if isinstance(value, FloatAttr):
        return helper.make_attribute(name, float(value.value.data))
    if isinstance(value, StringAttr):
        return helper.make_attribute(name, value.data)
    if isinstance(value, ArrayAttr):
        items: list[Any] = []
        for v in value.data:
            if not isinstance(v, IntegerAttr | FloatAttr | StringAttr):
                raise NotRunnable(
                    f"attribute '{name}': cannot give {v} to ONNX Runtime"
                )
            items.append(v.data if isinstance(v, StringAttr) else v.value.data)
        return helper.make_attribute(name, items)
    if isinstance(value, DenseIntOrFPElementsAttr):
        return helper.make_attribute(name, numpy_helper.from_array(_dense_array(value)))
    if isinstance(value, TypeAttribute):
        return helper.make_attribute(
            name, helper.np_dtype_to_tensor_dtype(numpy_dtype(value))
        )
    raise NotRunnable(f"attribute '{name}': cannot give {value} to ONNX Runtime")


def _onnx_node(
    op: onnx_dialect.OnnxOp, opset: int
) -> Callable[..., tuple[np.ndarray, ...]]:
    """`op` as a one-node ONNX model on ONNX Runtime: arrays in, arrays out."""
    import onnxruntime as ort  # lazy: optional (the dev extra), the oracle only

    definition = op.get_irdl_definition()
    names: list[str] = []
    for field_name, _ in definition.operands:
        value = getattr(op, field_name)
        group: Sequence[SSAValue | None] = (
            [value] if value is None or isinstance(value, SSAValue) else list(value)
        )
        if not group and not isinstance(value, SSAValue):
            names.append("")  # an absent optional input
        for v in group:
            names.append("" if v is None else f"in{len(names)}")
    while names and not names[-1]:
        names.pop()
    present = [n for n in names if n]
    outputs = [f"out{i}" for i in range(len(op.results))]
    attributes = [
        _onnx_attribute(k, v) for k, v in op.properties.items() if "Segment" not in k
    ]
    if isinstance(op, onnx_dialect.ConstantOp):
        value = op.attributes.get("value")
        if value is None:
            value = op.properties.get("value")
        if value is None:
            raise NotRunnable("'onnx.Constant' has no value")
        attributes = [_onnx_attribute("value", value)]
    node = helper.make_node(op.name.removeprefix("onnx."), names, outputs)
    node.attribute.extend(attributes)

    def info(name: str, value: SSAValue) -> Any:
        if not isinstance(value.type, TensorType):
            raise NotRunnable(f"'{op.name}' has a non-tensor operand or result")
        elem = helper.np_dtype_to_tensor_dtype(
            numpy_dtype(value.type.get_element_type())
        )
        return helper.make_tensor_value_info(name, elem or TensorProto.UNDEFINED, None)

    graph = helper.make_graph(
        [node],
        "node",
        [info(n, v) for n, v in zip(present, op.operands)],
        [info(n, r) for n, r in zip(outputs, op.results)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    options = ort.SessionOptions()
    options.log_severity_level = 4
    try:
        session = ort.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
    except Exception as e:
        raise NotRunnable(
            f"ONNX Runtime cannot run '{op.name}' alone: {' '.join(str(e).split())[:200]}"
        ) from None

    def run(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
        results = session.run(outputs, dict(zip(present, arrays)))
        return tuple(np.asarray(r) for r in results)

    return run


def _memref_of(typ: Attribute) -> Attribute:
    if isinstance(typ, TensorType):
        return MemRefType(typ.get_element_type(), typ.get_shape())  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
    return typ


def _memref_twin(op: hip.HipDPSOp) -> tuple[hip.HipDPSOp, Block]:
    """`op` in memref mode: the same class, attributes and properties, on
    placeholder memref operands (the block that holds them comes with it)."""
    block = Block(arg_types=[_memref_of(v.type) for v in op.operands])
    twin = type(op).create(
        operands=list(block.args),
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    return twin, block


class _TensorEngine:
    """Runs a tensor-level `@main_graph` op by op (see the module docstring)."""

    def __init__(self, module: ModuleOp, env: BuildEnv, opset: int):
        self.module = module
        self.env = env
        self.runtime = env.runtime
        self.opset = opset
        self.keep: list[Block] = []

    def host(self, value: DeviceArray) -> np.ndarray:
        return self.runtime.download(value)

    def device(self, array: np.ndarray) -> DeviceArray:
        # Not np.ascontiguousarray: it makes a 0-d array 1-d.
        return self.runtime.upload(np.array(array, order="C"), copy=True)

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        function = _main(self.module)
        if len(function.body.blocks) != 1:
            raise NotRunnable("@main_graph has several blocks")
        values: dict[SSAValue, Any] = {}
        arg_attrs = function.arg_attrs.data if function.arg_attrs else ()
        ordered = iter(inputs.values())
        for i, arg in enumerate(function.args):
            if isinstance(arg.type, ContextType):
                values[arg] = HipContext(self.runtime)
                continue
            name = None
            if i < len(arg_attrs):
                attr = arg_attrs[i].data.get("onnx.name")
                name = attr.data if isinstance(attr, StringAttr) else None
            array = (
                inputs[name] if name is not None and name in inputs else next(ordered)
            )
            values[arg] = self.device(array)
        res_attrs = function.res_attrs.data if function.res_attrs else ()
        for op in function.body.block.ops:
            if isinstance(op, func.ReturnOp):
                outputs: dict[str, np.ndarray] = {}
                for i, v in enumerate(op.operands):
                    name = f"result{i}"
                    if i < len(res_attrs):
                        attr = res_attrs[i].data.get("onnx.name")
                        name = attr.data if isinstance(attr, StringAttr) else name
                    result = values[v]
                    outputs[name] = (
                        self.host(result) if isinstance(result, DeviceArray) else result
                    )
                return outputs
            args = [values[v] for v in op.operands]
            results = self.step(op, args)
            for r, value in zip(op.results, results, strict=True):
                values[r] = value
        raise NotRunnable("@main_graph has no func.return")

    def step(self, op: Operation, args: list[Any]) -> Sequence[Any]:
        if isinstance(op, onnx_dialect.OnnxOp):
            fn = _onnx_node(op, self.opset)
            host = [self.host(a) for a in args]
            return [self.device(r) for r in fn(*host)]
        if isinstance(op, hip.HipDPSOp):
            return self.hip_op(op, args)
        if isinstance(op, arith.ConstantOp) and isinstance(
            op.value, DenseIntOrFPElementsAttr
        ):
            return [self.device(_dense_array(op.value))]
        if isinstance(op, tensor.EmptyOp):
            typ = op.tensor.type
            shape = _filled(typ.get_shape(), args)
            return [self.runtime.empty(shape, numpy_dtype(typ.get_element_type()))]
        if isinstance(op, tensor.DimOp):
            return [args[0].shape[args[1]]]
        if isinstance(op, tensor.CastOp):
            return [args[0]]
        if isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            typ = op.result.type
            assert isinstance(typ, TensorType)
            if isinstance(op, tensor.ExpandShapeOp):
                shape = _filled(op.static_output_shape.get_values(), args[1:])
            else:
                groups = [[int(i.value.data) for i in g] for g in op.reassociation]
                shape = tuple(math.prod(args[0].shape[i] for i in g) for g in groups)
            return [self.device(self.host(args[0]).reshape(shape))]
        if isinstance(op, tensor.FromElementsOp):
            typ = op.result.type
            dtype = numpy_dtype(typ.get_element_type())
            array = np.asarray(args, dtype=dtype).reshape(typ.get_shape())
            return [self.device(array)]
        if isinstance(op, tensor.ExtractOp):
            element = self.host(args[0])[tuple(args[1:])]
            return [element.item()]
        if isinstance(op, xdsl_bufferization.ToTensorOp):
            return [args[0]]
        if op.regions:
            raise NotRunnable(f"'{op.name}' has regions")
        try:
            fn = build(op, self.env)
        except UnsupportedOpError as e:
            raise NotRunnable(str(e)) from None
        result = fn(*args)
        if not op.results:
            return ()
        return (result,) if len(op.results) == 1 else tuple(result)

    def hip_op(self, op: hip.HipDPSOp, args: list[Any]) -> Sequence[Any]:
        if not op.is_tensor_mode:
            raise NotRunnable(f"'{op.name}' on memrefs in a tensor-level stage")
        twin, block = _memref_twin(op)
        self.keep.append(block)
        try:
            fn = build(twin, self.env)
        except UnsupportedOpError as e:
            raise NotRunnable(str(e)) from None
        n_out = len(op.outputs)
        inits: list[DeviceArray] = args[len(args) - n_out :]
        fresh: list[DeviceArray] = []
        for init, value in zip(inits, op.outputs):
            out = self.runtime.empty(init.shape, init.dtype)
            if not isinstance(value.owner, tensor.EmptyOp):
                self.runtime.copy(init, out)
            fresh.append(out)
        with np.errstate(all="ignore"):
            fn(*args[: len(args) - n_out], *fresh)
        return fresh


# The driver.


def _opset(model: Any) -> int:
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return int(entry.version)
    return 17


def _passes(pipeline: str | None, directory: str) -> list[ModulePass]:
    if pipeline is None:
        return onnx_to_hip_passes(externalize_output_dir=directory)
    built = build_pipeline(pipeline, {"externalize-output-dir": directory})
    return list(expand_composite_passes(built))


@dataclass
class _Compiled:
    stages: list[tuple[str, ModuleOp]]
    signature: Signature
    constants: bytes
    failure: tuple[int, str, str] | None
    """(pass number, name, message) of a pass that raised."""
    injected: str | None


def _compile(
    imported: ModuleOp, pipeline: str | None, inject: Injection | None
) -> _Compiled:
    signature = Signature.from_function(_main(imported))
    module = imported.clone()
    stages: list[tuple[str, ModuleOp]] = [(IMPORT_STAGE, imported.clone())]
    injected: str | None = None
    current: list[ModulePass | None] = [None]

    def keep(prev: ModulePass | None, op: ModuleOp, nxt: ModulePass | None) -> None:
        nonlocal signature, injected
        current[0] = nxt
        if prev is None:
            return
        if inject is not None and len(stages) == inject.after:
            injected = inject_bug(op, inject.kind)
            if injected is None:
                raise VerifyError(
                    f"--inject-bug: nothing to corrupt ({inject.kind}) after pass "
                    f"{inject.after} ({prev.name})"
                )
        stages.append((prev.name, op.clone()))
        function = next(
            (
                f
                for f in op.ops
                if isinstance(f, func.FuncOp) and f.sym_name.data == "main_graph"
            ),
            None,
        )
        results = function.function_type.outputs.data if function else ()
        if results and all(isinstance(t, MemRefType) for t in results):
            assert function is not None
            signature = signature.with_result_dims(function)

    failure: tuple[int, str, str] | None = None
    with tempfile.TemporaryDirectory(prefix="xhip-verify-") as directory:
        passes = _passes(pipeline, directory)
        if inject is not None and inject.after > len(passes):
            raise VerifyError(
                f"--inject-bug: the pipeline has {len(passes)} passes, not {inject.after}"
            )
        try:
            PassPipeline(tuple(passes), keep).apply(make_context(), module)
        except DiagnosticException as e:
            failing = current[0]
            name = failing.name if failing is not None else "?"
            lines = [x.strip() for x in str(e).splitlines() if x.strip()]
            failure = (len(stages), name, lines[0] if lines else "failed")
        path = os.path.join(directory, CONSTANTS_FILE)
        constants = b""
        if os.path.exists(path):
            with open(path, "rb") as f:
                constants = f.read()
    return _Compiled(stages, signature, constants, failure, injected)


def _first_line(error: BaseException) -> str:
    lines = [x.strip() for x in str(error).splitlines() if x.strip()]
    text = lines[0] if lines else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def run_stage(
    module: ModuleOp,
    signature: Signature,
    constants: bytes,
    inputs: Mapping[str, np.ndarray],
    opset: int,
    *,
    debug: bool = True,
    fuse: bool = False,
) -> tuple[dict[str, np.ndarray], str]:
    """One stage's outputs on `inputs`, and the engine that ran it; raises
    `NotRunnable` if no engine can."""
    runtime = CpuRuntime(debug=debug)
    runtime.max_memory = physical_memory()
    function = _main(module)
    if _is_tensor_stage(function):
        blob = None
        if constants:
            blob = runtime.upload(np.frombuffer(constants, dtype=np.uint8), copy=True)
        env = BuildEnv(runtime, module, blob)
        engine = _TensorEngine(module, env, opset)
        kind = (
            "onnxruntime"
            if all(
                isinstance(op, onnx_dialect.OnnxOp | func.ReturnOp)
                for op in function.body.block.ops
            )
            else "tensor"
        )
        return engine.run(inputs), kind
    model = _StageModel(module, signature, constants, runtime, fuse)
    try:
        outputs = model(dict(inputs))
    except UnsupportedOpError as e:
        raise NotRunnable(str(e)) from None
    return outputs, model.engine


def verify_passes(
    model: str | os.PathLike[str],
    *,
    dims: Mapping[str, int] | None = None,
    inputs: Mapping[str, np.ndarray] | None = None,
    seed: int = 0,
    pipeline: str | None = None,
    rtol: float = RTOL,
    atol: float = ATOL,
    inject: Injection | None = None,
    debug: bool = True,
) -> Report:
    """Run every stage of the pipeline on the same inputs, against ONNX Runtime.

    Raises `OnnxImportError` for a model that does not import,
    `xhip.pipeline.PipelineError` for a bad `pipeline`, `InputError` for inputs
    that do not fit, `VerifyError` when ONNX Runtime cannot run the model.
    """
    path = os.fspath(model)
    imported = import_model(path)
    proto = onnx.load(path, load_external_data=False)
    opset = _opset(proto)
    signature = Signature.from_function(_main(imported))
    feeds = random_inputs(signature, dims or {}, seed, inputs or {})
    signature.bind(feeds)  # wrong names, ranks, dims, dtypes: InputError
    want = reference_outputs(path, feeds)
    compiled = _compile(imported, pipeline, inject)
    report = Report(feeds, injected=compiled.injected)
    rows = [
        (i, name, module, False) for i, (name, module) in enumerate(compiled.stages)
    ]
    if compiled.failure is None and len(compiled.stages) > 1:
        last = compiled.stages[-1][1]
        if not _is_tensor_stage(_main(last)):
            rows.append((len(compiled.stages), FUSED_STAGE, last, True))
    for number, name, module, fuse in rows:
        try:
            got, engine = run_stage(
                module,
                compiled.signature,
                compiled.constants,
                feeds,
                opset,
                debug=debug,
                fuse=fuse,
            )
        except NotRunnable as e:
            report.stages.append(StageResult(number, name, "not run", detail=str(e)))
            continue
        except Exception as e:  # a stage that crashes is a broken stage
            report.stages.append(
                StageResult(number, name, "failed", detail=_first_line(e))
            )
            continue
        error, relative, problem = compare(got, want, rtol, atol)
        status: Status = "ok" if problem is None else "differs"
        report.stages.append(
            StageResult(number, name, status, error, relative, problem or "", engine)
        )
    if compiled.failure is not None:
        number, name, message = compiled.failure
        report.stages.append(
            StageResult(number, name, "failed", detail=f"the pass raised: {message}")
        )
    return report
