"""Double Time: two orders per turn to two battalions, one on the first turn, paired deployments,
tokens on the last attacker / last routed, the moving Sacrifice token, and whole-turn Stalls."""
import pytest

from .builders import MOVE, Case, all_of, battalion_is, game, maneuver, stall, turn

DT = ("double_time",)
# p1's A1/A2 on row 2 face B1/B2 on row 4 across an empty row 3 (6 x 5 battlefield).
CLOSE = {"p1": {"A1": "a2", "A2": "b2"}, "p2": {"B1": "a4", "B2": "b4"}}


def dt_game(turns, **options):
    return game(DT, turns, **{**CLOSE, **options})


OPEN = turn("p1", maneuver("A3", MOVE))  # the first Battle turn: one order
PASS = turn("p2", stall(), stall())

CASES = [
    Case("dt-two-orders", "Double Time: one order on the first Battle turn, then two orders to two battalions",
         dt_game([OPEN, turn("p2", maneuver("B3", MOVE), maneuver("B4", MOVE))]),
         after=all_of(battalion_is("B3", zone="c4"), battalion_is("B4", zone="d4"))),
    Case("dt-first-turn-one-order", "Double Time: the first Battle turn has exactly one order",
         dt_game([turn("p1", maneuver("A3", MOVE), maneuver("A4", MOVE))]), error=("wrong_order_count", 1)),
    Case("dt-later-turn-two-orders", "Double Time: every later turn has exactly two orders",
         dt_game([OPEN, turn("p2", maneuver("B3", MOVE))]), error=("wrong_order_count", 2)),
    Case("dt-same-battalion-twice", "Double Time, R50: the two orders of a turn go to different battalions",
         dt_game([OPEN, turn("p2", maneuver("B3", MOVE), maneuver("B3", MOVE))]),
         error=("same_battalion_twice", 2, 2, None)),
    Case("dt-formation-pairs", "Double Time: two deployments per Formation turn (p1, p1, p2, p2, ...)",
         game(DT, formation_entries=game((), **CLOSE)["formation"]), error=("wrong_formation_order", 0)),
    Case("dt-vigor-on-last-attacker", "Double Time with R3: the Vigor token ends on the last battalion that "
         "attacked this turn",
         dt_game([OPEN, PASS, turn("p1", maneuver("A1", MOVE, MOVE), maneuver("A2", MOVE, MOVE))]),
         after=all_of(battalion_is("A1", zone="a4", tokens=()), battalion_is("A2", zone="b4", tokens=("vigor",)))),
    Case("dt-stun-on-last-routed", "Double Time with R3: the Stun token ends on the last battalion routed",
         dt_game([OPEN, PASS, turn("p1", maneuver("A1", MOVE, {"act": "rout", "target": "B1", "to": "a5"}),
                                   maneuver("A2", MOVE, {"act": "rout", "target": "B2", "to": "c4"}))],
                 p2={"B1": "a4", "B2": "b4", "B3": "b5"}),
         after=all_of(battalion_is("B1", zone="a5", tokens=()), battalion_is("B2", zone="c4", tokens=("stun",)))),
    Case("dt-sacrifice-token-moves", "Double Time: a second Sacrifice moves the token; only the second battalion "
         "is slaughtered, at the start of the next turn",
         dt_game([OPEN, turn("p2", {"type": "sacrifice", "battalion": "B3"}, {"type": "sacrifice", "battalion": "B4"}),
                  turn("p1", stall(), stall()), turn("p2", stall(), stall())]),
         after=all_of(battalion_is("B3", place="battlefield", tokens=()), battalion_is("B4", place="graveyard"))),
    Case("dt-sacrifice-waits-for-next-turn", "Double Time: a Sacrifice marked by the first order does not resolve "
         "before the second",
         dt_game([OPEN, turn("p2", {"type": "sacrifice", "battalion": "B3"}, maneuver("B4", MOVE))]),
         after=battalion_is("B3", place="battlefield", tokens=("sacrifice",))),
    Case("dt-beneficiary-any-maneuver", "Double Time, R51: the 8 MA go to the named beneficiary maneuvering in "
         "either order",
         dt_game([OPEN, turn("p2", {"type": "sacrifice", "battalion": "B3"}, stall()), turn("p1", stall(), stall()),
                  turn("p2", stall(), maneuver("B6", MOVE, MOVE, MOVE), sacrifice_beneficiary="B6")]),
         after=battalion_is("B6", zone="f2")),
    Case("dt-beneficiary-must-maneuver", "Double Time, R51: the beneficiary must be one of the turn's "
         "maneuvering battalions",
         dt_game([OPEN, turn("p2", {"type": "sacrifice", "battalion": "B3"}, stall()), turn("p1", stall(), stall()),
                  turn("p2", stall(), maneuver("B6", MOVE), sacrifice_beneficiary="B5")]),
         error=("bad_sacrifice_beneficiary", 4, None, None)),
    Case("dt-stall-needs-both-orders", "Double Time, R49: a turn with one Stall and one other order is no Stall",
         dt_game([OPEN, turn("p2", stall(), maneuver("B3", MOVE)), turn("p1", stall(), stall()), PASS]),
         expect={"outcome": "unfinished", "turns": 4}),
    Case("dt-two-stall-turns-surrender", "Double Time, R49 and R5: two consecutive turns of two Stalls each are a "
         "Forced Surrender", dt_game([OPEN, PASS, turn("p1", stall(), stall()), PASS], result={"type": "unfinished"}),
         error=("result_contradicts_end", None, None, None)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_double_time(case):
    case.run()
