"""The players' pages: the directory of generals, a general's profile and head to head. Everything is
counted over the events the viewer may see (`trust.visible_events`), like the rest of the site."""
from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments import trust
from tournaments.models import General
from tournaments.profiles.directory import PAGE_SIZE, directory, matching, recent_battles
from tournaments.profiles.records import head_to_head, opponents, record
from tournaments.ratings import queries as ratings

SEARCH_LENGTH = 100  # as the events' search box


def _search(request):
    return request.GET.get("q", "").strip()[:SEARCH_LENGTH]


def generals(request):
    """The directory: generals by name, PAGE_SIZE a page, with the events each played."""
    query = _search(request)
    page = directory(query, trust.visible_events(request.user), request.GET.get("page"))
    return render(request, "tournaments/generals.html", {"q": query, "page": page, "page_size": PAGE_SIZE,
                                                         "query": urlencode({"q": query}) if query else ""})


def general_detail(request, pk):
    """A general's profile: their record, events with places, rating, recent battles, head to head."""
    general = get_object_or_404(General, pk=pk)
    events = trust.visible_events(request.user)
    return render(request, "tournaments/general_detail.html", {
        "general": general,
        "record": record(general, events),
        "recent": recent_battles(general, events, viewer=request.user),
        "opponents": opponents(general, events),
        "rating": ratings.rating_of(general),
        "rating_history": ratings.history_of(general),
        "own": request.user.is_authenticated and general.user_id == request.user.pk,
    })


def versus_choose(request, pk):
    """The head-to-head form's answer: one general of that name opens the comparison, several are listed."""
    general = get_object_or_404(General, pk=pk)
    query = _search(request)
    matches = list(matching(query).exclude(pk=general.pk)[:PAGE_SIZE]) if query else []
    if len(matches) == 1:
        return redirect("general-versus", pk=general.pk, other=matches[0].pk)
    return render(request, "tournaments/versus.html", {"general": general, "q": query, "matches": matches})


def versus(request, pk, other):
    general = get_object_or_404(General, pk=pk)
    other = get_object_or_404(General, pk=other)
    if other.pk == general.pk:
        raise Http404(_("A general has no battles against themselves: choose another general."))
    return render(request, "tournaments/versus.html", {
        "general": general, "other": other,
        "h2h": head_to_head(general, other, trust.visible_events(request.user)),
    })
