"""The audit trail: every change of an event is written with its actor, the value before, the value
after and the reason. Each service step calls `record` inside its own transaction, so a refused step
leaves no entry and a counted result never changes without one."""
from __future__ import annotations

from tournaments.models import AuditEntry


def record(event, actor, action, subject, *, before=None, after=None, reason=""):
    AuditEntry.objects.create(event=event, actor=actor if getattr(actor, "pk", None) else None,
                              action=action, subject=subject, before=before, after=after, reason=reason)


def battle_snapshot(battle):
    """The result fields of a battle as the audit trail keeps them."""
    return {
        "kind": battle.kind or None,
        "winner": battle.winner.name if battle.winner_id else None,
        "condition": battle.condition or None,
        "forfeited_by": battle.forfeited_by.name if battle.forfeited_by_id else None,
        "player_1": battle.player_1.name if battle.player_1_id else None,
        "respect_shown": battle.respect_shown,
        **({"facts": battle.facts} if battle.facts else {}),
    }


def battle_subject(battle):
    if battle.swiss_round_id:
        return f"{battle.swiss_round} table {battle.number}: {battle.general_a.name} v {battle.general_b.name}"
    where = battle.group.name if battle.group_id else (battle.season.name if battle.season_id else "")
    if battle.season_id:  # league battles are arranged, not played in rounds
        label = f"playoff {battle.number}" if battle.playoff else f"battle {battle.number}"
    else:
        label = "playoff" if battle.playoff else f"round {battle.round} battle {battle.number}"
    return f"{where} {label}: {battle.general_a.name} v {battle.general_b.name}".strip()
