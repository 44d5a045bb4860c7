"""Flaym: Pounce, Burn, Incinerate, Scald and Melt (R16: a Flaym art), Fireproof, and Pounce in the
Paralyze and Blunt searches (R12, R13, R60, R100)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import must_descend
from ...errors import Location, ReplayError
from ...model import BattleArt
from .common import (
    ANY_ARMS,
    HEAVY,
    SIX,
    begin,
    begin_on_ground,
    check_enemy_facings,
    final,
    fireproof,
    first_enemy_ahead,
    first_enemy_in_reach,
    set_enemy_facings,
    spend_all,
    transform,
    transforming,
)

if TYPE_CHECKING:
    import random

    from ...ruleset import CoreRuleset
    from ...state import BattleState, ManeuverRun

KINGDOM = "flaym"
# act -> Arms that may use it
ARMS = {"pounce": SIX, "burn": ANY_ARMS, "incinerate": HEAVY, "scald": HEAVY, "melt": HEAVY}
FACING_ARTS: frozenset[str] = frozenset()  # no art of theirs depends on the battalion's facing
RAMPART_ARTS: frozenset[str] = frozenset()  # no art of theirs only raises a rampart (R103)

BURN, SEVERE_BURN, SCALD = 2, 3, 2


def pounce(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    battalion = run.battalion
    begin(run, action, location, KINGDOM, ARMS[action.act])
    here = state.zone[battalion]
    must_descend(state, battalion, location)
    target_zone, rampart = first_enemy_ahead(state, battalion, here, state.facing[battalion])
    if rampart is not None:
        raise ReplayError("blocked_by_rampart", f"The rampart at {state.board.names[rampart]} stands between "
                                                f"{state.ids[battalion]} and any enemy it could pounce on.", location)
    if target_zone is None:
        raise ReplayError("art_no_target", f"No enemy battalion stands ahead of {state.ids[battalion]} to pounce "
                                           "on.", location)
    cost = state.ruleset.plain_move_cost(state, battalion, target_zone)  # R60: a form of Move
    run.require(cost, location)
    facings = check_enemy_facings(run, action, target_zone, location, pounce=True)
    state.remove_from_stack(battalion)
    state.aggressive_this_turn = True
    state.slaughter(state.stacks[target_zone][-1], run.player)  # instantly, whatever its Arms and Vigor
    state.attack_down(battalion, target_zone)
    set_enemy_facings(state, facings)
    run.attacked = True
    run.ma_left -= cost


def burn(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    begin(run, action, location, KINGDOM, ARMS[action.act])
    final(run, "burn", location)
    for zone in state.board.adjacent[state.zone[run.battalion]]:
        if state.ramparts[zone] is None:  # R59: a battalion on a rampart is out of reach
            _burn_zone(state, zone, BURN)
    spend_all(run, "burn")


def incinerate(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    here = begin_on_ground(run, action, location, KINGDOM, ARMS[action.act], "forest", "incinerate")
    state.ruleset.burn_forest(state, here, SEVERE_BURN)
    spend_all(run, "incinerate")


def scald(run: ManeuverRun, action: BattleArt, location: Location) -> None:
    state = run.state
    here = begin_on_ground(run, action, location, KINGDOM, ARMS[action.act], "marsh", "scald")
    for zone in transform(state, here, None, "marsh"):
        _burn_zone(state, zone, SCALD, only_enemies_of=run.player)
    spend_all(run, "scald")


def _burn_zone(state: BattleState, zone: int, amount: int, only_enemies_of: int | None = None) -> None:
    """Fire reaches every battalion of the zone, the whole stack (R66)."""
    for battalion in state.stacks[zone]:
        if not fireproof(state, battalion) and (only_enemies_of is None or state.owner[battalion] != only_enemies_of):
            state.reduce_arms(battalion, amount, vigor_protects=False)  # R4: no Vigor against fire


def can_leave(ruleset: CoreRuleset, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
              arms: int) -> bool:
    """R12: Pounce onto the first enemy ahead moves the battalion out of its zone."""
    where = state.zone[battalion]
    if arms != 6 or state.ramparts[where] is not None:
        return False
    for facing in facings:
        target_zone, _ = first_enemy_ahead(state, battalion, where, facing)
        if target_zone is not None and ruleset.move_cost(state, battalion, target_zone) <= full_ma:
            return True
    return False


def rampart_blind(state: BattleState, battalion: int) -> bool:
    """R103: Pounce (Arms 6) is the one Flaym search (`aggressive`) a rampart changes."""
    return state.arms[battalion] != 6


def aggressive(ruleset: CoreRuleset, state: BattleState, battalion: int, ma: int, hidden: frozenset[int],
               nested: bool = False) -> str | None:
    """R13: a Pounce the battalion (Arms 6, off any stack, R100) can reach within its Maneuver."""
    if state.arms[battalion] != 6:
        return None
    found = first_enemy_in_reach(state, battalion, ma, hidden,
                                 lambda target_zone, left: ruleset.move_cost(state, battalion, target_zone) <= left)
    if found is None:
        return None
    target_zone, target = found
    return f"{state.ids[battalion]} can pounce on {state.ids[target]} at {state.board.names[target_zone]}"


def generator_arts(state: BattleState, battalion: int, rng: random.Random) -> list[BattleArt]:
    """The written Flaym arts the generator (`rules_engine.generator`) tries for this battalion now, with
    random fields; the engine decides which are legal."""
    return [BattleArt(name) for name in ("pounce", "burn", "incinerate", "scald", "melt")]


def opening_arts(state: BattleState, battalion: int) -> list[BattleArt]:
    """R103, R84: the Flaym arts (with each choice of their fields) that a first order of a double time turn
    may use, taking no aggressive action, to open the way for the second order; the engine decides which
    are legal where the battalion stands."""
    arms = state.arms[battalion]
    return [BattleArt(name) for name in ("burn", "incinerate", "scald", "melt")  # Pounce is aggressive
            if arms in ARMS[name]]


HANDLERS = {"pounce": pounce, "burn": burn, "incinerate": incinerate, "scald": scald,
            "melt": transforming("melt", KINGDOM, ARMS["melt"])}
