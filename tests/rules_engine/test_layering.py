"""The engine's modules import in one direction (no circle) and reach into no other module's private
names: constants and the board at the bottom, the state with its public primitives, the Core
ruleset, the variants composing it, then the searches behind the checks, the checks, the verdict and
the command line."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "rules_engine"
# The searches behind the victory checks, below `victory` (which keeps the checks and their entry points).
SEARCHES = ("rules_engine.budget", "rules_engine.aggressive", "rules_engine.two_orders", "rules_engine.blunt",
            "rules_engine.paralyze")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _runtime_imports(tree: ast.Module):
    """Import statements that run (those under `if TYPE_CHECKING:` only name types)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if _is_type_checking_block(node):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        pending.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_imports(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif node.level == 0:
                targets = [node.module or ""]
            else:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
                # `from . import actions` imports the submodule; `from . import ENGINE_VERSION` the package.
                targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                           for alias in node.names]
            graph[name].update(target for target in targets if target in modules and target != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_no_import_circle_among_the_engine_modules():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_bottom_layers_import_nothing_above_them():
    graph = import_graph()
    for bottom in ("rules_engine.constants", "rules_engine.board", "rules_engine.errors", "rules_engine.model",
                   "rules_engine.conditions"):
        assert graph[bottom] <= {"rules_engine.board", "rules_engine.errors", "rules_engine.conditions"}, bottom
    assert graph["rules_engine.conditions"] == set()  # the one table of conditions: any layer may read it
    assert not {"rules_engine.ruleset", "rules_engine.variants", "rules_engine.victory", *SEARCHES} & \
        graph["rules_engine.state"]
    assert "rules_engine.variants" not in graph["rules_engine.ruleset"]


def test_the_victory_searches_sit_below_the_checks_and_apart_from_each_other():
    graph = import_graph()
    assert set(SEARCHES) <= set(graph)
    for search in SEARCHES:
        assert not {"rules_engine.victory", "rules_engine.verdict", "rules_engine.variants"} & graph[search], search
    assert graph["rules_engine.budget"] == set()  # R99's counting only: every search may use it
    # Paralyze (R12) and Blunt (R13) search apart: neither imports the other's pieces.
    assert not {"rules_engine.aggressive", "rules_engine.two_orders", "rules_engine.blunt"} & \
        graph["rules_engine.paralyze"]
    assert "rules_engine.paralyze" not in graph["rules_engine.blunt"] | graph["rules_engine.two_orders"]
    # One order's search, then the second order's on top of it, then the Blunt entry points.
    assert not {"rules_engine.two_orders", "rules_engine.blunt"} & graph["rules_engine.aggressive"]
    assert "rules_engine.blunt" not in graph["rules_engine.two_orders"]
    assert {"rules_engine.blunt", "rules_engine.paralyze"} <= graph["rules_engine.victory"]


def test_no_module_reaches_into_another_modules_private_names():
    reach_ins = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                reach_ins += [f"{path.name}: imports {alias.name}" for alias in node.names
                              if alias.name.startswith("_")]
            elif (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                  and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                reach_ins.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert reach_ins == []
