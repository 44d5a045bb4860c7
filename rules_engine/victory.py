"""Victory conditions, checked at the end of a turn (R9-R15, R30), and Organized Play Points (R21).

Each check answers with a `Check(holds, reason)`: the reason is the sentence a rejected claim
shows the players ("p2 is not blunted: S2_5 can attack S1_2 at d3.").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import connected_zones
from .conditions import BEST_FIRST, Condition
from .constants import IN_PRISON, NOBODY
from .errors import ReplayError
from .model import PLAYERS, Lighten, Sacrifice
from .state import ManeuverRun

if TYPE_CHECKING:
    from .state import BattleState

# The conditions and their OPP live in `conditions` (one table for the engine and the standings).
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
    position = state.highest_own(zone, player)
    assert position is not None  # R26: one of the general's own is beneath (mypyc trusts the tuple's type)
    return zone, position


def _extrication_zone(state: BattleState, player: int) -> int | None:
    """A home-row zone where `player` could extricate a prisoner held by the enemy, or None."""
    if not state.prisons[1 - player]:
        return None
    for zone in state.board.zones_in_row(state.board.home_rows[player]):
        if not state.stacks[zone] and state.ramparts[zone] is None and \
                state.ruleset.can_extricate_to(state, player, zone):
            return zone
    return None


NO_ONE: frozenset[int] = frozenset()


def _maneuverable(state: BattleState, player: int, lifted: int = NOBODY, sacrifice_ma: bool = True,
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
    maneuver_ma, arms = ruleset.maneuver_ma, state.arms
    for battalion in state.battalions_of[player]:
        where = zones[battalion]
        if where < 0 or battalion in skipped:
            continue
        stack = stacks[where]
        top = stack[-1] if not hidden else next((b for b in reversed(stack) if b not in hidden), None)
        if top != battalion:
            continue
        found.append((battalion, eight if eight else maneuver_ma(arms[battalion])))
    return hidden, found


def _first_aggressive(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> tuple | None:
    """The first attack, rout or destroy the Maneuver search of `battalion` meets, or None (a build
    alone is not aggressive, so the search does not report builds)."""
    return next(state.explore(battalion, ma, hidden, positions=False, builds=False), None)


def after_sacrifice_fire(state: BattleState, player: int) -> BattleState:
    """R13, R41, R55, R4 amended: the battlefield `player`'s coming turn finds after step 4, when the
    Sacrifice it completes sets a Forest fire (Vigor capping the loss); the state itself otherwise.
    The marked battalion stays marked in the view so that the searches still give its 8 MA (R2)."""
    marked = state.sacrifice[player]
    if marked == NOBODY or state.terrain is None or state.zone[marked] < 0 or \
            state.terrain[state.zone[marked]] != "forest":
        return state
    view = state.copy()
    if view.vigor != NOBODY and view.owner[view.vigor] == player:
        view.vigor = NOBODY  # step 3: own Vigor is reset before the sacrifice completes
    if view.complete_sacrifice(player):
        view.sacrifice[player] = marked
    return view


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
    state = after_sacrifice_fire(state, player)  # R55: the fire burns before any order
    onto = _extrication_zone(state, player)  # (not `zone`: an int above, never None, for mypyc)
    if onto is not None:
        return f"{ids[state.prisons[1 - player][0]]} can be extricated to {names[onto]}"
    found = _single_order_aggressive(state, player)
    if found is not None:
        return found
    if state.ruleset.orders_in_turn(state.turns_played + 1) > 1:
        return two_order_aggressive(state, player)
    return None


def _single_order_aggressive(state: BattleState, player: int, lifted: int = NOBODY,
                             sacrifice_ma: bool = True, exclude: int = NOBODY) -> str | None:
    """An aggressive action of one Maneuver of `player`'s (the sentence's `then` part), `lifted`
    treated as absent and `exclude` taking no order; None when there is none."""
    names, ids = state.board.names, state.ids
    hidden, candidates = _maneuverable(state, player, lifted, sacrifice_ma, exclude)
    ruleset = state.ruleset
    for battalion, ma in candidates:
        event = _first_aggressive(state, battalion, ma, hidden)
        if event is not None:
            kind, zone, _cost, target = event
            if kind in ("attack", "rout"):
                return f"{ids[battalion]} can {kind} {ids[target]} at {names[zone]}"
            if target == "built":
                return f"{ids[battalion]} can build a rampart at {names[zone]} and destroy it"
            return f"{ids[battalion]} can destroy the rampart at {names[zone]}"
        if ruleset.has_arts:
            found = ruleset.art_aggressive(state, battalion, ma, hidden)
            if found is not None:
                return found
    return None


_MEMO_LIMIT = 512


def two_order_aggressive(state: BattleState, player: int) -> str | None:
    """R103 (R84), remembered for the battle (`BattleState.memo`, by `position_key`): the dearest search,
    asked again whenever a battle comes back to a battlefield (both generals shuffling in a blunted
    endgame). See `_two_order_aggressive`."""
    memo = state.memo
    key = ("two_order_aggressive", player, state.position_key())
    try:
        return memo[key]  # type: ignore[return-value]  # this key's values are this function's answers
    except KeyError:
        pass
    found = _two_order_aggressive(state, player)
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = found
    return found


def _two_order_aggressive(state: BattleState, player: int) -> str | None:
    """R103 (R84): with two orders in the coming turn, an aggressive action of the second order after a
    first Maneuver that took no aggressive action itself: the first battalion moved elsewhere (uncovering
    the battalion beneath it, clearing the way), built a rampart the second one destroys or Snowblinds
    next to (R17 amended), or used a battle art (`_after_first_art`). None when no such sequence exists. A first battalion only hinders the second where it stands, so the second's
    searches run first with the first lifted off the battlefield, and only what they find is checked
    against each place the first can really reach."""
    ruleset = state.ruleset
    marked = state.sacrifice[player] != NOBODY
    hidden, firsts = _maneuverable(state, player, sacrifice_ma=False)
    reaches: dict[tuple[int, int], list[tuple]] = {}

    def places(first: int, ma: int) -> list[tuple]:
        """The positions the first battalion's Maneuver reaches, cheapest first, searched once."""
        if (first, ma) not in reaches:
            reaches[first, ma] = [event for event in state.explore(first, ma, hidden, builds=False)
                                  if event[0] == "position"]
        return reaches[first, ma]

    # Whether the second order alone finds an aggressive action with the first lifted off, for the battle
    # arts' search below; it searches on the battlefield as `player`'s turn finds it, the same one as here
    # unless a Stun token only this view still counts (`_maneuverable`).
    alone: dict[tuple[int, bool], bool] = {}
    same_view = state.to_move == player or state.stun == NOBODY
    areas = _search_areas(state, player)
    for first, own_ma in firsts:
        # R51: a completed sacrifice's 8 MA go to one of the two maneuvering battalions.
        for first_ma, second_gets_eight in (((own_ma, True), (max(own_ma, ruleset.sacrifice_ma), False))
                                            if marked else ((own_ma, False),)):
            helps = alone[first, second_gets_eight] = _lifted_finds(
                state, player, first, second_gets_eight, areas, state, {state.zone[first]})
            if helps:
                found = _after_first_move(state, player, first, places(first, first_ma), second_gets_eight)
                if found is not None:
                    return found
            found = _after_first_build(state, player, first, places(first, first_ma), second_gets_eight)
            if found is not None:
                return found
    if ruleset.has_arts:  # R103 (R84): a first Maneuver that uses a battle art, last (the dearest search)
        for first, own_ma in firsts:
            for first_ma, second_gets_eight in (((own_ma, True), (max(own_ma, ruleset.sacrifice_ma), False))
                                                if marked else ((own_ma, False),)):
                found = _after_first_art(state, player, first, places(first, first_ma), second_gets_eight,
                                         alone[first, second_gets_eight] if same_view else None, areas)
                if found is not None:
                    return found
    return None


