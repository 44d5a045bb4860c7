"""Which rules engine a test run imports, chosen before anything imports it, and proof of it.

`OPP_ENGINE=pure` (the default): the checkout's own `rules_engine/` sources.
`OPP_ENGINE=compiled`: the same sources compiled with mypyc, as `scripts/build_engine` installed
them into `.engine-build/compiled/<digest>/`, where `<digest>` is the digest of the checkout's
sources *now* (`packaging/warline-rules/engine_sources.py`). A compiled engine built from any other
text has another digest, so it is never found: after an edit of a `.py` file the run stops and
says to build again (scripts/test does), instead of testing an engine the sources no longer describe.

Nothing is ever built inside `rules_engine/` (an extension module there would be imported before
the `.py` beside it): a run stops if one is found. The run's header names the engine, and
`tests/rules_engine/test_engine_under_test.py` checks every loaded module against this choice.
Subprocesses started by the tests (`python -m rules_engine`) get the same engine through
PYTHONSAFEPATH and PYTHONPATH.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rules_engine"
BUILD_ROOT = ROOT / ".engine-build"
EXTENSION_SUFFIXES = (".so", ".pyd")


def _digest_module():
    spec = importlib.util.spec_from_file_location(
        "_warline_engine_sources", ROOT / "packaging" / "warline-rules" / "engine_sources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_sources = _digest_module()
SOURCES_DIGEST = _sources.sources_digest(PACKAGE)
STAMP_NAME = _sources.STAMP_NAME
KIND = os.environ.get("OPP_ENGINE", "pure").strip().lower() or "pure"


def compiled_dir(digest: str = SOURCES_DIGEST) -> Path:
    return BUILD_ROOT / "compiled" / digest


def _stop(sentence: str):
    raise SystemExit(f"engine under test: {sentence}")


def _select() -> Path:
    """Import `rules_engine` from where OPP_ENGINE says; return the folder it was taken from."""
    in_place = [path for path in PACKAGE.rglob("*") if path.suffix in EXTENSION_SUFFIXES]
    if in_place:
        _stop(f"compiled modules inside the checkout ({', '.join(str(p) for p in in_place[:3])}) would shadow "
              "the .py sources; delete them (scripts/build_engine builds outside the checkout).")
    if KIND == "pure":
        if "rules_engine" not in sys.modules:
            sys.path.insert(0, str(ROOT))
        return ROOT
    if KIND != "compiled":
        _stop(f"OPP_ENGINE={KIND!r}: expected 'pure' or 'compiled'.")
    where = compiled_dir()
    if not (where / "rules_engine" / STAMP_NAME).is_file():
        _stop(f"no compiled engine for the sources as they are now (digest {SOURCES_DIGEST[:16]}); "
              "build it with `bash scripts/build_engine compiled` (scripts/test does).")
    if "rules_engine" in sys.modules:
        _stop("rules_engine was imported before the engine under test was chosen.")
    sys.path.insert(0, str(where))
    # Subprocesses (`python -m rules_engine` from the checkout) would put the checkout first.
    os.environ["PYTHONSAFEPATH"] = "1"
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(where), str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
    return where


SOURCE_ROOT = _select()
import rules_engine  # noqa: E402  (after the choice, on purpose)


def loaded_engine_modules() -> dict[str, Path]:
    return {name: Path(module.__file__) for name, module in sys.modules.items()
            if (name == "rules_engine" or name.startswith("rules_engine.")) and getattr(module, "__file__", None)}


def compiled_modules() -> list[str]:
    return sorted(name for name, path in loaded_engine_modules().items() if path.suffix in EXTENSION_SUFFIXES)


def describe() -> str:
    if KIND == "pure":
        return f"rules engine: pure Python from {Path(rules_engine.__file__).parent}"
    stamp = (Path(rules_engine.__file__).parent / STAMP_NAME).read_text().strip()
    return (f"rules engine: compiled with mypyc from {Path(rules_engine.__file__).parent} "
            f"(built from sources {stamp[:16]}; the checkout's sources are {SOURCES_DIGEST[:16]})")
