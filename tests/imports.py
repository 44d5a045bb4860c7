"""What a module imports, read from its source (every import statement at any depth), for the tests
that hold a package pure."""
import ast
from pathlib import Path


def imported_names(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names
