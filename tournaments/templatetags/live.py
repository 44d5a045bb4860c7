"""`<div{% live_page "event" event.slug %}>` around a page's content makes the page update itself
(static/js/live.js): it writes the revision endpoint to poll, the page to fetch again and the
revision the page shows."""
from django import template
from django.urls import reverse
from django.utils.html import format_html

from tournaments.web import live

register = template.Library()

# page -> (its revision endpoint, the page itself, the revision's function)
_PAGES = {
    "event": ("live-event", "event-detail", live.event_revision_of),
    "venue": ("live-event", "venue-screen", live.event_revision_of),
    "battle": ("live-battle", "battle-detail", live.battle_revision_of),
    "my-battles": ("live-my-battles", "my-battles", live.my_battles_revision_of),
}


@register.simple_tag(takes_context=True)
def live_page(context, page, *args):
    request = context["request"]
    if request.method != "GET":
        # A page answering a refused form shows what was typed and why it was refused: a fresh copy
        # of the page would replace both, so it does not update itself.
        return ""
    endpoint, url_name, revision_of = _PAGES[page]
    return format_html(' data-live="{}" data-live-page="{}" data-live-revision="{}"', reverse(endpoint, args=args),
                       reverse(url_name, args=args), revision_of(request, *args))
