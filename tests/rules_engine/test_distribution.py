"""The engine as a library: each warline-rules wheel (pure and compiled) installs alone into a fresh
virtualenv outside the checkout, and there `python -m rules_engine` adjudicates every shared example
to its stored verdict, and the README's three calls (read, adjudicate, walk the turns) run.

The wheels come from `scripts/build_engine` (cached by the digest of the sources, so this is quick
after scripts/test has built them). The virtualenv's Python runs isolated (`-I`: no PYTHONPATH, no
current directory on sys.path), so only the installed wheel can answer.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import engine_under_test

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "examples" / "replays"
README = ROOT / "packaging" / "warline-rules" / "README.md"

pytestmark = pytest.mark.skipif(
    engine_under_test.KIND != "pure",
    reason="the wheels are tested once, in the pure run: what they hold does not depend on the engine under test")


@pytest.fixture(scope="module")
def wheels() -> dict[str, Path]:
    done = subprocess.run(["bash", str(ROOT / "scripts" / "build_engine"), "all"], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"scripts/build_engine failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    where = ROOT / ".engine-build" / "wheels" / engine_under_test.SOURCES_DIGEST
    return {kind: next((where / kind).glob("warline_rules-*.whl")) for kind in ("pure", "compiled")}


def fresh_venv_with(wheel: Path, where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, capture_output=True, timeout=300)
    python = where / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--disable-pip-version-check",
                                str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return python


def run_isolated(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-I", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_the_wheels_name_the_distribution_and_depend_on_nothing(wheels):
    assert wheels["pure"].name.endswith("-py3-none-any.whl")
    assert "-cp311-" in wheels["compiled"].name
    for wheel in wheels.values():
        with zipfile.ZipFile(wheel) as archive:
            metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
            stamp = archive.read("rules_engine/SOURCES_SHA256").decode().strip()
        assert "Name: warline-rules" in metadata
        assert "Requires-Dist" not in metadata  # no Django, nothing at all outside the standard library
        assert stamp == engine_under_test.SOURCES_DIGEST


@pytest.mark.parametrize("kind", ["pure", "compiled"])
def test_an_installed_wheel_adjudicates_every_shared_example_to_its_stored_verdict(kind, wheels, tmp_path):
    examples = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".verdict.json"))
    assert len(examples) >= 10, f"the shared examples are missing from {EXAMPLES}"
    python = fresh_venv_with(wheels[kind], tmp_path / "venv")
    work = tmp_path / "elsewhere"
    work.mkdir()

    where = run_isolated(python, "-c", "import rules_engine, rules_engine.state as s; print(rules_engine.__file__);"
                         "print(s.__file__)", cwd=work)
    package_file, state_file = where.stdout.split()
    assert str(tmp_path / "venv") in package_file and str(ROOT) not in package_file
    assert state_file.endswith(".so") if kind == "compiled" else state_file.endswith(".py")

    done = run_isolated(python, "-m", "rules_engine", "adjudicate", *map(str, examples), cwd=work)
    assert done.returncode in (0, 1), done.stderr  # 1: some examples are invalid logs, as they should be
    verdicts = {Path(item["file"]).name: item["verdict"] for item in json.loads(done.stdout)}
    for example in examples:
        stored = json.loads(example.with_name(example.name[:-len(".json")] + ".verdict.json").read_text())
        assert verdicts[example.name] == stored, example.name


def test_the_readme_s_three_calls_run_against_the_installed_wheel(wheels, tmp_path):
    block = re.search(r"## The three calls\n\n```python\n(.*?)```", README.read_text(), re.DOTALL)
    assert block, "the README shows the three calls in a python block"
    python = fresh_venv_with(wheels["pure"], tmp_path / "venv")
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "battle.json").write_bytes((EXAMPLES / "victory-crush.json").read_bytes())
    (work / "three_calls.py").write_text(block.group(1))
    done = run_isolated(python, "three_calls.py", cwd=work)
    assert done.returncode == 0, done.stderr
    stored = json.loads((EXAMPLES / "victory-crush.verdict.json").read_text())
    assert done.stdout.startswith(f"True {stored['outcome']} ")
    turns = [line for line in done.stdout.splitlines() if re.match(r"\d+ BattalionView\(", line)]
    assert len(turns) == stored["turns"] + 1  # after the formation, then after each turn
