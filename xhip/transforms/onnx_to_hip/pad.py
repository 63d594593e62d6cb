"""Pad, DepthToSpace, SpaceToDepth, InstanceNormalization, GroupNormalization
and LRN -> hip DPS ops in tensor mode.

- `Pad` -> `hip.pad`: the pads are compile-time index values (constants, or
  shape values `onnx-fold-shapes` made), one begin and one end per dim (0 for
  the dims `axes` leaves out), as index operands; the output size is `size +
  begin + end` per dim. `constant_value`, data, is the second `ins` operand
  (constant mode only). All pads 0: the input itself.
- `DepthToSpace` (DCR, CRD) and `SpaceToDepth` -> an expand_shape view of the
  input to 6-D, one `hip.permute` (a strided copy, as fast as a kernel of
  their own), and a collapse_shape view of its result.
- `InstanceNormalization` -> `hip.miopen.group_norm` with one group per
  channel; `GroupNormalization` -> the same with `num_groups`, and
  `per_group` at opset 18 (scale and bias per group; opset 21, which adds
  `stash_type`, has them per channel).
- `LRN` -> `hip.miopen.lrn`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index, IndexArith, index_values
from xhip.transforms.onnx_to_hip.shapes import shape_operand
from xhip.transforms.onnx_to_hip.support import (
    OnnxPattern,
    Unsupported,
    context_of,
    ranked,
)


def _string(op: onnx.OnnxOp, name: str) -> str:
    attr = op.properties.get(name)
    if isinstance(attr, StringAttr):
        return attr.data
    value = op.DEFAULTS[name]
    assert isinstance(value, str)
    return value


def _empty(
    rewriter: PatternRewriter,
    arith: IndexArith,
    result: TensorType[Attribute],
    sizes: Sequence[Index],
) -> SSAValue:
    """`tensor.empty` of `result`, its dynamic dims sized by `sizes`; a size
    known here must be the result type's static one."""
    dynamic: list[SSAValue] = []
    for d, (want, size) in enumerate(zip(result.get_shape(), sizes, strict=True)):
        if want == DYNAMIC_INDEX:
            dynamic.append(arith.value(size))
        elif isinstance(size, int) and size != want:
            raise Unsupported(f"result dim {d} has size {want} but the op gives {size}")
    empty = tensor.EmptyOp(dynamic, result)
    rewriter.insert(empty)
    return empty.tensor


def _same_element_type(source: SSAValue, result: TensorType[Attribute]) -> None:
    element = ranked(source, "the input").get_element_type()
    if element != result.get_element_type():
        raise Unsupported(
            f"input element type {element} differs from the result's "
            f"{result.get_element_type()}"
        )


def _float_input(source: SSAValue) -> TensorType[Attribute]:
    value = ranked(source, "the input")
    if not isinstance(value.get_element_type(), AnyFloat):
        raise Unsupported(f"the input type {value} is not of floats")
    return value