def _rampart_total(state: BattleState) -> int:
    overgrown = sum(len(layers) for layers in state.overgrown.values()) if state.overgrown else 0
    return sum(1 for rampart in state.ramparts if rampart is not None) + overgrown


def _after_first_art(state: BattleState, player: int, first: int, positions: list[tuple],
                     second_gets_eight: bool, alone: bool | None = None,
                     areas: dict[int, tuple[int, frozenset[int]]] | None = None) -> str | None:
    """R103, R84: a first Maneuver that goes to a place it reaches (off any stack, R100) and there uses a
    battle art that takes no aggressive action (its kingdom's `opening_arts`: Undertow pulling an enemy
    closer, Burn, a terrain transformation, Alight, Descend or Chasm Forge taking it elsewhere, Flourish
    or Overgrow raising a rampart, ...), after which a second battalion acts aggressively. Each art is
    played by its own handler on a copy; a battlefield already searched is not searched again. An art that
    only raises a rampart (`rampart_arts`) is played only where `_rampart_openings` says a rampart can
    open something, and once per zone whatever the place it is used from. `alone`: whether the second order
    alone, the first lifted off, finds an aggressive action on the battlefield this turn finds (None: not
    known yet); `areas` as `_lifted_finds` takes them."""
    ruleset = state.ruleset
    board = state.board
    names, ids = board.names, state.ids
    start = state.zone[first]
    ramparts = _rampart_total(state)
    searched: set[tuple] = set()
    helped: set[tuple] = set()  # battlefields where the second acts aggressively with the first lifted off
    visited: set[int] = set()
    revisit = bool(ruleset.facing_arts(state, first))
    rampart_arts = ruleset.rampart_arts(state, first)
    openings: frozenset[int] | None = None
    openings_known = False
    blank: set[tuple[str, int]] = set()  # rampart arts whose rampart opened nothing, the first lifted off
    copy_steps = _copy_steps(state)
    for event in positions:
        if event[3] < 1 or event[4]:
            continue
        _, here, facing, left, _stacked = event
        if here in visited and not revisit:
            continue
        _spend(state, 2 * copy_steps)  # `base` and `view`
        base = _moved(state, first, here) if here != start else state.copy()
        base.facing[first] = facing
        base.to_move = player
        base.aggressive_this_turn = False
        # The search meets each zone first with the most MA left: the arts that do not depend on the
        # facing are tried there only; the first's own facing changes no other battalion's search.
        arts = ruleset.opening_arts(base, first, facing_only=here in visited)
        visited.add(here)
        if not arts:
            continue
        _spend(state, len(arts))  # making and screening them, each about one position of a search
        view = base.copy()
        for art in arts:
            raised = None
            if art.act in rampart_arts:
                if not openings_known:
                    openings = _rampart_openings(base, player, first, second_gets_eight, alone)
                    openings_known = True
                if openings is not None:
                    # The second's searches, the first lifted off, then see only the rampart, wherever the first
                    # stands: one that opens nothing here opens nothing from any other place either.
                    raised = (art.act, board.index.get(art.field("zone"), -1))
                    if raised[1] not in openings or raised in blank:
                        continue
            run = ManeuverRun(view, first, left, 1)
            try:
                run.apply(art)  # a refused art changes nothing (BattleState's contract): `view` serves the next
            except ReplayError:
                continue
            _spend(state, copy_steps)
            tried, view = view, base.copy()
            if tried.aggressive_this_turn or run.attacked or run.routed or _rampart_total(tried) < ramparts:
                continue  # an aggressive action itself: the single-order searches find it
            # As in `two_order_aggressive`: the first battalion only hinders the second where it stands, so
            # the second is searched with it lifted off, once per battlefield the art leaves, and only what
            # that finds is searched again with the first where it stands.
            where = tried.zone[first]
            stacks = list(tried.stacks)
            if where >= 0:
                stacks[where] = tuple(b for b in stacks[where] if b != first)
            key = (tuple(stacks), tuple(tried.ramparts), None if tried.terrain is None else tuple(tried.terrain),
                   tuple(tried.arms))
            if key not in searched:
                searched.add(key)
                if not _lifted_finds(tried, player, first, second_gets_eight, areas, state,
                                     _changed_zones(state, tried, first)):
                    if raised is not None:
                        blank.add(raised)
                    continue
                helped.add(key)
            if key not in helped:
                continue
            then = _single_order_aggressive(tried, player, sacrifice_ma=second_gets_eight, exclude=first)
            if then is not None:
                return f"{ids[first]} can use {art.act.capitalize()} from {names[here]}, then {then}"
    return None


