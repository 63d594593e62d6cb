"""Types of If, Scan and Loop results that `onnx.shape_inference` leaves open.

onnx infers a subgraph without the values of the enclosing graph's constants
(a body's `Unsqueeze` by an outer axes constant is rank-less) and joins an
If's branches only where their ranks agree. Here each subgraph is taken out
as a model of its own (`body_infos`): its inputs typed as the node gives them
(a Scan's scan inputs without their scan axis), the outer values it reads as
constants where they are and typed inputs where not, then typed by
`lenient_infos` (inference and our rules). A node's results follow from what
its subgraphs yield (`result_infos`): an If's branches joined, or, where
their ranks differ, the branch its condition takes when that condition is
known before the run (computed from constants and static shapes by onnx's
reference evaluator, `Scope.value`); a Scan's scan outputs are the step's
values with the scan length inserted, a Loop's with a dynamic trip count.
The importer states these results to inference (as it does a contrib op's)
and types the subgraphs' values from `body_infos`; the conversion then
decides the If again from the IR (`unroll_control_flow`) and sizes any
dynamic dim at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import cast

import numpy as np
import onnx
from onnx import AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto, helper
from xdsl.dialects.builtin import DYNAMIC_INDEX

from xhip.frontend.shape_rules import attr_int, attr_ints
from xhip.frontend.value_info import (
    ValueInfo,
    describe,
    disagree,
    is_named,
    lenient_infos,
    value_info,
)

ONNX_DOMAINS = ("", "ai.onnx")
CONTROL_FLOW = ("If", "Scan", "Loop")
MAX_CONE = 64
"""The deepest chain of nodes, and the most elements of a value, that
`Scope.value` computes before the run."""
MAX_ROUNDS = 4
"""Rounds of stating nested control flow's results inside a body."""

Load = Callable[[TensorProto], TensorProto]


def subgraphs(node: NodeProto) -> list[GraphProto]:
    return [a.g for a in node.attribute if a.type == AttributeProto.GRAPH]


def inner_outputs(node: NodeProto) -> list[str]:
    """The values computed inside `node`'s subgraphs, nested ones too."""
    return [
        name
        for graph in subgraphs(node)
        for inner in graph.node
        for name in [*inner.output, *inner_outputs(inner)]
        if name
    ]


def _open(info: ValueInfo | None) -> bool:
    return info is None or info.shape is None


def _proto(name: str, info: ValueInfo) -> onnx.ValueInfoProto:
    assert info.shape is not None
    dims: list[str | int | None] = [
        p if is_named(p) else None if d == DYNAMIC_INDEX else d
        for d, p in zip(
            info.shape, info.params or [None] * len(info.shape), strict=True
        )
    ]
    return helper.make_tensor_value_info(name, info.elem, dims)


def _defined(graph: GraphProto) -> set[str]:
    return {
        *(v.name for v in graph.input),
        *(t.name for t in graph.initializer),
        *(o for n in graph.node for o in n.output),
    }


def _outer(graph: GraphProto) -> list[str]:
    """The enclosing graphs' values `graph` (or a subgraph of it) reads."""
    defined = _defined(graph)
    names: list[str] = []
    for node in graph.node:
        inner = [n for g in subgraphs(node) for n in _outer(g)]
        for name in [*node.input, *inner]:
            if name and name not in defined and name not in names:
                names.append(name)
    names += [o.name for o in graph.output if o.name not in defined]
    return names


