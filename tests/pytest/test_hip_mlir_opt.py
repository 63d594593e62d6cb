"""`hip-mlir-opt`: the seed's command line, run verbatim, prints the seed's stages.

Every dump is compared with the seed's stage of the same pass the way
`test_pipeline` compares stages: structurally, up to SSA names, and the pool
arithmetic of stages 16-21 by its values.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import onnx
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.xdsl_opt_main import xDSLOptMain

from xhip.cli.hip_mlir_opt import main
from xhip.context import make_context
from xhip.pipeline import onnx_to_hip_passes
from xhip.transforms.composite import quote_pass_option_values

from .frontend.models import unsupported_model
from .test_pipeline import (
    ATTENTION,
    POOL_STAGES,
    SEED_PASSES,
    SEED_STAGE_FILES,
    first_difference,
    pool_stage_difference,
    seed_stage,
)

SEED_COMMAND = [
    "attention.onnx.mlir",
    "--allow-unregistered-dialect",
    "--onnx-to-hip-pipeline=externalize-min-num-elements=256 externalize-output-dir=/tmp",
    "--mlir-elide-elementsattrs-if-larger=4",
    "--mlir-print-ir-after-all",
]
"""The seed's command line after the shell has removed its quotes."""

HEADER = re.compile(r"^// -----// IR Dump After (\w+) \(([\w-]+)\) //----- //$", re.M)
FUNCTION_STAGES = {15, 16, 20}
"""The seed prints only the function after these (function-anchored) passes."""


@dataclass
class Dump:
    pass_class: str
    pass_arg: str
    text: str


def dumps(stderr: str) -> list[Dump]:
    """The IR dumps of `--mlir-print-ir-after-all`, warnings left out."""
    stderr = "\n".join(
        line for line in stderr.splitlines() if not line.startswith("hip-mlir-opt:")
    )
    heads = list(HEADER.finditer(stderr))
    ends = [h.start() for h in heads[1:]] + [len(stderr)]
    return [
        Dump(h[1], h[2], stderr[h.end() : end].strip())
        for h, end in zip(heads, ends, strict=True)
    ]


def parse(text: str) -> ModuleOp:
    return Parser(make_context(allow_unregistered=True), text).parse_module()


def stage_module(printed: list[Dump], number: int) -> ModuleOp:
    """Dump `number` as a whole module: a function-only dump in the module of
    the dump before it, as `seed_stage` does for the seed's files."""
    module = parse(printed[number - 1].text)
    if module.attributes:
        return module
    outer = stage_module(printed, number - 1)
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    (old,) = [op for op in outer.ops if isinstance(op, func.FuncOp)]
    function.detach()
    outer.body.block.insert_op_before(function, old)
    outer.body.block.erase_op(old)
    return outer


def check_seed_output(stdout: str, stderr: str) -> None:
    printed = dumps(stderr)
    assert [d.pass_arg for d in printed] == SEED_PASSES
    assert [d.pass_class for d in printed] == [
        type(p).__name__ for p in onnx_to_hip_passes()
    ]
    for number, dump in enumerate(printed, 1):
        shape = "func.func" if number in FUNCTION_STAGES else "builtin.module"
        assert dump.text.startswith(shape), f"dump {number}: {dump.text[:80]}"
    # The seed's small constant stays, its large ones are elided.
    assert "dense<1.250000e-01> : tensor<f32>" in printed[0].text
    assert printed[0].text.count("dense_resource<__elided__") == 3

    ctx = make_context()
    for number in sorted(SEED_STAGE_FILES):
        ours, seed = stage_module(printed, number), seed_stage(ctx, number)
        if number in POOL_STAGES:
            why = pool_stage_difference(ours, seed)
        else:
            why = first_difference(ours, seed, {})
        assert why is None, f"dump {number} ({SEED_PASSES[number - 1]}): {why}"
    final = pool_stage_difference(parse(stdout), seed_stage(ctx, 21))
    assert final is None, f"final IR: {final}"


@pytest.fixture
def seed_input(scratch_cwd: Path) -> Path:
    """The seed's input (stage 1 without `%arg0`), under the seed's file name."""
    return Path(shutil.copy(ATTENTION, scratch_cwd / "attention.onnx.mlir"))


