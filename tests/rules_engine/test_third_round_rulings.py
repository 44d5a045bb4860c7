"""The shared rulings R113, R114 and R115, each on the kind of battle that showed the engine judging it
wrongly (R113, R115) or that pins what R105 already gave (R114); and R15/R38's threshold of exactly six
calm turns."""
import pytest

from rules_engine import adjudicate, replay_states

from .variants.builders import MOVE, Case, battalion_is, face, game, maneuver, stall, turn

SACRIFICE_A6 = {"type": "sacrifice", "battalion": "A6"}


def after_a6_sacrifice(last_turn: dict, *later: dict, variants=(), result=None) -> dict:
    """p1 marks A6 for Sacrifice, p2 moves, and p1's `last_turn` opens with the sacrifice completing."""
    first = [turn("p1", SACRIFICE_A6), turn("p2", maneuver("B1", MOVE)), last_turn, *later]
    if "double_time" in variants:  # the first turn has one order, every later one two
        first = [turn("p1", SACRIFICE_A6), turn("p2", maneuver("B1", MOVE), maneuver("B2", MOVE)), last_turn, *later]
    return game(variants, first, result)


CASES = [
    # ---- R113: a face-only Maneuver after a Sacrifice is a Stall for R2 as well ----
    Case("r113-face-only-needs-no-beneficiary", "R113: the sacrifice completes and A1 only turns: a Stall, the 8 MA "
         "lapse and no sacrifice_beneficiary is needed",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E")))),
         after=battalion_is("A1", facing="E", place="battlefield")),
    Case("r113-written-beneficiary-may-name-another", "R113, R43: a beneficiary that is written names any of p1's "
         "battalions on the battlefield; the benefit lapses",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E")), sacrifice_beneficiary="A2")),
         after=battalion_is("A1", facing="E")),
    Case("r113-written-beneficiary-must-be-own", "R113: a written beneficiary must still name one of p1's "
         "battalions on the battlefield (the turn's own problem)",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E")), sacrifice_beneficiary="B2")),
         error=("bad_sacrifice_beneficiary", 3, None, None)),
    Case("r113-error-at-the-face-action", "R113: an error in such a turn is located at its first illegal face "
         "action, not at the missing beneficiary",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E"), face("E")))),
         error=("facing_unchanged", 3, 1, 2)),
    Case("r113-is-a-stall-for-r5", "R113, R5: the face-only Maneuver is the first of two Stalls in a row",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E"))), turn("p2", maneuver("B2", MOVE)),
                            turn("p1", stall()), result={"type": "surrender", "by": "p1"}),
         expect={"outcome": "victory", "winner": "p2", "condition": "forced_surrender"}),
    Case("r113-a-move-still-needs-the-beneficiary", "R2, R43: a Maneuver with any other action still needs the "
         "beneficiary", after_a6_sacrifice(turn("p1", maneuver("A1", face("E"), MOVE))),
         error=("bad_sacrifice_beneficiary", 3, None, None)),
    Case("r113-double-time-faces-only", "R113, R51: under Double Time two face-only Maneuvers need no beneficiary",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E")), maneuver("A2", face("W"))),
                            variants=("double_time",)),
         after=battalion_is("A2", facing="W")),
    Case("r113-double-time-the-benefit-goes-to-the-mover", "R113, R51: with a face-only Maneuver and a real one, "
         "the beneficiary must be the one that really maneuvers",
         after_a6_sacrifice(turn("p1", maneuver("A1", face("E")), maneuver("A2", MOVE), sacrifice_beneficiary="A1"),
                            variants=("double_time",)),
         error=("bad_sacrifice_beneficiary", 3, None, None)),
    # ---- R114 (R105): an order too many on Double Time's very first turn ----
    Case("r114-second-order-on-the-first-turn", "R114: the second order of the very first Battle turn under Double "
         "Time is reported at that order",
         game(("double_time",), [turn("p1", maneuver("A1", MOVE), maneuver("A2", MOVE))]),
         error=("wrong_order_count", 1, 2, None)),
    Case("r114-second-order-when-p2-opens", "R114: the same when Player-2 takes the first Battle turn",
         game(("double_time",), [turn("p2", maneuver("B1", MOVE), stall())], first="p2"),
         error=("wrong_order_count", 1, 2, None)),
    Case("r114-first-order-judged-first", "R114, R45: an illegal first order is still reported before the order "
         "too many", game(("double_time",), [turn("p1", maneuver("A1", face("N")), maneuver("A2", MOVE))]),
         error=("facing_unchanged", 1, 1, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_third_round_ruling(case):
    case.run()


# ---- R115: a covered battalion's way out, and Paralyze ----
R115_TERRAIN = {"a2": "chasm", "b1": "chasm"}  # p1's a1 stack is walled in: the rest frozen


def r115_board(*later: dict, result: dict | None = None) -> dict:
    """The issue's 4x4 board. p1's A6, A2, A1 stand walled in on a1; c1 holds A5, A4, A3. p2's B2 attacks
    down the c file (A3: Arms 3 -> 1) and A3's counter attack leaves it on B2 (Arms 2 -> 1); p1 marks
    A3 for Sacrifice. c1 then holds, bottom to top, p1's Arms 5, its Arms 4, p2's Arms 1 and p1's Arms 1
    marked for Sacrifice; d1 and c2 are empty."""
    return game(("terrain",), [turn("p2", maneuver("B2", MOVE, MOVE, MOVE)),
                               turn("p1", {"type": "sacrifice", "battalion": "A3"}), *later],
                result, width=4, height=4, first="p2", terrain=R115_TERRAIN,
                p1={"A6": "a1", "A2": "a1", "A1": "a1", "A5": "c1", "A4": "c1", "A3": "c1"},
                p2={"B1": "a4", "B3": "b4", "B2": "c4", "B4": "d4", "B5": "d4", "B6": "d4"})


def test_r115_the_board_is_the_issue_s():
    state = list(replay_states(r115_board()))[-1].state
    assert state.stack_at("c1") == ("A5", "A4", "B2", "A3")
    assert [state.battalion(i).arms for i in state.stack_at("c1")] == [5, 4, 1, 1]
    assert state.battalion("A3").tokens == ("sacrifice",)
    assert state.stack_at("d1") == () and state.stack_at("c2") == ()


def test_r115_blunt_is_awarded_not_paralyze():
    """R115, R10: p1 is blunted (no counter attack is due while A3 stands above B2, and nothing else of p1's
    can act), but not paralyzed: once A3's sacrifice completes, A4 counter attacks B2 at p1's next step 1
    and then turns towards d1 or c2. The Blunt claim is accepted and Blunt awarded (2 OPP), not Paralyze."""
    verdict = adjudicate(r115_board(result={"type": "claim", "by": "p2", "condition": "blunt"})).to_dict()
    assert verdict["claim"] == {"by": "p2", "condition": "blunt", "accepted": True}
    assert (verdict["outcome"], verdict["winner"], verdict["condition"]) == ("victory", "p2", "blunt")
    assert verdict["opp"] == {"p1": 0, "p2": 2}


def test_r115_a_paralyze_claim_on_the_board_is_rejected():
    verdict = adjudicate(r115_board(result={"type": "claim", "by": "p2", "condition": "paralyze"})).to_dict()
    assert verdict["outcome"] == "unfinished"
    assert verdict["claim"] == {"by": "p2", "condition": "paralyze", "accepted": False,
                                "reason": "p1 is not paralyzed: A4 can still move out of c1."}


def test_r115_no_missed_paralyze_is_listed():
    """R115, R39: at the end of turn 2 p2 could have declared Blunt, never Paralyze."""
    verdict = adjudicate(r115_board(turn("p2", maneuver("B1", MOVE)))).to_dict()
    assert {"after_turn": 2, "by": "p2", "condition": "blunt"} in verdict["missed"]
    assert not [missed for missed in verdict["missed"] if missed["condition"] == "paralyze"]


# ---- R15, R38: Resolve after exactly six calm turns ----
def resolve_after(calm_turns: int) -> dict:
    """A1 slaughters B1 on a4 in turn 1 (an attack); then `calm_turns` turns of plain moves, and both
    generals declare Resolve."""
    calm = [turn("p2", maneuver("B6", MOVE)), turn("p1", maneuver("A2", MOVE)), turn("p2", maneuver("B5", MOVE)),
            turn("p1", maneuver("A3", MOVE)), turn("p2", maneuver("B4", MOVE)), turn("p1", maneuver("A4", MOVE)),
            turn("p2", maneuver("B3", MOVE))]
    return game((), [turn("p1", maneuver("A1", MOVE, MOVE, MOVE)), *calm[:calm_turns]], {"type": "resolve"},
                p2={"B1": "a4"})


def test_r15_resolve_after_exactly_six_calm_turns_is_accepted():
    verdict = adjudicate(resolve_after(6)).to_dict()
    assert verdict["valid"], verdict
    assert (verdict["turns"], verdict["outcome"], verdict["declaration"]) == (7, "resolve", None)
    assert verdict["opp"] == {"p1": -10, "p2": -10}


def test_r15_resolve_after_five_calm_turns_is_rejected():
    verdict = adjudicate(resolve_after(5)).to_dict()
    assert verdict["outcome"] == "unfinished"
    assert verdict["declaration"]["accepted"] is False
    assert verdict["declaration"]["reason"].endswith("turn 1 had one.")
