"""The battle as it stands, advanced formation entry by entry and turn by turn.

`BattleState` holds plain lists indexed by battalion number (Player-1's battalions first, in
army order) and per zone; stacks are tuples (bottom first) so that `copy()` is a handful of
shallow list copies (copy-on-turn), never a deep copy per action.

Every illegal step raises `ReplayError` *before* changing anything, so a caller (the generator,
a viewer, a bot) can try a step and keep the state if it was refused.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from .board import FACING_INDEX, FACINGS, NO_ZONE, Board, board_for
from .constants import (  # noqa: F401 - the places are part of the state's public vocabulary
    IN_PRISON,
    NOBODY,
    PHASE_BATTLE,
    PHASE_FORMATION,
    PHASE_OVER,
    SLAUGHTERED,
    UNDEPLOYED,
)
from .errors import HEADER, Location, ReplayError
from .model import (
    PLAYERS,
    Action,
    Deployment,
    Extricate,
    Lighten,
    Maneuver,
    Order,
    Rules,
    Sacrifice,
    Stall,
    Turn,
)

if TYPE_CHECKING:
    from .ruleset import CoreRuleset



@dataclass(frozen=True, slots=True)
class BattalionView:
    """One battalion as a player sees it (for viewers and tests)."""

    id: str
    general: str
    arms: int
    facing: str
    place: str  # "battlefield", "prison", "graveyard" or "undeployed"
    zone: str | None
    tokens: tuple[str, ...]  # "vigor", "stun", "sacrifice"


@dataclass(frozen=True, slots=True)
class ReachablePosition:
    zone: str
    facing: str
    ma_left: int
    stacked: bool


@dataclass(frozen=True, slots=True)
class ReachableAction:
    """An action the battalion can reach this Maneuver; `cost` is the fewest MA spent, it included."""

    kind: str  # "attack", "rout", "build", "destroy"
    zone: str
    cost: int
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Reach:
    """What one battalion can do in a Maneuver now, the battlefield otherwise standing still.

    Positions are reached by moving and facing; builds and destroys are listed where they become
    possible, attacks where they start (the search does not continue past an attack, a build or a
    destroy, whose outcome changes the battlefield)."""

    battalion: str
    ma: int
    positions: tuple[ReachablePosition, ...]
    actions: tuple[ReachableAction, ...]


class Position(NamedTuple):
    """A place the Maneuver search (`BattleState.explore`) reaches, with `ma_left` MA left there; `stacked`:
    on another battalion."""

    kind: Literal["position"]
    zone: int
    facing: int
    ma_left: int
    stacked: bool


class Found(NamedTuple):
    """An action the Maneuver search finds on `zone`, `cost` MA spent with it included: the battalion
    attacked or routed as `target`; for a "destroy", "built" when the rampart is built and destroyed in the
    same Maneuver, else None; None for a "build"."""

    kind: Literal["attack", "rout", "build", "destroy"]
    zone: int
    cost: int
    target: int | str | None


class Spent(NamedTuple):
    """The Maneuver search has searched every position reached for `ma` MA (`pause_each_ma`)."""

    kind: Literal["spent"]
    ma: int


Event = Position | Found | Spent


# A written __init__: compiled by mypyc, unlike the generated one (see rules_engine/model.py).
@dataclass(frozen=True, slots=True, init=False)
class TurnStart:
    """What steps 1-4 left for the general to decide: counter-attacked survivors (their facing,
    R7) and whether a sacrifice completed (its 8 MA, R2)."""

    counter_survivors: tuple[str, ...]
    sacrifice_completed: bool

    def __init__(self, counter_survivors: tuple[str, ...], sacrifice_completed: bool) -> None:
        object.__setattr__(self, "counter_survivors", counter_survivors)
        object.__setattr__(self, "sacrifice_completed", sacrifice_completed)


class ManeuverRun:
    """A Maneuver in progress: apply its actions one by one, then `finish()`."""

    __slots__ = ("state", "battalion", "player", "ma", "ma_left", "attacked", "routed", "faces_only",
                 "order_number", "actions_done", "ended_by", "unless_stall")

    def __init__(self, state: BattleState, battalion: int, ma: int, order_number: int):
        self.state = state
        self.battalion = battalion
        self.player = state.owner[battalion]
        self.ma = ma
        self.ma_left = ma
        self.attacked = False
        self.routed = False
        self.faces_only = True
        self.order_number = order_number
        self.actions_done = 0
        self.ended_by: str | None = None  # a battle art that spent all remaining MA ends the Maneuver (R48)
        # R5: a Maneuver made only of `face` actions is a Stall for every purpose (MA not counted, a
        # battalion on its own battalion may turn). Whether it is one is known only at its first other
        # action; the first face action that only a Stall allows is refused then, at its own place.
        self.unless_stall: ReplayError | None = None

    @property
    def spent(self) -> int:
        return self.ma - self.ma_left

    def location(self, action_number: int | None = None) -> Location:
        return Location(self.state.turn_in_progress, self.order_number, action_number)

    def require(self, cost: int, location: Location) -> None:
        if cost > self.ma_left:
            raise ReplayError("not_enough_ma", f"{self.state.ids[self.battalion]} has {self.ma_left} MA left; "
                                               f"this action costs {cost}.", location)

    def apply(self, action: Action, action_number: int | None = None) -> None:
        number = self.actions_done + 1 if action_number is None else action_number
        location = self.location(number)
        if self.routed:
            raise ReplayError("action_after_rout", "A Rout spends all remaining MA and ends the Maneuver; "
                                                   "no action can follow it.", location)
        if self.ended_by is not None:
            raise ReplayError("action_after_final_art", f"{self.ended_by.capitalize()} spends all remaining MA and "
                                                        "ends the Maneuver; no action can follow it (R48).",
                              location)
        if self.unless_stall is not None and action.act != "face":
            raise self.unless_stall
        handler = self.state.ruleset.actions.get(action.act)
        if handler is None:
            raise ReplayError("variant_not_elected", f"{action.act} is a battle art; this battle did not elect "
                                                     "the battle_arts variant.", location)
        handler(self, action, location)
        if action.act != "face":
            self.faces_only = False
        self.actions_done += 1

    def finish(self) -> bool:
        """End the Maneuver (R29, Vigor, R27). Returns whether it counts as a Stall (R5)."""
        state = self.state
        if self.spent < 1:
            raise ReplayError("no_ma_spent", f"A Maneuver must spend at least 1 MA (R29); "
                                             f"{state.ids[self.battalion]}'s spends none.",
                              self.location())
        battalion = self.battalion
        if self.attacked:
            where = state.zone[battalion]
            if not self.routed and where >= 0 and len(state.stacks[where]) == 1:
                state.vigor = battalion  # R3: the single Vigor token moves here
                state.vigor_lost = 0
            elif self.routed and state.vigor != NOBODY and state.owner[state.vigor] == self.player:
                # Only a double time turn can hold an own Vigor here: the later attacker is the
                # last one, and R27 gives it none, so the earlier one loses it too (R52).
                state.vigor = NOBODY
        state.record_stall(self.faces_only, self.order_number)
        return self.faces_only


def _takes_the_benefit(order: Order) -> bool:
    """R2, R113: whether `order` is a Maneuver that can take a completed sacrifice's 8 MA. A Maneuver
    of `face` actions alone is a Stall (R5) for R2 as well: the 8 MA lapse, no beneficiary is needed,
    and its errors are found at its own face actions, never at the beneficiary."""
    return isinstance(order, Maneuver) and not (order.actions and all(a.act == "face" for a in order.actions))


_TURN_PRIVATE = ("_sacrifice_completed", "_beneficiary", "_stalled_this_turn", "_selected")


class SearchBudgetExceeded(Exception):
    """The searches of the victory checks spent their `SearchWork` (R99). Not a `ReplayError`: no search
    may take it for a refused step; `rules_engine.verdict` turns it into the verdict error at the turn."""


class SearchWork:
    """R99: the search steps the victory checks of one adjudication may still spend, counted the same on
    every machine (never a clock): a position a Maneuver search expands is one step, an order or a battle
    art a search tries on a copy of the battlefield is `copy_steps` (its cost in positions, a copy being
    a walk over the battlefield's zones). Shared by a battle and every copy of it, like `memo`."""

    __slots__ = ("spent", "limit")

    def __init__(self, limit: int):
        self.spent = 0
        self.limit = limit

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.limit:
            raise SearchBudgetExceeded(self.spent)


class BattleState:
    """A WARLINE battle: formation, then turns; ask it what a battalion can do."""

    __slots__ = ("rules", "board", "ruleset", "generals", "ids", "index", "owner", "kingdom",
                 "arms", "facing", "zone", "stacks", "ramparts", "ramparts_left", "prisons", "graveyards",
                 "vigor", "vigor_lost", "stun", "sacrifice", "turns_played", "to_move", "stalled",
                 "forced_surrender", "calm_turns", "deployed", "phase", "turn_in_progress",
                 "_sacrifice_completed", "_beneficiary", "aggressive_this_turn", "_stalled_this_turn",
                 "variant", "_selected", "battalions_of", "routed_stun", "memo", "work")

    def __init__(self, rules: Rules, generals: tuple, armies: tuple, ruleset: CoreRuleset, *,
                 _blank_for_copy: bool = False):
        """A battle before its formation under `ruleset` (the Core Rules with the elected variants:
        `rules_engine.variants.ruleset_for(rules)`, or `new_battle`, which chooses it)."""
        if _blank_for_copy:
            return  # `copy` fills every slot (compiled by mypyc, __new__ would run __init__ anyway)
        self.rules = rules
        self.ruleset = ruleset
        self.board: Board = board_for(rules.width, rules.height)
        self.generals = generals
        ids, owner, kingdom, arms = [], [], [], []
        for player, army in enumerate(armies):
            for spec in army:
                ids.append(spec.id)
                owner.append(player)
                kingdom.append(spec.kingdom or generals[player].kingdom)
                arms.append(spec.arms)
        self.ids = tuple(ids)
        self.index = {ident: number for number, ident in enumerate(ids)}
        self.owner = tuple(owner)
        # battalions_of[p]: the battalion numbers of general p, in army order (fixed for the battle).
        self.battalions_of = tuple(tuple(b for b in range(len(ids)) if owner[b] == player) for player in (0, 1))
        self.kingdom = tuple(kingdom)
        self.arms = arms
        self.facing = [0] * len(ids)
        self.zone = [UNDEPLOYED] * len(ids)
        self.stacks: list[tuple[int, ...]] = [()] * self.board.size
        self.ramparts: list[tuple[int, str] | None] = [None] * self.board.size
        # Each general has as many ramparts as battalions; a destroyed one is gone for good.
        self.ramparts_left = [len(armies[0]), len(armies[1])]
        self.prisons: list[tuple[int, ...]] = [(), ()]  # prisons[p]: enemy battalions p holds
        self.graveyards: list[tuple[int, ...]] = [(), ()]  # graveyards[p]: enemy battalions p slaughtered
        self.vigor = NOBODY
        self.vigor_lost = 0
        self.stun = NOBODY
        self.sacrifice = [NOBODY, NOBODY]
        self.turns_played = 0
        self.to_move = 0
        self.stalled = [False, False]  # whether that general's last turn was a Stall (R5)
        self.forced_surrender: int | None = None  # the general who surrendered by stalling twice
        self.calm_turns = 0  # consecutive latest turns without an aggressive action (R15)
        self.deployed = 0
        self.phase = PHASE_FORMATION
        self.turn_in_progress: int | None = None
        self._sacrifice_completed = False
        self._beneficiary = NOBODY
        self.aggressive_this_turn = False
        self._stalled_this_turn = False
        # The elected variants' fields, each declared once in its variant's `FIELDS` (copied and keyed from
        # there): terrain (per zone) and control, the rampart pool (recruiting), overgrown ramparts (arts).
        self.variant: Any = ruleset.variant_state()
        self._selected: tuple[int, ...] = ()  # battalions given an order this turn (double time)
        self.routed_stun = NOBODY  # the Stun a rout or Surge placed this turn (R107)
        # Answers of the dearest searches by `position_key`, for this battle and every copy of it.
        self.memo: dict[tuple, object] = {}
        # R99: the search steps the victory checks may spend (shared by every copy); None: no limit.
        self.work: SearchWork | None = None
        self.ruleset.check_armies(generals, armies)
        self.ruleset.setup(self)

    def copy(self) -> BattleState:
        """An independent copy: the per-turn lists are copied, the fixed parts (board, ruleset, ids,
        owners, kingdoms) shared, the variants' part copied as its fields say. Spelled out field by field
        because the Paralyze and Blunt searches copy the battle thousands of times a replay."""
        other = BattleState(self.rules, self.generals, (), self.ruleset, _blank_for_copy=True)
        other.rules = self.rules
        other.board = self.board
        other.ruleset = self.ruleset
        other.generals = self.generals
        other.ids = self.ids
        other.index = self.index
        other.owner = self.owner
        other.kingdom = self.kingdom
        other.battalions_of = self.battalions_of
        other.memo = self.memo
        other.work = self.work
        other.vigor = self.vigor
        other.vigor_lost = self.vigor_lost
        other.stun = self.stun
        other.turns_played = self.turns_played
        other.to_move = self.to_move
        other.forced_surrender = self.forced_surrender
        other.calm_turns = self.calm_turns
        other.deployed = self.deployed
        other.phase = self.phase
        other.turn_in_progress = self.turn_in_progress
        other.aggressive_this_turn = self.aggressive_this_turn
        other.routed_stun = self.routed_stun
        for private in _TURN_PRIVATE:
            setattr(other, private, getattr(self, private))
        other.arms = self.arms[:]
        other.facing = self.facing[:]
        other.zone = self.zone[:]
        other.stacks = self.stacks[:]
        other.ramparts = self.ramparts[:]
        other.ramparts_left = self.ramparts_left[:]
        other.prisons = self.prisons[:]
        other.graveyards = self.graveyards[:]
        other.sacrifice = self.sacrifice[:]
        other.stalled = self.stalled[:]
        other.variant = self.variant.copy()
        return other

    # ---- Queries ----------------------------------------------------------------------------
    def position_key(self) -> tuple:
        """What the searches for an aggressive action read, as one hashable value, the battle's fixed
        setting apart: whose turn it is, the battlefield (stacks, facings, Arms, ramparts), the tokens,
        prisons, graveyards and ramparts left, and the variants' keyed fields (terrain, rampart pool,
        overgrown ramparts). Not the turn counters or the Stall history."""
        return (self.to_move, tuple(self.stacks), tuple(self.facing), tuple(self.arms), tuple(self.ramparts),
                tuple(self.sacrifice), self.stun, self.vigor, self.vigor_lost, self.routed_stun,
                tuple(self.prisons), tuple(self.graveyards), tuple(self.ramparts_left), self.variant.key())

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def battalion(self, ident: str) -> BattalionView:
        number = self.index[ident]
        where = self.zone[number]
        place = {IN_PRISON: "prison", SLAUGHTERED: "graveyard", UNDEPLOYED: "undeployed"}.get(where, "battlefield")
        tokens = tuple(name for name, holder in (("vigor", self.vigor), ("stun", self.stun)) if holder == number)
        if number in self.sacrifice:
            tokens += ("sacrifice",)
        return BattalionView(ident, PLAYERS[self.owner[number]], self.arms[number], FACINGS[self.facing[number]],
                             place, self.board.names[where] if where >= 0 else None, tokens)

    def stack_at(self, zone_name: str) -> tuple[str, ...]:
        """The battalions on a zone, bottom first."""
        return tuple(self.ids[b] for b in self.stacks[self.board.index[zone_name]])

    def rampart_at(self, zone_name: str) -> str | None:
        """The general owning the (top-most) rampart on a zone, or None."""
        rampart = self.ramparts[self.board.index[zone_name]]
        return None if rampart is None else PLAYERS[rampart[0]]

    def ramparts_at(self, zone_name: str) -> tuple[str, ...]:
        """The generals owning the ramparts on a zone, bottom first (Overgrow stacks them)."""
        zone = self.board.index[zone_name]
        if self.ramparts[zone] is None:
            return ()
        below = self.variant.overgrown.get(zone, ()) if self.variant.overgrown else ()
        return tuple(PLAYERS[rampart[0]] for rampart in (*below, self.ramparts[zone]))

    def terrain_at(self, zone_name: str) -> str | None:
        """The terrain of a zone (None: flatland, or no terrain variant)."""
        return None if self.variant.terrain is None else self.variant.terrain[self.board.index[zone_name]]

    def ground(self, battalion: int) -> str | None:
        """The terrain a battalion stands on; a rampart it stands on hides the terrain (Alight)."""
        where = self.zone[battalion]
        if self.variant.terrain is None or where < 0 or self.ramparts[where] is not None:
            return None
        return self.variant.terrain[where]

    def on_battlefield(self, player: int) -> list[int]:
        return [b for b in self.battalions_of[player] if self.zone[b] >= 0]

    def total_arms(self, player: int) -> int:
        """R11: Arms on the battlefield plus Arms of this general's battalions held by the enemy."""
        return sum(self.arms[b] for b in self.battalions_of[player]
                   if self.zone[b] >= 0 or self.zone[b] == IN_PRISON)

    def battalion_count(self, player: int) -> int:
        return sum(1 for b in self.battalions_of[player] if self.zone[b] >= 0 or self.zone[b] == IN_PRISON)

    def is_top_most(self, battalion: int) -> bool:
        where = self.zone[battalion]
        return where >= 0 and self.stacks[where][-1] == battalion

    def highest_own(self, zone: int, player: int) -> int | None:
        """The position in the stack on `zone` of `player`'s highest battalion there (0: the
        bottom), or None when it holds none of theirs."""
        stack = self.stacks[zone]
        owner = self.owner
        return next((i for i in range(len(stack) - 1, -1, -1) if owner[stack[i]] == player), None)

    # ---- Shared mechanics -----------------------------------------------------------------------
    def zone_number(self, name: str, location: Location) -> int:
        number = self.board.index.get(name)
        if number is None:
            raise ReplayError("off_board", f"{name} is not on the {self.board.width} x {self.board.height} "
                                           "battlefield.", location)
        return number

    def battalion_number(self, ident: str, location: Location) -> int:
        number = self.index.get(ident)
        if number is None:
            raise ReplayError("unknown_battalion", f"There is no battalion {ident} in this battle.", location)
        return number

    def remove_from_stack(self, battalion: int) -> None:
        where = self.zone[battalion]
        stack = self.stacks[where]
        if stack[-1] == battalion:
            self.stacks[where] = stack[:-1]
        else:
            self.stacks[where] = tuple(b for b in stack if b != battalion)

    def leave_battlefield(self, battalion: int) -> None:
        """Tokens stay behind when a battalion leaves the battlefield (R3, R36: their effect ends)."""
        if self.vigor == battalion:
            self.vigor = NOBODY
        if self.stun == battalion:
            self.stun = NOBODY
        owner = self.owner[battalion]
        if self.sacrifice[owner] == battalion:
            self.sacrifice[owner] = NOBODY

    def remove_top_rampart(self, zone: int) -> None:
        """Destroy the top-most rampart of a zone; an overgrown one beneath is then on top."""
        below = self.variant.overgrown.get(zone) if self.variant.overgrown else None
        if below:
            self.ramparts[zone] = below[-1]
            if len(below) > 1:
                self.variant.overgrown[zone] = below[:-1]  # type: ignore[index]  # `below` came from it
            else:
                del self.variant.overgrown[zone]  # type: ignore[union-attr]
        else:
            self.ramparts[zone] = None

    def reduce_arms(self, target: int, amount: int, vigor_protects: bool) -> bool:
        """Reduce `target` in Arms; True when it is slaughtered, into its enemy's graveyard. A battle
        art or terrain calls it directly (not an attack: its tokens stay, R47); attacks via `hit`."""
        if vigor_protects and self.vigor == target:
            amount = min(amount, self.ruleset.vigor_cap - self.vigor_lost)
            self.vigor_lost += amount
        self.arms[target] -= amount
        if self.arms[target] <= 0:
            self.arms[target] = 0
            self.slaughter(target, 1 - self.owner[target])
            return True
        return False

    def slaughter(self, battalion: int, into_graveyard_of: int) -> None:
        if self.zone[battalion] >= 0:
            self.remove_from_stack(battalion)
            self.leave_battlefield(battalion)
        self.arms[battalion] = max(self.arms[battalion], 0)
        self.zone[battalion] = SLAUGHTERED
        self.graveyards[into_graveyard_of] = self.graveyards[into_graveyard_of] + (battalion,)

    def hit(self, target: int, amount: int) -> bool:
        """One attack or counter attack on `target`; True when it is slaughtered, into its enemy's
        graveyard (R4 Vigor cap). An attack that takes nothing because Vigor is spent is still an
        attack (R36)."""
        self.aggressive_this_turn = True
        # An attacked battalion loses its Stun and Sacrifice tokens.
        if self.stun == target:
            self.stun = NOBODY
        if self.sacrifice[self.owner[target]] == target:
            self.sacrifice[self.owner[target]] = NOBODY
        return self.reduce_arms(target, amount, vigor_protects=True)

    def attack_down(self, attacker: int, zone: int) -> list[int]:
        """R8/R26: attack the top enemy battalion of `zone` and continue downward while each one
        attacked is slaughtered; the attacker ends on top. Returns the surviving attacked battalion(s)."""
        me = self.owner[attacker]
        survivors = []
        while self.stacks[zone] and self.owner[self.stacks[zone][-1]] != me:
            target = self.stacks[zone][-1]
            if not self.hit(target, self.arms[attacker]):
                survivors.append(target)
                break
        self.stacks[zone] = self.stacks[zone] + (attacker,)
        self.zone[attacker] = zone
        return survivors

    # ---- Battle Formation -----------------------------------------------------------------------
    def deploy(self, entry: Deployment, number: int | None = None) -> None:
        """Apply one formation entry (`number` counts from 1, for messages)."""
        number = self.deployed + 1 if number is None else number
        if self.phase != PHASE_FORMATION:
            raise ReplayError("formation_complete", f"Formation entry {number} comes after the formation ended.",
                              HEADER)
        if self.deployed >= len(self.ids):
            raise ReplayError("formation_complete", f"Formation entry {number} is one too many: every battalion "
                                                    "is already deployed.", HEADER)
        player = PLAYERS.index(entry.by)
        expected = self.ruleset.formation_player(self)
        if player != expected:
            raise ReplayError("wrong_formation_order", f"Formation entry {number} is by {entry.by}, but it is "
                                                       f"{PLAYERS[expected]}'s turn to deploy.", HEADER)
        battalion = self.battalion_number(entry.battalion, HEADER)
        if self.owner[battalion] != player:
            raise ReplayError("not_your_battalion", f"Formation entry {number}: {entry.battalion} is "
                                                    f"{PLAYERS[self.owner[battalion]]}'s battalion, not "
                                                    f"{entry.by}'s.", HEADER)
        if self.zone[battalion] != UNDEPLOYED:
            raise ReplayError("already_deployed", f"Formation entry {number}: {entry.battalion} is already "
                                                  "deployed.", HEADER)
        zone = self.zone_number(entry.zone, HEADER)
        stack = self.stacks[zone]
        if stack:
            if self.owner[stack[-1]] != player:
                raise ReplayError("zone_occupied", f"{entry.zone} holds {PLAYERS[1 - player]}'s battalion; "
                                                   f"{entry.battalion} can only stack on its own.", HEADER)
        elif self.board.rows[zone] not in self.board.deployment_rows[player]:
            raise ReplayError("not_deployment_row", f"{entry.zone} is not in {entry.by}'s deployment rows.", HEADER)
        elif not self.ruleset.can_deploy(self, player, zone):
            raise ReplayError("terrain_forbids_deploy", f"{entry.battalion} cannot be deployed on {entry.zone}: "
                                                        f"{self.variant.terrain[zone]} "  # type: ignore[index]
                                                        f"{'is never deployed on' if self.variant.terrain[zone] in ('chasm', 'cliffside') else 'is deployed on only by the general who controls it'}.",  # type: ignore[index,operator]
                              HEADER)
        self.stacks[zone] = stack + (battalion,)
        self.zone[battalion] = zone
        self.facing[battalion] = FACING_INDEX[entry.facing]
        self.deployed += 1

    def begin_battle(self, first_turn: str) -> None:
        """End Battle Formation: every battalion must be deployed."""
        if self.phase != PHASE_FORMATION:
            return
        missing = [self.ids[b] for b in range(len(self.ids)) if self.zone[b] == UNDEPLOYED]
        if missing:
            raise ReplayError("formation_incomplete", f"The formation ends before {', '.join(missing)} "
                                                      f"{'is' if len(missing) == 1 else 'are'} deployed.", HEADER)
        self.phase = PHASE_BATTLE
        self.to_move = PLAYERS.index(first_turn)

    # ---- Turns ------------------------------------------------------------------------------------
    def play_turn(self, turn: Turn, number: int | None = None) -> None:
        """Play one whole turn: steps 1-4, its order(s), the turn end."""
        self.start_turn(turn.by, turn.torment, turn.counter_facings, turn.sacrifice_beneficiary, number)
        expected = self.ruleset.orders_in_turn(self.turn_in_progress)  # type: ignore[arg-type]  # started
        orders = turn.orders[:expected]
        if len(orders) < expected:
            raise ReplayError("wrong_order_count", f"Turn {self.turn_in_progress} must have exactly {expected} "
                                                   f"order{'s' if expected > 1 else ''}; it has {len(turn.orders)}.",
                              Location(self.turn_in_progress))
        if self._sacrifice_completed and self.ruleset.beneficiary_per_turn:
            self._check_turn_beneficiary(orders)
        for order_number, order in enumerate(orders, 1):
            self.apply_order(order, order_number)
        if len(turn.orders) > expected:  # R105: reported at the order too many
            raise ReplayError("wrong_order_count", f"Turn {self.turn_in_progress} has an order too many: a turn has "
                                                   f"exactly {expected} order{'s' if expected > 1 else ''}.",
                              Location(self.turn_in_progress, expected + 1))
        self.end_turn()

    def start_turn(self, by: str, torment=None, counter_facings=None, sacrifice_beneficiary=None,
                   number: int | None = None) -> TurnStart:
        """Steps 1 to 4 of a turn: counter attacks, torment, token reset, sacrifice completion."""
        number = self.turns_played + 1 if number is None else number
        location = Location(number)
        if self.phase == PHASE_OVER:
            raise ReplayError("battle_over", f"The battle ended after turn {self.turns_played} with "
                                             f"{PLAYERS[self.forced_surrender]}'s Forced Surrender (two consecutive "  # type: ignore[index]
                                             f"Stalls, R5); turn {number} cannot follow.", location)
        if self.phase != PHASE_BATTLE:
            raise ReplayError("formation_incomplete", "The battle cannot start before the formation is complete.",
                              HEADER)
        player = PLAYERS.index(by)
        if player != self.to_move:
            raise ReplayError("wrong_turn_order", f"Turn {number} is {PLAYERS[self.to_move]}'s, not {by}'s.",
                              location)
        self.turn_in_progress = number
        self.aggressive_this_turn = False
        self._stalled_this_turn = False
        self._selected = ()
        self.routed_stun = NOBODY
        self._sacrifice_completed = False
        self._beneficiary = NOBODY
        enemy = 1 - player

        # 1. Counter attacks (R26): the engine performs them, zone by zone in board order (R37);
        # the general only picks the survivors' facings (R7), after all of them.
        survivors = self.counter_attack(player)
        for ident, facing in counter_facings or ():
            target = self.index.get(ident)
            if target not in survivors:
                raise ReplayError("bad_counter_facing", f"counter_facings names {ident}, which did not survive a "
                                                        "counter attack this turn.", location)
            self.facing[target] = FACING_INDEX[facing]

        # 2. Torment (R6); Vigor does not limit it (R36).
        seen = set()
        for ident in torment or ():
            prisoner = self.index.get(ident)
            if prisoner is None or prisoner not in self.prisons[player]:
                raise ReplayError("bad_torment", f"{ident} is not in {by}'s prison, so {by} cannot torment it.",
                                  location)
            if prisoner in seen:
                raise ReplayError("bad_torment", f"torment names {ident} twice; a prisoner is tormented at most "
                                                 "once per turn.", location)
            seen.add(prisoner)
            self.torment_prisoner(prisoner, player)

        # 3. Reset the tokens: own Vigor, the Stun on an enemy battalion.
        if self.vigor != NOBODY and self.owner[self.vigor] == player:
            self.vigor = NOBODY
        if self.stun != NOBODY and self.owner[self.stun] == enemy:
            self.stun = NOBODY

        # 4. Complete a Sacrifice (R2).
        self._sacrifice_completed = self.complete_sacrifice(player)
        if sacrifice_beneficiary is not None:
            if not self._sacrifice_completed:
                raise ReplayError("bad_sacrifice_beneficiary", f"No sacrifice of {by}'s completes this turn, so "
                                                               "there is no sacrifice_beneficiary to name.", location)
            beneficiary = self.index.get(sacrifice_beneficiary)
            if beneficiary is None or self.owner[beneficiary] != player or self.zone[beneficiary] < 0:
                raise ReplayError("bad_sacrifice_beneficiary", f"The sacrifice beneficiary must be one of {by}'s "
                                                               f"battalions on the battlefield; "
                                                               f"{sacrifice_beneficiary} is not.", location)
            self._beneficiary = beneficiary
        return TurnStart(tuple(sorted(self.ids[b] for b in survivors if self.zone[b] >= 0)),
                         self._sacrifice_completed)

    def counter_attack(self, player: int) -> set[int]:
        """Step 1 (R26, R37): on each stack topped by an enemy battalion, `player`'s highest battalion
        leaves it and attacks down from the top. Returns the attacked enemy battalions that survive."""
        survivors: set[int] = set()
        stacks, zones = self.stacks, self.zone
        # Only a zone holding one of `player`'s battalions can be due; a counter attack changes no other zone.
        due = sorted({zones[b] for b in self.battalions_of[player] if zones[b] >= 0 and len(stacks[zones[b]]) > 1})
        for zone in due:
            stack = stacks[zone]
            position = self.highest_own(zone, player)
            if position is None or position == len(stack) - 1:
                continue
            attacker = stack[position]
            self.stacks[zone] = stack[:position] + stack[position + 1:]
            survivors.update(self.attack_down(attacker, zone))
        return survivors

    def complete_sacrifice(self, player: int) -> bool:
        """Step 4 (R2, R55): the battalion `player` marked for Sacrifice is slaughtered, unless the
        terrain it stands on stops it. Returns whether a sacrifice completed."""
        marked = self.sacrifice[player]
        if marked == NOBODY:
            return False
        self.sacrifice[player] = NOBODY
        if not self.ruleset.sacrifice_resolves(self, marked):
            return False
        where = self.zone[marked]
        self.slaughter(marked, 1 - player)
        self.ruleset.after_sacrifice(self, where, player)
        return True

    def torment_prisoner(self, prisoner: int, player: int) -> None:
        """R6: reduce a prisoner by 1; below Arms 1 it is slaughtered into the tormentor's graveyard."""
        self.arms[prisoner] -= 1
        if self.arms[prisoner] < 1:
            self.prisons[player] = tuple(b for b in self.prisons[player] if b != prisoner)
            self.slaughter(prisoner, player)

    def orderable(self, ident: str, player: int, location: Location) -> int:
        battalion = self.battalion_number(ident, location)
        if self.owner[battalion] != player:
            raise ReplayError("not_your_battalion", f"{ident} is {PLAYERS[self.owner[battalion]]}'s battalion, "
                                                    f"not {PLAYERS[player]}'s.", location)
        where = self.zone[battalion]
        if where < 0:
            place = "held in a prison" if where == IN_PRISON else "slaughtered"
            raise ReplayError("not_on_battlefield", f"{ident} is {place}, not on the battlefield.", location)
        if self.stacks[where][-1] != battalion:
            raise ReplayError("not_top_most", f"{ident} is beneath {self.ids[self.stacks[where][-1]]} at "
                                              f"{self.board.names[where]}; only the top-most battalion of a stack "
                                              "takes an order.", location)
        if self.stun == battalion:
            raise ReplayError("stunned", f"{ident} is stunned and cannot take an order this turn.", location)
        return battalion

    def apply_order(self, order: Order, order_number: int = 1) -> bool:
        """Step 5: apply one Tactical Order. Returns whether it counts as a Stall (R5)."""
        location = Location(self.turn_in_progress, order_number)
        player = self.to_move
        if self._sacrifice_completed and not self.ruleset.beneficiary_per_turn and _takes_the_benefit(order):
            self._check_beneficiary(order)
        if order_number > 1:
            self._check_new_battalion(order, location)
        if isinstance(order, Maneuver):
            run = self.begin_maneuver(order.battalion, order_number)
            for action_number, action in enumerate(order.actions, 1):
                run.apply(action, action_number)
            is_stall = run.finish()
        elif isinstance(order, Stall):  # R5, R42
            is_stall = True
            if order.battalion is not None:
                battalion = self.orderable(order.battalion, player, location)
                if order.facing is not None:
                    stack = self.stacks[self.zone[battalion]]
                    if len(stack) > 1 and self.owner[stack[-2]] != player:
                        raise ReplayError("stacked_on_enemy", f"{order.battalion} is stacked on an enemy battalion; "
                                                              "a Stall cannot turn it (R5).", location)
                    self.facing[battalion] = FACING_INDEX[order.facing]
        elif isinstance(order, Extricate):
            is_stall = False
            self._extricate(order, player, location)
        elif isinstance(order, Sacrifice):
            is_stall = False
            battalion = self.orderable(order.battalion, player, location)
            self.ruleset.check_sacrifice(self, battalion, location)
            self.sacrifice[player] = battalion  # a second Sacrifice of the turn moves the token
        elif isinstance(order, Lighten):
            is_stall = False
            self._lighten(order, player, location)
        else:  # pragma: no cover - the loader builds only the five orders
            raise TypeError(f"not an order: {order!r}")
        if not isinstance(order, Maneuver):
            self.record_stall(is_stall, order_number)
        selected = self._selected_by(order)
        if selected is not None:
            self._selected = self._selected + (selected,)
        return is_stall

    def record_stall(self, is_stall: bool, order_number: int) -> None:
        """R5, R49: a turn is a Stall when each of its orders is one."""
        self._stalled_this_turn = is_stall if order_number == 1 else (self._stalled_this_turn and is_stall)

    def _selected_by(self, order: Order) -> int | None:
        ident = order.battalion
        return None if ident is None else self.index.get(ident)

    def _check_new_battalion(self, order: Order, location: Location) -> None:
        """Double time: the two orders of a turn go to two different battalions (R50)."""
        selected = self._selected_by(order)
        if selected is not None and selected in self._selected:
            raise ReplayError("same_battalion_twice", f"{order.battalion} already took this turn's first order; "
                                                      "the second order must go to another battalion.", location)

    def _check_turn_beneficiary(self, orders: tuple[Order, ...]) -> None:
        """R51: with two orders, the 8 MA go to the named beneficiary when it is one of the turn's
        maneuvering battalions; it must be named, and be one of them, when the turn maneuvers."""
        maneuvering = [order.battalion for order in orders if _takes_the_benefit(order)]
        if not maneuvering:
            return
        by = PLAYERS[self.to_move]
        location = Location(self.turn_in_progress)
        if self._beneficiary == NOBODY:
            raise ReplayError("bad_sacrifice_beneficiary", f"{by}'s sacrifice completes this turn: name one of the "
                                                           "maneuvering battalions as sacrifice_beneficiary (R2, "
                                                           "R51).", location)
        if self.ids[self._beneficiary] not in maneuvering:
            raise ReplayError("bad_sacrifice_beneficiary", f"The sacrifice beneficiary "
                                                           f"{self.ids[self._beneficiary]} does not maneuver this "
                                                           f"turn ({', '.join(maneuvering)} do); the 8 MA go to a "  # type: ignore[arg-type]
                                                           "maneuvering battalion (R2, R51).", location)

    def _check_beneficiary(self, order: Order) -> None:
        """R2: the 8 MA go to the battalion that Maneuvers, which must be the named beneficiary."""
        location = Location(self.turn_in_progress)
        by = PLAYERS[self.to_move]
        if isinstance(order, Maneuver):
            if self._beneficiary == NOBODY:  # R43: required with a Maneuver
                raise ReplayError("bad_sacrifice_beneficiary", f"{by}'s sacrifice completes this turn: name the "
                                                               "maneuvering battalion as sacrifice_beneficiary (R2).",
                                  location)
            if self.ids[self._beneficiary] != order.battalion:
                raise ReplayError("bad_sacrifice_beneficiary", f"The sacrifice beneficiary "
                                                               f"{self.ids[self._beneficiary]} is not the battalion "
                                                               f"that maneuvers ({order.battalion}); the 8 MA go to "
                                                               "the maneuvering battalion (R2).", location)

    def begin_maneuver(self, ident: str, order_number: int = 1) -> ManeuverRun:
        """Start a Maneuver of an own, top-most, unstunned battalion; apply actions to the run."""
        location = Location(self.turn_in_progress, order_number)
        battalion = self.orderable(ident, self.to_move, location)
        if self._sacrifice_completed and self._beneficiary == battalion:
            ma = self.ruleset.sacrifice_ma
        else:
            ma = self.ruleset.ma_of_arms[self.arms[battalion] - 1]
        return ManeuverRun(self, battalion, ma, order_number)

    def _extricate(self, order: Extricate, player: int, location: Location) -> None:
        battalion = self.battalion_number(order.battalion, location)
        if self.owner[battalion] != player:
            raise ReplayError("not_your_battalion", f"{order.battalion} is {PLAYERS[self.owner[battalion]]}'s "
                                                    f"battalion, not {PLAYERS[player]}'s.", location)
        if battalion not in self.prisons[1 - player]:
            raise ReplayError("not_prisoner", f"{order.battalion} is not held in {PLAYERS[1 - player]}'s prison.",
                              location)
        zone = self.zone_number(order.zone, location)
        home = self.board.home_rows[player]
        if self.board.rows[zone] != home:
            raise ReplayError("not_home_row", f"{order.battalion} must be placed in {PLAYERS[player]}'s home row "
                                              f"(row {home}), not on {order.zone}.", location)
        if not self.ruleset.can_extricate_to(self, player, zone):
            raise ReplayError("terrain_forbids_extricate", f"{order.battalion} cannot be extricated onto "
                                                           f"{order.zone}: no battalion is placed on "
                                                           f"{self.variant.terrain[zone]}.", location)  # type: ignore[index]
        if self.stacks[zone] or self.ramparts[zone] is not None:
            raise ReplayError("zone_occupied", f"{order.zone} is occupied; an extricated battalion needs an empty "
                                               "zone.", location)
        self.prisons[1 - player] = tuple(b for b in self.prisons[1 - player] if b != battalion)
        self.stacks[zone] = (battalion,)
        self.zone[battalion] = zone
        self.facing[battalion] = FACING_INDEX[order.facing]
        self.aggressive_this_turn = True

    def _lighten(self, order: Lighten, player: int, location: Location) -> None:
        battalion = self.orderable(order.battalion, player, location)
        if self.ramparts[self.zone[battalion]] is not None:
            raise ReplayError("lighten_on_rampart", f"{order.battalion} stands on a rampart (Alight) and cannot "
                                                    "be lightened there.", location)
        current = self.arms[battalion]
        if not 1 <= order.arms < current:
            raise ReplayError("arms_not_lower", f"{order.battalion} has Arms {current}; Lighten must reduce it to a "
                                                f"lower Arms of at least 1, not {order.arms}.", location)
        stack = self.stacks[self.zone[battalion]]
        below = stack[-2] if len(stack) > 1 and self.owner[stack[-2]] == player else NOBODY
        if (order.transfer is not None or order.below_facing is not None) and below == NOBODY:
            raise ReplayError("transfer_not_allowed", f"{order.battalion} is not stacked directly on one of "
                                                      f"{PLAYERS[player]}'s battalions, so it cannot transfer Arms "
                                                      "or turn a battalion beneath.", location)
        transfer = order.transfer or 0
        if transfer > current - order.arms:
            raise ReplayError("transfer_too_large", f"{order.battalion} dismisses {current - order.arms} Arms and "
                                                    f"cannot transfer {transfer}.", location)
        if below != NOBODY and self.arms[below] + transfer > 6:
            raise ReplayError("arms_above_six", f"{self.ids[below]} would rise above Arms 6.", location)
        if (order.facing is not None and FACING_INDEX[order.facing] != self.facing[battalion]
                and len(stack) > 1 and self.owner[stack[-2]] != player):
            raise ReplayError("stacked_on_enemy", f"{order.battalion} is stacked on an enemy battalion; a Lighten "
                                                  f"cannot turn it (R101), so its facing stays "
                                                  f"{FACINGS[self.facing[battalion]]}.", location)
        self.arms[battalion] = order.arms
        if order.facing is not None:  # R101: only off an enemy battalion can the facing change
            self.facing[battalion] = FACING_INDEX[order.facing]
        if below != NOBODY:
            self.arms[below] += transfer
            if order.below_facing is not None:
                self.facing[below] = FACING_INDEX[order.below_facing]

    def end_turn(self) -> None:
        """Close the turn: consecutive Stalls (R5), calm turns (R15), the next general."""
        player = self.to_move
        is_stall = self._stalled_this_turn
        self.turns_played = self.turn_in_progress  # type: ignore[assignment]  # a turn is in progress
        self.turn_in_progress = None
        self.calm_turns = 0 if self.aggressive_this_turn else self.calm_turns + 1
        self._sacrifice_completed = False
        self._beneficiary = NOBODY
        if self.variant.terrain is not None:
            self.ruleset.turn_ended(self)
        if is_stall and self.stalled[player]:
            self.forced_surrender = player
            self.phase = PHASE_OVER
        self.stalled[player] = is_stall
        self.to_move = 1 - player

    # ---- What a battalion can do -----------------------------------------------------------------
    def explore(self, battalion: int, ma: int, hidden: frozenset[int] = frozenset(),
                positions: bool = True, builds: bool = True, pause_each_ma: bool = False) -> Iterator[Event]:
        """Search the Maneuver of `battalion` with `ma` MA over the battlefield as it stands
        (battalions in `hidden` treated as absent). Yields, cheapest first: a `Position` for each place
        reached when `positions`, and a `Found` for each "attack", "rout", "build" (when `builds`) and
        "destroy" (a "destroy" whose target is "built" is a rampart built and destroyed in the same
        Maneuver). With `pause_each_ma` it also yields `Spent(n)` once it has searched every position
        reached for n MA, so that a caller can search several battalions side by side, cheapest first.
        (The events are made with `tuple.__new__`: a NamedTuple's own constructor is a Python call, and
        costs the compiled search about twice as much per event.)"""
        board = self.board
        neighbours = board.neighbours
        adjacent = board.adjacent
        ramparts = self.ramparts
        owner = self.owner
        ruleset = self.ruleset
        me = owner[battalion]
        can_destroy = ruleset.destroys_at_arms[self.arms[battalion] - 1]
        kingdom = self.kingdom[battalion]
        build_kingdom = ruleset.rampart_kingdom(self, battalion)
        can_build = build_kingdom is not None
        build_cost = ruleset.build_cost
        unbuildable = ruleset.unbuildable(self, battalion) if can_build else None
        plain = self.variant.terrain is None
        uniform_moves = ruleset.uniform_moves or ruleset.uniform_moves_for(self, battalion)  # no hook call per step
        face_turns = ruleset.face_turns
        start = self.zone[battalion]
        # The stacks as the search sees them: the battalion itself and the hidden ones lifted off.
        seen = list(self.stacks)
        if hidden:
            for where in {start, *(self.zone[gone] for gone in hidden)}:
                if where >= 0:
                    seen[where] = tuple(b for b in seen[where] if b != battalion and b not in hidden)
        elif start >= 0:
            here = seen[start]
            seen[start] = here[:-1] if here[-1] == battalion else tuple(b for b in here if b != battalion)

        mobile = ramparts[start] is None  # standing on a rampart (Alight), only Descend leaves it
        facing = self.facing[battalion]
        # best[zone * 4 + facing]: 1 + the most MA left that position was reached with, 0 not yet
        # reached (a bytearray is the cheapest table to allocate, and MA stays far below 255).
        best = bytearray(4 * board.size) if ma < 255 else [0] * (4 * board.size)
        best[start * 4 + facing] = ma + 1
        buckets: list[list[tuple[int, int]]] = [[] for _ in range(ma + 1)]
        buckets[ma].append((start, facing))
        work = self.work  # R99: each position taken from a bucket is a search step
        for left in range(ma, -1, -1):
            spent = ma - left
            if pause_each_ma and spent:
                yield tuple.__new__(Spent, ("spent", spent - 1))
            bucket = buckets[left]
            counted = len(bucket)
            if work is not None and counted:
                work.spend(counted)
            for zone, facing in bucket:  # a 0 MA step appends to the list being walked
                if best[zone * 4 + facing] != left + 1:
                    continue  # reached again later with more MA left
                stacked = bool(seen[zone])
                if positions:
                    yield tuple.__new__(Position, ("position", zone, facing, left, stacked))
                ahead = neighbours[zone][facing]
                if mobile and ahead != NO_ZONE and ramparts[ahead] is None and (
                        uniform_moves or ruleset.can_enter(self, battalion, ahead)):
                    cost = 1 if uniform_moves else ruleset.move_cost(self, battalion, ahead)
                    if cost <= left:
                        there = seen[ahead]
                        if there and owner[there[-1]] != me:
                            yield tuple.__new__(Found, ("attack", ahead, spent + cost, there[-1]))
                        else:
                            key = ahead * 4 + facing
                            if best[key] <= left - cost:
                                best[key] = left - cost + 1
                                buckets[left - cost].append((ahead, facing))
                if stacked:
                    continue  # R8/R28: a stacked battalion can only move
                for turn_to, cost in face_turns[facing]:
                    key = zone * 4 + turn_to
                    if cost <= left and best[key] <= left - cost:
                        best[key] = left - cost + 1
                        buckets[left - cost].append((zone, turn_to))
                if ahead != NO_ZONE:
                    rampart = ramparts[ahead]
                    if rampart is not None:
                        if can_destroy:
                            cost = ruleset.destroy_cost(kingdom, rampart[1])
                            if cost <= left:
                                yield tuple.__new__(Found, ("destroy", ahead, spent + cost, None))
                    else:
                        there = seen[ahead]
                        if there and owner[there[-1]] != me and left >= 1:
                            if self._rout_has_destination(ahead, zone, seen, plain):
                                yield tuple.__new__(Found, ("rout", ahead, ma, there[-1]))
                        elif (not there and can_build and left >= build_cost and can_destroy
                              and (unbuildable is None or ahead not in unbuildable)):
                            both = build_cost + ruleset.destroy_cost(kingdom, build_kingdom)  # type: ignore[arg-type]
                            yield tuple.__new__(Found, ("destroy", ahead, spent + both, "built"))
                if builds and can_build and left >= build_cost:
                    for near in adjacent[zone]:
                        if not seen[near] and ramparts[near] is None and (unbuildable is None
                                                                          or near not in unbuildable):
                            yield tuple.__new__(Found, ("build", near, spent + build_cost, None))
            if work is not None and len(bucket) > counted:  # the positions 0 MA steps added to this bucket
                work.spend(len(bucket) - counted)

    def _rout_has_destination(self, target_zone: int, routing_from: int, seen: list, plain: bool) -> bool:
        """Whether the battalion on `target_zone` could be routed from `routing_from` somewhere: off
        the edge, or onto an adjacent free zone (the terrain permitting); `seen` are the stacks."""
        ramparts = self.ramparts
        if plain:
            if self.board.on_edge[target_zone]:
                return True
            for z in self.board.adjacent[target_zone]:
                if z != routing_from and not seen[z] and ramparts[z] is None:
                    return True
            return False
        ruleset = self.ruleset
        if not ruleset.can_be_routed(self, target_zone):
            return False
        if self.board.on_edge[target_zone]:
            return True
        return any(z != routing_from and not seen[z] and ramparts[z] is None
                   and ruleset.rout_destination_ok(self, target_zone, z) for z in self.board.adjacent[target_zone])

    def reach(self, ident: str, ma: int | None = None) -> Reach:
        """What a battalion can reach in a Maneuver now: positions and actions with MA costs."""
        battalion = self.index[ident]
        if self.zone[battalion] < 0:
            return Reach(ident, 0, (), ())
        if ma is None:
            ma = self.ruleset.ma_of_arms[self.arms[battalion] - 1]
        names = self.board.names
        found_positions = []
        found_actions: dict[tuple, ReachableAction] = {}
        for event in self.explore(battalion, ma):
            if isinstance(event, Position):
                found_positions.append(ReachablePosition(names[event.zone], FACINGS[event.facing], event.ma_left,
                                                         event.stacked))
                continue
            assert isinstance(event, Found)  # no `Spent` without `pause_each_ma`
            target = event.target
            target_name = self.ids[target] if isinstance(target, int) else target
            key = (event.kind, event.zone, target_name)
            if key not in found_actions or found_actions[key].cost > event.cost:
                found_actions[key] = ReachableAction(event.kind, names[event.zone], event.cost, target_name)
        actions = sorted(found_actions.values(), key=lambda a: (a.cost, a.kind, a.zone, a.target or ""))
        return Reach(ident, ma, tuple(found_positions), tuple(actions))
