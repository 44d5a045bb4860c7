"""What a delivery says: one JSON object per happening,

    {"kind": "result.counted", "delivery": "<uuid>", "created": "2026-05-02T14:03:11.512+00:00",
     "event": {"slug": ..., "name": ..., "url": ...}, "data": {...}}

with only what the event's public pages show: battles, generals, counted results and their facts, the
event's state and Victor; never a report's claim, replay, dispute or reason (those are for the battle's
generals and the organizers). docs/webhooks.md lists each kind's `data`."""
from __future__ import annotations

import json

from django.urls import reverse
from django.utils import timezone

from tournaments import audit
from tournaments.models import Battle, Event, Table
from tournaments.notifications import site_url

MOST_BATTLES = 500  # a pairing's list of battles to play stops there (a body stays small)


def envelope(kind: str, delivery_id, event: Event | None, data: dict) -> str:
    """The body as signed and sent: compact JSON, keys in a fixed order."""
    body = {
        "kind": kind,
        "delivery": str(delivery_id),
        "created": timezone.now().isoformat(timespec="milliseconds"),
        "event": event_brief(event) if event is not None else None,
        "data": data,
    }
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False, default=str)


def event_brief(event: Event) -> dict:
    return {"slug": event.slug, "name": event.name, "url": site_url(reverse("event-detail", args=[event.slug]))}


def event_links(event: Event) -> dict:
    return {
        "standings_url": site_url(reverse("event-standings", args=[event.slug])),
        "scoreboard_url": site_url(reverse("event-scoreboard-poll", args=[event.slug])),
    }


def general_brief(general) -> dict | None:
    return {"id": general.pk, "name": general.name} if general is not None else None


def battle_brief(battle: Battle) -> dict:
    return {
        "id": battle.pk,
        "url": site_url(reverse("battle-detail", args=[battle.pk])),
        "title": audit.battle_subject(battle),
        "generals": [general_brief(battle.general_a), general_brief(battle.general_b)],
    }


def battle_result(battle: Battle) -> dict | None:
    """The counted result as the battle's public page shows it."""
    if not battle.kind:
        return None
    return {
        "kind": battle.kind,
        "winner": general_brief(battle.winner) if battle.winner_id else None,
        "condition": battle.condition or None,
        "forfeited_by": general_brief(battle.forfeited_by) if battle.forfeited_by_id else None,
        "facts": battle.facts or {},
    }


def table_brief(table: Table) -> dict:
    seats = table.seats.select_related("general").order_by("seat")
    return {
        "id": table.pk,
        "url": site_url(reverse("table-detail", args=[table.pk])),
        "title": str(table),
        "generals": [general_brief(seat.general) for seat in seats],
    }


BATTLE_FIELDS = ("event", "general_a", "general_b", "winner", "forfeited_by", "group", "season", "swiss_round")


def battles_to_play(event: Event) -> dict:
    """The event's battles (and multiplayer tables) waiting for a result, after new pairings."""
    battles = (event.battles.filter(kind="").select_related(*BATTLE_FIELDS)
               .order_by("swiss_round__number", "group__stage", "group__index", "season__number", "playoff", "round",
                         "number", "id"))
    listed = [battle_brief(battle) for battle in battles[:MOST_BATTLES]]
    data = {"battles": listed}
    if event.table_size > 2:
        tables = Table.objects.filter(event=event, finished__isnull=True).select_related("swiss_round")
        data["tables"] = [table_brief(table) for table in tables[:MOST_BATTLES]]
    return data


def result_counted(event: Event, action: str, battle: Battle | None, table: Table | None) -> dict:
    data = {"action": action, **event_links(event)}
    if battle is not None:
        data["battle"] = battle_brief(battle)
        data["result"] = battle_result(battle)
    if table is not None:
        data["table"] = table_brief(table)
        data["result"] = {"eliminations": [general_brief(g) for g in _generals_in_order(table.eliminations)],
                          "finished": table.finished}
    return data


def _generals_in_order(ids):
    from tournaments.models import General

    found = {general.pk: general for general in General.objects.filter(pk__in=ids)}
    return [found[pk] for pk in ids if pk in found]


def standings_changed(event: Event, action: str) -> dict:
    return {"action": action, **event_links(event)}


def event_finished(event: Event) -> dict:
    return {"state": event.state, "victor": general_brief(event.victor) if event.victor_id else None,
            **event_links(event)}


def report_waiting(battle: Battle | None, table: Table | None, report) -> dict:
    """A report waits for confirmation: which battle or table, and until when it may be answered. What the
    report claims stays with the generals and the organizers."""
    data = {"report": report.pk, "confirm_by": report.confirm_by.isoformat() if report.confirm_by else None}
    if battle is not None:
        data["battle"] = battle_brief(battle)
    if table is not None:
        data["table"] = table_brief(table)
    return data


def ping(endpoint) -> dict:
    return {"message": "A test delivery: the endpoint is reachable and its signature checks out.",
            "endpoint": endpoint.pk}
