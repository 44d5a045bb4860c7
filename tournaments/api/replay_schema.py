"""The replay log (../shared/spec/replay-format.md, version 1) as OpenAPI 3.0 schema components, built
from the engine reader's own names and limits (rules_engine.replay: BATTLE_ART_FIELDS, BATTLE_ART_OPTIONAL,
the MAX_* limits) and the fields of its model (rules_engine.model: a step's required and optional keys), so
the two cannot drift apart:
what the schema accepts is what `rules_engine.load_replay` reads, down to unknown keys, lengths and
enumerations. What OpenAPI 3.0 cannot say is left to the engine alone: that the keys of zone and
battalion maps (`rules.terrain`, `rules.control`, `enemy_facings`, `counter_facings`) are zones and
battalion ids, battalion ids unique across both armies, a Stall's facing only with its battalion
(kept out so that generated clients get a plain Stall model), the rules that depend on the variants (six
battalions of Arms 1..6 without army_recruiting, terrain only with its variant), the nesting depth
inside `meta`; and game legality.
tests/api/test_contract.py holds the schema and the reader together on the shared example replays."""
import dataclasses

from rules_engine.board import DEFAULT_SIDE, FACINGS, MAX_SIDE, ZONE_PATTERN
from rules_engine.model import (
    CONDITIONS,
    KINGDOMS,
    PLAYERS,
    TERRAINS,
    VARIANTS,
    Build,
    Destroy,
    Extricate,
    Face,
    Lighten,
    Maneuver,
    Move,
    Rout,
    Sacrifice,
    Stall,
    Turn,
)
from rules_engine.replay import (
    BATTALION_ID,
    BATTLE_ART_FIELDS,
    BATTLE_ART_OPTIONAL,
    MAX_ACTIONS_PER_ORDER,
    MAX_BATTALIONS_PER_ARMY,
    MAX_MA,
    MAX_NAME_LENGTH,
    MAX_ORDERS_PER_TURN,
    MAX_TURNS,
    RESULT_TYPES,
)

REF = "#/components/schemas/"
PLAYER = {"type": "string", "enum": list(PLAYERS)}
FACING = {"type": "string", "enum": list(FACINGS)}
ZONE = {"type": "string", "pattern": ZONE_PATTERN.pattern, "description": "A zone such as c4."}
ZONE_OR_OFF = {"oneOf": [ZONE, {"type": "string", "enum": ["off"]}]}
BATTALION = {"type": "string", "pattern": BATTALION_ID.pattern, "description": "A battalion id."}
FACING_MAP = {"type": "object", "additionalProperties": FACING,
              "description": "The facing of each battalion named as a key."}
BOOLEAN = {"type": "boolean"}


def _closed(required, optional=None, description=None):
    """An object with exactly these keys (the reader rejects unknown ones)."""
    properties = {**required, **(optional or {})}
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:  # OpenAPI 3.0: a `required` list is never empty
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


def _tagged(tag, name):
    return {tag: {"type": "string", "enum": [name]}}


def _integer(low, high):
    return {"type": "integer", "minimum": low, "maximum": high}


def _written(model, kinds, tag=None):
    """The keys of one step as the engine's model writes them: a field of `model` without a default is
    required, one with a default (None: left out) optional. Every field must have its schema in
    `kinds`, so that a field added to the engine fails here instead of being refused by the schema."""
    # The tag (`act`, `type`) is a class constant, not a field; the compiled engine lists it among the
    # fields all the same, so it is left out by name.
    fields = [field for field in dataclasses.fields(model) if field.name not in (tag or {})]
    differ = {field.name for field in fields} ^ set(kinds)
    if differ:
        raise RuntimeError(f"replay schema and rules_engine.model.{model.__name__} disagree on {sorted(differ)}")
    required = {**(tag or {}), **{f.name: kinds[f.name] for f in fields if f.default is dataclasses.MISSING}}
    optional = {f.name: kinds[f.name] for f in fields if f.default is not dataclasses.MISSING}
    return required, optional


def _union(tag, variants, description):
    """oneOf the variants, told apart by their `tag` key (discriminator)."""
    return {"oneOf": [{"$ref": REF + component} for component in variants.values()],
            "discriminator": {"propertyName": tag, "mapping": {name: REF + component
                                                               for name, component in variants.items()}},
            "description": description}


def _action_components():
    art_kinds = {"zone": ZONE, "zone_or_off": ZONE_OR_OFF, "facing": FACING, "battalion": BATTALION,
                 "boolean": BOOLEAN, "facing_map": FACING_MAP}
    core = {  # R17 (amended): snowblind is written on the move; R106: torment and enemy_facings
        "move": (Move, {"enemy_facings": FACING_MAP, "snowblind": BOOLEAN}),
        "face": (Face, {"to": FACING}),
        "rout": (Rout, {"target": BATTALION, "to": ZONE_OR_OFF, "torment": BOOLEAN}),
        "build": (Build, {"zone": ZONE}),
        "destroy": (Destroy, {"zone": ZONE}),
    }
    actions = {name: _closed(*_written(model, kinds, _tagged("act", name))) for name, (model, kinds) in core.items()}
    for art, fields in BATTLE_ART_FIELDS.items():
        optional = BATTLE_ART_OPTIONAL.get(art, {})  # R106: a Surge's torment, the arts' enemy_facings
        actions[art] = _closed({**_tagged("act", art), **{name: art_kinds[kind] for name, kind in fields.items()}},
                               {name: art_kinds[kind] for name, kind in optional.items()},
                               description=f"The {art} battle art (battle_arts variant).")
    names = {name: f"ReplayAction{name.title()}" for name in actions}
    return {names[name]: schema for name, schema in actions.items()}, names