def _search_areas(state: BattleState, player: int) -> dict[int, tuple[int, frozenset[int]]]:
    """R103: for each battalion `player` could maneuver (with the most MA it could have) whose Maneuver search
    finds no aggressive action and whose battle arts find none whatever the battlefield (`rampart_blind`):
    its MA and the zones its search reads, those it reaches and two around them (the zone ahead, where it
    would attack, build or destroy, and the zones a rout would push to). A first order that changes none of
    them leaves that search as it was: nothing found (`_lifted_finds`)."""
    ruleset = state.ruleset
    hidden, candidates = _maneuverable(state, player)
    adjacent = state.board.adjacent
    areas: dict[int, tuple[int, frozenset[int]]] = {}
    for battalion, ma in candidates:
        if ruleset.has_arts and not ruleset.rampart_blind(state, battalion):
            continue
        reached: set[int] = set()
        for event in state.explore(battalion, ma, hidden, builds=False):
            if event[0] != "position":
                break
            reached.add(event[1])
        else:
            for _ in range(2):
                reached.update([near for zone in reached for near in adjacent[zone]])
            areas[battalion] = (ma, frozenset(reached))
    return areas


def _lifted_finds(view: BattleState, player: int, first: int, second_gets_eight: bool,
                  areas: dict[int, tuple[int, frozenset[int]]] | None, state: BattleState, changed: set[int] | None) -> bool:
    """Whether the second order, the first lifted off, finds an aggressive action on `view` (the turn's
    battlefield `state` after the first order, `changed`: the zones where they differ, None: unknown):
    `_single_order_aggressive`, without searching again a battalion whose `areas` entry shows its search
    reads none of those zones (the battalion itself unchanged, its MA no more than there)."""
    if areas is None or changed is None:
        return _single_order_aggressive(view, player, first, second_gets_eight) is not None
    hidden, seconds = _maneuverable(view, player, first, second_gets_eight)
    ruleset = view.ruleset
    for second, ma in seconds:
        area = areas.get(second)
        if area is not None and ma <= area[0] and area[1].isdisjoint(changed) and view.zone[second] == \
                state.zone[second] and view.facing[second] == state.facing[second] and \
                view.arms[second] == state.arms[second]:
            continue
        if _first_aggressive(view, second, ma, hidden) is not None:
            return True
        if ruleset.has_arts and ruleset.art_aggressive(view, second, ma, hidden) is not None:
            return True
    return False


