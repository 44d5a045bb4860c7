"""`<div{% live_page "event" event.slug %}>` around a page's content makes the page update itself
(static/js/live.js): it writes the revision endpoint to poll, the page to fetch again, the
revision the page shows and the time it was made (in the event's zone, for the update's announcement).
On a published event's public pages, when streams are on (OPP_LIVE_STREAM_URL), also the event's stream,
which the page listens to instead of polling (tournaments/web/live_stream.py)."""
from django import template
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from tournaments import timezones
from tournaments.web import live

register = template.Library()

# page -> (its revision endpoint, the page itself, the revision's function)
_PAGES = {
    "event": ("live-event", "event-detail", live.event_revision_of),
    "venue": ("live-event", "venue-screen", live.event_revision_of),
    "battle": ("live-battle", "battle-detail", live.battle_revision_of),
    "my-battles": ("live-my-battles", "my-battles", live.my_battles_revision_of),
    "round": ("live-round", "event-round", live.round_revision_of),
    "embed": ("live-event", "event-embed", live.event_revision_of),  # the standings widget (web/embed.py)
}
# Pages that anyone may see of a published event: they follow its public revision, which is streamed.
_STREAMED = {"event", "venue", "embed"}
# Pages whose query chooses what they show (the round page's group and round, the widget's ?show=): fetched
# again with it.
_WITH_QUERY = {"round", "embed"}


@register.simple_tag(takes_context=True)
def live_page(context, page, *args):
    request = context["request"]
    if request.method != "GET":
        # A page answering a refused form shows what was typed and why it was refused: a fresh copy
        # of the page would replace both, so it does not update itself.
        return ""
    endpoint, url_name, revision_of = _PAGES[page]
    # When the page was made, in the zone its times are shown in (the event's, else the site's): the
    # screen reader's "Updated at …" must read like the page, not like the reader's browser.
    clock = timezones.format_event_time(timezone.now(), context.get("event"), with_date=False)
    page_url = reverse(url_name, args=args)
    if page in _WITH_QUERY and request.GET:
        page_url = f"{page_url}?{request.GET.urlencode()}"
    revision = revision_of(request, *args)
    attributes = format_html(' data-live="{}" data-live-page="{}" data-live-revision="{}" data-live-clock="{}"',
                             reverse(endpoint, args=args), page_url, revision, clock)
    # Only where the reader sees what everyone sees: the stream carries the anonymous reader's revision, so an
    # organizer on an unpublished event's page (a revision of their own) polls.
    if page in _STREAMED and settings.OPP_LIVE_STREAM_URL and live.public_event_revision(*args) == revision:
        stream = settings.OPP_LIVE_STREAM_URL.rstrip("/") + reverse("live-event", args=args) + "stream/"
        attributes += format_html(' data-live-stream="{}"', stream)
    return attributes
