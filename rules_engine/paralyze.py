"""R12 (R32, R91, R102, R115): whether a battalion could ever move out of its zone, the rest of the battlefield
frozen (`can_leave_zone`), and the first of a general's battalions that can (`first_leaver`): the
question of Paralyze."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .budget import copy_steps, spend
from .constants import NOBODY
from .errors import ReplayError
from .model import PLAYERS, Lighten, Sacrifice

if TYPE_CHECKING:
    from .state import BattleState


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
        plain_ma = ruleset.ma_of_arms[arms - 1]
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
    can_destroy = ruleset.destroys_at_arms[arms - 1] and below == NOBODY
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
        state, battalion, facings, best_ma, max(sacrifice_ma, ruleset.ma_of_arms[arms - 1]), arms)


def first_leaver(state: BattleState, player: int) -> int | None:
    """The first of `player`'s battalions on the battlefield (army order) that can leave its zone, the
    battlefield as their coming turn finds it (R102). When `player` stalled on its last turn, its coming
    turn cannot be another Stall (R5, R91, `_leaves_without_a_second_stall`)."""
    view = turn_start_view(state, player)
    zones = view.zone
    second_stall = state.stalled[player] and not state.is_over
    for battalion in view.battalions_of[player]:
        spend(state, 1)  # R99
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
            event.kind == "position" and event.zone != where for event in state.explore(battalion, ma, builds=False)):
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
                                   ruleset.ma_of_arms[view.arms[battalion] - 1]):
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
        ma = ruleset.sacrifice_ma if completed else ruleset.ma_of_arms[start.arms[battalion] - 1]
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
    order_steps = 4 * copy_steps(state)  # R99: a copy, the order, the turn passing, the view
    for order in orders:
        spend(state, order_steps)
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