def _changed_zones(state: BattleState, view: BattleState, first: int) -> set[int] | None:
    """The zones where `view` (after the first order) differs from `state` for a Maneuver search with the
    first lifted off: its zone before and after, and every zone whose stack, rampart or terrain changed;
    None when it differs otherwise too (ramparts left to build)."""
    if view.ramparts_left != state.ramparts_left or view.rampart_pool != state.rampart_pool:
        return None
    _spend(state, _copy_steps(state))
    changed = {state.zone[first], view.zone[first]}
    for old, new in ((state.stacks, view.stacks), (state.ramparts, view.ramparts), (state.terrain, view.terrain)):
        if old is not None and new is not None and old != new:
            changed.update(zone for zone, (before, after) in enumerate(zip(old, new, strict=True)) if before != after)
    return changed


def _rampart_openings(base: BattleState, player: int, first: int, second_gets_eight: bool,
                      alone: bool | None = None) -> frozenset[int] | None:
    """R103: the zones where one more rampart, raised by the first Maneuver's battle art (Flourish, Overgrow:
    `rampart_arts`) and nothing else, could let a second battalion act aggressively, the first lifted off
    (`base`: the turn's battlefield with the first anywhere). A rampart only blocks moves, routs and builds,
    except where a battalion that can destroy it faces it from a place it reaches off any stack with the MA
    to destroy it; so, when the second order alone finds nothing, these are the only zones worth a search.
    None (try every zone) when that is not all a rampart could change: the second order alone already finds
    something (the first stands in its way), or a second battalion's battle arts or Snowblind could use a
    rampart elsewhere (`rampart_blind`). `alone`: whether that second order alone finds something, when known."""
    ruleset = base.ruleset
    kingdom = ruleset.rampart_kingdom(base, first)
    if kingdom is None:
        return None
    if alone is None:
        alone = _single_order_aggressive(base, player, first, second_gets_eight) is not None
    if alone:
        return None
    hidden, seconds = _maneuverable(base, player, first, second_gets_eight)
    neighbours = base.board.neighbours
    zones: set[int] = set()
    for second, ma in seconds:
        if not ruleset.rampart_blind(base, second):
            return None
        if not ruleset.can_destroy(base.arms[second]):
            continue
        cost = ruleset.destroy_cost(base.kingdom[second], kingdom)
        for event in base.explore(second, ma, hidden, builds=False):
            if event[0] == "position" and not event[4] and event[3] >= cost:
                ahead = neighbours[event[1]][event[2]]
                if ahead >= 0:
                    zones.add(ahead)
    return frozenset(zones)


def _copy_steps(state: BattleState) -> int:
    """R99: what a copy of the battlefield counts, in search steps (a position of a search costs about what
    copying 256 zones does)."""
    return 1 + state.board.size // 256


def _spend(state: BattleState, steps: int) -> None:
    """R99: count `steps` against the adjudication's search budget (`BattleState.work`), if it has one."""
    work = state.work
    if work is not None and steps:
        work.spend(steps)


def _moved(state: BattleState, battalion: int, zone: int) -> BattleState:
    view = state.copy()
    view.remove_from_stack(battalion)
    view.stacks[zone] = view.stacks[zone] + (battalion,)
    view.zone[battalion] = zone
    return view


def _after_first_move(state: BattleState, player: int, first: int, positions: list[tuple],
                      second_gets_eight: bool) -> str | None:
    names, ids = state.board.names, state.ids
    start = state.zone[first]
    tried = {start}
    for event in positions:
        if event[1] in tried:
            continue
        zone = event[1]
        tried.add(zone)
        _spend(state, _copy_steps(state))
        then = _single_order_aggressive(_moved(state, first, zone), player, sacrifice_ma=second_gets_eight,
                                        exclude=first)
        if then is not None:
            return f"{ids[first]} can move to {names[zone]}, then {then}"
    return None