def _order_components():
    kinds = {
        "maneuver": (Maneuver, {"battalion": BATTALION,
                                "actions": {"type": "array", "items": {"$ref": REF + "ReplayAction"},
                                            "maxItems": MAX_ACTIONS_PER_ORDER}}),
        "extricate": (Extricate, {"battalion": BATTALION, "zone": ZONE, "facing": FACING}),
        "sacrifice": (Sacrifice, {"battalion": BATTALION}),
        "lighten": (Lighten, {"battalion": BATTALION, "arms": _integer(1, 6), "facing": FACING,
                              "transfer": _integer(0, 5), "below_facing": FACING}),
        "stall": (Stall, {"battalion": BATTALION, "facing": FACING}),
    }
    orders = {name: _closed(*_written(model, fields, _tagged("type", name))) for name, (model, fields) in kinds.items()}
    names = {name: f"ReplayOrder{name.title()}" for name in orders}
    return {names[name]: schema for name, schema in orders.items()}, names


def _result_components():
    results = {}
    for name in RESULT_TYPES:
        fields = _tagged("type", name)
        if name in ("claim", "surrender"):
            fields["by"] = PLAYER
        if name == "claim":
            fields["condition"] = {"type": "string", "enum": list(CONDITIONS)}
        results[name] = _closed(fields)
    names = {name: f"ReplayResult{name.title()}" for name in results}
    return {names[name]: schema for name, schema in results.items()}, names


def replay_components():
    """Every component of the replay, `Replay` being the document itself."""
    actions, action_names = _action_components()
    orders, order_names = _order_components()
    results, result_names = _result_components()
    army = {"type": "array", "maxItems": MAX_BATTALIONS_PER_ARMY, "items": _closed(
        {"id": BATTALION, "arms": _integer(1, 6)},
        {"kingdom": {"type": "string", "enum": list(KINGDOMS),
                     "description": "Only with army_recruiting; default: the general's."}})}
    general = _closed({"name": {"type": "string", "maxLength": MAX_NAME_LENGTH},
                       "kingdom": {"type": "string", "enum": list(KINGDOMS)}})
    side = {**_integer(1, MAX_SIDE), "default": DEFAULT_SIDE}
    # R109: `rules` and its `board` are required; without `variants` no variant is elected, a side
    # left out is 7.
    rules = _closed(
        {"board": _closed({}, {"width": side, "height": side})},
        {"variants": {"type": "array", "items": {"type": "string", "enum": list(VARIANTS)},
                      "uniqueItems": True, "maxItems": len(VARIANTS), "description": "Absent: no variant."},
         "terrain": {"type": "object", "additionalProperties": {"type": "string", "enum": list(TERRAINS)},
                     "description": "Zone -> terrain (terrain variant); other zones are flatland."},
         "control": {"type": "object", "additionalProperties": PLAYER,
                     "description": "Populace and stronghold zones -> the general controlling them."},
         "params": _closed({}, {"ma_by_arms": {"type": "array", "items": _integer(1, MAX_MA),
                                               "minItems": 6, "maxItems": 6}})})
    # A turn has at most Double Time's two orders; the engine reads one more only to refuse it there (R105).
    turn = _closed(*_written(Turn, {
        "by": PLAYER, "orders": {"type": "array", "items": {"$ref": REF + "ReplayOrder"},
                                 "maxItems": MAX_ORDERS_PER_TURN - 1},
        "torment": {"type": "array", "items": BATTALION, "maxItems": MAX_BATTALIONS_PER_ARMY},
        "counter_facings": FACING_MAP, "sacrifice_beneficiary": BATTALION}))
    replay = _closed(
        {"format": {"type": "string", "enum": ["warline-replay"]},
         "version": {"type": "integer", "enum": [1]},
         "rules": rules,
         "generals": _closed({"p1": general, "p2": general}),
         "armies": _closed({"p1": army, "p2": army}),
         "formation": {"type": "array", "maxItems": 2 * MAX_BATTALIONS_PER_ARMY, "items": _closed(
             {"by": PLAYER, "battalion": BATTALION, "zone": ZONE, "facing": FACING})},
         "first_turn": PLAYER,
         "turns": {"type": "array", "items": {"$ref": REF + "ReplayTurn"}, "maxItems": MAX_TURNS}},
        {"meta": {"type": "object", "additionalProperties": True, "description": "Anything, kept as given."},
         "result": {"$ref": REF + "ReplayResult"}},
        description="A WARLINE replay log, format version 1 (../shared/spec/replay-format.md): at most 1 MiB "
                    "as UTF-8 JSON, nesting at most 32 deep.")
    return {
        "Replay": replay, "ReplayTurn": turn,
        "ReplayOrder": _union("type", order_names, "One Tactical Order."), **orders,
        "ReplayAction": _union("act", action_names, "One Maneuver action."), **actions,
        "ReplayResult": _union("type", result_names, "How the battle ended."), **results,
    }


def standalone_schema():
    """`Replay` as one JSON Schema document (its components inside), for validators."""
    return {"$ref": REF + "Replay", "components": {"schemas": replay_components()}}
