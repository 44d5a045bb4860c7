"""Pages that update themselves (docs/live-pages.md) and the venue screen.

A live page polls a small revision endpoint about once a second with If-None-Match; the answer is
304 without a body while nothing it shows has changed. When the revision changes, the page fetches
itself again (the same view, so the same permissions) and swaps the changed parts in
(static/js/live.js). A revision is an opaque tag: it says that something changed, never what.

- an event's revision is the scoreboard's head (the latest audit entry: every result, report,
  registration and state change writes one), cached and invalidated by tournaments/api/signals.py;
- a battle's revision adds, for those who may see the battle's reports (its two generals and the
  organizers), the reports' and adjudications' states, which change without an audit entry while
  the engine works;
- "my battles" has one revision per user: the latest audit entry of the events of the user's
  battles and the state of those battles' reports;
- the round page (organizers only) has the event's revision and the state of all its reports.
"""
import hashlib

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import quote_etag
from django.utils.translation import gettext as _

from tournaments import trust
from tournaments.models import AuditEntry, Battle, Event, Report, label_in_sentence
from tournaments.results import confirmation
from tournaments.results.agreement import report_claim_text
from tournaments.standings import queries
from tournaments.web.printouts import qr_svg

POLL_MILLISECONDS = 1000  # the pages' polling period (static/js/live.js reads it from the answer)


def _digest(*parts):
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()


def _revision_answer(request, revision):
    """304 when the client's If-None-Match names this revision, else the revision as a small JSON."""
    etag = quote_etag(revision)
    if etag in [tag.strip() for tag in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"revision": revision, "poll_ms": POLL_MILLISECONDS})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Cookie"
    return response


def event_revision_of(request, slug):
    """The revision of an event this user may see; 404 otherwise (an unpublished event is hidden
    from all but its organizers, as on its page)."""
    head = queries.scoreboard_head(slug)
    if head is None or (not head["published"]
                        and not trust.visible_events(request.user).filter(pk=head["event"]).exists()):
        raise Http404(_("No such event."))
    return _event_digest(head)


def public_event_revision(slug):
    """What the poll endpoint gives an anonymous reader (the stream's revision, live_stream.py); None for
    no such or an unpublished event."""
    head = queries.scoreboard_head(slug)
    return _event_digest(head) if head is not None and head["published"] else None


def _event_digest(head):
    return _digest("event", head["event"], head["revision"], head["published"])


def battle_revision_of(request, pk):
    battle = get_object_or_404(Battle.objects.filter(event__in=trust.visible_events(request.user))
                               .select_related("event").only("pk", "event__slug", "general_a_id", "general_b_id"),
                               pk=pk)
    head = queries.scoreboard_head(battle.event.slug)
    parts = ["battle", battle.pk, head["revision"] if head else None]
    user = request.user
    if user.is_authenticated and trust.may_report(user, battle):
        # Only those who see the reports on the page have their states in the revision.
        parts.append(list(Report.objects.filter(battle=battle).order_by("pk").values_list(
            "pk", "status", "updated_at", "adjudication__state", "adjudication__finished_at")))
    return _digest(*parts)


def my_battles_revision_of(request):
    me = trust.general_of(request.user)
    if me is None:
        return _digest("my", request.user.pk, None)
    mine = Battle.objects.filter(Q(general_a=me) | Q(general_b=me))
    latest_entry = AuditEntry.objects.filter(event__in=mine.values("event_id")).aggregate(latest=Max("pk"))["latest"]
    reports = Report.objects.filter(battle__in=mine).aggregate(
        count=Count("pk"), updated=Max("updated_at"), adjudicated=Max("adjudication__finished_at"))
    return _digest("my", request.user.pk, me.pk, latest_entry, sorted(reports.items()))


def round_revision_of(request, slug):
    """The round page's revision: for the event's organizers only (403 for anyone else, as the page).
    Reports change state without an audit entry while the engine works, so their states are in it; a
    confirmation window that passed is counted first, as the page would count it when drawn."""
    event = Event.objects.filter(slug=slug).only("pk", "slug", "name").first()
    if event is None:
        raise Http404(_("No such event."))
    if not trust.may_organize(request.user, event):
        raise PermissionDenied(trust.NOT_ORGANIZER)
    confirmation.sweep(event)
    head = queries.scoreboard_head(slug)
    reports = Report.objects.filter(battle__event=event).aggregate(
        count=Count("pk"), latest=Max("pk"), updated=Max("updated_at"), adjudicated=Max("adjudication__finished_at"))
    return _digest("round", event.pk, head["revision"] if head else None, sorted(reports.items()))


def changed_under(report):
    """What happened to `report` since its page was drawn, in a sentence, when an answer to it comes
    too late (it was replaced, answered or decided meanwhile); None when it is still open."""
    report.refresh_from_db()
    battle = report.battle
    battle.refresh_from_db()
    old = report_claim_text(report)
    if report.status == Report.Status.SUPERSEDED:
        newer = battle.reports.filter(pk__gt=report.pk).select_related(
            "reported_by", "winner", "forfeited_by").first()
        if newer is None:
            return _("Meanwhile, the report you answered (%(old)s) was replaced.") % {"old": old}
        return (_("Meanwhile, the report you answered (%(old)s) was replaced by a newer one, which says "
                   "%(report_claim_text)s (%(status)s).")
                 % {"old": old, "report_claim_text": report_claim_text(newer), "status": label_in_sentence(newer.get_status_display())})
    if battle.kind:
        return (_("Meanwhile, the battle was decided: %(outcome_text)s.")
                % {"outcome_text": battle.outcome_text()})
    if report.status not in Report.OPEN_STATUSES:
        return (_("Meanwhile, the report you answered (%(old)s) changed: it is %(status)s.")
                % {"old": old, "status": label_in_sentence(report.get_status_display())})
    return None


def event_revision(request, slug):
    return _revision_answer(request, event_revision_of(request, slug))


def battle_revision(request, pk):
    return _revision_answer(request, battle_revision_of(request, pk))


def round_revision(request, slug):
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Sign in to follow the round.")}, status=401)
    return _revision_answer(request, round_revision_of(request, slug))


def my_battles_revision(request):
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Sign in to follow your battles.")}, status=401)
    return _revision_answer(request, my_battles_revision_of(request))


def venue_screen(request, slug):
    """Full screen for a projector at the venue: each group's standings in turn, the battles still
    to play and the latest results in large type, and a QR code to the event's page."""
    event = get_object_or_404(trust.visible_events(request.user).select_related("victor"), slug=slug)
    revision_id = queries.event_revision(event)[0]
    board = queries.cached_scoreboard(event.pk, revision_id)
    event_url = request.build_absolute_uri(reverse("event-detail", args=[event.slug]))
    return render(request, "tournaments/venue_screen.html", {
        "event": event, "board": board, "event_url": event_url,
        "qr": qr_svg(event_url, _("QR code: %(event_url)s") % {"event_url": event_url}),
    })
