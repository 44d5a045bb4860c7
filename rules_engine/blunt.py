"""R13: whether a general can take an aggressive action on their coming turn, the question of Blunt: the
first such action as the sentence a rejected claim shows (`aggressive_action`), or only whether there
is one, found faster (`has_aggressive_action`, for the checks at every turn end)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .aggressive import (
    after_sacrifice_fire,
    aggressive_at_hand,
    counter_attack_due,
    extrication_zone,
    maneuverable,
    single_order_aggressive,
)
from .two_orders import two_order_aggressive

if TYPE_CHECKING:
    from .state import BattleState


def aggressive_action(state: BattleState, player: int) -> str | None:
    """R13: one aggressive action `player` could take on their coming turn, the battlefield
    standing as it is now, as a sentence; None when there is none. The first one in a fixed
    order (counter attacks, extrication, then each battalion in army order, cheapest first), so
    that the sentence a rejected claim shows is always the same."""
    names = state.board.names
    ids = state.ids
    due = counter_attack_due(state, player)
    if due is not None:
        zone, position = due
        stack = state.stacks[zone]
        return f"{ids[stack[position]]} will counter attack {ids[stack[-1]]} at {names[zone]}"
    state = after_sacrifice_fire(state, player)  # R55: the fire burns before any order
    onto = extrication_zone(state, player)  # (not `zone`: an int above, never None, for mypyc)
    if onto is not None:
        return f"{ids[state.prisons[1 - player][0]]} can be extricated to {names[onto]}"
    found = single_order_aggressive(state, player)
    if found is not None:
        return found
    if state.ruleset.orders_in_turn(state.turns_played + 1) > 1:
        return two_order_aggressive(state, player)
    return None


def has_aggressive_action(state: BattleState, player: int) -> bool:
    """`aggressive_action(state, player) is not None`, found faster: the same actions, in any
    order. The Maneuver searches of all the battalions advance side by side, one MA spent at a
    time, and stop at the first attack, rout or destroy any of them meets: most turn ends have
    one within an MA or two of where some battalion stands, so few searches ever run far."""
    if counter_attack_due(state, player) is not None:
        return True
    state = after_sacrifice_fire(state, player)  # R55: the fire burns before any order
    if extrication_zone(state, player) is not None:
        return True
    hidden, candidates = maneuverable(state, player)
    for battalion, ma in candidates:
        if aggressive_at_hand(state, battalion, ma, hidden):
            return True
    searches = [state.explore(battalion, ma, hidden, positions=False, builds=False, pause_each_ma=True)
                for battalion, ma in candidates]
    while searches:
        going_on = []
        for search in searches:
            for event in search:
                if event.kind != "spent":
                    return True  # an attack, a rout or a destroy (builds are not reported)
                going_on.append(search)  # paused after one more MA: its turn again next round
                break
        searches = going_on
    ruleset = state.ruleset
    if ruleset.has_arts:
        for battalion, ma in candidates:
            if ruleset.art_aggressive(state, battalion, ma, hidden) is not None:
                return True
    if ruleset.orders_in_turn(state.turns_played + 1) > 1:  # R103
        return two_order_aggressive(state, player) is not None
    return False
