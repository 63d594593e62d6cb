"""Passes 1-4 (hip-add-context-arg .. buffer-results-to-out-params).

The lit tests check printed IR; these check what text cannot show well: whole
modules against the seed up to SSA names, the bytes of the constants file,
that a failing run leaves no file behind, the ABI on every hand-written model,
and the shape algebra of the reshape conversion.
"""

from __future__ import annotations

import struct
import warnings
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import bufferization, func
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    f32,
)
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tests.pytest.conftest import REPO, STAGES
from xhip.context import make_context
from xhip.dialects.hip import ContextType
from xhip.dialects.memref import GlobalOp
from xhip.testing import count_calls, parse_module
from xhip.transforms.buffer_results_to_out_params import BufferResultsToOutParamsPass
from xhip.transforms.convert_onnx_to_hip import ConvertOnnxToHipPass
from xhip.transforms.hip_add_context_arg import HipAddContextArgPass
from xhip.transforms.one_shot_bufferize import (
    OneShotBufferizePass,
    expanded_type,
)
from xhip.transforms.onnx_to_hip.constants import ALIGNMENT, ElidedConstantWarning
from xhip.transforms.onnx_to_hip.reshape import Dim, reassociate

INPUTS = REPO / "tests" / "filecheck" / "Inputs"
MODELS = sorted(INPUTS.glob("*.onnx.mlir"))


def stage(number: int) -> str:
    (path,) = STAGES.glob(f"after-pass-{number:02d}-*.mlir")
    return path.read_text()


def run(module: ModuleOp, *passes: ModulePass) -> ModuleOp:
    ctx = make_context()
    for p in passes:
        p.apply(ctx, module)
    module.verify()
    return module


def passes_1_to_4(output_dir: Path | None) -> list[ModulePass]:
    convert = (
        ConvertOnnxToHipPass(256, str(output_dir))
        if output_dir is not None
        else ConvertOnnxToHipPass()
    )
    return [
        HipAddContextArgPass(),
        convert,
        OneShotBufferizePass(),
        BufferResultsToOutParamsPass(),
    ]


@pytest.mark.parametrize(
    ("before", "pass_", "after"),
    [
        (2, OneShotBufferizePass(), 3),
        (3, BufferResultsToOutParamsPass(), 4),
    ],
    ids=["one-shot-bufferize", "buffer-results-to-out-params"],
)
def test_pass_on_seed_stage(before: int, pass_: ModulePass, after: int) -> None:
    result = run(parse_module(stage(before)), pass_)
    assert result.is_structurally_equivalent(parse_module(stage(after)))


def test_convert_on_seed_stage(tmp_path: Path) -> None:
    with pytest.warns(ElidedConstantWarning, match="3 constant"):
        result = run(parse_module(stage(1)), ConvertOnnxToHipPass(256, str(tmp_path)))
    assert result.is_structurally_equivalent(parse_module(stage(2)))
    # Elided weights: three 64x64 f32 of zeros, back to back.
    assert (tmp_path / "model.constants.bin").read_bytes() == bytes(3 * 64 * 64 * 4)


def test_chain_from_onnx_input_reaches_stage_4(tmp_path: Path) -> None:
    module = parse_module((INPUTS / "attention.onnx.mlir").read_text())
    with pytest.warns(ElidedConstantWarning):
        result = run(module, *passes_1_to_4(tmp_path))
    assert result.is_structurally_equivalent(parse_module(stage(4)))
    assert not result.is_structurally_equivalent(parse_module(stage(3)))


def test_constants_file_holds_real_data_in_program_order(tmp_path: Path) -> None:
    module = parse_module((INPUTS / "attention_static.onnx.mlir").read_text())
    run(module, HipAddContextArgPass(), ConvertOnnxToHipPass(256, str(tmp_path)))
    data = np.frombuffer((tmp_path / "model.constants.bin").read_bytes(), np.float32)
    expected = np.concatenate(
        [np.full(64 * 64, v, np.float32) for v in (0.01, 0.02, 0.03)]
    )
    np.testing.assert_array_equal(data, expected)
    assert module.attributes["hip.constants_file"].data == "model.constants.bin"  # pyright: ignore


