"""ConvTranspose and LpPool -> hip DPS ops in tensor mode.

- `ConvTranspose` -> `hip.miopen.conv_transpose`, `ins` (x, w[, bias]),
  `outs` (y, workspace): the workspace is a 1-D init of `M * prod(kernel) *
  prod(input spatial)` elements (one image's column matrix before col2im; 0
  for a 1x1 kernel with unit strides, no pads and no output padding). The
  pads are explicit: `output_shape` (or `auto_pad` SAME_*, whose output is
  `in * stride`) decides them as the spec says, the odd one at the end under
  SAME_UPPER and at the begin otherwise. The output size is index arithmetic
  of the input's, `stride * in + (output_padding + dil * (k - 1) + 1 -
  stride - pads)`, so a dynamic spatial dim is fine, except with an
  `output_shape` (the pads depend on the size).
- `LpPool` -> `hip.miopen.lp_pool`, its window as MaxPool's (`auto_pad`,
  `ceil_mode`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith
from xhip.transforms.onnx_to_hip.conv import output_size, window_of
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    context_of,
    ranked,
)


def _ints(op: onnx.OnnxOp, name: str, count: int, default: int) -> tuple[int, ...]:
    values = op.get_ints(name)
    if values is None:
        return (default,) * count
    if len(values) != count:
        raise Unsupported(f"{name} {values} must have {count} entries")
    return tuple(values)


def _float_operands(
    x: SSAValue, result: SSAValue
) -> tuple[list[int], TensorType[Attribute]]:
    x_type = ranked(x, "the input")
    result_type = ranked(result, "the result")
    if not isinstance(x_type.get_element_type(), AnyFloat):
        raise Unsupported(f"input type {x.type}: a float element type is needed")
    if result_type.get_element_type() != x_type.get_element_type():
        raise Unsupported(f"result type {result.type} differs from the input's")
    shape = list(x_type.get_shape())
    if len(shape) < 3:
        raise Unsupported(
            f"input type {x.type}: rank >= 3 (N, C, spatial...) is needed"
        )
    return shape, result_type


def init_of(
    rewriter: PatternRewriter,
    arith: IndexArith,
    result_type: TensorType[Attribute],
    sizes: Sequence[Index],
) -> SSAValue:
    """A `tensor.empty` of `result_type` whose dims are `sizes`: a static dim
    must agree, a dynamic one takes the value."""
    dynamic: list[SSAValue] = []
    for d, (want, size) in enumerate(zip(result_type.get_shape(), sizes)):
        if want == DYNAMIC_INDEX:
            dynamic.append(arith.value(size))
        elif isinstance(size, int) and size != want:
            raise Unsupported(
                f"result type {result_type} has {want} in dim {d}, but the op gives "
                f"{size}"
            )
    empty = tensor.EmptyOp(dynamic, result_type)
    rewriter.insert(empty)
    return empty.tensor


class ConvertConvTranspose(OnnxPattern[onnx.ConvTransposeOp]):
    """`onnx.ConvTranspose` -> `hip.miopen.conv_transpose` writing `Y` and its
    column workspace."""

    def convert(self, op: onnx.ConvTransposeOp, rewriter: PatternRewriter) -> None:
        x_shape, result_type = _float_operands(op.X, op.Y)
        element = result_type.get_element_type()
        w_type = ranked(op.W, "the weight")
        w_shape = list(w_type.get_shape())
        rank = len(x_shape) - 2
        if w_type.get_element_type() != element or len(w_shape) != len(x_shape):
            raise Unsupported(
                f"weight type {op.W.type}: the input's element type and rank needed"
            )
        if DYNAMIC_INDEX in w_shape:
            raise Unsupported(f"weight type {op.W.type}: static sizes are needed")
        kernel = tuple(w_shape[2:])
        given = op.get_ints("kernel_shape")
        if given is not None and tuple(given) != kernel:
            raise Unsupported(
                f"kernel_shape {given} differs from the weight's {list(kernel)}"
            )
        group = op.get_int("group")
        if (
            group < 1
            or w_shape[0] % group
            or (x_shape[1] != DYNAMIC_INDEX and x_shape[1] != w_shape[0])
        ):
            raise Unsupported(
                f"{x_shape[1]} input channels do not match the weight's {w_shape[0]} "
                f"in {group} groups"
            )
        channels = w_shape[1] * group
        strides = _ints(op, "strides", rank, 1)
        dilations = _ints(op, "dilations", rank, 1)
        extra = _ints(op, "output_padding", rank, 0)
        if min(strides) < 1 or min(dilations) < 1 or min(extra) < 0:
            raise Unsupported(
                f"strides {list(strides)}, dilations {list(dilations)} and "
                f"output_padding {list(extra)} must be positive (non-negative)"
            )
        pads, extra = self._pads(op, x_shape, kernel, strides, dilations, extra)
        if op.B is not None:
            b_type = ranked(op.B, "the bias")
            if b_type.get_element_type() != element:
                raise Unsupported(f"bias type {op.B.type} differs from the input's")
        index = IndexArith(rewriter, op, self.state.folder)
        sizes: list[Index] = [index.dim(op.X, 0), channels]
        for d in range(rank):
            shift = (
                extra[d]
                + dilations[d] * (kernel[d] - 1)
                + 1
                - strides[d]
                - pads[d]
                - pads[rank + d]
            )
            sizes.append(
                index.add(index.mul(index.dim(op.X, 2 + d), strides[d]), shift)
            )
        if any(isinstance(s, int) and s < 1 for s in sizes[2:]):
            raise Unsupported(f"the output would have spatial sizes {sizes[2:]}")
        out_init = init_of(rewriter, index, result_type, sizes)
        direct = (
            all(k == 1 for k in kernel)
            and all(s == 1 for s in strides)
            and not any(pads)
            and not any(extra)
        )
        if direct:
            workspace_size: Index = 0
        else:
            workspace_size = index.product(
                [
                    channels * math.prod(kernel),
                    *(index.dim(op.X, 2 + d) for d in range(rank)),
                ]
            )
        workspace = init_of(
            rewriter,
            index,
            TensorType(
                element,
                [workspace_size if isinstance(workspace_size, int) else DYNAMIC_INDEX],
            ),
            [workspace_size],
        )
        new = hip.ConvTransposeOp.make(
            context_of(op),
            x=op.X,
            w=op.W,
            bias=op.B,
            out=out_init,
            workspace=workspace,
            strides=strides,
            dilations=dilations,
            pads=pads,
            group=group,
            output_padding=extra,
        )
        rewriter.replace(op, new, [new.res[0]])

    @staticmethod
    def _pads(
        op: onnx.ConvTransposeOp,
        x_shape: Sequence[int],
        kernel: Sequence[int],
        strides: Sequence[int],
        dilations: Sequence[int],
        extra: Sequence[int],
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Begins then ends, from `pads`, `output_shape` or `auto_pad`, and the
        output padding (more where `output_shape` asks for more)."""
        rank = len(kernel)
        auto_pad = op.get_auto_pad()
        shape = op.get_ints("output_shape")
        if auto_pad not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
            raise Unsupported(f"unknown auto_pad {auto_pad!r}")
        if shape is None and auto_pad in ("NOTSET", "VALID"):
            pads = _ints(op, "pads", 2 * rank, 0) if auto_pad == "NOTSET" else ()
            pads = pads or (0,) * (2 * rank)
            if min(pads) < 0:
                raise Unsupported(f"negative pads {list(pads)}")
            return pads, tuple(extra)
        if shape is not None and len(shape) < rank:
            raise Unsupported(f"output_shape {shape} must have {rank} spatial sizes")
        begins: list[int] = []
        ends: list[int] = []
        more = list(extra)
        for d in range(rank):
            span = dilations[d] * (kernel[d] - 1) + 1
            if shape is None:  # SAME_*: the output is in * stride
                total = extra[d] + span - strides[d]
            else:
                size = x_shape[2 + d]
                if size == DYNAMIC_INDEX:
                    raise Unsupported(
                        f"output_shape {shape} with the dynamic spatial dim {2 + d}: "
                        "the pads depend on its size"
                    )
                out = shape[len(shape) - rank + d]
                total = strides[d] * (size - 1) + extra[d] + span - out
            small, big = total // 2, total - total // 2
            if auto_pad == "SAME_UPPER":
                begins.append(small)
                ends.append(big)
            else:
                begins.append(big)
                ends.append(small)
            if begins[-1] < 0:
                raise Unsupported(
                    f"output_shape {shape} needs a negative begin pad {begins[-1]} "
                    f"along spatial dim {d}"
                )
            if ends[-1] < 0:  # a larger output: more output padding
                more[d] -= ends[-1]
                ends[-1] = 0
        return (*begins, *ends), tuple(more)


