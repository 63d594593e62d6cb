"""`xhip.explore`: stages, diffs, summaries, pool formulas and the memory plan.

Seed stages are the inputs where the pipeline is not needed; the numbers are
checked against the seed's own statement of the pool size and against
`xhip.analysis.pool_layout`, which runs the IR's arithmetic independently.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from matplotlib.patches import Rectangle

from tests.pytest.conftest import STAGES
from xhip.explore import (
    FormulaError,
    FormulaReader,
    MemoryPlan,
    Stage,
    Walkthrough,
    load_example,
)
from xhip.explore.stages import entry_function
from xhip.testing import parse_module

STAGE_FILES = sorted(STAGES.glob("after-pass-*.mlir"))


def align(n: int, to: int = 256) -> int:
    return -(-n // to) * to


def seed_pool_bytes(batch: int, seq: int) -> int:
    """The seed's own words: 4 * align256(batch*seq*64*4) + 2 * align256(batch*seq*seq*4)."""
    return 4 * align(batch * seq * 64 * 4) + 2 * align(batch * seq * seq * 4)


@pytest.fixture(scope="module")
def seed() -> Walkthrough:
    return Walkthrough.from_files(STAGE_FILES)


def test_seed_stages_are_numbered_and_named(seed: Walkthrough):
    assert [s.index for s in seed] == [1, 2, 3, 4, 6, 14, 15, 16, 19, 20, 21]
    assert seed[16].name == "hip-pool-allocs"
    assert seed["hip-lower-allocs"].index == 20
    assert seed.final.index == 21
    with pytest.raises(IndexError, match="no stage 5"):
        seed[5]
    with pytest.raises(KeyError, match="0 stages named 'cse'"):
        seed["cse"]
    # A function-only stage is read inside the module printed before it.
    assert "memref.global" in seed[15].text and "hip_ext_constant_0" in seed[15].text


def test_dim_names_survive_the_stage_that_drops_them(seed: Walkthrough):
    assert "onnx.dim_params" not in seed[21].text
    assert seed[21].dim_names[1] == {0: "batch", 1: "seq"}


def test_summary_counts_ops_and_allocations(seed: Walkthrough):
    counts = {
        s.index: (s.summary().allocations, s.summary().deallocations) for s in seed
    }
    assert counts[3] == (8, 0)
    assert counts[4] == (7, 0)
    assert counts[14] == (7, 7)
    assert counts[15] == (6, 6)
    assert counts[16] == counts[21] == (1, 1)
    first = seed[1].summary()
    # 4 constants, 8 compute ops and the entry point.
    assert first.ops_by_dialect["onnx"] == 13
    assert first.ops["onnx.MatMul"] == 5
    assert first.pool_formula is None
    assert seed[20].summary().ops["hip.alloc"] == 1


@pytest.mark.parametrize("index", [16, 19, 20, 21])
def test_pool_formula_matches_the_seed(seed: Walkthrough, index: int):
    summary = seed[index].summary({"batch": 2, "seq": 128})
    # Before and after the cleanup passes: the same quantity, read the same way.
    assert summary.pool_formula == "1024*batch*seq + 2*align256(4*batch*seq^2)"
    assert summary.pool_bytes == seed_pool_bytes(2, 128) == 512 * 1024


def test_formulas_agree_with_the_ir_arithmetic(seed: Walkthrough):
    rng = random.Random(0)
    for index in (16, 21):
        plan = seed[index].memory_plan()
        for _ in range(5):
            dims = {"batch": rng.randint(1, 5), "seq": rng.randint(1, 300)}
            by_ir = plan.evaluate(dims)
            by_formula = plan.evaluate_formulas(dims)
            assert by_ir.pool_bytes == by_formula.pool_bytes
            assert by_ir.pool_bytes == seed_pool_bytes(dims["batch"], dims["seq"])
            assert by_ir.buffers == by_formula.buffers
            assert by_ir.problems == []


def test_memory_plan_of_the_seed(seed: Walkthrough):
    plan = seed[16].memory_plan()
    assert [b.name for b in plan.buffers] == [
        "view", "view_1", "view_2", "view_3", "view_4", "view_5",
    ]  # fmt: skip
    assert plan.steps == [
        "matmul", "matmul", "matmul", "transpose", "matmul", "mul", "softmax", "matmul",
    ]  # fmt: skip
    view_4 = plan.buffers[4]
    # Pass 15 made softmax write into the QK^T buffer: it lives to the last op.
    assert (view_4.first, view_4.last) == (4, 7)
    assert plan.formula(view_4.offset) == "1024*batch*seq"
    assert plan.formula(view_4.size) == "4*batch*seq^2"
    b, s = 2, 128
    placed = plan.evaluate({"batch": b, "seq": s})
    # Step 4 (Q @ K^T): Q, V, K^T and the scores are live; K died at the transpose.
    projection, scores = b * s * 64 * 4, b * s * s * 4
    assert placed.live_bytes[4] == 3 * projection + scores
    assert placed.peak_bytes == max(placed.live_bytes) == 3 * projection + scores
    assert placed.peak_step == 4
    assert placed.sharing() == [] and placed.conflicts() == []