def test_constants_are_aligned_and_typed(tmp_path: Path) -> None:
    text = (
        """
    func.func @f(%ctx: !hip.context) -> (tensor<3xi64>, tensor<2x2xf16>, tensor<5xf32>) {
      %0 = "onnx.Constant"() {value = dense<[7, -1, 9]> : tensor<3xi64>} : () -> tensor<3xi64>
      %1 = "onnx.Constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>} : () -> tensor<2x2xf16>
      %2 = "onnx.Constant"() {value = dense_resource<w> : tensor<5xf32>} : () -> tensor<5xf32>
      func.return %0, %1, %2 : tensor<3xi64>, tensor<2x2xf16>, tensor<5xf32>
    }
    {-# dialect_resources: { builtin: { w: "0x04000000"""
        + "".join(struct.pack("<f", v).hex() for v in (0.5, 1.5, 2.5, 3.5, 4.5))
        + """" } } #-}
    """
    )
    module = parse_module(text)
    run(module, ConvertOnnxToHipPass(1, str(tmp_path)))
    blob = (tmp_path / "model.constants.bin").read_bytes()
    globals_ = {
        op.sym_name.data: op.attributes["hip.external_data"]
        for op in module.ops
        if op.name == "memref.global"
    }
    offsets = {
        name: (d.data["offset"].value.data, d.data["size"].value.data)  # pyright: ignore
        for name, d in globals_.items()
    }
    assert offsets == {
        "hip_ext_constant_0": (0, 24),
        "hip_ext_constant_1": (64, 8),
        "hip_ext_constant_2": (128, 20),
    }
    assert len(blob) == 148
    assert np.frombuffer(blob[:24], np.int64).tolist() == [7, -1, 9]
    assert blob[24:64] == bytes(40)
    assert np.frombuffer(blob[64:72], np.float16).tolist() == [1, 2, 3, 4]
    assert np.frombuffer(blob[128:], np.float32).tolist() == [0.5, 1.5, 2.5, 3.5, 4.5]


def test_constants_ops_are_what_the_builders_make(tmp_path: Path) -> None:
    """`ConvertConstant._external` `create`s its ops with shared types and
    attributes: the same ops as xDSL's builders make."""
    module = parse_module((INPUTS / "attention_static.onnx.mlir").read_text())
    run(module, HipAddContextArgPass(), ConvertOnnxToHipPass(256, str(tmp_path)))
    built = [op for op in module.walk() if isinstance(op, GlobalOp)]
    assert len(built) == 3
    for global_op in built:
        name = global_op.sym_name.data
        (use,) = [
            op
            for op in module.walk()
            if isinstance(op, xmemref.GetGlobalOp) and op.name_.string_value() == name
        ]
        (to_tensor,) = [u.operation for u in use.memref.uses]
        assert isinstance(to_tensor, bufferization.ToTensorOp)
        memref_type = global_op.type
        reference = GlobalOp(
            name,
            MemRefType(memref_type.element_type, memref_type.get_shape()),
            alignment=ALIGNMENT,
            attributes=dict(global_op.attributes),
        )
        get_global = xmemref.GetGlobalOp(name, memref_type)
        expected = [
            (global_op, reference),
            (use, get_global),
            (to_tensor, bufferization.ToTensorOp(get_global, restrict=True)),
        ]
        for ours, theirs in expected:
            assert type(ours) is type(theirs)
            assert list(ours.properties.items()) == list(theirs.properties.items())
            assert ours.attributes == theirs.attributes
            assert ours.result_types == theirs.result_types


def test_failure_leaves_no_file_and_keeps_the_old_one(tmp_path: Path) -> None:
    old = tmp_path / "model.constants.bin"
    old.write_bytes(b"previous build")
    module = parse_module(
        """
        func.func @f(%ctx: !hip.context, %x: tensor<16xf32>, %e: tensor<i64>) -> tensor<16xf32> {
          %w = "onnx.Constant"() {value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
          %0 = "onnx.Add"(%x, %w) {onnx_node_name = "a"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
          %1 = "onnx.Pow"(%e, %0) {onnx_node_name = "c1"} : (tensor<i64>, tensor<16xf32>) -> tensor<16xf32>
          %2 = "onnx.Concat"(%1, %e) <{axis = 0 : si64}> {onnx_node_name = "c2"} : (tensor<16xf32>, tensor<i64>) -> tensor<16xf32>
          func.return %2 : tensor<16xf32>
        }
        """
    )
    with pytest.raises(PassFailedException) as info:
        ConvertOnnxToHipPass(1, str(tmp_path)).apply(make_context(), module)
    message = str(info.value)
    assert "2 op(s)" in message
    assert "onnx.Pow (node 'c1')" in message and "onnx.Concat (node 'c2')" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.constants.bin"]
    assert old.read_bytes() == b"previous build"


def test_without_externalization_no_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    module = parse_module((INPUTS / "mlp_gemm_relu.onnx.mlir").read_text())
    run(module, *passes_1_to_4(None))
    assert list(tmp_path.iterdir()) == []
    assert "hip.constants_file" not in module.attributes


