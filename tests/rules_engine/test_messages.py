"""What a message quotes of a log (issue 22, item 7): at most a short prefix of any input, and never a control,
bidirectional or other invisible character as it is, in the verdict JSON, in its sentences and in
`adjudicate --text`: a hostile log cannot flood a page, reorder its text (U+202E) or drive a terminal."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import adjudicate
from rules_engine.errors import QUOTE_LIMIT

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "rules_engine" / "corpus" / "example-victory-shackle.json"
HOSTILE = "evil\u202egnp.exe\x1b[31m\u2066\u200b\x07"
RAW = ("\u202e", "\x1b", "\u2066", "\u200b", "\x07")


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def error_of(document: dict | str) -> dict:
    verdict = adjudicate(document).to_dict()
    assert verdict["valid"] is False
    return verdict["error"]


def with_rules_key(key: str) -> dict:
    doc = example()
    doc["rules"][key] = 1
    return doc


def with_duplicate_key(key: str) -> str:
    text = json.dumps(example())
    return text[:-1] + f', {json.dumps(key)}: 1, {json.dumps(key)}: 2}}'


@pytest.mark.parametrize("make, code", [(with_rules_key, "unknown_key"), (with_duplicate_key, "duplicate_key")])
def test_a_huge_key_is_quoted_by_its_first_characters_only(make, code):
    error = error_of(make("k" * 400_000))  # twice over in the duplicate: within the 1 MiB limit
    assert error["code"] == code
    assert len(error["message"]) < 200
    assert "k" * QUOTE_LIMIT + "\u2026" in error["message"]
    assert "k" * (QUOTE_LIMIT + 1) not in error["message"]


def test_a_short_key_is_quoted_whole_without_an_ellipsis():
    error = error_of(with_rules_key("colour"))
    assert error["message"] == 'Unknown key "colour" in rules.'


@pytest.mark.parametrize("make", [with_rules_key, with_duplicate_key])
def test_control_and_bidirectional_characters_of_a_key_are_escaped_in_the_verdict(make):
    error = error_of(make(HOSTILE))
    message = error["message"]
    assert not any(character in message for character in RAW)
    assert "evil\\u202egnp.exe\\x1b[31m\\u2066\\u200b\\x07" in message
    assert not any(character in json.dumps(error, ensure_ascii=False) for character in RAW)


def test_a_bad_value_is_cut_and_escaped_too():
    doc = example()
    doc["rules"]["variants"] = ["x" * 100 + "\u202e"]
    error = error_of(doc)
    assert error["code"] == "unknown_variant"
    assert '"' + "x" * QUOTE_LIMIT + '\u2026"' in error["message"]
    doc["rules"]["variants"] = ["fog\u202eof\x1bwar"]
    assert "fog\\u202eof\\x1bwar" in error_of(doc)["message"]


def test_the_text_summary_prints_no_raw_control_or_bidirectional_character(tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(with_rules_key(HOSTILE), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rules_engine", "adjudicate", "--text", str(path)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 1
    assert "unknown_key" in done.stdout and "\\u202e" in done.stdout
    assert not any(character in done.stdout + done.stderr for character in RAW)


def test_the_json_output_carries_the_escaped_sentence(tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(with_rules_key(HOSTILE), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rules_engine", "adjudicate", str(path)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    message = json.loads(done.stdout)["error"]["message"]
    assert "\\u202e" in message and not any(character in message for character in RAW)