def test_memory_plan_picture(seed: Walkthrough):
    placed = seed.final.memory_plan().evaluate({"batch": 2, "seq": 128})
    figure = placed.figure()
    (ax,) = figure.axes
    boxes = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(boxes) == 6
    for box, buffer in zip(boxes, placed.buffers):
        assert box.get_y() == buffer.offset and box.get_height() == buffer.size
    levels = sorted(line.get_ydata()[0] for line in ax.lines)
    assert levels == [placed.peak_bytes, placed.pool_bytes]
    assert placed._repr_png_().startswith(b"\x89PNG")


def test_sharing_and_conflicts_are_told_apart():
    """Two views at the same offset: fine if their lives do not meet, wrong if they do."""
    text = """
    func.func @f(%ctx: !hip.context, %x: memref<?x8xf32> {onnx.dim_params = "0:n"}) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %n = memref.dim %x, %c0 : memref<?x8xf32>
      %bytes = arith.muli %n, %c32 : index
      %pool = hip.alloc(%ctx, %bytes) : memref<?xi8>
      %a = memref.view %pool[%c0][%n] : memref<?xi8> to memref<?x8xf32>
      %b = memref.view %pool[%c0][%n] : memref<?xi8> to memref<?x8xf32>
      hip.copy(%ctx) ins(%x : memref<?x8xf32>) outs(%a : memref<?x8xf32>)
      hip.copy(%ctx) ins(%a : memref<?x8xf32>) outs(%x : memref<?x8xf32>)
      hip.copy(%ctx) ins(%x : memref<?x8xf32>) outs(%b : memref<?x8xf32>)
      hip.copy(%ctx) ins(%b : memref<?x8xf32>) outs(%X : memref<?x8xf32>)
      hip.free(%ctx, %pool) : memref<?xi8>
      func.return
    }
    """
    good = _plan(text.replace("%X", "%x"))
    placed = good.evaluate({"n": 3})
    assert good.pool_formula == "32*n"
    assert [(b.offset, b.size, b.first, b.last) for b in placed.buffers] == [
        (0, 96, 0, 1),
        (0, 96, 2, 3),
    ]
    assert placed.sharing() == [("a", "b")] and placed.conflicts() == []
    bad = _plan(text.replace("%X", "%a"))
    placed = bad.evaluate({"n": 3})
    assert placed.conflicts() == [("a", "b")]
    assert placed.problems  # the analysis agrees


def _plan(function_text: str) -> MemoryPlan:
    stage = Stage.of(1, "test", parse_module(f"builtin.module {{{function_text}}}"))
    return MemoryPlan.of(stage)


def _reader(body: str, result: str) -> tuple[FormulaReader, object]:
    text = f"""builtin.module {{
    func.func @f(%x: memref<?x?xf32> {{onnx.dim_params = "0:batch,1:seq"}}) -> index {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %b = memref.dim %x, %c0 : memref<?x?xf32>
      %s = memref.dim %x, %c1 : memref<?x?xf32>
      {body}
      func.return {result} : index
    }}
    }}"""
    function = entry_function(parse_module(text))
    ret = list(function.body.block.ops)[-1]
    reader = FormulaReader(function)
    return reader, reader.read(ret.operands[0])


@pytest.mark.parametrize(
    "body, formula",
    [
        # (256*b*s + 255) / 256 needs no rounding.
        (
            """%c256 = arith.constant 256 : index
               %c255 = arith.constant 255 : index
               %0 = arith.muli %b, %c256 : index
               %1 = arith.muli %0, %s : index
               %2 = arith.addi %1, %c255 : index
               %r = arith.divui %2, %c256 : index""",
            "batch*seq",
        ),
        # (4*b*s + 255) / 256 * 512 is two aligned blocks.
        (
            """%c4 = arith.constant 4 : index
               %c255 = arith.constant 255 : index
               %c256 = arith.constant 256 : index
               %c512 = arith.constant 512 : index
               %0 = arith.muli %b, %c4 : index
               %1 = arith.muli %0, %s : index
               %2 = arith.addi %1, %c255 : index
               %3 = arith.divui %2, %c256 : index
               %r = arith.muli %3, %c512 : index""",
            "2*align256(4*batch*seq)",
        ),
        (
            """%c3 = arith.constant 3 : index
               %0 = arith.subi %s, %c3 : index
               %r = arith.ceildivui %0, %c3 : index""",
            "ceil((seq - 3) / 3)",
        ),
    ],
)
def test_formula_rendering(body: str, formula: str):
    reader, poly = _reader(body, "%r")
    assert reader.render(poly) == formula


