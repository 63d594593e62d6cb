"""Which graph outputs have a size that is data: a Range of graph inputs, a
NonZero of one, a Reshape to a shape read from one. ONNX Runtime takes an
output's declared dims as a hint and gives what the data computes, so a
declared `[2]` on such an output must not size its buffer
(`value_info._free_input_dims`).

A forward pass over the main graph's nodes with two marks per value: *data*
(its values follow a graph input's values) and *sized* (its shape does). A
graph input is data; a constant is neither; `Shape` and `Size` give data
only of a sized input (a graph input's own dynamic dims are names, followed
apart); any other node's results are data if an input is data or sized, and
sized if an input is sized or one of the operands that size it is data.
"""

from __future__ import annotations

from collections.abc import Collection

from onnx import GraphProto

SIZE_OPERANDS: dict[str, tuple[int, ...] | None] = {
    "AffineGrid": (1,),
    "BlackmanWindow": (0,),
    "CenterCropPad": (1,),
    "Col2Im": (1, 2),
    "Compress": (1,),
    "ConstantOfShape": (0,),
    "DFT": (1,),
    "Expand": (1,),
    "HammingWindow": (0,),
    "HannWindow": (0,),
    "If": None,
    "Loop": None,
    "MaxUnpool": (2,),
    "MelWeightMatrix": None,
    "NonMaxSuppression": None,
    "NonZero": (0,),
    "OneHot": (1,),
    "Pad": (1, 3),
    "Range": None,
    **{
        f"Reduce{kind}": (1,)
        for kind in (
            "L1",
            "L2",
            "LogSum",
            "LogSumExp",
            "Max",
            "Mean",
            "Min",
            "Prod",
            "Sum",
            "SumSquare",
        )
    },
    "Reshape": (1,),
    "Resize": (1, 2, 3),
    "Scan": None,
    "Slice": (1, 2, 3, 4),
    "Split": (1,),
    "Squeeze": (1,),
    "STFT": (2, 3),
    "Tile": (1,),
    "TopK": (1,),
    "Unique": (0,),
    "Unsqueeze": (1,),
    "Upsample": (1,),
}
"""The operands (all: None) of each op whose values decide its result's
shape, not only their own shapes."""


def data_sized_outputs(graph: GraphProto, weights: Collection[str] = ()) -> set[str]:
    """The graph outputs no node reads whose shape follows the data.
    `weights`: graph inputs that stand for initializers, not data."""
    if SIZE_OPERANDS.keys().isdisjoint(node.op_type for node in graph.node):
        return set()  # no node sizes a result by data: the loop finds none
    data = {v.name for v in graph.input} - {t.name for t in graph.initializer}
    data -= set(weights)
    sized: set[str] = set()
    for node in graph.node:
        inputs = [name for name in node.input if name]
        if node.op_type in ("Shape", "Size"):
            if any(name in sized for name in inputs):
                data.update(node.output)
            continue
        operands = SIZE_OPERANDS.get(node.op_type, ())
        picked = range(len(node.input)) if operands is None else operands
        if any(name in sized for name in inputs) or any(
            i < len(node.input) and node.input[i] in data for i in picked
        ):
            sized.update(node.output)
            data.update(node.output)
        elif any(name in data for name in inputs):
            data.update(node.output)
    read = {name for node in graph.node for name in node.input}
    return {v.name for v in graph.output if v.name in sized and v.name not in read}
