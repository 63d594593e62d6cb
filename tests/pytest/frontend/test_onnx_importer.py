"""The ONNX importer: the seed's attention model, and small models of each op."""

from __future__ import annotations

import io
import tracemalloc
from typing import cast

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
)
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from tests.pytest.conftest import STAGES
from tests.pytest.frontend.models import (
    ATTENTION_ONNX,
    attention_example,
    make_model,
    tensor,
)
from xhip.dialects import onnx as onnx_d
from xhip.frontend import import_model


def main_graph(module: ModuleOp) -> func.FuncOp:
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    assert fn.sym_name.data == "main_graph"
    return fn


def body_ops(module: ModuleOp) -> list[Operation]:
    return [
        op for op in main_graph(module).body.ops if not isinstance(op, func.ReturnOp)
    ]


def type_str(op: Operation) -> str:
    return str(op.results[0].type)


def arg_attrs(fn: func.FuncOp, results: bool = False) -> list[dict[str, str]]:
    attrs = fn.res_attrs if results else fn.arg_attrs
    assert attrs is not None
    return [
        {k: cast(StringAttr, v).data for k, v in d.data.items()} for d in attrs.data
    ]


def constant_array(op: Operation, dtype: type[np.generic]) -> np.ndarray:
    value = op.attributes["value"]
    assert isinstance(value, DenseIntOrFPElementsAttr)
    shape = cast(TensorType, value.type).get_shape()
    return np.frombuffer(value.data.data, dtype=dtype).reshape(shape)


def roundtrip(module: ModuleOp, ctx: Context) -> ModuleOp:
    """Print and parse back: what we emit is valid, registered IR."""
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    parsed = Parser(ctx, stream.getvalue()).parse_module()
    parsed.verify()
    return parsed


# The seed's model.


def seed_pass1_input(ctx: Context) -> ModuleOp:
    text = (STAGES / "after-pass-01-hip-add-context-arg.mlir").read_text()
    return Parser(ctx, text.replace("%arg0: !hip.context, ", "")).parse_module()


def erase_weights(imported: ModuleOp, seed: ModuleOp) -> None:
    """Give both modules the same placeholder where the seed elides a weight."""
    pairs = zip(body_ops(imported), body_ops(seed), strict=True)
    for ours, theirs in pairs:
        if not isinstance(theirs, onnx_d.ConstantOp):
            continue
        value = theirs.attributes["value"]
        if isinstance(value, DenseIntOrFPElementsAttr):
            continue
        assert isinstance(ours, onnx_d.ConstantOp)
        assert ours.attributes["value"].type == value.type  # pyright: ignore
        ours.attributes["value"] = value


def test_attention_is_the_seed_input(ctx: Context):
    model = attention_example().build()
    imported = import_model(model)
    seed = seed_pass1_input(ctx)
    erase_weights(imported, seed)
    assert imported.is_structurally_equivalent(seed)

    # The comparison can fail: a changed node name is noticed.
    body_ops(imported)[4].attributes["onnx_node_name"] = StringAttr("renamed")
    assert not imported.is_structurally_equivalent(seed)


def test_attention_weights_are_the_initializers(ctx: Context):
    model = attention_example().build()
    module = import_model(model)
    constants = [op for op in body_ops(module) if isinstance(op, onnx_d.ConstantOp)]
    assert len(constants) == len(model.graph.initializer) == 4
    for op, init in zip(constants, model.graph.initializer, strict=True):
        np.testing.assert_array_equal(
            constant_array(op, np.float32), numpy_helper.to_array(init)
        )
        assert "onnx_node_name" not in op.attributes
    assert roundtrip(module, ctx).is_structurally_equivalent(module)


def test_attention_example_file_is_the_script_output():
    assert ATTENTION_ONNX.exists(), "run python examples/attention.py"
    on_disk = onnx.load(ATTENTION_ONNX)
    assert (
        on_disk.SerializeToString() == attention_example().build().SerializeToString()
    )
    module = import_model(ATTENTION_ONNX)
    assert module.attributes["onnx-mlir.symbol-postfix"] == StringAttr(
        "attention_dynamic"
    )


