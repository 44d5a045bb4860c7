"""Strict reading of replay documents into the typed model, with document limits.

Nothing unknown passes: unknown keys, duplicate keys, wrong types, NaN, booleans where numbers
belong are all rejected with a `ReplayError` located like the game steps are (turn 0 for the
header and formation, the turn/order/action of a bad turn, all null for `result`).

Turns are read in play order and a turn that cannot be read stops the reading there
(`parse_document` hands back what was read so far and the error), so that `adjudicate` can
report an earlier *illegal* step before a later *unreadable* one: the first bad step wins.
"""
from __future__ import annotations

import copy
import json
import re
import sys
from typing import Any

from .board import DEFAULT_SIDE, FACINGS, MAX_SIDE, is_zone_name
from .errors import Location, ReplayError, quote
from .model import (
    CONDITIONS,
    KINGDOMS,
    PLAYERS,
    TERRAINS,
    VARIANTS,
    Action,
    BattalionSpec,
    BattleArt,
    Build,
    Deployment,
    Destroy,
    Extricate,
    Face,
    General,
    Lighten,
    Maneuver,
    Move,
    Order,
    Params,
    Replay,
    Result,
    Rout,
    Rules,
    Sacrifice,
    Stall,
    Turn,
)

# Document limits (documented in README.md). A real battle is far below each of them.
MAX_DOCUMENT_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_NODES = 250_000  # values in a document given as a Python object (text is bounded by size)
MAX_TURNS = 5000
MAX_ORDERS_PER_TURN = 3  # read: one more than double time's two, so that a third is refused as one (R105)
MAX_ACTIONS_PER_ORDER = 64
MAX_BATTALIONS_PER_ARMY = 16
MAX_NAME_LENGTH = 100
MAX_MA = 8

BATTALION_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")

# Written fields of each battle art: field name -> kind ("zone", "facing", "battalion").
BATTLE_ART_FIELDS: dict[str, dict[str, str]] = {
    "pounce": {}, "burn": {}, "incinerate": {}, "scald": {}, "melt": {}, "freeze": {}, "flood": {},
    "forestry": {}, "farshot": {}, "forge": {}, "devastate": {},
    "alight": {"zone": "zone", "facing": "facing"},
    "descend": {"to": "facing"},
    "surge": {"to": "zone_or_off"},  # R61: a Surge may take a prisoner, as a Rout does
    "undertow": {"target": "battalion"},
    "flourish": {"zone": "zone"}, "overgrow": {"zone": "zone"}, "mortar": {"zone": "zone"},
}
# Optional written fields (R106): a Surge that takes a prisoner may torment it; the arts that put the
# battalion onto enemy battalions may set the facings of the attacked ones that survive.
BATTLE_ART_OPTIONAL: dict[str, dict[str, str]] = {
    "surge": {"torment": "boolean"},
    "pounce": {"enemy_facings": "facing_map"}, "alight": {"enemy_facings": "facing_map"},
    "descend": {"enemy_facings": "facing_map"}, "forge": {"enemy_facings": "facing_map"},
}
RESULT_TYPES = ("claim", "deadlock", "surrender", "resolve", "unfinished")

_JSON_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer",
                    float: "a number", bool: "true or false", type(None): "null"}


def _type_name(value: Any) -> str:
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def _shown(value: Any) -> str:
    """A value as a message quotes it: short, and never failing (a huge integer has no str() in Python)."""
    if isinstance(value, int) and not isinstance(value, bool) and not -10 ** 18 < value < 10 ** 18:
        return f"a number of {value.bit_length() * 30103 // 100000 + 1} digits or so"
    try:
        return quote(json.dumps(value))
    except (TypeError, ValueError):
        return _type_name(value)


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# ---- Reading the JSON text ---------------------------------------------------------------------

def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ReplayError("duplicate_key", f'The key "{quote(key)}" appears twice in one object.')
        out[key] = value
    return out


def _reject_constant(name: str) -> Any:
    raise ReplayError("not_json", f"{name} is not a JSON number.")


