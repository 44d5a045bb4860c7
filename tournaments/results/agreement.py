"""Does an engine verdict agree with a reported result? Plain functions over the report's fields,
the replay's header and the verdict dict of ../shared/spec/replay-format.md.

Which general is which (R73, R92, `log_sides`): the replay's `meta.general_ids` (an extension, see
docs/replay-extensions.md) maps `p1`/`p2` to general ids, and the log's general names, when given,
must be those generals' (ignoring case and spacing); a log with neither is tied to the battle by the
report's stated Player-1. The report checks this, with the board and the variants, before the engine
runs (`header_sentence`); the job checks it again against the verdict.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

from django.utils import translation
from django.utils.translation import gettext as _

from rules_engine.conditions import LABELS
from tournaments.models import VARIANT_CHOICES

CONDITION_WORDS = {condition.value: label for condition, label in LABELS.items()}


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


def _general_ids(meta):
    """The replay's `meta.general_ids` as {"p1": id, "p2": id} (strings), None when absent, or a sentence."""
    if "general_ids" not in meta:
        return None, None
    ids = meta["general_ids"]
    if (not isinstance(ids, dict) or set(ids) != {"p1", "p2"}
            or not all(isinstance(ids[side], int | str) and not isinstance(ids[side], bool) for side in ids)):
        return None, ('The replay\'s meta.general_ids must be {"p1": <id>, "p2": <id>}, the ids of the generals '
                      'who played each side.')
    return {side: str(ids[side]).strip() for side in ("p1", "p2")}, None


def _log_names(replay_document):
    """The generals' names the log gives for each side ("" where it gives none)."""
    generals = replay_document.get("generals") if isinstance(replay_document.get("generals"), dict) else {}
    names = {}
    for side in ("p1", "p2"):
        entry = generals.get(side) if isinstance(generals.get(side), dict) else {}
        name = entry.get("name")
        names[side] = name if isinstance(name, str) else ""
    return names


def log_sides(replay_document, battle, player_1=None):
    """Which general played `p1` and which `p2`, as {"p1": General, "p2": General} and how it was
    known ("ids", "names" or "report"), or a sentence saying why the log is not this battle's.

    R92: `meta.general_ids`, when present, names the battle's two generals in the order they played;
    the log's names, when present, must be theirs (ignoring case and spacing); a log with neither is
    tied to the battle by the report's stated Player-1 (`player_1`), and without it is refused. A
    stated Player-1 must agree with the log."""
    if not isinstance(replay_document, dict):
        return None, None, "The replay must be one JSON object (a WARLINE replay log)."
    meta = replay_document.get("meta") if isinstance(replay_document.get("meta"), dict) else {}
    pair = f"{battle.general_a.name} (id {battle.general_a.pk}) and {battle.general_b.name} (id {battle.general_b.pk})"
    ids, problem = _general_ids(meta)
    if problem:
        return None, None, problem
    mapped, source = None, None
    if ids is not None:
        by_id = {str(g.pk): g for g in battle.generals()}
        mapped = {side: by_id.get(ids[side]) for side in ("p1", "p2")}
        if None in mapped.values() or mapped["p1"] == mapped["p2"]:
            return None, None, (f"The replay's meta.general_ids ({ids['p1']}, {ids['p2']}) are not the two "
                                f"generals of this battle, {pair}.")
        source = "ids"
    names = _log_names(replay_document)
    known = {side: _normal(name) for side, name in names.items() if _normal(name)}
    if known:
        battle_names = {g.pk: _normal(g.name) for g in battle.generals()}
        if mapped is None:
            by_name = {}
            for general in battle.generals():
                by_name.setdefault(_normal(general.name), []).append(general)
            candidates = {side: by_name.get(name, []) for side, name in known.items()}
            if any(not found for found in candidates.values()):
                return None, None, (f"The replay is between {names['p1'] or 'an unnamed general'} and "
                                    f"{names['p2'] or 'an unnamed general'}, not between {battle.general_a.name} "
                                    f"and {battle.general_b.name}.")
            if all(len(found) == 1 for found in candidates.values()):
                sides = {side: found[0] for side, found in candidates.items()}
                if len(sides) == 1:  # one side named: the other general played the other side
                    (side, general), = sides.items()
                    sides[{"p1": "p2", "p2": "p1"}[side]] = battle.opponent_of(general)
                if sides["p1"] != sides["p2"]:
                    mapped, source = sides, "names"
            if mapped is None and len(set(battle_names.values())) == 2:
                return None, None, (f"The replay names {names['p1']} for both sides; they are "
                                    f"{battle.general_a.name} and {battle.general_b.name}.")
        else:
            for side, name in known.items():
                if battle_names[mapped[side].pk] != name:
                    return None, None, (f"The replay's meta.general_ids say {mapped[side].name} played {side}, "
                                        f"but the log names {names[side]} there.")
    if mapped is None:
        if player_1 is None or not battle.involves(player_1):
            return None, None, ("The replay names neither its generals nor their ids (meta.general_ids): say who "
                                "was Player-1 (R92).")
        return {"p1": player_1, "p2": battle.opponent_of(player_1)}, "report", None
    if player_1 is not None and player_1 != mapped["p1"]:
        return None, None, (f"The report says {player_1.name} was Player-1; the replay says {mapped['p1'].name} "
                            f"played p1.")
    return mapped, source, None


