"""What the rules in force allow and cost: the one place a variant changes the game.

`CoreRuleset` is the Core Rules. The Organized Play variants (`rules_engine.variants`:
army_recruiting, double_time, terrain, battle_arts) are mixins over it, composed per replay by
`rules_engine.variants.ruleset_for`; `BattleState` asks the ruleset and never tests a variant name itself. Hooks that
the core path calls per search step stay as cheap as a constant here; hooks that only a variant
needs are called only where their variant can act (a sacrifice, a turn end, a rout).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import actions  # the core actions; a variant adds its own handlers to the ruleset's table
from .board import turn_cost
from .errors import Location
from .model import Params, Rules

if TYPE_CHECKING:
    from .state import BattleState

ActionHandler = Callable  # (ManeuverRun, action, Location) -> None


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a variant's part of the battle (`BattleState.variant`), declared in that variant's
    `FIELDS` and nowhere else: `copy` gives a copy of the battle its own value (None: fixed for the battle,
    shared by every copy); `key` is what `BattleState.position_key` reads of it (None: the searches never
    read it). A field is None until the variant's `setup` gives it a value; None is copied and keyed as None."""

    name: str
    copy: Callable[[Any], Any] | None = None
    key: Callable[[Any], Any] | None = None


class VariantState:
    """The elected variants' part of a battle, one attribute per `Field` of theirs; a field of a variant
    not elected reads None (`rules_engine.variants.variant_state_class` composes the class). The battle
    copies it with `copy` and puts its `key` in `position_key`, each field as its `Field` entry says."""

    __slots__ = ()
    FIELDS: tuple[Field, ...] = ()

    def copy(self) -> VariantState:
        return self  # no field (no variant elected): nothing changes, nothing to copy

    def key(self) -> tuple:
        return ()


def variant_state_type(fields: tuple[Field, ...], absent: tuple[str, ...] = ()) -> type[VariantState]:
    """The class of a battle's `variant` part with `fields` (a slot each) and the `absent` fields of the
    variants not elected (reading None). Its `copy` and `key` are written out field by field from the
    `Field` entries, as `dataclasses` writes an `__init__`: the searches copy a battle thousands of times a
    replay, and a loop over the fields would cost about as much again as copying the rest of the battle."""
    if not fields:
        return type("VariantState", (VariantState,), {"__slots__": (), **dict.fromkeys(absent)})
    helpers: dict[str, Any] = {}
    copies, keys = [], []
    for number, field in enumerate(fields):
        name = field.name
        assert name.isidentifier() and not name.startswith("_"), name
        if field.copy is None:
            copies.append(f"    other.{name} = self.{name}")
        else:
            helpers[f"copy_{number}"] = field.copy
            copies.append(f"    value = self.{name}\n    other.{name} = None if value is None else copy_{number}(value)")
        if field.key is not None:
            helpers[f"key_{number}"] = field.key
            keys.append(f"None if self.{name} is None else key_{number}(self.{name})")
    source = "\n".join([
        "def __init__(self):", *(f"    self.{field.name} = None" for field in fields),
        "def copy(self):", "    other = new(cls)", *copies, "    return other",
        "def key(self):", f"    return ({', '.join(keys)}{',' if keys else ''})",
    ])
    cls = type("VariantState", (VariantState,), {"__slots__": tuple(field.name for field in fields),
                                                 "FIELDS": fields, "__eq__": _same_fields, "__hash__": None,
                                                 **dict.fromkeys(absent)})
    namespace = {**helpers, "new": object.__new__, "cls": cls}
    exec(source, namespace)  # noqa: S102 - the source above, built from identifiers only
    for method in ("__init__", "copy", "key"):
        setattr(cls, method, namespace[method])
    return cls


def _same_fields(self: VariantState, other: object) -> bool:
    """The same fields with equal values (a copy equals its original until one of them changes)."""
    return type(other) is type(self) and all(getattr(self, field.name) == getattr(other, field.name)
                                             for field in self.FIELDS)


