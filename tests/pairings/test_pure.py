"""Swiss pairing, standings, tables and top cuts are plain Python: the standard library and networkx
(the maximum-weight matching), nothing of Django or the organized-play code."""
import ast
import sys
from pathlib import Path

PAIRINGS = Path(__file__).resolve().parents[2] / "pairings"


def test_pairings_import_only_the_standard_library_networkx_and_themselves():
    for module in PAIRINGS.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ("networkx", "pairings"), (module.name, name)
