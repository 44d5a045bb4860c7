"""Typed, immutable replay objects (replay format version 1).

Optional keys of the format stay optional here (`None` = the key was absent), so that
`load_replay(doc).to_dict() == doc` for every valid document: a log is stored and shown back
exactly as its writer sent it.

Each class writes its own `__init__` (`init=False`): mypyc compiles a written `__init__`, while the one
`dataclass` generates stays interpreted in the compiled engine (about a third of reading a replay).
Setting the fields with `object.__setattr__(self, "<name>", ...)` is what a frozen dataclass's own
`__init__` does, and mypyc turns it into a direct store; the classes stay frozen, hashable and
comparable, and `dataclasses.fields` still describes them (the API schema is built from it).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .conditions import BEST_FIRST, Condition

PLAYERS = ("p1", "p2")
KINGDOMS = ("frost", "flaym", "sey", "timber", "blak")
VARIANTS = ("battle_arts", "army_recruiting", "terrain", "double_time")
TERRAINS = ("mountain", "hills", "valley", "forest", "marsh", "waterbody", "chasm", "ice", "crag",
            "cliffside", "populace", "stronghold")
# The conditions a result may claim (R10): the declarable ones of `conditions`, in their declaration order.
CONDITIONS = tuple(condition.value for condition in Condition if condition in BEST_FIRST)
DEFAULT_MA_BY_ARMS = (6, 5, 4, 3, 2, 1)  # R1


def _optional(target: dict, key: str, value: Any) -> None:
    if value is not None:
        target[key] = value


def _pairs_to_dict(pairs: tuple[tuple[str, Any], ...] | None) -> dict | None:
    return None if pairs is None else dict(pairs)


@dataclass(frozen=True, slots=True, init=False)
class Params:
    ma_by_arms: tuple[int, ...] = DEFAULT_MA_BY_ARMS

    def __init__(self, ma_by_arms: tuple[int, ...] = DEFAULT_MA_BY_ARMS) -> None:
        object.__setattr__(self, "ma_by_arms", ma_by_arms)

    def to_dict(self) -> dict:
        return {"ma_by_arms": list(self.ma_by_arms)}


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    variants: tuple[str, ...]
    width: int
    height: int
    terrain: tuple[tuple[str, str], ...] | None = None
    control: tuple[tuple[str, str], ...] | None = None
    params: Params | None = None  # None: the key was absent, the defaults apply
    # Keys the log left out and that take their defaults (R109): "variants", "width", "height".
    absent: frozenset[str] = frozenset()

    def __init__(self, variants: tuple[str, ...], width: int, height: int,
                 terrain: tuple[tuple[str, str], ...] | None = None,
                 control: tuple[tuple[str, str], ...] | None = None, params: Params | None = None,
                 absent: frozenset[str] = frozenset()) -> None:
        object.__setattr__(self, "variants", variants)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "terrain", terrain)
        object.__setattr__(self, "control", control)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "absent", absent)

    @property
    def effective_params(self) -> Params:
        return self.params or Params()

    def to_dict(self) -> dict:
        out: dict[str, Any] = {} if "variants" in self.absent else {"variants": list(self.variants)}
        out["board"] = {key: value for key, value in (("width", self.width), ("height", self.height))
                        if key not in self.absent}
        _optional(out, "terrain", _pairs_to_dict(self.terrain))
        _optional(out, "control", _pairs_to_dict(self.control))
        if self.params is not None:
            out["params"] = self.params.to_dict()
        return out


@dataclass(frozen=True, slots=True, init=False)
class General:
    name: str
    kingdom: str

    def __init__(self, name: str, kingdom: str) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "kingdom", kingdom)

    def to_dict(self) -> dict:
        return {"name": self.name, "kingdom": self.kingdom}


@dataclass(frozen=True, slots=True, init=False)
class BattalionSpec:
    id: str
    arms: int
    kingdom: str | None = None  # only with army_recruiting

    def __init__(self, id: str, arms: int, kingdom: str | None = None) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "arms", arms)
        object.__setattr__(self, "kingdom", kingdom)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "arms": self.arms}
        _optional(out, "kingdom", self.kingdom)
        return out


@dataclass(frozen=True, slots=True, init=False)
class Deployment:
    by: str
    battalion: str
    zone: str
    facing: str

    def __init__(self, by: str, battalion: str, zone: str, facing: str) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "battalion", battalion)
        object.__setattr__(self, "zone", zone)
        object.__setattr__(self, "facing", facing)

    def to_dict(self) -> dict:
        return {"by": self.by, "battalion": self.battalion, "zone": self.zone, "facing": self.facing}


# ---- Maneuver actions -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, init=False)
class Move:
    enemy_facings: tuple[tuple[str, str], ...] | None = None
    snowblind: bool | None = None  # R17: a Frost battalion's choice, written on the move

    act: ClassVar[str] = "move"

    def __init__(self, enemy_facings: tuple[tuple[str, str], ...] | None = None,
                 snowblind: bool | None = None) -> None:
        object.__setattr__(self, "enemy_facings", enemy_facings)
        object.__setattr__(self, "snowblind", snowblind)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"act": "move"}
        _optional(out, "enemy_facings", _pairs_to_dict(self.enemy_facings))
        _optional(out, "snowblind", self.snowblind)
        return out


@dataclass(frozen=True, slots=True, init=False)
class Face:
    to: str
    act: ClassVar[str] = "face"

    def __init__(self, to: str) -> None:
        object.__setattr__(self, "to", to)

    def to_dict(self) -> dict:
        return {"act": "face", "to": self.to}


@dataclass(frozen=True, slots=True, init=False)
class Rout:
    target: str
    to: str  # a zone name or "off"
    torment: bool | None = None
    act: ClassVar[str] = "rout"

    def __init__(self, target: str, to: str, torment: bool | None = None) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "torment", torment)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"act": "rout", "target": self.target, "to": self.to}
        _optional(out, "torment", self.torment)
        return out


@dataclass(frozen=True, slots=True, init=False)
class Build:
    zone: str
    act: ClassVar[str] = "build"

    def __init__(self, zone: str) -> None:
        object.__setattr__(self, "zone", zone)

    def to_dict(self) -> dict:
        return {"act": "build", "zone": self.zone}


@dataclass(frozen=True, slots=True, init=False)
class Destroy:
    zone: str
    act: ClassVar[str] = "destroy"

    def __init__(self, zone: str) -> None:
        object.__setattr__(self, "zone", zone)

    def to_dict(self) -> dict:
        return {"act": "destroy", "zone": self.zone}


@dataclass(frozen=True, slots=True, init=False)
class BattleArt:
    """A battle art action (`battle_arts` variant): its name and its written fields."""

    act: str
    fields: tuple[tuple[str, Any], ...] = ()  # `enemy_facings` holds (id, facing) pairs (R106)

    def __init__(self, act: str, fields: tuple[tuple[str, Any], ...] = ()) -> None:
        object.__setattr__(self, "act", act)
        object.__setattr__(self, "fields", fields)

    def field(self, name: str, default: Any = None) -> Any:
        return next((value for key, value in self.fields if key == name), default)

    def to_dict(self) -> dict:
        return {"act": self.act, **{key: _pairs_to_dict(value) if key == "enemy_facings" else value
                                    for key, value in self.fields}}


Action = Move | Face | Rout | Build | Destroy | BattleArt


# ---- Tactical Orders --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, init=False)
class Maneuver:
    battalion: str
    actions: tuple[Action, ...]
    type: ClassVar[str] = "maneuver"

    def __init__(self, battalion: str, actions: tuple[Action, ...]) -> None:
        object.__setattr__(self, "battalion", battalion)
        object.__setattr__(self, "actions", actions)

    def to_dict(self) -> dict:
        return {"type": "maneuver", "battalion": self.battalion,
                "actions": [action.to_dict() for action in self.actions]}


@dataclass(frozen=True, slots=True, init=False)
class Extricate:
    battalion: str
    zone: str
    facing: str
    type: ClassVar[str] = "extricate"

    def __init__(self, battalion: str, zone: str, facing: str) -> None:
        object.__setattr__(self, "battalion", battalion)
        object.__setattr__(self, "zone", zone)
        object.__setattr__(self, "facing", facing)

    def to_dict(self) -> dict:
        return {"type": "extricate", "battalion": self.battalion, "zone": self.zone,
                "facing": self.facing}


@dataclass(frozen=True, slots=True, init=False)
class Sacrifice:
    battalion: str
    type: ClassVar[str] = "sacrifice"

    def __init__(self, battalion: str) -> None:
        object.__setattr__(self, "battalion", battalion)

    def to_dict(self) -> dict:
        return {"type": "sacrifice", "battalion": self.battalion}


@dataclass(frozen=True, slots=True, init=False)
class Lighten:
    battalion: str
    arms: int
    facing: str | None = None
    transfer: int | None = None
    below_facing: str | None = None
    type: ClassVar[str] = "lighten"

    def __init__(self, battalion: str, arms: int, facing: str | None = None, transfer: int | None = None,
                 below_facing: str | None = None) -> None:
        object.__setattr__(self, "battalion", battalion)
        object.__setattr__(self, "arms", arms)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "transfer", transfer)
        object.__setattr__(self, "below_facing", below_facing)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"type": "lighten", "battalion": self.battalion, "arms": self.arms}
        _optional(out, "facing", self.facing)
        _optional(out, "transfer", self.transfer)
        _optional(out, "below_facing", self.below_facing)
        return out


@dataclass(frozen=True, slots=True, init=False)
class Stall:
    battalion: str | None = None
    facing: str | None = None
    type: ClassVar[str] = "stall"

    def __init__(self, battalion: str | None = None, facing: str | None = None) -> None:
        object.__setattr__(self, "battalion", battalion)
        object.__setattr__(self, "facing", facing)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"type": "stall"}
        _optional(out, "battalion", self.battalion)
        _optional(out, "facing", self.facing)
        return out


Order = Maneuver | Extricate | Sacrifice | Lighten | Stall


@dataclass(frozen=True, slots=True, init=False)
class Turn:
    by: str
    orders: tuple[Order, ...]
    torment: tuple[str, ...] | None = None
    counter_facings: tuple[tuple[str, str], ...] | None = None
    sacrifice_beneficiary: str | None = None

    def __init__(self, by: str, orders: tuple[Order, ...], torment: tuple[str, ...] | None = None,
                 counter_facings: tuple[tuple[str, str], ...] | None = None,
                 sacrifice_beneficiary: str | None = None) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "torment", torment)
        object.__setattr__(self, "counter_facings", counter_facings)
        object.__setattr__(self, "sacrifice_beneficiary", sacrifice_beneficiary)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"by": self.by}
        if self.torment is not None:
            out["torment"] = list(self.torment)
        _optional(out, "counter_facings", _pairs_to_dict(self.counter_facings))
        _optional(out, "sacrifice_beneficiary", self.sacrifice_beneficiary)
        out["orders"] = [order.to_dict() for order in self.orders]
        return out


@dataclass(frozen=True, slots=True, init=False)
class Result:
    """How the log says the battle ended: claim, deadlock, surrender, resolve or unfinished."""

    type: str
    by: str | None = None
    condition: str | None = None

    def __init__(self, type: str, by: str | None = None, condition: str | None = None) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "condition", condition)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"type": self.type}
        _optional(out, "by", self.by)
        _optional(out, "condition", self.condition)
        return out


@dataclass(frozen=True, slots=True, init=False)
class Replay:
    rules: Rules
    generals: tuple[General, General]
    armies: tuple[tuple[BattalionSpec, ...], tuple[BattalionSpec, ...]]
    formation: tuple[Deployment, ...]
    first_turn: str
    turns: tuple[Turn, ...]
    result: Result | None  # None: absent, allowed only after a Forced Surrender by Stalls
    meta: dict | None = field(default=None, compare=True, hash=False)
    version: int = 1

    def __init__(self, rules: Rules, generals: tuple[General, General],
                 armies: tuple[tuple[BattalionSpec, ...], tuple[BattalionSpec, ...]],
                 formation: tuple[Deployment, ...], first_turn: str, turns: tuple[Turn, ...],
                 result: Result | None, meta: dict | None = None, version: int = 1) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "generals", generals)
        object.__setattr__(self, "armies", armies)
        object.__setattr__(self, "formation", formation)
        object.__setattr__(self, "first_turn", first_turn)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "meta", meta)
        object.__setattr__(self, "version", version)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"format": "warline-replay", "version": self.version}
        if self.meta is not None:
            out["meta"] = copy.deepcopy(self.meta)
        out["rules"] = self.rules.to_dict()
        out["generals"] = {player: general.to_dict() for player, general in zip(PLAYERS, self.generals, strict=True)}
        out["armies"] = {player: [spec.to_dict() for spec in army]
                         for player, army in zip(PLAYERS, self.armies, strict=True)}
        out["formation"] = [entry.to_dict() for entry in self.formation]
        out["first_turn"] = self.first_turn
        out["turns"] = [turn.to_dict() for turn in self.turns]
        if self.result is not None:
            out["result"] = self.result.to_dict()
        return out
