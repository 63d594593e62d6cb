"""External weights are mapped, copied file to file and run in place, never read
into Python: `xhip.mapped`, the importer, the constants file, the CPU runtime."""

from __future__ import annotations

import errno
import importlib.util
import io
import os
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import numpy_helper
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.passes import PassPipeline
from xdsl.printer import Printer

import xhip
from tests.pytest.conftest import REPO
from xhip import mapped
from xhip.backend.session import CompiledModel
from xhip.context import make_context
from xhip.dialects import onnx as onnx_dialect
from xhip.frontend.onnx_importer import MAP_MIN_BYTES, OnnxImportError, import_model
from xhip.pipeline import onnx_to_hip_passes
from xhip.transforms.onnx_to_hip.constants import ALIGNMENT

EXTERNALIZE = 256
"""The pipeline's `externalize-min-num-elements`."""


def big_model_script() -> ModuleType:
    """`benchmarks/big_model.py` as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "xhip_big_model", REPO / "benchmarks" / "big_model.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_model(directory: Path, layers: int = 2, d: int = 128) -> Path:
    """A stack of transformer blocks, every initializer of 1 KiB or more in
    `model.onnx.data`; d=128 makes the weights 64 KiB and up (mapped)."""
    path = big_model_script().write_big_model(str(directory), layers, d, heads=4)
    return Path(path)


def data_size(model: Path) -> int:
    return (model.parent / "model.onnx.data").stat().st_size


def compile_module(model: Path, out: Path) -> ModuleOp:
    """Import and `onnx-to-hip`, the constants file to `out`: what `xhip compile` runs."""
    module = import_model(model)
    PassPipeline(tuple(onnx_to_hip_passes(EXTERNALIZE, str(out))), None).apply(
        make_context(), module
    )
    return module


def expected_constants(model: Path) -> bytes:
    """The constants file built from numpy arrays (onnx reads the external
    data): the initializers of at least 256 elements in graph order, each at
    the next multiple of 64 bytes (docs/constants-file.md)."""
    proto = onnx.load(str(model))  # with its external data, the old way
    blob = bytearray()
    for tensor in proto.graph.initializer:
        array = numpy_helper.to_array(tensor)
        if array.size >= EXTERNALIZE:
            blob += bytes(-len(blob) % ALIGNMENT)
            blob += np.ascontiguousarray(array).tobytes()
    return bytes(blob)


def ort_outputs(model: Path, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {"X": x})[0])


def test_compiled_model_with_external_weights_matches_onnxruntime(tmp_path: Path):
    model = write_model(tmp_path)
    x = np.random.default_rng(1).standard_normal((2, 5, 128)).astype(np.float32)
    got = xhip.compile(model)({"X": x})["Y"]
    np.testing.assert_allclose(got, ort_outputs(model, x), rtol=1e-4, atol=1e-4)


def test_constants_file_is_the_weights_byte_for_byte(tmp_path: Path):
    model = write_model(tmp_path / "m")
    compile_module(model, tmp_path / "mapped")
    streamed = (tmp_path / "mapped" / "model.constants.bin").read_bytes()
    assert streamed == expected_constants(model)
    # The same file as from a model whose weights are in memory.
    xhip.compile_to_ir(onnx.load(str(model)), externalize_dir=tmp_path / "memory")
    assert (tmp_path / "memory" / "model.constants.bin").read_bytes() == streamed


def test_large_weights_are_views_of_the_mapped_file(tmp_path: Path):
    model = write_model(tmp_path)
    module = import_model(model)
    large = [
        op.value.data.data
        for op in module.walk()
        if isinstance(op, onnx_dialect.ConstantOp)
        and isinstance(op.value, DenseIntOrFPElementsAttr)
        and len(op.value.data.data) >= MAP_MIN_BYTES
    ]
    assert len(large) == 2 * 6  # q, k, v, o, fc1, fc2 per layer
    for data in large:
        source = mapped.file_range(data)
        assert source is not None
        assert source[0] == str(tmp_path / "model.onnx.data")


def test_import_and_compile_make_no_copy_of_the_weights(tmp_path: Path):
    compile_module(write_model(tmp_path / "warm", layers=1), tmp_path / "o1")
    model = write_model(tmp_path / "m", layers=1, d=512)
    weights = data_size(model)
    tracemalloc.start()
    try:
        compile_module(model, tmp_path / "o2")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert weights > 12_000_000
    assert peak < weights / 8, f"{peak} bytes allocated for {weights} of weights"


def test_cpu_runtime_runs_the_mapped_constants_in_place(tmp_path: Path):
    model = write_model(tmp_path / "m", layers=1, d=512)
    ir = xhip.compile_to_ir(model, externalize_dir=tmp_path / "out")
    blob = memoryview(mapped.map_file(str(tmp_path / "out" / "model.constants.bin")))
    x = np.random.default_rng(2).standard_normal((1, 3, 512)).astype(np.float32)
    warm = CompiledModel(ir.module, ir.signature, blob)
    warm({"X": x})
    tracemalloc.start()
    try:
        got = CompiledModel(ir.module, ir.signature, blob)({"X": x})["Y"]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The plan's buffers and scratch: far below one copy of the weights.
    assert peak < len(blob) / 4, f"{peak} bytes allocated for {len(blob)} of weights"
    np.testing.assert_allclose(got, ort_outputs(model, x), rtol=1e-4, atol=1e-4)


def printed(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def test_imported_ir_prints_as_with_weights_in_memory(tmp_path: Path):
    model = write_model(tmp_path, layers=1)
    in_memory = printed(import_model(onnx.load(str(model)), source=str(model)))
    assert printed(import_model(model)) == in_memory
    proto = onnx.load(str(model), load_external_data=False)
    mapped_proto = import_model(proto, source=str(model), base_dir=str(tmp_path))
    assert printed(mapped_proto) == in_memory


@pytest.mark.parametrize(
    "unsupported",
    [["copy_file_range"], ["copy_file_range", "sendfile"]],
    ids=["sendfile", "pwrite"],
)
def test_every_way_of_copying_writes_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unsupported: list[str]
):
    """Where the kernel cannot copy between the two files (EXDEV: two file
    systems), `sendfile`, then a plain write from the mapping, take over."""
    model = write_model(tmp_path / "m")

    def refuse(*_: object) -> int:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    for name in unsupported:
        monkeypatch.setattr(os, name, refuse)
    compile_module(model, tmp_path / "out")
    blob = (tmp_path / "out" / "model.constants.bin").read_bytes()
    assert blob == expected_constants(model)


def test_write_at_copies_a_mapped_range_and_writes_bytes(tmp_path: Path):
    source = tmp_path / "src"
    source.write_bytes(bytes(range(256)) * 4)
    view = memoryview(mapped.map_file(str(source)))[100:300]
    assert mapped.file_range(view) == (str(source), 100)
    assert mapped.file_range(bytes(view)) is None
    target = tmp_path / "dst"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT)
    try:
        mapped.write_at(fd, 10, view)
        mapped.write_at(fd, 0, b"0123456789")
    finally:
        os.close(fd)
    assert target.read_bytes() == b"0123456789" + bytes(view)


def _external(tmp_path: Path, change: Callable[[Path, onnx.ModelProto], None]) -> Path:
    """The 1-layer model with its data file or its references changed."""
    model = write_model(tmp_path, layers=1)
    proto = onnx.load(str(model), load_external_data=False)
    change(tmp_path, proto)
    onnx.save(proto, str(model))
    return model


def _set_location(proto: onnx.ModelProto, location: str) -> None:
    for tensor in proto.graph.initializer:
        for entry in tensor.external_data:
            if entry.key == "location":
                entry.value = location


BAD = [
    (
        "missing",
        lambda d, _: (d / "model.onnx.data").unlink(),
        r"cannot read: initializer '\w+': external data file .*model\.onnx\.data "
        r"does not exist",
    ),
    (
        "short",
        lambda d, _: os.truncate(d / "model.onnx.data", 1000),
        r"cannot read: External data length \(\d+\) exceeds available data "
        r"\(\d+ bytes from offset \d+\) in .*model\.onnx\.data, for initializer '\w+'",
    ),
    (
        "empty",
        lambda d, _: os.truncate(d / "model.onnx.data", 0),
        r"cannot read: External data length \(\d+\) exceeds available data "
        r"\(0 bytes from offset \d+\) in .*model\.onnx\.data, for initializer '\w+'",
    ),
    (
        "outside",
        lambda _, p: _set_location(p, "../model.onnx.data"),
        r"cannot read: initializer '\w+': external data location "
        r"'\.\./model\.onnx\.data' is not a file inside the model's directory .*",
    ),
]


@pytest.mark.parametrize(
    "change, message", [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_bad_external_data_is_one_line_naming_file_and_tensor(
    tmp_path: Path, change: Callable[[Path, onnx.ModelProto], None], message: str
):
    model = _external(tmp_path, change)
    with pytest.raises(OnnxImportError) as raised:
        import_model(model)
    text = str(raised.value)
    assert "\n" not in text
    assert text.startswith(f"{model}: ")
    assert re.fullmatch(message, text.removeprefix(f"{model}: ")), text
