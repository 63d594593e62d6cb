"""Debug mode's `ClobberCheck` watches every `outs` of a multi-output op.

A layer norm writes y, mean and inv_std; a conv its y and workspace. A memory
plan that puts any of them over a value still to be read is a bug, not only
one that puts the last `outs` there.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from xhip.backend.cpu import CpuRuntime
from xhip.backend.runtime import MemoryPlanError
from xhip.backend.session import CompiledModel, Signature, TensorSpec
from xhip.context import make_context

F32 = np.dtype(np.float32)
SIG = Signature(
    (
        TensorSpec("a", F32, (4, 4)),
        TensorSpec("b", F32, (4, 4)),
        TensorSpec("s", F32, (4,)),
    ),
    (TensorSpec("out", F32, (4, 4)),),
)
T = "memref<4x4xf32>"
S = "memref<4x1xf32>"


def layer_norm_ir(y_offset: int) -> ModuleOp:
    """t1 = a + b at byte 0 of a pool; y, mean, inv_std = LayerNorm(a) with y
    at `y_offset`; out = t1 - y. t1 is read after the layer norm, so y at
    offset 0 clobbers it; mean and inv_std sit apart at 128 and 192."""
    text = f"""
    func.func @main_graph(%ctx: !hip.context, %a: {T}, %b: {T}, %s: memref<4xf32>, %out: {T}) {{
      %c0 = arith.constant 0 : index
      %cy = arith.constant {y_offset} : index
      %cm = arith.constant 128 : index
      %cv = arith.constant 192 : index
      %size = arith.constant 256 : index
      %pool = hip.alloc(%ctx, %size) : memref<?xi8>
      %t1 = memref.view %pool[%c0][] : memref<?xi8> to {T}
      %y = memref.view %pool[%cy][] : memref<?xi8> to {T}
      %m = memref.view %pool[%cm][] : memref<?xi8> to {S}
      %v = memref.view %pool[%cv][] : memref<?xi8> to {S}
      hip.miopen.add(%ctx) ins(%a, %b : {T}, {T}) outs(%t1 : {T})
      hip.miopen.layer_norm(%ctx) ins(%a, %s : {T}, memref<4xf32>) outs(%y, %m, %v : {T}, {S}, {S}) {{axis = 1 : i64, epsilon = 1.000000e-05 : f32}}
      hip.miopen.sub(%ctx) ins(%t1, %y : {T}, {T}) outs(%out : {T})
      hip.free(%ctx, %pool) : memref<?xi8>
      func.return
    }}
    """
    return Parser(make_context(), f"builtin.module {{{text}}}").parse_module()


def run(module: ModuleOp) -> np.ndarray:
    rng = np.random.default_rng(0)
    feeds = {
        "a": rng.standard_normal((4, 4)).astype(F32),
        "b": rng.standard_normal((4, 4)).astype(F32),
        "s": rng.standard_normal(4).astype(F32),
    }
    model = CompiledModel(module, SIG, None, CpuRuntime(debug=True))
    return model(feeds)["out"]


def test_separate_outs_of_a_multi_output_op_pass() -> None:
    assert np.isfinite(run(layer_norm_ir(64))).all()


def test_first_outs_of_a_multi_output_op_clobbering_a_live_value_is_caught() -> None:
    with pytest.raises(
        MemoryPlanError, match=r"'hip.miopen.layer_norm' writes %y over bytes of %t1"
    ):
        run(layer_norm_ir(0))
