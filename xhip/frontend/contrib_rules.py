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

from onnx import NodeProto, TensorProto, helper
from xdsl.dialects.builtin import DYNAMIC_INDEX

from xhip.frontend.contrib_extra_rules import QDQ_RULES
from xhip.frontend.qlinear_rules import QLINEAR_RULES
from xhip.frontend.value_info import ValueInfo

Rule = Callable[
    [NodeProto, Sequence[ValueInfo | None], Sequence[str]], list[ValueInfo | None]
]
"""(node, its inputs' types or None, its op's result names) -> each result's
type, None where not known yet."""

STATS = ("mean", "inv_std_var")
"""Results of the input's shape reduced from `axis` (default -1) on: float32
for a float16 or bfloat16 input (ORT's type `U`), else the input's type."""


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
    stats = first.elem if first.elem == TensorProto.DOUBLE else TensorProto.FLOAT
    out: list[ValueInfo | None] = []
    for result in results:
        if result in STATS:
            keep = rank - axis
            out.append(
                ValueInfo(
                    stats,
                    [*first.shape[:axis], *[1] * keep],
                    [*first.params[:axis], *[None] * keep],
                )
            )
        else:
            out.append(ValueInfo(first.elem, list(first.shape), list(first.params)))
    return out


def _params(info: ValueInfo) -> list[str | None]:
    assert info.shape is not None
    return (
        list(info.params)
        if len(info.params) == len(info.shape)
        else [None] * len(info.shape)
    )


