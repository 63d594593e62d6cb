"""Passes 7-14: every allocation freed exactly once, after its last use; clear
errors for what is not supported; linear time."""

from __future__ import annotations

import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException

from tests.pytest.conftest import STAGES
from xhip.context import make_context
from xhip.testing import count_calls
from xhip.transforms.buffer_deallocation_pipeline import BufferDeallocationPipelinePass
from xhip.transforms.bufferization_lower_deallocations import (
    BufferizationLowerDeallocationsPass,
)
from xhip.transforms.ownership_based_buffer_deallocation import (
    OwnershipBasedBufferDeallocationPass,
)


def parse(text: str) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def pipeline(text: str) -> ModuleOp:
    module = parse(text)
    BufferDeallocationPipelinePass().apply(make_context(), module)
    module.verify()
    return module


def chain(layers: int) -> str:
    """Chained attention-like layers with dynamic shapes."""
    t = "memref<?x?x64xf32>"
    lines = [
        "func.func @chain(%ctx: !hip.context, %x: memref<?x?x64xf32>, "
        "%w: memref<64x64xf32>, %out: memref<?x?x64xf32>) {",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c2 = arith.constant 2 : index",
        f"  %b = memref.dim %x, %c0 : {t}",
        f"  %n = memref.dim %x, %c1 : {t}",
    ]
    prev = "%x"
    for i in range(layers):
        dst = "%out" if i == layers - 1 else f"%o{i}"
        lines += [
            f"  %q{i} = memref.alloc(%b, %n) : {t}",
            f"  hip.hipblaslt.matmul(%ctx) ins({prev}, %w : {t}, memref<64x64xf32>) "
            f"outs(%q{i} : {t})",
            f"  %kt{i} = memref.alloc(%b, %n) : memref<?x64x?xf32>",
            f"  hip.transpose(%ctx, %c1, %c2) ins(%q{i} : {t}) "
            f"outs(%kt{i} : memref<?x64x?xf32>)",
            f"  %s{i} = memref.alloc(%b, %n, %n) : memref<?x?x?xf32>",
            f"  hip.hipblaslt.matmul(%ctx) ins(%q{i}, %kt{i} : {t}, memref<?x64x?xf32>) "
            f"outs(%s{i} : memref<?x?x?xf32>)",
        ]
        if i != layers - 1:
            lines.append(f"  %o{i} = memref.alloc(%b, %n) : {t}")
        lines.append(
            f"  hip.hipblaslt.matmul(%ctx) ins(%s{i}, %q{i} : memref<?x?x?xf32>, {t}) "
            f"outs({dst} : {t})"
        )
        prev = dst
    lines += ["  func.return", "}"]
    return "\n".join(lines)


def check_freed_once_after_last_use(block: Block) -> None:
    """Each allocation of the block is freed once, after every use, in the block."""
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    freed: dict[SSAValue, int] = {}
    for op in ops:
        if isinstance(op, memref.DeallocOp):
            assert op.memref not in freed, f"{op.memref} freed twice"
            freed[op.memref] = position[op]
    allocs = [op.memref for op in ops if isinstance(op, memref.AllocOp)]
    assert set(freed) == set(allocs)
    for value in allocs:
        last_use = max(
            position[block.find_ancestor_op_in_block(use.operation)]  # type: ignore[index]
            for use in value.uses
            if not isinstance(use.operation, memref.DeallocOp)
        )
        assert freed[value] > last_use


def test_seed_every_alloc_freed_once_in_alloc_order() -> None:
    module = pipeline((STAGES / "after-pass-06-canonicalize.mlir").read_text())
    body = next(op for op in module.walk() if isinstance(op, func.FuncOp)).body.block
    check_freed_once_after_last_use(body)
    allocs = [op.memref for op in body.ops if isinstance(op, memref.AllocOp)]
    freed = [op.memref for op in body.ops if isinstance(op, memref.DeallocOp)]
    assert freed == allocs and len(allocs) == 7
    tail = list(body.ops)[-8:]
    assert all(isinstance(op, memref.DeallocOp) for op in tail[:-1])


def test_seed_pipeline_matches_stage_14() -> None:
    mine = pipeline((STAGES / "after-pass-06-canonicalize.mlir").read_text())
    expected = parse(
        (STAGES / "after-pass-14-buffer-deallocation-pipeline.mlir").read_text()
    )
    assert mine.is_structurally_equivalent(expected)


def test_chain_arguments_and_globals_never_freed() -> None:
    module = pipeline(chain(5))
    body = next(op for op in module.walk() if isinstance(op, func.FuncOp)).body.block
    check_freed_once_after_last_use(body)
    assert not any(
        isinstance(op, memref.DeallocOp) and op.memref in body.args for op in body.ops
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "func.func @f(%m: memref<?xf32>, %n: index) {\n"
            "  %r = memref.realloc %m(%n) : memref<?xf32> to memref<?xf32>\n"
            "  func.return\n}",
            "'memref.realloc' frees a buffer; the input must not free buffers; "
            "run expand-realloc first",
        ),
        (
            "func.func @f() {\n  %a = memref.alloc() : memref<2xf32>\n"
            "  memref.dealloc %a : memref<2xf32>\n  func.return\n}",
            "'memref.dealloc' frees a buffer",
        ),
        (
            "func.func @f(%c: i1) -> memref<2xf32> {\n"
            "  %r = scf.if %c -> (memref<2xf32>) {\n"
            "    %a = memref.alloc() : memref<2xf32>\n    scf.yield %a : memref<2xf32>\n"
            "  } else {\n    %b = memref.alloc() : memref<2xf32>\n"
            "    scf.yield %b : memref<2xf32>\n  }\n"
            "  func.return %r : memref<2xf32>\n}",
            "'scf.if' yields or iterates on memrefs",
        ),
        (
            "func.func @f(%c: i1) {\n  cf.cond_br %c, ^a, ^b\n^a:\n  func.return\n"
            "^b:\n  func.return\n}",
            "@f has more than one block",
        ),
    ],
    ids=["realloc", "dealloc", "scf-if-yields-memref", "multi-block"],
)
def test_unsupported_input_is_a_clear_error(text: str, message: str) -> None:
    module = parse(text)
    with pytest.raises(DiagnosticException, match=message.replace("(", r"\(")):
        OwnershipBasedBufferDeallocationPass().apply(make_context(), module)


def test_lowering_of_possibly_aliasing_memrefs_is_a_clear_error() -> None:
    module = parse(
        "func.func @f(%a: memref<2xf32>, %b: memref<2xf32>, %c: i1) {\n"
        "  bufferization.dealloc (%a, %b : memref<2xf32>, memref<2xf32>) if (%c, %c)\n"
        "  func.return\n}"
    )
    with pytest.raises(DiagnosticException, match="run-time helper function"):
        BufferizationLowerDeallocationsPass().apply(make_context(), module)


def _pipeline_calls(layers: int) -> int:
    module = parse(chain(layers))
    ctx = make_context()
    return count_calls(lambda: BufferDeallocationPipelinePass().apply(ctx, module))


def test_pipeline_scales_linearly() -> None:
    """4x the layers must cost about 4x the work, not 16x (what a quadratic pass would)."""
    _pipeline_calls(2)
    small, large = _pipeline_calls(25), _pipeline_calls(100)
    assert large < 5 * small, (small, large)
