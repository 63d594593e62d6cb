"""Compile time stays linear in the model's size (docs/benchmarks.md, "Compile
time"), guarded by counting work, never by timing it: a loaded machine cannot
fail these tests.

- `onnx-to-hip` as a whole: 4x the attention layers, about 4x the Python calls.
- xDSL's `cse`, patched by `xhip.transforms.xdsl_patches` to scope its table of
  known ops instead of copying it into every region: the same output as xDSL's
  own driver, and the entries it copies do not grow with the function.
- The operand-segment accessors, patched to decode each distinct
  `operandSegmentSizes` once: the same groups as xDSL's.
- The hip compute ops' memory effects, each operand group read once: the same
  as built from `op.inputs` / `op.outputs`.
- Looking a pass up in xDSL's Multiverse applies the patches (`xhip.universe`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation
from xdsl.irdl.operations import (
    BaseAccessor,
    BaseAttrAccessor,
    BeforeVariadicSingleAccessor,
)
from xdsl.traits import EffectInstance, MemoryEffectKind, get_effects
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
    CSEDriver,
    KnownOps,
)
from xdsl.universe import Universe

from xhip.context import make_context
from xhip.dialects import hip
from xhip.pipeline import onnx_to_hip_passes
from xhip.testing import count_calls, parse_module
from xhip.transforms import xdsl_patches

X = "tensor<?x?x64xf32>"
W = "tensor<64x64xf32>"
S = "tensor<?x?x?xf32>"
KT = "tensor<?x64x?xf32>"


def attention_layers(layers: int) -> str:
    """`layers` attention layers in the onnx dialect, each feeding the next
    (the seed's layer: 8 ONNX nodes, splat weights)."""
    lines: list[str] = []
    src = "%x"
    for i in range(layers):
        lines += [
            *(
                f'%w{j}_{i} = "onnx.Constant"() {{value = dense<0.{j + 1}> : {W}}} '
                f": () -> {W}"
                for j in range(3)
            ),
            f'%sc_{i} = "onnx.Constant"() {{value = dense<1.25e-01> : tensor<f32>}}'
            " : () -> tensor<f32>",
            *(
                f'%{n}_{i} = "onnx.MatMul"({src}, %w{j}_{i}) : ({X}, {W}) -> {X}'
                for j, n in enumerate("qkv")
            ),
            f'%kt_{i} = "onnx.Transpose"(%k_{i}) <{{perm = [0, 2, 1]}}> : ({X}) -> {KT}',
            f'%s_{i} = "onnx.MatMul"(%q_{i}, %kt_{i}) : ({X}, {KT}) -> {S}',
            f'%ss_{i} = "onnx.Mul"(%s_{i}, %sc_{i}) : ({S}, tensor<f32>) -> {S}',
            f'%p_{i} = "onnx.Softmax"(%ss_{i}) <{{axis = -1 : si64}}> : ({S}) -> {S}',
            f'%o_{i} = "onnx.MatMul"(%p_{i}, %v_{i}) : ({S}, {X}) -> {X}',
        ]
        src = f"%o_{i}"
    body = "\n  ".join(lines)
    return (
        f"func.func @main_graph(%x: {X}) -> {X} {{\n  {body}\n"
        f"  func.return {src} : {X}\n}}\n"
        '"onnx.EntryPoint"() <{func = @main_graph}> : () -> ()\n'
    )


def copied_entries(action: Callable[[], object]) -> int:
    """How many known-op entries xDSL's `KnownOps(parent)` copies while `action`
    runs: work done inside `dict(...)`, which counting Python calls misses."""
    copied = 0
    init = KnownOps.__init__

    def counting_init(self: KnownOps, known_ops: KnownOps | None = None) -> None:
        nonlocal copied
        if known_ops is not None:
            copied += len(known_ops._known_ops)  # pyright: ignore[reportPrivateUsage]
        init(self, known_ops)

    KnownOps.__init__ = counting_init
    try:
        action()
    finally:
        KnownOps.__init__ = init
    return copied


def _pipeline_work(layers: int, tmp_dir: str) -> int:
    ctx = make_context()
    module = parse_module(attention_layers(layers))
    passes = onnx_to_hip_passes(externalize_output_dir=tmp_dir)

    def run() -> None:
        for p in passes:
            p.apply(ctx, module)

    calls = 0

    def counted() -> None:
        nonlocal calls
        calls = count_calls(run)

    copied = copied_entries(counted)
    return calls + copied


def test_pipeline_scales_linearly(tmp_path: Path) -> None:
    """4x the layers must cost about 4x the work, every pass included."""
    _pipeline_work(1, str(tmp_path))  # first-use work (imports, caches)
    small, large = _pipeline_work(4, str(tmp_path)), _pipeline_work(16, str(tmp_path))
    assert large < 4.6 * small, (small, large)


# cse


def regions(count: int) -> str:
    """A function with `count` single-block regions among pure ops, as pass 11
    sees them (one `scf.if` per freed buffer), with duplicates inside and out."""
    lines = [
        "func.func @f(%m: memref<?xf32>, %cond: i1, %v: f32) {",
        "  %c0 = arith.constant 0 : index",
    ]
    for i in range(count):
        lines += [
            f"  %k{i} = arith.constant {i + 1} : index",
            f"  %d{i} = memref.dim %m, %c0 : memref<?xf32>",
            f"  %s{i} = arith.addi %d{i}, %k{i} : index",
            "  scf.if %cond {",
            f"    %in{i} = arith.addi %d{i}, %k{i} : index",
            "    %j = arith.constant 1000 : index",
            f"    %t{i} = arith.addi %in{i}, %j : index",
            f"    memref.store %v, %m[%t{i}] : memref<?xf32>",
            "    scf.if %cond {",
            f"      %deep{i} = arith.addi %d{i}, %k{i} : index",
            f"      memref.store %v, %m[%deep{i}] : memref<?xf32>",
            "    }",
            "  }",
            f"  %l{i} = memref.load %m[%s{i}] : memref<?xf32>",
            f"  memref.store %l{i}, %m[%c0] : memref<?xf32>",
        ]
    lines += ["  func.return", "}"]
    return "\n".join(lines)


@pytest.fixture
def xdsl_cse(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """xDSL's own driver, which copies the table into every region."""
    monkeypatch.setattr(
        CSEDriver, "_simplify_region", xdsl_patches.XDSL_SIMPLIFY_REGION
    )
    yield


def _cse(module: ModuleOp) -> str:
    CommonSubexpressionElimination().apply(make_context(), module)
    return str(module)


def _pass_11_input() -> ModuleOp:
    """The seed attention model as `cse` (pass 11) first sees it."""
    ctx = make_context()
    module = parse_module(attention_layers(3))
    for p in onnx_to_hip_passes(externalize_output_dir="."):
        if p.name == "cse":
            return module
        p.apply(ctx, module)
    raise AssertionError("onnx-to-hip runs no cse")


@pytest.mark.parametrize("source", ["regions", "pipeline"])
def test_scoped_cse_gives_xdsl_output(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def module() -> ModuleOp:
        return parse_module(regions(4)) if source == "regions" else _pass_11_input()

    xdsl_patches.scope_cse_known_ops()
    ours = _cse(module())
    monkeypatch.setattr(
        CSEDriver, "_simplify_region", xdsl_patches.XDSL_SIMPLIFY_REGION
    )
    theirs = _cse(module())
    assert ours == theirs
    if source == "regions":  # the duplicates went, inside the regions too
        assert "%in0" not in ours and "%deep0" not in ours and "%d1" not in ours


def _cse_work(count: int) -> int:
    module = parse_module(regions(count))
    work = 0

    def run() -> None:
        nonlocal work
        work = count_calls(lambda: _cse(module))

    copied = copied_entries(run)
    return work + copied


def test_scoped_cse_scales_linearly() -> None:
    """4x the regions, about 4x the work (3.95x); xDSL's copies make it 4.9x
    here, and worse the longer the function."""
    xdsl_patches.scope_cse_known_ops()
    small, large = _cse_work(100), _cse_work(400)
    assert large < 4.4 * small, (small, large)


def test_xdsl_cse_copies_quadratically(xdsl_cse: None) -> None:
    """What the patch fixes, so that the test above would see it come back."""
    small = copied_entries(lambda: _cse(parse_module(regions(50))))
    large = copied_entries(lambda: _cse(parse_module(regions(200))))
    assert large > 10 * small > 0, (small, large)


# effects


EFFECT_OPS = """
func.func @f(%ctx: !hip.context, %a: memref<2x3x4xf32>, %b: memref<2x4x3xf32>,
             %w: memref<4x4xf32>, %s: memref<1x3x4xf32>, %t: tensor<2x3x4xf32>,
             %ti: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  hip.transpose(%ctx, %c1, %c2) ins(%a : memref<2x3x4xf32>) outs(%b : memref<2x4x3xf32>)
  hip.slice(%ctx, %c1, %c0, %c0) ins(%a : memref<2x3x4xf32>) outs(%s : memref<1x3x4xf32>) {steps = array<i64: 1, 1, 1>}
  hip.hipblaslt.matmul(%ctx) ins(%a, %w : memref<2x3x4xf32>, memref<4x4xf32>) outs(%a : memref<2x3x4xf32>)
  hip.miopen.add(%ctx) ins(%a, %a : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%a : memref<2x3x4xf32>)
  %r = hip.miopen.relu(%ctx) ins(%t : tensor<2x3x4xf32>) outs(%ti : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}
"""


def test_effects_match_irdl_accessors() -> None:
    module = parse_module(EFFECT_OPS)
    ops: list[Operation] = [o for o in module.walk() if isinstance(o, hip.HipDPSOp)]
    assert len(ops) == 5
    for op in ops:
        assert isinstance(op, hip.HipDPSOp)
        assert op.is_tensor_mode == isinstance(op.outputs[0].type, TensorType)
        expected = (
            set()
            if op.is_tensor_mode
            else {EffectInstance(MemoryEffectKind.READ, v) for v in op.inputs}
            | {EffectInstance(MemoryEffectKind.WRITE, v) for v in op.outputs}
        )
        assert get_effects(op) == expected, op.name


def test_segment_accessors_give_xdsl_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every operand, result and region group of every op, through the patched
    accessors or xDSL's, the same values in the same kind of sequence."""
    module = parse_module(EFFECT_OPS)
    ops = list(module.walk()) + list(_pass_11_input().walk())

    def groups() -> list[tuple[object, ...]]:
        found: list[tuple[object, ...]] = []
        for op in ops:
            if not isinstance(op, IRDLOperation):
                continue
            definition = op.get_irdl_definition()
            for name, _ in (
                *definition.operands,
                *definition.results,
                *definition.regions,
            ):
                value = getattr(op, name)
                found.append(
                    (type(value), *value)
                    if isinstance(value, Sequence)
                    else (type(value), value)
                )
        return found

    xdsl_patches.cache_segment_sizes()
    ours = groups()
    assert len(ours) > 100
    monkeypatch.setattr(
        BaseAttrAccessor, "__get__", xdsl_patches.XDSL_SEGMENT_ACCESSOR_GET
    )
    monkeypatch.setattr(BaseAccessor, "__get__", xdsl_patches.XDSL_ACCESSOR_GET)
    monkeypatch.setattr(
        BeforeVariadicSingleAccessor, "__get__", xdsl_patches.XDSL_ACCESSOR_GET
    )
    assert ours == groups()


def test_looking_up_a_pass_applies_the_patches(monkeypatch: pytest.MonkeyPatch) -> None:
    """`xhip.universe` registers the patches on xDSL's `cse` and `canonicalize`
    and on every xhip pass, through the Multiverse where `xdsl-opt` looks."""
    passes = Universe.get_multiverse().all_passes
    for name in ("cse", "canonicalize", "one-shot-bufferize"):
        monkeypatch.setattr(
            CSEDriver, "_simplify_region", xdsl_patches.XDSL_SIMPLIFY_REGION
        )
        monkeypatch.setattr(
            BaseAttrAccessor, "__get__", xdsl_patches.XDSL_SEGMENT_ACCESSOR_GET
        )
        passes[name]()
        assert CSEDriver._simplify_region is not xdsl_patches.XDSL_SIMPLIFY_REGION  # pyright: ignore[reportPrivateUsage]
        assert BaseAttrAccessor.__get__ is not xdsl_patches.XDSL_SEGMENT_ACCESSOR_GET
