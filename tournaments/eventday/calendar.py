"""Calendar feeds (RFC 5545, written with the `icalendar` library): an event's schedule for everyone who may
see the event, and a player's own feed of their battles and deadlines behind a secret address.

What goes in is what has a day or a time in the records, each time in its event's zone (DTSTART;TZID=...,
with the zone's VTIMEZONE), so a 10:00 start in Berlin stays 10:00 Berlin in any calendar:

- the event's days (`starts_on` to `ends_on`) as one all-day entry;
- the list deadline (`list_deadline`) of a game with lists, a moment (an entry with no end);
- in a player's feed, for each event they are registered in (or waiting for approval): the same two, and
  - each battle still to play: a Swiss or top-cut battle and a multiplayer table at the time their round
    was paired (they are played from then), a battle of a group or a league season over the event's days
    (they have no time of their own; a league without days has no entry for them);
  - each report of their battles waiting to be confirmed, at its `confirm_by`: the moment it counts by
    itself unless the other side disputes it (R75), worded for who must act.

Each entry's UID names what it is about (`battle-17@host`), so a calendar that fetches the feed again
updates the entry instead of adding another; the host is OPP_SITE_URL's. Leagues' seasons have no dates
and battles no time of their own in the records: those are not invented here.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Timezone, vDuration
from icalendar import Event as CalendarEntry

from tournaments import trust
from tournaments.models import Battle, NotificationSettings, Registration, Report, Table, TableReport
from tournaments.notifications import site_url
from tournaments.timezones import UTC, in_event_zone, zone_of

PRODID = "-//WARLINE Organized Play//Calendar feeds//EN"
REFRESH = timedelta(hours=1)  # REFRESH-INTERVAL and X-PUBLISHED-TTL: how often a calendar should fetch again
IN_THE_EVENT = (Registration.Status.ACTIVE, Registration.Status.PENDING)


@dataclass(frozen=True)
class Entry:
    """One VEVENT: `start` a date (all day, `end` the day after the last) or a moment in its event's zone
    (`end` None: a deadline, which takes no time)."""

    uid: str
    summary: str
    start: date | datetime
    end: date | datetime | None = None
    description: str = ""
    url: str = ""
    location: str = ""


def one_line(text) -> str:
    """Names are one line in a calendar's title (a NAME or SUMMARY with a line break reads badly)."""
    return " ".join(str(text).split())


def site_host() -> str:
    return urlsplit(settings.OPP_SITE_URL).hostname or "localhost"


def uid(what) -> str:
    return f"{what}@{site_host()}"


def event_url(event) -> str:
    return site_url(reverse("event-detail", args=[event.slug]))


# --- what is on an event's schedule --------------------------------------------------------------------

def event_entries(event) -> list[Entry]:
    """The event's days and its list deadline: the same for everyone who may see the event."""
    entries = []
    if event.starts_on:
        last = event.ends_on or event.starts_on
        entries.append(Entry(uid(f"event-{event.pk}"), one_line(event.name), event.starts_on,
                             last + timedelta(days=1), description=event.description, url=event_url(event),
                             location=event.venue))
    if event.list_deadline and event.game_system.has_lists:
        entries.append(Entry(uid(f"event-{event.pk}-list-deadline"),
                             _("%(event)s: lists lock") % {"event": one_line(event.name)},
                             in_event_zone(event.list_deadline, event),
                             description=_("Submit or change your list before then."),
                             url=site_url(reverse("event-lists", args=[event.slug]))))
    return entries


def event_calendar(event, *, now=None) -> bytes:
    return build(one_line(event.name), event_entries(event), zones=[zone_of(event)], now=now,
                 calendar_uid=uid(f"event-{event.pk}-calendar"), url=event_url(event))


# --- a player's own feed -------------------------------------------------------------------------------

def player_entries(user) -> list[Entry]:
    """What `user`'s general has to do, in the events the user may see."""
    me = trust.general_of(user)
    if me is None:
        return []
    visible = trust.visible_events(user)
    events = list(visible.filter(registrations__general=me, registrations__status__in=IN_THE_EVENT)
                  .order_by("starts_on", "pk"))
    entries = [entry for event in events for entry in event_entries(event)]
    entries += _battles_to_play(me, events)
    entries += _reports_to_answer(user, me, visible)
    return entries


