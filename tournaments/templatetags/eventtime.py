"""Times of an event in its own zone, the zone named (tournaments.timezones):

    {% load eventtime %}
    {{ report.confirm_by|event_time:event }}   -> <time datetime="…" title="Europe/Berlin">24 Nov 2026, 15:30 CET</time>
    {{ report.confirm_by|event_clock:event }}  -> the same with the time of day only
    {{ report.confirm_by|event_deadline:event }} -> "at 15:30 CET" today, "on Tue 24 Nov at 15:30 CET" later
    {{ event|event_dates }}                     -> 24–26 Nov 2026
"""
from django import template
from django.utils.html import format_html

from tournaments import timezones

register = template.Library()


def _time_element(value, event, with_date):
    if value in (None, ""):
        return ""
    text = timezones.format_event_time(value, event, with_date=with_date)
    if not hasattr(value, "hour"):  # a date
        return format_html('<time datetime="{}">{}</time>', value.isoformat(), text)
    local = timezones.in_event_zone(value, event)
    return format_html('<time datetime="{}" title="{}">{}</time>', local.isoformat(timespec="seconds"),
                       timezones.zone_of(event).key, text)


@register.filter
def event_time(value, event):
    """The moment in the event's time zone, date and time, with the zone named."""
    return _time_element(value, event, True)


@register.filter
def event_clock(value, event):
    """The time of day in the event's time zone, with the zone named."""
    return _time_element(value, event, False)


@register.filter
def event_deadline(value, event):
    """A deadline in the event's zone as a sentence ends: "at 15:05 CET" today, "on Tue 22 Dec at
    15:05 CET" on another day."""
    if value in (None, ""):
        return ""
    local = timezones.in_event_zone(value, event)
    return format_html('<time datetime="{}" title="{}">{}</time>', local.isoformat(timespec="seconds"),
                       timezones.zone_of(event).key, timezones.format_deadline(value, event))


@register.filter
def event_dates(event):
    return timezones.format_dates(event)


@register.filter
def event_zone(event):
    """The event's IANA zone name."""
    return timezones.zone_of(event).key


@register.simple_tag
def event_now(event, clock_only=False):
    """Now, in the event's time zone (when a sheet was printed, a screen updated); `clock_only`: the
    time of day without the date."""
    from django.utils import timezone

    return _time_element(timezone.now(), event, not clock_only)
