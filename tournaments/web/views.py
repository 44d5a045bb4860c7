"""Public pages. Views only gather what the templates show; the rules live in the domain and the
services."""
from datetime import date

from django.db.models import Q
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments import timezones, trust
from tournaments.events.services import odd_registration_warning, registration_refusal
from tournaments.leagues import seasons
from tournaments.models import Event, Group, Invitation, Registration
from tournaments.results import confirmation
from tournaments.results.recording import disqualification_offers
from tournaments.standings.labels import group_tiebreakers
from tournaments.standings.queries import (
    crosstable,
    ranked_entries,
    schedule_by_round,
    season_schedule,
    with_open_report_status,
)
from tournaments.standings.tables import group_standings, season_standings
from tournaments.web.lists import list_summary
from tournaments.web.swiss import swiss_panel

IN_PLAY = (Event.State.QUALIFYING, Event.State.FINAL, Event.State.PLAYOFF, Event.State.IN_SEASON,
           Event.State.OFF_SEASON)


def event_phase(event):
    """"ongoing", "upcoming" or "past", from the event's state and its days in its own time zone."""
    today = timezones.today_in(event)
    last_day = event.ends_on or event.starts_on
    if event.state == Event.State.COMPLETE:
        return "past"
    if event.state in IN_PLAY:
        return "past" if last_day is not None and last_day < today else "ongoing"
    if event.starts_on is not None and event.starts_on <= today:
        return "past" if last_day < today else "ongoing"
    return "upcoming"


def home(request):
    """Events happening now, then coming up (soonest first), then past ones (latest first); `q`
    searches names, venues and descriptions."""
    query = request.GET.get("q", "").strip()[:100]
    events = trust.visible_events(request.user).select_related("victor")
    if query:
        events = events.filter(Q(name__icontains=query) | Q(venue__icontains=query)
                               | Q(description__icontains=query))
    phases = {"ongoing": [], "upcoming": [], "past": []}
    for event in events:
        phases[event_phase(event)].append(event)
    far = date.max
    phases["ongoing"].sort(key=lambda e: (e.starts_on or far, e.name.casefold()))
    phases["upcoming"].sort(key=lambda e: (e.starts_on or far, e.name.casefold()))
    phases["past"].sort(key=lambda e: (e.ends_on or e.starts_on or date.min, e.created_at), reverse=True)
    sections = [("ongoing", _("Happening now"), phases["ongoing"]), ("upcoming", _("Coming up"), phases["upcoming"]),
                ("past", _("Past events"), phases["past"])]
    return render(request, "home.html", {"sections": [s for s in sections if s[2]], "q": query,
                                         "count": sum(len(v) for v in phases.values())})


def _group_panel(group):
    table = group_standings(group)
    order, grid = crosstable(group, table)
    return {
        "group": group,
        "table": table,
        "entries": ranked_entries(table, group.winner),
        "crosstable_order": order,
        "crosstable": grid,
        "rounds": schedule_by_round(with_open_report_status(group.battles.select_related(
            "general_a", "general_b", "winner", "forfeited_by"))),
    }


def _season_panel(season):
    table = season_standings(season)
    return {
        "season": season,
        "table": table,
        "entries": ranked_entries(table, season.champion),
        "waiting_for": seasons.waiting_for(season),
        "rounds": season_schedule(with_open_report_status(season.battles.select_related(
            "general_a", "general_b", "winner", "forfeited_by"))),
    }


HIDDEN_REGISTRATION_STATUSES = (Registration.Status.PENDING, Registration.Status.REFUSED)


def _my_place(request, event):
    """What the signed-in player may do about entering the event: join, withdraw, answer an invitation."""
    if not request.user.is_authenticated:
        return {}
    me = trust.general_of(request.user)
    registration = event.registrations.filter(general=me).first() if me else None
    status = registration.status if registration else None
    entered = status in (Registration.Status.ACTIVE, Registration.Status.PENDING)
    open_ = registration_refusal(event) is None
    return {
        "me": me, "my_registration": registration,
        "may_join": open_ and not entered and status != Registration.Status.REFUSED,
        "may_withdraw": open_ and entered,
        "my_invitations": list(event.invitations.filter(general=me, status=Invitation.Status.PENDING))
        if me else [],
    }


def event_detail(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    confirmation.sweep(event)  # reports whose window passed count before the standings show
    groups = event.groups.select_related("winner").order_by("-stage", "index")
    organizer = trust.may_organize(request.user, event)
    disqualified = set(event.disqualifications.values_list("general_id", flat=True))
    me = trust.general_of(request.user)
    league = event.kind == Event.Kind.LEAGUE
    context = {
        "event": event,
        "is_organizer": organizer,
        "offers": disqualification_offers(event) if organizer else [],
        **_my_place(request, event),
        "tiebreakers": group_tiebreakers(),
        "final_panels": [_group_panel(g) for g in groups if g.stage == Group.Stage.FINAL],
        "group_panels": [_group_panel(g) for g in groups if g.stage == Group.Stage.QUALIFYING],
        # Waiting and refused registrations, with the organizers' sentence, are for the organizers and
        # the player concerned (shown in their own box), not for everyone.
        "registrations": event.registrations.select_related("general") if organizer else
        event.registrations.exclude(status__in=HIDDEN_REGISTRATION_STATUSES).select_related("general"),
        "rating_seeds": event.registrations.filter(seed__isnull=False).select_related("general").order_by("seed")
        if event.group_method == "rating" else [],
        "disqualifications": event.disqualifications.select_related("general"),
        "odd_warning": odd_registration_warning(event)
        if not league and event.state == Event.State.REGISTRATION else None,
        "disqualified_ids": disqualified,
        "may_report_league_battle": league and me is not None and me.pk not in disqualified
        and event.registrations.filter(general=me, status="active").exists()
        and event.season_taking_battles() is not None,
        "seasons": [_season_panel(season) for season in event.seasons.select_related("champion").order_by("-number")],
        "swiss": swiss_panel(event, request.user),
        "lists": list_summary(event, request.user),
    }
    return render(request, "tournaments/event_detail.html", context)


