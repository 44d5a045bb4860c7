"""Swiss pairing, standings, tables and top cuts are plain Python: the standard library and networkx
(the maximum-weight matching), nothing of Django or the organized-play code."""
import sys
from pathlib import Path

from tests.imports import imported_names

PAIRINGS = Path(__file__).resolve().parents[2] / "pairings"


def test_pairings_import_only_the_standard_library_networkx_and_themselves():
    for module in PAIRINGS.glob("*.py"):
        for name in imported_names(module):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top in ("networkx", "pairings"), (module.name, name)
