"""Adjudication: replay a log, decide how the battle ended, and answer with a `Verdict`."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .conditions import Condition, opp_for
from .errors import Location, ReplayError
from .model import PLAYERS, Replay
from .replay import decode, parse_document
from .state import BattleState, SearchBudgetExceeded, SearchWork
from .variants import battle_from_replay
from .victory import RESOLVE_TURNS, aggressive_action, best_condition, condition_holds


class Outcome(StrEnum):
    VICTORY = "victory"
    STALEMATE = "stalemate"
    RESOLVE = "resolve"
    UNFINISHED = "unfinished"


# A written __init__: compiled by mypyc, unlike the generated one (see rules_engine/model.py).
@dataclass(frozen=True, slots=True, init=False)
class Verdict:
    """The engine's answer; `to_dict()` is the verdict JSON of the replay format."""

    valid: bool
    outcome: Outcome | None = None
    winner: str | None = None
    condition: Condition | None = None
    claim: dict | None = None
    declaration: dict | None = None
    opp: dict | None = None
    turns: int = 0
    divisive: dict | None = None
    missed: tuple[dict, ...] = ()
    params: dict | None = None
    error: ReplayError | None = None

    def __init__(self, valid: bool, outcome: Outcome | None = None, winner: str | None = None,
                 condition: Condition | None = None, claim: dict | None = None,
                 declaration: dict | None = None, opp: dict | None = None, turns: int = 0,
                 divisive: dict | None = None, missed: tuple[dict, ...] = (), params: dict | None = None,
                 error: ReplayError | None = None) -> None:
        object.__setattr__(self, "valid", valid)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "condition", condition)
        object.__setattr__(self, "claim", claim)
        object.__setattr__(self, "declaration", declaration)
        object.__setattr__(self, "opp", opp)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "divisive", divisive)
        object.__setattr__(self, "missed", missed)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "error", error)

    def to_dict(self) -> dict[str, Any]:
        if not self.valid:
            return {"valid": False, "error": self.error.to_dict()}  # type: ignore[union-attr]  # invalid: set
        return {
            "valid": True,
            "outcome": str(self.outcome),
            "winner": self.winner,
            "condition": None if self.condition is None else str(self.condition),
            "claim": self.claim,
            "declaration": self.declaration,
            "opp": self.opp,
            "turns": self.turns,
            "divisive": self.divisive,
            "missed": [dict(entry) for entry in self.missed],
            "params": self.params,
        }


def _read(source: Any) -> tuple[Replay, ReplayError | None]:
    if isinstance(source, Replay):
        return source, None
    if isinstance(source, str | bytes | bytearray):
        return parse_document(decode(source), shape_checked=True)
    return parse_document(source)


def _divisive(state: BattleState) -> tuple[dict, str | None]:
    """R11: Total Arms, then battalion count (battlefield plus prisoners held by the enemy).
    Returns the measures and the winner (None: a tie on both)."""
    arms = {player: state.total_arms(number) for number, player in enumerate(PLAYERS)}
    count = {player: state.battalion_count(number) for number, player in enumerate(PLAYERS)}
    winner = None
    for measure in (arms, count):
        if measure["p1"] != measure["p2"]:
            winner = "p1" if measure["p1"] > measure["p2"] else "p2"
            break
    return {"total_arms": arms, "battalions": count}, winner


def _decide(state: BattleState, replay: Replay) -> dict:
    """The outcome fields for the result of a fully replayed, legal log."""
    result = replay.result
    decided: dict[str, Any] = {"outcome": Outcome.UNFINISHED, "winner": None, "condition": None, "claim": None,
                               "declaration": None, "divisive": None}
    if state.forced_surrender is not None:  # R5, R35
        loser = PLAYERS[state.forced_surrender]
        if result is not None and not (result.type == "surrender" and result.by == loser):
            raise ReplayError("result_contradicts_end", f"The battle ended with {loser}'s Forced Surrender (two "
                                                        "consecutive Stalls, R5); result must be omitted or be "
                                                        f'{{"type": "surrender", "by": "{loser}"}}.',
                              Location(None))
        decided.update(outcome=Outcome.VICTORY, winner=PLAYERS[1 - state.forced_surrender],
                       condition=Condition.FORCED_SURRENDER)
        return decided
    if result is None:
        raise ReplayError("missing_result", "The replay has no result; a battle that did not end by two "
                                            "consecutive Stalls needs one (use {\"type\": \"unfinished\"}).",
                          Location(None))
    if result.type == "unfinished":
        return decided
    if result.type == "surrender":
        decided.update(outcome=Outcome.VICTORY, winner=PLAYERS[1 - PLAYERS.index(result.by)],
                       condition=Condition.VOLUNTARY_SURRENDER)
        return decided
    if result.type in ("claim", "deadlock") and state.turns_played == 0:  # R104 (replaces R46)
        reason = "Victory conditions are checked at the end of Battle turns, and this log has none (R104)."
        if result.type == "claim":
            decided["claim"] = {"by": result.by, "condition": result.condition, "accepted": False, "reason": reason}
        else:
            decided["declaration"] = {"type": "deadlock", "accepted": False, "reason": reason}
        return decided
    if result.type == "claim":
        declarer = PLAYERS.index(result.by)
        claimed = Condition(result.condition)  # type: ignore[arg-type]  # a claim names its condition
        check = condition_holds(state, declarer, claimed)
        if not check:  # R34: judged as declared
            decided["claim"] = {"by": result.by, "condition": result.condition, "accepted": False,
                                "reason": check.reason}
            return decided
        decided["claim"] = {"by": result.by, "condition": result.condition, "accepted": True}
        if best_condition(state, 1 - declarer) is not None:
            return _divisive_conclusion(state, decided)  # R11
        decided.update(outcome=Outcome.VICTORY, winner=result.by,
                       condition=best_condition(state, declarer, holding=claimed))  # R10
        return decided
    if result.type == "deadlock":
        for number, player in enumerate(PLAYERS):
            action = aggressive_action(state, number)
            if action is not None:
                decided["declaration"] = {"type": "deadlock", "accepted": False,
                                          "reason": f"This is no deadlock: {player} can still act: {action}."}
                return decided
        return _divisive_conclusion(state, decided)  # R14
    # resolve (R15, R38): never inferred, only checked.
    if state.turns_played < RESOLVE_TURNS:
        reason = (f"Resolve needs three full turn cycles ({RESOLVE_TURNS} turns) without aggressive action; "
                  f"the battle has only {state.turns_played} turns.")
    elif state.calm_turns < RESOLVE_TURNS:
        reason = (f"Resolve needs three full turn cycles ({RESOLVE_TURNS} turns) without aggressive action; "
                  f"turn {state.turns_played - state.calm_turns} had one.")
    else:
        decided["outcome"] = Outcome.RESOLVE
        return decided
    decided["declaration"] = {"type": "resolve", "accepted": False, "reason": reason}
    return decided


