"""Buffer liveness: first and last uses through aliases, escapes, deallocs."""

from __future__ import annotations

from xdsl.dialects import func

from tests.pytest.conftest import STAGES
from xhip.analysis.liveness import BufferLiveness
from xhip.testing import parse_module


def function(text: str) -> func.FuncOp:
    module = parse_module(text)
    return next(op for op in module.walk() if isinstance(op, func.FuncOp))


def test_seed_stage_14_ranges():
    (path,) = STAGES.glob("after-pass-14-*.mlir")
    block = function(path.read_text()).body.blocks[0]
    live = BufferLiveness(block)
    allocs = live.allocs()
    assert len(allocs) == 7
    ops = list(block.ops)
    ranges = [tuple(ops[i].name for i in info.live_range) for info in allocs]
    assert ranges[0] == ("hip.hipblaslt.matmul", "hip.hipblaslt.matmul")
    assert ranges[5] == ("hip.miopen.mul", "hip.miopen.softmax")
    assert all(len(info.deallocs) == 1 and info.is_local_alloc for info in allocs)
    # alloc_4 is dead before the softmax, alloc_5 is not (softmax reads it).
    softmax = next(op for op in ops if op.name == "hip.miopen.softmax")
    assert live.is_dead_before(allocs[4].value, softmax)
    assert not live.is_dead_before(allocs[5].value, softmax)
    assert live.info(block.args[2]).def_index == -1


def test_aliases_nested_uses_and_escapes():
    f = function(
        """
func.func @f(%ctx: !hip.context, %x: memref<4x8xf32>, %n: index) -> memref<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4x8xf32>
  %cast = memref.cast %a : memref<4x8xf32> to memref<?x8xf32>
  %r = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %n step %c1 {
    hip.miopen.relu(%ctx) ins(%x : memref<4x8xf32>) outs(%r : memref<4x8xf32>)
  }
  hip.miopen.relu(%ctx) ins(%cast : memref<?x8xf32>) outs(%cast : memref<?x8xf32>)
  memref.dealloc %a : memref<4x8xf32>
  func.return %r : memref<4x8xf32>
}
"""
    )
    block = f.body.blocks[0]
    live = BufferLiveness(block)
    ops = list(block.ops)
    a, r = live.allocs()
    assert live.root(ops[3].results[0]) is a.value
    assert [ops[i].name for i in a.uses] == ["memref.cast", "hip.miopen.relu"]
    assert not a.escapes and len(a.deallocs) == 1
    assert [ops[i].name for i in r.uses] == ["scf.for"]
    assert r.escapes and not r.is_local_alloc
    assert live.value_uses(ops[3].results[0]) == [a.uses[-1]]


def test_merge_updates_uses_and_aliases_in_place():
    """What `hip-optimize-memrefs` relies on instead of rebuilding the analysis."""
    f = function(
        """
func.func @f(%ctx: !hip.context, %x: memref<4x8xf32>, %y: memref<?x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  memref.dealloc %a : memref<4x8xf32>
  %b = memref.alloc() : memref<4x8xf32>
  %cast = memref.cast %b : memref<4x8xf32> to memref<?x8xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  hip.miopen.relu(%ctx) ins(%cast : memref<?x8xf32>) outs(%y : memref<?x8xf32>)
  memref.dealloc %b : memref<4x8xf32>
  func.return
}
"""
    )
    block = f.body.blocks[0]
    live = BufferLiveness(block)
    a, b = live.allocs()
    cast = list(block.ops)[4].results[0]
    (b_dealloc,) = b.deallocs
    live.merge(a, b, b_dealloc)
    assert live.root(cast) is a.value and live.info(b.value) is a
    assert a.uses == [1, 4, 5, 6] and a.deallocs == [b_dealloc]
    assert live.allocs() == [a]
