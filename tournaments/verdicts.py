"""Does an engine verdict agree with a reported result? Plain functions over the report's fields,
the replay's header and the verdict dict of ../shared/spec/replay-format.md.

Which general is which (R73): the replay's `meta.general_ids` (an extension, see docs/replay-extensions.md)
maps `p1`/`p2` to general ids; without it the replay's general names must equal the battle's
generals' names (ignoring case and spacing).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

CONDITION_WORDS = {
    "overpower": "Overpower", "crush": "Crush", "shackle": "Shackle", "paralyze": "Paralyze", "blunt": "Blunt",
    "forced_surrender": "Forced Surrender", "voluntary_surrender": "Voluntary Surrender",
}


@dataclass(frozen=True)
class Comparison:
    agrees: bool
    sentence: str = ""
    turn: int | None = None
    player_1: object = None  # the General who was Player-1 according to the replay

    def refused(self, sentence):
        return replace(self, agrees=False, sentence=sentence)


def _normal(name):
    return " ".join(str(name).split()).casefold()


def map_generals(replay_document, battle):
    """{"p1": General, "p2": General} or a sentence saying why the replay is not this battle's."""
    generals = replay_document.get("generals")
    if not isinstance(generals, dict) or not all(isinstance(generals.get(p), dict) for p in ("p1", "p2")):
        return None, "The replay does not name its two generals."
    meta = replay_document.get("meta") if isinstance(replay_document.get("meta"), dict) else {}
    by_id = {str(g.pk): g for g in battle.generals()}
    ids = meta.get("general_ids")
    if isinstance(ids, dict) and {"p1", "p2"} <= set(ids):
        mapped = {side: by_id.get(str(ids[side])) for side in ("p1", "p2")}
        if None in mapped.values() or mapped["p1"] == mapped["p2"]:
            return None, (f"The replay's general ids ({ids.get('p1')}, {ids.get('p2')}) are not the two generals "
                          f"of this battle ({battle.general_a.pk} {battle.general_a.name}, "
                          f"{battle.general_b.pk} {battle.general_b.name}).")
        return mapped, None
    by_name = {_normal(g.name): g for g in battle.generals()}
    names = {side: generals[side].get("name", "") for side in ("p1", "p2")}
    mapped = {side: by_name.get(_normal(names[side])) for side in ("p1", "p2")}
    if None in mapped.values() or mapped["p1"] == mapped["p2"]:
        return None, (f"The replay is between {names['p1']!s} and {names['p2']!s}, not between "
                      f"{battle.general_a.name} and {battle.general_b.name}.")
    return mapped, None


def player_1_of_replay(replay_text, battle):
    """The General the replay names as Player-1, or None when it names neither of the battle's."""
    try:
        document = json.loads(replay_text)
    except (ValueError, RecursionError):
        return None
    mapped, _problem = map_generals(document, battle) if isinstance(document, dict) else (None, None)
    return mapped["p1"] if mapped else None


def variant_names(keys):
    """The Rules Variants' names as the rules and the event page write them ("Double Time"), not their
    keys ("double_time"); a key this site does not know is quoted as written."""
    from tournaments.models import VARIANT_CHOICES

    names = dict(VARIANT_CHOICES)
    return ", ".join(names.get(str(key), repr(str(key))) for key in keys)


def _variants_sentence(replay_document, event):
    """R73: the replay uses exactly the event's variants (and, with Army Recruiting, its battalion count)."""
    rules = replay_document.get("rules") if isinstance(replay_document.get("rules"), dict) else {}
    variants = rules.get("variants", [])
    if not isinstance(variants, list) or sorted(map(str, variants)) != sorted(event.variants):
        played = variant_names(variants) if isinstance(variants, list) and variants else "Core Rules only"
        elected = variant_names(event.variants) or "Core Rules only"
        return (f"The replay was played with {played}, but {event.name} elected {elected} for all its "
                f"battles.")
    if "army_recruiting" in event.variants and event.battalion_count:
        armies = replay_document.get("armies") if isinstance(replay_document.get("armies"), dict) else {}
        for side in ("p1", "p2"):
            army = armies.get(side)
            if isinstance(army, list) and len(army) != event.battalion_count:
                return (f"The replay's {side} army has {len(army)} battalions, but {event.name} recruits armies "
                        f"of {event.battalion_count}.")
    return None


def _location(error):
    parts = [f"turn {error.get('turn')}"]
    if error.get("order") is not None:
        parts.append(f"order {error['order']}")
    if error.get("action") is not None:
        parts.append(f"action {error['action']}")
    return ", ".join(parts)


def _report_text(report):
    if report.kind == "victory":
        return f"{report.winner.name} by {CONDITION_WORDS.get(report.condition, report.condition)}"
    return {"stalemate": "a Stalemate", "resolve": "a Resolve"}.get(report.kind, report.kind)


def compare_with_report(report, verdict):
    battle = report.battle
    try:
        document = json.loads(report.replay)
    except (ValueError, RecursionError):
        document = {}
    if not verdict.get("valid"):
        error = verdict.get("error") or {}
        return Comparison(False, f"The replay is not a legal battle: at {_location(error)}: "
                                 f"{error.get('message', 'the engine rejected it')}", turn=error.get("turn"))
    mapped, problem = map_generals(document, battle)
    if problem:
        return Comparison(False, problem)
    problem = _variants_sentence(document, battle.event)
    if problem:
        return Comparison(False, problem)
    player_1 = mapped["p1"]
    if report.player_1_id and report.player_1_id != player_1.pk:
        return Comparison(False, f"The report says {report.player_1.name} was Player-1; the replay says "
                                 f"{player_1.name}.", player_1=player_1)
    outcome = verdict.get("outcome")
    if outcome == "unfinished":
        claim, declaration = verdict.get("claim") or {}, verdict.get("declaration") or {}
        reason = claim.get("reason") or declaration.get("reason") or "the log stops before the battle ended"
        return Comparison(False, f"The replay does not decide the battle: {reason}", turn=verdict.get("turns"),
                          player_1=player_1)
    if outcome == "victory":
        winner = mapped.get(verdict.get("winner"))
        found = f"{winner.name} by {CONDITION_WORDS.get(verdict.get('condition'), verdict.get('condition'))}"
    else:
        winner, found = None, {"stalemate": "a Stalemate", "resolve": "a Resolve"}.get(outcome, str(outcome))
    agrees = (report.kind == outcome
              and (outcome != "victory" or (report.winner_id == winner.pk and report.condition == verdict.get(
                  "condition"))))
    if agrees:
        return Comparison(True, player_1=player_1)
    return Comparison(False, f"The report says {_report_text(report)}; the replay gives {found}.",
                      turn=verdict.get("turns"), player_1=player_1)


def same_battle(replay_a, replay_b):
    """Whether two uploaded logs record the same battle: everything but `meta` (where each side may
    name itself, its event or its tool) is equal, so the same formation and the same turns."""
    try:
        first, second = json.loads(replay_a), json.loads(replay_b)
    except (ValueError, RecursionError):
        return False
    if not isinstance(first, dict) or not isinstance(second, dict):
        return False
    first.pop("meta", None)
    second.pop("meta", None)
    return first == second
