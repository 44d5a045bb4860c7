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


# ---- generate ----------------------------------------------------------------------------------

def test_generate_prints_a_replay_that_adjudicates_as_valid(tmp_path):
    done = run("generate", "--seed", "4", "--board", "5x5", "--turns", "12", "--p1", "Alice", "--p2", "Bob")
    assert done.returncode == 0, done.stderr
    game = json.loads(done.stdout)
    assert game["rules"]["board"] == {"width": 5, "height": 5}
    assert len(game["turns"]) <= 12
    assert [game["generals"][p]["name"] for p in ("p1", "p2")] == ["Alice", "Bob"]
    path = tmp_path / "game.json"
    path.write_text(done.stdout)
    judged = run("adjudicate", str(path))
    assert judged.returncode == 0 and json.loads(judged.stdout)["valid"]


def test_generate_is_the_same_for_the_same_options_and_writes_the_output_file(tmp_path):
    path = tmp_path / "out.json"
    done = run("generate", "--seed", "9", "--variants", "terrain,double_time", "--turns", "20", "-o", str(path))
    assert done.returncode == 0 and done.stdout == ""
    assert "wrote" in done.stderr
    again = run("generate", "--seed", "9", "--variants", "terrain,double_time", "--turns", "20")
    assert json.loads(path.read_text()) == json.loads(again.stdout)
    assert json.loads(again.stdout)["rules"]["variants"] == ["terrain", "double_time"]


def test_generate_takes_the_generals_platform_ids():
    game = json.loads(run("generate", "--turns", "4", "--p1", "17", "--p2", "23").stdout)
    assert game["meta"]["general_ids"] == {"p1": 17, "p2": 23}


@pytest.mark.parametrize("args, says", [
    (["--board", "5x2"], "height of at least 3"),
    (["--board", "27x7"], "1..26"),
    (["--board", "seven"], "not a board size"),
    (["--variants", "fog_of_war"], "not an Organized Play variant"),
    (["--p1", "17", "--p2", "Bob"], "both generals by id"),
    (["--p1", "x" * 101], "longer than 100"),
    (["--turns", "-1"], "0 to 5000"),
    (["-o", "/nonexistent-dir/out.json"], "cannot write"),
])
def test_generate_refuses_bad_options_with_a_sentence(args, says):
    done = run("generate", "--turns", "3", *args)
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr


# ---- no traceback for any input ------------------------------------------------------------------

@pytest.mark.parametrize("content, code", [
    (b'{"\\ud800": 1}', "not_utf8"),
    (b'{"format": ' + b"1" * 5000 + b"}", "bad_value"),
    (b"[" * 100_000, "too_deep"),
    (b"\xff\xfe{\x00}\x00", "not_utf8"),
    (b'{"a": NaN}', "not_json"),
])
@pytest.mark.parametrize("command", [["adjudicate"], ["adjudicate", "--text"], ["show"]])
def test_hostile_input_gets_a_located_error_never_a_traceback(tmp_path, content, code, command):
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    done = run(*command, str(path))
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr + done.stdout
    assert code in done.stdout + done.stderr
    if command == ["adjudicate"]:
        error = json.loads(done.stdout)["error"]
        assert (error["turn"], error["order"], error["action"], error["code"]) == (0, None, None, code)


def test_a_reader_that_stops_early_is_no_failure():
    # `adjudicate *.json | head -1`: the pipe closes while the verdicts are still being written
    # (far more than a pipe holds).
    many = [str(CORPUS / "r28-stacked-cannot-face.json")] * 400
    reader = subprocess.Popen([sys.executable, "-m", "rules_engine", "adjudicate", *many],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.read(10)
    reader.stdout.close()
    reader.wait(timeout=120)
    errors = reader.stderr.read().decode()
    reader.stderr.close()
    assert "failed" not in errors and "Traceback" not in errors and "BrokenPipe" not in errors
    assert reader.returncode in (0, 1)  # the verdicts' own status (1: an invalid log), not a crash
