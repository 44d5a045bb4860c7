"""R13: the aggressive actions one order of a general's coming turn could take, the battlefield standing as it
is: a counter attack due, an extrication, and each battalion's Maneuver search (`BattleState.explore`) and
battle arts. The pieces the Blunt checks (`blunt`) and the two-order search (`two_orders`) are built from.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import NOBODY
from .state import Found

if TYPE_CHECKING:
    from .state import BattleState


def counter_attack_due(state: BattleState, player: int) -> tuple[int, int] | None:
    """(zone, position in its stack) of the first counter attack due to `player` in board order: a
    stack topped by an enemy battalion with one of this general's beneath (R26); None when none."""
    zones = state.zone
    stacks = state.stacks
    owner = state.owner
    due = [zones[b] for b in state.battalions_of[player] if zones[b] >= 0 and owner[stacks[zones[b]][-1]] != player]
    if not due:
        return None
    zone = min(due)
    position = state.highest_own(zone, player)
    assert position is not None  # R26: one of the general's own is beneath (mypyc trusts the tuple's type)
    return zone, position


def extrication_zone(state: BattleState, player: int) -> int | None:
    """A home-row zone where `player` could extricate a prisoner held by the enemy, or None."""
    if not state.prisons[1 - player]:
        return None
    for zone in state.board.zones_in_row(state.board.home_rows[player]):
        if not state.stacks[zone] and state.ramparts[zone] is None and \
                state.ruleset.can_extricate_to(state, player, zone):
            return zone
    return None


NO_ONE: frozenset[int] = frozenset()


def maneuverable(state: BattleState, player: int, lifted: int = NOBODY, sacrifice_ma: bool = True,
                  exclude: int = NOBODY) -> tuple[frozenset[int], list[tuple[int, int]]]:
    """The battalions `player` could maneuver on their coming turn, the battlefield standing as it
    is now, in army order with the MA each would have (a completed sacrifice's 8 unless not
    `sacrifice_ma`); and the battalions the searches treat as absent (the one marked for Sacrifice,
    and `lifted`, the battalion a first order of the turn took elsewhere, R103). `exclude` is the
    battalion that took the turn's first order and cannot take the second (R50)."""
    # R41: the battalion marked for Sacrifice is slaughtered at step 4, before the order.
    sacrificed = state.sacrifice[player]
    if lifted == NOBODY:
        hidden = frozenset((sacrificed,)) if sacrificed != NOBODY else NO_ONE
    else:
        hidden = frozenset(b for b in (sacrificed, lifted) if b != NOBODY)
    # R13: the Stun token counts only if it is still there during that coming turn.
    stunned = state.stun if state.to_move == player else NOBODY
    ruleset = state.ruleset
    zones = state.zone
    stacks = state.stacks
    found = []
    eight = ruleset.sacrifice_ma if sacrificed != NOBODY and sacrifice_ma else 0  # R2: the 8 MA, ma_by_arms <= 8
    skipped = (sacrificed, stunned, lifted, exclude)  # NOBODY is no battalion
    ma_of_arms, arms = ruleset.ma_of_arms, state.arms
    for battalion in state.battalions_of[player]:
        where = zones[battalion]
        if where < 0 or battalion in skipped:
            continue
        stack = stacks[where]
        top = stack[-1] if not hidden else next((b for b in reversed(stack) if b not in hidden), None)
        if top != battalion:
            continue
        found.append((battalion, eight if eight else ma_of_arms[arms[battalion] - 1]))
    return hidden, found


