import re

from django import template
from django.utils.translation import gettext as _

from tournaments import trust
from tournaments.models import label_in_sentence
from tournaments.results import reporting
from tournaments.results.agreement import map_generals, report_claim_text

register = template.Library()


@register.filter
def figure(row, key):
    """A standings row's tie-break figure by its registry key."""
    return row.figure(key)


@register.filter
def get_item(mapping, key):
    """A dict's value by key, None when absent."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def schedule_state(battle):
    """An undecided battle's state in a public schedule ("disputed: an organizer decides")."""
    from tournaments.standings.queries import schedule_state as state

    return state(battle)


@register.filter
def report_status_for(report, user):
    """A report's status as the signed-in general reads it: "Waiting for your confirmation" to the
    one who must confirm, "Waiting for <opponent>'s confirmation" to the one who reported."""
    if report.is_awaiting_opponent and report.confirm_by is None:
        return _("Waiting for an organizer: nobody can answer it for the opponent")  # nobody counts alone
    if report.is_awaiting_opponent and getattr(user, "pk", None) is not None:
        checked = report.status == "checked"
        if report.reported_by_id != user.pk:
            return (_("Checked by the engine, waiting for your confirmation") if checked
                    else _("Waiting for your confirmation"))
        opponent = trust.opponent_of_reporter(report)
        if opponent is not None:
            words = (_("Checked by the engine, waiting for %(opponent)s's confirmation") if checked
                     else _("Waiting for %(opponent)s's confirmation"))
            return words % {"opponent": opponent.name}
    return report.get_status_display()


@register.filter
def in_sentence(label):
    """A label inside a sentence ("OPP, then victories, ..."): see models.label_in_sentence."""
    return label_in_sentence(label)


@register.filter
def claim_words(report):
    """What a report claims, in words: "Ada wins by Shackle", "Ben forfeits", "Stalemate"."""
    return report_claim_text(report)


@register.filter
def reporter_name(report):
    """Who made a report as the players know them (`reporting.reporter_name`)."""
    return reporting.reporter_name(report)


def _verdict_sides(report):
    """{"p1": name, "p2": name} of the report's replay, the battle's generals where the log ties
    them (R92), else "Player-1" and "Player-2"."""
    import json

    sides = {"p1": "Player-1", "p2": "Player-2"}
    try:
        document = json.loads(report.replay) if report.replay else None
    except (ValueError, RecursionError):
        document = None
    if isinstance(document, dict):
        mapped, problem = map_generals(document, report.battle, report.player_1 if report.player_1_id else None)
        if mapped and not problem:
            sides = {side: general.name for side, general in mapped.items()}
    return sides


@register.filter
def verdict_words(report):
    """The rules engine's verdict on a report's replay in the battle's names and words: "Ben wins by
    Blunt after 30 turns", "Stalemate after 12 turns", "Not finished after 40 turns", "Not a legal
    battle: turn 5, order 2: …"; "" without a verdict."""
    from rules_engine.conditions import LABELS, OUTCOME_LABELS

    adjudication = getattr(report, "adjudication", None) if report is not None else None
    verdict = getattr(adjudication, "verdict", None)
    if not isinstance(verdict, dict) or not verdict:
        return ""
    if not verdict.get("valid"):
        error = verdict.get("error") or {}
        where = ", ".join(f"{label} {error[key]}" for key, label in (("turn", "turn"), ("order", "order"),
                                                                      ("action", "action")) if error.get(key))
        message = str(error.get("message") or "the engine rejected it").rstrip(".")
        return f"Not a legal battle{f' at {where}' if where else ''}: {message}"
    outcome, turns = verdict.get("outcome"), verdict.get("turns")
    after = f" after {turns} turn{'' if turns == 1 else 's'}" if turns is not None else ""
    if outcome == "victory":
        winner = _verdict_sides(report).get(verdict.get("winner"), "One side")
        condition = LABELS.get(verdict.get("condition"), str(verdict.get("condition") or "").replace("_", " "))
        return f"{winner} wins by {condition}{after}" if condition else f"{winner} wins{after}"
    if outcome == "unfinished":
        return f"Not finished{after}: no side has won yet"
    return f"{OUTCOME_LABELS.get(outcome, str(outcome).replace('_', ' ').capitalize())}{after}"


def _audit_value(value):
    """An audit trail value in words: lists joined, yes/no for flags, a dash for nothing."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):  # a list of lists (the groups formed): one list after another
        nested = any(isinstance(item, (list, tuple, dict)) for item in value)
        return ("; " if nested else ", ").join(_audit_value(item) for item in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{_audit_label(key)}: {_audit_value(item)}" for key, item in value.items()) or "—"
    if isinstance(value, str) and re.fullmatch(r"[a-z]+(_[a-z]+)+", value):
        return value.replace("_", " ")  # a code such as forced_surrender
    return str(value)


def _audit_label(key):
    words = str(key).replace("_", " ").split()
    words = ["OPP" if word.lower() == "opp" else word for word in words]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


@register.filter
def audit_changes(entry):
    """An audit entry's before and after as [{label, before, after}], field by field in the order
    the services wrote them; `before` or `after` is None where the entry has no such side. A field
    empty on both sides (no forfeit in a victory) is left out."""
    before, after = entry.before, entry.after
    if before is not None and not isinstance(before, dict):
        before = {"value": before}
    if after is not None and not isinstance(after, dict):
        after = {"value": after}
    before, after = before or {}, after or {}
    keys = [key for key in list(before) + [key for key in after if key not in before]
            if before.get(key) is not None or after.get(key) is not None]
    return [{"label": _audit_label(key),
             "before": _audit_value(before[key]) if key in before else None,
             "after": _audit_value(after[key]) if key in after else None} for key in keys]
