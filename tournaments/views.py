"""Public pages. Views only gather what the templates show; the rules live in the domain and the
services."""
from django.db.models import Q
from django.shortcuts import get_object_or_404, render

from tournaments.domain import TIEBREAKERS
from tournaments.models import Battle, Event, General, Group
from tournaments.queries import crosstable, schedule_by_round
from tournaments.services import group_standings, odd_registration_warning, season_standings


def visible_events(request):
    events = Event.objects.all()
    if not request.user.is_superuser:
        events = events.filter(Q(published=True) | Q(organizers__pk=request.user.pk or 0)).distinct()
    return events


def home(request):
    return render(request, "home.html", {"events": visible_events(request).select_related("victor")})


def _group_panel(group):
    table = group_standings(group)
    order, grid = crosstable(group, table)
    return {
        "group": group,
        "table": table,
        "entries": table.entries(),
        "crosstable_order": order,
        "crosstable": grid,
        "rounds": schedule_by_round(group.battles.select_related("general_a", "general_b", "winner",
                                                                 "forfeited_by")),
    }


def _season_panel(season):
    table = season_standings(season)
    return {
        "season": season,
        "table": table,
        "entries": table.entries(),
        "rounds": schedule_by_round(season.battles.select_related("general_a", "general_b", "winner",
                                                                  "forfeited_by")),
    }


def event_detail(request, slug):
    event = get_object_or_404(visible_events(request), slug=slug)
    groups = event.groups.select_related("winner").order_by("-stage", "index")
    context = {
        "event": event,
        "is_organizer": event.is_organizer(request.user),
        "tiebreakers": TIEBREAKERS,
        "final_panels": [_group_panel(g) for g in groups if g.stage == Group.Stage.FINAL],
        "group_panels": [_group_panel(g) for g in groups if g.stage == Group.Stage.QUALIFYING],
        "registrations": event.registrations.select_related("general"),
        "disqualifications": event.disqualifications.select_related("general"),
        "odd_warning": odd_registration_warning(event) if event.state == Event.State.REGISTRATION else None,
        "seasons": [_season_panel(season) for season in event.seasons.select_related("champion").order_by("-number")],
    }
    return render(request, "tournaments/event_detail.html", context)


def general_detail(request, pk):
    general = get_object_or_404(General, pk=pk)
    battles = (Battle.objects.filter(Q(general_a=general) | Q(general_b=general),
                                     event__in=visible_events(request))
               .select_related("event", "group", "season", "general_a", "general_b", "winner", "forfeited_by")
               .order_by("-event__created_at", "group__stage", "round", "number"))
    return render(request, "tournaments/general_detail.html", {"general": general, "battles": battles})
