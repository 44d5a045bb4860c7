"""The one exception the engine raises for a bad replay, and the catalogue of its codes.

A `ReplayError` is for the player who wrote the log: a stable `code`, a `message` sentence and
the location of the first illegal step (turn / order / action, as in the replay format). Any
other exception is a fault of the engine itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Every code the engine can put into an invalid verdict, with its meaning. The README table is
# generated from the same words; tests check that each code raised is listed here.
ERROR_CODES: dict[str, str] = {
    # Reading the document
    "not_json": "The input is not a JSON document.",
    "not_utf8": "The input is not UTF-8 text.",
    "too_large": "The document is larger than the size limit.",
    "too_deep": "The document nests lists and objects deeper than the limit.",
    "too_long": "A list (turns, formation, actions, ...) is longer than its limit.",
    "wrong_type": "A value has the wrong JSON type.",
    "missing_key": "A required key is missing.",
    "unknown_key": "A key that the format does not define (typos must not pass silently).",
    "duplicate_key": "The same key appears twice in one JSON object.",
    "bad_value": "A value is outside the values the format allows.",
    "wrong_format": "`format` is not \"warline-replay\".",
    "unsupported_version": "The replay format version is not 1.",
    "unknown_variant": "`rules.variants` names something that is not an Organized Play variant.",
    "unsupported_variant": "The replay elects a variant this engine does not implement yet.",
    "variant_not_elected": "A battle art, terrain or control entry without its variant.",
    "bad_zone": "A zone is not written as a column letter and a row number.",
    "off_board": "A zone or a move lies outside the battlefield.",
    "bad_battalion_id": "A battalion id is not 1..16 characters of A-Z, a-z, 0-9, _ or -.",
    "duplicate_battalion_id": "Two battalions share an id.",
    "bad_army": "An army is not six battalions of Arms 1 to 6, one of each.",
    # Battle Formation
    "wrong_formation_order": "A formation entry is by the wrong general (p1 first, alternating).",
    "formation_complete": "A formation entry after every battalion has been deployed.",
    "formation_incomplete": "The formation ends before every battalion is deployed.",
    "already_deployed": "A battalion is deployed twice.",
    "not_deployment_row": "A battalion is deployed on an empty zone outside its deployment rows.",
    # Turns and orders
    "battle_over": "A turn follows the end of the battle (a second consecutive Stall).",
    "wrong_turn_order": "A turn is taken by the wrong general.",
    "wrong_order_count": "A turn does not have exactly one order (two with `double_time`, one on its first turn).",
    "bad_torment": "`torment` names a battalion that is not an enemy prisoner of this general.",
    "bad_counter_facing": "`counter_facings` names a battalion that did not survive a counter attack.",
    "bad_sacrifice_beneficiary": "The sacrifice beneficiary is missing, wrong or not allowed (R2).",
    "unknown_battalion": "An id names no battalion of this battle.",
    "not_your_battalion": "An order names a battalion of the other general.",
    "not_on_battlefield": "The battalion is not on the battlefield.",
    "not_top_most": "The battalion is beneath another battalion; only the top-most takes orders.",
    "stunned": "The battalion carries the Stun token and cannot take an order.",
    "not_prisoner": "Extricate names a battalion that is not held in the enemy's prison.",
    "not_home_row": "An extricated battalion must be placed in its general's home row.",
    "zone_occupied": "The zone holds a battalion or a rampart.",
    "arms_not_lower": "Lighten must reduce the battalion to a lower Arms of at least 1.",
    "transfer_not_allowed": "A Lighten transfer or below_facing without an own battalion directly beneath.",
    "transfer_too_large": "A Lighten transfers more Arms than were dismissed.",
    "arms_above_six": "A Lighten transfer would raise the battalion beneath above Arms 6.",
    "stacked_on_enemy": "A Stall or a Lighten cannot turn a battalion stacked on an enemy battalion (R5, R101).",
    "no_ma_spent": "A Maneuver must spend at least 1 MA (R29).",
    # Maneuver actions
    "not_enough_ma": "The action costs more MA than the battalion has left.",
    "blocked_by_rampart": "A battalion cannot move onto a rampart.",
    "stacked_only_move": "A battalion stacked on another battalion can only move (R8, R28).",
    "facing_unchanged": "A face action must change the facing (R29).",
    "action_after_rout": "A Rout spends all remaining MA; nothing can follow it.",
    "rout_target_not_enemy": "Only an enemy battalion can be routed.",
    "rout_not_facing": "The routing battalion must face the target from the adjacent zone.",
    "rout_target_not_top": "Only the top-most battalion of a stack can be routed.",
    "rout_zone_not_adjacent": "A rout destination must be adjacent to the routed battalion.",
    "rout_zone_occupied": "A rout destination must hold no battalion and no rampart.",
    "rout_not_at_edge": "A battalion can be routed off only from a zone on the battlefield's edge.",
    "torment_needs_prisoner": "`torment: true` is only possible when routing off the battlefield.",
    "bad_enemy_facing": "`enemy_facings` names a battalion that did not survive this move's attack.",
    "build_not_connected": "A rampart must be adjacent to the battalion or to a chain of own ramparts reaching it.",
    "no_ramparts_left": "The general has no rampart left to build.",
    "destroy_not_ahead": "Only the rampart in the zone ahead of the battalion can be destroyed.",
    "no_rampart": "There is no rampart to destroy in that zone.",
    "arms_too_low": "Destroying a rampart needs Arms 4 or more.",
    "must_descend": "A battalion standing on a rampart (Alight) leaves it only by Descend.",
    "lighten_on_rampart": "A battalion standing on a rampart (Alight) cannot be lightened.",
    # Army Recruiting
    "army_too_small": "A recruited army has fewer than 6 battalions.",
    "army_sizes_differ": "The two recruited armies have different numbers of battalions.",
    "army_arms_over_limit": "A recruited army's combined Arms exceed floor(3.5 x battalions).",
    "army_without_heavy": "A recruited army has no battalion of Arms 4 or more.",
    # Double Time
    "same_battalion_twice": "Both orders of a double time turn go to the same battalion.",
    # Battlefield Terrain
    "bad_control": "`rules.control` names a zone that is not populace or stronghold.",
    "impassable_terrain": "No battalion moves onto chasm or cliffside.",
    "terrain_forbids_deploy": "Chasm and cliffside take no deployment; populace and stronghold only the controller's.",
    "terrain_forbids_extricate": "No battalion is extricated onto chasm or cliffside.",
    "terrain_forbids_build": "No rampart is built on marsh, waterbody, chasm, crag or cliffside (arts apart).",
    "terrain_forbids_sacrifice": "No Sacrifice is ordered on marsh or waterbody.",
    "rout_from_stronghold": "A battalion on a stronghold cannot be routed.",
    "rout_onto_cliffside": "A battalion on waterbody cannot be routed onto cliffside.",
    # Battle Arts
    "art_wrong_kingdom": "The battle art belongs to another kingdom than the acting battalion's.",
    "art_wrong_arms": "The acting battalion's Arms do not allow this battle art.",
    "art_wrong_terrain": "The battle art needs the battalion to stand on a particular terrain.",
    "art_no_target": "The battle art has nothing it may act on there.",
    "art_out_of_range": "The battle art's target or zone lies beyond its reach.",
    "action_after_final_art": "A battle art that spends all remaining MA ends the Maneuver (R48).",
    # Adjudication
    "search_budget_exceeded": "The victory checks at a turn end need more search steps than one replay may spend (R99).",
    # Result
    "missing_result": "The replay has no `result` although the battle did not end by itself.",
    "result_contradicts_end": "The battle ended by Forced Surrender but `result` says otherwise.",
    # Command line only
    "unreadable_file": "The command line could not read the file (missing, unreadable).",
    # Engine fault (never reached by a real input)
    "internal_error": "The engine failed unexpectedly; please report the replay.",
}


# A written __init__: compiled by mypyc, unlike the generated one (see rules_engine/model.py).
@dataclass(frozen=True, slots=True, init=False)
class Location:
    """Where the first illegal step is: turn 0 is the header and Battle Formation."""

    turn: int | None = 0
    order: int | None = None
    action: int | None = None

    def __init__(self, turn: int | None = 0, order: int | None = None, action: int | None = None) -> None:
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "action", action)


HEADER = Location(0)
RESULT = Location(None)


# How much of an input a message quotes: a key, a value, a name is cut after this many characters.
QUOTE_LIMIT = 40
# Characters a message never shows as they are: controls (C0, C1), the format characters (bidirectional
# embeddings, overrides and isolates such as U+202E, zero-width ones, the byte order mark, tags), line and
# paragraph separators, surrogates and private use. Written as escapes in the regular expression (mypyc).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
                          r"\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
                          r"\ud800-\udfff\ue000-\uf8ff\U000110bd\U000110cd\U00013430-\U0001343f"
                          r"\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
                          r"\U000f0000-\U0010ffff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` with every character `_UNPRINTABLE` names written as its escape (`\\u202e`), so that a sentence
    quoting a log shows the same on a terminal, in JSON and on a page, and never reorders or hides text."""
    return _UNPRINTABLE.sub(_escape, text) if _UNPRINTABLE.search(text) else text


def quote(text: str) -> str:
    """What a message quotes of an input string: at most `QUOTE_LIMIT` characters, an ellipsis after a longer
    one (the message escapes what it must, `printable`)."""
    return text if len(text) <= QUOTE_LIMIT else f"{text[:QUOTE_LIMIT]}\u2026"


class ReplayError(Exception):
    """A replay is not a legal WARLINE battle; says which step and why, in a player's words."""

    def __init__(self, code: str, message: str, location: Location = HEADER):
        if code not in ERROR_CODES:
            raise ValueError(f"unregistered error code {code!r}")
        # A message may quote what the log says: its control, bidirectional and other invisible characters (a
        # lone surrogate included) are written as escapes, so that the message always prints, encodes as
        # UTF-8 and reads the same everywhere (`printable`).
        message = printable(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.location = location

    def to_dict(self) -> dict:
        return {
            "turn": self.location.turn,
            "order": self.location.order,
            "action": self.location.action,
            "code": self.code,
            "message": self.message,
        }

    def __repr__(self) -> str:
        return f"ReplayError({self.code!r}, {self.message!r}, {self.location!r})"
