"""`check_list`, as a player preparing a list or a test runs it: every worked example of both specs
gives exactly its expected violations, the exit status says valid (0), violations (1) or unusable input
(2, one sentence, never a traceback)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.imports import imported_names

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).parent / "examples"
GAMES = {"warlord-ccg-4e": "warlord_ccg", "reaper-warlord": "reaper_warlord"}


def examples():
    for game, folder in GAMES.items():
        for example in json.loads((EXAMPLES / folder / "examples.json").read_text(encoding="utf-8")):
            yield pytest.param(game, folder, example, id=example["id"])


def run(*args):
    """The command as a shell runs it: (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "DEBUG": "true", "DATABASE_URL": "sqlite:///:memory:"})
    return done.returncode, done.stdout, done.stderr


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("game", "folder", "example"), list(examples()))
def test_every_spec_example_gives_exactly_its_violations(game, folder, example, tmp_path, capsys):
    from game_systems import cli

    status = cli.run(game, write(tmp_path, "list.json", {"game": game, **example["list"]}),
                     str(EXAMPLES / folder / "pool.csv"), write(tmp_path, "options.json", example["event"]))
    printed = json.loads(capsys.readouterr().out)
    expected = example["expected"]
    assert Counter(map(json.dumps, printed["violations"])) == Counter(map(json.dumps, expected))
    assert printed["valid"] is (not expected)
    assert status == (1 if expected else 0)


def test_both_spec_files_yield_every_example_here():
    assert sum(1 for _ in examples()) == 11  # C01-C06 and RT01-RT05, spec sections 5


def test_manage_py_check_list_prints_the_json_and_exits_with_the_status(tmp_path):
    example = json.loads((EXAMPLES / "warlord_ccg" / "examples.json").read_text())[3]  # C04: 49 cards
    status, out, err = run("manage.py", "check_list", "--game", "warlord-ccg-4e",
                           write(tmp_path, "deck.json", {"game": "warlord-ccg-4e", **example["list"]}),
                           "--pool", str(EXAMPLES / "warlord_ccg" / "pool.csv"))
    assert status == 1, err
    assert json.loads(out) == {"valid": False, "violations": example["expected"]}


def test_python_m_game_systems_runs_without_django(tmp_path):
    example = json.loads((EXAMPLES / "reaper_warlord" / "examples.json").read_text())[0]  # RT01: valid
    status, out, err = run("-m", "game_systems", "check_list", "--game", "reaper-warlord",
                           write(tmp_path, "army.json", example["list"]),
                           "--pool", str(EXAMPLES / "reaper_warlord" / "pool.csv"))
    assert (status, json.loads(out)) == (0, {"valid": True, "violations": []}), err


@pytest.mark.parametrize(("args", "sentence"), [
    (["--game", "warlord-ccg-4e", "missing.json"], "does not exist"),
    (["--game", "chess", "LIST"], "is not a game this site runs"),
    (["--game", "warline", "LIST"], "has no lists to check"),
    (["--game", "warlord-ccg-4e", "NOTJSON"], "is not JSON"),
    (["--game", "warlord-ccg-4e", "LIST", "--pool", "BADPOOL"], "cannot be used: row"),
    (["--game", "reaper-warlord", "LIST", "--options", "BADOPTIONS"], "points_limit"),
    (["--game", "warlord-ccg-4e", "ARRAY"], ""),
])
def test_unusable_input_exits_2_with_a_sentence_and_no_traceback(args, sentence, tmp_path):
    files = {"LIST": write(tmp_path, "list.json", {"cards": []}), "NOTJSON": write(tmp_path, "bad.json", "{cards"),
             "BADPOOL": write(tmp_path, "pool.csv", "name,type,level\nA,weapon,1\n"),
             "BADOPTIONS": write(tmp_path, "options.json", {"points_limit": "lots"}),
             "ARRAY": write(tmp_path, "array.json", [1, 2])}
    status, out, err = run("manage.py", "check_list", *[files.get(arg, arg) for arg in args])
    assert status == 2
    assert out == ""
    assert sentence in err
    assert "Traceback" not in err and err.strip()


def test_game_systems_never_import_django():
    """The game systems are pure, like rules_engine: a checker runs anywhere (tests, the command line)."""
    for path in (ROOT / "game_systems").rglob("*.py"):
        for name in imported_names(path):
            assert not name.startswith(("django", "tournaments", "opp")), f"{path}: imports {name}"
