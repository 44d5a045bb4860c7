"""The organized-play code's imports go one way: each module imports only modules of its own layer or
below, no modules import each other in a circle, and no private name (`_name`) is used outside its
package. tournaments/README.md draws the layers; LAYERS below is the same drawing, bottom first.

Read from the source text (every import, at any depth of the module, TYPE_CHECKING ones included),
so a lazy import inside a function cannot hide an upward step.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments"

# Bottom first. A module belongs to the first entry that is its name or a package above it.
LAYERS = (
    ("vocabulary and pure rules", ("tournaments.domain", "tournaments.timezones", "tournaments.json_input")),
    ("records", ("tournaments.models",)),
    ("who may act, the audit trail, the lock order, accounts",
     ("tournaments.trust", "tournaments.audit", "tournaments.locks", "tournaments.accounts")),
    ("lists and Swiss rounds", ("tournaments.lists", "tournaments.swiss")),
    ("standings", ("tournaments.standings",)),
    ("ratings and player records", ("tournaments.ratings", "tournaments.profiles")),
    ("league seasons", ("tournaments.leagues",)),
    ("events", ("tournaments.events",)),
    ("results", ("tournaments.results",)),
    ("what follows from results", ("tournaments.notifications", "tournaments.mailing", "tournaments.webhooks",
                                   "tournaments.eventday")),
    ("pages and the API", ("tournaments.web", "tournaments.api", "tournaments.templatetags")),
    ("the site's assembly", ("tournaments.admin", "tournaments.demo", "tournaments.management", "tournaments.apps",
                             "tournaments")),
)


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py") if "migrations" not in path.parts}


def layer_of(module: str) -> int:
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + ".") and prefix != "tournaments":
                return index
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS and to tournaments/README.md")


def package_of(module: str) -> str:
    """The feature package a module lives in (`tournaments.results`), or the module itself when it
    sits loose at the top of `tournaments`."""
    parts = module.split(".")
    return ".".join(parts[:2])


def resolve(name: str) -> str | None:
    """The tournaments module an imported name lives in (a module, or the module of a name)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str):
    """(imported module, the names taken from it, line) for every import of a tournaments module."""
    tree = ast.parse(MODULES[module].read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tournaments"):
                    yield resolve(alias.name), (), node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tournaments"):
            assert node.level == 0, f"{module}:{node.lineno}: a relative import; write the full name"
            for alias in node.names:
                target = resolve(f"{node.module}.{alias.name}")
                taken = () if target == f"{node.module}.{alias.name}" else (alias.name,)
                yield target, taken, node.lineno


def graph():
    edges = {}
    for module in MODULES:
        edges[module] = {target for target, _, _ in imports_of(module) if target and target != module}
    return edges


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


def test_no_module_imports_one_above_it():
    upward = []
    for module in sorted(MODULES):
        for target, _, line in imports_of(module):
            if target and target != module and layer_of(target) > layer_of(module) \
                    and not module.startswith(target + "."):
                upward.append(f"{module}:{line} imports {target} "
                              f"({LAYERS[layer_of(module)][0]} -> {LAYERS[layer_of(target)][0]})")
    assert not upward, "imports that go up:\n" + "\n".join(upward)


def test_no_import_circle():
    edges = graph()
    # a package's __init__ is reached by importing any module below it: not an edge of its own
    edges = {m: {t for t in targets if not m.startswith(t + ".")} for m, targets in edges.items()}
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
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
                circles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    assert not circles, f"modules that import each other in a circle: {circles}"


def test_no_private_name_used_outside_its_package():
    found = []
    for module in sorted(MODULES):
        tree = ast.parse(MODULES[module].read_text())
        aliases = {}  # local name -> tournaments module imported under it
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tournaments"):
                for alias in node.names:
                    target = resolve(f"{node.module}.{alias.name}")
                    if target == f"{node.module}.{alias.name}":
                        aliases[alias.asname or alias.name] = target
                    elif alias.name.startswith("_") and package_of(target) != package_of(module):
                        found.append(f"{module}:{node.lineno} imports {alias.name} from {target}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("tournaments") and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and node.attr.startswith("_") and not node.attr.startswith("__"):
                target = aliases[node.value.id]
                if package_of(target) != package_of(module):
                    found.append(f"{module}:{node.lineno} uses {node.value.id}.{node.attr} of {target}")
    assert not found, "private names used across packages:\n" + "\n".join(found)


@pytest.mark.parametrize("probe, expected", [
    ("tournaments.results.reporting", "results"),
    ("tournaments.models", "records"),
    ("tournaments.web.views", "pages and the API"),
])
def test_the_drawing_places_modules_where_the_readme_says(probe, expected):
    assert LAYERS[layer_of(probe)][0] == expected


def test_the_victory_conditions_are_named_in_one_place():
    """rules_engine/conditions.py names the victory conditions, their words and their OPP (R21); the
    engine, the domain, the models and the pages derive theirs from it. Names spelled again elsewhere
    in the code would drift apart unnoticed. Data is not a definition: the demo's and the generator's
    battles, the migrations, and attribute names in `__slots__` are passed over."""
    from rules_engine.conditions import LABELS, Condition

    spelled = {condition.value for condition in Condition} | set(LABELS.values())
    elsewhere = []
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "rules_engine").rglob("*.py")]:
        if "migrations" in path.parts or path.name in ("demo.py", "generator.py", "conditions.py"):
            continue
        tree = ast.parse(path.read_text())
        slots = {id(constant) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and any(getattr(target, "id", None) == "__slots__" for target in node.targets)
                 for constant in ast.walk(node.value)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in spelled and id(node) not in slots:
                elsewhere.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert not elsewhere, "victory conditions spelled outside rules_engine/conditions.py:\n" + "\n".join(elsewhere)
