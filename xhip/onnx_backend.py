"""xhip as an `onnx.backend.base.Backend`, so tools written against that
interface (onnx's own backend test runner among them) run models through xhip.

    from xhip.onnx_backend import XhipBackend
    rep = XhipBackend.prepare(model, "CPU")   # imports and compiles once
    (y,) = rep.run([x])                       # inputs in graph input order

Devices are onnx's names: "CPU" is xhip's `cpu` runtime, "CUDA" its `cuda`
runtime (CuPy); onnx has no name for an AMD GPU.

Sequences and optionals (`docs/sequences.md`): a sequence output comes back
as a list of arrays, an absent optional as None; a sequence input is given as
a list (an absent optional as None), and the model is compiled per length
(and per element shapes), since the length decides its structure.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, cast

import numpy as np
import onnx
from onnx import helper
from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict

from xhip.api import compile as compile_model
from xhip.backend import DeviceUnavailable, runtime_for
from xhip.frontend import OnnxImportError, import_model
from xhip.frontend.sequence_types import (
    gather_outputs,
    is_structured,
    structure_key,
    with_tensor_inputs,
)
from xhip.specialize import Model
from xhip.specialize_values import untyped, value_inputs

_RUNTIMES = {DeviceType.CPU: "cpu", DeviceType.CUDA: "cuda"}


def _runtime_name(device: str) -> str:
    """xhip's runtime for an onnx device string ("CPU", "CUDA", "CUDA:0")."""
    try:
        parsed = Device(device)
    except (AttributeError, ValueError):
        raise DeviceUnavailable(f"unknown onnx device {device!r}") from None
    if parsed.device_id != 0:
        raise DeviceUnavailable(f"{device}: xhip runs on device 0 only")
    return _RUNTIMES[parsed.type]


@cache
def _runtime_works(name: str) -> bool:
    """Whether `name`'s runtime can be made here (its library and a device)."""
    try:
        runtime_for(name).close()
    except DeviceUnavailable:
        return False
    return True


