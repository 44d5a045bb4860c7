"""Legal small-board positions for the oracle: random legal games of the engine's own generator
(`rules_engine.generate_game`, every step accepted by the engine), cut at a turn end near the end
of the game, where few battalions, stacks, ramparts, Stun and Sacrifice tokens are common.

A position is `(replay, turns, state)`: the replay dict (its `turns` are all the game's turns),
the turn end it is judged at, and the battle as it stands there.
"""
from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from rules_engine import generate_game

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


@st.composite
def positions(draw, variant_sets=VARIANT_SETS, board_sizes=BOARD_SIZES):
    size = draw(st.sampled_from(board_sizes), label="board")
    variants = draw(st.sampled_from(variant_sets), label="variants")
    seed = draw(st.integers(0, 2**31 - 1), label="seed")
    max_turns = draw(st.integers(8, 120), label="max_turns")
    game = generate_game(seed, width=size, height=size, max_turns=max_turns, claim_chance=0.0, variants=variants)
    played = len(game["turns"])
    assume(played >= 1)
    # Mostly the last turns of the game, where Paralyze and Blunt can hold.
    turns = draw(st.integers(max(1, played - 8), played), label="turn end")
    state = engine.state_after(game, turns)
    assume(not engine.is_over(state))  # a Forced Surrender ended it: nothing to declare
    return game, turns, state


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
