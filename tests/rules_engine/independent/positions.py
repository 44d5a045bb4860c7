"""Legal small-board positions for the oracle: random legal games of the engine's own generator
(`rules_engine.generate_game`, every step accepted by the engine), cut at a turn end near the end
of the game, where few battalions, stacks, ramparts, Stun and Sacrifice tokens are common.

A position is `(replay, turns, state)`: the replay dict (its `turns` are all the game's turns),
the turn end it is judged at, and the battle as it stands there.
"""
from __future__ import annotations

import contextlib

from hypothesis import assume
from hypothesis import strategies as st

from rules_engine import generate_game
from tests.rules_engine.variants.builders import MOVE, game, maneuver, turn

from . import engine_adapter as engine

BOARD_SIZES = (4, 5)
VARIANT_SETS = (
    (),
    ("battle_arts",),
    ("double_time",),
    ("battle_arts", "double_time"),
    ("terrain",),
    ("battle_arts", "terrain"),
    ("army_recruiting",),
    ("army_recruiting", "battle_arts", "double_time", "terrain"),
)


def _faces_only(order: dict) -> bool:
    return order["type"] == "maneuver" and bool(order["actions"]) and all(
        action["act"] == "face" for action in order["actions"])


def without_face_only_beneficiaries(replay: dict) -> dict:
    """R113: the same game with `sacrifice_beneficiary` left out of every turn whose orders are all
    Maneuvers of `face` actions alone (each a Stall for R2: the 8 MA lapse, no beneficiary is needed).
    The generator always writes one; the engine must read the game either way, to the same battle."""
    turns = []
    for written in replay["turns"]:
        if "sacrifice_beneficiary" in written and all(_faces_only(order) for order in written["orders"]):
            written = {key: value for key, value in written.items() if key != "sacrifice_beneficiary"}
        turns.append(written)
    return {**replay, "turns": turns}


@st.composite
def positions(draw, variant_sets=VARIANT_SETS, board_sizes=BOARD_SIZES):
    size = draw(st.sampled_from(board_sizes), label="board")
    variants = draw(st.sampled_from(variant_sets), label="variants")
    seed = draw(st.integers(0, 2**31 - 1), label="seed")
    max_turns = draw(st.integers(8, 120), label="max_turns")
    game = generate_game(seed, width=size, height=size, max_turns=max_turns, claim_chance=0.0, variants=variants)
    if draw(st.booleans(), label="R113: no beneficiary for a face-only Maneuver"):
        game = without_face_only_beneficiaries(game)
    played = len(game["turns"])
    assume(played >= 1)
    # Mostly the last turns of the game, where Paralyze and Blunt can hold.
    turns = draw(st.integers(max(1, played - 8), played), label="turn end")
    state = engine.state_after(game, turns)
    assume(not engine.is_over(state))  # a Forced Surrender ended it: nothing to declare
    return game, turns, state


# ---- Mixed stacks and Sacrifices (R113, R115) ---------------------------------------------------
# The generator seldom leaves an enemy battalion between two of a general's own ones with the upper one
# marked for Sacrifice. These positions start from one: p1 stacks three battalions on a row-1 zone, p2's
# battalion attacks the stack down its file and the top one's counter attack leaves it above that
# attacker; then a few turns of Sacrifices, Stalls, Lightens, face-only Maneuvers (with and without a
# beneficiary, R113) and moves, each accepted by the engine. Terrain (chasm) freezes parts of the board
# at random, so that Paralyze and Blunt can hold.
ARMY = ("A1", "A2", "A3", "A4", "A5", "A6")
FOES = ("B1", "B2", "B3", "B4", "B5", "B6")


def _placements(draw, size: int, column: int) -> tuple[dict, dict, str, str]:
    """p1's three-battalion stack on `column` (its top one survives the attack and its counter attack
    leaves the attacker alive beneath it: Arms k < top < 2k), the other three on one zone or spread
    over row 1; p2's attacker of Arms k straight ahead on the top row, the others elsewhere."""
    pairs = [(k, top) for k in range(1, 8 - size + 1) for top in range(k + 1, min(2 * k, 7))]
    k, top = draw(st.sampled_from(pairs), label="attacker and top Arms")
    attacker, top_id = f"B{k}", f"A{top}"
    rest = draw(st.permutations([ident for ident in ARMY if ident != top_id]), label="p1 order")
    stack, others = [*rest[:2], top_id], rest[2:]
    columns = [c for c in range(size) if c != column]
    p1 = {ident: f"{chr(97 + column)}1" for ident in stack}
    together = draw(st.booleans(), label="the other three stacked")
    home = draw(st.sampled_from([c for c in columns if abs(c - column) > 1] if together else columns),
                label="their column")
    for ident in others:
        where = home if together else draw(st.sampled_from(columns), label=f"{ident} column")
        p1[ident] = f"{chr(97 + where)}1"
    p2 = {attacker: f"{chr(97 + column)}{size}:S"}
    for ident in FOES:
        if ident != attacker:
            p2[ident] = f"{chr(97 + draw(st.sampled_from(columns), label=f'{ident} column'))}{size}"
    return p1, p2, attacker, top_id


