"""Event day on paper and in files: printable pairings and result slips per round, public CSV/JSON
exports, and the organizer's whole-event archive (download and import).

Pairings, slips and exports are as public as the event page; the archive holds the audit trail and
is the organizer's only.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe

from tournaments import trust
from tournaments.eventday import archive, exports
from tournaments.models import Battle, Group
from tournaments.standings.queries import schedule_by_round
from tournaments.web.organizer import organizer_event, refused
from tournaments.web.views import visible_events


class ArchiveImportForm(forms.Form):
    archive = forms.FileField(help_text="A .json event archive downloaded from a WARLINE Organized Play site.")
    slug = forms.SlugField(required=False, max_length=80,
                           help_text="The new event's address /events/<slug>/; empty: the archive's own.")

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        try:  # the API's size, depth and number limits (archive.read_archive)
            return archive.read_archive(upload.read(settings.OPP_MAX_REQUEST_BYTES + 1))
        except archive.ArchiveError as error:
            raise forms.ValidationError(str(error)) from None


@dataclass(frozen=True)
class Sheet:
    """One round of one group or season: what a pairings page or a set of slips prints."""

    where: str  # "Group A", "Final Group", "Season 1"
    stage: str
    round_label: str  # "Round 2", "Playoff", "Scheduled battles"
    battles: list  # [(table number, Battle)]
    rounds: list  # every round label of this group or season, for the page's round links


def _current(rounds):
    """The first round with a battle still to decide, else the last."""
    for label, battles in rounds:
        if any(not b.kind for b in battles):
            return label
    return rounds[-1][0] if rounds else None


def _sheet(where, stage, battles, wanted_round):
    rounds = schedule_by_round(battles)
    label = wanted_round or _current(rounds)
    chosen = next((items for round_label, items in rounds if round_label == label), [])
    return Sheet(where=where, stage=stage, round_label=label or "No battles",
                 battles=list(enumerate(chosen, start=1)), rounds=[round_label for round_label, _ in rounds])


def _league_sheet(season, wanted_round):
    """A league has no rounds: its sheet is the season's battles still to be played (all once every one
    is decided), numbered as tables in battle order."""
    battles = sorted(season.battles.all(), key=lambda b: (b.playoff, b.number, b.pk))
    chosen = [b for b in battles if not b.kind] or battles
    label = "Scheduled battles" if any(not b.kind for b in battles) else "All battles"
    return Sheet(where=season.name, stage="League season", round_label=label,
                 battles=list(enumerate(chosen, start=1)), rounds=[])


def round_sheets(event, *, group_id=None, season_id=None, round_label=None):
    """The sheets a pairings page or a slips page prints: by default each group of the event's latest
    stage (the final once it exists) and the league's current season, each at its current round."""
    related = ("general_a", "general_b", "winner", "forfeited_by")
    groups = event.groups.prefetch_related(*(f"battles__{name}" for name in related))
    seasons = event.seasons.prefetch_related(*(f"battles__{name}" for name in related))
    if group_id is not None:
        groups, seasons = groups.filter(pk=group_id), seasons.none()
    elif season_id is not None:
        groups, seasons = groups.none(), seasons.filter(pk=season_id)
    else:
        groups = groups.filter(stage=Group.Stage.FINAL) if event.groups.filter(
            stage=Group.Stage.FINAL).exists() else groups
        current = event.current_season()
        seasons = seasons.filter(pk=current.pk) if current else seasons.none()
    sheets = [_sheet(g.name, g.get_stage_display(), list(g.battles.all()), round_label)
              for g in groups.order_by("-stage", "index")]
    sheets += [_league_sheet(s, round_label) for s in seasons.order_by("-number")]
    if (group_id is not None or season_id is not None) and not sheets:
        raise Http404("This event has no such group or season.")
    return sheets


def _selection(request):
    def number(name):
        value = request.GET.get(name, "")
        if not value:
            return None
        if not value.isdigit():
            raise Http404(f"{name} must be a number.")
        return int(value)

    return {"group_id": number("group"), "season_id": number("season"),
            "round_label": request.GET.get("round") or None}


def qr_svg(url, title):
    """An inline SVG QR code (segno, drawn on the server: nothing loads from elsewhere)."""
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(scale=2, border=2, title=title, svgclass="qr", dark="#000", omitsize=True))  # noqa: S308


def pairings(request, slug):
    event = get_object_or_404(visible_events(request), slug=slug)
    selection = _selection(request)
    sheets = round_sheets(event, **selection)
    query = request.GET.urlencode()
    return render(request, "tournaments/print/pairings.html", {
        "event": event, "sheets": sheets, "selection": selection, "query": query,
    })


def slips(request, slug):
    event = get_object_or_404(visible_events(request), slug=slug)
    sheets = round_sheets(event, **_selection(request))
    slip_list = []
    for sheet in sheets:
        for table, battle in sheet.battles:
            url = request.build_absolute_uri(reverse("battle-detail", args=[battle.pk]))
            slip_list.append({"sheet": sheet, "table": table, "battle": battle, "url": url,
                              "qr": qr_svg(url, f"Battle page: {url}")})
    return render(request, "tournaments/print/slips.html", {
        "event": event, "slips": slip_list, "sheets": sheets, "query": request.GET.urlencode(),
        "kinds": [k for k in Battle.Kind.choices if k[0] != Battle.Kind.UNPLAYED_DQ],
        "conditions": Battle.Condition.choices,
    })


def export(request, slug, what, fmt):
    event = get_object_or_404(visible_events(request), slug=slug)
    if what not in exports.BUILDERS or fmt not in ("csv", "json"):
        raise Http404("No such export.")
    table = exports.BUILDERS[what](event)
    filename = f"{event.slug}-{what}.{fmt}"
    if fmt == "json":
        response = JsonResponse(table.as_json(event), json_dumps_params={"ensure_ascii": False, "indent": 1})
    else:
        response = HttpResponse(exports.to_csv(table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def exports_page(request, slug):
    event = get_object_or_404(visible_events(request), slug=slug)
    return render(request, "tournaments/print/exports.html", {
        "event": event, "exports": exports.EXPORTS, "is_organizer": event.is_organizer(request.user),
    })


def archive_download(request, slug):
    event = organizer_event(request, slug)
    body = json.dumps(archive.build_archive(event), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-archive.json"'
    return response


@login_required
def archive_import(request):
    """Anyone who may create an event may import one; they become its organizer."""
    if not trust.may_create_event(request.user):
        return refused(request, trust.NOT_GRANTED)
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = archive.import_archive(form.cleaned_data["archive"], slug=form.cleaned_data["slug"] or None,
                                           organizers=[request.user])
        except archive.ArchiveError as error:
            form.add_error("archive", str(error))
        else:
            messages.success(request, f"{event.name} is imported as /events/{event.slug}/.")
            return redirect("event-manage", slug=event.slug)
    return render(request, "tournaments/print/import.html", {"form": form}, status=400 if form.errors else 200)
