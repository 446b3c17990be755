"""No import cycles among the project's modules, counting imports inside functions and under TYPE_CHECKING:
a cycle hidden behind a late import is still two modules that need each other."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "rendering", "bot")


def module_files() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file (``from pkg import mod`` counts as mod)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    found = set()
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

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
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return components


def test_the_cycle_finder_finds_a_late_import_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_in_the_project() -> None:
    modules = module_files()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert "bot.discord_app.client" in graph["bot.discord_app.main"]  # the graph sees late imports
    assert cycles(graph) == []


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_the_discord_adapter_never_imports_the_fake_discord() -> None:
    """The fake Discord drives the adapter in tests and ``bench load``; the bot that runs never reaches it (nor
    ``unittest.mock``, which only the fake uses)."""
    modules = module_files()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    fake = {name for name in modules if name.startswith("bot.fake_discord")}
    assert "bot.fake_discord.offline_bot" in fake
    assert reachable(graph, "bot.fake_discord.offline_bot") & {"bot.discord_app.client"}  # the finder sees it
    for name in modules:
        if name.startswith("bot.discord_app"):
            assert not reachable(graph, name) & fake, name


def test_only_the_fake_discord_imports_unittest() -> None:
    """The shipped code patches nothing: ``unittest.mock`` is the fake Discord's tool, not the bot's."""
    users = set()
    for name, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            imported = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                        else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(module.split(".")[0] == "unittest" for module in imported):
                users.add(name)
    assert users == {"bot.fake_discord.offline_bot"}


def test_the_services_never_import_the_store() -> None:
    """The store is built on the services' models (tables, tournaments) and serves them through Protocols: a
    service module importing the store would make the two folders need each other."""
    modules = module_files()
    services = [name for name in modules if name.startswith(("bot.tables", "bot.tournaments"))]
    assert {name: sorted(target for target in imports_of(name, modules[name], modules)
                         if target.startswith("bot.store")) for name in services} == {name: [] for name in services}
