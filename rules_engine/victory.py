"""Victory conditions, checked at the end of a turn (R9-R15, R30), and Organized Play Points (R21).

Each check answers with a `Check(holds, reason)`: the reason is the sentence a rejected claim
shows the players ("p2 is not blunted: S2_5 can attack S1_2 at d3.").
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .model import PLAYERS
from .state import IN_PRISON, NOBODY, BattleState


class Condition(StrEnum):
    OVERPOWER = "overpower"
    CRUSH = "crush"
    SHACKLE = "shackle"
    PARALYZE = "paralyze"
    BLUNT = "blunt"
    FORCED_SURRENDER = "forced_surrender"
    VOLUNTARY_SURRENDER = "voluntary_surrender"


# R21: OPP of the victor by condition (the loser of any of them gets 0).
VICTORY_OPP = {
    Condition.OVERPOWER: 1, Condition.CRUSH: 3, Condition.SHACKLE: 5, Condition.PARALYZE: 3,
    Condition.BLUNT: 2, Condition.FORCED_SURRENDER: 1, Condition.VOLUNTARY_SURRENDER: 1,
}
STALEMATE_OPP = -1
RESOLVE_OPP = -10
# R10: the declarable conditions, best first (OPP, then the tie-breaker order).
BEST_FIRST = (Condition.SHACKLE, Condition.CRUSH, Condition.PARALYZE, Condition.BLUNT, Condition.OVERPOWER)
OVERPOWER_COUNT = 5  # R30
CRUSH_COUNT = 6
SHACKLE_COUNT = 3
RESOLVE_TURNS = 6  # R15, R38: three full turn cycles


@dataclass(frozen=True, slots=True)
class Check:
    holds: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.holds


def _name(state: BattleState, battalion: int) -> str:
    return state.ids[battalion]


def _counter_attack_due(state: BattleState, player: int) -> tuple[int, int] | None:
    """(zone, position in its stack) of the first counter attack due to `player` in board order: a
    stack topped by an enemy battalion with one of this general's beneath (R26); None when none."""
    zones = state.zone
    stacks = state.stacks
    owner = state.owner
    due = [zones[b] for b in state.battalions_of[player] if zones[b] >= 0 and owner[stacks[zones[b]][-1]] != player]
    if not due:
        return None
    zone = min(due)
    return zone, state.highest_own(zone, player)


def _extrication_zone(state: BattleState, player: int) -> int | None:
    """A home-row zone where `player` could extricate a prisoner held by the enemy, or None."""
    if not state.prisons[1 - player]:
        return None
    for zone in state.board.zones_in_row(state.board.home_rows[player]):
        if not state.stacks[zone] and state.ramparts[zone] is None and \
                state.ruleset.can_extricate_to(state, player, zone):
            return zone
    return None


def _maneuverable(state: BattleState, player: int) -> tuple[frozenset[int], list[tuple[int, int]]]:
    """The battalions `player` could maneuver on their coming turn, the battlefield standing as it
    is now, in army order with the MA each would have; and the battalions the searches treat as
    absent (the one marked for Sacrifice)."""
    # R41: the battalion marked for Sacrifice is slaughtered at step 4, before the order.
    sacrificed = state.sacrifice[player]
    hidden = frozenset((sacrificed,)) if sacrificed != NOBODY else frozenset()
    # R13: the Stun token counts only if it is still there during that coming turn.
    stunned = state.stun if state.to_move == player else NOBODY
    ruleset = state.ruleset
    zones = state.zone
    stacks = state.stacks
    found = []
    for battalion in state.battalions_of[player]:
        if battalion in (sacrificed, stunned):
            continue
        where = zones[battalion]
        if where < 0:
            continue
        stack = stacks[where]
        top = stack[-1] if not hidden else next((b for b in reversed(stack) if b not in hidden), None)
        if top != battalion:
            continue
        ma = ruleset.sacrifice_ma if sacrificed != NOBODY else ruleset.maneuver_ma(state.arms[battalion])
        found.append((battalion, ma))
    return hidden, found