def first_aggressive(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> Found | None:
    """The first attack, rout or destroy the Maneuver search of `battalion` meets, or None (a build
    alone is not aggressive, so the search does not report builds)."""
    event = next(state.explore(battalion, ma, hidden, positions=False, builds=False), None)
    assert event is None or isinstance(event, Found)  # no positions, no pauses asked for
    return event


def after_sacrifice_fire(state: BattleState, player: int) -> BattleState:
    """R13, R41, R55, R4 amended: the battlefield `player`'s coming turn finds after step 4, when the
    Sacrifice it completes sets a Forest fire (Vigor capping the loss); the state itself otherwise.
    The marked battalion stays marked in the view so that the searches still give its 8 MA (R2)."""
    marked = state.sacrifice[player]
    if marked == NOBODY or state.variant.terrain is None or state.zone[marked] < 0 or \
            state.variant.terrain[state.zone[marked]] != "forest":
        return state
    view = state.copy()
    if view.vigor != NOBODY and view.owner[view.vigor] == player:
        view.vigor = NOBODY  # step 3: own Vigor is reset before the sacrifice completes
    if view.complete_sacrifice(player):
        view.sacrifice[player] = marked
    return view


def single_order_aggressive(state: BattleState, player: int, lifted: int = NOBODY,
                             sacrifice_ma: bool = True, exclude: int = NOBODY) -> str | None:
    """An aggressive action of one Maneuver of `player`'s (the sentence's `then` part), `lifted`
    treated as absent and `exclude` taking no order; None when there is none."""
    names, ids = state.board.names, state.ids
    hidden, candidates = maneuverable(state, player, lifted, sacrifice_ma, exclude)
    ruleset = state.ruleset
    for battalion, ma in candidates:
        event = first_aggressive(state, battalion, ma, hidden)
        if event is not None:
            kind, zone, target = event.kind, event.zone, event.target
            if kind in ("attack", "rout"):
                assert isinstance(target, int)  # the battalion attacked or routed
                return f"{ids[battalion]} can {kind} {ids[target]} at {names[zone]}"
            if target == "built":
                return f"{ids[battalion]} can build a rampart at {names[zone]} and destroy it"
            return f"{ids[battalion]} can destroy the rampart at {names[zone]}"
        if ruleset.has_arts:
            found = ruleset.art_aggressive(state, battalion, ma, hidden)
            if found is not None:
                return found
    return None


def aggressive_at_hand(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> bool:
    """Whether `battalion` takes an aggressive action along one of the simplest paths of its Maneuver:
    at most one turn of facing, then straight ahead, attacking the first enemy met or destroying the first
    rampart met, or building a rampart ahead and destroying it. Each test is one a Maneuver search
    (`BattleState.explore`) makes on that path, so True means the search finds an aggressive action; most
    turn ends have one this near, and most Blunt checks end here. False says only that none is this near."""
    start = state.zone[battalion]
    ramparts = state.ramparts
    if ramparts[start] is not None:
        return False  # on a rampart (Alight) only Descend leaves
    stacks, owner = state.stacks, state.owner
    ruleset = state.ruleset
    uniform = ruleset.uniform_moves or ruleset.uniform_moves_for(state, battalion)
    me = owner[battalion]
    neighbours = state.board.neighbours
    facing = state.facing[battalion]

    if hidden:  # the stacks as the search sees them (`explore`'s `seen`): the hidden ones lifted off
        stacks = [tuple(b for b in stack if b not in hidden) for stack in stacks]
    start_seen = tuple(b for b in stacks[start] if b != battalion)
    arms = state.arms[battalion]
    can_destroy = ruleset.destroys_at_arms[arms - 1]
    kingdom = state.kingdom[battalion]
    build_kingdom = ruleset.rampart_kingdom(state, battalion) if can_destroy and ma >= ruleset.build_cost else None
    unbuildable = ruleset.unbuildable(state, battalion) if build_kingdom is not None else None
    turns = ((facing, 0),) if start_seen else ((facing, 0), *ruleset.face_turns[facing])
    for turn_to, face_cost in turns:
        left = ma - face_cost
        if left < 0:
            continue
        zone = start
        stacked = bool(start_seen)
        while True:
            ahead = neighbours[zone][turn_to]
            if ahead < 0:
                break
            rampart = ramparts[ahead]
            if rampart is not None:
                if can_destroy and not stacked and ruleset.destroy_cost(kingdom, rampart[1]) <= left:
                    return True
                break
            there = stacks[ahead]
            if (build_kingdom is not None and not there and not stacked and left >= ruleset.build_cost
                    and (unbuildable is None or ahead not in unbuildable)):
                return True  # build ahead and destroy it in the same Maneuver
            if not uniform and not ruleset.can_enter(state, battalion, ahead):
                break
            cost = 1 if uniform else ruleset.move_cost(state, battalion, ahead)
            if cost > left:
                break
            if there and owner[there[-1]] != me:
                return True  # an attack
            left -= cost
            zone = ahead
            stacked = bool(there)
    return False
