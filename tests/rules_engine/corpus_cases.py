"""The replay corpus: each case is a replay file and the verdict it must get.

Three shapes: `NAME.json` + `NAME.verdict.json` (the shared examples: the whole verdict must
match), `NAME.json` whose `meta.expect` lists the verdict keys that must match (nested objects
match by their listed keys), and a raw `NAME.json` that is not a readable replay with
`NAME.expect.json` beside it. Every case names in `checks` the rule or ruling it checks.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    checks: str
    expect: dict
    exact: bool


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CORPUS.glob("*.json")):
        if path.name.endswith((".verdict.json", ".expect.json")):
            continue
        name = path.name[:-len(".json")]
        verdict = path.with_name(f"{name}.verdict.json")
        sidecar = path.with_name(f"{name}.expect.json")
        if verdict.exists():
            meta = json.loads(path.read_text()).get("meta", {})
            cases.append(Case(name, path, meta.get("checks") or meta.get("example", name),
                              json.loads(verdict.read_text()), True))
        elif sidecar.exists():
            spec = json.loads(sidecar.read_text())
            cases.append(Case(name, path, spec["checks"], spec["expect"], False))
        else:
            meta = json.loads(path.read_text())["meta"]
            cases.append(Case(name, path, meta["checks"], meta["expect"], False))
    return cases


def mismatches(expected, actual, where="verdict") -> list[str]:
    """Keys of `expected` whose values differ in `actual` (objects compared by expected keys)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{where}.{key} is missing")
            else:
                problems.extend(mismatches(value, actual[key], f"{where}.{key}"))
        return problems
    return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]