def test_formula_evaluation_matches_python():
    body = """%c4 = arith.constant 4 : index
              %c7 = arith.constant 7 : index
              %c255 = arith.constant 255 : index
              %c256 = arith.constant 256 : index
              %0 = arith.muli %b, %c4 : index
              %1 = arith.muli %0, %s : index
              %2 = arith.addi %1, %c255 : index
              %3 = arith.divui %2, %c256 : index
              %4 = arith.muli %3, %c256 : index
              %5 = arith.subi %4, %c7 : index
              %r = arith.muli %5, %s : index"""
    reader, poly = _reader(body, "%r")
    for b, s in [(1, 1), (2, 63), (3, 64), (5, 1000)]:
        assert (
            reader.evaluate(poly, {"batch": b, "seq": s}) == (align(4 * b * s) - 7) * s
        )


def test_opaque_ops_render_but_do_not_evaluate():
    body = """%c3 = arith.constant 3 : index
              %0 = arith.addi %s, %c3 : index
              %q = arith.remui %0, %c3 : index
              %r = arith.addi %q, %b : index"""
    reader, poly = _reader(body, "%r")
    assert reader.render(poly) == "batch + %q"
    with pytest.raises(FormulaError, match=r"%q \(arith.remui\) has no formula"):
        reader.evaluate(poly, {"batch": 1, "seq": 2})
    reader, poly = _reader("", "%s")
    with pytest.raises(FormulaError, match="no value for dim 'seq'"):
        reader.evaluate(poly, {"batch": 1})


def test_diff_text_and_html(seed: Walkthrough):
    diff = seed.diff(19)  # the next stage: 20, hip-lower-allocs
    assert diff.after.index == 20
    text = str(diff)
    assert text.startswith("--- 19. post-pool-cleanup\n+++ 20. hip-lower-allocs")
    assert "-    %alloc = memref.alloc(%17) : memref<?xi8>" in text
    assert "+    hip.free(%arg0, %18) : memref<?xi8>" in text
    # The alloc, three renumbered values, six views and the dealloc.
    assert diff.added == diff.removed == 11
    html = diff._repr_html_()
    # The changed characters of a changed line are marked, not just the line.
    assert "<span style='background:#abf2bc'>hip.free(%arg0, %18)</span>" in html
    assert "memref.dealloc" in html and "<script" not in html
    assert "diff_add" in diff.side_by_side_html()
    same = seed.diff(21, 21)
    assert (
        not same.changed
        and "no change" in str(same)
        and "no change" in same._repr_html_()
    )


def test_stage_display(seed: Walkthrough):
    stage = seed[2]
    html = stage._repr_html_()
    assert html.startswith("<b>2. convert-onnx-to-hip</b><pre")
    assert "hip.hipblaslt.matmul" in html and "&lt;64x64xf32&gt;" in html
    assert "tensor.empty" in str(stage)
    assert "destination-passing" in stage.note


def test_summary_table(seed: Walkthrough):
    table = seed.summaries({"batch": 2, "seq": 128})
    lines = str(table).splitlines()
    assert lines[0].split()[:3] == ["#", "pass", "ops"]
    assert len(lines) == 1 + len(seed)
    assert "512 KiB" in lines[-1]
    assert table._repr_html_().count("<tr>") == 1 + len(seed)


# --- with the real pipeline -------------------------------------------------


@pytest.fixture(scope="module")
def attention(tmp_path_factory: pytest.TempPathFactory) -> Walkthrough:
    model = load_example("attention").build()
    out = tmp_path_factory.mktemp("constants")
    return Walkthrough.from_onnx(model, externalize_output_dir=str(out))


def test_walkthrough_runs_the_21_passes(attention: Walkthrough, seed: Walkthrough):
    assert len(attention) == 22 and attention.failure is None
    assert attention[0].name == "input"
    for stage in seed:
        if stage.index not in (14, 19):  # the seed names these stages by group
            assert attention[stage.index].name == stage.name
    with pytest.raises(KeyError, match=r"stages named 'canonicalize' \(indices: 6, 8"):
        attention["canonicalize"]