_JSON_STRING = r'"(?:[^"\\]+|\\.)*"'
_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|(\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                     r"|\\.")
_RAW_SURROGATE = re.compile(r"[\ud800-\udfff]")  # the regex reads the escapes: no surrogate in the source (mypyc)


def _line_column(text: str, position: int) -> tuple[int, int]:
    """Line and column (both from 1, in characters) of `position`, as JSON decoding errors give them."""
    return text.count("\n", 0, position) + 1, position - (text.rfind("\n", 0, position) + 1) + 1


def where_long_number(text: str) -> tuple[int, int] | None:
    """(line, column) of the first JSON integer in `text` with more digits than Python converts
    (`sys.get_int_max_str_digits()`, 4,300 by default), or None. Digits inside strings, fractions
    and exponents are not integers and are passed over."""
    limit = sys.get_int_max_str_digits()
    if not limit:
        return None
    pattern = re.compile(rf"{_JSON_STRING}|(?<![\d.eE+-])(-?\d{{{limit + 1},}})(?![\d.eE])")
    for match in pattern.finditer(text):
        if match.group(1):
            return _line_column(text, match.start(1))
    return None


def where_lone_surrogate(text: str) -> tuple[int, int] | None:
    """(line, column) of the first lone surrogate in `text`, a character or a `\\u` escape in a
    string without its pair, or None."""
    raw = _RAW_SURROGATE.search(text)
    if raw is not None:
        return _line_column(text, raw.start())
    for string in re.finditer(_JSON_STRING, text):
        for escape in _ESCAPE.finditer(string.group()):
            high_alone = escape.group().lower().startswith(("\\ud8", "\\ud9", "\\uda", "\\udb")) and not escape.group(1)
            if high_alone or escape.group(2):
                return _line_column(text, string.start() + escape.start())
    return None


def _at(where: tuple[int, int] | None) -> str:
    return "" if where is None else f" at line {where[0]}, column {where[1]}"


def decode(source: str | bytes | bytearray) -> Any:
    """JSON text (str or UTF-8 bytes) -> Python value, within the size and depth limits."""
    if isinstance(source, bytes | bytearray):
        if len(source) > MAX_DOCUMENT_BYTES:
            raise ReplayError("too_large", f"The replay is larger than {MAX_DOCUMENT_BYTES} bytes.")
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as undecodable:  # (each handler its own name: mypyc types a name once)
            raise ReplayError("not_utf8", f"The replay is not UTF-8 text (byte {undecodable.start}).") from None
    else:
        try:
            size = len(source) if source.isascii() else len(source.encode("utf-8"))
        except UnicodeEncodeError:
            raise _surrogate_error(source) from None
        if size > MAX_DOCUMENT_BYTES:
            raise ReplayError("too_large", f"The replay is larger than {MAX_DOCUMENT_BYTES} bytes.")
    if source.startswith("\ufeff"):
        source = source[1:]
    # Decoded UTF-8 holds no lone surrogate; only a \u escape can make one, so strings are looked at
    # only in a text that has escapes.
    check_strings = "\\u" in source
    try:  # the common case, a well-formed document without a duplicate key: no hook, fewer allocations
        value = json.loads(source, parse_constant=_reject_constant)
        keys = _quick_walk(value, check_strings)
        if keys >= 0 and _no_duplicate_key(source, value, keys):
            return value
    except (ReplayError, RecursionError, ValueError):
        pass
    return _decode_strictly(source)


def _decode_strictly(source: str) -> Any:
    """`decode` of a text the quick way did not take: every object through the duplicate-key hook, then
    `check_shape`, which finds the first thing wrong and says what it is."""
    try:
        value = json.loads(source, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant)
    except RecursionError:
        raise ReplayError("too_deep", f"The replay nests deeper than {MAX_DEPTH} levels.") from None
    except json.JSONDecodeError as bad_json:
        raise ReplayError("not_json", f"The replay is not valid JSON: {bad_json.msg} at line {bad_json.lineno}, "
                                      f"column {bad_json.colno}.") from None
    except ValueError:  # Python refuses integers of more than 4,300 digits (int_max_str_digits)
        raise ReplayError("bad_value", f"The replay holds a number too long to read (more than "
                                       f"{sys.get_int_max_str_digits():,} digits){_at(where_long_number(source))}."
                          ) from None
    try:
        check_shape(value, check_strings="\\u" in source)
    except ReplayError as error:
        if error.code == "not_utf8":
            raise _surrogate_error(source) from None
        raise
    return value


