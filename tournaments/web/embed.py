"""The standings widget other sites show in a frame (docs/embeds.md): `/embed/events/<slug>/`.

A light page of its own: the event's tables (Swiss standings, or the groups' and seasons' tables) and
its latest results, from the same cached scoreboard document as the venue screen and the API's
scoreboard, without the site's header or any link but one to the event's own page. It updates itself
like the live pages (static/js/live.js polls the event's revision); without JavaScript it shows the
tables as they were when loaded.

It is the one page that may be framed: no X-Frame-Options, and a CSP `frame-ancestors` made from the
event's `embed_origins` (tournaments/events/embedding.py). Whoever frames it sees what everyone sees:
only published events, never anything that depends on the reader's session."""
from django.contrib.auth.models import AnonymousUser
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from tournaments import trust
from tournaments.events import embedding
from tournaments.standings import queries

# ?show= chooses the parts: both (left out), the standings only or the latest results only.
SHOW_CHOICES = ("standings", "results")


@xframe_options_exempt
@require_safe
def event_embed(request, slug):
    # Anonymous visibility whoever asks: a framing site must never show an organizer's unpublished event.
    event = get_object_or_404(trust.visible_events(AnonymousUser()), slug=slug)
    show = request.GET.get("show", "")
    if show and show not in SHOW_CHOICES:
        response = render(request, "tournaments/embed/refused.html", {
            "sentence": _("The query's show=%(given)s is not known: use show=standings, show=results, or leave "
                          "it out for both.") % {"given": show[:40]}}, status=400)
    else:
        revision_id, _at = queries.event_revision(event)
        board = queries.cached_scoreboard(event.pk, revision_id)
        response = render(request, "tournaments/embed/event.html", {
            "event": event, "board": board,
            "show_standings": show in ("", "standings"), "show_results": show in ("", "results"),
            "event_url": request.build_absolute_uri(reverse("event-detail", args=[event.slug])),
        })
    # django-csp's per-response hook (opp.middleware.SiteWideCSPMiddleware leaves such a response to it).
    response._csp_replace = {"frame-ancestors": embedding.frame_ancestors(event.embed_origins)}
    return response


def widget_url(request, event):
    return request.build_absolute_uri(reverse("event-embed", args=[event.slug]))


def embed_code(request, event):
    """The snippet an organizer pastes into another site's page: a titled frame of the widget. Plain text
    (its values escaped for the attributes), so that a page showing it escapes it once more."""
    title = _("%(event)s: standings and results") % {"event": event.name}
    return (f'<iframe src="{escape(widget_url(request, event))}" title="{escape(title)}" width="100%" height="480" '
            f'loading="lazy" style="border: 0"></iframe>')
