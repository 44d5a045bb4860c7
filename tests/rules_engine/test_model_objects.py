"""The replay objects a caller gets (`rules_engine.model`, `errors.Location`, `verdict.Verdict`) behave as frozen
dataclasses in both engines: equal when their fields are, hashable, immutable, copied with
`dataclasses.replace`, defaults where the format leaves a key out. Their `__init__` is written out (so that
the compiled engine compiles it), which must change none of this."""
from __future__ import annotations

import dataclasses

import pytest

from rules_engine.errors import Location
from rules_engine.model import Face, Lighten, Maneuver, Move, Replay, Result, Rules, Stall, Turn
from rules_engine.verdict import Verdict


def a_turn(by: str = "p1") -> Turn:
    return Turn(by, (Maneuver("A1", (Move(), Face("N"))),))


def test_equal_objects_are_equal_and_hash_alike():
    assert a_turn() == a_turn() and hash(a_turn()) == hash(a_turn())
    assert a_turn() != a_turn("p2")
    assert {Location(3, 1, 2), Location(3, 1, 2)} == {Location(3, 1, 2)}


def test_objects_cannot_be_changed_but_copied_with_a_change():
    turn = a_turn()
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.by = "p2"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Location(1).turn = 2  # type: ignore[misc]
    changed = dataclasses.replace(turn, by="p2")
    assert changed.by == "p2" and changed.orders == turn.orders and turn.by == "p1"


def test_keys_left_out_take_their_defaults():
    assert Turn("p1", ()).torment is None and Turn("p1", ()).sacrifice_beneficiary is None
    assert Lighten("A1", 3).transfer is None and Stall().battalion is None
    assert Location() == Location(0, None, None)
    assert Rules(("terrain",), 7, 7).absent == frozenset() and Result("deadlock").by is None
    assert Verdict(valid=True).turns == 0 and Verdict(valid=True).missed == ()
    assert Move().act == "move" and Face("N").act == "face" and a_turn().orders[0].type == "maneuver"


def test_keyword_construction_and_the_dict_form():
    result = Result(type="claim", by="p1", condition="crush")
    assert result.to_dict() == {"type": "claim", "by": "p1", "condition": "crush"}
    assert dataclasses.asdict(result) == {"type": "claim", "by": "p1", "condition": "crush"}
    assert a_turn().to_dict() == {"by": "p1", "orders": [{"type": "maneuver", "battalion": "A1",
                                                          "actions": [{"act": "move"}, {"act": "face", "to": "N"}]}]}
    assert [field.name for field in dataclasses.fields(Replay)][-2:] == ["meta", "version"]