def _after_first_build(state: BattleState, player: int, first: int, positions: list[tuple],
                       second_gets_eight: bool) -> str | None:
    """A rampart the first battalion builds (from a place it reaches) and a second battalion destroys, or
    Snowblinds next to on its way (a Frost battalion with battle arts, R17 amended)."""
    ruleset = state.ruleset
    kingdom = ruleset.rampart_kingdom(state, first)
    if kingdom is None:
        return None  # no rampart left
    names, ids = state.board.names, state.ids
    # The places the first can build from, in the order its search meets them, and the zones it can build on.
    places = list(dict.fromkeys(event[1] for event in positions if event[3] >= ruleset.build_cost and not event[4]))
    reach = {here: connected_zones(state, player, here) - {here} for here in places}  # `connected`, once a place
    buildable: set[int] = set().union(*reach.values())
    unbuildable = ruleset.unbuildable(state, first) or frozenset()
    buildable.difference_update(unbuildable)
    if not buildable:
        return None
    # Where a second battalion (the first lifted off) could stand facing a zone, with MA left to destroy there.
    lifted_hidden, seconds = _maneuverable(state, player, first, second_gets_eight)
    wanted: dict[int, list[int]] = {}
    for second, second_ma in seconds:
        if not ruleset.can_destroy(state.arms[second]):
            continue
        cost = ruleset.destroy_cost(state.kingdom[second], kingdom)
        for event in state.explore(second, second_ma, lifted_hidden, builds=False):
            if event[0] == "position" and not event[4] and event[3] >= cost:
                ahead = state.board.neighbours[event[1]][event[2]]
                if ahead in buildable and not state.stacks[ahead] and state.ramparts[ahead] is None:
                    wanted.setdefault(ahead, []).append(second)
    frost = [(second, second_ma) for second, second_ma in seconds if state.kingdom[second] == "frost"]
    if ruleset.has_arts and frost:
        # R17 amended, R103: a rampart that lets a second (Frost) battalion Snowblind next to it on its way:
        # one next to an empty zone that no own rampart touches yet; the second's Maneuver is searched with
        # the Snowblind moves the rampart opens (its battle arts after them are not).
        adjacent, stacks, ramparts = state.board.adjacent, state.stacks, state.ramparts

        def opens(zone: int) -> bool:
            return any(not stacks[near] and ramparts[near] is None and not any(
                ramparts[z] is not None and ramparts[z][0] == player for z in adjacent[near])  # type: ignore[index]
                for near in adjacent[zone])

        near_reach = _snowblind_reach(state, frost, lifted_hidden)
        for zone in range(state.board.size):
            if zone not in buildable or zone in wanted or stacks[zone] or ramparts[zone] is not None or not opens(zone):
                continue
            if near_reach is not None and zone not in near_reach and near_reach.isdisjoint(adjacent[zone]):
                continue  # no Frost battalion comes next to it: it changes no search (`_snowblind_reach`)
            _spend(state, _copy_steps(state))
            view = state.copy()
            view.ramparts[zone] = (player, kingdom)
            if any(_first_aggressive(view, second, second_ma, lifted_hidden) is not None for second, second_ma in frost):
                wanted[zone] = []
    if not wanted:
        return None
    for here in places:
        for zone in wanted:
            if zone not in reach[here]:
                continue
            _spend(state, _copy_steps(state))
            view = _moved(state, first, here) if here != state.zone[first] else state.copy()
            view.ramparts[zone] = (player, kingdom)
            then = _single_order_aggressive(view, player, sacrifice_ma=second_gets_eight, exclude=first)
            if then is not None:
                return f"{ids[first]} can build a rampart at {names[zone]}, then {then}"
    return None


def _snowblind_reach(state: BattleState, frost: list[tuple[int, int]], hidden: frozenset[int]) -> set[int] | None:
    """The zones the Frost battalions `frost` could step onto or face in one Maneuver, or None when one of
    them already acts aggressively. A new rampart changes a Frost battalion's search only by Snowblind moves
    onto the empty zones next to it (R17) and by being there to destroy; the first such step starts from a
    place reached without it, facing one of those zones. So a rampart whose zone and neighbours are all
    outside this set changes no search that finds nothing aggressive without it."""
    neighbours = state.board.neighbours
    reach: set[int] = set()
    for second, second_ma in frost:
        for event in state.explore(second, second_ma, hidden, builds=False):
            if event[0] != "position":
                return None
            reach.add(neighbours[event[1]][event[2]])
    return reach


def has_aggressive_action(state: BattleState, player: int) -> bool:
    """`aggressive_action(state, player) is not None`, found faster: the same actions, in any
    order. The Maneuver searches of all the battalions advance side by side, one MA spent at a
    time, and stop at the first attack, rout or destroy any of them meets: most turn ends have
    one within an MA or two of where some battalion stands, so few searches ever run far."""
    if _counter_attack_due(state, player) is not None:
        return True
    state = after_sacrifice_fire(state, player)  # R55: the fire burns before any order
    if _extrication_zone(state, player) is not None:
        return True
    hidden, candidates = _maneuverable(state, player)
    for battalion, ma in candidates:
        if _aggressive_at_hand(state, battalion, ma, hidden):
            return True
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
    if ruleset.orders_in_turn(state.turns_played + 1) > 1:  # R103
        return two_order_aggressive(state, player) is not None
    return False


