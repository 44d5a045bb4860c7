"""Victory conditions and their OPP (R21): the engine's table (rules_engine.conditions, which its
verdicts use) and the organized-play domain's (tournaments.domain.opp, from which the SQL tallies are
built) are held equal here. The domain keeps its own copy because it imports only the standard library
(tests/tournaments/domain checks that), so this test is what keeps the two from drifting apart."""
from pathlib import Path

import pytest

from rules_engine import adjudicate
from rules_engine.conditions import RESOLVE_OPP, STALEMATE_OPP, VICTORY_OPP, Condition, opp_for
from tournaments.domain import opp as domain_opp
from tournaments.domain.outcomes import VICTORY_CONDITIONS, BattleResult, Kind, Outcome

CORPUS = Path(__file__).parent / "corpus"
R21 = {"overpower": 1, "crush": 3, "shackle": 5, "paralyze": 3, "blunt": 2, "forced_surrender": 1,
       "voluntary_surrender": 1}


def test_the_table_is_r21():
    assert {str(condition): opp for condition, opp in VICTORY_OPP.items()} == R21
    assert (STALEMATE_OPP, RESOLVE_OPP) == (-1, -10)


def test_the_standings_use_the_engines_table():
    assert domain_opp.OPP_FOR_CONDITION == R21
    assert (domain_opp.STALEMATE_OPP, domain_opp.RESOLVE_OPP) == (STALEMATE_OPP, RESOLVE_OPP)
    assert set(VICTORY_CONDITIONS) == {str(condition) for condition in Condition}


@pytest.mark.parametrize("condition", list(Condition))
def test_a_victory_gives_the_same_opp_in_a_verdict_and_in_the_standings(condition):
    verdict_opp = opp_for("victory", "p2", str(condition))
    result = BattleResult("17", "23", Outcome(Kind.VICTORY, winner="23", condition=str(condition)))
    assert domain_opp.opp_awards(result) == {"17": verdict_opp["p1"], "23": verdict_opp["p2"]}


def test_a_stalemate_verdict_gives_what_the_standings_count():
    verdict = adjudicate((CORPUS / "example-stalemate.json").read_bytes())
    result = BattleResult("17", "23", Outcome(Kind.STALEMATE))
    assert verdict.opp == {"p1": domain_opp.opp_awards(result)["17"], "p2": domain_opp.opp_awards(result)["23"]}