class Scope:
    """A graph as its subgraphs see it: its values' types and constants, and
    the graph around it (`parent`) for the values it reads from there."""

    def __init__(
        self,
        model: ModelProto,
        graph: GraphProto,
        infos: Mapping[str, ValueInfo],
        load: Load,
        parent: Scope | None = None,
    ):
        self.model = model
        self.graph = graph
        self.infos = infos
        self.load = load
        self.parent = parent
        self.initializers = {t.name: t for t in graph.initializer}
        self.producers = {o: n for n in graph.node for o in n.output if o}
        self.inputs = {v.name for v in graph.input}
        self.values: dict[str, np.ndarray | None] = {}

    def body_infos(
        self, body: GraphProto, formal: Sequence[ValueInfo | None]
    ) -> dict[str, ValueInfo]:
        """The types of `body`'s values, its inputs taken as `formal` (the
        declared type where that is None)."""
        m = ModelProto()
        m.ir_version = self.model.ir_version
        m.opset_import.extend(self.model.opset_import)
        m.functions.extend(self.model.functions)
        g = m.graph
        g.name = body.name or "body"
        for value, info in zip(body.input, formal, strict=False):
            if info is None or info.shape is None:
                g.input.append(value)
            else:
                g.input.append(_proto(value.name, info))
        for name in _outer(body):
            known = self.value(name)
            info = self.infos.get(name)
            if known is not None:
                g.initializer.append(onnx.numpy_helper.from_array(known, name))
            elif info is not None and info.shape is not None:
                g.input.append(_proto(name, info))
            else:
                return {}  # an outer value of unknown rank: nothing to go on
        g.node.extend(body.node)
        g.initializer.extend(body.initializer)
        for out in body.output:
            g.output.append(helper.make_empty_tensor_value_info(out.name))
        infos = lenient_infos(m)
        for _ in range(MAX_ROUNDS):  # nested control flow, stated as at the top
            hints = control_flow_hints(m, infos, self.load)
            if not hints:
                break
            g.value_info.extend(hints)
            infos = lenient_infos(m)
        return infos

    def walk(self) -> Iterator[tuple[str, ValueInfo]]:
        """Every value inside the subgraphs of this graph's nodes, typed."""
        for node in self.graph.node:
            for body, formal in self.formals(node):
                infos = self.body_infos(body, formal)
                yield from infos.items()
                yield from Scope(self.model, body, infos, self.load, self).walk()

    def formals(
        self, node: NodeProto
    ) -> list[tuple[GraphProto, list[ValueInfo | None]]]:
        """Each subgraph of `node` with the types of its inputs."""
        if node.domain not in ONNX_DOMAINS or node.op_type not in CONTROL_FLOW:
            return []
        ins = [self.infos.get(n) if n else None for n in node.input]
        bodies = subgraphs(node)
        if node.op_type == "If":
            return [(b, []) for b in bodies]
        if node.op_type == "Loop":
            counters = [
                ValueInfo(TensorProto.INT64, []),
                ValueInfo(TensorProto.BOOL, []),
            ]
            return [(b, [*counters, *ins[2:]]) for b in bodies]
        scans = attr_int(node, "num_scan_inputs", 0)
        states = len(ins) - scans
        axes = attr_ints(node, "scan_input_axes") or [0] * scans
        sliced = [
            _without(info, axis) for info, axis in zip(ins[states:], axes, strict=False)
        ]
        return [(b, [*ins[:states], *sliced]) for b in bodies]

    def result_infos(self, node: NodeProto) -> list[ValueInfo | None]:
        """`node`'s results as its subgraphs type them (none for other ops)."""
        found = self.formals(node)
        if not found:
            return []
        if node.op_type == "If":
            taken = self.decided(node)
            if taken is not None:
                branch = self.branch(node, taken)
                infos = self.body_infos(branch, [])
                return [infos.get(o.name) for o in branch.output]
        yields = [
            [infos.get(o.name) for o in body.output]
            for body, formal in found
            for infos in [self.body_infos(body, formal)]
        ]
        if node.op_type == "If" and len(yields) == 2:
            return [_join(a, b) for a, b in zip(*yields, strict=False)]
        if node.op_type == "Scan":
            return self._scan(node, yields[0])
        if node.op_type == "Loop":
            return self._loop(node, yields[0])
        return []

    def decided(self, node: NodeProto) -> bool | None:
        """The branch an If takes, where its condition is known before the run."""
        value = self.value(node.input[0])
        return None if value is None or value.size != 1 else bool(value.reshape(-1)[0])

    def taken_branches(self, typed: Callable[[str], bool]) -> dict[str, str]:
        """The branch (`then_branch`, `else_branch`) each If of this graph
        takes, by the If's first output, where its condition is known and some
        value inside it is not `typed` (the importer then reads the If as
        that branch's ops)."""
        taken: dict[str, str] = {}
        for node in self.graph.node:
            if node.op_type != "If" or node.domain not in ONNX_DOMAINS:
                continue
            if all(typed(o) for o in inner_outputs(node)):
                continue
            decided = self.decided(node)
            if decided is not None:
                taken[node.output[0]] = "then_branch" if decided else "else_branch"
        return taken

    @staticmethod
    def branch(node: NodeProto, taken: bool) -> GraphProto:
        name = "then_branch" if taken else "else_branch"
        return next(a.g for a in node.attribute if a.name == name)

    def _scan(
        self, node: NodeProto, yields: list[ValueInfo | None]
    ) -> list[ValueInfo | None]:
        scans = attr_int(node, "num_scan_inputs", 0)
        states = len(node.input) - scans
        first = self.infos.get(node.input[states]) if scans else None
        in_axis = (attr_ints(node, "scan_input_axes") or [0])[0]
        length = DYNAMIC_INDEX
        if (
            first is not None
            and first.shape
            and -len(first.shape) <= in_axis < len(first.shape)
        ):
            length = first.shape[in_axis]
        outputs = len(node.output) - states
        axes = attr_ints(node, "scan_output_axes") or [0] * outputs
        results = list(yields[:states])
        for step, axis in zip(yields[states:], axes, strict=False):
            results.append(_stacked(step, axis, length))
        return results

    def _loop(
        self, node: NodeProto, yields: list[ValueInfo | None]
    ) -> list[ValueInfo | None]:
        carried = len(node.input) - 2
        results = list(yields[1 : 1 + carried])
        for step in yields[1 + carried :]:
            results.append(_stacked(step, 0, DYNAMIC_INDEX))
        return results

    def value(self, name: str, depth: int = 0) -> np.ndarray | None:
        """`name`'s value where constants and static shapes decide it (an
        If's through the branch its condition takes), each node run by onnx's
        reference evaluator; None for data."""
        if name not in self.values:
            self.values[name] = None  # a cycle, or too deep: unknown
            if depth <= MAX_CONE:
                self.values[name] = self._value(name, depth + 1)
        return self.values[name]

    def _value(self, name: str, depth: int) -> np.ndarray | None:
        tensor = self.initializers.get(name)
        node = self.producers.get(name)
        if tensor is not None:
            if int(np.prod(tensor.dims)) > MAX_CONE:
                return None
            return onnx.numpy_helper.to_array(self.load(tensor))
        if node is None:
            if name in self.inputs or self.parent is None:
                return None  # data
            return self.parent.value(name, depth)
        if (shaped := self._shape_of(node)) is not None:
            return shaped
        if node.domain not in ONNX_DOMAINS or "Random" in node.op_type:
            return None
        if node.op_type == "If":
            taken = self.decided(node)
            if taken is None:
                return None
            branch = self.branch(node, taken)
            inner = Scope(self.model, branch, {}, self.load, self)
            out = branch.output[list(node.output).index(name)].name
            return inner.value(out, depth)
        if subgraphs(node):
            return None
        args = {i: self.value(i, depth) for i in node.input if i}
        if any(v is None or v.size > MAX_CONE for v in args.values()):
            return None
        return _run(self.model, node, cast(dict[str, np.ndarray], args)).get(name)

    def _shape_of(self, node: NodeProto) -> np.ndarray | None:
        """A `Shape` or `Size` of a value with static dims, or a `Gather` of
        static dims from a `Shape` (`x.shape[1]` with `x.shape[0]` dynamic),
        computed."""
        if node.domain not in ONNX_DOMAINS:
            return None
        if node.op_type == "Gather" and attr_int(node, "axis", 0) == 0:
            shape = self.producers.get(node.input[0])
            dims = None if shape is None else self._dims(shape)
            at = self.value(node.input[1])
            if (
                dims is None
                or at is None
                or not -len(dims) <= at.min() <= at.max() < len(dims)
            ):
                return None
            picked = dims[at]
            return None if (picked == DYNAMIC_INDEX).any() else picked
        dims = self._dims(node)
        if dims is None or DYNAMIC_INDEX in dims:
            return None
        return np.array(np.prod(dims), np.int64) if node.op_type == "Size" else dims

    def _dims(self, node: NodeProto) -> np.ndarray | None:
        """The dims a `Shape` gives (dynamic ones `DYNAMIC_INDEX`), or those
        of a `Size`'s input."""
        if node.op_type not in ("Shape", "Size") or node.domain not in ONNX_DOMAINS:
            return None
        info = self.infos.get(node.input[0])
        if info is None or info.shape is None:
            return None
        dims = np.array(info.shape, np.int64)
        if node.op_type == "Size":
            return dims
        start = attr_int(node, "start", 0)
        return dims[slice(start, attr_int(node, "end", len(dims)))]


