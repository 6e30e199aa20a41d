"""The shape of the code: imports point one way, so every module can be read (and changed)
after the ones it builds on. An AST walk over the project's own packages, no import executed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "core", "accounts", "games", "ladder", "social")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports, wherever in the file the import stands."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            # ``from package import module`` imports the module; ``from module import name``
            # the module itself.
            targets = [
                f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin
                for alias in node.names
            ]
        else:
            continue
        found.update(target for target in targets if target in known and target != name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def _graph() -> dict[str, set[str]]:
    modules = _project_modules()
    known = set(modules)
    graph = {name: _imports(name, path, known) for name, path in modules.items()}
    # Importing ``games.services.moves`` first runs ``games/__init__`` and
    # ``games/services/__init__``; those edges are real but point only down, so the walk
    # leaves package parents out rather than report every package as its own cycle.
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(f"{t}.")}
    return graph


def test_the_walk_sees_a_cycle_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_walk_finds_the_project_imports():
    graph = _graph()
    assert "games.services.matches" in graph["games.services.moves"]
    assert "games.services.lobby" in graph["games.services.tables"]


def test_no_import_circle_anywhere_in_the_project():
    assert _cycles(_graph()) == []


@pytest.mark.parametrize(
    "path", sorted((ROOT / "games" / "services").glob("*.py")), ids=lambda path: path.name
)
def test_services_import_at_the_top_and_stay_short(path):
    """A function-local import in a service hides a dependency (and usually a circle)."""
    tree = ast.parse(path.read_text())
    local = [
        node.lineno
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert local == [], f"function-local imports at lines {local}"
    assert len(path.read_text().splitlines()) <= 360


def test_games_never_imports_the_apps_built_on_it():
    """The ladder (and whatever else reacts to a finished match) is named in a setting."""
    graph = _graph()
    upward = {
        (name, target)
        for name, targets in graph.items()
        if name.startswith(("games.", "core.", "accounts."))
        for target in targets
        if target.startswith("ladder")
    }
    assert upward == set()