def _no_duplicate_key(text: str, value: Any, keys: int) -> bool:
    """Whether the JSON text `text`, decoded into `value` whose objects hold `keys` keys in all, wrote
    no key twice in one object. Outside its strings a JSON text has a colon after each key it writes
    and nowhere else, and an object keeps one key of those written twice: so the text wrote no
    duplicate exactly when its colons, less those inside strings, are as many as `keys`."""
    colons = text.count(":")
    if colons == keys:
        return True
    if "\\u" in text:  # an escape may stand for a colon: which colons are inside strings is not known here
        return False
    return colons - _colons_in_strings(value) == keys


def _quick_walk(value: Any, check_strings: bool) -> int:
    """The number of keys of all the objects of a document decoded from JSON text, or -1 when it may
    break a limit (depth, values, an infinite number, a lone surrogate): then `check_shape` decides,
    and says what is wrong. Walked level by level, nothing stacked per value."""
    if type(value) is not dict:
        return -1
    level: list[Any] = [value]
    nodes = 1
    keys = 0
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            return -1
        deeper: list[Any] = []
        for item in level:
            nodes += len(item)
            if type(item) is dict:
                keys += len(item)
                if check_strings and any(not key.isascii() and _has_lone_surrogate(key) for key in item):
                    return -1
                children: Any = item.values()
            else:
                children = item
            for child in children:
                kind = type(child)
                if kind is dict or kind is list:
                    deeper.append(child)
                elif kind is float:
                    if child - child != 0:  # infinite (NaN never comes out of the decoder: parse_constant)
                        return -1
                elif kind is str and check_strings and not child.isascii() and _has_lone_surrogate(child):
                    return -1
        if nodes > MAX_NODES:
            return -1
        level = deeper
        depth += 1
    return keys


