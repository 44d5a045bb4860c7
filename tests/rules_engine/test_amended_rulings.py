"""The amended shared rulings (R4, R5, R17) and R100-R110, each on the battle that showed the engine
judging it wrongly before (Core Rules here; the variants' cases follow at the end)."""
import pytest

from rules_engine import adjudicate, load_replay

from .variants.builders import MOVE, Case, all_of, art, battalion_is, game, maneuver, stall, turn

SACRIFICE_B6 = {"type": "sacrifice", "battalion": "B6"}
PARALYZE_BY_P1 = {"type": "claim", "by": "p1", "condition": "paralyze"}
# p2's B1..B5 stand on a5, boxed in by chasm (a4, b5): they never leave, whatever they do.
BOXED = {"B1": "a5", "B2": "a5", "B3": "a5", "B4": "a5", "B5": "a5"}
BOX = {"a4": "chasm", "b4": "chasm", "b5": "chasm"}


def a6_on_b4(last_order: dict) -> dict:
    """B4 attacks A6 (e2) on turn 2; on turn 3 A6's counter attack leaves it (Arms 2) on B4 (Arms 2), and p1
    gives `last_order`."""
    return game((), [turn("p1", maneuver("A1", MOVE)), turn("p2", maneuver("B4", MOVE, MOVE)),
                     turn("p1", last_order)], p1={"A6": "e2"}, p2={"B4": "e4"})


def claim(by: str, condition: str, accepted: bool, reason: str | None = None) -> dict:
    out = {"by": by, "condition": condition, "accepted": accepted}
    if reason is not None:
        out["reason"] = reason
    return out