# Small models.


def gemm_model() -> onnx.ModelProto:
    rng = np.random.default_rng(1)
    w = rng.standard_normal((4, 8)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    return make_model(
        [
            helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1),
            helper.make_node("Relu", ["y"], ["z"], name="act"),
        ],
        [tensor("x", TensorProto.FLOAT, [3, 8])],
        [tensor("z", TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
    )


def test_static_gemm_with_transb(ctx: Context):
    model = gemm_model()
    module = import_model(model)
    w, b, gemm, relu = body_ops(module)
    assert isinstance(gemm, onnx_d.GemmOp) and isinstance(relu, onnx_d.ReluOp)
    assert type_str(gemm) == "tensor<3x4xf32>"
    # Every attribute, the spec's defaults included, sorted as MLIR prints them.
    assert list(gemm.properties) == ["alpha", "beta", "transA", "transB"]
    assert gemm.get_int("transB") == 1 and gemm.get_int("transA") == 0
    assert gemm.get_float("alpha") == 1.0
    assert gemm.properties["transB"] == IntegerAttr(
        1, IntegerType(64, Signedness.SIGNED)
    )
    assert [o for o in gemm.operands] == [
        main_graph(module).args[0],
        *w.results,
        *b.results,
    ]
    np.testing.assert_array_equal(
        constant_array(w, np.float32), numpy_helper.to_array(model.graph.initializer[0])
    )
    fn = main_graph(module)
    assert arg_attrs(fn) == [{"onnx.name": "x"}]
    assert arg_attrs(fn, results=True) == [{"onnx.name": "z"}]
    roundtrip(module, ctx)


def dynamic_model() -> onnx.ModelProto:
    """Reshape by an initializer, Constant nodes, several outputs, dynamic dims."""
    return make_model(
        [
            helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
            helper.make_node("Constant", [], ["two"], name="two", value_float=2.0),
            helper.make_node("Constant", [], ["axes"], name="axes", value_ints=[0]),
            helper.make_node(
                "Constant",
                [],
                ["bias"],
                name="bias",
                value=numpy_helper.from_array(np.arange(6, dtype=np.float32)),
            ),
            helper.make_node("Add", ["r", "bias"], ["a"], name="add"),
            helper.make_node("Sub", ["a", "two"], ["s"], name="sub"),
            helper.make_node("Div", ["s", "two"], ["d"], name="div"),
            helper.make_node("Unsqueeze", ["d", "axes"], ["u"], name="unsqueeze"),
            helper.make_node("Squeeze", ["u", "axes"], ["q"], name="squeeze"),
            helper.make_node("Flatten", ["x"], ["f"], name="flatten", axis=1),
            helper.make_node("Relu", ["q"], ["y"]),
        ],
        [tensor("x", TensorProto.FLOAT, ["batch", 2, 3])],
        [
            tensor("y", TensorProto.FLOAT, ["batch", 6]),
            tensor("f", TensorProto.FLOAT, [None, None]),
            tensor("u", TensorProto.FLOAT, [1, None, 6]),
        ],
        [numpy_helper.from_array(np.array([0, 6], np.int64), "shape")],
    )


def test_dynamic_model(ctx: Context):
    module = import_model(dynamic_model())
    ops = body_ops(module)
    assert [op.name for op in ops] == [
        "onnx.Constant",
        "onnx.Reshape",
        "onnx.Constant",
        "onnx.Constant",
        "onnx.Constant",
        "onnx.Add",
        "onnx.Sub",
        "onnx.Div",
        "onnx.Unsqueeze",
        "onnx.Squeeze",
        "onnx.Flatten",
        "onnx.Relu",
    ]
    types = {
        cast(StringAttr, op.attributes["onnx_node_name"]).data: type_str(op)
        for op in ops[1:]
    }
    assert types == {
        "reshape": "tensor<?x6xf32>",
        "two": "tensor<f32>",
        "axes": "tensor<1xi64>",
        "bias": "tensor<6xf32>",
        "add": "tensor<?x6xf32>",
        "sub": "tensor<?x6xf32>",
        "div": "tensor<?x6xf32>",
        "unsqueeze": "tensor<1x?x6xf32>",
        "squeeze": "tensor<?x6xf32>",
        "flatten": "tensor<?x6xf32>",
        # An unnamed node is named after its output.
        "y": "tensor<?x6xf32>",
    }
    reshape = ops[1]
    assert isinstance(reshape, onnx_d.ReshapeOp) and reshape.get_int("allowzero") == 0
    assert isinstance(ops[10], onnx_d.FlattenOp) and ops[10].get_int("axis") == 1
    np.testing.assert_array_equal(constant_array(ops[0], np.int64), [0, 6])
    np.testing.assert_array_equal(constant_array(ops[2], np.float32), 2.0)
    np.testing.assert_array_equal(constant_array(ops[3], np.int64), [0])
    np.testing.assert_array_equal(constant_array(ops[4], np.float32), np.arange(6))

    fn = main_graph(module)
    assert [str(t) for t in fn.function_type.outputs] == [
        "tensor<?x6xf32>",
        "tensor<?x6xf32>",
        "tensor<1x?x6xf32>",
    ]
    assert arg_attrs(fn) == [{"onnx.dim_params": "0:batch", "onnx.name": "x"}]
    # `f` is declared without dim names; inference knows its first dim is batch.
    assert arg_attrs(fn, results=True) == [
        {"onnx.dim_params": "0:batch", "onnx.name": "y"},
        {"onnx.dim_params": "0:batch", "onnx.name": "f"},
        {"onnx.dim_params": "1:batch", "onnx.name": "u"},
    ]
    ret = list(fn.body.ops)[-1]
    assert isinstance(ret, func.ReturnOp)
    assert [o.owner for o in ret.operands] == [ops[11], ops[10], ops[8]]
    roundtrip(module, ctx)


def test_declared_output_shape_refines_inference():
    """Reshape to [-1] leaves the dim open to onnx; the declared output closes it."""
    model = make_model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="flat")],
        [tensor("x", TensorProto.FLOAT, ["n", 3])],
        [tensor("y", TensorProto.FLOAT, [6])],
        [numpy_helper.from_array(np.array([-1], np.int64), "shape")],
    )
    (_, reshape) = body_ops(import_model(model))
    assert type_str(reshape) == "tensor<6xf32>"


