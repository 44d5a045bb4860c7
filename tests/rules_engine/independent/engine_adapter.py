"""Everything the independent oracle needs from the rules engine, in one place.

The oracle (`oracle.py`) decides Paralyze and Blunt by its own exhaustive search; the engine is
used only as the *move generator*: it plays a turn's steps 1-4, says whether one order or one
Maneuver action is legal (by applying it), and reports the battle as it stands. Nothing here
calls the engine's victory checks (`rules_engine.victory`) or its search (`BattleState.explore`,
`reach`); `engine_claim_accepted` asks the engine's *answer* only through the public verdict of a
claim, which is what the property compares against.

Orders and actions are written as replay-format dicts (the contract,
`../shared/spec/replay-format.md`) and read by the engine's own turn reader, so the oracle never
builds engine-internal objects. When the engine is refactored, re-point the few calls below.

Engine contract relied on: every refused step raises `ReplayError` before changing anything
(`rules_engine/state.py`), so a refused candidate can be tried on the live state. For speed, a
few functions read the state's records directly (`fingerprint`, `rampart_total`, `stacks_now`,
`free_zones`, `save_maneuver`, `pass_frozen_turn`, `stalled_last_turn`); they are the ones to
re-point when the state's fields change.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from rules_engine import BattleState, ReplayError, adjudicate, replay_states
from rules_engine.replay import read_turn

PLAYERS = ("p1", "p2")
FACINGS = ("N", "E", "S", "W")

Refused = ReplayError


# ---- Reading orders and actions through the engine's own reader ------------------------------
@lru_cache(maxsize=200_000)
def _parsed_turn(text: str):
    return read_turn(json.loads(text), 1)


_ORDERS: dict[tuple, Any] = {}
_ACTIONS: dict[tuple, Any] = {}


def _key(value: dict) -> tuple:
    return tuple(sorted(value.items()))


def parse_order(order: dict) -> Any:
    """The engine's object for one replay-format order dict (raises `Refused` when unreadable)."""
    key = _key({name: tuple(map(_key, item)) if name == "actions" else item for name, item in order.items()})
    parsed = _ORDERS.get(key)
    if parsed is None:
        parsed = _ORDERS[key] = _parsed_turn(json.dumps({"by": "p1", "orders": [order]}, sort_keys=True)).orders[0]
    return parsed


def parse_action(action: dict) -> Any:
    """The engine's object for one replay-format Maneuver action dict (raises `Refused`)."""
    key = _key(action)
    parsed = _ACTIONS.get(key)
    if parsed is None:
        order = {"type": "maneuver", "battalion": "X", "actions": [action]}
        parsed = _ACTIONS[key] = parse_order(order).actions[0]
    return parsed


def parse_turn(turn: dict) -> Any:
    return _parsed_turn(json.dumps(turn, sort_keys=True))


# ---- Positions -------------------------------------------------------------------------------
def state_after(replay: dict, turns: int) -> BattleState:
    """The battle as it stands at the end of turn `turns` (0: after the formation)."""
    for snapshot in replay_states(replay):
        if snapshot.turn == turns:
            return snapshot.state
    raise ValueError(f"the replay has fewer than {turns} turns")


def engine_claim_accepted(replay: dict, turns: int, by: str, condition: str) -> bool:
    """The engine's answer: is `by`'s claim of `condition` at the end of turn `turns` accepted?"""
    document = dict(replay)
    document["turns"] = replay["turns"][:turns]
    document["result"] = {"type": "claim", "by": by, "condition": condition}
    verdict = adjudicate(document).to_dict()
    if not verdict["valid"]:
        raise AssertionError(f"the truncated replay is invalid: {verdict['error']}")
    return bool(verdict["claim"]["accepted"])


def engine_deadlock_accepted(replay: dict, turns: int) -> bool:
    """The engine's answer to a deadlock declared at the end of turn `turns` (R14)."""
    document = dict(replay)
    document["turns"] = replay["turns"][:turns]
    document["result"] = {"type": "deadlock"}
    verdict = adjudicate(document).to_dict()
    if not verdict["valid"]:
        raise AssertionError(f"the truncated replay is invalid: {verdict['error']}")
    return verdict["declaration"] is None


# ---- Reading the battle as it stands ----------------------------------------------------------
def width_height(state: BattleState) -> tuple[int, int]:
    return state.rules.width, state.rules.height


def variants(state: BattleState) -> tuple[str, ...]:
    return tuple(state.rules.variants)


@lru_cache(maxsize=64)
def _zone_names(width: int, height: int) -> tuple[str, ...]:
    return tuple(f"{chr(97 + column)}{row}" for row in range(1, height + 1) for column in range(width))


def zone_names(state: BattleState) -> tuple[str, ...]:
    return _zone_names(state.rules.width, state.rules.height)


def battalion_ids(state: BattleState, player: str | None = None) -> list[str]:
    ids = list(state.ids)
    if player is None:
        return ids
    return [ident for ident in ids if state.battalion(ident).general == player]


def view(state: BattleState, ident: str):
    """`BattalionView`: id, general, arms, facing, place, zone, tokens."""
    return state.battalion(ident)


def kingdom_of(state: BattleState, ident: str) -> str:
    return state.kingdom[state.index[ident]]


def stack(state: BattleState, zone: str) -> tuple[str, ...]:
    """Battalion ids on `zone`, bottom first."""
    return state.stack_at(zone)


def ramparts(state: BattleState, zone: str) -> tuple[str, ...]:
    """Owners of the ramparts on `zone`, bottom first."""
    return state.ramparts_at(zone)


