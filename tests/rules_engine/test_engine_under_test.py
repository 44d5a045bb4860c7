"""Proof of which rules engine this run tested (OPP_ENGINE, chosen by tests/engine_under_test.py).

A pure run must import every engine module from the checkout's `.py` files; a compiled run must
import the mypyc extension modules built from exactly the checkout's sources, and the command line
it starts must run them too. So a stale compiled module can never pass for the sources a developer
just edited, and a pure run can never be a compiled one in disguise.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import rules_engine
from rules_engine import aggressive, blunt, budget, paralyze, two_orders, verdict, victory  # noqa: F401  (loaded, so that they are checked below)
from tests import engine_under_test

ROOT = Path(__file__).resolve().parents[2]
# The modules on the adjudication path that the compiled wheel compiles (packaging/warline-rules/setup.py).
HOT = ["rules_engine.actions", "rules_engine.board", "rules_engine.replay", "rules_engine.state",
       "rules_engine.verdict", "rules_engine.victory",
       # the searches of the turn-end checks (R12, R13, R99, R103), split out of victory
       "rules_engine.aggressive", "rules_engine.blunt", "rules_engine.budget", "rules_engine.paralyze",
       "rules_engine.two_orders"]


def test_no_compiled_module_sits_beside_the_sources():
    assert not [p for p in (ROOT / "rules_engine").rglob("*") if p.suffix in (".so", ".pyd")]


def test_every_engine_module_comes_from_the_engine_chosen_for_this_run():
    loaded = engine_under_test.loaded_engine_modules()
    assert set(HOT) <= set(loaded)
    if engine_under_test.KIND == "pure":
        assert all(path.suffix == ".py" and path.is_relative_to(ROOT / "rules_engine") for path in loaded.values())
        assert engine_under_test.compiled_modules() == []
    else:
        home = engine_under_test.compiled_dir() / "rules_engine"
        assert all(path.is_relative_to(home) for path in loaded.values()), loaded
        assert set(HOT) <= set(engine_under_test.compiled_modules())
        # Built from the sources as they are in the checkout now, byte for byte.
        assert (home / engine_under_test.STAMP_NAME).read_text().strip() == engine_under_test.SOURCES_DIGEST


def test_the_command_line_run_by_the_tests_uses_the_same_engine():
    done = subprocess.run([sys.executable, "-c", "import rules_engine.state as s; print(s.__file__)"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == Path(sys.modules["rules_engine.state"].__file__)
    assert Path(rules_engine.__file__).parent == Path(done.stdout.strip()).parent


def test_an_edited_source_has_another_digest_so_no_earlier_build_is_found(tmp_path):
    """The compiled engine is looked up by the digest of the sources now: one edited line anywhere in the
    package (a comment too) names another build folder, so the compiled run asks for a new build."""
    copy = tmp_path / "rules_engine"
    shutil.copytree(ROOT / "rules_engine", copy, ignore=shutil.ignore_patterns("__pycache__"))
    digest = engine_under_test._sources.sources_digest(copy)
    assert digest == engine_under_test._sources.sources_digest(ROOT / "rules_engine")  # the same text, the same digest
    with (copy / "variants" / "terrain.py").open("a") as source:
        source.write("# edited\n")
    edited = engine_under_test._sources.sources_digest(copy)
    assert edited != digest
    assert not engine_under_test.compiled_dir(edited).exists()
