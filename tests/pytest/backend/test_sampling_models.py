"""Models of GridSample, AffineGrid, Col2Im, CenterCropPad and the losses
through every pass on the CPU runtime, against ONNX Runtime:

- a spatial transformer: theta projected from the image's channel means,
  AffineGrid, GridSample of the image, a Conv; every mode, padding mode and
  align_corners, a dynamic batch (AffineGrid's size a shape value);
- GridSample alone: 4-D in every mode, padding mode and align_corners, 5-D
  (volumetric) in linear and nearest, float64;
- a fold: Col2Im of a Conv's columns (strides, dilations, pads; 2-D and 3-D
  images), then CenterCropPad cropping one axis and padding another;
- MaxUnpool of MaxPool's values and indices (1-D, 2-D, overlapping padded
  windows, a dynamic batch); TensorScatter into a KV cache (linear, circular,
  without positions);
- a deformable conv block (DCNv2): offsets and a Sigmoid mask predicted by
  a Conv of the image, DeformConv with bias, groups and offset groups, then
  Relu; without the mask; strided and dilated; a dynamic batch (2-D only:
  ONNX Runtime's DeformConv takes 4-D inputs, onnx's reference too);
- classifiers' losses: SoftmaxCrossEntropyLoss of a Gemm's logits with its
  log_prob, NegativeLogLikelihoodLoss of a segmentation's LogSoftmax (N, C,
  H, W), each reduction, with and without weights and ignore_index.

`CASES`, `model`, `feeds` and `check` are shared with the emulator's
`tests/pytest/emulator/test_sampling_kernels.py`, which runs them on the GPU
runtimes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import xhip

OPSET = 24
FLOAT, DOUBLE, INT64 = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT64


@dataclass(frozen=True)
class Case:
    nodes: list[onnx.NodeProto]
    inputs: dict[str, tuple[int, list[int | str]]]
    inits: dict[str, np.ndarray]
    outputs: list[str]
    feeds: Callable[[np.random.Generator], list[dict[str, np.ndarray]]]


def _ints(*values: int) -> np.ndarray:
    return np.asarray(values, np.int64)


def _normal(
    shape: tuple[int, ...], dtype: type = np.float32
) -> Callable[[np.random.Generator], np.ndarray]:
    return lambda rng: rng.normal(size=shape).astype(dtype)


CASES: dict[str, Case] = {}


def _stn(mode: str, padding_mode: str, align_corners: int, dynamic: bool) -> Case:
    rng = np.random.default_rng(1)
    weight = (rng.normal(size=(3, 6)) * 0.3).astype(np.float32)
    bias = np.array([1.1, 0.2, 0.1, -0.1, 0.9, 0.05], np.float32)
    nodes = [
        helper.make_node("ReduceMean", ["x", "hw"], ["mean"], keepdims=0),
        helper.make_node("Gemm", ["mean", "w", "b"], ["flat"]),
        helper.make_node("Reshape", ["flat", "theta_shape"], ["theta"]),
        helper.make_node("Shape", ["x"], ["n"], end=1),
        helper.make_node("Concat", ["n", "chw"], ["size"], axis=0),
        helper.make_node(
            "AffineGrid", ["theta", "size"], ["grid"], align_corners=align_corners
        ),
        helper.make_node(
            "GridSample",
            ["x", "grid"],
            ["sampled"],
            mode=mode,
            padding_mode=padding_mode,
            align_corners=align_corners,
        ),
        helper.make_node("Conv", ["sampled", "k"], ["y"], pads=[1, 1, 1, 1]),
    ]
    inits = {
        "hw": _ints(2, 3),
        "w": weight,
        "b": bias,
        "theta_shape": _ints(-1, 2, 3),
        "chw": _ints(3, 6, 7),
        "k": rng.normal(size=(4, 3, 3, 3)).astype(np.float32),
    }
    batches = (2, 3) if dynamic else (2,)
    return Case(
        nodes,
        {"x": (FLOAT, ["N" if dynamic else 2, 3, 5, 8])},
        inits,
        ["y", "grid"],
        lambda r: [
            {"x": r.normal(size=(n, 3, 5, 8)).astype(np.float32)} for n in batches
        ],
    )


for _mode in ("linear", "nearest", "cubic"):
    for _padding in ("zeros", "border", "reflection"):
        for _align in (0, 1):
            CASES[f"stn_{_mode}_{_padding}_{_align}"] = _stn(
                _mode, _padding, _align, False
            )
CASES["stn_linear_border_dynamic_batch"] = _stn("linear", "border", 0, True)


def _grid_sample(
    x_shape: tuple[int, ...], grid_shape: tuple[int, ...], dtype: type, **attrs: Any
) -> Case:
    elem = DOUBLE if dtype is np.float64 else FLOAT
    return Case(
        [helper.make_node("GridSample", ["x", "grid"], ["y"], **attrs)],
        {"x": (elem, list(x_shape)), "grid": (elem, list(grid_shape))},
        {},
        ["y"],
        lambda r: [
            {
                "x": r.normal(size=x_shape).astype(dtype),
                "grid": r.uniform(-1.3, 1.3, grid_shape).astype(dtype),
            }
        ],
    )


for _padding in ("zeros", "border", "reflection"):
    for _align in (0, 1):
        for _mode in ("linear", "nearest"):
            CASES[f"grid_sample_5d_{_mode}_{_padding}_{_align}"] = _grid_sample(
                (2, 3, 4, 5, 6),
                (2, 3, 2, 4, 3),
                np.float32,
                mode=_mode,
                padding_mode=_padding,
                align_corners=_align,
            )
        CASES[f"grid_sample_float64_cubic_{_padding}_{_align}"] = _grid_sample(
            (1, 2, 5, 4),
            (1, 6, 3, 2),
            np.float64,
            mode="cubic",
            padding_mode=_padding,
            align_corners=_align,
        )


def _fold(
    image: tuple[int, ...],
    block: tuple[int, ...],
    crop_pad: list[int],
    axes: list[int],
    **attrs: Any,
) -> Case:
    """Col2Im of the columns a 1x1 Conv makes, then CenterCropPad."""
    rank = len(image)
    strides = attrs.get("strides", [1] * rank)
    dilations = attrs.get("dilations", [1] * rank)
    pads = attrs.get("pads", [0] * 2 * rank)
    blocks = [
        (image[d] + pads[d] + pads[rank + d] - dilations[d] * (block[d] - 1) - 1)
        // strides[d]
        + 1
        for d in range(rank)
    ]
    length = int(np.prod(blocks))
    columns = 2 * int(np.prod(block))
    rng = np.random.default_rng(2)
    nodes = [
        helper.make_node("Conv", ["x", "k"], ["cols4"]),
        helper.make_node("Reshape", ["cols4", "cols_shape"], ["cols"]),
        helper.make_node("Col2Im", ["cols", "image", "block"], ["folded"], **attrs),
        helper.make_node("CenterCropPad", ["folded", "crop"], ["y"], axes=axes),
    ]
    inits = {
        "k": rng.normal(size=(columns, 3, 1, 1)).astype(np.float32),
        "cols_shape": _ints(0, columns, length),
        "image": _ints(*image),
        "block": _ints(*block),
        "crop": _ints(*crop_pad),
    }
    return Case(
        nodes,
        {"x": (FLOAT, ["N", 3, 1, length])},
        inits,
        ["y"],
        lambda r: [
            {"x": r.normal(size=(n, 3, 1, length)).astype(np.float32)} for n in (2, 1)
        ],
    )


CASES["fold_2d_strided_padded"] = _fold(
    (5, 6), (2, 3), [7, 3], [2, -1], strides=[1, 2], pads=[1, 0, 0, 1]
)
CASES["fold_2d_dilated"] = _fold((6, 5), (2, 2), [4, 8], [3, 2], dilations=[2, 1])
CASES["fold_3d"] = _fold((3, 4, 5), (1, 2, 2), [2, 6], [2, 4], strides=[1, 1, 2])
CASES["fold_run_time_channels"] = Case(
    # C * prod(block) known only at run time (fuzz seed 225128): the output's
    # C is the input's dim 1 / prod(block), computed when the model runs.
    [
        helper.make_node(
            "Col2Im",
            ["cols", "image", "block"],
            ["y"],
            dilations=[1, 2],
            pads=[0, 1, 0, 1],
        )
    ],
    {"cols": (FLOAT, ["N", "CK", 12])},
    {"image": _ints(3, 4), "block": _ints(1, 2)},
    ["y"],
    lambda r: [
        {"cols": r.normal(size=(n, 2 * c, 12)).astype(np.float32)}
        for n, c in ((2, 3), (1, 5))
    ],
)


def _sce(reduction: str, weights: bool, ignore_index: int | None) -> Case:
    rng = np.random.default_rng(3)
    attrs: dict[str, Any] = {"reduction": reduction}
    if ignore_index is not None:
        attrs["ignore_index"] = ignore_index
    inputs = ["logits", "labels", *(["weights"] if weights else [])]
    nodes = [
        helper.make_node("Gemm", ["x", "w"], ["logits"]),
        helper.make_node("SoftmaxCrossEntropyLoss", inputs, ["y", "log_prob"], **attrs),
    ]
    inits = {"w": rng.normal(size=(6, 5)).astype(np.float32)}
    if weights:
        inits["weights"] = rng.uniform(0.2, 2.0, 5).astype(np.float32)
    return Case(
        nodes,
        {"x": (FLOAT, ["N", 6]), "labels": (INT64, ["N"])},
        inits,
        ["y", "log_prob"],
        lambda r: [
            {
                "x": r.normal(size=(n, 6)).astype(np.float32),
                "labels": np.arange(n, dtype=np.int64) % 5,
            }
            for n in (7, 3)
        ],
    )


def _nll(reduction: str, weights: bool, ignore_index: int | None) -> Case:
    rng = np.random.default_rng(4)
    attrs: dict[str, Any] = {"reduction": reduction}
    if ignore_index is not None:
        attrs["ignore_index"] = ignore_index
    inputs = ["log_prob", "target", *(["weight"] if weights else [])]
    nodes = [
        helper.make_node("Conv", ["x", "k"], ["scores"], pads=[1, 1, 1, 1]),
        helper.make_node("LogSoftmax", ["scores"], ["log_prob"], axis=1),
        helper.make_node("NegativeLogLikelihoodLoss", inputs, ["y"], **attrs),
    ]
    inits = {"k": rng.normal(size=(4, 2, 3, 3)).astype(np.float32)}
    if weights:
        inits["weight"] = rng.uniform(0.2, 2.0, 4).astype(np.float32)
    return Case(
        nodes,
        {"x": (FLOAT, [2, 2, 3, 5]), "target": (INT64, [2, 3, 5])},
        inits,
        ["y"],
        lambda r: [
            {
                "x": r.normal(size=(2, 2, 3, 5)).astype(np.float32),
                "target": r.integers(0, 4, (2, 3, 5)).astype(np.int64),
            }
        ],
    )


for _reduction in ("none", "sum", "mean"):
    for _weights in (False, True):
        for _ii in (None, 2, -1):
            _name = f"{_reduction}{'_weights' if _weights else ''}{'' if _ii is None else f'_ii{_ii}'}"
            CASES[f"sce_{_name}"] = _sce(_reduction, _weights, _ii)
            CASES[f"nll_{_name}"] = _nll(_reduction, _weights, _ii)


def _unpool(
    kernel: list[int],
    strides: list[int],
    pads: list[int],
    dims: list[int | str],
    runs: list[tuple[int, ...]] | None = None,
) -> Case:
    """MaxPool's values (after a Relu) and indices, then MaxUnpool; `runs`,
    the input shapes to run (by default the static dims, N 2 and 3 where it
    is named)."""
    attrs: dict[str, Any] = {"kernel_shape": kernel, "strides": strides, "pads": pads}
    nodes = [
        helper.make_node("MaxPool", ["x"], ["pooled", "where"], **attrs),
        helper.make_node("Relu", ["pooled"], ["activated"]),
        helper.make_node("MaxUnpool", ["activated", "where"], ["y"], **attrs),
    ]
    shape = [int(d) if isinstance(d, int) else 2 for d in dims]
    if runs is None:
        batches = (2, 3) if isinstance(dims[0], str) else (shape[0],)
        runs = [(n, *shape[1:]) for n in batches]
    shapes = runs
    return Case(
        nodes,
        {"x": (FLOAT, dims)},
        {},
        ["y"],
        lambda r: [{"x": r.normal(size=s).astype(np.float32)} for s in shapes],
    )


CASES["max_unpool_2d"] = _unpool([2, 2], [2, 2], [0, 0, 0, 0], [2, 3, 6, 8])
CASES["max_unpool_2d_overlapping_padded_dynamic_batch"] = _unpool(
    [3, 2], [2, 1], [1, 0, 1, 1], ["N", 2, 5, 6]
)
CASES["max_unpool_1d"] = _unpool([3], [3], [0, 0], [1, 4, 9])
CASES["max_unpool_2d_run_time_spatial"] = _unpool(
    # the output's spatial sizes from the input's, known only at run time
    [3, 2],
    [2, 1],
    [1, 0, 1, 1],
    ["N", 2, "H", "W"],
    [(2, 2, 5, 6), (1, 2, 7, 3)],
)


def _kv_cache(mode: str, axis: int, indices: bool, dynamic: bool = False) -> Case:
    """A KV cache (B, H, L, D) written at each batch's position with the new
    steps a MatMul projects, as a decoder does; `dynamic`: the number of steps
    (and the cache's length) is a dim of the graph, run at two sizes."""
    rng = np.random.default_rng(6)
    steps = 3
    sizes = [(3, 7), (1, 5)] if dynamic else [(steps, 7)]
    names = ["cache", "update", *(["positions"] if indices else [])]
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["projected"]),
        helper.make_node("Reshape", ["projected", "heads"], ["split"]),
        helper.make_node("Transpose", ["split"], ["update"], perm=[0, 2, 1, 3]),
        helper.make_node("TensorScatter", names, ["y"], mode=mode, axis=axis),
    ]
    inputs: dict[str, tuple[int, list[int | str]]] = {
        "cache": (FLOAT, [2, 2, "L" if dynamic else 7, 4]),
        "x": (FLOAT, [2, "S" if dynamic else steps, 5]),
    }
    if indices:
        inputs["positions"] = (INT64, [2])

    def top(s: int, length: int) -> int:
        return length if mode == "circular" else length - s + 1

    return Case(
        nodes,
        inputs,
        {"w": rng.normal(size=(5, 8)).astype(np.float32), "heads": _ints(0, 0, 2, 4)},
        ["y"],
        lambda r: [
            {
                "cache": r.normal(size=(2, 2, length, 4)).astype(np.float32),
                "x": r.normal(size=(2, s, 5)).astype(np.float32),
                **(
                    {"positions": r.integers(0, top(s, length), 2).astype(np.int64)}
                    if indices
                    else {}
                ),
            }
            for s, length in sizes
        ],
    )


