"""Opset 8 Scan read directly, before `onnx.version_converter` sees it.

Opset 8's Scan has a batch axis: `sequence_lens` (optional), then the
states `[B, ...]` and the scan inputs `[B, T, ...]`; the body runs on one
batch entry's state and one step's slice. The converter's Scan 8 -> 9 adapter
drops that axis from the graph's inputs, so the model no longer takes its
own data. Here each such Scan becomes two Loops with static trip counts (the
batch, then the steps), which the converter leaves as they are and
`unroll_control_flow` unrolls: per batch entry `b`, its state and inputs are
`Gather`ed, the inner Loop runs the Scan's body on `Gather(x_b, t)` (or
`T - 1 - t` for a reverse direction), and both Loops stack their outputs.
"""

from __future__ import annotations

import onnx
from onnx import AttributeProto, ModelProto, NodeProto, TensorProto, helper


class Scan8Error(ValueError):
    """An opset 8 Scan this rewrite cannot express: one line."""


def _attr(node: NodeProto, name: str) -> AttributeProto | None:
    return next((a for a in node.attribute if a.name == name), None)


def _dims(model: ModelProto) -> dict[str, list[int]]:
    """Static shapes of the graph's values, as declared or inferred."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        inferred = model
    graph = inferred.graph
    dims: dict[str, list[int]] = {}
    for value in [*graph.input, *graph.value_info, *graph.output]:
        t = value.type.tensor_type
        if t.HasField("shape"):
            dims[value.name] = [
                d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim
            ]
    return dims


def _typed(
    name: str, like: onnx.ValueInfoProto, steps: int | None
) -> onnx.ValueInfoProto:
    """A value named `name` of `like`'s type, with a leading `steps` dim."""
    value = onnx.ValueInfoProto()
    value.CopyFrom(like)
    value.name = name
    if steps is not None and value.type.tensor_type.HasField("shape"):
        dims = list(value.type.tensor_type.shape.dim)
        del value.type.tensor_type.shape.dim[:]
        value.type.tensor_type.shape.dim.add().dim_value = steps
        value.type.tensor_type.shape.dim.extend(dims)
    return value


def rewrite_scan8(model: ModelProto) -> ModelProto:
    """`model` (opset 8) with each top-level Scan as two Loops; the model
    itself where it has none."""
    if not any(n.op_type == "Scan" and not n.domain for n in model.graph.node):
        return model
    dims = _dims(model)
    result = ModelProto()
    result.CopyFrom(model)
    nodes: list[NodeProto] = []
    for number, node in enumerate(model.graph.node):
        if node.op_type == "Scan" and not node.domain:
            nodes += _loops(node, dims, f"{node.name or 'scan'}__scan8_{number}")
        else:
            nodes.append(node)
    del result.graph.node[:]
    result.graph.node.extend(nodes)
    return result


def _loops(node: NodeProto, dims: dict[str, list[int]], tag: str) -> list[NodeProto]:
    body_attr = _attr(node, "body")
    scans_attr = _attr(node, "num_scan_inputs")
    assert body_attr is not None and scans_attr is not None
    body = body_attr.g
    scans = scans_attr.i
    directions_attr = _attr(node, "directions")
    directions = list(directions_attr.ints) if directions_attr else [0] * scans
    if node.input and node.input[0]:
        raise Scan8Error(f"Scan '{node.name}': sequence_lens is not supported")
    operands = list(node.input[1:])
    states, inputs = (
        operands[: len(operands) - scans],
        operands[len(operands) - scans :],
    )
    shapes = [dims.get(name) for name in inputs]
    if not shapes or any(s is None or len(s) < 2 or min(s[:2]) < 1 for s in shapes):
        raise Scan8Error(
            f"Scan '{node.name}': its scan inputs need a static batch and length"
        )
    batch, steps = {s[0] for s in shapes if s}, {s[1] for s in shapes if s}
    if len(batch) != 1 or len(steps) != 1:
        raise Scan8Error(
            f"Scan '{node.name}': its scan inputs differ in batch or length"
        )
    (b_size,), (t_size,) = batch, steps
    state_names = [v.name for v in body.input[: len(states)]]
    input_names = [v.name for v in body.input[len(states) :]]
    state_outs = [v.name for v in body.output[: len(states)]]
    scan_outs = [v.name for v in body.output[len(states) :]]

    def name(what: str) -> str:
        return f"{tag}_{what}"

    def const(what: str, value: int) -> NodeProto:
        return helper.make_node(
            "Constant",
            [],
            [name(what)],
            value=helper.make_tensor(name(what), TensorProto.INT64, [], [value]),
        )

    inner_nodes: list[NodeProto] = []
    for k, (inner, direction) in enumerate(zip(input_names, directions, strict=True)):
        index = name("t")
        if direction:
            inner_nodes.append(
                helper.make_node("Sub", [name("last"), name("t")], [name(f"r{k}")])
            )
            index = name(f"r{k}")
        inner_nodes.append(
            helper.make_node("Gather", [name(f"xb{k}"), index], [inner], axis=0)
        )
    inner_nodes += list(body.node)
    inner_nodes.append(helper.make_node("Identity", [name("c")], [name("c_out")]))
    inner_body = helper.make_graph(
        inner_nodes,
        name("steps"),
        [
            helper.make_tensor_value_info(name("t"), TensorProto.INT64, []),
            helper.make_tensor_value_info(name("c"), TensorProto.BOOL, []),
            *body.input[: len(states)],
        ],
        [
            helper.make_tensor_value_info(name("c_out"), TensorProto.BOOL, []),
            *body.output,
        ],
        initializer=list(body.initializer),
    )
    final = [name(f"fs{k}") for k in range(len(states))]
    stacked = [name(f"so{k}") for k in range(len(scan_outs))]
    outer_nodes: list[NodeProto] = [
        *(
            helper.make_node("Gather", [s, name("b")], [name(f"sb{k}")], axis=0)
            for k, s in enumerate(states)
        ),
        *(
            helper.make_node("Gather", [x, name("b")], [name(f"xb{k}")], axis=0)
            for k, x in enumerate(inputs)
        ),
        helper.make_node(
            "Loop",
            [name("steps_count"), "", *(name(f"sb{k}") for k in range(len(states)))],
            [*final, *stacked],
            body=inner_body,
        ),
        helper.make_node("Identity", [name("cb")], [name("cb_out")]),
    ]
    del state_names, state_outs  # the inner body keeps the Scan body's names
    outer_body = helper.make_graph(
        outer_nodes,
        name("batch"),
        [
            helper.make_tensor_value_info(name("b"), TensorProto.INT64, []),
            helper.make_tensor_value_info(name("cb"), TensorProto.BOOL, []),
        ],
        [
            helper.make_tensor_value_info(name("cb_out"), TensorProto.BOOL, []),
            *(
                _typed(n, v, None)
                for n, v in zip(final, body.output[: len(states)], strict=True)
            ),
            *(
                _typed(n, v, t_size)
                for n, v in zip(stacked, body.output[len(states) :], strict=True)
            ),
        ],
    )
    return [
        const("batch_count", b_size),
        const("steps_count", t_size),
        const("last", t_size - 1),
        helper.make_node(
            "Loop", [name("batch_count"), ""], list(node.output), body=outer_body
        ),
    ]
