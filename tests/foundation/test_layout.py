"""The rules engine stays a plain Python package: usable from a shell and free of Django."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})


def test_rules_engine_help_works_from_a_shell():
    result = run_python("-m", "rules_engine", "--help")
    assert result.returncode == 0, result.stderr
    assert "usage: python -m rules_engine" in result.stdout


def test_rules_engine_imports_nothing_from_django():
    code = ("import sys, pkgutil, importlib, rules_engine\n"
            "for m in pkgutil.walk_packages(rules_engine.__path__, 'rules_engine.'):\n"
            "    if m.name != 'rules_engine.__main__': importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('django', 'tournaments', 'opp')))")
    result = run_python("-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_domain_imports_nothing_from_django():
    result = run_python("-c", "import sys, tournaments.domain; print(sorted(n for n in sys.modules if "
                              "n.startswith('django')))")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