class ConvertPad(OnnxPattern[onnx.PadOp]):
    """`onnx.Pad` -> `hip.pad` (see the module doc)."""

    def convert(self, op: onnx.PadOp, rewriter: PatternRewriter) -> None:
        result = ranked(op.output, "the result")
        _same_element_type(op.data, result)
        rank = ranked(op.data, "the input").get_num_dims()
        mode = _string(op, "mode")
        if mode not in hip.PAD_MODES:
            raise Unsupported(f"mode {mode!r} is not one of {list(hip.PAD_MODES)}")
        pads = shape_operand(self, op, rewriter, op.pads, "pads")
        arith = IndexArith(rewriter, op, self.state.folder)
        begins: list[Index] = [0] * rank
        ends: list[Index] = [0] * rank
        if op.axes is not None and index_values(op.axes) is None:
            # Axes read back at run time: each dim's pad is the one whose axis it is.
            given = shape_operand(self, op, rewriter, op.axes, "axes")
            if len(pads) != 2 * len(given):
                raise Unsupported(
                    f"{len(pads)} pads for {len(given)} axes; 2 per axis are needed"
                )
            axes_at = [arith.normalize_axis_index(a, rank) for a in given]
            for d in range(rank):
                for i, a in enumerate(axes_at):
                    here = arith.compare("eq", a, d)
                    begins[d] = arith.select(here, pads[i], begins[d])
                    ends[d] = arith.select(here, pads[len(given) + i], ends[d])
        else:
            axes = list(range(rank)) if op.axes is None else self._axes(op.axes, rank)
            if len(pads) != 2 * len(axes):
                raise Unsupported(
                    f"{len(pads)} pads for {len(axes)} axes; 2 per axis are needed"
                )
            for i, axis in enumerate(axes):
                begins[axis], ends[axis] = pads[i], pads[len(axes) + i]
        constant: SSAValue | None = None
        if op.constant_value is not None and mode == "constant":
            value = ranked(op.constant_value, "constant_value")
            if value.get_element_type() != result.get_element_type():
                raise Unsupported(
                    f"constant_value has type {value}; the data's element type "
                    f"{result.get_element_type()} is needed"
                )
            if any(d != 1 for d in value.get_shape()):
                raise Unsupported(
                    f"constant_value has type {value}; one element is needed"
                )
            constant = op.constant_value
        if all(p == 0 for p in (*begins, *ends)) and op.data.type == result:
            rewriter.replace(op, [], [op.data])
            return
        sizes = [
            arith.add(arith.add(arith.dim(op.data, d), begins[d]), ends[d])
            for d in range(rank)
        ]
        for d, size in enumerate(sizes):
            if isinstance(size, int) and size < 0:
                raise Unsupported(f"the pads leave dim {d} a negative size {size}")
        init = _empty(rewriter, arith, result, sizes)
        new = hip.PadOp.make(
            context_of(op),
            x=op.data,
            value=constant,
            out=init,
            pads=[arith.value(p) for p in (*begins, *ends)],
            mode=mode,
        )
        rewriter.replace(op, new)

    @staticmethod
    def _axes(value: SSAValue, rank: int) -> list[int]:
        given = index_values(value)
        if given is None or not all(isinstance(a, int) for a in given):
            raise Unsupported("axes must be constants")
        axes: list[int] = []
        for a in given:
            assert isinstance(a, int)
            if not -rank <= a < rank:
                raise Unsupported(f"axis {a} is out of range for rank {rank}")
            axes.append(a % rank)
        if len(set(axes)) != len(axes):
            raise Unsupported(f"axes {given} repeat an axis")
        return axes