def test_seed_command_through_main(seed_input: Path, capsys) -> None:
    assert main(SEED_COMMAND) == 0
    out, err = capsys.readouterr()
    check_seed_output(out, err)


def test_seed_command_as_console_script(seed_input: Path) -> None:
    script = Path(sys.executable).parent / "hip-mlir-opt"
    assert script.exists(), "run `pip install -e .` to install the console script"
    # The seed's line as a shell runs it, quotes and all.
    command = (
        f"{script} attention.onnx.mlir --allow-unregistered-dialect "
        "--onnx-to-hip-pipeline='externalize-min-num-elements=256 "
        "externalize-output-dir=/tmp' --mlir-elide-elementsattrs-if-larger=4 "
        "--mlir-print-ir-after-all"
    )
    done = subprocess.run(
        command, shell=True, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    check_seed_output(done.stdout, done.stderr)


def test_pipeline_flag_without_options_runs_the_defaults(
    seed_input: Path, scratch_cwd: Path, capsys
) -> None:
    out = scratch_cwd / "out.mlir"
    code = main([str(seed_input), "--onnx-to-hip-pipeline", "-o", str(out)])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert "IR Dump" not in err
    assert "%arg3: memref<?xi8>" in out.read_text()
    # Three 64x64 f32 weights, in the default directory (the current one).
    assert (scratch_cwd / "model.constants.bin").stat().st_size == 3 * 64 * 64 * 4


def test_pipeline_options_take_quoted_and_unquoted_paths(
    seed_input: Path, scratch_cwd: Path, capsys
) -> None:
    for option, folder in (
        ("externalize-output-dir=out one", None),  # a space ends the value
        ("externalize-output-dir='out two'", "out two"),
        ('externalize-output-dir="out three"', "out three"),
        ("externalize-output-dir=./out/four", "out/four"),
    ):
        code = main([str(seed_input), f"--onnx-to-hip-pipeline={option}"])
        _, err = capsys.readouterr()
        if folder is None:
            assert code == 2 and "one" in err, err
            continue
        assert code == 0, err
        assert (scratch_cwd / folder / "model.constants.bin").exists()


def test_without_pipeline_the_input_is_printed_back(seed_input: Path, capsys) -> None:
    assert main([str(seed_input)]) == 0
    out, _ = capsys.readouterr()
    assert '"onnx.Softmax"' in out
    assert first_difference(parse(out), parse(seed_input.read_text()), {}) is None


def test_reads_stdin(seed_input: Path) -> None:
    """`-`, the default input as in mlir-opt, is the process's stdin."""
    with seed_input.open() as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "xhip.cli.hip_mlir_opt", "--onnx-to-hip-pipeline"],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    assert "hip.hipblaslt.matmul" in done.stdout


ELISION_INPUT = """\
builtin.module {
  memref.global "private" constant @five : memref<5xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0]>
  memref.global "private" constant @splat : memref<8xf32> = dense<2.0>
  func.func @f() -> tensor<4xi32> {
    %a = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %b = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
    %c = "x.op"() {v = {w = dense<[1, 2, 3, 4, 5]> : tensor<5xi8>}} : () -> i32
    func.return %a : tensor<4xi32>
  }
}
"""


