"""Bad input, case by case: one line naming what and where, exit 1, no file.

`CASES` is the table of docs/cli.md ("What a bad input gives"): each row makes
its files in a fresh directory, runs one `xhip` command in-process, and checks
the exit code, the whole stderr line (`re.fullmatch`), that no traceback shows
and that the directory holds exactly what it held before. `API_CASES` are the
same mistakes made through `xhip.compile` / `compile_to_ir` / a compiled model:
each raises one of the library's own exception types with the same message.
tests/pytest/test_cli.py has more of both (pipelines, help, warnings).
"""

from __future__ import annotations

import copy
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip
from tests.pytest.conftest import REPO
from tests.pytest.frontend.models import ATTENTION_ONNX, make_model, relu_model, tensor
from xhip.backend.memory import MemoryLimitError, format_bytes, parse_size
from xhip.backend.runtime import DeviceUnavailable
from xhip.backend.session import InputError
from xhip.cli import main
from xhip.frontend import OnnxImportError
from xhip.pipeline import PipelineError

F = TensorProto.FLOAT
NUM = r"\d+(?:\.\d)?"


# Models and files the cases are made of.


def undefined_value_model() -> onnx.ModelProto:
    """A node reads a value nothing defines."""
    return make_model(
        [helper.make_node("Relu", ["nope"], ["y"], name="r")],
        [tensor("x", F, [2])],
        [tensor("y", F, [2])],
    )


def cycle_model() -> onnx.ModelProto:
    """Two nodes feeding each other."""
    return make_model(
        [
            helper.make_node("Add", ["x", "b"], ["a"], name="n1"),
            helper.make_node("Relu", ["a"], ["b"], name="n2"),
        ],
        [tensor("x", F, [2])],
        [tensor("b", F, [2])],
    )


def unknown_op_model() -> onnx.ModelProto:
    return make_model(
        [helper.make_node("NoSuchOp", ["x"], ["y"], name="f")],
        [tensor("x", F, [2])],
        [tensor("y", F, [2])],
    )


def unknown_domain_model() -> onnx.ModelProto:
    model = make_model(
        [helper.make_node("Relu", ["x"], ["y"], name="f", domain="com.example")],
        [tensor("x", F, [2])],
        [tensor("y", F, [2])],
    )
    model.opset_import.append(helper.make_opsetid("com.example", 1))
    return model


def newer_opset_model() -> onnx.ModelProto:
    model = relu_model()
    model.opset_import[0].version = 99
    return model


def no_default_opset_model() -> onnx.ModelProto:
    model = relu_model()
    del model.opset_import[:]
    model.opset_import.append(helper.make_opsetid("com.example", 1))
    return model


def two_inputs_model() -> onnx.ModelProto:
    """`y = a + b`, both [batch, 4]: batch must be the same in both."""
    return make_model(
        [helper.make_node("Add", ["a", "b"], ["y"], name="add")],
        [tensor("a", F, ["batch", 4]), tensor("b", F, ["batch", 4])],
        [tensor("y", F, ["batch", 4])],
    )


def unnamed_dim_model() -> onnx.ModelProto:
    """`y = relu(x)`, x [unk__3, 4]: tf2onnx writes onnx's made-up dim names."""
    return make_model(
        [helper.make_node("Relu", ["x"], ["y"], name="r")],
        [tensor("x", F, ["unk__3", 4])],
        [tensor("y", F, ["unk__3", 4])],
    )


def unconvertible_model() -> onnx.ModelProto:
    """A Conv whose weight's kernel height is a run-time dim: onnx types it,
    the converter refuses it (static kernel sizes are needed)."""
    return make_model(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
        [tensor("x", F, [1, 4, 5, 5]), tensor("w", F, [2, 4, "k", 3])],
        [tensor("y", F, [1, 2, None, 3])],
    )