def _reassociation(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _static(sizes: Sequence[Index]) -> list[int]:
    return [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]


def _rearrange(
    pattern: OnnxPattern[onnx.DepthToSpaceOp] | OnnxPattern[onnx.SpaceToDepthOp],
    op: onnx.DepthToSpaceOp | onnx.SpaceToDepthOp,
    rewriter: PatternRewriter,
    split: Sequence[Index],
    split_groups: Sequence[Sequence[int]],
    perm: Sequence[int],
    merge_groups: Sequence[Sequence[int]],
) -> None:
    """`op.input` expanded to the 6-D `split` sizes, permuted by `perm`, and
    collapsed by `merge_groups` into the result."""
    result = ranked(op.output, "the result")
    source = ranked(op.input, "the input")
    _same_element_type(op.input, result)
    element = source.get_element_type()
    arith = IndexArith(rewriter, op, pattern.state.folder)
    expanded_type = TensorType(element, _static(split))
    expand = tensor.ExpandShapeOp(
        op.input,
        [arith.value(s) for s in split if not isinstance(s, int)],
        _reassociation(split_groups),
        DenseArrayBase.from_list(i64, _static(split)),
        expanded_type,
    )
    rewriter.insert(expand)
    permuted = [split[p] for p in perm]
    permuted_type = TensorType(element, _static(permuted))
    init = _empty(rewriter, arith, permuted_type, permuted)
    permute = hip.PermuteOp.make(context_of(op), src=expand.result, out=init, perm=perm)
    rewriter.insert(permute)
    merged: list[int] = []
    for group in merge_groups:
        sizes = [permuted[i] for i in group]
        known = [size for size in sizes if isinstance(size, int)]
        merged.append(math.prod(known) if len(known) == len(sizes) else DYNAMIC_INDEX)
    for d, (want, size) in enumerate(zip(result.get_shape(), merged, strict=True)):
        if DYNAMIC_INDEX not in (want, size) and size != want:
            raise Unsupported(f"result dim {d} has size {want} but the op gives {size}")
    collapse = tensor.CollapseShapeOp.create(
        operands=[permute.res[0]],
        result_types=[TensorType(element, merged)],
        properties={"reassociation": _reassociation(merge_groups)},
    )
    rewriter.insert(collapse)
    value = collapse.results[0]
    if value.type != result:
        cast = tensor.CastOp(value, result)
        rewriter.insert(cast)
        value = cast.results[0]
    rewriter.replace(op, [], [value])


def _blocks(
    op: onnx.DepthToSpaceOp | onnx.SpaceToDepthOp, arith: IndexArith
) -> tuple[int, list[Index]]:
    shape = ranked(op.input, "the input").get_shape()
    if len(shape) != 4:
        raise Unsupported(f"the input must be 4-D (N, C, H, W), got rank {len(shape)}")
    if op.blocksize is None or op.blocksize.value.data < 1:
        raise Unsupported("blocksize must be given, and positive")
    return op.blocksize.value.data, [arith.dim(op.input, d) for d in range(4)]


def _divided(arith: IndexArith, size: Index, by: int, what: str) -> Index:
    if isinstance(size, int) and size % by:
        raise Unsupported(f"{what} {size} is not a multiple of {by}")
    return arith.floor_div(size, by)


class ConvertDepthToSpace(OnnxPattern[onnx.DepthToSpaceOp]):
    """(N, C, H, W) -> (N, b, b, C', H, W) (DCR) or (N, C', b, b, H, W) (CRD),
    permuted to (N, C', H, b, W, b), viewed as (N, C', H * b, W * b)."""

    def convert(self, op: onnx.DepthToSpaceOp, rewriter: PatternRewriter) -> None:
        mode = _string(op, "mode")
        if mode not in ("DCR", "CRD"):
            raise Unsupported(f"mode {mode!r} is not DCR or CRD")
        arith = IndexArith(rewriter, op, self.state.folder)
        b, (n, c, h, w) = _blocks(op, arith)
        depth = _divided(arith, c, b * b, "the channel count")
        if mode == "DCR":
            split: list[Index] = [n, b, b, depth, h, w]
            perm = (0, 3, 4, 1, 5, 2)
        else:
            split = [n, depth, b, b, h, w]
            perm = (0, 1, 4, 2, 5, 3)
        _rearrange(
            self, op, rewriter, split, [[0], [1, 2, 3], [4], [5]], perm,
            [[0], [1], [2, 3], [4, 5]],
        )  # fmt: skip


class ConvertSpaceToDepth(OnnxPattern[onnx.SpaceToDepthOp]):
    """(N, C, H, W) -> (N, C, H', b, W', b), permuted to (N, b, b, C, H', W')
    (DCR) or (N, C, b, b, H', W') (CRD), viewed as (N, C * b * b, H', W')."""

    def convert(self, op: onnx.SpaceToDepthOp, rewriter: PatternRewriter) -> None:
        mode = _string(op, "mode")
        if mode not in ("DCR", "CRD"):
            raise Unsupported(f"mode {mode!r} is not DCR or CRD")
        arith = IndexArith(rewriter, op, self.state.folder)
        b, (n, c, h, w) = _blocks(op, arith)
        rows = _divided(arith, h, b, "the height")
        cols = _divided(arith, w, b, "the width")
        perm = (0, 3, 5, 1, 2, 4) if mode == "DCR" else (0, 1, 3, 5, 2, 4)
        _rearrange(
            self, op, rewriter, [n, c, rows, b, cols, b], [[0], [1], [2, 3], [4, 5]],
            perm, [[0], [1, 2, 3], [4], [5]],
        )  # fmt: skip


def _group_norm(
    pattern: OnnxPattern[onnx.InstanceNormalizationOp]
    | OnnxPattern[onnx.GroupNormalizationOp],
    op: onnx.InstanceNormalizationOp | onnx.GroupNormalizationOp,
    rewriter: PatternRewriter,
    ins: Sequence[SSAValue],
    num_groups: int | None,
    per_group: bool,
) -> None:
    source = _float_input(ins[0])
    result = ranked(op.results[0], "the result")
    _same_element_type(ins[0], result)
    shape = source.get_shape()
    if len(shape) < 2:
        raise Unsupported(f"the input must be (N, C, ...), got rank {len(shape)}")
    channels = shape[1]
    if num_groups is not None and (
        num_groups < 1 or (channels != DYNAMIC_INDEX and channels % num_groups)
    ):
        raise Unsupported(f"{channels} channels do not split into {num_groups} groups")
    want = num_groups if per_group else channels
    for name, value in (("scale", ins[1]), ("bias", ins[2])):
        param = ranked(value, name)
        _same_element_type(value, result)
        dims = param.get_shape()
        if len(dims) != 1 or (DYNAMIC_INDEX not in (dims[0], want) and dims[0] != want):
            raise Unsupported(
                f"{name} has type {param}; ({'num_groups' if per_group else 'C'}) "
                f"= ({want if want != DYNAMIC_INDEX else '?'}) is needed"
            )
    arith = IndexArith(rewriter, op, pattern.state.folder)
    init = _empty(
        rewriter, arith, result, [arith.dim(ins[0], d) for d in range(len(shape))]
    )
    new = hip.GroupNormOp.make(
        context_of(op),
        x=ins[0],
        scale=ins[1],
        bias=ins[2],
        out=init,
        num_groups=num_groups,
        epsilon=op.get_float("epsilon"),
        per_group=per_group,
    )
    rewriter.replace(op, new)


class ConvertInstanceNormalization(OnnxPattern[onnx.InstanceNormalizationOp]):
    def convert(
        self, op: onnx.InstanceNormalizationOp, rewriter: PatternRewriter
    ) -> None:
        _group_norm(self, op, rewriter, [op.input, op.scale, op.B], None, False)


class ConvertGroupNormalization(OnnxPattern[onnx.GroupNormalizationOp]):
    def convert(self, op: onnx.GroupNormalizationOp, rewriter: PatternRewriter) -> None:
        if op.num_groups is None:
            raise Unsupported("num_groups is required")
        if op.stash_type is not None and op.stash_type.value.data != 1:
            raise Unsupported(
                f"stash_type {op.stash_type.value.data}: only 1 (float32 "
                "statistics) is supported"
            )
        groups = op.num_groups.value.data
        # Opset 18 has no stash_type and takes scale and bias per group.
        per_group = op.stash_type is None
        _group_norm(self, op, rewriter, [op.X, op.scale, op.bias], groups, per_group)


class ConvertLRN(OnnxPattern[onnx.LRNOp]):
    def convert(self, op: onnx.LRNOp, rewriter: PatternRewriter) -> None:
        source = _float_input(op.X)
        result = ranked(op.Y, "the result")
        _same_element_type(op.X, result)
        shape = source.get_shape()
        if len(shape) < 2:
            raise Unsupported(f"the input must be (N, C, ...), got rank {len(shape)}")
        if op.size is None or op.size.value.data < 1:
            raise Unsupported("size must be given, and positive")
        arith = IndexArith(rewriter, op, self.state.folder)
        init = _empty(
            rewriter, arith, result, [arith.dim(op.X, d) for d in range(len(shape))]
        )
        new = hip.LrnOp.make(
            context_of(op),
            src=op.X,
            out=init,
            size=op.size.value.data,
            alpha=op.get_float("alpha"),
            beta=op.get_float("beta"),
            bias=op.get_float("bias"),
        )
        rewriter.replace(op, new)
