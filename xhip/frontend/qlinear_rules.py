"""Result types of ONNX Runtime's quantized contrib ops (`qlinear` family),
which onnx's inference does not know; `contrib_rules.RULES` takes them in.

Each rule gives None for a result it cannot type yet (an input not typed).
A dim the inputs do not fix is dynamic; a dim's symbolic name is kept where
it passes through unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from onnx import NodeProto, TensorProto, helper
from xdsl.dialects.builtin import DYNAMIC_INDEX

from xhip.frontend.value_info import ValueInfo

Rule = Callable[
    [NodeProto, Sequence[ValueInfo | None], Sequence[str]], list[ValueInfo | None]
]
Dim = tuple[int, str | None]
"""A dim's size and its symbolic name."""


def _attr(node: NodeProto, name: str, default: object) -> object:
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def _int(node: NodeProto, name: str, default: int) -> int:
    value = _attr(node, name, default)
    return value if isinstance(value, int) else default


def _ints(node: NodeProto, name: str) -> list[int] | None:
    value = _attr(node, name, None)
    if not isinstance(value, list) or not value:
        return None
    return [int(v) for v in cast("list[int]", value)]


def _input(ins: Sequence[ValueInfo | None], i: int) -> ValueInfo | None:
    info = ins[i] if i < len(ins) else None
    return info if info is not None and info.shape is not None and info.elem else None


def _dims(info: ValueInfo) -> list[Dim]:
    assert info.shape is not None
    params = list(info.params) if len(info.params) == len(info.shape) else []
    return [(n, params[d] if params else None) for d, n in enumerate(info.shape)]


def _info(elem: int, dims: Sequence[Dim]) -> ValueInfo:
    return ValueInfo(elem, [n for n, _ in dims], [p for _, p in dims])


def _broadcast(*shapes: Sequence[Dim]) -> list[Dim]:
    rank = max(len(s) for s in shapes)
    out: list[Dim] = []
    for d in range(rank):
        here = [s[d - rank + len(s)] for s in shapes if d - rank + len(s) >= 0]
        fixed = [dim for dim in here if dim[0] not in (1, DYNAMIC_INDEX)]
        dynamic = [dim for dim in here if dim[0] == DYNAMIC_INDEX]
        out.append(fixed[0] if fixed else dynamic[0] if dynamic else (1, None))
    return out


def _matmul(a: Sequence[Dim], b: Sequence[Dim]) -> list[Dim] | None:
    if len(a) < 2 or len(b) < 2:
        return None
    return [*_broadcast(a[:-2], b[:-2]), a[-2], b[-1]]


