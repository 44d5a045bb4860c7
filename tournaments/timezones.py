"""Each event keeps its own time zone (an IANA name such as "Europe/Berlin"): every time of the
event (deadlines, reports, the audit trail) is shown in it with the zone named, on its pages and in
its emails, whoever looks and wherever the server runs. Times are stored in UTC as always."""
from __future__ import annotations

import zoneinfo
from datetime import date, datetime
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext, ngettext

UTC = zoneinfo.ZoneInfo("UTC")


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA zone this system knows, sorted, without the legacy aliases ("EST5EDT", "Etc/GMT+3"
    stay accepted when typed but are not offered)."""
    return (*sorted(name for name in zoneinfo.available_timezones()
                    if "/" in name and not name.startswith(("Etc/", "SystemV/", "posix/", "right/"))), "UTC")


def zone_choices():
    return [(name, name.replace("_", " ")) for name in zone_names()]


def default_time_zone() -> str:
    name = getattr(settings, "TIME_ZONE", None) or "UTC"
    return name if is_time_zone(name) else "UTC"


@lru_cache(maxsize=512)
def _zone(name):
    return zoneinfo.ZoneInfo(name)


def is_time_zone(name) -> bool:
    if not isinstance(name, str) or not name or len(name) > 64 or name != name.strip():
        return False
    try:
        _zone(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def validate_time_zone(name):
    """Model, form and serializer validator: an IANA zone name the server knows."""
    if not is_time_zone(name):
        raise ValidationError(
            "%(name)r is not a time zone: use an IANA name such as Europe/Berlin, America/New_York or UTC.",
            code="invalid_time_zone", params={"name": name})


def zone_of(event):
    """The event's zone; UTC for an event without one (or with a name this system does not know)."""
    name = getattr(event, "time_zone", "") or default_time_zone()
    return _zone(name) if is_time_zone(name) else UTC


def zone_label(moment: datetime, zone) -> str:
    """The zone's abbreviation at that moment ("CET", "EST") or, where the zone has none ("+04"), its
    IANA name."""
    abbreviation = moment.strftime("%Z")
    if not abbreviation or abbreviation[0] in "+-" or abbreviation[0].isdigit():
        return str(zone.key if hasattr(zone, "key") else zone)
    return abbreviation


def in_event_zone(value: datetime, event) -> datetime:
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value.astimezone(zone_of(event))


def format_event_time(value, event, *, with_date=True) -> str:
    """"24 Nov 2026, 15:30 CET": the moment in the event's zone, with the zone named."""
    if value is None or value == "":
        return ""
    if isinstance(value, date) and not isinstance(value, datetime):
        return format_day(value)
    local = in_event_zone(value, event)
    clock = local.strftime("%H:%M")
    text = f"{format_day(local)}, {clock}" if with_date else clock  # the same in English and German
    return f"{text} {zone_label(local, local.tzinfo)}"


def format_deadline(value, event, *, now=None) -> str:
    """When something happens, as a sentence ends: "at 15:05 CET" today (in the event's zone), "on Tue
    22 Dec at 15:05 CET" on another day (with the year when it is not this one). A bare time is only
    enough for today: "in 4 weeks (at 15:05 CET)" leaves the reader to work out the day."""
    if value is None or value == "":
        return ""
    local = in_event_zone(value, event)
    today = (now or timezone.now()).astimezone(local.tzinfo).date()
    time = f"{local.strftime('%H:%M')} {zone_label(local, local.tzinfo)}"
    if local.date() == today:
        return gettext("at %(time)s") % {"time": time}
    # The weekday and the day in the active language's words and order (opp/formats): "Tue 22 Dec", "Di 22. Dez".
    day = f"{date_format(local, 'D')} {date_format(local, 'DATE_FORMAT' if local.year != today.year else 'MONTH_DAY_FORMAT')}"
    return gettext("on %(day)s at %(time)s") % {"day": day, "time": time}


def format_day(day) -> str:
    """"24 Nov 2026" in English, "24. Nov 2026" in German: the active language's DATE_FORMAT (opp/formats)."""
    return date_format(day, "DATE_FORMAT")


def _day_of_month(day) -> str:
    """"24" in English, "24." in German: the day as the active language's MONTH_DAY_FORMAT writes it ("j M",
    "j. M"), for the first day of a range whose month is written once."""
    return date_format(day, get_format("MONTH_DAY_FORMAT").split(" ")[0])


def format_dates(event) -> str:
    """The event's days: "24 Nov 2026", "24–26 Nov 2026", "30 Nov – 2 Dec 2026"; "" without a start."""
    start, end = getattr(event, "starts_on", None), getattr(event, "ends_on", None)
    if start is None:
        return ""
    if end is None or end == start:
        return format_day(start)
    if (start.year, start.month) == (end.year, end.month):
        return f"{_day_of_month(start)}–{format_day(end)}"
    if start.year == end.year:
        return f"{date_format(start, 'MONTH_DAY_FORMAT')} – {format_day(end)}"
    return f"{format_day(start)} – {format_day(end)}"


def today_in(event) -> date:
    return timezone.now().astimezone(zone_of(event)).date()


def duration_text(minutes: int) -> str:
    """A confirmation window in words: "30 minutes", "3 days", "2 hours"."""
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