def _divisive_conclusion(state: BattleState, decided: dict) -> dict:
    divisive, winner = _divisive(state)
    decided["divisive"] = divisive
    if winner is not None:
        decided.update(outcome=Outcome.VICTORY, winner=winner, condition=Condition.FORCED_SURRENDER)
    else:
        decided.update(outcome=Outcome.STALEMATE)
    return decided


def missed_at(state: BattleState, after_turn: int) -> list[dict]:
    """Conditions each general could have declared at this turn end (R9), best one each (R10, R39)."""
    missed = []
    for number, player in enumerate(PLAYERS):
        condition = best_condition(state, number)
        if condition is not None:
            missed.append({"after_turn": after_turn, "by": player, "condition": str(condition)})
    return missed


def _formed(source: Any) -> tuple[Replay, ReplayError | None, BattleState]:
    """Read a replay and play its formation: the replay, the error deferred by its reading (R45)
    and the state at the start of the battle."""
    replay, unreadable = _read(source)
    state = battle_from_replay(replay)
    for number, entry in enumerate(replay.formation, 1):
        state.deploy(entry, number)
    state.begin_battle(replay.first_turn)
    return replay, unreadable, state


# R99: the search steps (`SearchWork`) the victory checks of one adjudication may spend, at all its turn
# ends together: under two seconds of the pure-Python engine on the dearest searches known (bench/engine.py's
# worst case), and over forty times what the pinned generated battle that searches the most spends
# (docs/performance.md).
SEARCH_STEP_LIMIT = 600_000


def _out_of_search_steps(turn: int) -> ReplayError:
    return ReplayError("search_budget_exceeded", f"The victory checks at the end of turn {turn} need more than "
                                                 f"{SEARCH_STEP_LIMIT:,} search steps, the most the engine spends on "
                                                 "one replay (R99); this replay cannot be adjudicated.",
                       Location(turn))


def _adjudicate(source: Any) -> Verdict:
    replay, unreadable, state = _formed(source)
    state.work = SearchWork(SEARCH_STEP_LIMIT)
    missed: list[dict] = []
    last = len(replay.turns)
    for number, turn in enumerate(replay.turns, 1):
        try:
            state.play_turn(turn, number)
            if number < last:
                missed.extend(missed_at(state, number))
        except SearchBudgetExceeded:
            raise _out_of_search_steps(number) from None
    if unreadable is not None:
        raise unreadable  # R45: the replay was legal up to the first step that cannot be read
    try:
        decided = _decide(state, replay)
    except SearchBudgetExceeded:
        raise _out_of_search_steps(state.turns_played) from None
    outcome = decided["outcome"]
    condition = decided["condition"]
    return Verdict(
        valid=True, outcome=outcome, winner=decided["winner"], condition=condition, claim=decided["claim"],
        declaration=decided["declaration"],
        opp=opp_for(str(outcome), decided["winner"], None if condition is None else str(condition)),
        turns=state.turns_played, divisive=decided["divisive"], missed=tuple(missed),
        params=replay.rules.effective_params.to_dict(),
    )


def adjudicate(source: Any) -> Verdict:
    """Replay a battle (a `Replay`, JSON text or bytes, or a decoded dict) and decide it.
    (`Any`, not that union: anything else gets an invalid verdict, in the compiled engine too.)

    Never raises for any input: an unreadable or illegal log is an invalid verdict pointing at
    the first bad step.
    """
    try:
        return _adjudicate(source)
    except ReplayError as error:
        return Verdict(valid=False, error=error)
    except Exception as fault:  # noqa: BLE001 - last resort, see README "internal_error"
        # (a name of its own: mypyc gives `error` above the type ReplayError)
        return Verdict(valid=False, error=ReplayError(
            "internal_error", f"The engine failed on this replay ({type(fault).__name__}); please report it.",
            Location(None)))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The battle after the formation (turn 0) or after a turn; `state` is a private copy."""

    turn: int
    state: BattleState


def replay_states(source: Any) -> Iterator[Snapshot]:  # Replay, text, bytes or dict (see `adjudicate`)
    """Yield the battle after the formation and after each turn, for a viewer.

    Raises `ReplayError` at the first bad step, after yielding every snapshot before it."""
    replay, unreadable, state = _formed(source)
    yield Snapshot(0, state.copy())
    for number, turn in enumerate(replay.turns, 1):
        state.play_turn(turn, number)
        yield Snapshot(number, state.copy())
    if unreadable is not None:
        raise unreadable
