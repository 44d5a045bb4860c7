"""A bounded worst case (issue 22, item 5; R99): the hand-built logs whose turn ends cost the victory checks
the most (`rules_engine.generator.worst_case_game`) are adjudicated within a small share of the search
budget, and a log that stacks such turn ends up is refused, at the turn whose end ran the budget out, with
the documented error, never cut by a clock. The R103 search that makes this possible plays a rampart-raising
art (Flourish, Overgrow) only where a rampart can open something, and it still finds those places."""
import json

import pytest

from rules_engine import adjudicate, generate_game, replay_states, two_orders
from rules_engine import verdict as verdict_module
from rules_engine.errors import ERROR_CODES
from rules_engine.generator import worst_case_game

from .variants.builders import MOVE, game, maneuver, turn


def compact(doc: dict) -> str:
    return json.dumps(doc, separators=(",", ":"))


@pytest.mark.parametrize("kind, ma_by_arms", [("flourish", None), ("flourish", (8, 8, 8, 8, 8, 1)),
                                              ("quiet", None), ("quiet", (8, 8, 8, 8, 8, 1))])
def test_the_two_turn_worst_cases_are_adjudicated_within_half_the_budget(monkeypatch, kind, ma_by_arms):
    """Each turn end tries every Arms-6 battalion's Flourish on the 26 x 26 battlefield: before the R103
    search learned where a rampart can open something, the first log alone took about 19 million search steps."""
    monkeypatch.setattr(verdict_module, "SEARCH_STEP_LIMIT", verdict_module.SEARCH_STEP_LIMIT // 2)
    verdict = adjudicate(compact(worst_case_game(kind, ma_by_arms=ma_by_arms))).to_dict()
    assert verdict["valid"], verdict
    assert verdict["claim"] == {"by": "p1", "condition": "blunt", "accepted": True}
    assert verdict["missed"] == [{"after_turn": 1, "by": "p1", "condition": "blunt"},
                                 {"after_turn": 1, "by": "p2", "condition": "blunt"}]


def test_the_stretched_worst_case_is_refused_at_the_turn_that_ran_the_budget_out():
    text = compact(worst_case_game("flourish", turns=5000))
    assert 900_000 < len(text) < 1024 * 1024  # within the document limit, as a hostile report would be
    error = adjudicate(text).to_dict()["error"]
    assert error["code"] == "search_budget_exceeded" and error["code"] in ERROR_CODES
    assert error["order"] is None and error["action"] is None
    assert 1 < error["turn"] < 5000
    assert f"end of turn {error['turn']}" in error["message"] and "(R99)" in error["message"]
    # The same count on every machine: the same turn every time.
    assert adjudicate(text).to_dict()["error"] == error


def test_the_turns_before_the_refusal_were_each_adjudicated():
    """The budget is the whole replay's: the log cut just before the refused turn is adjudicated."""
    doc = worst_case_game("quiet", turns=5000)
    turn_number = adjudicate(compact(doc)).to_dict()["error"]["turn"]
    doc["turns"] = doc["turns"][:turn_number - 1]
    assert adjudicate(compact(doc)).valid


@pytest.mark.parametrize("variants, seed", [(("battle_arts", "army_recruiting", "double_time"), 9),
                                            (("battle_arts", "army_recruiting", "terrain", "double_time"), 2),
                                            (("battle_arts", "army_recruiting", "terrain", "double_time"), 0)])
def test_ordinary_battles_stay_far_below_the_budget(monkeypatch, variants, seed):
    """The pinned generated battles that search the most spend less than a fortieth of the budget."""
    doc = generate_game(seed, max_turns=120, variants=variants)
    expected = adjudicate(compact(doc)).to_dict()
    monkeypatch.setattr(verdict_module, "SEARCH_STEP_LIMIT", verdict_module.SEARCH_STEP_LIMIT // 40)
    assert adjudicate(compact(doc)).to_dict() == expected


def flourish_opens_a_destroy() -> dict:
    """p2 (Timber) cannot act aggressively with one order: B4 (Flaym, Arms 4, 3 MA) in the corner g13 is hemmed
    in by marsh, where no Flaym rampart may stand (R63's Natural Architect lets Timber build there), and the
    other battalions (Sey, Arms 1) are far from p1. With two orders B6 (Timber, Arms 6) raises a rampart by
    Flourish on the marsh B4 faces, and B4 destroys it (R103)."""
    armies = {"p1": [{"id": f"A{arms}", "arms": arms} for arms in range(1, 7)],
              "p2": [{"id": "B1", "arms": 1}, {"id": "B2", "arms": 1}, {"id": "B3", "arms": 1},
                     {"id": "B4", "arms": 4}, {"id": "B5", "arms": 1}, {"id": "B6", "arms": 6, "kingdom": "timber"}]}
    for spec in armies["p2"][:5]:
        spec["kingdom"] = "flaym" if spec["id"] == "B4" else "sey"
    return game(("battle_arts", "army_recruiting", "terrain", "double_time"), [turn("p1", maneuver("A5", MOVE))],
                {"type": "claim", "by": "p1", "condition": "blunt"}, width=7, height=13, armies=armies,
                kingdoms=("frost", "timber"), terrain={"f13": "marsh", "g12": "marsh"},
                p2={"B6": "a13:N", "B4": "g13:S", "B1": "c13", "B2": "d13", "B3": "e13", "B5": "d12"})


def test_a_flourish_that_opens_a_destroy_is_still_found():
    verdict = adjudicate(flourish_opens_a_destroy()).to_dict()
    assert verdict["claim"] == {"by": "p1", "condition": "blunt", "accepted": False, "reason":
                                "p2 is not blunted: B6 can use Flourish from a13, then B4 can destroy the rampart "
                                "at g12."}


def searched_both_ways(states, monkeypatch) -> list[tuple]:
    """`_two_order_aggressive` of both generals at each state, with the shortcuts and as before them: every art
    played everywhere (no art counted as one that only raises a rampart), every second battalion searched
    again after every first order (no search areas)."""
    found = []
    for state in states:
        for player in (0, 1):
            fast = two_orders._two_order_aggressive(state, player)
            with monkeypatch.context() as patched:
                patched.setattr(type(state.ruleset), "rampart_arts", lambda self, state, battalion: frozenset())
                patched.setattr(two_orders, "_search_areas", lambda state, player: {})
                slow = two_orders._two_order_aggressive(state, player)
            found.append((fast, slow))
    return found


def test_the_rampart_shortcuts_change_no_answer_of_the_r103_search(monkeypatch):
    states = [snapshot.state for snapshot in replay_states(flourish_opens_a_destroy())]
    for seed in range(6):
        doc = generate_game(seed, max_turns=40, variants=("battle_arts", "army_recruiting", "double_time"))
        states += [snapshot.state for snapshot in replay_states(doc)][1::3]
    pairs = searched_both_ways(states, monkeypatch)
    assert all(fast == slow for fast, slow in pairs)
    assert any(fast is not None and "Flourish" in fast for fast, _ in pairs)
