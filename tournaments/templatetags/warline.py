import re

from django import template

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
        return "Waiting for an organizer: nobody can answer it for the opponent"  # nobody counts alone
    if report.is_awaiting_opponent and getattr(user, "pk", None) is not None:
        checked = "Checked by the engine, w" if report.status == "checked" else "W"
        if report.reported_by_id != user.pk:
            return f"{checked}aiting for your confirmation"
        from tournaments import trust

        opponent = trust.opponent_of_reporter(report)
        if opponent is not None:
            return f"{checked}aiting for {opponent.name}'s confirmation"
    return report.get_status_display()


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