def test_unused_initializers_are_dropped_and_order_kept():
    inits = [
        numpy_helper.from_array(np.full((2, 3), i, np.float32), f"c{i}")
        for i in range(4)
    ]
    model = make_model(
        [
            helper.make_node("Add", ["x", "c2"], ["a"], name="a"),
            helper.make_node("Mul", ["a", "c0"], ["y"], name="m"),
        ],
        [tensor("x", TensorProto.FLOAT, [2, 3])],
        [tensor("y", TensorProto.FLOAT, [2, 3])],
        inits,
    )
    ops = body_ops(import_model(model))
    values = [constant_array(op, np.float32)[0, 0] for op in ops[:2]]
    assert values == [0.0, 2.0]
    assert [op.name for op in ops[2:]] == ["onnx.Add", "onnx.Mul"]


@pytest.mark.parametrize(
    ("elem", "dtype", "mlir"),
    [
        (TensorProto.FLOAT16, np.float16, "f16"),
        (TensorProto.DOUBLE, np.float64, "f64"),
        (TensorProto.INT32, np.int32, "i32"),
        (TensorProto.UINT8, np.uint8, "ui8"),
        (TensorProto.BOOL, np.bool_, "i1"),
    ],
)
def test_element_types(elem: int, dtype: type[np.generic], mlir: str, ctx: Context):
    data = (np.arange(6).reshape(2, 3) % 3).astype(dtype)
    model = make_model(
        [helper.make_node("Identity", ["c"], ["y"], name="id")],
        [],
        [tensor("y", elem, [2, 3])],
        [numpy_helper.from_array(data, "c")],
    )
    module = import_model(model)
    const, ident = body_ops(module)
    assert type_str(ident) == f"tensor<2x3x{mlir}>"
    np.testing.assert_array_equal(constant_array(const, dtype), data)
    roundtrip(module, ctx)


