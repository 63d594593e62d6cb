"""The If generator (`onnx_to_hip/control_flow.py`)."""

from __future__ import annotations

import numpy as np
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


GENERATORS: dict[str, Generator] = {"If": _if}