def _chasms(draw, size: int, column: int, p1: dict, p2: dict) -> dict:
    """Chasm on free zones at random; often all round the zone of p1's other three when they stand
    together, so that p1's army can be paralyzed but for the stack."""
    taken = {where.partition(":")[0] for where in (*p1.values(), *p2.values())}
    density = draw(st.sampled_from((20, 35, 50, 65)), label="chasm density")
    terrain = {}
    homes = {where for ident, where in p1.items() if where != f"{chr(97 + column)}1"}
    if len(homes) == 1 and draw(st.sampled_from((True, True, True, False)), label="their zone walled in"):
        home = ord(homes.pop()[0]) - 97
        for zone in (f"{chr(97 + home - 1)}1", f"{chr(97 + home + 1)}1", f"{chr(97 + home)}2"):
            if zone not in taken and 0 <= ord(zone[0]) - 97 < size:
                terrain[zone] = "chasm"
    for c in range(size):
        for row in range(1, size + 1):
            zone = f"{chr(97 + c)}{row}"
            if zone in taken or zone in terrain or (c == column and 1 < row < size):
                continue  # the attacker's way down stays open
            if draw(st.integers(0, 99), label=f"{zone} chasm") < density:
                terrain[zone] = "chasm"
    return terrain


def _turn_choices(state, by: str) -> list[dict]:
    """Candidate turns for `by` (the engine decides which are legal): orders of its battalions top-most
    once the turn's steps 1-4 are done (a counter attack puts one on top)."""
    with contextlib.suppress(engine.Refused):
        state = engine.start_turn(state)[0]
    tops = [ident for ident in engine.battalion_ids(state, by)
            if engine.view(state, ident).place == "battlefield" and engine.stack(state, engine.view(state, ident).zone)[-1] == ident]
    choices: list[dict] = [{"orders": [{"type": "stall"}]}]
    for ident in tops:
        view = engine.view(state, ident)
        choices.append({"orders": [{"type": "sacrifice", "battalion": ident}]})
        choices += [{"orders": [{"type": "lighten", "battalion": ident, "arms": arms}]} for arms in range(1, view.arms)]
        for facing in engine.FACINGS:
            if facing != view.facing:
                turning = {"type": "maneuver", "battalion": ident, "actions": [{"act": "face", "to": facing}]}
                choices += [{"orders": [turning]}, {"orders": [turning], "sacrifice_beneficiary": ident}]
                choices.append({"orders": [{"type": "stall", "battalion": ident, "facing": facing}]})
        moving = {"type": "maneuver", "battalion": ident, "actions": [{"act": "move"}]}
        choices += [{"orders": [moving]}, {"orders": [moving], "sacrifice_beneficiary": ident}]
    return choices


@st.composite
def mixed_stack_positions(draw, board_sizes=BOARD_SIZES):
    size = draw(st.sampled_from(board_sizes), label="board")
    column = draw(st.integers(0, size - 1), label="stack column")
    p1, p2, attacker, top = _placements(draw, size, column)
    variants = ("terrain",) if draw(st.sampled_from((True, True, True, False)), label="terrain") else ()
    terrain = _chasms(draw, size, column, p1, p2) if variants else None
    doc = game(variants, [turn("p2", maneuver(attacker, *[MOVE] * (size - 1)))], width=size, height=size,
               first="p2", p1=p1, p2=p2, terrain=terrain or None)
    state = engine.state_after(doc, 0)
    for number in range(1 + draw(st.integers(1, 5), label="turns")):
        if engine.is_over(state):
            break
        if number == 0:
            written = doc["turns"][0]
        else:
            by = engine.to_move(state)
            legal = []
            for choice in _turn_choices(state, by):
                trial = engine.copy(state)
                try:
                    engine.play_turn(trial, {"by": by, **choice})
                except engine.Refused:
                    continue
                legal.append({"by": by, **choice})
            sacrifice_top = {"by": by, "orders": [{"type": "sacrifice", "battalion": top}]}
            if number == 1 and sacrifice_top in legal and draw(st.sampled_from((True, True, True, False)), label="the top sacrificed"):
                written = sacrifice_top  # the board: the top marked for Sacrifice over the attacker
            else:
                written = draw(st.sampled_from(legal), label=f"turn {number + 1}")
            doc["turns"].append(written)
        work = engine.copy(state)
        engine.play_turn(work, written)
        state = work
    played = len(doc["turns"])
    early = played >= 2 and draw(st.sampled_from((True, True, False)), label="judged right after p1's first turn")
    turns = 2 if early else draw(st.integers(1, played), label="turn end")
    state = engine.state_after(doc, turns)
    assume(not engine.is_over(state))
    return doc, turns, state


def describe(state) -> str:
    """The position in a few lines, for failure messages."""
    lines = [f"{engine.width_height(state)} variants={engine.variants(state)} next={engine.to_move(state)}"]
    for ident in engine.battalion_ids(state):
        view = engine.view(state, ident)
        if view.place != "graveyard":
            lines.append(f"  {ident} {view.general} arms={view.arms} {view.facing} {view.place} {view.zone} "
                         f"{' '.join(view.tokens)}")
    for zone in engine.zone_names(state):
        if engine.stack(state, zone) or engine.ramparts(state, zone) or engine.terrain(state, zone):
            lines.append(f"  {zone}: stack={engine.stack(state, zone)} ramparts={engine.ramparts(state, zone)} "
                         f"terrain={engine.terrain(state, zone)}")
    return "\n".join(lines)