def terrain(state: BattleState, zone: str) -> str | None:
    return state.terrain_at(zone)


def to_move(state: BattleState) -> str:
    return PLAYERS[state.to_move]


def stalled_last_turn(state: BattleState, player: str) -> bool:
    """Whether `player`'s latest turn was a Stall (R5: a second one in a row surrenders)."""
    return bool(state.stalled[PLAYERS.index(player)])


def is_over(state: BattleState) -> bool:
    return state.is_over


def rampart_total(state: BattleState) -> int:
    """How many ramparts stand on the battlefield (an overgrown stack counts each)."""
    overgrown = state.variant.overgrown
    below = sum(len(layers) for layers in overgrown.values()) if overgrown else 0
    return sum(1 for rampart in state.ramparts if rampart is not None) + below


def fingerprint(state: BattleState) -> tuple:
    """Everything about the battle that a coming turn can depend on (a hashable key for the
    searches' "seen" sets). Read from the state's records directly: the views are too slow here."""
    return (
        tuple(state.arms), tuple(state.facing), tuple(state.zone), tuple(state.stacks), tuple(state.ramparts),
        None if not state.variant.overgrown else tuple(sorted(state.variant.overgrown.items())),
        None if state.variant.terrain is None else tuple(state.variant.terrain),
        state.vigor, state.vigor_lost, state.stun, tuple(state.sacrifice), tuple(state.prisons),
        tuple(state.ramparts_left),
        None if state.variant.rampart_pool is None else tuple(state.variant.rampart_pool),
        state.to_move, tuple(state.stalled),
    )


def fingerprint_without(state: BattleState, ident: str | None) -> tuple:
    """`fingerprint` with the Arms and facing of `ident` left out (None: nothing left out)."""
    if ident is None:
        return fingerprint(state)
    number = state.index[ident]
    arms, facing = list(state.arms), list(state.facing)
    arms[number] = facing[number] = -1
    return (tuple(arms), tuple(facing), *fingerprint(state)[2:])


# ---- Steps of a turn ---------------------------------------------------------------------------
def copy(state: BattleState) -> BattleState:
    return state.copy()


def start_turn(state: BattleState, beneficiary: str | None = None) -> tuple[BattleState, bool]:
    """Steps 1-4 of the coming turn on a copy (counter attacks, token reset, sacrifice completion);
    returns the copy and whether a sacrifice completed. Raises `Refused` (e.g. a beneficiary named
    when no sacrifice completes)."""
    work = state.copy()
    opened = work.start_turn(PLAYERS[work.to_move], None, None, beneficiary)
    return work, opened.sacrifice_completed


def apply_order(state: BattleState, order: dict, order_number: int = 1) -> None:
    """Apply one non-Maneuver order to `state` (in place; raises `Refused` before changing it)."""
    state.apply_order(parse_order(order), order_number)


def begin_maneuver(state: BattleState, ident: str, order_number: int = 1):
    return state.begin_maneuver(ident, order_number)


def apply_action(run, action: dict) -> None:
    """Apply one Maneuver action to a run in progress (raises `Refused` before changing anything)."""
    run.apply(parse_action(action))


def ma_left(run) -> int:
    return run.ma_left


def ma_spent(run) -> int:
    return run.spent


def maneuver_over(run) -> bool:
    """A Rout or an art that spends all remaining MA ends the Maneuver."""
    return run.routed or run.ended_by is not None


def save_maneuver(run) -> tuple:
    """A snapshot of a Maneuver in progress and its battle, to go back to after a tried action
    (cheaper than replaying the actions so far). Falls back to None when the run cannot be
    copied, and the caller then replays."""
    slots = getattr(type(run), "__slots__", None)
    if not slots:
        return None
    return type(run), run.state.copy(), {name: getattr(run, name) for name in slots if name != "state"}


def restore_maneuver(saved: tuple):
    """A fresh (state, run) equal to the snapshot (the snapshot stays untouched)."""
    kind, state, fields = saved
    work = state.copy()
    run = kind.__new__(kind)
    run.state = work
    for name, value in fields.items():
        setattr(run, name, value)
    return work, run


def stacks_now(state: BattleState) -> tuple:
    """A cheap snapshot of every zone's stack, read later with `stack_in`."""
    return tuple(state.stacks)


def stack_in(state: BattleState, snapshot: tuple, zone: str) -> tuple[str, ...]:
    """The ids on `zone` (bottom first) in a `stacks_now` snapshot of `state`'s battle."""
    return tuple(state.ids[b] for b in snapshot[state.board.index[zone]])


def free_zones(state: BattleState) -> list[str]:
    """Zones with neither a battalion nor a rampart."""
    names = zone_names(state)
    return [names[z] for z in range(len(names)) if not state.stacks[z] and state.ramparts[z] is None]


def finish_maneuver(run) -> None:
    run.finish()


def end_turn(state: BattleState) -> None:
    state.end_turn()


def play_turn(state: BattleState, turn: dict) -> None:
    """Play a whole written turn through the engine (the witness check)."""
    state.play_turn(parse_turn(turn), state.turns_played + 1)


def pass_frozen_turn(state: BattleState) -> None:
    """The declaring general's turn under "the rest of the battlefield frozen" (R12, R13): no
    order and no counter attack; only the calendar of its step 3 runs (its Vigor and the Stun it
    put on an enemy battalion end). The next turn is the other general's again."""
    mover = state.to_move
    if state.vigor >= 0 and state.owner[state.vigor] == mover:
        state.vigor = -1
    if state.stun >= 0 and state.owner[state.stun] != mover:
        state.stun = -1
    state.to_move = 1 - mover
