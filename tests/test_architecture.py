"""The code's shape as a specification: no import cycles between the Python package's modules,
and none between sibling modules of the Rust core (a module that needs its neighbour, which needs
it back, cannot be read, tested or changed alone)."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "fogsearch"
CORE = ROOT / "rust" / "fogsearch-core" / "src"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_imports() -> dict[str, set[str]]:
    """Each fogsearch module with the fogsearch modules it imports anywhere in its body (imports
    inside functions count: moving an import into a function hides a cycle, it does not end it)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                # `from pkg import sub` names a submodule when one exists.
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and target.startswith("fogsearch"):
                    graph[name].add(target)
    return graph


def rust_sibling_uses() -> dict[str, set[str]]:
    """Each core module file with the sibling files (same directory, facades excluded) it uses
    through ``super::`` or ``crate::`` paths."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in CORE.rglob("*.rs"):
        if path.name in ("mod.rs", "lib.rs"):
            continue
        siblings = {p.stem for p in path.parent.glob("*.rs")} - {"mod", path.stem}
        crate_path = ".".join(path.parent.relative_to(CORE).parts)
        text = path.read_text()
        code = text.split("#[cfg(test)]")[0]  # test modules may reach anywhere
        for sibling in siblings:
            via_super = re.search(rf"\bsuper::{sibling}\b", code)
            via_crate = crate_path and re.search(
                rf"\bcrate::{crate_path.replace('.', '::')}::{sibling}\b", code
            )
            if via_super or via_crate:
                graph[f"{crate_path}.{path.stem}"].add(f"{crate_path}.{sibling}")
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_python_package_has_no_import_cycles():
    graph = python_imports()
    assert graph["fogsearch.rbc"] >= {"fogsearch.search"}  # the graph sees real imports
    assert cycles(graph) == []


def test_the_core_has_no_cycles_between_sibling_modules():
    graph = rust_sibling_uses()
    assert "search.tree" in graph  # the graph sees real uses
    assert cycles(graph) == []