class XhipBackendRep(BackendRep):
    """A compiled model; `run` may be called any number of times.

    The runtime is closed by `close()` or when the rep is collected: onnx's
    test runner drops reps without closing them, and an open CPU runtime
    holds BLAS at one thread process-wide.
    """

    def __init__(
        self,
        model: Model,
        graph: onnx.ModelProto | None = None,
    ):
        self.model = model
        self.close = weakref.finalize(self, model.close)
        self.graph = graph
        """The model, where it has sequence or optional outputs to gather."""
        names = (
            [v.name for v in graph.graph.output]
            if graph is not None
            else [spec.name for spec in model.signature.outputs]
        )
        self._output_type = namedtupledict("Outputs", names)

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Outputs in graph output order, also readable by name (`out["y"]`).

        `inputs` is a sequence in graph input order (initializers left out),
        a mapping by name, or one array for a one-input model.
        """
        named = self._named(inputs)
        outputs = self.model(named)
        if self.graph is not None:
            return self._output_type(*gather_outputs(self.graph, outputs))
        return self._output_type(
            *(outputs[spec.name] for spec in self.model.signature.outputs)
        )

    def _named(self, inputs: Any) -> Mapping[str, Any]:
        if isinstance(inputs, Mapping):
            return inputs
        specs = self.model.signature.inputs
        arrays = [inputs] if isinstance(inputs, np.ndarray) else list(inputs)
        if len(arrays) != len(specs):
            expected = ", ".join(spec.describe() for spec in specs)
            raise ValueError(f"got {len(arrays)} inputs; the model takes {expected}")
        return {spec.name: array for spec, array in zip(specs, arrays)}


class SequenceInputRep(BackendRep):
    """A model with sequence or optional inputs: compiled per their structure
    (presence, length, element shapes), the last `max_specializations` kept."""

    def __init__(
        self,
        model: onnx.ModelProto,
        device: str,
        debug: bool,
        max_specializations: int = 8,
    ):
        self.model = model
        self.device = device
        self.debug = debug
        self.max_specializations = max_specializations
        initializers = {t.name for t in model.graph.initializer}
        self.inputs = [v.name for v in model.graph.input if v.name not in initializers]
        self._cache: OrderedDict[tuple[Any, ...], XhipBackendRep] = OrderedDict()

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        """As `XhipBackendRep.run`; a sequence input is a list of arrays."""
        if isinstance(inputs, Mapping):
            named: dict[str, Any] = dict(cast(Mapping[str, Any], inputs))
        else:
            given = list(inputs)
            if len(given) != len(self.inputs):
                raise ValueError(
                    f"got {len(given)} inputs; the model takes {len(self.inputs)}"
                )
            named = dict(zip(self.inputs, given, strict=True))
        key = structure_key(self.model, named)
        expanded, arrays = with_tensor_inputs(self.model, named)
        rep = self._cache.get(key)
        if rep is None:
            compiled = compile_model(expanded, self.device, debug=self.debug)
            rep = XhipBackendRep(compiled, expanded)
            self._cache[key] = rep
            while len(self._cache) > self.max_specializations:
                _, dropped = self._cache.popitem(last=False)
                dropped.close()
        self._cache.move_to_end(key)
        return rep.run(arrays)


class XhipBackend(Backend):
    """Compiles with `onnx-to-hip` and runs on one of xhip's runtimes."""

    @classmethod
    def is_compatible(
        cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any
    ) -> bool:
        """Whether the importer reads `model` (its ops, element types, opset).

        The importer's check is the one `prepare` runs, so the two cannot
        disagree; its `OnnxImportError` says what is missing. True does not
        promise a compile: the pipeline converts fewer ops than the importer
        reads, and `convert-onnx-to-hip` lists those it cannot. A model
        whose types only its small integer inputs decide is compiled per
        their values (`xhip.specialize_values`), so it counts.
        """
        if not cls.supports_device(device):
            return False
        try:
            import_model(model)
        except OnnxImportError as error:
            return untyped(error) and bool(value_inputs(model))
        return True

    @classmethod
    def prepare(
        cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any
    ) -> XhipBackendRep | SequenceInputRep:
        """Import and compile `model` once; `debug=True` runs the runtime's
        debug mode. Other keywords (onnx's test runner passes its tolerances)
        are ignored, as the base class allows."""
        runtime = _runtime_name(device)
        debug = bool(kwargs.get("debug"))
        if any(is_structured(v.type) for v in model.graph.input):
            import_model(model)  # what it cannot read fails here, once
            return SequenceInputRep(model, runtime, debug)
        compiled = compile_model(model, runtime, debug=debug)
        outputs = [v.type for v in model.graph.output]
        return XhipBackendRep(
            compiled, model if any(is_structured(t) for t in outputs) else None
        )

    @classmethod
    def run_node(
        cls,
        node: onnx.NodeProto,
        inputs: Any,
        device: str = "CPU",
        outputs_info: Sequence[tuple[np.dtype[Any], tuple[int, ...]]] | None = None,
        **kwargs: Any,
    ) -> tuple[Any, ...]:
        """One node as a one-node model over `inputs` (a sequence in
        `node.input` order); `opset_version` picks the opset (default: the
        newest this onnx knows). Output types come from shape inference, so
        `outputs_info` is not needed."""
        arrays = [np.asarray(a) for a in inputs]
        names = [name for name in node.input if name]
        values = [
            helper.make_tensor_value_info(
                name, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape
            )
            for name, a in zip(names, arrays)
        ]
        opset = int(kwargs.pop("opset_version", onnx.defs.onnx_opset_version()))
        model = helper.make_model(
            helper.make_graph([node], node.op_type, values, []),
            opset_imports=[helper.make_opsetid("", opset)],
        )
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        types = {v.name: v for v in inferred.graph.value_info}
        model.graph.output.extend(types[name] for name in node.output if name)
        return cls.prepare(model, device, **kwargs).run(arrays)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        """True for "CPU", and for "CUDA" where CuPy finds a GPU."""
        try:
            return _runtime_works(_runtime_name(device))
        except DeviceUnavailable:
            return False


prepare = XhipBackend.prepare
run_model = XhipBackend.run_model
run_node = XhipBackend.run_node
supports_device = XhipBackend.supports_device
is_compatible = XhipBackend.is_compatible