def sequence_input_model() -> onnx.ModelProto:
    """`n = SequenceLength(s)`, s a sequence input: `xhip run` feeds tensors."""
    return make_model(
        [helper.make_node("SequenceLength", ["s"], ["n"], name="len")],
        [helper.make_tensor_sequence_value_info("s", F, [2])],
        [tensor("n", TensorProto.INT64, [])],
    )


def gather_model() -> onnx.ModelProto:
    """`y = x[i]` along axis 0, x [5, 2], i [2] from the caller."""
    return make_model(
        [helper.make_node("Gather", ["x", "i"], ["y"], name="g")],
        [tensor("x", F, [5, 2]), tensor("i", TensorProto.INT64, [2])],
        [tensor("y", F, [2, 2])],
    )


def split_model() -> onnx.ModelProto:
    """x [6] split in two by sizes the caller gives, declared [3] each."""
    return make_model(
        [helper.make_node("Split", ["x", "s"], ["a", "b"], name="split", axis=0)],
        [tensor("x", F, [6]), tensor("s", TensorProto.INT64, [2])],
        [tensor("a", F, [3]), tensor("b", F, [3])],
        opset=18,
    )


def weights_model() -> onnx.ModelProto:
    w = np.arange(1024, dtype=np.float32).reshape(32, 32)
    return make_model(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [tensor("x", F, ["batch", 32])],
        [tensor("y", F, ["batch", 32])],
        [numpy_helper.from_array(w, "w")],
    )


def save_external(directory: Path, data: str = "keep") -> Path:
    """`weights_model` with its weight in `m.onnx.data`, then `data` it:
    keep it, delete it or truncate it to 100 bytes."""
    path = directory / "m.onnx"
    onnx.save(
        copy.deepcopy(weights_model()),
        str(path),
        save_as_external_data=True,
        location="m.onnx.data",
        size_threshold=0,
    )
    blob = directory / "m.onnx.data"
    if data == "delete":
        blob.unlink()
    elif data == "truncate":
        blob.write_bytes(blob.read_bytes()[:100])
    return path


def write(directory: Path, name: str, content: bytes | str) -> Path:
    path = directory / name
    if isinstance(content, str):
        path.write_text(content)
    else:
        path.write_bytes(content)
    return path


def save(directory: Path, model: onnx.ModelProto, name: str = "m.onnx") -> Path:
    onnx.save(model, str(directory / name))
    return directory / name


def random_bytes() -> bytes:
    rng = random.Random(0)
    return bytes(rng.randrange(256) for _ in range(4096))


