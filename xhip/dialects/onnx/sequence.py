"""Sequences and optionals: the types `!onnx.Seq<T>` and `!onnx.Opt<T>` (as
onnx-mlir names them) and the ONNX ops on them.

xhip compiles to static library calls, so no sequence or optional exists at
run time: once control flow is unrolled and structure operands are
specialized, every sequence's length and every optional's presence is known,
and `onnx_to_hip/sequence.py` resolves these ops away into the tensors they
hold (`docs/sequences.md`). A sequence's element type is the type its
elements have in common (`tensor<*xf32>` when not even the rank is).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, UnrankedTensorType
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import NoMemoryEffect

from xhip.dialects.onnx.base import AnyTensor, OnnxOp


@irdl_attr_definition
class SeqType(ParametrizedAttribute, TypeAttribute):
    """An ONNX sequence of tensors of `element` (`tensor<*xT>` for any rank)."""

    name = "onnx.Seq"

    element: Attribute


@irdl_attr_definition
class OptType(ParametrizedAttribute, TypeAttribute):
    """An ONNX optional: a value of type `element` (a tensor or a sequence) or
    none."""

    name = "onnx.Opt"

    element: Attribute


AnySeq = base(SeqType)
AnyOpt = base(OptType)
AnyValue = AnyTensor | base(UnrankedTensorType) | AnySeq | AnyOpt
"""What control flow yields and carries: tensors, sequences and optionals."""


def element_type(seq: Attribute) -> Attribute:
    """The element type of a sequence type (a tensor type)."""
    assert isinstance(seq, SeqType)
    return seq.element


def is_structured(t: Attribute) -> bool:
    """Whether `t` is a sequence or optional type (resolved at compile time)."""
    return isinstance(t, SeqType | OptType)


class SequenceOpBase(OnnxOp):
    """An op on sequences or optionals: resolved at compile time."""

    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class SequenceEmptyOp(SequenceOpBase):
    """An empty sequence of `dtype` elements."""

    name = "onnx.SequenceEmpty"

    output = result_def(AnySeq)
    dtype = opt_prop_def(Attribute)


@irdl_op_definition
class SequenceConstructOp(SequenceOpBase):
    """The sequence of its inputs, in order."""

    name = "onnx.SequenceConstruct"

    inputs = var_operand_def(AnyTensor)
    output_sequence = result_def(AnySeq)


@irdl_op_definition
class SequenceInsertOp(SequenceOpBase):
    """`input_sequence` with `tensor` inserted at `position` (default: the end)."""

    name = "onnx.SequenceInsert"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("position",)

    input_sequence = operand_def(AnySeq)
    tensor = operand_def(AnyTensor)
    position = opt_operand_def(AnyTensor)
    output_sequence = result_def(AnySeq)


@irdl_op_definition
class SequenceAtOp(SequenceOpBase):
    """The element at `position` (negative: from the end)."""

    name = "onnx.SequenceAt"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("position",)

    input_sequence = operand_def(AnySeq)
    position = operand_def(AnyTensor)
    tensor = result_def(AnyTensor)


@irdl_op_definition
class SequenceEraseOp(SequenceOpBase):
    """`input_sequence` without the element at `position` (default: the last)."""

    name = "onnx.SequenceErase"
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("position",)

    input_sequence = operand_def(AnySeq)
    position = opt_operand_def(AnyTensor)
    output_sequence = result_def(AnySeq)


@irdl_op_definition
class SequenceLengthOp(SequenceOpBase):
    """The number of elements, a 0-D i64."""

    name = "onnx.SequenceLength"

    input_sequence = operand_def(AnySeq)
    length = result_def(AnyTensor)


@irdl_op_definition
class SplitToSequenceOp(SequenceOpBase):
    """`input` split along `axis`: by `split` (a scalar: pieces of that size,
    the last smaller; a 1-D: those sizes), or into size-1 pieces, whose axis
    `keepdims = 0` drops."""

    name = "onnx.SplitToSequence"
    DEFAULTS: ClassVar[dict[str, object]] = {"axis": 0, "keepdims": 1}
    STRUCTURE_OPERANDS: ClassVar[tuple[str, ...]] = ("split",)

    input = operand_def(AnyTensor)
    split = opt_operand_def(AnyTensor)
    output_sequence = result_def(AnySeq)
    axis = opt_prop_def(IntegerAttr)
    keepdims = opt_prop_def(IntegerAttr)


@irdl_op_definition
class ConcatFromSequenceOp(SequenceOpBase):
    """The elements concatenated along `axis`, or stacked along a new one
    (`new_axis = 1`)."""

    name = "onnx.ConcatFromSequence"
    DEFAULTS: ClassVar[dict[str, object]] = {"new_axis": 0}

    input_sequence = operand_def(AnySeq)
    concat_result = result_def(AnyTensor)
    axis = prop_def(IntegerAttr)
    new_axis = opt_prop_def(IntegerAttr)


@irdl_op_definition
class SequenceMapOp(SequenceOpBase):
    """`body` applied to each element of `input_sequence` (and of the
    `additional_inputs` that are sequences; tensors are passed whole): one
    output sequence per body output. Unrolled once the length is known."""

    name = "onnx.SequenceMap"

    input_sequence = operand_def(AnySeq)
    additional_inputs = var_operand_def(AnyTensor | AnySeq)
    out_sequence = var_result_def(AnySeq)
    body = region_def("single_block")


@irdl_op_definition
class OptionalOp(SequenceOpBase):
    """An optional holding `input`, or an empty one of `type` (no input)."""

    name = "onnx.Optional"

    input = opt_operand_def(AnyTensor | AnySeq)
    output = result_def(AnyOpt)
    type = opt_prop_def(Attribute)


@irdl_op_definition
class OptionalHasElementOp(SequenceOpBase):
    """Whether the optional holds a value (a tensor or sequence: true; no
    input: false), a 0-D i1."""

    name = "onnx.OptionalHasElement"

    input = opt_operand_def(AnyTensor | AnySeq | AnyOpt)
    output = result_def(AnyTensor)


@irdl_op_definition
class OptionalGetElementOp(SequenceOpBase):
    """The value the optional holds (a tensor or sequence: itself)."""

    name = "onnx.OptionalGetElement"

    input = operand_def(AnyTensor | AnySeq | AnyOpt)
    output = result_def(AnyTensor | AnySeq)


TYPES: tuple[type[ParametrizedAttribute], ...] = (SeqType, OptType)
"""This family's types."""

OPS: tuple[type[Operation], ...] = (
    SequenceEmptyOp,
    SequenceConstructOp,
    SequenceInsertOp,
    SequenceAtOp,
    SequenceEraseOp,
    SequenceLengthOp,
    SplitToSequenceOp,
    ConcatFromSequenceOp,
    SequenceMapOp,
    OptionalOp,
    OptionalHasElementOp,
    OptionalGetElementOp,
)
"""This family's ops; a new op goes at the end."""

__all__ = [
    "AnyValue",
    "ConcatFromSequenceOp",
    "OptType",
    "OptionalGetElementOp",
    "OptionalHasElementOp",
    "OptionalOp",
    "SeqType",
    "SequenceAtOp",
    "SequenceConstructOp",
    "SequenceEmptyOp",
    "SequenceEraseOp",
    "SequenceInsertOp",
    "SequenceLengthOp",
    "SequenceMapOp",
    "SequenceOpBase",
    "SplitToSequenceOp",
    "is_structured",
    "element_type",
]