def matmul_nbits(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """MatMulNBits: A's type and shape with the last dim `N`."""
    a = ins[0] if ins else None
    if a is None or a.shape is None or not a.shape or not a.elem:
        return [None] * len(results)
    n = int_attribute(node, "N", -1)
    shape = [*a.shape[:-1], n if n >= 0 else DYNAMIC_INDEX]
    return [ValueInfo(a.elem, shape, [*_params(a)[:-1], None])]


def gather_block_quantized(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """GatherBlockQuantized: Gather's shape along `gather_axis`, the last dim
    times `8 / bits` for packed uint8 data; the scales' type."""
    data, indices, scales = (list(ins) + [None] * 3)[:3]
    if any(v is None or v.shape is None for v in (data, indices)) or not (
        scales and scales.elem
    ):
        return [None] * len(results)
    assert data is not None and indices is not None
    assert data.shape is not None and indices.shape is not None
    rank = len(data.shape)
    axis = int_attribute(node, "gather_axis", 0)
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis < rank:
        return [None] * len(results)
    shape = [*data.shape[:axis], *indices.shape, *data.shape[axis + 1 :]]
    params = [*_params(data)[:axis], *_params(indices), *_params(data)[axis + 1 :]]
    per_byte = 8 // max(int_attribute(node, "bits", 4), 1)
    if data.elem == TensorProto.UINT8 and per_byte > 1 and shape:
        last = shape[-1]
        shape[-1] = last * per_byte if last != DYNAMIC_INDEX else last
        params[-1] = None
    return [ValueInfo(scales.elem, shape, params)]


def group_query_attention(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """GroupQueryAttention: the output is query's (B, S, num_heads * D), D its
    hidden size over the heads it packs; present_key/value (B, kv_num_heads,
    T, D), T known only at run time (the larger of total_sequence_length and
    the past's)."""
    query = ins[0] if ins else None
    if query is None or query.shape is None or len(query.shape) != 3:
        return [None] * len(results)
    heads = int_attribute(node, "num_heads", 0)
    kv_heads = int_attribute(node, "kv_num_heads", 0)
    packed = len(node.input) < 2 or not node.input[1]
    parts = heads + 2 * kv_heads if packed else heads
    hidden = query.shape[2]
    if parts < 1 or hidden == DYNAMIC_INDEX or hidden % parts:
        return [None] * len(results)
    head = hidden // parts
    batch, seq = query.shape[:2]
    params = _params(query)
    out: list[ValueInfo | None] = []
    for result in results:
        if result == "output":
            out.append(
                ValueInfo(query.elem, [batch, seq, heads * head], [*params[:2], None])
            )
        elif result in ("present_key", "present_value"):
            out.append(
                ValueInfo(
                    query.elem,
                    [batch, kv_heads, DYNAMIC_INDEX, head],
                    [params[0], None, None, None],
                )
            )
        else:
            out.append(None)
    return out


def multi_head_attention(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """MultiHeadAttention: output (B, S, N * Hv), Hv from value (3-D or 4-D),
    or the packed query/key's last dim; present_key/value (B, N, T, H)."""
    query, key, value = (list(ins) + [None] * 3)[:3]
    if query is None or query.shape is None or len(query.shape) not in (3, 5):
        return [None] * len(results)
    heads = int_attribute(node, "num_heads", 0)
    batch, seq = query.shape[:2]
    packed = len(query.shape) == 5
    if packed:
        head = v_head = query.shape[4]
    elif key is not None and key.shape is not None and len(key.shape) == 5:
        head = v_head = key.shape[4]
    else:
        hidden = query.shape[2]
        head = hidden // heads if heads > 0 and hidden != DYNAMIC_INDEX else -1
        if value is None or value.shape is None:
            return [None] * len(results)
        if len(value.shape) == 4:
            v_head = value.shape[3]
        else:
            v_hidden = value.shape[-1]
            v_head = (
                v_hidden // heads if heads > 0 and v_hidden != DYNAMIC_INDEX else -1
            )
    params = _params(query)
    out: list[ValueInfo | None] = []
    for result in results:
        if result == "output":
            size = heads * v_head if heads > 0 and v_head >= 0 else DYNAMIC_INDEX
            out.append(ValueInfo(query.elem, [batch, seq, size], [*params[:2], None]))
        elif result in ("present_key", "present_value"):
            size = head if result == "present_key" else v_head
            out.append(
                ValueInfo(
                    query.elem,
                    [batch, heads, DYNAMIC_INDEX, size if size >= 0 else DYNAMIC_INDEX],
                    [params[0], None, None, None],
                )
            )
        else:
            out.append(None)
    return out


def ms_attention(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """com.microsoft Attention: output (B, S, V hidden), the weights' columns
    cut by `qkv_hidden_sizes` or in three; present (2, B, N, T, H)."""
    data, weights = (list(ins) + [None] * 2)[:2]
    if (
        data is None
        or data.shape is None
        or len(data.shape) != 3
        or weights is None
        or weights.shape is None
        or len(weights.shape) != 2
    ):
        return [None] * len(results)
    sizes = attribute(node, "qkv_hidden_sizes")
    columns = weights.shape[1]
    if isinstance(sizes, list) and len(sizes) == 3:  # pyright: ignore[reportUnknownArgumentType]
        qk, v_hidden = int(sizes[0]), int(sizes[2])  # pyright: ignore[reportUnknownArgumentType]
    elif columns != DYNAMIC_INDEX:
        qk = v_hidden = columns // 3
    else:
        qk = v_hidden = DYNAMIC_INDEX
    heads = int_attribute(node, "num_heads", 0)
    batch, seq = data.shape[:2]
    params = _params(data)
    out: list[ValueInfo | None] = []
    for result in results:
        if result == "output":
            out.append(
                ValueInfo(data.elem, [batch, seq, v_hidden], [*params[:2], None])
            )
        elif result == "present":
            head = qk // heads if heads > 0 and qk != DYNAMIC_INDEX else DYNAMIC_INDEX
            out.append(
                ValueInfo(
                    data.elem,
                    [2, batch, heads, DYNAMIC_INDEX, head],
                    [None, params[0], None, None, None],
                )
            )
        else:
            out.append(None)
    return out


def embed_layer_normalization(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """EmbedLayerNormalization: output and embedding_sum (B, S, D) of the
    word embedding's type, mask_index (B,) int32."""
    ids = ins[0] if ins else None
    words = ins[2] if len(ins) > 2 else None
    if (
        ids is None
        or ids.shape is None
        or len(ids.shape) != 2
        or words is None
        or words.shape is None
        or len(words.shape) != 2
    ):
        return [None] * len(results)
    params = _params(ids)
    out: list[ValueInfo | None] = []
    for result in results:
        if result == "mask_index":
            out.append(ValueInfo(TensorProto.INT32, [ids.shape[0]], [params[0]]))
        else:
            out.append(
                ValueInfo(words.elem, [*ids.shape, words.shape[1]], [*params, None])
            )
    return out


RULES: dict[str, Rule] = {
    "GroupQueryAttention": group_query_attention,
    "MultiHeadAttention": multi_head_attention,
    "Attention": ms_attention,
    "EmbedLayerNormalization": embed_layer_normalization,
    "MatMulNBits": matmul_nbits,
    "GatherBlockQuantized": gather_block_quantized,
    **QLINEAR_RULES,
    **QDQ_RULES,
}
"""Contrib op type -> its rule, for the ops that `like_first` does not type."""


def result_infos(
    node: NodeProto, ins: Sequence[ValueInfo | None], results: Sequence[str]
) -> list[ValueInfo | None]:
    """The types of the node's results (`results`: its op's result names)."""
    return RULES.get(node.op_type, like_first)(node, ins, results)
