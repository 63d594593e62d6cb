"""hip-optimize-memrefs on long chains: buffers are handed on, in linear time."""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp

from xhip.context import make_context
from xhip.testing import count_calls, parse_module
from xhip.transforms.hip_optimize_memrefs import HipOptimizeMemrefsPass

X = "memref<?x?x64xf32>"
KT = "memref<?x64x?xf32>"
S = "memref<?x?x?xf32>"


def chain(layers: int) -> str:
    """Attention-like layers with dynamic shapes, each buffer freed after its last
    use, as passes 7-14 leave them."""
    lines = [
        f"func.func @chain(%ctx: !hip.context, %x: {X}, %w: memref<64x64xf32>, "
        f"%out: {X}) {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c2 = arith.constant 2 : index",
        f"  %b = memref.dim %x, %c0 : {X}",
        f"  %n = memref.dim %x, %c1 : {X}",
    ]
    prev = "%x"
    for i in range(layers):
        out = "%out" if i == layers - 1 else f"%o{i}"
        lines += [
            f"  %q{i} = memref.alloc(%b, %n) : {X}",
            f"  hip.hipblaslt.matmul(%ctx) ins({prev}, %w : {X}, memref<64x64xf32>) "
            f"outs(%q{i} : {X})",
            *([f"  memref.dealloc {prev} : {X}"] if prev != "%x" else []),
            f"  %kt{i} = memref.alloc(%b, %n) : {KT}",
            f"  hip.transpose(%ctx, %c1, %c2) ins(%q{i} : {X}) outs(%kt{i} : {KT})",
            f"  %s{i} = memref.alloc(%b, %n, %n) : {S}",
            f"  hip.hipblaslt.matmul(%ctx) ins(%q{i}, %kt{i} : {X}, {KT}) "
            f"outs(%s{i} : {S})",
            f"  memref.dealloc %kt{i} : {KT}",
            f"  %p{i} = memref.alloc(%b, %n, %n) : {S}",
            f"  hip.miopen.softmax(%ctx) ins(%s{i} : {S}) outs(%p{i} : {S})",
            f"  memref.dealloc %s{i} : {S}",
            *([f"  %o{i} = memref.alloc(%b, %n) : {X}"] if out != "%out" else []),
            f"  hip.hipblaslt.matmul(%ctx) ins(%p{i}, %q{i} : {S}, {X}) "
            f"outs({out} : {X})",
            f"  memref.dealloc %p{i} : {S}",
            f"  memref.dealloc %q{i} : {X}",
        ]
        prev = out
    lines += ["  func.return", "}"]
    return "\n".join(lines)


def optimized(layers: int) -> ModuleOp:
    module = parse_module(chain(layers))
    HipOptimizeMemrefsPass().apply(make_context(), module)
    module.verify()
    return module


def allocs_and_deallocs(module: ModuleOp) -> tuple[int, int]:
    body = next(op for op in module.walk() if isinstance(op, func.FuncOp)).body.block
    allocs = sum(isinstance(op, memref.AllocOp) for op in body.ops)
    deallocs = sum(isinstance(op, memref.DeallocOp) for op in body.ops)
    return allocs, deallocs


def test_chain_needs_the_same_buffers_at_any_length() -> None:
    """Layer i's buffers serve layer i + 2: a few buffers, whatever the depth."""
    few = allocs_and_deallocs(optimized(3))
    many = allocs_and_deallocs(optimized(40))
    assert few == many
    assert few == (5, 5)  # q, kt, s, p, o: one of each


UNUSED_DONOR = """
func.func @f(%ctx: !hip.context, %x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %e = memref.alloc() : memref<4x8xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x8xf32>) outs(%e : memref<4x8xf32>)
  hip.miopen.relu(%ctx) ins(%e : memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  %u = memref.alloc() : memref<4x8xf32>
  memref.dealloc %e : memref<4x8xf32>
  %f = memref.alloc() : memref<4x8xf32>
  hip.miopen.relu(%ctx) ins(%x : memref<4x8xf32>) outs(%f : memref<4x8xf32>)
  hip.miopen.relu(%ctx) ins(%f : memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  memref.dealloc %u : memref<4x8xf32>
  memref.dealloc %f : memref<4x8xf32>
  func.return
}
"""


def test_unused_donor_takes_a_donor_in_turn() -> None:
    """`%f` takes `%u` (never used, dead last); `%u`, now first used there, takes
    `%e`: one buffer is left, freed after the last use."""
    module = parse_module(UNUSED_DONOR)
    HipOptimizeMemrefsPass().apply(make_context(), module)
    module.verify()
    body = next(op for op in module.walk() if isinstance(op, func.FuncOp)).body.block
    (alloc,) = [op for op in body.ops if isinstance(op, memref.AllocOp)]
    (dealloc,) = [op for op in body.ops if isinstance(op, memref.DeallocOp)]
    assert dealloc.memref is alloc.memref
    assert dealloc is body.last_op.prev_op  # pyright: ignore[reportOptionalMemberAccess]
    assert sum(1 for _ in alloc.memref.uses) == 5


def _pass_calls(layers: int) -> int:
    module = parse_module(chain(layers))
    ctx = make_context()
    return count_calls(lambda: HipOptimizeMemrefsPass().apply(ctx, module))


def test_pass_scales_linearly() -> None:
    """4x the layers must cost about 4x the work, not 16x (what a quadratic pass would)."""
    _pass_calls(2)
    small, large = _pass_calls(50), _pass_calls(200)
    assert large < 5 * small, (small, large)
