"""xhip as an `onnx.backend.base.Backend`, so tools written against that
interface (onnx's own backend test runner among them) run models through xhip.

    from xhip.onnx_backend import XhipBackend
    rep = XhipBackend.prepare(model, "CPU")   # imports and compiles once
    (y,) = rep.run([x])                       # inputs in graph input order

Devices are onnx's names: "CPU" is xhip's `cpu` runtime, "CUDA" its `cuda`
runtime (CuPy); onnx has no name for an AMD GPU.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
import onnx
from onnx import helper
from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict

from xhip.api import compile as compile_model
from xhip.backend import DeviceUnavailable, runtime_for
from xhip.backend.session import CompiledModel
from xhip.frontend import OnnxImportError, import_model
from xhip.specialize import SpecializingModel

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

    def __init__(self, model: CompiledModel | SpecializingModel):
        self.model = model
        self.close = weakref.finalize(self, model.close)
        self._output_type = namedtupledict(
            "Outputs", [spec.name for spec in model.signature.outputs]
        )

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Outputs in graph output order, also readable by name (`out["y"]`).

        `inputs` is a sequence in graph input order (initializers left out),
        a mapping by name, or one array for a one-input model.
        """
        named = self._named(inputs)
        outputs = self.model(named)
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
        reads, and `convert-onnx-to-hip` lists those it cannot.
        """
        if not cls.supports_device(device):
            return False
        try:
            import_model(model)
        except OnnxImportError:
            return False
        return True

    @classmethod
    def prepare(
        cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any
    ) -> XhipBackendRep:
        """Import and compile `model` once; `debug=True` runs the runtime's
        debug mode. Other keywords (onnx's test runner passes its tolerances)
        are ignored, as the base class allows."""
        runtime = _runtime_name(device)
        compiled = compile_model(model, runtime, debug=bool(kwargs.get("debug")))
        return XhipBackendRep(compiled)

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