def _battles_to_play(me, events):
    by_pk = {event.pk: event for event in events}
    entries = []
    battles = (Battle.objects.filter(Q(general_a=me) | Q(general_b=me), kind="", event__in=events)
               .select_related("general_a", "general_b", "swiss_round", "group", "season")
               .order_by("event_id", "round", "number", "pk"))
    for battle in battles:
        event = by_pk[battle.event_id]
        names = {"event": one_line(event.name), "me": one_line(me.name),
                 "opponent": one_line(battle.opponent_of(me).name)}
        if battle.swiss_round_id:  # played from when its round was paired
            start, end = in_event_zone(battle.swiss_round.paired_at, event), None
            summary = (_("%(event)s: %(round)s, table %(table)s: %(me)s v %(opponent)s")
                       % {**names, "round": battle.swiss_round, "table": battle.number})
        elif event.starts_on:  # a group's or a season's battle: some time during the event
            start, end = event.starts_on, (event.ends_on or event.starts_on) + timedelta(days=1)
            where = battle.group.name if battle.group_id else battle.season.name if battle.season_id else ""
            summary = _("%(event)s: %(me)s v %(opponent)s (%(where)s)") % {**names, "where": where}
        else:
            continue  # a league battle without a day: nothing to put in a calendar
        entries.append(Entry(uid(f"battle-{battle.pk}"), summary, start, end, location=event.venue,
                             url=site_url(reverse("battle-detail", args=[battle.pk])),
                             description=_("Report the result on the battle's page.")))
    for table in _tables_to_play(me, events):
        event = by_pk[table.event_id]
        entries.append(Entry(
            uid(f"table-{table.pk}"),
            _("%(event)s: %(round)s, table %(table)s") % {"event": one_line(event.name), "round": table.swiss_round,
                                                          "table": table.number},
            in_event_zone(table.swiss_round.paired_at, event),
            url=site_url(reverse("table-detail", args=[table.pk])), location=event.venue,
            description=_("Players in seat order: %(players)s") % {"players": ", ".join(
                one_line(seat.general.name) for seat in sorted(table.seats.all(), key=lambda seat: seat.seat))}))
    return entries


def _tables_to_play(me, events):
    """The multiplayer tables (Warlord CCG, 3-4 players) `me` sits at that are not decided yet."""
    return (Table.objects.filter(event__in=events, seats__general=me, finished=None)
            .select_related("swiss_round").prefetch_related("seats__general").order_by("event_id", "pk"))


def _reports_to_answer(user, me, visible):
    """The reports of `me`'s battles and tables that count by themselves at their `confirm_by` unless the
    other side disputes them (R75): for who reported, when it counts; for the others, until when they answer."""
    entries = []
    reports = (Report.objects.filter(Q(battle__general_a=me) | Q(battle__general_b=me),
                                     status__in=Report.AWAITING_STATUSES, confirm_by__isnull=False,
                                     battle__event__in=visible)
               .select_related("battle__event", "battle__general_a", "battle__general_b").order_by("confirm_by", "pk"))
    for report in reports:
        battle, event = report.battle, report.battle.event
        names = {"event": one_line(event.name), "battle": _("%(general_a)s v %(general_b)s") % {
            "general_a": one_line(battle.general_a.name), "general_b": one_line(battle.general_b.name)}}
        if report.reported_by_id == user.pk:
            summary = _("%(event)s: your report of %(battle)s counts") % names
            description = _("Unless the opponent disputes it before then.")
        else:
            summary = _("%(event)s: confirm or dispute the report of %(battle)s") % names
            description = _("It counts by itself then if you do not answer.")
        entries.append(Entry(uid(f"report-{report.pk}-confirm-by"), summary, in_event_zone(report.confirm_by, event),
                             description=description, url=site_url(reverse("battle-detail", args=[battle.pk]))))
    table_reports = (TableReport.objects.filter(table__seats__general=me, status=TableReport.Status.AWAITING,
                                                confirm_by__isnull=False, table__event__in=visible)
                     .select_related("table__event", "table__swiss_round").order_by("confirm_by", "pk"))
    for report in table_reports:
        table, event = report.table, report.table.event
        names = {"event": one_line(event.name), "table": table.number, "round": table.swiss_round}
        if report.reported_by_id == user.pk or me.pk in report.confirmed_by:
            summary = _("%(event)s: the report of table %(table)s (%(round)s) counts") % names
            description = _("Unless a player at the table disputes it before then.")
        else:
            summary = _("%(event)s: confirm or dispute the report of table %(table)s (%(round)s)") % names
            description = _("It counts by itself then if you do not answer.")
        entries.append(Entry(uid(f"table-report-{report.pk}-confirm-by"), summary,
                             in_event_zone(report.confirm_by, event), description=description,
                             url=site_url(reverse("table-detail", args=[table.pk]))))
    return entries