def _run(
    model: ModelProto, node: NodeProto, args: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """`node` on `args`, by onnx's reference evaluator; nothing where it fails."""
    from onnx.reference import ReferenceEvaluator  # lazy: only for open types

    inputs = [
        helper.make_tensor_value_info(
            n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape)
        )
        for n, a in args.items()
    ]
    outputs = [helper.make_empty_tensor_value_info(o) for o in node.output if o]
    graph = helper.make_graph([node], "node", inputs, outputs)
    single = helper.make_model(graph, opset_imports=list(model.opset_import))
    single.ir_version = model.ir_version
    try:
        run = cast(Callable[..., list[object]], ReferenceEvaluator(single).run)
        values = run(None, dict(args))
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        RuntimeError,
        NotImplementedError,
        ArithmeticError,
    ):
        return {}  # the reference cannot run it: the value stays unknown
    names = [o for o in node.output if o]
    found: dict[str, np.ndarray] = {}
    for name, v in zip(names, values, strict=False):
        # Numbers only: a sequence, an optional or a string is no size.
        if isinstance(v, np.ndarray):
            array = cast(np.ndarray, v)
            if array.dtype.kind in "biuf":
                found[name] = array
    return found


def _without(info: ValueInfo | None, axis: int) -> ValueInfo | None:
    """A scan input's type without its scan axis: one step's slice."""
    if info is None or info.shape is None:
        return None
    rank = len(info.shape)
    if not -rank <= axis < rank:
        return None
    axis %= rank
    params = info.params or [None] * rank
    return ValueInfo(
        info.elem,
        info.shape[:axis] + info.shape[axis + 1 :],
        params[:axis] + params[axis + 1 :],
    )


