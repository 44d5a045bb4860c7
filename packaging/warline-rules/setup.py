"""Builds the `warline-rules` distribution from the repository's own `rules_engine/` package.

The package stays at the repository root (the Django project imports it from there); this folder
only says how to wheel it. `package_dir` points at it, so there is one copy of every source.

    pip wheel --no-deps --no-build-isolation packaging/warline-rules -w dist/        # pure Python
    WARLINE_RULES_MYPYC=1 pip wheel --no-deps --no-build-isolation packaging/warline-rules -w dist/
                                          # the same sources compiled to C extensions with mypyc

`scripts/build_engine` runs both with the pinned tools of `build-requirements.txt` and caches the
result by the digest of the sources. Every wheel carries that digest in `rules_engine/SOURCES_SHA256`.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from engine_sources import STAMP_NAME, engine_sources, sources_digest  # noqa: E402

PACKAGE = HERE.parents[1] / "rules_engine"
# setuptools wants package_dir relative to this folder.
PACKAGE_DIR = os.path.relpath(PACKAGE, HERE)
# Where setuptools and mypyc write (scripts/build_engine gives each build a fresh one, so that no
# file of an earlier build can slip into a wheel).
BUILD = Path(os.environ.get("WARLINE_RULES_BUILD_DIR") or HERE / "build").resolve()

# Compiled with mypyc when asked. Left interpreted: the entry points (nothing to gain), the random
# game generator (not on any adjudication path), and the ruleset with the variant mixins, which
# `variants.ruleset_for` composes into new classes at run time (mypyc's native classes allow
# neither that nor multiple inheritance).
INTERPRETED = {"__init__.py", "__main__.py", "cli.py", "generator.py", "ruleset.py"}
INTERPRETED_DIRS = {"variants"}


def compiled_sources() -> list[str]:
    chosen = []
    for path in engine_sources(PACKAGE):
        relative = path.relative_to(PACKAGE)
        if relative.name in INTERPRETED or INTERPRETED_DIRS.intersection(relative.parts[:-1]):
            continue
        chosen.append(os.path.relpath(path, HERE))
    return chosen


def engine_version() -> str:
    match = re.search(r'^ENGINE_VERSION = "([^"]+)"', (PACKAGE / "__init__.py").read_text(), re.MULTILINE)
    if not match:
        raise SystemExit("rules_engine/__init__.py has no ENGINE_VERSION")
    return match.group(1)


class BuildPyWithStamp(build_py):
    """Copies the sources and writes the digest they had, so a run can prove what it imported."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "rules_engine" / STAMP_NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(sources_digest(PACKAGE) + "\n")


ext_modules = []
if os.environ.get("WARLINE_RULES_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(
        ["--config-file", str(HERE / "mypy.ini"), "--cache-dir", str(BUILD / "mypy_cache"), *compiled_sources()],
        opt_level=os.environ.get("WARLINE_RULES_MYPYC_OPT", "3"),
        target_dir=str(BUILD / "mypyc"),
    )

setup(
    version=engine_version(),
    package_dir={"rules_engine": PACKAGE_DIR},
    packages=["rules_engine", "rules_engine.variants", "rules_engine.variants.arts"],
    package_data={"rules_engine": ["README.md", STAMP_NAME]},
    ext_modules=ext_modules,
    cmdclass={"build_py": BuildPyWithStamp},
    zip_safe=False,
    options={"build": {"build_base": str(BUILD)}, "egg_info": {"egg_base": str(BUILD)}},
)
