"""The xDSL interpreter functions and the plan on index arithmetic, views and earlier stages."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from tests.pytest.backend.conftest import module_with_globals, parse_stage, stage
from xhip.backend.cpu import CpuRuntime
from xhip.backend.interpreter import (
    BuildEnv,
    HipContext,
    Plan,
    UnsupportedOpError,
    find_function,
    make_interpreter,
)
from xhip.backend.reference import AttentionWeights
from xhip.backend.runtime import Buffer, DeviceArray
from xhip.backend.session import CompiledModel, Signature
from xhip.context import make_context
from xhip.dialects import hip
from xhip.transforms.hip_fuse_scaled_softmax import HipFuseScaledSoftmaxPass

ARITH = """
builtin.module {
  func.func @f(%a: index, %b: index) -> (index, index, index, index, index, index, index) {
    %0 = arith.divui %a, %b : index
    %1 = arith.remui %a, %b : index
    %2 = arith.ceildivui %a, %b : index
    %3 = arith.divsi %a, %b : index
    %4 = arith.ceildivsi %a, %b : index
    %5 = arith.maxui %a, %b : index
    %6 = arith.muli %a, %b : index
    func.return %0, %1, %2, %3, %4, %5, %6 : index, index, index, index, index, index, index
  }
}
"""


def expected_arith(a: int, b: int) -> tuple[int, ...]:
    mask = (1 << 64) - 1

    def signed(x: int) -> int:
        x &= mask
        return x - (1 << 64) if x >> 63 else x

    ua, ub = a & mask, b & mask
    trunc = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
    return (
        signed(ua // ub),
        signed(ua % ub),
        signed(-(-ua // ub)),
        trunc,
        -(-a // b),
        signed(max(ua, ub)),
        signed(a * b),
    )


@pytest.mark.parametrize("a,b", [(1023, 256), (7, 7), (0, 3), (-7, 2), (5, -2)])
def test_index_arithmetic(a: int, b: int) -> None:
    module = Parser(make_context(), ARITH).parse_module()
    env = BuildEnv(CpuRuntime())
    interpreter = make_interpreter(module, env)
    assert interpreter.call_op("f", (a, b)) == expected_arith(a, b)
    assert Plan(find_function(module, "f"), env)(a, b) == expected_arith(a, b)


def attention_inputs(batch: int, seq: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    return rng.standard_normal((batch, seq, 64)).astype(np.float32)


@pytest.mark.parametrize("number", [4, 6, 14, 15, 16, 19, 20])
@pytest.mark.parametrize("engine", ["plan", "interpreter"])
def test_earlier_memref_stages_run(number: int, engine: str) -> None:
    """From bufferization on, every stage computes the model (memref.alloc,
    dealloc, get_global of externalized constants, memref.view pools...)."""
    module = (
        parse_stage(stage(number))
        if number not in (15, 16, 20)
        else (module_with_globals(number))
    )
    weights = AttentionWeights.random(3)
    function = find_function(module, "main_graph")
    signature = Signature.from_function(function)
    model = CompiledModel(
        module,
        signature,
        weights.constants_blob(),
        CpuRuntime(debug=True),
        engine=engine,  # type: ignore[arg-type]
    )
    x = attention_inputs(2, 6)
    out = model({"X": x})["out"]
    want = weights.reference(x)
    assert np.max(np.abs(out - want)) <= 1e-5 * np.max(np.abs(want))


def test_stage_returning_a_memref() -> None:
    """Stage 3 still returns its result; the session takes it from the return."""
    module = parse_stage(stage(3))
    weights = AttentionWeights.random(4)
    signature = Signature.from_function(find_function(module, "main_graph"))
    assert [o.name for o in signature.outputs] == ["out"]
    model = CompiledModel(module, signature, weights.constants_blob())
    x = attention_inputs(1, 3)
    np.testing.assert_allclose(
        model({"X": x})["out"], weights.reference(x), rtol=1e-5, atol=1e-6
    )


def test_tensor_stage_is_unsupported() -> None:
    module = parse_stage(stage(2))
    with pytest.raises(UnsupportedOpError):
        Plan(find_function(module, "main_graph"), BuildEnv(CpuRuntime(), module))


def test_external_global_without_blob_is_a_clear_error() -> None:
    module = parse_stage(stage(14))
    with pytest.raises(UnsupportedOpError, match="no constants blob"):
        Plan(find_function(module, "main_graph"), BuildEnv(CpuRuntime(), module))


# The memref value model.

F32 = np.dtype(np.float32)


def base(n: int = 4096) -> DeviceArray:
    buffer = Buffer(np.arange(n, dtype=np.uint8), n)
    return DeviceArray.contiguous(buffer, 0, (n,), np.dtype(np.uint8))


def test_view_and_extent() -> None:
    v = base().view(256, (2, 3, 4), F32)
    assert v.strides == (12, 4, 1) and v.offset == 256
    assert v.byte_extent() == (256, 256 + 24 * 4)


def test_reinterpret_counts_from_the_aligned_pointer() -> None:
    v = base().view(256, (4, 4), F32)
    r = v.reinterpret(2, (2, 2), (4, 1))
    assert r.offset == 256 + 8 and r.strides == (4, 1)


def test_subview_drops_unit_dims() -> None:
    v = base().view(0, (4, 5, 6), F32)
    s = v.subview([1, 2, 0], [1, 2, 6], [1, 1, 1], (2, 6))
    assert s.shape == (2, 6) and s.strides == (6, 1) and s.offset == (30 + 12) * 4


def test_collapse_and_expand() -> None:
    v = base().view(0, (2, 3, 4), F32)
    c = v.collapse([[0, 1], [2]])
    assert c.shape == (6, 4) and c.strides == (4, 1)
    e = c.expand([[0, 1], [2]], (2, 3, 4))
    assert e.shape == (2, 3, 4) and e.strides == (12, 4, 1)


def test_collapse_of_non_contiguous_dims_is_refused() -> None:
    v = base().view(0, (4, 6), F32).subview([0, 0], [4, 3], [1, 1], (4, 3))
    from xhip.backend.runtime import MemoryPlanError

    with pytest.raises(MemoryPlanError, match="non-contiguous"):
        v.collapse([[0, 1]])


def test_cast_module_runs(final_module: ModuleOp) -> None:
    """memref.cast in a hand-written function: the value passes through."""
    text = """
    builtin.module {
      func.func @g(%a: memref<2x3xf32>) -> index {
        %c1 = arith.constant 1 : index
        %0 = memref.cast %a : memref<2x3xf32> to memref<?x?xf32>
        %1 = memref.dim %0, %c1 : memref<?x?xf32>
        func.return %1 : index
      }
    }
    """
    module = Parser(make_context(), text).parse_module()
    rt = CpuRuntime(debug=True)
    value = rt.upload(np.zeros((2, 3), np.float32))
    env = BuildEnv(rt)
    assert make_interpreter(module, env).call_op("g", (value,)) == (3,)
    assert Plan(find_function(module, "g"), env)(value) == (3,)


def test_elementwise_functions_run_on_both_engines() -> None:
    """pow, exp, neg, sigmoid, sqrt and tanh, chained in place and out of it."""
    text = """
    builtin.module {
      func.func @f(%ctx: !hip.context, %x: memref<2x3xf32>, %p: memref<f32>, %y: memref<2x3xf32>) {
        %t = memref.alloc() : memref<2x3xf32>
        hip.miopen.pow(%ctx) ins(%x, %p : memref<2x3xf32>, memref<f32>) outs(%t : memref<2x3xf32>)
        hip.miopen.sqrt(%ctx) ins(%t : memref<2x3xf32>) outs(%t : memref<2x3xf32>)
        hip.miopen.neg(%ctx) ins(%t : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
        hip.miopen.exp(%ctx) ins(%y : memref<2x3xf32>) outs(%t : memref<2x3xf32>)
        hip.miopen.sigmoid(%ctx) ins(%t : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
        hip.miopen.tanh(%ctx) ins(%y : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
        memref.dealloc %t : memref<2x3xf32>
        func.return
      }
    }
    """
    module = Parser(make_context(), text).parse_module()
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    t = np.exp(-np.sqrt(x.astype(np.float64) ** 3))
    want = np.tanh(1 / (1 + np.exp(-t)))
    env = BuildEnv(CpuRuntime(debug=True))
    runs = {
        "interpreter": lambda *a: make_interpreter(module, env).call_op("f", a),
        "plan": Plan(find_function(module, "f"), env),
    }
    for name, run in runs.items():
        rt = env.runtime
        p = rt.upload(np.array(3, np.float32))
        y = rt.empty((2, 3), np.dtype(np.float32))
        run(None, rt.upload(x), p, y)
        np.testing.assert_allclose(rt.download(y), want, rtol=1e-6, err_msg=name)


PRODUCT_READ_AGAIN = """
func.func @f(%ctx: !hip.context, %x: memref<4x8xf32>, %s: memref<f32>, %p: memref<4x8xf32>, %y: memref<4x8xf32>, %z: memref<4x8xf32>) {
  %t = memref.alloc() : memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%x, %s : memref<4x8xf32>, memref<f32>) outs(%t : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%t : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  hip.miopen.add(%ctx) ins(%t, %x : memref<4x8xf32>, memref<4x8xf32>) outs(%z : memref<4x8xf32>)
  memref.dealloc %t : memref<4x8xf32>
  hip.miopen.mul(%ctx) ins(%x, %s : memref<4x8xf32>, memref<f32>) outs(%p : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%p : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  func.return
}
"""


def test_scaled_softmax_fuses_only_a_product_nothing_else_reads() -> None:
    """A product read again (`%t`), or written to an argument (`%p`), must exist."""
    module = Parser(make_context(), PRODUCT_READ_AGAIN).parse_module()
    HipFuseScaledSoftmaxPass().apply(make_context(), module)
    softmaxes = [op for op in module.walk() if isinstance(op, hip.SoftmaxOp)]
    assert [len(op.inputs) for op in softmaxes] == [1, 1]
    runtime = CpuRuntime()
    plan = Plan(find_function(module, "f"), BuildEnv(runtime))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    s = np.array(0.5, np.float32)
    p, y, z = (np.zeros((4, 8), np.float32) for _ in range(3))
    args = [runtime.upload(a) for a in (x, s, p, y, z)]
    plan(HipContext(runtime), *args)
    x64 = x.astype(np.float64) * 0.5
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(runtime.download(args[4]), x64 + x, rtol=1e-6)
    np.testing.assert_allclose(runtime.download(args[2]), x64, rtol=1e-6)
    np.testing.assert_allclose(
        runtime.download(args[3]), e / e.sum(axis=-1, keepdims=True), rtol=1e-6
    )
