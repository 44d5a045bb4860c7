"""`python -m rules_engine`: exit codes, JSON and text output, the battlefield grid."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return subprocess.run([sys.executable, "-m", "rules_engine", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_help_works():
    done = run("--help")
    assert done.returncode == 0
    assert "adjudicate" in done.stdout and "show" in done.stdout


def test_valid_replay_exits_0_with_the_verdict_json():
    path = CORPUS / "example-victory-shackle.json"
    done = run("adjudicate", str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == json.loads((CORPUS / "example-victory-shackle.verdict.json").read_text())


def test_invalid_replay_exits_1():
    done = run("adjudicate", str(CORPUS / "example-invalid-blocked-by-rampart.json"))
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == "blocked_by_rampart"


@pytest.mark.parametrize("name", ["read-not-json.json", "read-not-utf8.json", "missing-file.json"])
def test_unreadable_input_exits_2(name):
    done = run("adjudicate", str(CORPUS / name))
    assert done.returncode == 2
    expected = {"read-not-json.json": "not_json", "read-not-utf8.json": "not_utf8",
                "missing-file.json": "unreadable_file"}[name]
    assert json.loads(done.stdout)["error"]["code"] == expected


def test_several_files_give_a_list_and_the_worst_status():
    files = [CORPUS / "example-resolve.json", CORPUS / "example-invalid-formation-row.json"]
    done = run("adjudicate", *map(str, files))
    assert done.returncode == 1
    listed = json.loads(done.stdout)
    assert [entry["file"] for entry in listed] == [str(path) for path in files]
    assert [entry["verdict"]["valid"] for entry in listed] == [True, False]


def test_text_summary():
    done = run("adjudicate", "--text", str(CORPUS / "example-victory-crush.json"),
               str(CORPUS / "example-invalid-not-enough-ma.json"))
    assert done.returncode == 1
    assert "p2 wins by crush after 31 turns." in done.stdout
    assert "Claim by p2 of blunt: accepted" in done.stdout
    assert "INVALID at turn 2, order 1, action 2 [not_enough_ma]: Y4 has 1 MA left; this action costs 2." in done.stdout


def test_show_prints_the_battlefield_after_a_turn():
    done = run("show", str(CORPUS / "example-victory-shackle.json"), "--turn", "8")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "example-victory-shackle.json, after turn 8 (p2 moves next):"
    row_1 = next(line for line in lines if line.strip().startswith("1 "))
    assert "S2_5v" in row_1  # routed to b1, facing away from b2
    assert "p1: prison S2_6(6)" in done.stdout
    assert "Stun on S2_5" in done.stdout


def test_show_refuses_a_turn_the_replay_does_not_have():
    done = run("show", str(CORPUS / "example-victory-shackle.json"), "--turn", "99")
    assert done.returncode == 1
    assert "no turn 99" in done.stderr


def test_show_stops_at_an_illegal_step():
    done = run("show", str(CORPUS / "example-invalid-blocked-by-rampart.json"), "--turn", "25")
    assert done.returncode == 1
    assert "blocked_by_rampart" in done.stderr