def test_elides_element_attributes_as_mlir_does(scratch_cwd: Path, capsys) -> None:
    """More than N elements and not a splat: `dense_resource<__elided__>`, in
    attributes nested or not and in `memref.global`'s initial value."""
    path = scratch_cwd / "e.mlir"
    path.write_text(ELISION_INPUT)
    code = main(
        [
            str(path),
            "--allow-unregistered-dialect",
            "--mlir-elide-elementsattrs-if-larger=4",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "@five : memref<5xf32> = dense_resource<__elided__>\n" in out
    assert "@splat : memref<8xf32> = dense<2.000000e+00>" in out
    assert "arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>" in out
    assert "arith.constant dense_resource<__elided__> : tensor<5xi32>" in out
    assert "{v = {w = dense_resource<__elided__> : tensor<5xi8>}}" in out
    # Without the flag nothing is elided.
    assert main([str(path), "--allow-unregistered-dialect"]) == 0
    assert "__elided__" not in capsys.readouterr().out


def test_help(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for flag in (
        "--allow-unregistered-dialect",
        "--onnx-to-hip-pipeline",
        "--mlir-elide-elementsattrs-if-larger",
        "--mlir-print-ir-after-all",
        "-o <filename>",
    ):
        assert flag in out


def one_line(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["--bogus"], ["Unknown command line argument '--bogus'"]),
        (["a.mlir", "b.mlir"], ["Too many positional arguments"]),
        (["--mlir-elide-elementsattrs-if-larger=x"], ["'x' value invalid"]),
        (["-o"], ["-o option: requires a value"]),
        (["--onnx-to-hip-pipeline=bogus=1"], ["--onnx-to-hip-pipeline", "bogus"]),
        (
            ["--onnx-to-hip-pipeline=externalize-min-num-elements=many"],
            ["--onnx-to-hip-pipeline", "many"],
        ),
    ],
    ids=[
        "unknown-flag",
        "two-inputs",
        "bad-limit",
        "no-output",
        "bad-option",
        "bad-int",
    ],
)
def test_bad_command_line_is_one_line_and_exit_2(
    argv: list[str], needles: list[str], capsys
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    one_line(captured.err, "hip-mlir-opt: ", *needles)


def test_bad_inputs_are_one_line_and_exit_1(scratch_cwd: Path, capsys) -> None:
    malformed = scratch_cwd / "bad.mlir"
    malformed.write_text("builtin.module {\n  %0 = arith.constant : i32\n}\n")
    unsupported_op = scratch_cwd / "op.mlir"
    unsupported_op.write_text(
        "builtin.module {\n"
        "  func.func @main_graph(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        '    %0 = "onnx.NoSuchOp"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n'
        "    func.return %0 : tensor<2xf32>\n"
        "  }\n"
        "}\n"
    )
    onnx.save(unsupported_model(), scratch_cwd / "m.onnx")
    for argv, needles in (
        ([str(malformed)], [f"{malformed}:2:"]),
        (["missing.mlir"], ["missing.mlir: no such file"]),
        (
            [
                str(unsupported_op),
                "--allow-unregistered-dialect",
                "--onnx-to-hip-pipeline",
            ],
            ["pass 'convert-onnx-to-hip' failed", "onnx.NoSuchOp"],
        ),
        (
            ["m.onnx", "--onnx-to-hip-pipeline", "-o", "out.mlir"],
            ["RandomNormalLike (ln1, ln2)"],
        ),
    ):
        assert main(argv) == 1, argv
        captured = capsys.readouterr()
        one_line(captured.err, "hip-mlir-opt: error: ", *needles)
    assert not (scratch_cwd / "out.mlir").exists()


# xdsl-opt's pass options (item 3 of issue 26).


@pytest.mark.parametrize(
    "spec",
    [
        "cse,canonicalize",
        'onnx-to-hip{externalize-output-dir="/tmp" externalize-min-num-elements=16}',
        "p{a=1,2 b=true c=-1.5e3 d=x_y-z e=2d}",
        'p{a="q\\"/x"}',
        "mlir-opt[func.func(canonicalize{a=/x})]",
    ],
)
def test_specs_xdsl_reads_are_unchanged(spec: str) -> None:
    assert quote_pass_option_values(spec) == spec


def test_unquoted_values_become_strings() -> None:
    assert (
        quote_pass_option_values("cse,p{d=/tmp n=256 e='a b' f=./x,y g=a.b}")
        == 'cse,p{d="/tmp" n=256 e="a b" f="./x",y g="a.b"}'
    )


def test_xdsl_opt_takes_the_seeds_unquoted_path(scratch_cwd: Path, capsys) -> None:
    shutil.copy(ATTENTION, scratch_cwd / "a.mlir")
    opt = xDSLOptMain(
        args=[
            "a.mlir",
            "-p",
            f"onnx-to-hip{{externalize-min-num-elements=256 externalize-output-dir={scratch_cwd}/c}}",
        ]
    )
    opt.run()
    assert "%arg3: memref<?xi8>" in capsys.readouterr().out
    assert (scratch_cwd / "c" / "model.constants.bin").exists()
