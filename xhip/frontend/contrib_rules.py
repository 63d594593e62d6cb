"""The result types of ONNX Runtime's contrib ops, which onnx's inference lacks.

onnx has no schema for a `com.microsoft` op, so its inference stops at one.
The importer states the results' types here, from the node and the types of
its inputs, and lets inference carry on from them (`_Importer.infer`). A
contrib op whose results are not its first input's type (a MatMulNBits, an
attention with a KV cache) has its own rule in `RULES`; a rule returns None
for a result it cannot type yet (an input not typed yet), and is asked again
once inference knows more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from onnx import NodeProto, helper

from xhip.frontend.value_info import ValueInfo

Rule = Callable[
    [NodeProto, Sequence[ValueInfo | None], Sequence[str]], list[ValueInfo | None]
]
"""(node, its inputs' types or None, its op's result names) -> each result's
type, None where not known yet."""

STATS = ("mean", "inv_std_var")
"""Results of the input's shape reduced from `axis` (default -1) on."""


def attribute(node: NodeProto, name: str, default: object = None) -> object:
    """The value of the node's attribute `name`, or `default`."""
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def int_attribute(node: NodeProto, name: str, default: int) -> int:
    value = attribute(node, name, default)
    return value if isinstance(value, int) else default


def like_first(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """Each result is the first input's type; a `STATS` result its shape with
    the dims from `axis` on 1 (the normalizations' saved mean and 1/std)."""
    first = ins[0] if ins else None
    if first is None or first.shape is None or not first.elem:
        return [None] * len(results)
    rank = len(first.shape)
    axis = int_attribute(node, "axis", -1)
    axis = axis + rank if axis < 0 else axis
    out: list[ValueInfo | None] = []
    for result in results:
        if result in STATS:
            keep = rank - axis
            out.append(
                ValueInfo(
                    first.elem,
                    [*first.shape[:axis], *[1] * keep],
                    [*first.params[:axis], *[None] * keep],
                )
            )
        else:
            out.append(ValueInfo(first.elem, list(first.shape), list(first.params)))
    return out


RULES: dict[str, Rule] = {}
"""Contrib op type -> its rule, for the ops that `like_first` does not type."""


def result_infos(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """The types of the node's results (`results`: its op's result names)."""
    return RULES.get(node.op_type, like_first)(node, ins, results)
