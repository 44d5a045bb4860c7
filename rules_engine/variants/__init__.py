"""The Organized Play Rules Variants and Modules, as mixins over `CoreRuleset`.

`ruleset_class(variants)` composes the elected ones into one ruleset class (cached: 16
combinations at most). Each mixin overrides only the hooks its variant changes and calls
`super()` for the rest, so any combination stacks: battle arts adjust the terrain costs
(marches, Snowblind), terrain adjusts placement and routs, double time the turn structure,
army recruiting the armies and rampart kingdoms.

Each mixin also declares its own fields of the battle state (`FIELDS`: name, how a copy gets its own,
what the searches' position key reads); `variant_state_class` composes them into the battle's `variant`
part, so a new field is one `Field` entry in its variant's module.
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import HEADER, ReplayError
from ..model import Replay, Rules
from ..ruleset import CoreRuleset, VariantState, variant_state_type
from ..state import BattleState
from .battle_arts import BattleArts
from .double_time import DoubleTime
from .recruiting import ArmyRecruiting
from .terrain import Terrain

MIXINS = {"army_recruiting": ArmyRecruiting, "double_time": DoubleTime, "terrain": Terrain, "battle_arts": BattleArts}
# Most specific first: battle arts refine terrain costs, so they come before terrain.
PRECEDENCE = ("battle_arts", "terrain", "double_time", "army_recruiting")


@lru_cache(maxsize=16)
def variant_state_class(elected: frozenset[str]) -> type[VariantState]:
    """The battle's `variant` part for the elected variants: a slot for each of their fields, and the
    fields of every other variant reading None (not elected: no terrain, no rampart pool, ...)."""
    fields = tuple(field for name in PRECEDENCE if name in elected for field in MIXINS[name].FIELDS)
    absent = tuple(field.name for name in PRECEDENCE if name not in elected for field in MIXINS[name].FIELDS)
    return variant_state_type(fields, absent)


@lru_cache(maxsize=16)
def _compose(elected: frozenset[str]) -> type[CoreRuleset]:
    bases = tuple(MIXINS[name] for name in PRECEDENCE if name in elected)
    if not bases:  # the Core Rules alone, with the battle's `variant` part of no variant
        return type("CoreRuleset", (CoreRuleset,), {"variant_state": variant_state_class(elected)})
    name = "".join(base.__name__ for base in bases) + "Ruleset"
    return type(name, (*bases, CoreRuleset), {"name": "+".join(n for n in PRECEDENCE if n in elected),
                                              "variant_state": variant_state_class(elected)})


def ruleset_class(variants: tuple[str, ...]) -> type[CoreRuleset]:
    missing = [name for name in variants if name not in MIXINS]
    if missing:
        raise ReplayError("unsupported_variant", f"This engine does not implement {', '.join(missing)} yet.", HEADER)
    return _compose(frozenset(variants))


def ruleset_for(rules: Rules) -> CoreRuleset:
    """The ruleset of a replay: the Core Rules with every elected variant."""
    return ruleset_class(rules.variants)(rules.effective_params, rules)


def new_battle(rules: Rules, generals: tuple, armies: tuple) -> BattleState:
    """A battle before its formation, given the ruleset its rules elect."""
    return BattleState(rules, generals, armies, ruleset_for(rules))


def battle_from_replay(replay: Replay) -> BattleState:
    """The battle of a replay before its formation."""
    return new_battle(replay.rules, replay.generals, replay.armies)