def _first_aggressive(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> tuple | None:
    """The first attack, rout or destroy the Maneuver search of `battalion` meets, or None (a build
    alone is not aggressive, so the search does not report builds)."""
    return next(state.explore(battalion, ma, hidden, positions=False, builds=False), None)


def aggressive_action(state: BattleState, player: int) -> str | None:
    """R13: one aggressive action `player` could take on their coming turn, the battlefield
    standing as it is now, as a sentence; None when there is none. The first one in a fixed
    order (counter attacks, extrication, then each battalion in army order, cheapest first), so
    that the sentence a rejected claim shows is always the same."""
    names = state.board.names
    ids = state.ids
    due = _counter_attack_due(state, player)
    if due is not None:
        zone, position = due
        stack = state.stacks[zone]
        return f"{ids[stack[position]]} will counter attack {ids[stack[-1]]} at {names[zone]}"
    zone = _extrication_zone(state, player)
    if zone is not None:
        return f"{ids[state.prisons[1 - player][0]]} can be extricated to {names[zone]}"
    ruleset = state.ruleset
    hidden, candidates = _maneuverable(state, player)
    for battalion, ma in candidates:
        event = _first_aggressive(state, battalion, ma, hidden)
        if event is not None:
            kind, zone, _cost, target = event
            if kind == "attack":
                return f"{ids[battalion]} can attack {ids[target]} at {names[zone]}"
            if kind == "rout":
                return f"{ids[battalion]} can rout {ids[target]} at {names[zone]}"
            if target == "built":
                return f"{ids[battalion]} can build a rampart at {names[zone]} and destroy it"
            return f"{ids[battalion]} can destroy the rampart at {names[zone]}"
        if ruleset.has_arts:
            found = ruleset.art_aggressive(state, battalion, ma, hidden)
            if found is not None:
                return found
    return None


def has_aggressive_action(state: BattleState, player: int) -> bool:
    """`aggressive_action(state, player) is not None`, found faster: the same actions, in any
    order. The Maneuver searches of all the battalions advance side by side, one MA spent at a
    time, and stop at the first attack, rout or destroy any of them meets: most turn ends have
    one within an MA or two of where some battalion stands, so few searches ever run far."""
    if _counter_attack_due(state, player) is not None or _extrication_zone(state, player) is not None:
        return True
    hidden, candidates = _maneuverable(state, player)
    searches = [state.explore(battalion, ma, hidden, positions=False, builds=False, pause_each_ma=True)
                for battalion, ma in candidates]
    while searches:
        going_on = []
        for search in searches:
            for event in search:
                if event[0] != "spent":
                    return True  # an attack, a rout or a destroy (builds are not reported)
                going_on.append(search)  # paused after one more MA: its turn again next round
                break
        searches = going_on
    ruleset = state.ruleset
    if ruleset.has_arts:
        for battalion, ma in candidates:
            if ruleset.art_aggressive(state, battalion, ma, hidden) is not None:
                return True
    return False


def can_leave_zone(state: BattleState, battalion: int) -> bool:
    """R12 (and R32): whether a battalion could ever Move out of its zone, the rest of the
    battlefield frozen: any facing unless it stands directly on an enemy battalion, Arms lowered
    by Lighten for MA, 8 MA from a Sacrifice when another own battalion is on the battlefield."""
    ruleset = state.ruleset
    where = state.zone[battalion]
    stack = state.stacks[where]
    player = state.owner[battalion]
    position = stack.index(battalion)
    below = stack[position - 1] if position > 0 else NOBODY
    on_enemy = below != NOBODY and state.owner[below] != player
    facings = (state.facing[battalion],) if on_enemy else range(4)
    arms = state.arms[battalion]
    zones = state.zone
    sacrifice_ma = ruleset.sacrifice_ma if any(
        zones[b] >= 0 for b in state.battalions_of[player] if b != battalion) else 0
    best_ma = max(sacrifice_ma, ruleset.best_ma_at_or_below(arms))
    destroy_ma = max(sacrifice_ma, ruleset.best_ma_at_or_below(arms, ruleset.destroy_min_arms))
    can_destroy = ruleset.can_destroy(arms) and below == NOBODY
    if ruleset.has_arts and ruleset.art_can_leave(state, battalion, facings, best_ma,
                                                  max(sacrifice_ma, ruleset.maneuver_ma(arms))):
        return True  # R12: Pounce, Alight, Descend and Chasm Forge count as moving
    if state.ramparts[where] is not None:
        return False  # standing on a rampart (Alight), only Descend leaves it
    for facing in facings:
        ahead = state.board.neighbours[where][facing]
        if ahead < 0 or not ruleset.can_enter(state, battalion, ahead):
            continue
        move_cost = ruleset.move_cost(state, battalion, ahead)
        rampart = state.ramparts[ahead]
        if rampart is None:
            if move_cost <= best_ma:
                return True
        elif can_destroy and ruleset.destroy_cost(state.kingdom[battalion], rampart[1]) + move_cost <= destroy_ma:
            return True
    return False


def _first_leaver(state: BattleState, player: int) -> int | None:
    """The first of `player`'s battalions on the battlefield (army order) that can leave its zone."""
    zones = state.zone
    for battalion in state.battalions_of[player]:
        if zones[battalion] >= 0 and can_leave_zone(state, battalion):
            return battalion
    return None


def paralyzed(state: BattleState, declarer: int) -> Check:
    """R12: the declarer's enemy is paralyzed."""
    enemy = 1 - declarer
    if state.prisons[declarer]:
        return Check(False, f"{PLAYERS[declarer]} holds {_name(state, state.prisons[declarer][0])} prisoner, so "
                            f"{PLAYERS[enemy]} can still extricate.")
    battalion = _first_leaver(state, enemy)
    if battalion is not None:
        return Check(False, f"{PLAYERS[enemy]} is not paralyzed: {_name(state, battalion)} can still move out "
                            f"of {state.board.names[state.zone[battalion]]}.")
    return Check(True)


def _has_heavy(state: BattleState, declarer: int) -> bool:
    """R13: the declarer has a battalion of Arms 4+ on the battlefield or in the enemy's prison."""
    zones = state.zone
    can_destroy = state.ruleset.can_destroy
    return any((zones[b] >= 0 or zones[b] == IN_PRISON) and can_destroy(state.arms[b])
               for b in state.battalions_of[declarer])


def blunted(state: BattleState, declarer: int) -> Check:
    """R13: the declarer's enemy can take no aggressive action on their coming turn, and the
    declarer has a battalion of Arms 4+ on the battlefield or in the enemy's prison."""
    enemy = 1 - declarer
    if not _has_heavy(state, declarer):
        return Check(False, f"{PLAYERS[declarer]} has no battalion of Arms {state.ruleset.destroy_min_arms} or more, "
                            "which Blunt needs.")
    action = aggressive_action(state, enemy)
    if action is not None:
        return Check(False, f"{PLAYERS[enemy]} is not blunted: {action}.")
    return Check(True)


def _overpowers(state: BattleState, declarer: int) -> bool:
    return len(state.graveyards[declarer]) >= OVERPOWER_COUNT


def _crushes(state: BattleState, declarer: int) -> bool:
    return len(state.graveyards[declarer]) >= CRUSH_COUNT


def _shackles(state: BattleState, declarer: int) -> bool:
    return len(state.prisons[declarer]) >= SHACKLE_COUNT


def _paralyzes(state: BattleState, declarer: int) -> bool:
    return not state.prisons[declarer] and _first_leaver(state, 1 - declarer) is None


def _blunts(state: BattleState, declarer: int) -> bool:
    return _has_heavy(state, declarer) and not has_aggressive_action(state, 1 - declarer)


# Whether each condition holds, without the reason: the same rules as `condition_holds`, no sentence
# built, Blunt's aggressive action looked for in any order. For the checks at every turn end (`missed`).
HOLDS = {Condition.OVERPOWER: _overpowers, Condition.CRUSH: _crushes, Condition.SHACKLE: _shackles,
         Condition.PARALYZE: _paralyzes, Condition.BLUNT: _blunts}
_BEST_FIRST_HOLDS = tuple((condition, HOLDS[condition]) for condition in BEST_FIRST)


def condition_holds(state: BattleState, declarer: int, condition: Condition) -> Check:
    """Whether the condition holds, with the reason a rejected claim shows (R34)."""
    graveyard = len(state.graveyards[declarer])
    enemy = PLAYERS[1 - declarer]
    if condition == Condition.OVERPOWER:
        return Check(_overpowers(state, declarer), f"Overpower needs {OVERPOWER_COUNT} of {enemy}'s battalions "
                                                   f"in {PLAYERS[declarer]}'s graveyard; there are {graveyard}.")
    if condition == Condition.CRUSH:
        return Check(_crushes(state, declarer), f"Crush needs {CRUSH_COUNT} of {enemy}'s battalions in "
                                                f"{PLAYERS[declarer]}'s graveyard; there are {graveyard}.")
    if condition == Condition.SHACKLE:
        return Check(_shackles(state, declarer), f"Shackle needs {SHACKLE_COUNT} of {enemy}'s battalions in "
                                                 f"{PLAYERS[declarer]}'s prison; there are "
                                                 f"{len(state.prisons[declarer])}.")
    if condition == Condition.PARALYZE:
        return paralyzed(state, declarer)
    if condition == Condition.BLUNT:
        return blunted(state, declarer)
    raise ValueError(f"{condition} is not declared")


def best_condition(state: BattleState, declarer: int) -> Condition | None:
    """R10: the condition worth the most OPP that the declarer satisfies now."""
    for condition, condition_is_met in _BEST_FIRST_HOLDS:
        if condition_is_met(state, declarer):
            return condition
    return None


def opp_for(outcome: str, winner: str | None, condition: str | None) -> dict[str, int]:
    """R21."""
    if outcome == "victory":
        return {player: VICTORY_OPP[Condition(condition)] if player == winner else 0 for player in PLAYERS}
    if outcome == "stalemate":
        return {player: STALEMATE_OPP for player in PLAYERS}
    if outcome == "resolve":
        return {player: RESOLVE_OPP for player in PLAYERS}
    return {player: 0 for player in PLAYERS}
