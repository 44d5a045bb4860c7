"""The directory of generals (search by name, a page at a time) and a general's recent battles."""
from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from tournaments import trust
from tournaments.models import Battle, General, Report, name_key

PAGE_SIZE = 25


def matching(search):
    """Generals whose name contains `search`, ignoring case and spaces (as `General.name_key` compares
    names); every general for an empty search."""
    generals = General.objects.order_by("name", "id")
    key = name_key(search or "")
    return generals.filter(name_key__contains=key) if key else generals


def with_events_played(generals, events):
    """`generals` annotated with `events_played`: how many of `events` they have a battle decided in
    (fought or forfeited; a battle not fought because of a disqualification is not playing)."""
    played = (Battle.objects.filter(Q(general_a=OuterRef("pk")) | Q(general_b=OuterRef("pk")), event__in=events)
              .exclude(kind__in=["", Battle.Kind.UNPLAYED_DQ]).order_by()
              .annotate(everything=Value(1)).values("everything")
              .annotate(events=Count("event_id", distinct=True)).values("events"))
    return generals.annotate(events_played=Coalesce(Subquery(played, output_field=IntegerField()), 0))


def directory(search, events, page=1):
    """One page (PAGE_SIZE generals, by name) of the generals matching `search`, each with
    `events_played` counted over `events`. A page number out of range gives the nearest page, one that
    is not a number the first."""
    paginator = Paginator(with_events_played(matching(search), events), PAGE_SIZE)
    try:
        number = int(page)
    except (TypeError, ValueError):
        number = 1
    return paginator.page(min(max(number, 1), paginator.num_pages))


@dataclass(frozen=True)
class RecentBattle:
    battle: Battle
    opponent: General
    replay_visible: bool  # a replay exists and the viewer may see it (the battle's generals, its organizers)


def recent_battles(general, events, limit=10, *, viewer=None):
    """The general's latest decided battles in `events`, latest first. A replay is offered to whom the
    replay viewer shows it (`trust.may_see_reports`): no one else learns that one exists."""
    has_replay = Exists(Report.objects.filter(battle=OuterRef("pk")).exclude(replay=""))
    battles = (Battle.objects.filter(Q(general_a=general) | Q(general_b=general), event__in=events)
               .exclude(kind="").annotate(has_replay=has_replay)
               .select_related("event", "group", "season", "general_a", "general_b", "winner", "forfeited_by")
               .order_by(F("decided_at").desc(nulls_last=True), "-id")[:limit])
    return [RecentBattle(battle=battle, opponent=battle.opponent_of(general),
                         replay_visible=battle.has_replay and trust.may_see_reports(viewer, battle))
            for battle in battles]
