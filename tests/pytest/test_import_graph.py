"""No import cycles between xhip's modules (docs/architecture.md, "Seams").

Every module of `xhip/` is parsed with `ast`; each `import` and `from ... import`
counts, at module level and inside functions alike, except those under
`if TYPE_CHECKING:` (they never run). `from x import y` where `x.y` is a module
imports `x.y`; otherwise it imports `x`. Importing `x.y` is not counted as
importing the package `x` (Python runs `x/__init__.py` first, but `x` does not
depend on `x.y` for that). Imports outside xhip are ignored.

A cycle is a strongly connected component of more than one module. The one
allowed kind is xDSL's idiom: a dialect and the canonicalization patterns its
ops name through their traits (`xhip.dialects.X` <->
`xhip.transforms.canonicalization_patterns.X`).

An import inside a function says why it waits, with a `# lazy: <reason>`
comment (`test_function_level_imports_say_why`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.pytest.conftest import REPO

PACKAGE = REPO / "xhip"


def module_names(root: Path = PACKAGE) -> dict[str, Path]:
    """`xhip.a.b` -> its file, for every module and package of `root`."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterable[str]:
    """Dotted names the code imports: `a.b` for `import a.b`, and both `a` and
    `a.c` for `from a import c` (`resolve` keeps whichever is a module)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                if not is_package:
                    package.pop()
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([node.module] if node.module else [])])
            yield from (f"{base}\0{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the xhip modules it imports."""
    modules = module_names(root)

    def resolve(name: str) -> str | None:
        """The innermost xhip module `name` is in (`a.b.f` -> `a.b`)."""
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        targets: set[str] = set()
        for name in _imported_names(tree, module, path.name == "__init__.py"):
            base, _, member = name.partition("\0")
            if member and f"{base}.{member}" in modules:
                target = f"{base}.{member}"
            else:
                target = resolve(base)
            if target is not None and target != module:
                targets.add(target)
        graph[module] = targets
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan's
    algorithm, iterative), each sorted; sorted by their first node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, list(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                succ = todo.pop()
                if succ not in graph:
                    continue
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, list(graph[succ])))
                elif succ in on_stack:
                    low[node] = min(low[node], index[succ])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def allowed(component: Iterable[str]) -> bool:
    """A dialect and its canonicalization patterns only."""
    return all(
        name.startswith("xhip.dialects.")
        or name.startswith("xhip.transforms.canonicalization_patterns.")
        for name in component
    )