def _aggressive_at_hand(state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> bool:
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
    can_destroy = ruleset.can_destroy(arms)
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


def turn_start_view(state: BattleState, player: int) -> BattleState:
    """R102: the battlefield as `player`'s coming turn finds it once its compulsory steps are done:
    the counter attacks (R26; a battalion that stays on the enemy above keeps its facing) and the
    completed Sacrifice (the marked battalion is gone). The state itself when neither happens."""
    if state.sacrifice[player] == NOBODY:
        zones, stacks, owner = state.zone, state.stacks, state.owner
        for battalion in state.battalions_of[player]:
            where = zones[battalion]
            if where >= 0 and owner[stacks[where][-1]] != player:
                break  # a counter attack is due (R26)
        else:
            return state
    view = state.copy()
    view.counter_attack(player)
    view.complete_sacrifice(player)
    return view


def _uncovered_arms(state: BattleState, battalion: int) -> int | None:
    """R102: the most Arms `battalion` can have once the battalions above it are gone, each one above
    handing Arms down by Lighten (its transfer) before its Sacrifice (R83 as amended by R115); None when it
    can never be uncovered (a zone where no Sacrifice is ordered). One with an enemy battalion above it is
    judged by `_freed_from_enemy` (R115)."""
    where = state.zone[battalion]
    stack = state.stacks[where]
    position = stack.index(battalion)
    if position == len(stack) - 1:
        return state.arms[battalion]
    player = state.owner[battalion]
    if any(state.owner[above] != player for above in stack[position + 1:]):
        return None
    if not state.ruleset.can_sacrifice_on(state, stack[-1]):
        return None
    most = state.arms[stack[-1]]
    for lower in reversed(stack[position:-1]):
        most = min(6, state.arms[lower] + most - 1)
    return most


def _freed_from_enemy(state: BattleState, battalion: int) -> tuple[BattleState, int, bool] | None:
    """R115: `battalion` has an enemy battalion somewhere above it. Its general's own battalions above
    it go, the top-most first (each handing its Arms down by Lighten to an own battalion directly
    beneath, then sacrificed); an enemy battalion then on top is counter attacked at the general's next
    step 1 by its top-most battalion of the stack (R26), the rest of the battlefield frozen (R12). Returns
    (the battle once `battalion` is top-most, `battalion`, whether a sacrifice completed in that very
    turn) for `can_leave_zone`; None when it never gets there (an own battalion above that cannot be
    sacrificed where it stands, R55, or `battalion` slaughtered on the way)."""
    player = state.owner[battalion]
    ruleset = state.ruleset
    work = state.copy()
    where = work.zone[battalion]
    sacrificed = False
    # Each round takes one battalion off the stack or moves the counter attacker to the top: the stack's
    # height bounds the rounds.
    for _ in range(2 * len(work.stacks[where]) + 1):
        if work.zone[battalion] < 0:
            return None
        stack = work.stacks[where]
        top = stack[-1]
        if top == battalion:
            return work, battalion, sacrificed
        if work.owner[top] == player:
            if not ruleset.can_sacrifice_on(work, top):
                return None
            beneath = stack[-2]
            if work.owner[beneath] == player and work.ramparts[where] is None:  # a Lighten's transfer first
                handed = min(work.arms[top] - 1, 6 - work.arms[beneath])
                work.arms[top] -= handed
                work.arms[beneath] += handed
            work.sacrifice[player] = top
            if not work.complete_sacrifice(player):
                return None
            sacrificed = True
        else:
            work.counter_attack(player)  # its top-most battalion here is beneath enemies only: it is due
            sacrificed = False
    return None


def can_leave_zone(state: BattleState, battalion: int, sacrifice_completed: bool = False) -> bool:
    """R12, R32 (in part), R102, R115: whether a battalion could ever Move out of its zone, the rest of the
    battlefield frozen, as its general's coming turn finds it (`turn_start_view`). A battalion beneath
    others counts once its own battalions above are sacrificed, with the Arms handed down to it by their
    Lightens; it may take any facing unless it stands on an enemy battalion (R5, R101); Arms lowered by
    Lighten give MA; a Sacrifice gives 8 MA when another own battalion is on the battlefield (the last
    one above it, when it was covered); only a battalion with none beneath can destroy a rampart. One with
    an enemy battalion above it is judged once it is top-most again (`_freed_from_enemy`, R115)."""
    ruleset = state.ruleset
    where = state.zone[battalion]
    stack = state.stacks[where]
    player = state.owner[battalion]
    covered = stack[-1] != battalion
    if covered and any(state.owner[above] != player for above in stack[stack.index(battalion) + 1:]):
        freed = _freed_from_enemy(state, battalion)  # R115
        return freed is not None and can_leave_zone(*freed)
    arms = _uncovered_arms(state, battalion) if covered else state.arms[battalion]
    if arms is None:
        return False
    position = stack.index(battalion) if covered or len(stack) > 1 else 0
    below = stack[position - 1] if position > 0 else NOBODY
    on_enemy = below != NOBODY and state.owner[below] != player
    facings = (state.facing[battalion],) if on_enemy else range(4)
    neighbours, ramparts = state.board.neighbours[where], state.ramparts
    if ramparts[where] is None:  # the commonest answer first: a plain step with the battalion's own MA
        plain_ma = ruleset.maneuver_ma(arms)
        for facing in facings:
            ahead = neighbours[facing]
            if ahead >= 0 and ramparts[ahead] is None and ruleset.can_enter(state, battalion, ahead) and \
                    ruleset.move_cost(state, battalion, ahead) <= plain_ma:
                return True
    zones = state.zone
    sacrifice_ma = ruleset.sacrifice_ma if sacrifice_completed or covered or any(
        zones[b] >= 0 for b in state.battalions_of[player] if b != battalion) else 0
    best_ma = max(sacrifice_ma, ruleset.best_ma_at_or_below(arms))
    destroy_ma = max(sacrifice_ma, ruleset.best_ma_at_or_below(arms, ruleset.destroy_min_arms))
    can_destroy = ruleset.can_destroy(arms) and below == NOBODY
    if ramparts[where] is None:  # standing on a rampart (Alight), only Descend leaves it
        for facing in facings:
            ahead = neighbours[facing]
            if ahead < 0 or not ruleset.can_enter(state, battalion, ahead):
                continue
            move_cost = ruleset.move_cost(state, battalion, ahead)
            rampart = ramparts[ahead]
            if rampart is None:
                if move_cost <= best_ma:
                    return True
            elif can_destroy and ruleset.destroy_cost(state.kingdom[battalion], rampart[1]) + move_cost <= destroy_ma:
                return True
    # R12: Pounce, Alight, Descend and Chasm Forge count as moving; none from a stack (R100). Asked last:
    # the searches behind them cost more than the plain moves above.
    return ruleset.has_arts and below == NOBODY and ruleset.art_can_leave(
        state, battalion, facings, best_ma, max(sacrifice_ma, ruleset.maneuver_ma(arms)), arms)


def _first_leaver(state: BattleState, player: int) -> int | None:
    """The first of `player`'s battalions on the battlefield (army order) that can leave its zone, the
    battlefield as their coming turn finds it (R102). When `player` stalled on its last turn, its coming
    turn cannot be another Stall (R5, R91, `_leaves_without_a_second_stall`)."""
    view = turn_start_view(state, player)
    zones = view.zone
    second_stall = state.stalled[player] and not state.is_over
    for battalion in view.battalions_of[player]:
        _spend(state, 1)  # R99
        if zones[battalion] >= 0 and can_leave_zone(view, battalion) and (
                not second_stall or _leaves_without_a_second_stall(state, player, battalion, view)):
            return battalion
    return None


def _coming_turn(state: BattleState, player: int, beneficiary: int = NOBODY) -> tuple[BattleState, bool]:
    """A copy of the battle at `player`'s coming turn after its steps 1-4, the other general's turn
    passing frozen first when that general moves next (only its step 3 runs: its Vigor and the Stun it
    placed on `player`'s battalion end, R12, R13); and whether a sacrifice completed (R2), its 8 MA
    going to `beneficiary`. Raises ReplayError when `beneficiary` cannot be named."""
    work = state.copy()
    if work.to_move != player:
        if work.vigor != NOBODY and work.owner[work.vigor] != player:
            work.vigor = NOBODY
        if work.stun != NOBODY and work.owner[work.stun] == player:
            work.stun = NOBODY
        work.to_move = player
        work.turns_played += 1
    opened = work.start_turn(PLAYERS[player], sacrifice_beneficiary=None if beneficiary == NOBODY
                             else work.ids[beneficiary])
    return work, opened.sacrifice_completed


def _steps_out_at_hand(state: BattleState, battalion: int, ma: int) -> bool:
    """Whether `battalion` moves out of its zone in one step, in its facing or after one turn where it may
    turn: the first steps of a Maneuver search (`BattleState.explore`), with its tests, found without one."""
    where = state.zone[battalion]
    ramparts, owner, stacks = state.ramparts, state.owner, state.stacks
    if ramparts[where] is not None:
        return False  # on a rampart (Alight) only Descend leaves
    ruleset = state.ruleset
    me = owner[battalion]
    facing = state.facing[battalion]
    stacked = any(b != battalion for b in stacks[where])  # R8/R28: a stacked battalion only moves
    for turn_to, face_cost in ((facing, 0),) if stacked else ((facing, 0), *ruleset.face_turns[facing]):
        ahead = state.board.neighbours[where][turn_to]
        if ahead < 0 or ramparts[ahead] is not None or not ruleset.can_enter(state, battalion, ahead):
            continue
        there = stacks[ahead]
        if (not there or owner[there[-1]] == me) and face_cost + ruleset.move_cost(state, battalion, ahead) <= ma:
            return True
    return False


def _leaves_in_one_maneuver(state: BattleState, battalion: int, ma: int) -> bool:
    """Whether a Maneuver of `battalion` with `ma` MA, in a turn whose steps 1-4 are done, takes it out
    of its zone: a Move, or an art that changes its zone (R12), after turning for MA where it may."""
    where = state.zone[battalion]
    if _steps_out_at_hand(state, battalion, ma) or any(
            event[0] == "position" and event[1] != where for event in state.explore(battalion, ma, builds=False)):
        return True
    ruleset = state.ruleset
    if not ruleset.has_arts or len(state.stacks[where]) > 1:
        return False  # R100: no battle art from a stack
    facing = state.facing[battalion]
    arms = state.arms[battalion]
    for turn_to in range(4):
        left = ma - (ruleset.face_cost(facing, turn_to) if turn_to != facing else 0)
        if left >= 1 and ruleset.art_can_leave(state, battalion, (turn_to,), left, left, arms):
            return True
    return False


def _leaves_without_a_second_stall(state: BattleState, player: int, battalion: int, view: BattleState) -> bool:
    """R12 with R5 (R91): `player` stalled on its last turn, so a Stall in its coming turn would be the second
    in a row, a Forced Surrender after which nothing moves. `battalion`, which could leave its zone given
    Stalls (`can_leave_zone`), still can when that turn needs none: it moves out of its zone in that
    turn, or the turn gives another order after which it can (the turn after may Stall again): a
    Lighten of it or of the own battalion topping its stack (any lower Arms, any transfer down), or a
    Sacrifice of another own battalion (its 8 MA in the turn after). A stunned battalion (its Stun
    still there in that turn) and one that nothing but a Stall prepares never leave. `view` is the
    battlefield as that turn finds it (`turn_start_view`), for the quick look first."""
    marked = state.sacrifice[player]
    if view.stacks[view.zone[battalion]][-1] == battalion and not (state.stun == battalion and state.to_move == player):
        completed = marked != NOBODY and view.zone[marked] < 0
        ruleset = state.ruleset
        if _leaves_in_one_maneuver(view, battalion, ruleset.sacrifice_ma if completed else
                                   ruleset.maneuver_ma(view.arms[battalion])):
            return True
    try:
        start, completed = _coming_turn(state, player, battalion if state.sacrifice[player] != NOBODY else NOBODY)
    except ReplayError:  # it cannot take the 8 MA (not on the battlefield after steps 1-4)
        start, completed = _coming_turn(state, player)
    where = start.zone[battalion]
    if where < 0:
        return False
    stack = start.stacks[where]
    ruleset = state.ruleset
    if stack[-1] == battalion and start.stun != battalion:
        ma = ruleset.sacrifice_ma if completed else ruleset.maneuver_ma(start.arms[battalion])
        if _leaves_in_one_maneuver(start, battalion, ma):
            return True
    top = stack[-1]
    orders: list = []
    if state.owner[top] == player and (top == battalion or battalion in stack):
        current = start.arms[top]
        below = stack[-2] if len(stack) > 1 and start.owner[stack[-2]] == player else NOBODY
        for arms in range(current - 1, 0, -1):
            most = 0 if below == NOBODY else min(current - arms, 6 - start.arms[below])
            orders += [Lighten(start.ids[top], arms, transfer=transfer or None) for transfer in range(most + 1)]
    orders += [Sacrifice(start.ids[other]) for other in start.battalions_of[player]
               if other != battalion and start.zone[other] >= 0]
    order_steps = 4 * _copy_steps(state)  # R99: a copy, the order, the turn passing, the view
    for order in orders:
        _spend(state, order_steps)
        after = start.copy()
        try:
            after.apply_order(order, 1)
        except ReplayError:
            continue
        after.end_turn()
        sacrificed = isinstance(order, Sacrifice)
        view = turn_start_view(_after_frozen_turn(after), player)
        if view.zone[battalion] >= 0 and can_leave_zone(view, battalion, sacrifice_completed=sacrificed):
            return True
    return False


def _after_frozen_turn(state: BattleState) -> BattleState:
    """The other general's turn passing frozen on `state` (in place; see `_coming_turn`)."""
    mover = state.to_move
    if state.vigor != NOBODY and state.owner[state.vigor] == mover:
        state.vigor = NOBODY
    if state.stun != NOBODY and state.owner[state.stun] != mover:
        state.stun = NOBODY
    state.to_move = 1 - mover
    state.turns_played += 1
    return state


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
    zones, arms = state.zone, state.arms
    can_destroy = state.ruleset.can_destroy
    for battalion in state.battalions_of[declarer]:
        if (zones[battalion] >= 0 or zones[battalion] == IN_PRISON) and can_destroy(arms[battalion]):
            return True
    return False


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



def best_condition(state: BattleState, declarer: int, holding: Condition | None = None) -> Condition | None:
    """R10: the condition worth the most OPP that the declarer satisfies now. `holding` is one already
    known to hold (an accepted claim): only the better ones are looked at again."""
    for condition, condition_is_met in _BEST_FIRST_HOLDS:
        if condition == holding:
            return condition
        if condition_is_met(state, declarer):
            return condition
    return None
