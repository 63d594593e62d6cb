"""Whole models through `CudaRuntime` and `HipRuntime` on the CPU stand-in of
their device API: the seed's final IR against its float64 reference and the
CPU runtime, and the models the test suite builds, compiled with xhip,
against ONNX Runtime. Small shapes: every GPU thread is a fiber here."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.backend.conftest import FINAL, parse_stage, stage
from tests.pytest.conftest import REPO
from tests.pytest.frontend.models import attention_example
from tests.pytest.frontend.test_api import flatten_model, reshape_model
from tests.pytest.test_pipeline import reshaping_block
from xhip.api import CompiledIR
from xhip.backend.cpu import CpuRuntime
from xhip.backend.gpu import KernelRuntime
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import CompiledModel, Signature
from xhip.context import make_context
from xhip.testing.emulator import EmulatedDevice

pytestmark = pytest.mark.emulator


@pytest.fixture(scope="module")
def seed() -> tuple[Any, Signature, AttentionWeights]:
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    function = Parser(make_context(), stage(20).read_text()).parse_op()
    assert isinstance(function, FuncOp)
    return (
        parse_stage(FINAL),
        Signature.from_function(function),
        AttentionWeights.random(0),
    )


def _x(batch: int, seq: int, hidden: int = 64) -> np.ndarray:
    rng = np.random.default_rng(batch * 100 + seq)
    return rng.standard_normal((batch, seq, hidden)).astype(np.float32)


@pytest.mark.parametrize("batch,seq", [(1, 1), (2, 37)])
def test_the_seed(
    gpu: KernelRuntime,
    seed: tuple[Any, Signature, AttentionWeights],
    batch: int,
    seq: int,
) -> None:
    module, signature, weights = seed
    x = _x(batch, seq)
    out = CompiledModel(module, signature, weights.constants_blob(), gpu)({"X": x})[
        "out"
    ]
    want = weights.reference(x)
    assert np.max(np.abs(out - want)) <= 1e-5 * np.max(np.abs(want))
    cpu = CpuRuntime()
    try:
        on_cpu = CompiledModel(module, signature, weights.constants_blob(), cpu)(
            {"X": x}
        )
    finally:
        cpu.close()
    np.testing.assert_allclose(out, on_cpu["out"], rtol=1e-5, atol=1e-6)
    device = gpu.device
    assert isinstance(device, EmulatedDevice)
    # hip-fuse-attention: the scores never leave the flash kernel.
    assert "xhip_flash_attention_f32" in device.launches and device.gemms


@pytest.mark.parametrize("engine", ["plan", "interpreter"])
def test_the_seed_in_debug_mode(
    make_gpu: Callable[..., KernelRuntime],
    seed: tuple[Any, Signature, AttentionWeights],
    engine: str,
) -> None:
    """NaN-poisoned memory and every check on: the GPU runtimes' plans too."""
    module, signature, weights = seed
    gpu = make_gpu(debug=True)
    model = CompiledModel(
        module, signature, weights.constants_blob(), gpu, engine=engine
    )  # type: ignore[arg-type]
    x = _x(2, 9)
    want = weights.reference(x)
    out = model({"X": x})["out"]
    assert np.max(np.abs(out - want)) <= 1e-5 * np.max(np.abs(want))


def transformer_block() -> onnx.ModelProto:
    """`build_block` of notebooks/transformer_block.ipynb, read from the notebook."""
    notebook = json.loads((REPO / "notebooks" / "transformer_block.ipynb").read_text())
    cell = next(
        "".join(c["source"])
        for c in notebook["cells"]
        if c["cell_type"] == "code" and "def build_block" in "".join(c["source"])
    )
    tree = ast.parse(cell)
    keep = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.Assign)
        and not (isinstance(node, ast.Assign) and "build_block" in ast.unparse(node))
    ]
    namespace: dict[str, Any] = {
        "np": np, "onnx": onnx, "helper": helper, "numpy_helper": numpy_helper,
        "TensorProto": TensorProto,
    }  # fmt: skip
    exec(compile(ast.Module(keep, []), "transformer_block.ipynb", "exec"), namespace)
    return namespace["build_block"]()


MODELS: dict[str, tuple[Callable[[], Any], str, tuple[int, ...]]] = {
    "attention": (lambda: attention_example().build(), "X", (2, 5, 64)),
    "flatten_matmul": (flatten_model, "x", (3, 5, 16)),
    "reshape_relu": (reshape_model, "x", (3, 4, 32)),
    "reshaping_block": (reshaping_block, "X", (2, 5, 32)),
    "transformer_block": (transformer_block, "X", (2, 6, 32)),
}


@pytest.fixture(scope="module")
def compiled() -> dict[str, tuple[onnx.ModelProto, CompiledIR]]:
    made = {}
    for name, (build, _, _) in MODELS.items():
        model = build()
        made[name] = (model, xhip.compile_to_ir(model))
    return made


@pytest.mark.parametrize("name", MODELS)
def test_compiled_models_match_onnxruntime(
    gpu: KernelRuntime,
    compiled: dict[str, tuple[onnx.ModelProto, CompiledIR]],
    name: str,
) -> None:
    model, ir = compiled[name]
    _, input_name, shape = MODELS[name]
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    want = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    ).run(None, {input_name: x})
    got = CompiledModel(ir.module, ir.signature, ir.constants, gpu)({input_name: x})
    assert len(got) == len(want)
    for (out_name, value), expected in zip(got.items(), want):
        np.testing.assert_allclose(
            value, expected, rtol=1e-4, atol=1e-5, err_msg=out_name
        )