def player_calendar(user, *, now=None) -> bytes:
    me = trust.general_of(user)
    name = _("WARLINE: %(general)s") % {"general": one_line(me.name)} if me else _("WARLINE: my battles")
    entries = player_entries(user)
    zones = {entry.start.tzinfo.key: entry.start.tzinfo for entry in entries if isinstance(entry.start, datetime)}
    return build(name, entries, zones=list(zones.values()), now=now, calendar_uid=uid(f"user-{user.pk}-calendar"))


# --- the secret address of a player's feed -------------------------------------------------------------

def feed_token(user) -> str:
    """The secret of `user`'s feed address; empty: they have none yet."""
    prefs = NotificationSettings.objects.filter(user=user).only("calendar_token").first()
    return prefs.calendar_token if prefs else ""


def new_feed_token(user) -> str:
    """A new secret for `user`'s feed address (calendar apps send no cookies, so the address is the key);
    the old address stops working at once."""
    token = secrets.token_urlsafe(32)
    prefs, _created = NotificationSettings.objects.get_or_create(user=user)
    prefs.calendar_token = token
    prefs.save(update_fields=["calendar_token"])
    return token


def remove_feed_token(user):
    NotificationSettings.objects.filter(user=user).update(calendar_token="")


def feed_owner(token):
    """The active user whose feed address holds `token`, or None."""
    if not token or len(token) < 32:
        return None
    prefs = (NotificationSettings.objects.filter(calendar_token=token, user__is_active=True)
             .select_related("user").first())
    return prefs.user if prefs and secrets.compare_digest(prefs.calendar_token, token) else None


# --- writing the calendar --------------------------------------------------------------------------------

def build(name, entries, *, zones=(), now=None, calendar_uid=None, url="") -> bytes:
    """The VCALENDAR text: PRODID, VERSION, the name (NAME and X-WR-CALNAME), a VTIMEZONE per zone of the
    entries (and per zone in `zones`), a VEVENT per entry. One zone named: also X-WR-TIMEZONE, which some
    calendars use for the feed's own zone."""
    stamp = (now or timezone.now()).astimezone(UTC)
    calendar = Calendar.new(name=name, prodid=PRODID, refresh_interval=REFRESH, uid=calendar_uid,
                            url=url or None)
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH))  # PT1H, for the calendars that read only this one
    named = [zone for zone in zones if zone.key != "UTC"]
    if len(named) == 1:
        calendar.add("X-WR-TIMEZONE", named[0].key)
    for entry in entries:
        calendar.add_component(_vevent(entry, stamp))
    days = [_day_of(entry.start) for entry in entries] or [stamp.date()]
    first, last = min(days) - timedelta(days=1), max(days) + timedelta(days=366)
    for zone in named:
        calendar.add_component(Timezone.from_tzid(zone.key, first_date=first, last_date=last))
    calendar.add_missing_timezones(first_date=first, last_date=last)
    calendar.subcomponents.sort(key=lambda component: component.name != "VTIMEZONE")  # zones first
    return calendar.to_ical()


def _vevent(entry, stamp):
    vevent = CalendarEntry.new(uid=entry.uid, summary=entry.summary, start=entry.start, end=entry.end, stamp=stamp,
                               description=entry.description or None, url=entry.url or None,
                               location=entry.location or None)
    if isinstance(entry.start, datetime) and entry.end is None:
        vevent.add("TRANSP", "TRANSPARENT")  # a deadline does not make its reader busy
    return vevent


def _day_of(value):
    return value.date() if isinstance(value, datetime) else value