HALF = ATTENTION_ONNX.read_bytes()[: len(ATTENTION_ONNX.read_bytes()) // 2]
BAD_MLIR = 'builtin.module {\n  %0 = "onnx.Relu"( : () -> i32\n}\n'
PROTOBUF_FAILED = (
    r"not an ONNX model \(protobuf parse failed: .+; is the file truncated or "
    r"corrupt\?\)"
)
NO_GRAPH = r"not an ONNX model \(no graph or IR version in the file\)"


def npy(directory: Path, name: str, array: np.ndarray) -> str:
    np.save(directory / name, array)
    return str(directory / name)


# The table.


@dataclass(frozen=True)
class Case:
    """One bad input: `make(dir)` writes its files and returns the argv."""

    id: str
    make: Callable[[Path], list[str]]
    message: str
    """A regex for the whole stderr line, after `xhip COMMAND: error: `."""
    command: str = ""
    outputs: tuple[str, ...] = field(default=())
    """Paths (relative to the dir) that must not exist afterwards."""


def _attention(*extra: str) -> Callable[[Path], list[str]]:
    return lambda d: ["run", str(ATTENTION_ONNX), *extra]


def _model(
    command: str, build: Callable[[], onnx.ModelProto], *extra: str
) -> Callable[[Path], list[str]]:
    return lambda d: [command, str(save(d, build())), "-o", str(d / "o.mlir"), *extra]


def _file(command: str, name: str, content: bytes | str) -> Callable[[Path], list[str]]:
    return lambda d: [command, str(write(d, name, content)), "-o", str(d / "o.mlir")]


CASES = [
    # Malformed, truncated, empty models.
    Case("truncated-import", _file("import", "half.onnx", HALF), rf".*half\.onnx: {PROTOBUF_FAILED}", outputs=("o.mlir",)),
    Case("truncated-compile", _file("compile", "half.onnx", HALF), rf".*half\.onnx: {PROTOBUF_FAILED}", outputs=("o.mlir",)),
    Case("truncated-run", lambda d: ["run", str(write(d, "half.onnx", HALF))], rf".*half\.onnx: {PROTOBUF_FAILED}"),
    Case("zero-bytes", _file("import", "empty.onnx", b""), rf".*empty\.onnx: {NO_GRAPH}", outputs=("o.mlir",)),
    Case("random-bytes", _file("import", "random.onnx", random_bytes()), rf".*random\.onnx: (?:{PROTOBUF_FAILED}|{NO_GRAPH})", outputs=("o.mlir",)),
    Case("tensor-proto-not-a-model", _file("compile", "t.onnx", numpy_helper.from_array(np.ones(3, np.float32)).SerializeToString()), rf".*t\.onnx: (?:{PROTOBUF_FAILED}|{NO_GRAPH})", outputs=("o.mlir",)),
    Case("graph-proto-not-a-model", _file("import", "g.onnx", helper.make_graph([], "g", [], []).SerializeToString()), rf".*g\.onnx: {NO_GRAPH}", outputs=("o.mlir",)),
    Case("missing-model", lambda d: ["compile", str(d / "nope.onnx")], r".*nope\.onnx: no such file"),
    # Cycles and undefined values.
    Case("undefined-value", _model("import", undefined_value_model), r".*m\.onnx: node 'r' \(Relu\): input 'nope' is not defined by any graph input, initializer or node", outputs=("o.mlir",)),
    Case("cycle", _model("compile", cycle_model), r".*m\.onnx: the graph has a cycle: node 'n1' \(Add\) -> node 'n2' \(Relu\) -> node 'n1' \(Add\)", outputs=("o.mlir",)),
    # Ops, domains, opsets.
    Case("unknown-op", _model("compile", unknown_op_model), r".*m\.onnx: unsupported ONNX ops at opset 17: NoSuchOp \(f\)", outputs=("o.mlir",)),
    Case("unknown-domain", _model("import", unknown_domain_model), r".*m\.onnx: unsupported ONNX ops at opset 17: com\.example\.Relu \(f\)", outputs=("o.mlir",)),
    Case("opset-too-new", _model("import", newer_opset_model), r".*m\.onnx: opset 99 is newer than this onnx package knows \(\d+\)", outputs=("o.mlir",)),
    Case("unconvertible-compile", _model("compile", unconvertible_model), r"pass 'convert-onnx-to-hip' failed: convert-onnx-to-hip: 1 op\(s\) cannot be converted: onnx\.Conv \(node 'conv'\): weight type tensor<2x4x\?x3xf32>: static sizes are needed", outputs=("o.mlir",)),
    Case("unconvertible-run", lambda d: ["run", str(save(d, unconvertible_model()))], r"convert-onnx-to-hip: 1 op\(s\) cannot be converted: onnx\.Conv \(node 'conv'\): weight type tensor<2x4x\?x3xf32>: static sizes are needed"),
    Case("sequence-input-run", lambda d: ["run", str(save(d, sequence_input_model()))], r"'s' has type !onnx\.Seq<tensor<2xf32>>, not a tensor: a model with a sequence or optional input compiles per list of elements \(xhip\.frontend\.sequence_types\.with_tensor_inputs; docs/sequences\.md\)"),
    Case("no-default-opset", _model("compile", no_default_opset_model), r".*m\.onnx: the model imports no version of the default ONNX opset", outputs=("o.mlir",)),
    # Inputs at run time.
    Case("input-unknown-name", lambda d: ["run", str(ATTENTION_ONNX), "--input", f"Y={npy(d, 'x.npy', np.zeros((2, 5, 64), np.float32))}"], r"unknown input 'Y'; the model takes 'X'"),
    Case("input-wrong-rank", lambda d: ["run", str(ATTENTION_ONNX), "--input", f"X={npy(d, 'x.npy', np.zeros((5, 64), np.float32))}"], r"input 'X' has rank 2 \(shape \(5, 64\)\), expected rank 3 \(X: float32\[batch, seq, 64\]\)"),
    Case("input-wrong-dim", lambda d: ["run", str(ATTENTION_ONNX), "--input", f"X={npy(d, 'x.npy', np.zeros((2, 5, 32), np.float32))}"], r"input 'X' dim 2 is 32, expected 64"),
    Case("input-wrong-dtype", lambda d: ["run", str(ATTENTION_ONNX), "--input", f"X={npy(d, 'x.npy', np.zeros((2, 5, 64), np.int64))}"], r"input 'X' has dtype int64, expected float32"),
    Case("input-missing-file", _attention("--input", "X=nope.npy"), r"--input X: nope\.npy: no such file"),
    Case("input-not-npy", lambda d: ["run", str(ATTENTION_ONNX), "--input", f"X={write(d, 'x.npy', '1 2 3')}"], r"--input X: .*x\.npy: not a \.npy file"),
    Case("input-malformed", _attention("--input", "X"), r"--input: expected NAME=FILE\.npy, got 'X'"),
    Case("index-out-of-range", lambda d: ["run", str(save(d, gather_model())), "--input", f"i={npy(d, 'i.npy', np.array([0, 7], np.int64))}"], r"an index the inputs give is out of range: index 7 is out of bounds for axis 0 with size 5"),
    Case("split-sizes-past-the-input", lambda d: ["run", str(save(d, split_model())), "--input", f"s={npy(d, 's.npy', np.array([4, 5], np.int64))}"], r"hip\.slice: 5 elements from 4 by 1 reach outside a dim of 6 \(sizes the inputs give, as a Split's\?\)"),
    Case("named-dims-disagree", lambda d: ["run", str(save(d, two_inputs_model())), "--input", f"a={npy(d, 'a.npy', np.zeros((2, 4), np.float32))}", "--input", f"b={npy(d, 'b.npy', np.zeros((3, 4), np.float32))}"], r"input 'b' dim 0 \(batch\) is 3, but input 'a' dim 0 \(batch\) is 2"),
    # Memory.
    Case("inputs-over-memory", _attention("--dims", "batch=100000,seq=100000"), rf"the inputs need {NUM} TB \(2560000000000 bytes\) for batch=100000, seq=100000; the limit is {NUM} [KMGTP]?B \(--max-memory\)"),
    Case("pool-over-memory", _attention("--dims", "batch=64,seq=2048", "--max-memory", "512M"), rf"the memory pool needs {NUM} GB \(\d+ bytes\) for batch=64, seq=2048 with {NUM} MB already in use; the limit is 512\.0 MB \(--max-memory\)"),
    Case("max-memory-malformed", _attention("--max-memory", "lots"), r"--max-memory: expected a size such as 8G, 512M or 1000000, got 'lots'"),
    # External data.
    Case("external-data-missing", lambda d: ["import", str(save_external(d, "delete")), "-o", str(d / "o.mlir")], r".*m\.onnx: cannot read: .*m\.onnx\.data.*", outputs=("o.mlir",)),
    Case("external-data-short", lambda d: ["compile", str(save_external(d, "truncate")), "-o", str(d / "o.mlir")], r".*m\.onnx: cannot read: External data length \(4096\) exceeds available data \(100 bytes.*", outputs=("o.mlir",)),
    # Output paths.
    Case("output-dir-missing", lambda d: ["import", str(ATTENTION_ONNX), "-o", str(d / "no" / "o.mlir")], r".*o\.mlir: directory .*no does not exist"),
    Case("output-is-a-directory", lambda d: (d / "out").mkdir() or ["compile", str(ATTENTION_ONNX), "-o", str(d / "out")], r".*out: is a directory; give a file name"),
    Case("output-unwritable-import", lambda d: ["import", str(ATTENTION_ONNX), "-o", "/proc/xhip-o.mlir"], r"/proc/xhip-o\.mlir: cannot write: .+"),
    Case("output-unwritable-compile", lambda d: ["compile", str(ATTENTION_ONNX), "-o", "/sys/xhip-o.mlir"], r"/sys: cannot write: .+"),
    Case("output-dir-unwritable-run", _attention("--dims", "batch=1,seq=2", "--output-dir", "/proc"), r"--output-dir /proc: cannot write: .+"),
    Case("constants-dir-is-a-file", lambda d: ["compile", str(ATTENTION_ONNX), "--externalize-output-dir", str(write(d, "f", ""))], r".*f: exists and is not a directory"),
    # MLIR.
    Case("mlir-bad-syntax", _file("compile", "bad.mlir", BAD_MLIR), r"malformed MLIR: .*bad\.mlir:2:21: operand expected", outputs=("o.mlir",)),
    # --dims.
    Case("dims-malformed", _attention("--dims", "batch"), r"--dims: expected NAME=SIZE, got 'batch'"),
    Case("dims-unknown-name", _attention("--dims", "btach=3"), r"--dims: the model has no dim 'btach'; its named dims are: batch, seq"),
    Case("dims-unnamed", lambda d: ["run", str(save(d, unnamed_dim_model())), "--dims", "unk__3=2"], r"--dims: the model has no dim 'unk__3'; its named dims are: none \(unnamed dynamic dims: 'x' dim 0; they are 1 in random inputs, or the size of a given input\)"),
    Case("dims-negative", _attention("--dims", "batch=-1"), r"--dims batch: the size must be a non-negative integer, got '-1'"),
    Case("dims-not-an-integer", _attention("--dims", "batch=2.5"), r"--dims batch: the size must be a non-negative integer, got '2\.5'"),
    Case("dims-twice", _attention("--dims", "batch=2,batch=3"), r"--dims: 'batch' is given twice"),
]  # fmt: skip


def _listing(directory: Path) -> set[str]:
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = case.make(tmp_path)
    before = _listing(tmp_path)
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 1, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    prefix = f"xhip {argv[0]}: error: "
    assert lines[0].startswith(prefix), lines[0]
    message = lines[0].removeprefix(prefix)
    assert re.fullmatch(case.message, message), message
    assert _listing(tmp_path) == before  # nothing written, nothing half-written
    for name in case.outputs:
        assert not (tmp_path / name).exists()


def test_the_table_has_at_least_30_cases() -> None:
    assert len(CASES) >= 30
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize(
    "argv",
    [
        ["run", str(ATTENTION_ONNX), "--dims", "batch=100000,seq=100000"],
        ["compile", "/sys/xhip-o.mlir.onnx"],
    ],
    ids=["memory", "missing"],
)
def test_installed_script_exits_1_without_traceback(argv: list[str]) -> None:
    """The real process: exit status 1 and one line, even for the cases whose
    fix was to refuse before numpy or the OS raises."""
    script = Path(sys.executable).with_name("xhip")
    result = subprocess.run(
        [str(script), *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "XHIP_TRACEBACK": ""},
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_xdsl_opt_reports_bad_mlir_syntax(tmp_path: Path) -> None:
    """xdsl-opt is xDSL's tool: its parse error is its own (a traceback ending
    in the diagnostic, exit 1); `--parsing-diagnostics` prints the diagnostic
    alone. Either way it names the file, line and column."""
    bad = write(tmp_path, "bad.mlir", BAD_MLIR)
    opt = str(Path(sys.executable).with_name("xdsl-opt"))
    result = subprocess.run([opt, str(bad)], capture_output=True, text=True)
    assert result.returncode != 0
    assert f"{bad}:2:21" in result.stderr and "operand expected" in result.stderr
    result = subprocess.run(
        [opt, str(bad), "--parsing-diagnostics"], capture_output=True, text=True
    )
    assert "Traceback" not in result.stdout + result.stderr
    assert f"{bad}:2:21" in result.stdout and "operand expected" in result.stdout


# The same mistakes through the Python API.


def _attention_model() -> Any:
    return xhip.compile(ATTENTION_ONNX)


def axes_input_model() -> onnx.ModelProto:
    """ReduceSum with its axes as a graph input: `xhip.compile` gives a
    `SpecializingModel`, whose call reads the axes before any plain check."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    axes = helper.make_tensor_value_info("axes", TensorProto.INT64, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node("ReduceSum", ["x", "axes"], ["y"])
    graph = helper.make_graph([node], "test_model", [x, axes], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _call(
    inputs: Callable[[], Any], build: Callable[[], Any] = _attention_model
) -> Callable[[Path], object]:
    return lambda d: build()(inputs())


def _x(*shape: int, dtype: Any = np.float32) -> np.ndarray:
    return np.zeros(shape, dtype)


@dataclass(frozen=True)
class ApiCase:
    id: str
    call: Callable[[Path], object]
    error: type[BaseException]
    message: str


API_CASES = [
    ApiCase("truncated", lambda d: xhip.compile_to_ir(write(d, "half.onnx", HALF)), OnnxImportError, rf".*half\.onnx: {PROTOBUF_FAILED}"),
    ApiCase("zero-bytes", lambda d: xhip.compile(write(d, "e.onnx", b"")), OnnxImportError, rf".*e\.onnx: {NO_GRAPH}"),
    ApiCase("random-bytes", lambda d: xhip.compile(write(d, "r.onnx", random_bytes())), OnnxImportError, rf".*r\.onnx: (?:{PROTOBUF_FAILED}|{NO_GRAPH})"),
    ApiCase("missing-file", lambda d: xhip.compile(d / "nope.onnx"), OnnxImportError, r".*nope\.onnx: no such file"),
    ApiCase("undefined-value", lambda d: xhip.compile(undefined_value_model()), OnnxImportError, r"test_model: node 'r' \(Relu\): input 'nope' is not defined by any graph input, initializer or node"),
    ApiCase("cycle", lambda d: xhip.compile_to_ir(cycle_model()), OnnxImportError, r"test_model: the graph has a cycle: node 'n1' \(Add\) -> node 'n2' \(Relu\) -> node 'n1' \(Add\)"),
    ApiCase("unknown-op", lambda d: xhip.compile(unknown_op_model()), OnnxImportError, r"test_model: unsupported ONNX ops at opset 17: NoSuchOp \(f\)"),
    ApiCase("unknown-domain", lambda d: xhip.compile(unknown_domain_model()), OnnxImportError, r"test_model: unsupported ONNX ops at opset 17: com\.example\.Relu \(f\)"),
    ApiCase("opset-too-new", lambda d: xhip.compile(newer_opset_model()), OnnxImportError, r"test_model: opset 99 is newer than this onnx package knows \(\d+\)"),
    ApiCase("no-default-opset", lambda d: xhip.compile(no_default_opset_model()), OnnxImportError, r"test_model: the model imports no version of the default ONNX opset"),
    ApiCase("external-data-missing", lambda d: xhip.compile(save_external(d, "delete")), OnnxImportError, r".*m\.onnx: cannot read: .*m\.onnx\.data.*"),
    ApiCase("external-data-short", lambda d: xhip.compile(save_external(d, "truncate")), OnnxImportError, r".*m\.onnx: cannot read: External data length \(4096\) exceeds .*"),
    ApiCase("bad-pipeline", lambda d: xhip.compile_to_ir(ATTENTION_ONNX, pipeline="cse,no-such-pass"), PipelineError, r"unknown pass 'no-such-pass'.*"),
    ApiCase("unknown-device", lambda d: xhip.compile(ATTENTION_ONNX, device="tpu"), DeviceUnavailable, r"--device tpu: unknown device; choose one of cpu, hip, cuda, auto"),
    ApiCase("input-unknown-name", _call(lambda: {"Y": _x(2, 5, 64)}), InputError, r"unknown input 'Y'; the model takes 'X'"),
    ApiCase("input-missing", _call(lambda: {}), InputError, r"missing input X: float32\[batch, seq, 64\]"),
    ApiCase("input-wrong-rank", _call(lambda: {"X": _x(5, 64)}), InputError, r"input 'X' has rank 2 \(shape \(5, 64\)\), expected rank 3 \(X: float32\[batch, seq, 64\]\)"),
    ApiCase("input-wrong-dim", _call(lambda: {"X": _x(2, 5, 32)}), InputError, r"input 'X' dim 2 is 32, expected 64"),
    ApiCase("input-wrong-dtype", _call(lambda: {"X": _x(2, 5, 64, dtype=np.float64)}), InputError, r"input 'X' has dtype float64, expected float32"),
    ApiCase("input-not-an-array", _call(lambda: {"X": [[1.0]]}), InputError, r"input 'X' is a list, expected a numpy array"),
    ApiCase("inputs-not-a-dict", _call(lambda: _x(2, 5, 64)), InputError, r"a model takes its inputs as a dict \{name: array\}, not 'ndarray'; the model takes 'X'"),
    ApiCase("inputs-a-list-to-a-specializing-model", _call(lambda: [_x(2, 3)], lambda: xhip.compile(axes_input_model())), InputError, r"a model takes its inputs as a dict \{name: array\}, not 'list'; the model takes 'x', 'axes'"),
    ApiCase("named-dims-disagree", _call(lambda: {"a": _x(2, 4), "b": _x(3, 4)}, lambda: xhip.compile(two_inputs_model())), InputError, r"input 'b' dim 0 \(batch\) is 3, but input 'a' dim 0 \(batch\) is 2"),
    ApiCase("pool-over-max-memory", lambda d: xhip.compile(ATTENTION_ONNX, max_memory="1M")({"X": _x(64, 256, 64)}), MemoryLimitError, rf"output 'out' needs {NUM} MB \(4194304 bytes\) for batch=64, seq=256 with {NUM} KB already in use; the limit is 1\.0 MB \(max_memory\)"),
    ApiCase("max-memory-malformed", lambda d: xhip.compile(ATTENTION_ONNX, max_memory="lots"), ValueError, r"expected a size such as 8G, 512M or 1000000, got 'lots'"),
]  # fmt: skip


@pytest.mark.parametrize("case", API_CASES, ids=[c.id for c in API_CASES])
def test_bad_input_through_the_api(case: ApiCase, tmp_path: Path) -> None:
    with pytest.raises(case.error) as caught:
        case.call(tmp_path)
    assert type(caught.value) is case.error  # the library's own, not a subclass
    message = str(caught.value)
    assert len(message.splitlines()) == 1, message
    assert re.fullmatch(case.message, message), message
    # Only the bad model's own files: no IR, constants or temporary file.
    assert {p.suffix for p in tmp_path.iterdir()} <= {".onnx", ".data"}


def test_compile_to_ir_leaves_no_constants_file_for_a_bad_model(tmp_path: Path):
    with pytest.raises(OnnxImportError):
        xhip.compile_to_ir(cycle_model(), externalize_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_refused_call_frees_what_it_allocated_and_the_next_one_runs():
    """MemoryLimitError is raised before allocating the buffer that does not
    fit, and whatever the call had allocated is released."""
    model = xhip.compile(ATTENTION_ONNX, max_memory="8M")
    held = model.runtime.allocations.in_use
    with pytest.raises(
        MemoryLimitError, match=r"the memory pool needs .* for batch=8, seq=1024"
    ):
        model({"X": _x(8, 1024, 64)})  # 2 MB out, a pool over 32 MB
    assert model.runtime.allocations.in_use == held
    x = np.random.default_rng(0).standard_normal((2, 5, 64)).astype(np.float32)
    (want,) = _ort(ATTENTION_ONNX, {"X": x})
    np.testing.assert_allclose(model({"X": x})["out"], want, rtol=1e-5, atol=1e-6)


def test_sizes_parse_and_print_in_the_same_units() -> None:
    assert parse_size("8G") == 8 * 10**9 and parse_size("512M") == 512 * 10**6
    assert parse_size("4GiB") == 4 << 30 and parse_size("1.5T") == 15 * 10**11
    assert parse_size("1000000") == 10**6
    assert format_bytes(4398046511104) == "4.4 TB"
    assert format_bytes(parse_size("24G")) == "24.0 GB"
    for bad in ("", "G", "-1G", "0", "8X"):
        with pytest.raises(ValueError):
            parse_size(bad)


# NaN and infinities: data, propagated exactly as ONNX Runtime does.


def _ort(model: onnx.ModelProto | Path, feeds: dict[str, np.ndarray]) -> list[Any]:
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def relu_softmax_model() -> onnx.ModelProto:
    return make_model(
        [
            helper.make_node("Relu", ["x"], ["r"], name="relu"),
            helper.make_node("Softmax", ["r"], ["y"], name="softmax_relu", axis=-1),
            helper.make_node("Softmax", ["x"], ["z"], name="softmax", axis=-1),
        ],
        [tensor("x", F, [5, 5])],
        [tensor("r", F, [5, 5]), tensor("y", F, [5, 5]), tensor("z", F, [5, 5])],
    )


def _special_values() -> np.ndarray:
    nan, inf = np.nan, np.inf
    return np.array(
        [
            [nan, 1, 2, 3, 4],
            [inf, 1, 2, 3, 4],
            [-inf, 1, 2, 3, 4],
            [inf, -inf, 0, 1, nan],
            [-inf, -inf, -inf, -inf, -inf],
        ],
        np.float32,
    )


def _attention_specials() -> np.ndarray:
    x = np.random.default_rng(1).standard_normal((2, 5, 64)).astype(np.float32)
    x[0, 1, 3] = np.nan
    x[1, 2, :] = np.inf
    x[1, 4, 0] = -np.inf
    return x


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(
    ("model", "name", "x"),
    [
        (relu_softmax_model, "x", _special_values),
        (lambda: onnx.load(str(ATTENTION_ONNX)), "X", _attention_specials),
    ],
    ids=["relu-softmax", "attention"],
)
def test_nan_and_inf_propagate_as_in_onnxruntime(
    model: Callable[[], onnx.ModelProto],
    name: str,
    x: Callable[[], np.ndarray],
    debug: bool,
    recwarn: pytest.WarningsRecorder,
) -> None:
    """Position by position: NaN where ONNX Runtime has NaN, the same
    infinities, the same finite numbers; and no numpy warning per op."""
    proto = model()
    feeds = {name: x()}
    got = list(xhip.compile(proto, debug=debug)(feeds).values())
    want = _ort(proto, feeds)
    assert any(np.isnan(w).any() for w in want)  # the case means something
    for ours, theirs in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
        np.testing.assert_array_equal(np.isposinf(ours), np.isposinf(theirs))
        np.testing.assert_array_equal(np.isneginf(ours), np.isneginf(theirs))
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6, equal_nan=True)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