CASES["kv_cache_linear"] = _kv_cache("linear", -2, True)
CASES["kv_cache_circular"] = _kv_cache("circular", 2, True)
CASES["kv_cache_no_positions"] = _kv_cache("linear", -2, False)
CASES["kv_cache_linear_dynamic_steps"] = _kv_cache("linear", -2, True, dynamic=True)
CASES["kv_cache_circular_dynamic_steps"] = _kv_cache("circular", 2, True, dynamic=True)
CASES["kv_cache_no_positions_dynamic_steps"] = _kv_cache(
    "linear", -2, False, dynamic=True
)


def _deformable(
    size: tuple[int, ...],
    kernel: tuple[int, ...],
    masked: bool,
    group: int = 1,
    offset_group: int = 1,
    **attrs: Any,
) -> Case:
    """Conv -> offsets (and a Sigmoid mask), DeformConv of the image by them."""
    rank = len(size)
    strides = attrs.get("strides", [1] * rank)
    dilations = attrs.get("dilations", [1] * rank)
    pads = attrs.get("pads", [0] * 2 * rank)
    window = [dilations[d] * (kernel[d] - 1) + 1 for d in range(rank)]
    taps = offset_group * int(np.prod(kernel))
    channels = 4
    rng = np.random.default_rng(3)
    predicted = taps * (rank + masked)
    nodes = [
        helper.make_node(
            "Conv",
            ["x", "pk"],
            ["pred"],
            kernel_shape=window,
            strides=strides,
            pads=pads,
        ),
        helper.make_node(
            "Split",
            ["pred", "split"],
            ["offset", "logits"] if masked else ["offset"],
            axis=1,
        ),
    ]
    inputs = ["x", "w", "offset", "b"]
    if masked:
        nodes.append(helper.make_node("Sigmoid", ["logits"], ["mask"]))
        inputs.append("mask")
    nodes += [
        helper.make_node(
            "DeformConv",
            inputs,
            ["dc"],
            kernel_shape=list(kernel),
            group=group,
            offset_group=offset_group,
            **attrs,
        ),
        helper.make_node("Relu", ["dc"], ["y"]),
    ]
    inits = {
        "pk": rng.normal(scale=0.3, size=(predicted, channels, *window)).astype(
            np.float32
        ),
        "split": _ints(taps * rank, taps) if masked else _ints(taps * rank),
        "w": rng.normal(size=(6, channels // group, *kernel)).astype(np.float32),
        "b": rng.normal(size=6).astype(np.float32),
    }
    return Case(
        nodes,
        {"x": (FLOAT, ["N", channels, *size])},
        inits,
        ["y"],
        lambda r: [
            {"x": r.normal(size=(n, channels, *size)).astype(np.float32)}
            for n in (2, 1)
        ],
    )


CASES["deform_conv_2d_masked_groups"] = _deformable(
    (6, 7), (3, 3), True, group=2, offset_group=2, pads=[1, 1, 1, 1]
)
CASES["deform_conv_2d_strided_dilated"] = _deformable(
    (7, 8), (2, 3), False, strides=[2, 1], dilations=[1, 2], pads=[0, 1, 1, 0]
)


def model(name: str) -> onnx.ModelProto:
    case = CASES[name]
    inputs = [
        helper.make_tensor_value_info(n, t, d) for n, (t, d) in case.inputs.items()
    ]
    outputs = [
        helper.make_tensor_value_info(n, TensorProto.UNDEFINED, None)
        for n in case.outputs
    ]
    inits = [numpy_helper.from_array(v, k) for k, v in case.inits.items()]
    graph = helper.make_graph(case.nodes, name, inputs, outputs, inits)
    onnx_model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)]
    )
    return onnx.shape_inference.infer_shapes(onnx_model)


def feeds(name: str) -> list[dict[str, np.ndarray]]:
    return CASES[name].feeds(np.random.default_rng(len(name)))


def check(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def onnx_runtime(name: str) -> ort.InferenceSession:
    return ort.InferenceSession(
        model(name).SerializeToString(), providers=["CPUExecutionProvider"]
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_onnx_runtime(name: str) -> None:
    compiled = xhip.compile(model(name))
    session = onnx_runtime(name)
    for run in feeds(name):
        wants = session.run(None, run)
        gots = list(compiled(run).values())
        assert len(gots) == len(wants)
        for got, want in zip(gots, wants, strict=True):
            check(got, np.asarray(want))
