"""Where a graph's wiring is wrong: a value nothing defines, one defined twice,
nodes that feed each other.

onnx's checker says all three as "Nodes in a graph must be topologically
sorted, however input 'b' of node:" and the node on the next lines, which the
importer's one-line errors would cut off. This names the node, the value and,
for a cycle, the nodes around it.
"""

from __future__ import annotations

from onnx import GraphProto, NodeProto


def label(node: NodeProto) -> str:
    name = node.name or (node.output[0] if node.output else "")
    return f"node '{name}' ({node.op_type})"


def graph_problem(graph: GraphProto) -> str | None:
    """The first wiring mistake of `graph`, as the importer says it, or None."""
    producer: dict[str, NodeProto] = {}
    for node in graph.node:
        for name in node.output:
            if not name:
                continue
            if name in producer:
                return (
                    f"value '{name}' is computed by both {label(producer[name])} "
                    f"and {label(node)}"
                )
            producer[name] = node
    defined = {v.name for v in graph.input} | {t.name for t in graph.initializer}
    for node in graph.node:
        for name in node.input:
            if not name or name in defined:
                continue
            if name not in producer:
                return (
                    f"{label(node)}: input '{name}' is not defined by any graph "
                    "input, initializer or node"
                )
            cycle = _cycle_through(node, producer, defined)
            if cycle:
                loop = " -> ".join(label(n) for n in [*cycle, cycle[0]])
                return f"the graph has a cycle: {loop}"
            return (
                f"{label(node)}: input '{name}' is computed by a later node, "
                f"{label(producer[name])}; ONNX graphs must be in topological order"
            )
        defined.update(n for n in node.output if n)
    return None


def _cycle_through(
    start: NodeProto, producer: dict[str, NodeProto], defined: set[str]
) -> list[NodeProto]:
    """The nodes of a cycle through `start`, in data-flow order from `start`,
    or [] when there is none (a graph that is only out of order)."""

    def sources(node: NodeProto) -> list[NodeProto]:
        return [
            producer[n] for n in node.input if n and n not in defined and n in producer
        ]

    # Depth-first from `start` towards the producers, iteratively: a real
    # export has thousands of nodes.
    stack: list[tuple[NodeProto, list[NodeProto]]] = [(start, sources(start))]
    seen: set[int] = {id(start)}
    while stack:
        todo = stack[-1][1]
        if not todo:
            stack.pop()
            continue
        source = todo.pop()
        if source is start:
            # stack holds start <- ... <- node (each depends on the next);
            # data flows the other way.
            chain = [n for n, _ in stack]
            return [start, *reversed(chain[1:])]
        if id(source) not in seen:
            seen.add(id(source))
            stack.append((source, sources(source)))
    return []