def test_cast_and_concat_and_transpose_default():
    model = make_model(
        [
            helper.make_node("Cast", ["x"], ["c"], name="cast", to=TensorProto.DOUBLE),
            helper.make_node("Concat", ["c", "c"], ["cc"], name="cat", axis=1),
            helper.make_node("Transpose", ["cc"], ["y"], name="t"),
            helper.make_node("Softmax", ["x"], ["s"], name="sm", axis=0),
        ],
        [tensor("x", TensorProto.FLOAT, [2, "k"])],
        [
            tensor("y", TensorProto.DOUBLE, [None, 2]),
            tensor("s", TensorProto.FLOAT, [2, None]),
        ],
        opset=19,
    )
    cast_op, cat, transpose, softmax = body_ops(import_model(model))
    assert str(cast_op.properties["to"]) == "f64"
    assert cast_op.properties["saturate"] == IntegerAttr(
        1, IntegerType(64, Signedness.SIGNED)
    )
    assert type_str(cat) == "tensor<2x?xf64>"
    assert type_str(transpose) == "tensor<?x2xf64>"
    assert (
        isinstance(transpose, onnx_d.TransposeOp) and "perm" not in transpose.properties
    )
    assert isinstance(softmax, onnx_d.SoftmaxOp) and softmax.get_int("axis") == 0


def test_defaults_and_integer_attributes_per_node():
    """The defaults read once per op type and the integer attributes shared
    between nodes still give each node its own attributes."""
    model = make_model(
        [
            helper.make_node("Transpose", ["x"], ["a"], name="t0", perm=[1, 0]),
            helper.make_node("Transpose", ["a"], ["b"], name="t1"),
            helper.make_node("Transpose", ["b"], ["c"], name="t2", perm=[1, 0]),
            helper.make_node("Softmax", ["c"], ["d"], name="s0", axis=0),
            helper.make_node("Softmax", ["d"], ["y"], name="s1"),
        ],
        [tensor("x", TensorProto.FLOAT, [2, 3])],
        [tensor("y", TensorProto.FLOAT, [3, 2])],
        opset=19,
    )
    t0, t1, t2, s0, s1 = body_ops(import_model(model))
    perm = ArrayAttr([IntegerAttr(1, 64), IntegerAttr(0, 64)])
    assert t0.properties["perm"] == perm and t2.properties["perm"] == perm
    assert "perm" not in t1.properties
    assert isinstance(s0, onnx_d.SoftmaxOp) and s0.get_int("axis") == 0
    assert isinstance(s1, onnx_d.SoftmaxOp) and s1.get_int("axis") == -1
    assert s0.properties["axis"] == IntegerAttr(0, IntegerType(64, Signedness.SIGNED))


def test_opset_13_squeeze_without_axes():
    model = make_model(
        [helper.make_node("Squeeze", ["x"], ["y"], name="sq")],
        [tensor("x", TensorProto.FLOAT, [1, 4, 1])],
        [tensor("y", TensorProto.FLOAT, [4])],
        opset=13,
    )
    (squeeze,) = body_ops(import_model(model))
    assert isinstance(squeeze, onnx_d.SqueezeOp) and squeeze.axes is None
    assert type_str(squeeze) == "tensor<4xf32>"


