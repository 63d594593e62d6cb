"""The real PyTorch exports onnx's wheel ships, with their inputs and outputs.

`onnx/backend/test/data/pytorch-converted` and `pytorch-operator` hold models
exported by PyTorch at opsets 6-9, each with `test_data_set_*/{input,output}_*.pb`.
The importer converts them to opset 13 (`onnx.version_converter`), so every one
either runs and matches its reference outputs, or is refused at import for
the ops xhip does not convert yet: `test_refused_only_for_missing_ops` checks
that no other failure hides among those. The count of refused models is
what the op issues bring down.
"""

from __future__ import annotations

import glob
import os
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper
from onnx.backend.test.runner import Runner

import xhip
from xhip.frontend import OnnxImportError, import_model
from xhip.frontend.onnx_importer import OpsetConversionWarning

DATA = Path(onnx.__file__).parent / "backend" / "test" / "data"
MODELS = sorted(
    Path(p).parent
    for family in ("pytorch-converted", "pytorch-operator")
    for p in glob.glob(str(DATA / family / "*" / "model.onnx"))
)


def _imports(folder: Path) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OpsetConversionWarning)
            import_model(folder / "model.onnx")
    except OnnxImportError:
        return False
    return True


def _tensors(folder: Path, kind: str) -> list[np.ndarray]:
    paths = sorted(glob.glob(str(folder / f"{kind}_*.pb")))
    arrays: list[np.ndarray] = []
    for path in paths:
        tensor = onnx.TensorProto()
        tensor.ParseFromString(Path(path).read_bytes())
        arrays.append(numpy_helper.to_array(tensor))
    return arrays


RUNNABLE = [m for m in MODELS if _imports(m)]
REFUSED = [m for m in MODELS if m not in RUNNABLE]


def test_the_data_is_there() -> None:
    assert len(MODELS) > 50


@pytest.mark.parametrize("folder", RUNNABLE, ids=[m.name for m in RUNNABLE])
def test_matches_reference_outputs(folder: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OpsetConversionWarning)
        model = xhip.compile(folder / "model.onnx")
    graph = onnx.load(str(folder / "model.onnx"), load_external_data=False).graph
    initializers = {t.name for t in graph.initializer}
    names = [v.name for v in graph.input if v.name not in initializers]
    for data_set in sorted(glob.glob(str(folder / "test_data_set_*"))):
        inputs = _tensors(Path(data_set), "input")
        expected = _tensors(Path(data_set), "output")
        got = model(dict(zip(names, inputs, strict=True)))
        Runner.assert_similar_outputs(
            expected, list(got.values()), rtol=1e-3, atol=1e-7
        )


def test_refused_only_for_missing_ops() -> None:
    """Every model imports today (`REFUSED` is empty); one that stops must be
    refused for an op the importer lacks, nothing else."""
    for folder in REFUSED:
        with pytest.raises(OnnxImportError, match="unsupported ONNX ops at opset"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", OpsetConversionWarning)
                import_model(folder / "model.onnx")


def test_old_opsets_are_converted_and_said_so() -> None:
    folder = next(m for m in RUNNABLE if m.name == "test_operator_add_broadcast")
    version = onnx.load(str(folder / "model.onnx")).opset_import[0].version
    assert version < 13
    with pytest.warns(
        OpsetConversionWarning, match=f"converted from opset {version} to 13"
    ):
        import_model(folder / "model.onnx")


def test_a_failed_conversion_is_one_line(tmp_path: Path) -> None:
    """An op the converter has no schema for stops it: one line, naming the file."""
    node = onnx.helper.make_node("NoSuchOp", ["x"], ["y"])
    graph = onnx.helper.make_graph(
        [node],
        "g",
        [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2])],
    )
    model = onnx.helper.make_model(
        graph, opset_imports=[onnx.helper.make_opsetid("", 9)]
    )
    path = tmp_path / "unknown.onnx"
    onnx.save(model, os.fspath(path))
    with pytest.raises(OnnxImportError) as error:
        import_model(path)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: cannot convert opset 9 to 13")