def _colons_in_strings(value: Any) -> int:
    """Colons in the keys and strings of a decoded document (escape-free: as many as in its text)."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                count += key.count(":")
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            count += item.count(":")
    return count


def _surrogate_error(text: str | None = None) -> ReplayError:
    where = _at(where_lone_surrogate(text)) if text is not None else ""
    return ReplayError("not_utf8", f"The replay holds a lone surrogate{where} (a \\ud800-\\udfff escape without "
                                   "its pair), which is no Unicode text and cannot be written as UTF-8.")


def check_shape(value: Any, check_strings: bool = True) -> None:
    """Depth, size and JSON-ness of an already decoded document (walked without recursion); with
    `check_strings`, also that its strings and keys are Unicode text (no lone surrogate). Leaves are
    checked where they stand and counted by their container, so only containers are ever stacked."""
    _check_leaf(value, check_strings)
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    nodes = 1
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ReplayError("too_deep", f"The replay nests deeper than {MAX_DEPTH} levels.")
        nodes += len(item)
        if nodes > MAX_NODES:
            raise ReplayError("too_large", f"The replay holds more than {MAX_NODES} values.")
        if isinstance(item, dict):
            for key in item:
                if type(key) is not str and not isinstance(key, str):
                    raise ReplayError("wrong_type", "Object keys must be strings.")
                if check_strings and not key.isascii() and _has_lone_surrogate(key):
                    raise _surrogate_error()
            children: Any = item.values()
        else:
            children = item
        for child in children:
            kind = type(child)
            if kind is str:
                if check_strings and not child.isascii() and _has_lone_surrogate(child):
                    raise _surrogate_error()
            elif kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif kind is not int and kind is not bool and child is not None:
                if isinstance(child, dict | list):
                    stack.append((child, depth + 1))
                else:
                    _check_leaf(child, check_strings)


def _check_leaf(item: Any, check_strings: bool) -> None:
    if isinstance(item, dict | list | int | type(None)):
        return
    if isinstance(item, float):
        if item != item or item in (float("inf"), float("-inf")):
            raise ReplayError("not_json", "NaN and Infinity are not JSON numbers.")
    elif isinstance(item, str):
        if check_strings and not item.isascii() and _has_lone_surrogate(item):
            raise _surrogate_error()
    else:
        raise ReplayError("wrong_type", f"{type(item).__name__} is not a JSON value.")


# ---- Typed field access --------------------------------------------------------------------------

class _Reader:
    """Checks of one JSON object at `path`, raising errors located at turn / order / action (the
    `Location` is made only for an error: most readers never raise)."""

    __slots__ = ("turn", "order", "action")

    def __init__(self, turn: int | None, order: int | None = None, action: int | None = None):
        self.turn = turn
        self.order = order
        self.action = action

    def fail(self, code: str, message: str) -> ReplayError:
        return ReplayError(code, message, Location(self.turn, self.order, self.action))

    def wrong_type(self, value: Any, path: str, expected: str) -> ReplayError:
        return self.fail("wrong_type", f"{path} must be {expected}, not {_type_name(value)}.")

    def object(self, value: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
        if not isinstance(value, dict):
            raise self.fail("wrong_type", f"{path[0].upper()}{path[1:]} must be an object, not {_type_name(value)}.")
        for key in value:
            if key not in required and key not in optional:
                raise self.fail("unknown_key", f'Unknown key "{quote(key)}" in {path}.')
        for key in required:
            if key not in value:
                raise self.fail("missing_key", f'{path[0].upper()}{path[1:]} has no "{key}".')
        return value

    def list(self, value: Any, path: str, limit: int) -> list:
        if not isinstance(value, list):
            raise self.wrong_type(value, path, "a list")
        if len(value) > limit:
            raise self.fail("too_long", f"{path} has {len(value)} entries; the limit is {limit}.")
        return value

    def string(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise self.wrong_type(value, path, "a string")
        return value

    def integer(self, value: Any, path: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.wrong_type(value, path, "an integer")
        if not low <= value <= high:
            raise self.fail("bad_value", f"{path} must be between {low} and {high}, not {_shown(value)}.")
        return value

    def boolean(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.wrong_type(value, path, "true or false")
        return value

    def choice(self, value: Any, path: str, choices: tuple[str, ...]) -> str:
        text = self.string(value, path)
        if text not in choices:
            raise self.fail("bad_value", f"{path} must be one of {', '.join(choices)}, not \"{quote(text)}\".")
        return text

    def player(self, value: Any, path: str) -> str:
        return self.choice(value, path, PLAYERS)

    def facing(self, value: Any, path: str) -> str:
        return self.choice(value, path, FACINGS)

    def zone(self, value: Any, path: str) -> str:
        text = self.string(value, path)
        if not is_zone_name(text):
            raise self.fail("bad_zone", f'{path} must be a zone such as "c4", not "{quote(text)}".')
        return text

    def battalion(self, value: Any, path: str) -> str:
        text = self.string(value, path)
        # The usual id (letters and digits) passes without the regular expression, which decides the rest.
        if not (len(text) <= 16 and text.isascii() and text.isalnum()) and not BATTALION_ID.match(text):
            raise self.fail("bad_battalion_id",
                            f'{path} "{quote(text)}" is not a battalion id (1..16 of A-Z, a-z, 0-9, _, -).')
        return text

    def facing_map(self, value: Any, path: str) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, dict):
            raise self.wrong_type(value, path, "an object")
        return tuple((self.battalion(key, f"a battalion id in {path}"), self.facing(facing, f"{path}.{key}"))
                     for key, facing in value.items())


# ---- Header ------------------------------------------------------------------------------------

_TOP_REQUIRED = ("format", "version", "rules", "generals", "armies", "formation", "first_turn", "turns")
_TOP_OPTIONAL = ("meta", "result")


def _read_rules(reader: _Reader, value: Any) -> Rules:
    rules = reader.object(value, "rules", ("board",), ("variants", "terrain", "control", "params"))
    absent = set()
    if "variants" not in rules:  # R109: no variant elected
        absent.add("variants")
    variants = reader.list(rules.get("variants", []), "rules.variants", len(VARIANTS) + 1)
    names = []
    for name in variants:
        text = reader.string(name, "rules.variants entry")
        if text not in VARIANTS:
            raise reader.fail("unknown_variant",
                              f'"{quote(text)}" is not a WARLINE Organized Play variant '
                              f"({', '.join(VARIANTS)}).")
        if text in names:
            raise reader.fail("bad_value", f'rules.variants lists "{text}" twice.')
        names.append(text)
    board = reader.object(rules["board"], "rules.board", (), ("width", "height"))
    absent.update(side for side in ("width", "height") if side not in board)  # R109: 7 by default
    width = reader.integer(board.get("width", DEFAULT_SIDE), "rules.board.width", 1, MAX_SIDE)
    height = reader.integer(board.get("height", DEFAULT_SIDE), "rules.board.height", 1, MAX_SIDE)
    terrain = control = params = None
    if "terrain" in rules:
        if not isinstance(rules["terrain"], dict):
            raise reader.fail("wrong_type", f"rules.terrain must be an object, not {_type_name(rules['terrain'])}.")
        terrain = tuple((reader.zone(zone, "a zone in rules.terrain"), reader.choice(kind, f"rules.terrain.{zone}",
                                                                                     TERRAINS))
                        for zone, kind in rules["terrain"].items())
    if "control" in rules:
        if not isinstance(rules["control"], dict):
            raise reader.fail("wrong_type", f"rules.control must be an object, not {_type_name(rules['control'])}.")
        control = tuple((reader.zone(zone, "a zone in rules.control"), reader.player(who, f"rules.control.{zone}"))
                        for zone, who in rules["control"].items())
    if (terrain or control) and "terrain" not in names:
        raise reader.fail("variant_not_elected", "rules.terrain and rules.control need the terrain variant.")
    if "params" in rules:
        given = reader.object(rules["params"], "rules.params", (), ("ma_by_arms",))
        ma = Params().ma_by_arms
        if "ma_by_arms" in given:
            listed = reader.list(given["ma_by_arms"], "rules.params.ma_by_arms", 6)
            if len(listed) != 6:
                raise reader.fail("bad_value", "rules.params.ma_by_arms must list the MA of Arms 1 to 6 (six numbers).")
            ma = tuple(reader.integer(item, "rules.params.ma_by_arms entry", 1, MAX_MA) for item in listed)
        params = Params(ma)
    return Rules(tuple(names), width, height, terrain, control, params, frozenset(absent))


def _read_armies(reader: _Reader, value: Any, recruiting: bool) -> tuple:
    armies = reader.object(value, "armies", PLAYERS)
    seen: set[str] = set()
    out = []
    for player in PLAYERS:
        listed = reader.list(armies[player], f"armies.{player}", MAX_BATTALIONS_PER_ARMY)
        army = []
        for number, item in enumerate(listed, 1):
            path = f"armies.{player} battalion {number}"
            entry = reader.object(item, path, ("id", "arms"), ("kingdom",) if recruiting else ())
            ident = reader.battalion(entry["id"], f"{path} id")
            if ident in seen:
                raise reader.fail("duplicate_battalion_id", f'Two battalions are called "{ident}".')
            seen.add(ident)
            arms = reader.integer(entry["arms"], f"{path} arms", 1, 6)
            kingdom = reader.choice(entry["kingdom"], f"{path} kingdom", KINGDOMS) if "kingdom" in entry else None
            army.append(BattalionSpec(ident, arms, kingdom))
        if not recruiting and sorted(spec.arms for spec in army) != [1, 2, 3, 4, 5, 6]:
            raise reader.fail("bad_army", f"{player}'s army must be six battalions of Arms 1 to 6, one of each.")
        out.append(tuple(army))
    return tuple(out)


def _read_formation(reader: _Reader, value: Any) -> tuple[Deployment, ...]:
    listed = reader.list(value, "formation", 2 * MAX_BATTALIONS_PER_ARMY)
    entries = []
    for number, item in enumerate(listed, 1):
        path = f"formation entry {number}"
        entry = reader.object(item, path, ("by", "battalion", "zone", "facing"))
        entries.append(Deployment(reader.player(entry["by"], f"{path} by"),
                                  reader.battalion(entry["battalion"], f"{path} battalion"),
                                  reader.zone(entry["zone"], f"{path} zone"),
                                  reader.facing(entry["facing"], f"{path} facing")))
    return tuple(entries)


# ---- Turns -------------------------------------------------------------------------------------

_PLAIN_MOVE = Move()
_FACES = {facing: Face(facing) for facing in FACINGS}


def _plain_action(value: Any) -> Action | None:
    """The two actions most Maneuvers are made of, `{"act": "move"}` and `{"act": "face", "to": <a
    facing>}`, read without a reader; None for anything else, which `_read_action` reads (and refuses)."""
    if type(value) is dict:
        act = value.get("act")
        if act == "move":
            if len(value) == 1:
                return _PLAIN_MOVE
        elif act == "face" and len(value) == 2:
            to = value.get("to")
            if type(to) is str:
                return _FACES.get(to)
    return None


def _read_action(reader: _Reader, value: Any) -> Action:
    path = "this action"
    if not isinstance(value, dict):
        raise reader.fail("wrong_type", f"An action must be an object, not {_type_name(value)}.")
    if "act" not in value:
        raise reader.fail("missing_key", 'This action has no "act".')
    act = reader.string(value["act"], "act")
    if act == "move":
        entry = reader.object(value, path, ("act",), ("enemy_facings", "snowblind"))
        facings = reader.facing_map(entry["enemy_facings"], "enemy_facings") if "enemy_facings" in entry else None
        snowblind = reader.boolean(entry["snowblind"], "snowblind") if "snowblind" in entry else None  # R17
        return Move(facings, snowblind)
    if act == "face":
        entry = reader.object(value, path, ("act", "to"))
        return Face(reader.facing(entry["to"], "to"))
    if act == "rout":
        entry = reader.object(value, path, ("act", "target", "to"), ("torment",))
        to = reader.string(entry["to"], "to")
        if to != "off":
            reader.zone(to, "to")
        torment = reader.boolean(entry["torment"], "torment") if "torment" in entry else None
        return Rout(reader.battalion(entry["target"], "target"), to, torment)
    if act == "build":
        entry = reader.object(value, path, ("act", "zone"))
        return Build(reader.zone(entry["zone"], "zone"))
    if act == "destroy":
        entry = reader.object(value, path, ("act", "zone"))
        return Destroy(reader.zone(entry["zone"], "zone"))
    if act in BATTLE_ART_FIELDS:
        kinds = BATTLE_ART_FIELDS[act]
        optional = BATTLE_ART_OPTIONAL.get(act, {})
        entry = reader.object(value, f"the {act} action", ("act", *kinds), tuple(optional))
        fields: list[tuple[str, Any]] = []
        for name, kind in kinds.items():
            if kind == "zone" or (kind == "zone_or_off" and entry[name] != "off"):
                fields.append((name, reader.zone(entry[name], name)))
            elif kind == "zone_or_off":
                fields.append((name, "off"))
            elif kind == "facing":
                fields.append((name, reader.facing(entry[name], name)))
            else:
                fields.append((name, reader.battalion(entry[name], name)))
        for name, kind in optional.items():
            if name in entry:
                fields.append((name, reader.boolean(entry[name], name) if kind == "boolean"
                               else reader.facing_map(entry[name], name)))
        return BattleArt(act, tuple(fields))
    raise reader.fail("bad_value", f'"{quote(act)}" is not a maneuver action.')


def _read_order(reader: _Reader, value: Any, turn_number: int, order_number: int) -> Order:
    if not isinstance(value, dict):
        raise reader.fail("wrong_type", f"An order must be an object, not {_type_name(value)}.")
    if "type" not in value:
        raise reader.fail("missing_key", 'This order has no "type".')
    kind = reader.string(value["type"], "type")
    path = f"this {kind} order"
    if kind == "maneuver":
        entry = reader.object(value, path, ("type", "battalion", "actions"))
        battalion = reader.battalion(entry["battalion"], "battalion")
        listed = reader.list(entry["actions"], "actions", MAX_ACTIONS_PER_ORDER)
        actions = []
        for action_number, item in enumerate(listed, 1):
            action = _plain_action(item)
            if action is None:
                action = _read_action(_Reader(turn_number, order_number, action_number), item)
            actions.append(action)
        return Maneuver(battalion, tuple(actions))
    if kind == "extricate":
        entry = reader.object(value, path, ("type", "battalion", "zone", "facing"))
        return Extricate(reader.battalion(entry["battalion"], "battalion"), reader.zone(entry["zone"], "zone"),
                         reader.facing(entry["facing"], "facing"))
    if kind == "sacrifice":
        entry = reader.object(value, path, ("type", "battalion"))
        return Sacrifice(reader.battalion(entry["battalion"], "battalion"))
    if kind == "lighten":
        entry = reader.object(value, path, ("type", "battalion", "arms"), ("facing", "transfer", "below_facing"))
        return Lighten(
            reader.battalion(entry["battalion"], "battalion"),
            reader.integer(entry["arms"], "arms", 1, 6),
            reader.facing(entry["facing"], "facing") if "facing" in entry else None,
            reader.integer(entry["transfer"], "transfer", 0, 5) if "transfer" in entry else None,
            reader.facing(entry["below_facing"], "below_facing") if "below_facing" in entry else None,
        )
    if kind == "stall":
        entry = reader.object(value, path, ("type",), ("battalion", "facing"))
        if "facing" in entry and "battalion" not in entry:
            raise reader.fail("missing_key", "A Stall that sets a facing must name the battalion it turns.")
        return Stall(reader.battalion(entry["battalion"], "battalion") if "battalion" in entry else None,
                     reader.facing(entry["facing"], "facing") if "facing" in entry else None)
    raise reader.fail("bad_value", f'"{quote(kind)}" is not a Tactical Order '
                                   "(maneuver, extricate, sacrifice, lighten, stall).")


def read_turn(value: Any, number: int) -> Turn:
    reader = _Reader(number)
    entry = reader.object(value, f"turn {number}", ("by", "orders"),
                          ("torment", "counter_facings", "sacrifice_beneficiary"))
    by = reader.player(entry["by"], "by")
    torment = None
    if "torment" in entry:
        listed = reader.list(entry["torment"], "torment", MAX_BATTALIONS_PER_ARMY)
        torment = tuple(reader.battalion(item, "a torment entry") for item in listed)
    counter = reader.facing_map(entry["counter_facings"], "counter_facings") if "counter_facings" in entry else None
    beneficiary = (reader.battalion(entry["sacrifice_beneficiary"], "sacrifice_beneficiary")
                   if "sacrifice_beneficiary" in entry else None)
    if not isinstance(entry["orders"], list):
        raise reader.fail("wrong_type", f"orders must be a list, not {_type_name(entry['orders'])}.")
    # R105: an order too many is the game's problem at that order, so the first orders past the
    # most a turn can have are read and refused where they stand; later ones are never reached.
    listed = entry["orders"][:MAX_ORDERS_PER_TURN]
    orders = tuple(_read_order(_Reader(number, index), item, number, index)
                   for index, item in enumerate(listed, 1))
    return Turn(by, orders, torment, counter, beneficiary)


def read_result(value: Any) -> Result:
    reader = _Reader(None)
    if not isinstance(value, dict):
        raise reader.fail("wrong_type", f"result must be an object, not {_type_name(value)}.")
    if "type" not in value:
        raise reader.fail("missing_key", 'result has no "type".')
    kind = reader.choice(value["type"], "result.type", RESULT_TYPES)
    if kind == "claim":
        entry = reader.object(value, "result", ("type", "by", "condition"))
        return Result(kind, reader.player(entry["by"], "result.by"),
                      reader.choice(entry["condition"], "result.condition", CONDITIONS))
    if kind == "surrender":
        entry = reader.object(value, "result", ("type", "by"))
        return Result(kind, reader.player(entry["by"], "result.by"))
    reader.object(value, "result", ("type",))
    return Result(kind)


# ---- Whole document ------------------------------------------------------------------------------

def parse_document(document: Any, shape_checked: bool = False) -> tuple[Replay, ReplayError | None]:
    """Read a decoded document. Header errors raise; the first unreadable turn or result is
    handed back with the replay read up to it (its `result` is then None)."""
    if not shape_checked:
        check_shape(document)
    reader = _Reader(0)
    top = reader.object(document, "the replay", _TOP_REQUIRED, _TOP_OPTIONAL)
    if top["format"] != "warline-replay":
        raise reader.fail("wrong_format", 'This is not a WARLINE replay ("format" must be "warline-replay").')
    version = top["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version != 1:
        raise reader.fail("unsupported_version", f"Replay format version {_shown(version)} is not "
                                                 "supported; this engine reads version 1.")
    meta = top.get("meta")
    if "meta" in top and not isinstance(meta, dict):
        raise reader.fail("wrong_type", f"meta must be an object, not {_type_name(meta)}.")
    rules = _read_rules(reader, top["rules"])
    generals_entry = reader.object(top["generals"], "generals", PLAYERS)
    generals = []
    for player in PLAYERS:
        entry = reader.object(generals_entry[player], f"generals.{player}", ("name", "kingdom"))
        name = reader.string(entry["name"], f"generals.{player}.name")
        if len(name) > MAX_NAME_LENGTH:
            raise reader.fail("too_long", f"generals.{player}.name is longer than {MAX_NAME_LENGTH} characters.")
        generals.append(General(name, reader.choice(entry["kingdom"], f"generals.{player}.kingdom", KINGDOMS)))
    armies = _read_armies(reader, top["armies"], "army_recruiting" in rules.variants)
    formation = _read_formation(reader, top["formation"])
    first_turn = reader.player(top["first_turn"], "first_turn")
    listed = reader.list(top["turns"], "turns", MAX_TURNS)
    turns: list[Turn] = []
    deferred: ReplayError | None = None
    for number, item in enumerate(listed, 1):
        try:
            turns.append(read_turn(item, number))
        except ReplayError as error:
            deferred = error
            break
    result = None
    if deferred is None and "result" in top:
        try:
            result = read_result(top["result"])
        except ReplayError as error:
            deferred = error
    replay = Replay(rules, (generals[0], generals[1]), armies, formation, first_turn, tuple(turns), result,
                    meta=copy.deepcopy(meta), version=1)
    return replay, deferred


def load_replay(source: Any) -> Replay:
    """Read a replay (JSON text, UTF-8 bytes or an already decoded dict) strictly.

    `source` is typed `Any` on purpose: any other value is a `ReplayError` too, never a `TypeError`
    (the mypyc-compiled engine would check a narrower annotation before the first line runs).

    Raises `ReplayError` for anything that is not a well-formed version-1 replay. Game legality
    (moves, formation rows, ...) is `adjudicate`'s job, not this function's.
    """
    if isinstance(source, str | bytes | bytearray):
        replay, deferred = parse_document(decode(source), shape_checked=True)
    else:  # a dict, or any other value, which the reader refuses as `adjudicate` does (`wrong_type`)
        replay, deferred = parse_document(source)
    if deferred is not None:
        raise deferred
    return replay
