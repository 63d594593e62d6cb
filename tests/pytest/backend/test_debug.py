"""Debug mode turns memory-planning bugs into errors or NaN, not plausible numbers."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import Buffer, DeviceArray, MemoryPlanError, check_view
from xhip.backend.session import CompiledModel, Signature, TensorSpec
from xhip.context import make_context

F32 = np.dtype(np.float32)
SIG = Signature(
    (TensorSpec("a", F32, (4, 4)), TensorSpec("b", F32, (4, 4))),
    (TensorSpec("out", F32, (4, 4)),),
)
TYPE = "memref<4x4xf32>"


def plan_ir(second_offset: int, write_second: bool = True) -> ModuleOp:
    """t1 = a + b at byte 0 and t2 = a * b at `second_offset` of one pool;
    out = t1 - t2. Both temporaries are live at the subtraction, so they must
    not overlap: offsets below 64 are a planning bug."""
    write = (
        f"hip.miopen.mul(%ctx) ins(%a, %b : {TYPE}, {TYPE}) outs(%t2 : {TYPE})"
        if write_second
        else ""
    )
    text = f"""
    func.func @main_graph(%ctx: !hip.context, %a: {TYPE}, %b: {TYPE}, %out: {TYPE}) {{
      %c0 = arith.constant 0 : index
      %off = arith.constant {second_offset} : index
      %size = arith.constant 256 : index
      %pool = hip.alloc(%ctx, %size) : memref<?xi8>
      %t1 = memref.view %pool[%c0][] : memref<?xi8> to {TYPE}
      %t2 = memref.view %pool[%off][] : memref<?xi8> to {TYPE}
      hip.miopen.add(%ctx) ins(%a, %b : {TYPE}, {TYPE}) outs(%t1 : {TYPE})
      {write}
      hip.miopen.sub(%ctx) ins(%t1, %t2 : {TYPE}, {TYPE}) outs(%out : {TYPE})
      hip.free(%ctx, %pool) : memref<?xi8>
      func.return
    }}
    """
    return Parser(make_context(), f"builtin.module {{{text}}}").parse_module()


def inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {n: rng.standard_normal((4, 4)).astype(np.float32) for n in ("a", "b")}


def expected(x: dict[str, np.ndarray]) -> np.ndarray:
    a, b = (x[n].astype(np.float64) for n in ("a", "b"))
    return (a + b) - a * b


def run(module: ModuleOp, debug: bool, engine: str = "plan") -> np.ndarray:
    model = CompiledModel(
        module,
        SIG,
        None,
        CpuRuntime(debug=debug),
        engine=engine,  # type: ignore[arg-type]
        # Fused, the three ops would not write the overlapping buffers the
        # plans below share on purpose.
        fuse_elementwise=False,
    )
    return model(inputs())["out"]


def test_correct_plan_passes_in_debug_mode() -> None:
    for engine in ("plan", "interpreter"):
        got = run(plan_ir(64), debug=True, engine=engine)
        np.testing.assert_allclose(got, expected(inputs()), rtol=1e-6)


def test_overlapping_plan_gives_a_wrong_answer_without_debug() -> None:
    got = run(plan_ir(32), debug=False)
    assert not np.allclose(got, expected(inputs()), rtol=1e-3)


def test_overlapping_plan_is_an_error_in_debug_mode() -> None:
    with pytest.raises(MemoryPlanError, match=r"writes %t2 over bytes of %t1"):
        run(plan_ir(32), debug=True)


def test_unwritten_pool_memory_reads_as_nan_in_debug_mode() -> None:
    got = run(plan_ir(64, write_second=False), debug=True)
    assert np.isnan(got).all()


def test_view_outside_its_buffer_is_an_error_in_debug_mode() -> None:
    with pytest.raises(MemoryPlanError, match="outside its buffer"):
        run(plan_ir(208), debug=True)  # 208 + 64 > 256


def test_freed_memory_is_poisoned_and_checked() -> None:
    rt = CpuRuntime(debug=True)
    value = rt.empty((4,), F32)
    rt.array(value)[...] = 1.0
    native = rt.array(value)
    rt.free(value.buffer)
    assert np.isnan(native).all()
    with pytest.raises(MemoryPlanError, match="freed"):
        check_view(value)
    with pytest.raises(MemoryPlanError, match="double free"):
        rt.free(value.buffer)


def test_output_overlapping_an_input_is_an_error_in_debug_mode() -> None:
    rt = CpuRuntime(debug=True)
    from xhip.backend.runtime import check_call

    buffer = Buffer(np.zeros(64, np.uint8), 64)
    a = DeviceArray.contiguous(buffer, 0, (8,), F32)
    shifted = DeviceArray.contiguous(buffer, 16, (8,), F32)
    check_call("hip.miopen.relu", (a,), a, inplace_ok=True)  # exactly in place: fine
    with pytest.raises(MemoryPlanError, match="overlap input 0"):
        check_call("hip.miopen.relu", (a,), shifted, inplace_ok=True)
    with pytest.raises(MemoryPlanError, match="overlap input 0"):
        check_call("hip.hipblaslt.matmul", (a,), a, inplace_ok=False)
    rt.close()


def conv_over_its_input(relu: bool) -> ModuleOp:
    """x copied into the pool at byte 0, then a 3x3 conv of it whose out is
    also at byte 0 (as a plan may place a fused Relu's out: `%t` dies at
    the conv), its workspace at byte 512."""
    x, w, t = "memref<1x2x6x6xf32>", "memref<2x2x3x3xf32>", "memref<1x2x4x4xf32>"
    attrs = "strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, "
    attrs += "pads = array<i64: 0, 0, 0, 0>, group = 1 : i64"
    text = f"""
    func.func @main_graph(%ctx: !hip.context, %x: {x}, %w: {w}, %out: {t}) {{
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %size = arith.constant 2048 : index
      %pool = hip.alloc(%ctx, %size) : memref<?xi8>
      %in = memref.view %pool[%c0][] : memref<?xi8> to {x}
      %u = memref.view %pool[%c0][] : memref<?xi8> to {t}
      %ws = memref.view %pool[%c512][] : memref<?xi8> to memref<288xf32>
      hip.copy(%ctx) ins(%x : {x}) outs(%in : {x})
      hip.miopen.conv(%ctx) ins(%in, %w : {x}, {w}) outs(%u, %ws : {t}, memref<288xf32>) {{{attrs}{", relu" if relu else ""}}}
      hip.copy(%ctx) ins(%u : {t}) outs(%out : {t})
      hip.free(%ctx, %pool) : memref<?xi8>
      func.return
    }}
    """
    return Parser(make_context(), f"builtin.module {{{text}}}").parse_module()


@pytest.mark.parametrize("engine", ["plan", "interpreter"])
def test_a_conv_with_its_relu_may_write_over_its_input(engine: str) -> None:
    """`copies_overlaps`: the CPU runtime writes a fused Relu's conv through
    a copy where its out overlaps an operand, so debug mode lets it, and
    the result is Relu(conv); the same plan for a plain conv is an error."""
    sig = Signature(
        (TensorSpec("x", F32, (1, 2, 6, 6)), TensorSpec("w", F32, (2, 2, 3, 3))),
        (TensorSpec("out", F32, (1, 2, 4, 4)),),
    )
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 6, 6)).astype(np.float32)
    w = rng.standard_normal((2, 2, 3, 3)).astype(np.float32)
    windows = np.lib.stride_tricks.sliding_window_view(
        x.astype(np.float64), (3, 3), axis=(2, 3)
    )
    want = np.maximum(np.einsum("nchwij,mcij->nmhw", windows, w), 0.0)

    def model(relu: bool) -> CompiledModel:
        runtime = CpuRuntime(debug=True)
        module = conv_over_its_input(relu)
        return CompiledModel(module, sig, None, runtime, engine=engine, fuse=False)  # type: ignore[arg-type]

    got = model(True)({"x": x, "w": w})["out"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    with pytest.raises(MemoryPlanError, match="overlap"):
        model(False)({"x": x, "w": w})