def map_generals(replay_document, battle, player_1=None):
    """{"p1": General, "p2": General} or a sentence saying why the replay is not this battle's (`log_sides`)."""
    mapped, _source, problem = log_sides(replay_document, battle, player_1)
    return mapped, problem


def board_sentence(replay_document, event):
    """R109: the log's board (absent: 7 x 7) must be the event's."""
    rules = replay_document.get("rules") if isinstance(replay_document.get("rules"), dict) else {}
    board = rules.get("board") if isinstance(rules.get("board"), dict) else {}
    width, height = board.get("width", 7), board.get("height", 7)
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (width, height)):
        return "The replay's rules.board must give its width and height as whole numbers."
    wanted = (getattr(event, "board_width", 7), getattr(event, "board_height", 7))
    if (width, height) != wanted:
        return (f"The replay was played on a {width} x {height} board, but {event.name} plays on "
                f"{wanted[0]} x {wanted[1]}.")
    return None


def header_sentence(replay_document, battle, player_1=None):
    """Why the log's header (board, variants, generals) is not this battle's, or None: checked when the
    report is made, before the engine runs."""
    problem = board_sentence(replay_document, battle.event) or variants_sentence(replay_document, battle.event)
    if problem:
        return problem
    _mapped, _source, problem = log_sides(replay_document, battle, player_1)
    return problem


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
    keys ("double_time"); a key this site does not know is quoted as written. In English, as the sentences
    that name them here (they may be stored as a report's reason)."""
    names = dict(VARIANT_CHOICES)
    with translation.override(None):
        return ", ".join(str(names.get(str(key), repr(str(key)))) for key in keys)


def variants_sentence(replay_document, event):
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


def claim_text(kind, winner, condition, forfeited_by):
    """A result in words, as pages and mails show it: "Ana wins by Shackle", "Ben forfeits", "Stalemate"."""
    if kind == "victory":
        if not condition:  # the games without victory conditions (game_systems)
            return _("%(winner)s wins") % {"winner": winner.name}
        # The victory conditions (Crush, Shackle, ...) are WARLINE's own names: English in every language.
        return _("%(winner)s wins by %(condition)s") % {"winner": winner.name,
                                                         "condition": CONDITION_WORDS.get(condition, condition)}
    if kind == "forfeit":
        return _("%(general)s forfeits") % {"general": forfeited_by.name}
    return {"stalemate": _("Stalemate"), "resolve": _("Resolve"), "draw": _("Draw")}.get(kind, kind)


def report_claim_text(report):
    """What a report claims, in words (`claim_text`), in the reader's language."""
    return claim_text(report.kind, report.winner, report.condition, report.forfeited_by)


def recorded_claim_text(report):
    """The claim inside a stored sentence (a report's `status_reason`): English, as the rest of that
    sentence, whoever's request writes it."""
    with translation.override(None):
        return report_claim_text(report)


def _report_text(report):
    if report.kind == "victory":
        if not report.condition:
            return report.winner.name
        return f"{report.winner.name} by {CONDITION_WORDS.get(report.condition, report.condition)}"
    return {"stalemate": "a Stalemate", "resolve": "a Resolve", "draw": "a draw"}.get(report.kind, report.kind)


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
    mapped, problem = map_generals(document, battle, report.player_1 if report.player_1_id else None)
    if problem:
        return Comparison(False, problem)
    problem = board_sentence(document, battle.event) or variants_sentence(document, battle.event)
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
    """Whether two uploaded logs record the same game: everything but `meta` (where each side may
    name itself, its event or its tool) is equal, so the same formation and the same turns. The same
    battle also needs the same sides (which general played `p1`): `reporting` compares the reports'
    Player-1 too (R92)."""
    try:
        first, second = json.loads(replay_a), json.loads(replay_b)
    except (ValueError, RecursionError):
        return False
    if not isinstance(first, dict) or not isinstance(second, dict):
        return False
    first.pop("meta", None)
    second.pop("meta", None)
    return first == second
