"""No import loop in larp_app: every import (at the top, in a function or for type checking)
is an edge, a module importing its own package is not."""

import ast
from pathlib import Path

from larp_app import rules

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "larp_app"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for path in PACKAGE.rglob("*.py")
        if "migrations" not in path.relative_to(PACKAGE).parts
    }


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    is_package = path.name == "__init__.py"
    package = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            origin = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                child = f"{origin}.{alias.name}"
                found.add(child if child in known else origin)
    return {
        other
        for other in found
        if other in known and other != name and not name.startswith(other + ".")
    }


def import_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_larp_app_takes_part_in_an_import_loop():
    assert cycles(import_graph()) == []


def test_the_loop_finder_sees_a_loop_through_a_function_level_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_engine_names_no_rule_system():
    graph = import_graph()
    engine = [
        name for name in graph if name.startswith("larp_app.rules.") or name == "larp_app.rules"
    ]
    assert engine
    assert [
        f"{name} imports {other}"
        for name in engine
        for other in graph[name]
        if other.startswith("larp_app.rulesets")
    ] == []


def test_the_shared_templates_and_scripts_name_no_rule_system():
    root = Path(__file__).resolve().parents[2]
    names = set()
    for ruleset in rules.rulesets():
        names |= {ruleset.key, ruleset.key.replace("-", "_"), ruleset.package_dir.name}
    shared = [
        path
        for folder in (root / "templates", root / "static" / "js")
        for path in folder.rglob("*")
        if path.suffix in {".html", ".js", ".css", ".txt"}
    ]
    assert shared
    named = [
        f"{path.relative_to(root)} names {name}"
        for path in shared
        for name in sorted(names)
        if name.lower() in path.read_text(encoding="utf-8").lower()
    ]
    assert named == []


# Each room, and the rooms it must never reach into (ARCHITECTURE.md).
NEVER_IMPORTS = {
    "larp_app.keeping": ("larp_app.reads", "larp_app.archive", "larp_app.web", "larp_app.cli"),
    "larp_app.services": ("larp_app.archive", "larp_app.web", "larp_app.cli"),
    "larp_app.reads": ("larp_app.archive", "larp_app.web", "larp_app.cli"),
    "larp_app.archive": ("larp_app.web", "larp_app.cli"),
}


def room_crossings(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{name} imports {other}"
        for room, barred in NEVER_IMPORTS.items()
        for name in sorted(graph)
        if name == room or name.startswith(room + ".")
        for other in sorted(graph[name])
        if any(other == b or other.startswith(b + ".") for b in barred)
    ]


def test_each_room_imports_only_the_rooms_below_it():
    graph = import_graph()
    assert {room for room in NEVER_IMPORTS if any(n.startswith(room + ".") for n in graph)} == set(
        NEVER_IMPORTS
    )
    assert room_crossings(graph) == []


def test_the_push_server_is_a_door_only_the_commands_open():
    graph = import_graph()
    reaching = {
        name
        for name, imports in graph.items()
        if not name.startswith("larp_app.push")
        and any(o.startswith("larp_app.push") for o in imports)
    }
    assert reaching == {"larp_app.cli"}


def test_the_room_check_sees_a_crossing():
    graph = {"larp_app.keeping.records": {"larp_app.web.quick"}, "larp_app.web.quick": set()}
    assert room_crossings(graph) == ["larp_app.keeping.records imports larp_app.web.quick"]


# The one unit of work below the web views and commands that commits for itself: a print
# runs in its own thread, after the request that queued it ended.
COMMITS_ITS_OWN = {("larp_app.services.badge_prints", "_print_job")}


def commits_below_the_callers() -> list[str]:
    found = []
    for name, path in modules().items():
        if not any(name.startswith(room + ".") for room in NEVER_IMPORTS):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "commit"
                    and (name, function.name) not in COMMITS_ITS_OWN
                    and not any(  # a function nested in the print's own
                        (name, outer.name) in COMMITS_ITS_OWN
                        for outer in ast.walk(tree)
                        if isinstance(outer, ast.FunctionDef) and function in ast.walk(outer)
                    )
                ):
                    found.append(f"{name}.{function.name} line {node.lineno}")
    return found


def test_use_cases_reads_and_the_keeping_room_flush_and_their_caller_commits():
    assert commits_below_the_callers() == []