CASES = [
    # ---- R5: a Maneuver of face actions only is a Stall for every purpose ----
    Case("r5-turning-round-is-a-stall", "R5: Arms-6 A6 (1 MA) turns round by a Maneuver of face actions: a Stall, "
         "MA not counted", game((), [turn("p1", maneuver("A6", {"act": "face", "to": "S"}))]),
         after=battalion_is("A6", facing="S")),
    Case("r5-two-face-maneuvers-surrender", "R5: two such Maneuvers on consecutive turns are a Forced Surrender",
         game((), [turn("p1", maneuver("A6", {"act": "face", "to": "S"})), turn("p2", maneuver("B1", MOVE)),
                   turn("p1", maneuver("A6", {"act": "face", "to": "N"}))], {"type": "surrender", "by": "p1"}),
         expect={"outcome": "victory", "winner": "p2", "condition": "forced_surrender"}),
    Case("r5-faces-then-move-counts-ma", "R5: with a move after them the face actions are no Stall and their MA "
         "count (refused at the face that overspends)",
         game((), [turn("p1", maneuver("A6", {"act": "face", "to": "S"}, MOVE))]), error=("not_enough_ma", 1, 1, 1)),
    Case("r5-stacked-on-own-turns", "R5: a battalion standing on its own battalion turns by a Maneuver of face "
         "actions", game((), [turn("p1", maneuver("A2", {"act": "face", "to": "E"}))], p1={"A1": "a1", "A2": "a1"}),
         after=battalion_is("A2", facing="E")),
    # ---- R102: the battalions Paralyze judges ----
    Case("r102-marked-for-sacrifice-is-gone", "R102: B6, the only p2 battalion that could move, is marked for "
         "Sacrifice and counts as gone: p2 is paralyzed",
         game(("terrain",), [turn("p2", SACRIFICE_B6), turn("p1", maneuver("A1", MOVE))], PARALYZE_BY_P1,
              first="p2", terrain=BOX, p2={**BOXED, "B6": "e5"}),
         expect={"claim": claim("p1", "paralyze", True), "winner": "p1", "condition": "paralyze"}),
    Case("r102-covered-by-an-enemy", "R102, R26: B6, covered by A4, counter attacks it, stays on it facing N (the "
         "edge) and cannot re-face: p2 is paralyzed",
         game(("terrain",), [turn("p1", maneuver("A4", MOVE, MOVE, MOVE))], PARALYZE_BY_P1,
              terrain=BOX, p1={"A4": "e2"}, p2={**BOXED, "B6": "e5:N"}),
         expect={"claim": claim("p1", "paralyze", True), "winner": "p1", "condition": "paralyze"}),
    Case("r102-covered-by-an-enemy-that-falls", "R102, R8: when the counter attack slaughters the enemy above, the "
         "battalion stands free and may turn: not paralyzed",
         game(("terrain",), [turn("p1", maneuver("A1", MOVE, MOVE, MOVE))], PARALYZE_BY_P1,
              terrain=BOX, p1={"A1": "e2"}, p2={**BOXED, "B6": "e5:N"}),
         expect={"claim": claim("p1", "paralyze", False, "p2 is not paralyzed: B6 can still move out of e5.")}),
    # ---- R101 (replaces R33): a Lighten on an enemy keeps the facing ----
    Case("r101-lighten-on-enemy-keeps-facing", "R101: A6 on B4 may not turn by a Lighten",
         a6_on_b4({"type": "lighten", "battalion": "A6", "arms": 1, "facing": "S"}),
         error=("stacked_on_enemy", 3, 1, None)),
    Case("r101-lighten-on-enemy-may-restate-facing", "R101: its present facing may be written",
         a6_on_b4({"type": "lighten", "battalion": "A6", "arms": 1, "facing": "N"}),
         after=battalion_is("A6", arms=1, facing="N")),
    # ---- R104 (replaces R46): no victory before the Battle ----
    Case("r104-deadlock-without-battle-turns", "R104: a declaration in a log with no Battle turn is rejected",
         game((), [], {"type": "deadlock"}),
         expect={"outcome": "unfinished", "declaration": {
             "type": "deadlock", "accepted": False,
             "reason": "Victory conditions are checked at the end of Battle turns, and this log has none (R104)."}}),
    # ---- R105: an order too many is reported at that order ----
    Case("r105-second-order-in-core", "R105: a second order in a Core Rules turn is reported at order 2",
         game((), [turn("p1", maneuver("A1", MOVE), maneuver("A2", MOVE))]), error=("wrong_order_count", 1, 2, None)),
    Case("r105-first-order-still-judged-first", "R105, R45: an illegal first order is reported before the order "
         "too many", game((), [turn("p1", maneuver("A1", MOVE, MOVE, MOVE, MOVE, MOVE, MOVE, MOVE),
                                     maneuver("A2", MOVE))]), error=("off_board", 1, 1)),
    Case("r105-third-order-in-double-time", "R105: a third order under Double Time is reported at order 3",
         game(("double_time",), [turn("p1", maneuver("A1", MOVE)),
                                 turn("p2", maneuver("B1", MOVE), maneuver("B2", MOVE), maneuver("B3", MOVE))]),
         error=("wrong_order_count", 2, 3, None)),
    Case("r105-many-orders", "R105: of five orders in a Core Rules turn the second is the one too many",
         game((), [turn("p1", *[maneuver(f"A{n}", MOVE) for n in range(1, 6)])]),
         error=("wrong_order_count", 1, 2, None)),
    # ---- R110 (as R35): a written result after a Forced Surrender ----
    Case("r110-result-names-the-staller", "R110: the staller's own surrender may be written",
         game((), [turn("p1", stall()), turn("p2", maneuver("B1", MOVE)), turn("p1", stall())],
              {"type": "surrender", "by": "p1"}),
         expect={"outcome": "victory", "winner": "p2", "condition": "forced_surrender"}),
    Case("r110-other-result-contradicts", "R110: any other result is invalid, located as a result error",
         game((), [turn("p1", stall()), turn("p2", maneuver("B1", MOVE)), turn("p1", stall())],
              {"type": "unfinished"}), error=("result_contradicts_end", None, None, None)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_amended_ruling(case):
    case.run()


def test_r104_claim_without_battle_turns_is_rejected():
    verdict = adjudicate(game((), [], {"type": "claim", "by": "p1", "condition": "blunt"})).to_dict()
    assert verdict["outcome"] == "unfinished"
    assert verdict["claim"] == claim("p1", "blunt", False, "Victory conditions are checked at the end of Battle "
                                                           "turns, and this log has none (R104).")


def without_variants(doc: dict) -> dict:
    del doc["rules"]["variants"]
    return doc


def test_r109_a_log_without_variants_elects_none():
    doc = without_variants(game((), [turn("p1", maneuver("A1", MOVE))]))
    assert adjudicate(doc).to_dict()["valid"]
    assert load_replay(doc).to_dict() == doc  # the log is kept as written
    arts = without_variants(game((), [turn("p1", maneuver("A6", art("pounce")))]))
    assert adjudicate(arts).to_dict()["error"]["code"] == "variant_not_elected"


def test_r109_board_sides_default_to_seven():
    doc = game((), [turn("p1", maneuver("A1", MOVE))], height=7, width=7)
    doc["rules"]["board"] = {}
    replay = load_replay(doc)
    assert (replay.rules.width, replay.rules.height) == (7, 7)
    assert replay.to_dict() == doc
    assert adjudicate(doc).to_dict()["valid"]


def test_r5_stacked_on_enemy_is_no_stall_either():
    doc = a6_on_b4(maneuver("A6", {"act": "face", "to": "S"}))
    error = adjudicate(doc).to_dict()["error"]
    assert (error["code"], error["turn"], error["action"]) == ("stacked_only_move", 3, 1)


def test_r102_counter_attack_view_changes_nothing_in_the_log():
    # The Paralyze check plays the coming turn's counter attack on a copy: the battle itself is as it was.
    doc = game(("terrain",), [turn("p1", maneuver("A4", MOVE, MOVE, MOVE))], PARALYZE_BY_P1,
               terrain=BOX, p1={"A4": "e2"}, p2={**BOXED, "B6": "e5:N"})
    Case("view", "", doc, after=all_of(battalion_is("B6", arms=2, zone="e5"),
                                       battalion_is("A4", arms=4, zone="e5"))).run()