class ConvertLpPool(OnnxPattern[onnx.LpPoolOp]):
    """`onnx.LpPool` -> `hip.miopen.lp_pool`."""

    def convert(self, op: onnx.LpPoolOp, rewriter: PatternRewriter) -> None:
        x_shape, result_type = _float_operands(op.X, op.Y)
        kernel = op.get_ints("kernel_shape")
        if kernel is None:
            raise Unsupported("kernel_shape is required")
        p = op.get_int("p")
        if p < 1:
            raise Unsupported(f"p {p} must be positive")
        window = window_of(op, x_shape, kernel)
        ceil_mode = bool(op.get_int("ceil_mode"))
        index = IndexArith(rewriter, op, self.state.folder)
        sizes: list[Index] = [index.dim(op.X, 0), index.dim(op.X, 1)]
        for d in range(len(kernel)):
            if x_shape[2 + d] == DYNAMIC_INDEX or result_type.get_shape()[2 + d] < 0:
                sizes.append(
                    output_size(self, op, rewriter, op.X, d, window, ceil_mode)
                )
            else:
                sizes.append(
                    hip.window_output_size(
                        x_shape[2 + d],
                        window.kernel[d],
                        window.strides[d],
                        window.dilations[d],
                        window.pads[d],
                        window.pads[len(kernel) + d],
                        ceil_mode,
                    )
                )
        init = init_of(rewriter, index, result_type, sizes)
        new = hip.LpPoolOp.make(
            context_of(op),
            x=op.X,
            out=init,
            strides=window.strides,
            dilations=window.dilations,
            pads=window.pads,
            kernel_shape=window.kernel,
            ceil_mode=ceil_mode,
            p=p,
        )
        rewriter.replace(op, new)
