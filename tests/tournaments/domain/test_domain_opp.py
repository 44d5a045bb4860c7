"""OPP per battle (R21, R22, R23) and the outcome values they are computed from."""
import ast
import pathlib
import sys

import pytest

from tournaments.domain import (
    DEFAULT_FORFEIT_AWARD,
    OPP_FOR_CONDITION,
    VICTORY_CONDITIONS,
    BattleResult,
    Conflict,
    DomainError,
    ForfeitAward,
    Kind,
    Outcome,
    opp_awards,
)

DOMAIN = pathlib.Path(__file__).resolve().parents[3] / "tournaments" / "domain"


def victory(winner, loser, condition):
    return BattleResult(winner, loser, Outcome(Kind.VICTORY, winner=winner, condition=condition))


VOCABULARY = DOMAIN.parents[1] / "rules_engine" / "conditions.py"


def test_the_domain_imports_only_the_standard_library_itself_and_the_one_vocabulary():
    """No Django, no database: the domain and the vocabulary it shares with the engine
    (rules_engine/conditions.py, the names and OPP of the victory conditions) are plain Python."""
    for module in [*DOMAIN.glob("*.py"), VOCABULARY]:
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                allowed = name.startswith("tournaments.domain") or (
                    module != VOCABULARY and name == "rules_engine.conditions")
                assert top in sys.stdlib_module_names or allowed, (module.name, name)


@pytest.mark.parametrize(("condition", "opp"), [
    ("overpower", 1), ("crush", 3), ("shackle", 5), ("paralyze", 3), ("blunt", 2),
    ("forced_surrender", 1), ("voluntary_surrender", 1),
])
def test_a_victory_gives_the_victor_the_condition_s_opp_and_the_loser_nothing(condition, opp):  # R21
    assert opp_awards(victory("7", "12", condition)) == {"7": opp, "12": 0}
    assert opp_awards(victory("12", "7", condition)) == {"12": opp, "7": 0}


def test_the_table_covers_exactly_the_victory_conditions():
    assert set(OPP_FOR_CONDITION) == set(VICTORY_CONDITIONS)


def test_a_stalemate_costs_both_generals_one():  # R21
    assert opp_awards(BattleResult("1", "2", Outcome(Kind.STALEMATE))) == {"1": -1, "2": -1}


def test_a_resolve_costs_both_generals_ten():  # R21
    assert opp_awards(BattleResult("1", "2", Outcome(Kind.RESOLVE))) == {"1": -10, "2": -10}


def test_a_forfeit_gives_the_opponent_one_by_default():  # R22
    result = BattleResult("1", "2", Outcome(Kind.FORFEIT, winner="1", forfeited_by="2"))
    assert opp_awards(result) == {"1": 1, "2": 0}
    assert ForfeitAward() == DEFAULT_FORFEIT_AWARD == ForfeitAward(opp=1, counts_as_victory=True)


def test_a_forfeit_gives_the_event_s_own_award():  # R22: the organizer may set another award
    result = BattleResult("1", "2", Outcome(Kind.FORFEIT, winner="2", forfeited_by="1"))
    assert opp_awards(result, ForfeitAward(opp=3, counts_as_victory=False)) == {"1": 0, "2": 3}


def test_a_battle_unplayed_because_of_a_disqualification_gives_the_opponent_one():  # R23
    result = BattleResult("1", "2", Outcome(Kind.UNPLAYED_DQ, disqualified="1"))
    assert opp_awards(result) == {"1": 0, "2": 1}


@pytest.mark.parametrize("outcome", [
    Outcome(Kind.VICTORY, winner="1", condition="shackle"), Outcome(Kind.STALEMATE), Outcome(Kind.RESOLVE),
    Outcome(Kind.FORFEIT, winner="1", forfeited_by="2"), Outcome(Kind.UNPLAYED_DQ, disqualified="2"),
])
def test_playoff_battles_give_no_opp(outcome):  # R24
    assert opp_awards(BattleResult("1", "2", outcome, playoff=True)) == {"1": 0, "2": 0}


def test_a_battle_not_decided_yet_gives_no_opp():
    assert opp_awards(BattleResult("1", "2")) == {"1": 0, "2": 0}


def test_kind_accepts_its_stored_strings():
    assert Outcome("stalemate").kind is Kind.STALEMATE
    assert Kind.UNPLAYED_DQ == "unplayed_dq"


@pytest.mark.parametrize(("kwargs", "field", "words"), [
    ({"kind": "draw"}, "kind", "'draw' is not a battle outcome"),
    ({"kind": Kind.VICTORY, "condition": "shackle"}, "winner", "A victory needs the general who won"),
    ({"kind": Kind.VICTORY, "winner": "1"}, "condition", "A victory needs the victory condition"),
    ({"kind": Kind.VICTORY, "winner": "1", "condition": "luck"}, "condition", "'luck' is not a victory condition"),
    ({"kind": Kind.STALEMATE, "winner": "1"}, "winner", "A Stalemate has no general who won"),
    ({"kind": Kind.RESOLVE, "condition": "crush"}, "condition", "A Resolve has no victory condition"),
    ({"kind": Kind.FORFEIT, "winner": "1"}, "forfeited_by", "A forfeit needs the general who forfeited"),
    ({"kind": Kind.FORFEIT, "winner": "1", "forfeited_by": "1"}, "winner", "cannot also be the one awarded"),
    ({"kind": Kind.UNPLAYED_DQ}, "disqualified", "needs the disqualified general"),
    ({"kind": Kind.UNPLAYED_DQ, "disqualified": "1", "winner": "2"}, "winner", "has no general who won"),
])
def test_an_inconsistent_outcome_is_refused_with_a_sentence(kwargs, field, words):
    with pytest.raises(DomainError) as refused:
        Outcome(**kwargs)
    assert words in str(refused.value)
    assert str(refused.value).endswith(".")
    assert refused.value.field == field


def test_a_result_must_name_its_own_generals():
    with pytest.raises(DomainError, match="two different generals"):
        BattleResult("1", "1")
    with pytest.raises(DomainError, match="General 9 is named as the general who won .* did not take part"):
        BattleResult("1", "2", Outcome(Kind.VICTORY, winner="9", condition="crush"))
    with pytest.raises(DomainError, match="General 9 is named as the disqualified general"):
        BattleResult("1", "2", Outcome(Kind.UNPLAYED_DQ, disqualified="9"))


def test_conflict_is_a_domain_error_with_a_field():
    error = Conflict("Rules variants cannot change after the event starts.", field="variants")
    assert isinstance(error, DomainError)
    assert error.field == "variants"
    assert DomainError("No field.").field is None
