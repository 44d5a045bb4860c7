"""R103 (R84): with two orders in the coming turn (double time), an aggressive action of the second order after
a first Maneuver that took none itself: the first battalion moved elsewhere, built a rampart, or used a
battle art. The dearest search of the victory checks, remembered for the battle (`BattleState.memo`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import connected_zones
from .aggressive import first_aggressive, maneuverable, single_order_aggressive
from .budget import copy_steps, spend
from .constants import NOBODY
from .errors import ReplayError
from .state import ManeuverRun, Position

if TYPE_CHECKING:
    from .state import BattleState


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
    hidden, firsts = maneuverable(state, player, sacrifice_ma=False)
    reaches: dict[tuple[int, int], list[Position]] = {}

    def places(first: int, ma: int) -> list[Position]:
        """The positions the first battalion's Maneuver reaches, cheapest first, searched once."""
        if (first, ma) not in reaches:
            reaches[first, ma] = [event for event in state.explore(first, ma, hidden, builds=False)
                                  if event.kind == "position"]
        return reaches[first, ma]

    # Whether the second order alone finds an aggressive action with the first lifted off, for the battle
    # arts' search below; it searches on the battlefield as `player`'s turn finds it, the same one as here
    # unless a Stun token only this view still counts (`maneuverable`).
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
    overgrown = sum(len(layers) for layers in state.variant.overgrown.values()) if state.variant.overgrown else 0
    return sum(1 for rampart in state.ramparts if rampart is not None) + overgrown