class CoreRuleset:
    """The WARLINE Core Rules with the parameters of the replay (R1)."""

    name = "core"
    sacrifice_ma = 8  # R1: a Sacrifice still gives exactly 8
    destroy_min_arms = 4
    build_cost = 1
    vigor_cap = 1  # R4
    # Capabilities the state checks once instead of calling a hook per step.
    has_terrain = False
    has_arts = False
    beneficiary_per_turn = False  # True when a turn has several orders (double time)
    # The variant's fields of the battle state (`Field`): a variant mixin declares its own.
    FIELDS: tuple[Field, ...] = ()
    # The class of the battle's `variant` part, composed with the ruleset (`rules_engine.variants`).
    variant_state: type[VariantState] = VariantState

    def __init__(self, params: Params, rules: Rules | None = None):
        self.params = params
        self.rules = rules
        self.ma_by_arms = params.ma_by_arms
        self.actions: dict[str, ActionHandler] = dict(actions.CORE_ACTIONS)
        # Tables the searches read instead of calling a hook per search step. They are computed from
        # the hooks, so a variant that overrides `face_cost`, `move_cost` or `can_enter` is honoured:
        # face_turns[facing] = ((new facing, MA), ...) for the three other facings, in facing order;
        # uniform_moves: every zone can be entered for 1 MA (ramparts apart), as in the Core Rules.
        self.face_turns = tuple(tuple((turn_to, self.face_cost(facing, turn_to)) for turn_to in range(4)
                                      if turn_to != facing) for facing in range(4))
        ruleset_class = type(self)
        self.uniform_moves = (ruleset_class.move_cost is CoreRuleset.move_cost
                              and ruleset_class.can_enter is CoreRuleset.can_enter)
        # The hooks that depend on the Arms alone, tabled by Arms - 1 (Arms 1..6, R1): the compiled searches
        # read these instead of calling into this interpreted class for every battalion they look at.
        self.ma_of_arms = tuple(self.maneuver_ma(arms) for arms in range(1, 7))
        self.destroys_at_arms = tuple(self.can_destroy(arms) for arms in range(1, 7))

    # ---- Setting up ----
    def check_armies(self, generals: tuple, armies: tuple) -> None:
        """The reader already checked the Core army (six battalions of Arms 1..6)."""

    def setup(self, state: BattleState) -> None:
        """Variant state on a fresh battle (terrain, rampart kingdoms): the values of the `FIELDS`."""

    # ---- Maneuver Actions and their MA costs ----
    def maneuver_ma(self, arms: int) -> int:
        """R1: the MA a battalion of this Arms starts a Maneuver with."""
        return self.ma_by_arms[arms - 1]

    def best_ma_at_or_below(self, arms: int, lowest_arms: int = 1) -> int:
        """The most MA a battalion can reach by Lightening to an Arms in lowest..arms (R12)."""
        if arms < lowest_arms:
            return 0
        return max(self.ma_by_arms[lowest_arms - 1:arms])

    def move_cost(self, state: BattleState, battalion: int, zone: int) -> int:
        """MA to move onto `zone` (R18: terrain costs are paid here, on entering)."""
        return 1

    def plain_move_cost(self, state: BattleState, battalion: int, zone: int) -> int:
        """MA of a Move written without Snowblind (R17); `move_cost` is the cheapest for the searches."""
        return self.move_cost(state, battalion, zone)

    def snowblind_allowed(self, state: BattleState, battalion: int, zone: int) -> bool:
        return False

    def uniform_moves_for(self, state: BattleState, battalion: int) -> bool:
        """Whether every zone costs this battalion 1 MA to move onto (ramparts apart): `uniform_moves`,
        or a variant that changes the costs of some battalions only (Snowblind is Frost's)."""
        return self.uniform_moves

    def can_enter(self, state: BattleState, battalion: int, zone: int) -> bool:
        """Whether the zone may be moved onto at all, ramparts apart (chasm, cliffside)."""
        return True

    def face_cost(self, facing_from: int, facing_to: int) -> int:
        return turn_cost(facing_from, facing_to)

    def can_destroy(self, arms: int) -> bool:
        return arms >= self.destroy_min_arms

    def destroy_cost(self, battalion_kingdom: str, rampart_kingdom: str) -> int:
        """1 MA for another kingdom's rampart, 0 for one of the battalion's own kingdom (R40)."""
        return 0 if battalion_kingdom == rampart_kingdom else 1

    # ---- Ramparts ----
    def rampart_kingdom(self, state: BattleState, battalion: int) -> str | None:
        """The kingdom of the rampart this battalion would build, or None when none is left."""
        player = state.owner[battalion]
        return state.generals[player].kingdom if state.ramparts_left[player] > 0 else None

    def take_rampart(self, state: BattleState, player: int, kingdom: str) -> None:
        state.ramparts_left[player] -= 1

    def give_back_rampart(self, state: BattleState, player: int, kingdom: str) -> None:
        """A rampart returns to its general's unbuilt ones (Harvest)."""
        state.ramparts_left[player] += 1

    def unbuildable(self, state: BattleState, battalion: int) -> frozenset[int] | None:
        """Zones this battalion cannot build on whatever else holds (terrain); None: no such zone."""
        return None

    # ---- Placement ----
    def can_deploy(self, state: BattleState, player: int, zone: int) -> bool:
        return True

    def can_extricate_to(self, state: BattleState, player: int, zone: int) -> bool:
        return True

    # ---- Sacrifice and routs (called only when one happens) ----
    def check_sacrifice(self, state: BattleState, battalion: int, location: Location) -> None:
        """Whether this battalion may be marked for Sacrifice where it stands."""

    def can_sacrifice_on(self, state: BattleState, battalion: int) -> bool:
        """Whether the ground a battalion stands on lets it be marked for Sacrifice."""
        return True

    def sacrifice_resolves(self, state: BattleState, battalion: int) -> bool:
        return True

    def after_sacrifice(self, state: BattleState, zone: int, player: int) -> None:
        """What the slaughter of a sacrificed battalion on `zone` does to the battlefield."""

    def check_rout(self, state: BattleState, target_zone: int, destination: int, location: Location) -> bool:
        """Refuse a rout the battlefield forbids; True when the routed battalion is slaughtered there."""
        return False

    def can_be_routed(self, state: BattleState, target_zone: int) -> bool:
        return True

    def rout_destination_ok(self, state: BattleState, target_zone: int, destination: int) -> bool:
        return True

    # ---- Turn structure ----
    def orders_in_turn(self, turn_number: int) -> int:
        return 1

    def formation_player(self, state: BattleState) -> int:
        """Who deploys the next formation entry: Player-1 first, alternating."""
        return state.deployed % 2

    def turn_ended(self, state: BattleState) -> None:
        """Variant effects at the end of a turn (Closure, R20)."""

    # ---- Battle arts in the victory checks (R12, R13) ----
    def art_can_leave(self, state: BattleState, battalion: int, facings, best_ma: int, full_ma: int,
                      arms: int) -> bool:
        """R12: whether an art moves the battalion, standing on nothing, out of its zone (`arms`: the most it
        can have, `full_ma`: its MA at those Arms)."""
        return False

    def art_aggressive(self, state: BattleState, battalion: int, ma: int, hidden: frozenset[int]) -> str | None:
        return None

    def opening_arts(self, state: BattleState, battalion: int, facing_only: bool = False) -> list:
        """R103: battle arts a first order may use to open the way for the second (none without arts)."""
        return []

    def facing_arts(self, state: BattleState, battalion: int) -> frozenset[str]:
        """The battle arts of this battalion whose legality or effect depends on its facing."""
        return frozenset()

    def rampart_arts(self, state: BattleState, battalion: int) -> frozenset[str]:
        """R103: the battle arts of this battalion whose only effect on the battlefield is one rampart on their
        `zone` (and one fewer left to build), wherever the battalion uses them from."""
        return frozenset()

    def rampart_blind(self, state: BattleState, battalion: int) -> bool:
        """R103: whether this battalion's battle arts and moves can use no rampart but by destroying it (no
        aggressive art whatever the ramparts, no Snowblind): true without arts."""
        return True
