"""Resize, ConvTranspose and LpPool models through every pass on the CPU
runtime, against ONNX Runtime: every mode and coordinate transformation of
Resize (scales with fractional products, sizes, axes, antialias,
tf_crop_and_resize with an extrapolation value, a dynamic N, H and W with
integer scales, float16 and integer elements), ConvTranspose with groups,
strides, dilations, output padding, output_shape and auto_pad (dynamic H and
W too), LpPool with pads, dilations and ceil_mode.

`model`, `runs` and `check` are shared with the emulator's
`tests/pytest/emulator/test_resize_kernels.py`, which runs the Resize cases
on the GPU runtimes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip

RNG = np.random.default_rng(0)
W = RNG.normal(size=(4, 3, 3, 3)).astype(np.float32)
B = RNG.normal(size=(6,)).astype(np.float32)
W1 = RNG.normal(size=(4, 5, 1, 1)).astype(np.float32)
W3 = RNG.normal(size=(4, 2, 2, 3, 2)).astype(np.float32)


def _model(
    node: onnx.NodeProto,
    dims: Sequence[int | str],
    inits: dict[str, np.ndarray],
    elem_type: int = TensorProto.FLOAT,
) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", elem_type, list(dims))
    y = helper.make_tensor_value_info("y", elem_type, None)
    graph = helper.make_graph(
        [node], "g", [x], [y], [numpy_helper.from_array(v, k) for k, v in inits.items()]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    return onnx.shape_inference.infer_shapes(model)


def _resize(inputs: list[str], inits: dict[str, np.ndarray], **attrs: Any):
    return helper.make_node("Resize", ["x", *inputs], ["y"], **attrs), inits


SCALES = {"s": np.array([1, 1, 1.7, 0.6], np.float32)}
CASES: dict[str, tuple[onnx.NodeProto, dict[str, np.ndarray], Sequence[int | str]]] = {}
for mode in ("nearest", "linear", "cubic"):
    for ctm in (
        "half_pixel",
        "asymmetric",
        "align_corners",
        "pytorch_half_pixel",
        "half_pixel_symmetric",
    ):
        node, inits = _resize(
            ["", "s"], SCALES, mode=mode, coordinate_transformation_mode=ctm
        )
        CASES[f"resize_{mode}_{ctm}"] = (node, inits, [2, 4, 5, 6])
for nearest in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
    node, inits = _resize(
        ["", "s"], {"s": np.array([1, 1, 2.5, 0.5], np.float32)}, nearest_mode=nearest
    )
    CASES[f"resize_nearest_{nearest}"] = (node, inits, [2, 4, 5, 6])
CASES["resize_linear_antialias_sizes"] = (
    *_resize(
        ["", "", "sz"],
        {"sz": np.array([2, 4, 3, 9], np.int64)},
        mode="linear",
        antialias=1,
    ),
    [2, 4, 5, 6],
)
CASES["resize_cubic_antialias_exclude_outside"] = (
    *_resize(
        ["", "s"],
        {"s": np.array([1, 1, 0.5, 0.7], np.float32)},
        mode="cubic",
        antialias=1,
        exclude_outside=1,
        cubic_coeff_a=-0.5,
    ),
    [2, 4, 5, 6],
)
CASES["resize_tf_crop_and_resize"] = (
    *_resize(
        ["roi", "", "sz"],
        {
            "sz": np.array([2, 4, 7, 9], np.int64),
            "roi": np.array([0, 0, -0.2, 0.3, 1, 1, 0.9, 1.3], np.float32),
        },
        mode="linear",
        coordinate_transformation_mode="tf_crop_and_resize",
        extrapolation_value=3.0,
    ),
    [2, 4, 5, 6],
)
CASES["resize_axes_not_smaller"] = (
    *_resize(
        ["", "", "sz"],
        {"sz": np.array([7, 8], np.int64)},
        axes=[3, 2],
        keep_aspect_ratio_policy="not_smaller",
    ),
    [2, 4, 5, 6],
)
CASES["resize_dynamic_nearest"] = (
    *_resize(["", "s"], {"s": np.array([1, 1, 2, 3], np.float32)}),
    ["N", 4, "H", "W"],
)
CASES["resize_dynamic_linear_align_corners"] = (
    *_resize(
        ["", "s"],
        {"s": np.array([1, 1, 2, 3], np.float32)},
        mode="linear",
        coordinate_transformation_mode="align_corners",
    ),
    ["N", 4, "H", "W"],
)
CASES["resize_float16_linear"] = (
    *_resize(["", "s"], {"s": np.array([1, 1, 1.5, 0.5], np.float32)}, mode="linear"),
    [2, 4, 5, 6],
)
# The roi is exact in binary: a position whose float32 roi puts it on a tie
# (0.3 * 5 = 1.5 in float32) is one the CPU runtime, in float64, puts past it.
CASES["resize_uint8_nearest_tf_crop_and_resize"] = (
    *_resize(
        ["roi", "", "sz"],
        {
            "sz": np.array([2, 4, 7, 9], np.int64),
            "roi": np.array([0, 0, -0.25, 0.25, 1, 1, 0.75, 1.25], np.float32),
        },
        coordinate_transformation_mode="tf_crop_and_resize",
        extrapolation_value=7.0,
    ),
    [2, 4, 5, 6],
)
CASES["resize_int32_nearest_asymmetric"] = (
    *_resize(
        ["", "s"],
        {"s": np.array([1, 1, 2.5, 0.4], np.float32)},
        coordinate_transformation_mode="asymmetric",
        nearest_mode="floor",
    ),
    [2, 4, 5, 6],
)
ELEMENT_TYPES = {
    "resize_float16_linear": TensorProto.FLOAT16,
    "resize_uint8_nearest_tf_crop_and_resize": TensorProto.UINT8,
    "resize_int32_nearest_asymmetric": TensorProto.INT32,
}
"""The cases whose x and y are not float32."""


def _ct(inputs: list[str], inits: dict[str, np.ndarray], **attrs: Any):
    return helper.make_node("ConvTranspose", ["x", *inputs], ["y"], **attrs), inits


CASES["conv_transpose_groups_output_padding"] = (
    *_ct(
        ["w", "b"],
        {"w": W, "b": B},
        strides=[2, 1],
        pads=[1, 0, 0, 1],
        group=2,
        output_padding=[1, 0],
    ),
    [2, 4, 5, 6],
)
CASES["conv_transpose_same_upper_dilated"] = (
    *_ct(["w"], {"w": W}, strides=[2, 2], auto_pad="SAME_UPPER", dilations=[2, 1]),
    [2, 4, 5, 6],
)
CASES["conv_transpose_output_shape"] = (
    *_ct(["w"], {"w": W}, strides=[3, 2], output_shape=[16, 12]),
    [2, 4, 5, 6],
)
CASES["conv_transpose_1x1"] = (*_ct(["w"], {"w": W1}), [2, 4, 5, 6])
CASES["conv_transpose_dynamic"] = (
    *_ct(["w", "b"], {"w": W, "b": B[:3]}, strides=[2, 3], pads=[0, 1, 1, 0]),
    ["N", 4, "H", "W"],
)
CASES["conv_transpose_3d"] = (
    *_ct(["w"], {"w": W3}, strides=[1, 2, 2], group=2, pads=[1, 0, 1, 0, 1, 0]),
    [1, 4, 3, 4, 5],
)
CASES["lp_pool_p3_pads"] = (
    helper.make_node(
        "LpPool",
        ["x"],
        ["y"],
        kernel_shape=[2, 3],
        strides=[2, 1],
        pads=[1, 0, 0, 1],
        p=3,
    ),
    {},
    [2, 4, 5, 6],
)
CASES["lp_pool_ceil_dilated_dynamic"] = (
    helper.make_node(
        "LpPool",
        ["x"],
        ["y"],
        kernel_shape=[3, 3],
        ceil_mode=1,
        strides=[2, 2],
        dilations=[1, 2],
    ),
    {},
    ["N", 4, "H", "W"],
)


def model(name: str) -> onnx.ModelProto:
    node, inits, dims = CASES[name]
    return _model(node, dims, inits, ELEMENT_TYPES.get(name, TensorProto.FLOAT))


def runs(name: str, model: onnx.ModelProto) -> list[dict[str, np.ndarray]]:
    """The feeds of each run: two shapes where the case has dynamic dims."""
    _, _, dims = CASES[name]
    elem_type = ELEMENT_TYPES.get(name, TensorProto.FLOAT)
    dtype = helper.tensor_dtype_to_np_dtype(elem_type)
    rng = np.random.default_rng(len(name))
    feeds = []
    for shape in ([2, 4, 5, 6], [1, 4, 7, 3])[: 2 if "dynamic" in name else 1]:
        if len(dims) == 5:
            shape = [int(d) for d in dims]
        if np.issubdtype(dtype, np.integer):
            x = rng.integers(0, 100, shape).astype(dtype)
        else:
            x = rng.normal(size=shape).astype(dtype)
        feeds.append({"x": x})
    return feeds


def check(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype
    if got.dtype == np.float16:
        np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_onnx_runtime(name: str) -> None:
    onnx_model = model(name)
    compiled = xhip.compile(onnx_model)
    session = ort.InferenceSession(onnx_model.SerializeToString())
    for feeds in runs(name, onnx_model):
        want = np.asarray(session.run(None, feeds)[0])
        (got,) = compiled(feeds).values()
        check(got, want)


@pytest.mark.parametrize("sizes", [(5, 7), (3, 4)])
def test_crop_and_resize_positions_round_in_float32(sizes: tuple[int, int]) -> None:
    """tf_crop_and_resize's positions are float32 arithmetic on the float32 roi,
    as in ONNX Runtime: roi 0.3 of 6 pixels puts an output at exactly 1.5, a
    tie of the nearest mode, where float64 gives 1.50000006 and the other
    neighbour."""
    roi = numpy_helper.from_array(
        np.array([0, 0, 0.3, 0.1, 1, 1, 0.9, 0.7], np.float32), "roi"
    )
    size = numpy_helper.from_array(np.array([1, 1, *sizes], np.int64), "sizes")
    node = helper.make_node(
        "Resize",
        ["x", "roi", "", "sizes"],
        ["y"],
        mode="nearest",
        coordinate_transformation_mode="tf_crop_and_resize",
        extrapolation_value=-7.0,
    )
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, *sizes])],
        [roi, size],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    x = np.arange(36, dtype=np.float32).reshape(1, 1, 6, 6)
    session = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (want,) = session.run(None, {"x": x})
    np.testing.assert_array_equal(xhip.compile(model)({"x": x})["y"], want)