def qlinear_binary(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """QLinearAdd, QLinearMul: A and B broadcast, A's type."""
    a, b = _input(ins, 0), _input(ins, 3)
    if a is None or b is None:
        return [None]
    return [_info(a.elem, _broadcast(_dims(a), _dims(b)))]


def qlinear_global_average_pool(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """The spatial dims (after C, or before it with `channels_last`) 1."""
    x = _input(ins, 0)
    if x is None or len(_dims(x)) < 3:
        return [None]
    dims = _dims(x)
    last = _int(node, "channels_last", 0)
    spatial = range(1, len(dims) - 1) if last else range(2, len(dims))
    return [
        _info(x.elem, [(1, None) if d in spatial else v for d, v in enumerate(dims)])
    ]


def _pooled(n: int, k: int, stride: int, pads: int, ceil: bool, auto_pad: str) -> int:
    if n == DYNAMIC_INDEX:
        return n
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return -(-n // stride)
    if auto_pad == "VALID":
        return -(-(n - k + 1) // stride)
    span = n + pads - k
    return (-(-span // stride) if ceil else span // stride) + 1


def qlinear_average_pool(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """AveragePool's output shape (NCHW; NHWC with `channels_last`)."""
    x = _input(ins, 0)
    kernel = _ints(node, "kernel_shape")
    if x is None or kernel is None or len(_dims(x)) != len(kernel) + 2:
        return [None]
    dims = _dims(x)
    rank = len(kernel)
    last = _int(node, "channels_last", 0)
    first = 1 if last else 2
    strides = _ints(node, "strides") or [1] * rank
    pads = _ints(node, "pads") or [0] * (2 * rank)
    ceil = bool(_int(node, "ceil_mode", 0))
    auto_pad = _attr(node, "auto_pad", "NOTSET")
    auto = auto_pad.decode() if isinstance(auto_pad, bytes) else str(auto_pad)
    out = list(dims)
    for i in range(rank):
        n = dims[first + i][0]
        size = _pooled(n, kernel[i], strides[i], pads[i] + pads[rank + i], ceil, auto)
        out[first + i] = (size, None)
    return [_info(x.elem, out)]


def qlinear_concat(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """Concat along `axis` of the inputs at 2, 5, 8, ...; Y_zero_point's type."""
    zero = _input(ins, 1)
    tensors = [_input(ins, i) for i in range(2, len(ins), 3)]
    if zero is None or not tensors or any(t is None for t in tensors):
        return [None]
    shapes = [_dims(t) for t in tensors if t is not None]
    rank = len(shapes[0])
    axis = _int(node, "axis", 0)
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis < rank or any(len(s) != rank for s in shapes):
        return [None]
    sizes = [s[axis][0] for s in shapes]
    total = DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else sum(sizes)
    out = list(shapes[0])
    out[axis] = (total, None)
    return [_info(zero.elem, out)]


def qgemm(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """(M, N); y_zero_point's type, float32 without y_scale."""
    a, b = _input(ins, 0), _input(ins, 3)
    if a is None or b is None or len(_dims(a)) != 2 or len(_dims(b)) != 2:
        return [None]
    m = _dims(a)[1 if _int(node, "transA", 0) else 0]
    n = _dims(b)[0 if _int(node, "transB", 0) else 1]
    quantized = len(node.input) > 7 and bool(node.input[7])
    if not quantized:
        return [_info(TensorProto.FLOAT, [m, n])]
    zero = _input(ins, 8)
    return [_info(zero.elem if zero is not None else a.elem, [m, n])]


def matmul_to_float(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """DynamicQuantizeMatMul, MatMulIntegerToFloat: numpy matmul, float32."""
    a, b = _input(ins, 0), _input(ins, 1)
    shape = _matmul(_dims(a), _dims(b)) if a is not None and b is not None else None
    return [_info(TensorProto.FLOAT, shape) if shape is not None else None]


def _fused_perm(rank: int, batch: bool, last: bool) -> list[int]:
    perm = list(range(rank))
    if batch and rank > 2:
        perm = [*range(1, rank - 1), 0, rank - 1]
    if last:
        perm[-2], perm[-1] = perm[-1], perm[-2]
    return perm


def fused_matmul(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """FusedMatMul: the matmul of A and B permuted as the attributes say."""
    a, b = _input(ins, 0), _input(ins, 1)
    if a is None or b is None or len(_dims(a)) < 2 or len(_dims(b)) < 2:
        return [None]
    dims: list[list[Dim]] = []
    for info, which in ((a, "A"), (b, "B")):
        d = _dims(info)
        perm = _fused_perm(
            len(d),
            bool(_int(node, f"transBatch{which}", 0)),
            bool(_int(node, f"trans{which}", 0)),
        )
        dims.append([d[p] for p in perm])
    shape = _matmul(dims[0], dims[1])
    return [_info(a.elem, shape) if shape is not None else None]


QLINEAR_RULES: dict[str, Rule] = {
    "QLinearAdd": qlinear_binary,
    "QLinearMul": qlinear_binary,
    "QLinearGlobalAveragePool": qlinear_global_average_pool,
    "QLinearAveragePool": qlinear_average_pool,
    "QLinearConcat": qlinear_concat,
    "QGemm": qgemm,
    "DynamicQuantizeMatMul": matmul_to_float,
    "MatMulIntegerToFloat": matmul_to_float,
    "FusedMatMul": fused_matmul,
}
"""Op type -> its rule; QLinearSigmoid and QLinearLeakyRelu are `like_first`."""
