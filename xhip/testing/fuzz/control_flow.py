"""The If, Scan and Loop generators (`onnx_to_hip/control_flow.py`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper

from xhip.testing.fuzz.graph import Generator, Graph, Value

_BRANCH_OPS = ("Neg", "Abs", "Relu", "Sigmoid", "Tanh")


def _if(g: Graph) -> Value | None:
    """Two one-op branches over an outer value (outer scope), the condition a
    constant: the conversion inlines the taken branch. (A condition that is
    data specializes, which `xhip.compile` does and `check`'s
    `compile_to_ir` does not.)"""
    x = g.pick()
    if x is None:
        return None
    out = Value(g.fresh("if"), x.shape)
    branches = []
    for which in ("then", "else"):
        op = _BRANCH_OPS[int(g.rng.integers(len(_BRANCH_OPS)))]
        name = g.fresh(which)
        node = helper.make_node(op, [x.name], [name], name=name)
        info = helper.make_tensor_value_info(name, TensorProto.FLOAT, list(x.shape))
        branches.append(helper.make_graph([node], name, [], [info]))
    cond = g.constant(np.array(bool(g.rng.integers(2))), "cond")
    node = helper.make_node(
        "If",
        [cond],
        [out.name],
        name=out.name,
        then_branch=branches[0],
        else_branch=branches[1],
    )
    g.nodes.append(node)
    g.values.append(out)
    return out


def _float(name: str, shape: Sequence[int | str]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def _scan(g: Graph) -> Value | None:
    """A running sum from a value, over the slices of a constant scan input
    (1 to 3 steps, forwards or backwards, each slice broadcast), with a
    unary op on each step's sum as the scan output: the final state or the
    stacked scan output is the result."""
    x = g.pick()
    if x is None:
        return None
    shape = list(x.shape)
    steps = int(g.rng.integers(1, 4))
    addend = g.rng.standard_normal((steps, *[1] * len(shape))).astype(np.float32)
    names = [g.fresh(stem) for stem in ("state", "next", "sum", "each")]
    op = _BRANCH_OPS[int(g.rng.integers(len(_BRANCH_OPS)))]
    body = helper.make_graph(
        [
            helper.make_node("Add", names[:2], [names[2]]),
            helper.make_node(op, [names[2]], [names[3]]),
        ],
        g.fresh("scan_body"),
        [_float(names[0], shape), _float(names[1], [1] * len(shape))],
        [_float(n, shape) for n in names[2:]],
    )
    final = Value(g.fresh("scan"), x.shape)
    stacked = Value(g.fresh("scan"), (steps, *x.shape))
    g.nodes.append(
        helper.make_node(
            "Scan",
            [x.name, g.constant(addend, "addend")],
            [final.name, stacked.name],
            name=final.name,
            num_scan_inputs=1,
            body=body,
            scan_input_directions=[int(g.rng.integers(2))],
        )
    )
    out = stacked if g.rng.integers(2) else final
    g.values.append(out)
    return out


def _loop(g: Graph) -> Value | None:
    """A fixed trip count (1 to 3) of a unary op on a carried value, the
    condition passed through: the stacked steps summed are the result (the
    final value is their last)."""
    x = g.pick()
    if x is None:
        return None
    shape = list(x.shape)
    names = [
        g.fresh(stem) for stem in ("i", "cond_in", "v_in", "cond_out", "v_out", "each")
    ]
    op = _BRANCH_OPS[int(g.rng.integers(len(_BRANCH_OPS)))]
    body = helper.make_graph(
        [
            helper.make_node("Identity", [names[1]], [names[3]]),
            helper.make_node(op, [names[2]], [names[4]]),
            helper.make_node("Identity", [names[4]], [names[5]]),
        ],
        g.fresh("loop_body"),
        [
            helper.make_tensor_value_info(names[0], TensorProto.INT64, []),
            helper.make_tensor_value_info(names[1], TensorProto.BOOL, []),
            _float(names[2], shape),
        ],
        [
            helper.make_tensor_value_info(names[3], TensorProto.BOOL, []),
            _float(names[4], shape),
            _float(names[5], shape),
        ],
    )
    trips = int(g.rng.integers(1, 4))
    final = Value(g.fresh("loop"), x.shape)
    stacked = Value(g.fresh("loop"), (trips, *x.shape))
    g.nodes.append(
        helper.make_node(
            "Loop",
            [
                g.constant(np.array(trips, np.int64), "trips"),
                g.constant(np.array(True), "cond"),
                x.name,
            ],
            [final.name, stacked.name],
            name=final.name,
            body=body,
        )
    )
    g.values.append(stacked)
    # onnx infers no rank for the final value and no length for the stacked
    # one: their sum over the steps is the result
    axes = g.constant(np.array([0], np.int64), "axes")
    return g.add("ReduceSum", [stacked.name, axes], x.shape, keepdims=0)


GENERATORS: dict[str, Generator] = {"If": _if, "Scan": _scan, "Loop": _loop}