@pytest.mark.parametrize("model", MODELS, ids=[m.name.split(".")[0] for m in MODELS])
def test_abi_after_pass_4(model: Path, tmp_path: Path) -> None:
    text = model.read_text()
    module = parse_module(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(module, *passes_1_to_4(tmp_path))
    elided = [w for w in caught if issubclass(w.category, ElidedConstantWarning)]
    assert bool(elided) == ("__elided__" in text)
    for op in module.walk():
        for value in (*op.operands, *op.results):
            assert not isinstance(value.type, TensorType), op
        assert not op.name.startswith("onnx.")
    (main,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    inputs = main.function_type.inputs.data
    assert isinstance(inputs[0], ContextType)
    assert main.function_type.outputs.data == ()
    assert main.arg_attrs is not None
    outs = [
        t
        for t, attrs in zip(inputs, main.arg_attrs.data)
        if "bufferize.result" in attrs.data
    ]
    assert outs and all(
        isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr) for t in outs
    )
    source = parse_module(model.read_text())
    (original,) = [op for op in source.ops if isinstance(op, func.FuncOp)]
    assert len(outs) == len(original.function_type.outputs.data)


def _same_typed_constants(count: int) -> str:
    types = ", ".join(["tensor<2xf32>"] * count)
    lines = [
        f"  %c{i} = arith.constant dense<[{i}.0, 1.0]> : tensor<2xf32>"
        for i in range(count)
    ]
    names = ", ".join(f"%c{i}" for i in range(count))
    return "\n".join(
        [
            f"func.func @f() -> ({types}) {{",
            *lines,
            f"  func.return {names} : {types}",
            "}",
        ]
    )


def _bufferize_calls(count: int) -> int:
    module = parse_module(_same_typed_constants(count))
    ctx = make_context()
    return count_calls(lambda: OneShotBufferizePass().apply(ctx, module))


def test_bufferize_names_constants_in_linear_time() -> None:
    """Constants of one type get `_0`, `_1`, ...: 4x the constants must cost about
    4x the work, not 16x or 64x (a name search from `_0` each time)."""
    _bufferize_calls(2)
    small, large = _bufferize_calls(25), _bufferize_calls(100)
    assert large < 5 * small, (small, large)


def test_reassociate_tracks_dynamic_dims() -> None:
    b, s = Dim(1, (0,)), Dim(1, (1,))
    # ?x?x256 -> ?x?x4x64: the 256 splits, the dynamic dims stay alone.
    assert reassociate([b, s, Dim(256)], [b, s, Dim(4), Dim(64)]) == [[0], [1], [2, 3]]
    # ?x?x64 -> ?x(?*64): the product of a dynamic dim and 64.
    assert reassociate([b, s * Dim(64)], [b, s, Dim(64)]) == [[0], [1, 2]]
    # The leftover of a -1 matches whatever is left.
    assert reassociate([Dim(rest=True), Dim(4)], [b, s]) is None
    assert reassociate([Dim(rest=True)], [b, s]) == [[0, 1]]
    # 2x3 -> 3x2 has no reassociation; unit dims may vanish into a neighbour.
    assert reassociate([Dim(3), Dim(2)], [Dim(2), Dim(3)]) is None
    assert reassociate([b, Dim(8)], [Dim(1), b, Dim(1), Dim(8)]) == [[0, 1], [2, 3]]
    assert reassociate([], [Dim(1), Dim(1)]) == []


def test_expanded_layout_multiplies_static_strides() -> None:
    source = MemRefType(f32, [6, 8], StridedLayoutAttr([16, 1], 4))
    result = expanded_type(source, [[0, 1], [2]], (2, 3, 8))
    assert result == MemRefType(f32, [2, 3, 8], StridedLayoutAttr([48, 16, 1], 4))
    # A dynamic size only matters inside its group, a dynamic offset stays.
    source = MemRefType(f32, [DYNAMIC_INDEX, 8], StridedLayoutAttr([8, 1], None))
    result = expanded_type(source, [[0, 1], [2]], (DYNAMIC_INDEX, 3, 8))
    assert result.layout == StridedLayoutAttr([24, 8, 1], None)
    result = expanded_type(source, [[0], [1, 2]], (DYNAMIC_INDEX, 2, 4))
    assert result.layout == StridedLayoutAttr([8, 4, 1], None)
    dynamic = MemRefType(f32, [4, 8], StridedLayoutAttr([None, 1], 0))
    result = expanded_type(dynamic, [[0, 1], [2]], (2, 2, 8))
    assert result.layout == StridedLayoutAttr([None, None, 1], 0)


def _onnx_model(nodes, inputs, outputs, initializers):  # type: ignore[no-untyped-def]
    import onnx
    from onnx import helper, numpy_helper

    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, s)
            for n, s in inputs
        ],
        [
            helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, s)
            for n, s in outputs
        ],
        [numpy_helper.from_array(v, k) for k, v in initializers.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _differential_cases():  # type: ignore[no-untyped-def]
    from onnx import helper

    rng = np.random.default_rng(0)

    def rand(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    yield (
        "gemm-relu",
        _onnx_model(
            [
                helper.make_node("Gemm", ["X", "W1", "b1"], ["h"], transB=1),
                helper.make_node("Relu", ["h"], ["r"]),
                helper.make_node("Gemm", ["r", "W2", "b2"], ["Y"], alpha=0.5, beta=2.0),
            ],
            [("X", ["N", 16])],
            [("Y", ["N", 8])],
            {"W1": rand(32, 16), "b1": rand(32), "W2": rand(32, 8), "b2": rand(8)},
        ),
        {"X": rand(5, 16)},
    )
    yield (
        "heads",
        _onnx_model(
            [
                helper.make_node("Reshape", ["X", "s1"], ["a"]),
                helper.make_node("Transpose", ["a"], ["b"], perm=[0, 2, 1, 3]),
                helper.make_node("Softmax", ["b"], ["c"], axis=2),
                helper.make_node("Transpose", ["c"], ["d"], perm=[2, 0, 3, 1]),
                helper.make_node("Reshape", ["d", "s2"], ["Y"]),
            ],
            [("X", [2, 3, 256])],
            [("Y", [24, 64])],
            {
                "s1": np.array([0, 0, 4, 64], np.int64),
                "s2": np.array([-1, 64], np.int64),
            },
        ),
        {"X": rand(2, 3, 256)},
    )
    yield (
        "broadcast-views",
        _onnx_model(
            [
                helper.make_node("MatMul", ["A", "B"], ["C"]),
                helper.make_node("Flatten", ["C"], ["F"], axis=2),
                helper.make_node("Unsqueeze", ["F", "ax"], ["U"]),
                helper.make_node("Squeeze", ["U", "ax"], ["Y"]),
                helper.make_node("Sub", ["Y", "F"], ["Z"]),
            ],
            [("A", [1, 2, 4, 8]), ("B", [3, 1, 8, 3])],
            [("Y", [6, 12]), ("Z", [6, 12])],
            {"ax": np.array([0], np.int64)},
        ),
        {"A": rand(1, 2, 4, 8), "B": rand(3, 1, 8, 3)},
    )
    yield (
        "identity-output",
        _onnx_model(
            [
                helper.make_node("Identity", ["X"], ["Y"]),
                helper.make_node("Div", ["X", "d"], ["Z"]),
            ],
            [("X", ["n", 4])],
            [("Y", ["n", 4]), ("Z", ["n", 4])],
            {"d": np.full((4,), 3.0, np.float32)},
        ),
        {"X": rand(3, 4)},
    )


@pytest.mark.parametrize(
    ("model", "feeds"),
    [pytest.param(m, f, id=name) for name, m, f in _differential_cases()],
)
def test_conversions_match_onnxruntime(model: object, feeds: dict[str, np.ndarray]):
    """The ops these passes convert compute what ONNX Runtime computes."""
    ort = pytest.importorskip("onnxruntime")
    import xhip

    expected = ort.InferenceSession(model.SerializeToString()).run(None, feeds)  # pyright: ignore
    got = list(xhip.compile(model)(feeds).values())  # pyright: ignore
    assert len(got) == len(expected)
    for want, have in zip(expected, got):
        assert have.shape == want.shape
        np.testing.assert_allclose(have, want, rtol=1e-4, atol=1e-5)


def test_readback_walk_survives_a_deep_chain() -> None:
    """`sized_by_readback` walks a returned value's producers; a 100-layer
    export's chain is deeper than Python's recursion limit (an `xhip compile`
    of it raised RecursionError when the walk recursed)."""
    from xdsl.dialects import arith  # lazy: test only
    from xdsl.dialects.builtin import IndexType  # lazy: test only

    from xhip.transforms.buffer_results_to_out_params import (  # lazy: test only
        sized_by_readback,
    )

    value = arith.ConstantOp.from_int_and_width(1, IndexType()).result
    for _ in range(5_000):
        value = arith.AddiOp(value, value).result
    assert not sized_by_readback(value)