def _path(graph: Mapping[str, Iterable[str]], component: list[str]) -> str:
    """One cycle through the component's first module, for the failure message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for succ in sorted(graph[node]):
            if succ == start:
                return " -> ".join([*paths[node], start])
            if succ in members and succ not in paths:
                paths[succ] = [*paths[node], succ]
                todo.append(succ)
    return ", ".join(component)


def test_no_import_cycles() -> None:
    graph = import_graph()
    bad = [c for c in cycles(graph) if not allowed(c)]
    assert not bad, "import cycles:\n" + "\n".join(_path(graph, c) for c in bad)


def test_graph_sees_the_known_seams() -> None:
    """The graph is read right: edges we know exist are found."""
    graph = import_graph()
    assert "xhip.pipeline" in graph["xhip.api"]
    assert "xhip.frontend.onnx_importer" in graph["xhip.cli.common"]  # lazy
    assert "xhip.transforms.composite" in graph["xhip.pipeline"]
    assert "xhip.cli.run" in graph["xhip.cli"]  # `from xhip.cli.run import ...`
    assert "xhip.api" in graph["xhip.cli.run"]  # `from xhip import api`
    assert "xhip.api" in graph["xhip"]  # in `__getattr__`
    assert not {"xhip.cli", "xhip.cli.common"} & graph["xhip.api"]


def test_cycles_of_a_synthetic_graph() -> None:
    graph = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"f", "outside"},
        "f": {"e"},
        "g": {"g"},
    }
    assert cycles(graph) == [["a", "b", "c"], ["e", "f"]]
    assert _path(graph, ["a", "b", "c"]) == "a -> b -> c -> a"
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_allowed_cycles() -> None:
    assert allowed(
        ["xhip.dialects.memref", "xhip.transforms.canonicalization_patterns.memref"]
    )
    assert not allowed(["xhip.dialects.hip", "xhip.transforms.hip_pool_allocs"])


def test_a_reintroduced_cycle_is_caught(tmp_path: Path) -> None:
    """The whole check on a tiny package: function-level and `from x import
    submodule` imports make a cycle; a TYPE_CHECKING import does not."""
    pkg = tmp_path / "xhip"
    (pkg / "cli").mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from xhip import api\n"
    )
    (pkg / "api.py").write_text("def f():\n    from xhip.cli import run\n")
    (pkg / "cli" / "__init__.py").write_text("")
    (pkg / "cli" / "run.py").write_text("from .. import api\n")
    graph = import_graph(pkg)
    assert graph == {
        "xhip": set(),
        "xhip.api": {"xhip.cli.run"},
        "xhip.cli": set(),
        "xhip.cli.run": {"xhip.api"},
    }
    assert cycles(graph) == [["xhip.api", "xhip.cli.run"]]


LAZY = re.compile(r"#\s*lazy:\s*\S")
"""The mark of a function-level import: `# lazy: <the reason>`."""


def unmarked_lazy_imports(root: Path = PACKAGE) -> list[str]:
    """`path:line` of every import inside a function without a `# lazy:` reason
    on its lines or on the line above; a run of imports under one mark shares
    it (docs/architecture.md, "Seams")."""
    bad: list[str] = []
    functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text().splitlines()
        tree = ast.parse("\n".join(lines), str(path))
        spans = sorted(
            {
                (node.lineno, node.end_lineno or node.lineno)
                for function in ast.walk(tree)
                if isinstance(function, functions)
                for node in ast.walk(function)
                if isinstance(node, ast.Import | ast.ImportFrom)
            }
        )
        marked_up_to = 0  # the last line of the latest marked import
        for first, last in spans:
            own = any(LAZY.search(line) for line in lines[first - 1 : last])
            above = lines[first - 2].strip() if first > 1 else ""
            if own or LAZY.match(above) or marked_up_to == first - 1:
                marked_up_to = last
            else:
                bad.append(f"{path.relative_to(root.parent)}:{first}")
    return bad


def test_function_level_imports_say_why() -> None:
    """An import inside a function only where laziness is the point (GPU and
    optional libraries, what `import xhip` and `xhip --help` leave out, the
    dialect <-> canonicalization-patterns cycle), and it says so."""
    bad = unmarked_lazy_imports()
    assert not bad, (
        "function-level imports without a `# lazy: <reason>` comment (move them "
        "to module level, or say why they must wait):\n" + "\n".join(bad)
    )


def test_an_unmarked_function_level_import_is_caught(tmp_path: Path) -> None:
    pkg = tmp_path / "xhip"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "import os\n"
        "def marked():\n"
        "    # lazy: a reason\n"
        "    import cupy\n"
        "    from cupy import cuda\n"
        "\n"
        "    import json  # lazy: on its line\n"
        "def unmarked():\n"
        "    x = 1\n"
        "    import json\n"
        "def bare_mark():\n"
        "    # lazy:\n"
        "    import json\n"
        "class C:\n"
        "    def method(self):\n"
        "        # lazy: a reason\n"
        "        x = 1\n"
        "        from xhip import (\n"
        "            api,\n"
        "        )\n"
    )
    assert unmarked_lazy_imports(pkg) == [
        "xhip/__init__.py:10",
        "xhip/__init__.py:13",
        "xhip/__init__.py:18",
    ]


_TOOLS = (
    "xhip.pipeline",
    "xhip.api",
    "xhip.cli",
    "xhip.explore",
    "xhip.verify",
    "xhip.onnx_backend",
)
"""The layers above the library: what no library module may import."""

LAYERS: dict[str, tuple[str, ...]] = {
    "xhip.dialects": ("xhip.analysis", "xhip.backend", "xhip.frontend", *_TOOLS),
    "xhip.transforms": ("xhip.backend", "xhip.frontend", *_TOOLS),
    "xhip.analysis": ("xhip.backend", "xhip.frontend", *_TOOLS),
    "xhip.frontend": ("xhip.backend", *_TOOLS),
    "xhip.backend": ("xhip.frontend", *_TOOLS),
    "xhip.pipeline": ("xhip.api", "xhip.cli", "xhip.explore", "xhip.verify"),
    "xhip.api": ("xhip.cli", "xhip.explore", "xhip.verify", "xhip.onnx_backend"),
    "xhip.explore": ("xhip.cli", "xhip.verify", "xhip.onnx_backend"),
}
"""What each layer must never import (docs/architecture.md, "Seams"): the
order `cli -> api -> pipeline, backend, frontend -> transforms, analysis ->
dialects`, with `explore` beside the api for notebooks. Nothing outside
`xhip.testing` imports `xhip.testing`; the one exception to the dialects'
rule is xDSL's idiom of a dialect naming its canonicalization patterns."""


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def layering_violations(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """`a -> b` for every import that goes against `LAYERS` or into `xhip.testing`."""
    bad: list[str] = []
    for module, targets in sorted(graph.items()):
        forbidden = next(
            (rule for layer, rule in LAYERS.items() if _under(module, layer)), ()
        )
        for target in sorted(targets):
            if _under(target, "xhip.testing") and not _under(module, "xhip.testing"):
                bad.append(f"{module} -> {target}")
            elif any(_under(target, f) for f in forbidden):
                bad.append(f"{module} -> {target}")
    return bad


def test_layering_holds() -> None:
    bad = layering_violations(import_graph())
    assert not bad, "imports against the layering:\n" + "\n".join(bad)


def test_layering_catches_a_backend_importing_the_api() -> None:
    graph = {
        "xhip.backend.cpu": {"xhip.api", "xhip.dialects.hip"},
        "xhip.explore.stages": {"xhip.testing"},
        "xhip.testing.fuzz": {"xhip.api"},
    }
    assert layering_violations(graph) == [
        "xhip.backend.cpu -> xhip.api",
        "xhip.explore.stages -> xhip.testing",
    ]
