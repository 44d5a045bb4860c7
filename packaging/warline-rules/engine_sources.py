"""The digest of the engine's sources: one definition, used by the build and by the test run.

`setup.py` writes it into every wheel it builds (`rules_engine/SOURCES_SHA256`), `scripts/build_engine`
keys its cache by it, and the test run (`tests/engine_under_test.py`) refuses a compiled engine
whose digest is not the digest of the sources in the checkout, so an edited `.py` file is never
silently shadowed by a module compiled from an older text.

    python packaging/warline-rules/engine_sources.py [REPO_ROOT]   # prints the digest
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
STAMP_NAME = "SOURCES_SHA256"


def engine_sources(package: Path) -> list[Path]:
    """Every Python source of the package, in a fixed order (caches and build output excluded)."""
    return sorted(path for path in package.rglob("*.py") if "__pycache__" not in path.parts)


def sources_digest(package: Path | None = None) -> str:
    """sha256 over each source's path (relative to the package) and bytes."""
    package = package or REPO_ROOT / "rules_engine"
    digest = hashlib.sha256()
    for path in engine_sources(package):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO_ROOT
    print(sources_digest(root / "rules_engine"))