def test_100mb_of_weights_are_not_copied_around(tmp_path):
    """Importing 100 MiB of weights holds them once, not once per step.

    Python-side allocations are counted (tracemalloc), not timed: a copy per
    step (protobuf bytes -> numpy -> list -> attribute) would show as a peak of
    several times the weights. Measured: 0.2 s, peak 100 MiB."""
    n = 5120  # 5120 x 5120 float32 = 100 MiB
    w = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    model = make_model(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [tensor("x", TensorProto.FLOAT, ["b", n])],
        [tensor("y", TensorProto.FLOAT, ["b", n])],
        [numpy_helper.from_array(w, "w")],
    )
    path = tmp_path / "big.onnx"
    onnx.save(model, path)
    del model
    tracemalloc.start()
    try:
        module = import_model(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.5 * w.nbytes, f"peak {peak / 2**20:.0f} MiB"
    weight = body_ops(module)[0]
    np.testing.assert_array_equal(constant_array(weight, np.float32), w)


def test_initializer_listed_as_input_is_a_constant(tmp_path):
    """Old IR versions list initializers among the inputs; they stay constants."""
    model = make_model(
        [helper.make_node("Add", ["x", "b"], ["y"], name="add")],
        [tensor("x", TensorProto.FLOAT, [2]), tensor("b", TensorProto.FLOAT, [2])],
        [tensor("y", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.array([1, 2], np.float32), "b")],
        name="my-model.v2",
    )
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    module = import_model(path)
    fn = main_graph(module)
    assert arg_attrs(fn) == [{"onnx.name": "x"}]
    assert isinstance(body_ops(module)[0], onnx_d.ConstantOp)
    # The graph name, as a symbol suffix.
    assert module.attributes["onnx-mlir.symbol-postfix"] == StringAttr("my_model_v2")


def non_finite_model() -> onnx.ModelProto:
    """`y = max(x, lo) + where(x > hi, inf, 0)` in float16 and float32, with
    -inf, NaN and inf constants: xDSL prints them as bit patterns."""
    nodes = []
    for name, dtype in (("f", np.float32), ("h", np.float16)):
        consts = {
            f"lo_{name}": np.array([-np.inf, np.nan], dtype),
            f"inf_{name}": np.array(np.inf, dtype),
            f"zero_{name}": np.array(0, dtype),
            f"hi_{name}": np.array(0.5, dtype),
        }
        nodes += [
            helper.make_node(
                "Constant", [], [key], value=numpy_helper.from_array(value, key)
            )
            for key, value in consts.items()
        ]
        cast_to = TensorProto.FLOAT if name == "f" else TensorProto.FLOAT16
        nodes += [
            helper.make_node("Cast", ["x"], [f"x_{name}"], to=cast_to),
            helper.make_node("Max", [f"x_{name}", f"lo_{name}"], [f"m_{name}"]),
            helper.make_node("Greater", [f"x_{name}", f"hi_{name}"], [f"g_{name}"]),
            helper.make_node(
                "Where", [f"g_{name}", f"inf_{name}", f"zero_{name}"], [f"w_{name}"]
            ),
            helper.make_node("Add", [f"m_{name}", f"w_{name}"], [f"y_{name}"]),
        ]
    return helper.make_model(
        helper.make_graph(
            nodes,
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2])],
            [
                helper.make_tensor_value_info("y_f", TensorProto.FLOAT, [3, 2]),
                helper.make_tensor_value_info("y_h", TensorProto.FLOAT16, [3, 2]),
            ],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )


def test_non_finite_constants_print_and_parse_back() -> None:
    """`xhip import`'s text parses back to itself, and the parsed module runs
    as ONNX Runtime does (xDSL read `dense<0xFF800000>` as 4.29e9 before
    `xhip.xdsl_fixes`)."""
    import onnxruntime as ort

    import xhip
    from xhip.context import parse_module

    model = non_finite_model()
    text = str(import_model(model))
    assert "0xff800000" in text and "0x7fc00000" in text and "0xfc00" in text
    parsed = parse_module(text)
    assert str(parsed) == text
    x = np.array([[-1, 0.25], [0.75, 2], [np.nan, -3]], np.float32)
    got = xhip.compile(parsed, device="cpu")({"x": x})
    session = ort.InferenceSession(model.SerializeToString())
    for name, want in zip(("y_f", "y_h"), session.run(None, {"x": x}), strict=True):
        np.testing.assert_array_equal(got[name], want)


def test_a_negative_dim_from_inference_is_unknown() -> None:
    """onnx's inference gives -1 in a branch no input takes (a Split of 5
    into 4 in the 2-D branch of an expanded 3-D AffineGrid); it printed as
    `tensor<-1xi64>`, which does not parse."""
    from xhip.frontend.value_info import value_info

    info = value_info(helper.make_tensor_type_proto(TensorProto.INT64, [2, -1]))
    assert info is not None and info.shape == [2, DYNAMIC_INDEX]
