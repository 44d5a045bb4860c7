"""Reading a replay's JSON text the quick way (issue 22) answers exactly what the strict reading answers.

A well-formed text is decoded without the duplicate-key hook and its keys are counted against the
colons of the text; anything else (a duplicate, a colon the count cannot place, an infinite number,
a nesting too deep, a lone surrogate, broken JSON) is read again the strict way, which names the
first thing wrong. So a player sees the same verdict, error code, message and location either way.
"""
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import ReplayError, adjudicate
from rules_engine.replay import MAX_DEPTH, _decode_strictly, _Reader, decode

EXAMPLE = Path(__file__).resolve().parent / "corpus" / "example-victory-shackle.json"


def example_text(meta: dict | None = None) -> str:
    doc = json.loads(EXAMPLE.read_text())
    if meta is not None:
        doc["meta"] = meta
    return json.dumps(doc)


def outcome(read, text: str):
    try:
        return "read", read(text)
    except ReplayError as error:
        return "refused", error.to_dict()


def with_duplicate_in_first_turn(text: str) -> str:
    """The first turn's `by` written twice (the same general: only the duplicate is wrong)."""
    at = text.index('"turns": [{"by": ') + len('"turns": [{')
    by = text[at:text.index(",", at)]
    return text[:at] + by + ", " + text[at:]


def test_a_duplicate_key_is_refused_where_strings_hold_colons():
    text = with_duplicate_in_first_turn(example_text({"submitted": "2026-11-25 19:30:00", "note": "a: b"}))
    error = adjudicate(text).to_dict()["error"]
    assert (error["code"], error["message"]) == ("duplicate_key", 'The key "by" appears twice in one object.')
    assert outcome(decode, text) == outcome(_decode_strictly, text)


def test_a_duplicate_key_is_refused_when_an_escaped_colon_would_balance_the_count():
    # One key too few in the objects and one colon more in the decoded strings than in the text: a
    # count that trusted the decoded strings would see no duplicate.
    text = with_duplicate_in_first_turn(example_text({"note": "x"}).replace('"note": "x"', '"note": "\\u003a"'))
    assert adjudicate(text).to_dict()["error"]["code"] == "duplicate_key"
    assert outcome(decode, text) == outcome(_decode_strictly, text)


def test_colons_in_strings_change_nothing_in_a_valid_replay():
    plain = adjudicate(example_text()).to_dict()
    assert plain["valid"] is True
    for meta in ({"at": "19:30"}, {"a:b": ":::"}, {"escaped": "\\u003a"}, {"name": "Jos\u00e9: 1"}):
        assert adjudicate(example_text(meta)).to_dict() == plain


@pytest.mark.parametrize("text, code", [
    ('{"a": 1, "a": 2, "b": [1e999]}', "duplicate_key"),   # the duplicate first, as the strict reading finds it
    ('{"a": [1e999], "b": {"c": 1, "c": 2}}', "duplicate_key"),
    ('{"a": [1e999]}', "not_json"),
    ('{"a": 1, "a": 2, "b": ' + "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2) + "}", "duplicate_key"),
    ('{"a": ' + "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2) + ', "b": 1, "b": 2}', "duplicate_key"),
    ('{"a": ' + "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2) + "}", "too_deep"),
    ('{"a": 1, "a": 2, "b": "\\ud800"}', "duplicate_key"),
    ('{"a": "\\ud800", "b": ":"}', "not_utf8"),
    ('{"b": {"a": 1, "a": 2}, "c": [}', "duplicate_key"),   # an object is checked when it closes
    ('{"a": 1, "a": 2, "b": [}', "not_json"),
    ('{"a": [}', "not_json"),
    ('{"a": NaN, "a": 2}', "not_json"),
])
def test_the_first_thing_wrong_is_named_as_the_strict_reading_names_it(text, code):
    assert outcome(decode, text) == outcome(_decode_strictly, text)
    assert outcome(decode, text)[1]["code"] == code


KEYS = st.sampled_from(['"a"', '"b"', '"a:b"', '":"', '"\\u003a"', '"\\u00e9"', '"\u00e9"', '"\\ud800"', '"x\\"y:"'])
LEAVES = st.one_of(st.sampled_from(["null", "true", "1", "-2", "0.5", "1e999", '"s"', '"t:u"', '"\\u003a"', '"\\udc00"',
                                    '"\u00e9"', '"\\u00e9:"']), st.integers().map(str))
TEXTS = st.recursive(
    LEAVES,
    lambda children: st.one_of(
        st.lists(children, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
        st.lists(st.tuples(KEYS, children), max_size=4).map(
            lambda pairs: "{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}")),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_any_text_reads_as_the_strict_reading_reads_it(text):
    assert outcome(decode, text) == outcome(_decode_strictly, text)


@pytest.mark.parametrize("ident, accepted", [
    ("A1", True), ("a-b_c", True), ("_", True), ("Z" * 16, True), ("Z" * 17, False), ("", False),
    ("\u00c41", False), ("A 1", False), ("A1\u0661", False),
])
def test_battalion_ids_are_accepted_exactly_as_the_format_writes_them(ident, accepted):
    try:
        _Reader(1, 1).battalion(ident, "battalion")
    except ReplayError as error:
        assert not accepted
        assert error.code == "bad_battalion_id"
        assert (error.location.turn, error.location.order, error.location.action) == (1, 1, None)
    else:
        assert accepted