def _after_first_art(state: BattleState, player: int, first: int, positions: list[Position],
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
    per_copy = copy_steps(state)
    for event in positions:
        if event.ma_left < 1 or event.stacked:
            continue
        here, facing, left = event.zone, event.facing, event.ma_left
        if here in visited and not revisit:
            continue
        spend(state, 2 * per_copy)  # `base` and `view`
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
        spend(state, len(arts))  # making and screening them, each about one position of a search
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
            spend(state, per_copy)
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
            key = (tuple(stacks), tuple(tried.ramparts), None if tried.variant.terrain is None else tuple(tried.variant.terrain),
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
            then = single_order_aggressive(tried, player, sacrifice_ma=second_gets_eight, exclude=first)
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
    hidden, candidates = maneuverable(state, player)
    adjacent = state.board.adjacent
    areas: dict[int, tuple[int, frozenset[int]]] = {}
    for battalion, ma in candidates:
        if ruleset.has_arts and not ruleset.rampart_blind(state, battalion):
            continue
        reached: set[int] = set()
        for event in state.explore(battalion, ma, hidden, builds=False):
            if event.kind != "position":
                break
            reached.add(event.zone)
        else:
            for _ in range(2):
                reached.update([near for zone in reached for near in adjacent[zone]])
            areas[battalion] = (ma, frozenset(reached))
    return areas


def _lifted_finds(view: BattleState, player: int, first: int, second_gets_eight: bool,
                  areas: dict[int, tuple[int, frozenset[int]]] | None, state: BattleState, changed: set[int] | None) -> bool:
    """Whether the second order, the first lifted off, finds an aggressive action on `view` (the turn's
    battlefield `state` after the first order, `changed`: the zones where they differ, None: unknown):
    `single_order_aggressive`, without searching again a battalion whose `areas` entry shows its search
    reads none of those zones (the battalion itself unchanged, its MA no more than there)."""
    if areas is None or changed is None:
        return single_order_aggressive(view, player, first, second_gets_eight) is not None
    hidden, seconds = maneuverable(view, player, first, second_gets_eight)
    ruleset = view.ruleset
    for second, ma in seconds:
        area = areas.get(second)
        if area is not None and ma <= area[0] and area[1].isdisjoint(changed) and view.zone[second] == \
                state.zone[second] and view.facing[second] == state.facing[second] and \
                view.arms[second] == state.arms[second]:
            continue
        if first_aggressive(view, second, ma, hidden) is not None:
            return True
        if ruleset.has_arts and ruleset.art_aggressive(view, second, ma, hidden) is not None:
            return True
    return False


def _changed_zones(state: BattleState, view: BattleState, first: int) -> set[int] | None:
    """The zones where `view` (after the first order) differs from `state` for a Maneuver search with the
    first lifted off: its zone before and after, and every zone whose stack, rampart or terrain changed;
    None when it differs otherwise too (ramparts left to build)."""
    if view.ramparts_left != state.ramparts_left or view.variant.rampart_pool != state.variant.rampart_pool:
        return None
    spend(state, copy_steps(state))
    changed = {state.zone[first], view.zone[first]}
    for old, new in ((state.stacks, view.stacks), (state.ramparts, view.ramparts), (state.variant.terrain, view.variant.terrain)):
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
        alone = single_order_aggressive(base, player, first, second_gets_eight) is not None
    if alone:
        return None
    hidden, seconds = maneuverable(base, player, first, second_gets_eight)
    neighbours = base.board.neighbours
    zones: set[int] = set()
    for second, ma in seconds:
        if not ruleset.rampart_blind(base, second):
            return None
        if not ruleset.can_destroy(base.arms[second]):
            continue
        cost = ruleset.destroy_cost(base.kingdom[second], kingdom)
        for event in base.explore(second, ma, hidden, builds=False):
            if event.kind == "position" and not event.stacked and event.ma_left >= cost:
                ahead = neighbours[event.zone][event.facing]
                if ahead >= 0:
                    zones.add(ahead)
    return frozenset(zones)


def _moved(state: BattleState, battalion: int, zone: int) -> BattleState:
    view = state.copy()
    view.remove_from_stack(battalion)
    view.stacks[zone] = view.stacks[zone] + (battalion,)
    view.zone[battalion] = zone
    return view


def _after_first_move(state: BattleState, player: int, first: int, positions: list[Position],
                      second_gets_eight: bool) -> str | None:
    names, ids = state.board.names, state.ids
    start = state.zone[first]
    tried = {start}
    for event in positions:
        if event.zone in tried:
            continue
        zone = event.zone
        tried.add(zone)
        spend(state, copy_steps(state))
        then = single_order_aggressive(_moved(state, first, zone), player, sacrifice_ma=second_gets_eight,
                                        exclude=first)
        if then is not None:
            return f"{ids[first]} can move to {names[zone]}, then {then}"
    return None


def _after_first_build(state: BattleState, player: int, first: int, positions: list[Position],
                       second_gets_eight: bool) -> str | None:
    """A rampart the first battalion builds (from a place it reaches) and a second battalion destroys, or
    Snowblinds next to on its way (a Frost battalion with battle arts, R17 amended)."""
    ruleset = state.ruleset
    kingdom = ruleset.rampart_kingdom(state, first)
    if kingdom is None:
        return None  # no rampart left
    names, ids = state.board.names, state.ids
    # The places the first can build from, in the order its search meets them, and the zones it can build on.
    places = list(dict.fromkeys(event.zone for event in positions
                                if event.ma_left >= ruleset.build_cost and not event.stacked))
    reach = {here: connected_zones(state, player, here) - {here} for here in places}  # `connected`, once a place
    buildable: set[int] = set().union(*reach.values())
    unbuildable = ruleset.unbuildable(state, first) or frozenset()
    buildable.difference_update(unbuildable)
    if not buildable:
        return None
    # Where a second battalion (the first lifted off) could stand facing a zone, with MA left to destroy there.
    lifted_hidden, seconds = maneuverable(state, player, first, second_gets_eight)
    wanted: dict[int, list[int]] = {}
    for second, second_ma in seconds:
        if not ruleset.can_destroy(state.arms[second]):
            continue
        cost = ruleset.destroy_cost(state.kingdom[second], kingdom)
        for event in state.explore(second, second_ma, lifted_hidden, builds=False):
            if event.kind == "position" and not event.stacked and event.ma_left >= cost:
                ahead = state.board.neighbours[event.zone][event.facing]
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
            spend(state, copy_steps(state))
            view = state.copy()
            view.ramparts[zone] = (player, kingdom)
            if any(first_aggressive(view, second, second_ma, lifted_hidden) is not None for second, second_ma in frost):
                wanted[zone] = []
    if not wanted:
        return None
    for here in places:
        for zone in wanted:
            if zone not in reach[here]:
                continue
            spend(state, copy_steps(state))
            view = _moved(state, first, here) if here != state.zone[first] else state.copy()
            view.ramparts[zone] = (player, kingdom)
            then = single_order_aggressive(view, player, sacrifice_ma=second_gets_eight, exclude=first)
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
            if event.kind != "position":
                return None
            reach.add(neighbours[event.zone][event.facing])
    return reach