def _join(a: ValueInfo | None, b: ValueInfo | None) -> ValueInfo | None:
    """Both branches' type: equal dims kept, others dynamic; None where a
    rank is unknown or the ranks differ."""
    if a is None or b is None or a.shape is None or b.shape is None:
        return None
    if len(a.shape) != len(b.shape):
        return None
    shape = [
        x if x == y else DYNAMIC_INDEX for x, y in zip(a.shape, b.shape, strict=True)
    ]
    pa = a.params or [None] * len(a.shape)
    pb = b.params or [None] * len(b.shape)
    params = [p if p == q else None for p, q in zip(pa, pb, strict=True)]
    return ValueInfo(a.elem or b.elem, shape, params)


def _stacked(step: ValueInfo | None, axis: int, length: int) -> ValueInfo | None:
    """A step's value stacked `length` times along a new `axis`."""
    if step is None or step.shape is None:
        return None
    rank = len(step.shape) + 1
    if not -rank <= axis < rank:
        return None
    axis %= rank
    params = step.params or [None] * len(step.shape)
    return ValueInfo(
        step.elem,
        [*step.shape[:axis], length, *step.shape[axis:]],
        [*params[:axis], None, *params[axis:]],
    )


def control_flow_hints(
    model: ModelProto, infos: Mapping[str, ValueInfo], load: Load
) -> list[onnx.ValueInfoProto]:
    """The If, Scan and Loop results that their subgraphs type better than
    onnx did (rank-less, or a dim onnx leaves dynamic), to state to
    inference; only names not stated yet."""
    graph = model.graph
    stated = {v.name for v in graph.value_info} | {
        v.name for v in graph.output if not _open(value_info(v.type))
    }
    scope = Scope(model, graph, infos, load)
    hints: list[onnx.ValueInfoProto] = []
    for node in graph.node:
        if node.op_type not in CONTROL_FLOW or node.domain not in ONNX_DOMAINS:
            continue
        for name, info in zip(node.output, scope.result_infos(node)):
            if name and name not in stated and _better(info, infos.get(name)):
                assert info is not None
                hints.append(_proto(name, info))
    return hints


def _better(ours: ValueInfo | None, theirs: ValueInfo | None) -> bool:
    """Whether `ours` says more than `theirs`: a rank, or a static dim."""
    if ours is None or ours.shape is None:
        return False
    if theirs is None or theirs.shape is None:
        return True
    return len(ours.shape) == len(theirs.shape) and any(
        a != DYNAMIC_INDEX and b == DYNAMIC_INDEX
        for a, b in zip(ours.shape, theirs.shape, strict=True)
    )


def contradiction(
    model: ModelProto, infos: Mapping[str, ValueInfo], load: Load
) -> str | None:
    """The first If, Scan or Loop result whose declared type (value_info,
    outputs) contradicts what its subgraphs give, said with both types."""
    graph = model.graph
    declared = {
        v.name: info
        for v in [*graph.value_info, *graph.output]
        if not _open(info := value_info(v.type))
    }
    scope = Scope(model, graph, infos, load)
    for node in graph.node:
        if not any(o in declared for o in node.output):
            continue
        for name, ours in zip(node.output, scope.result_infos(node), strict=False):
            want = declared.get(name)
            if want is not None and ours is not None and disagree(want, ours):
                return (
                    f"'{name}': the model declares {describe(want)} but shape "
                    f"inference gives {describe(ours)}"
                )
    return None
