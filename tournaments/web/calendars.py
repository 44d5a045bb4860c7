"""Calendar feeds as pages: an event's schedule (`/events/<slug>/calendar.ics`, as visible as the event page)
and a player's own battles and deadlines (`/calendar/<token>.ics`). Calendar apps fetch a feed without the
site's cookies, so a player's feed is found by the secret in its address; the player makes, replaces or
removes that address on /my/calendar/, and a replaced or removed address answers 404 at once."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import trust
from tournaments.eventday import calendar
from tournaments.models import NotificationSettings

FEED_MAX_AGE = 300  # seconds: a calendar app polls every hour or so; a page's changes show within minutes


def _feed(body, filename, *, public):
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if public:
        patch_cache_control(response, public=True, max_age=FEED_MAX_AGE)
    else:  # an unpublished event's or a player's own: never kept by a shared cache
        patch_cache_control(response, private=True, max_age=FEED_MAX_AGE)
    return response


def event_calendar(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    return _feed(calendar.event_calendar(event), f"{event.slug}.ics", public=event.published)


def my_calendar_feed(request, token):
    user = calendar.feed_owner(token)
    if user is None:
        raise Http404(_("No such calendar."))
    language = NotificationSettings.objects.filter(user=user).values_list("language", flat=True).first()
    with translation.override(language or None):  # the player's language, as their mails
        body = calendar.player_calendar(user)
    response = _feed(body, "warline-my-calendar.ics", public=False)
    response["X-Robots-Tag"] = "noindex"
    return response


def feed_addresses(request, token):
    """The feed's https address and the webcal:// one that opens a calendar app to subscribe."""
    url = request.build_absolute_uri(reverse("my-calendar-feed", args=[token]))
    return {"url": url, "webcal": "webcal://" + url.split("://", 1)[1]}


@login_required
@require_http_methods(["GET", "POST"])
def my_calendar(request):
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "new":
            calendar.new_feed_token(request.user)
            messages.success(request, _("Your calendar has a new address; the old one no longer works."))
        elif action == "remove":
            calendar.remove_feed_token(request.user)
            messages.success(request, _("Your calendar's address no longer works."))
        else:
            return HttpResponse(_("Unknown action %(action)r: use new or remove.") % {"action": action},
                                status=400, content_type="text/plain; charset=utf-8")
        return redirect("my-calendar")
    token = calendar.feed_token(request.user)
    response = render(request, "tournaments/my_calendar.html", {
        "feed": feed_addresses(request, token) if token else None, "me": trust.general_of(request.user)})
    patch_cache_control(response, private=True, no_store=True)  # the page shows the secret
    return response