def test_walkthrough_matches_the_seed_numbers(
    attention: Walkthrough, seed: Walkthrough
):
    for index in (3, 4, 14, 15, 16, 21):
        ours, theirs = attention[index].summary(), seed[index].summary()
        assert (ours.allocations, ours.deallocations) == (
            theirs.allocations,
            theirs.deallocations,
        ), index
    dims = {"batch": 3, "seq": 50}
    final = attention.final.summary(dims)
    assert final.pool_formula == seed.final.summary().pool_formula
    assert final.pool_bytes == seed_pool_bytes(3, 50)
    assert attention.final.memory_plan().evaluate(dims).problems == []


def test_walkthrough_keeps_a_failure():
    """A pass that raises ends the walk; the stages before it are kept."""
    from xdsl.passes import ModulePass

    class Boom(ModulePass):
        name = "boom"

        def apply(self, ctx: object, op: object) -> None:
            raise ValueError("no luck\nsecond line")

    module = parse_module(Path(STAGE_FILES[0]).read_text())
    walk = Walkthrough.run(module, [Boom()], errors="keep")
    assert len(walk) == 1 and walk.failure is not None
    assert str(walk.failure) == "pass 1 (boom) failed: ValueError: no luck"
    with pytest.raises(Exception, match="pass 1 \\(boom\\) failed"):
        Walkthrough.run(module, [Boom()])


def test_load_example_builds_the_model():
    model = load_example("attention").build()
    assert [n.name for n in model.graph.node][:2] == ["q_proj", "k_proj"]
    assert np.asarray(model.graph.initializer[0].dims).tolist() == [64, 64]


def test_changes_is_the_diff_into_a_stage(attention: Walkthrough):
    changes = attention.changes("hip-optimize-memrefs")
    assert (changes.before.index, changes.after.index) == (14, 15)
    assert "-    %alloc_6 = memref.alloc" in str(changes)
    assert not attention.changes(5).changed  # expand-realloc: no realloc here
    with pytest.raises(IndexError, match="no stage before 0. input"):
        attention.changes(0)


def test_large_constants_are_elided(attention: Walkthrough):
    text = attention[0].text
    assert text.count("dense_resource<__elided__> : tensor<64x64xf32>") == 3
    assert "dense<1.250000e-01>" in text and '"0x' not in text


def test_reshaped_dims_read_through_the_reshape():
    body = """%e = memref.expand_shape %x [[0], [1, 2]] output_shape [%b, %s, 1]
                   : memref<?x?xf32> into memref<?x?x1xf32>
              %c = memref.collapse_shape %e [[0, 1], [2]]
                   : memref<?x?x1xf32> into memref<?x1xf32>
              %d1 = memref.dim %e, %c1 : memref<?x?x1xf32>
              %d0 = memref.dim %c, %c0 : memref<?x1xf32>
              %r = arith.addi %d0, %d1 : index"""
    reader, poly = _reader(body, "%r")
    assert reader.render(poly) == "batch*seq + seq"


def test_allocations_outside_the_pool_are_listed():
    text = """
    func.func @f(%ctx: !hip.context, %x: memref<?x8xf32> {onnx.dim_params = "0:n"}) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %n = memref.dim %x, %c0 : memref<?x8xf32>
      %bytes = arith.muli %n, %c32 : index
      %pool = hip.alloc(%ctx, %bytes) : memref<?xi8>
      %a = memref.view %pool[%c0][%n] : memref<?xi8> to memref<?x8xf32>
      %other = hip.alloc(%ctx, %n, %n) : memref<?x?xf64>
      hip.copy(%ctx) ins(%x : memref<?x8xf32>) outs(%a : memref<?x8xf32>)
      hip.free(%ctx, %other) : memref<?x?xf64>
      hip.free(%ctx, %pool) : memref<?xi8>
      func.return
    }
    """
    plan = _plan(text)
    assert [(name, plan.formula(size)) for name, size in plan.unpooled] == [
        ("other", "8*n^2")
    ]
    placed = plan.evaluate({"n": 3})
    assert placed.unpooled == [("other", 72)]
    assert "1 buffers (72 B) outside the pool" in placed.describe()


def test_command_line_saves_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    import onnx

    from xhip.explore.__main__ import main

    model = tmp_path / "attention.onnx"
    onnx.save(load_example("attention").build(), model)
    picture = tmp_path / "plan.png"
    assert main([str(model), "--dims", "batch=2,seq=128", "-o", str(picture)]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")
    out = capsys.readouterr().out
    assert "pool 512 KiB = 1024*batch*seq + 2*align256(4*batch*seq^2)" in out
    assert main([str(tmp_path / "missing.onnx")]) == 1
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(model), "--dims", "batch"])
