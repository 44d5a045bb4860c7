"""Event day on paper: printable pairings and result slips per round, as public as the event page,
and the QR codes that point players at the live pages. Files (exports, the archive) are
tournaments/web/downloads.py."""
from __future__ import annotations

from dataclasses import dataclass

import segno
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments import trust
from tournaments.eventday.round_desk import chosen_swiss_round, swiss_label
from tournaments.models import Battle, Group
from tournaments.standings.queries import schedule_by_round


@dataclass(frozen=True)
class Sheet:
    """One round of one group or season: what a pairings page or a set of slips prints."""

    where: str  # "Group A", "Final Group", "Season 1"
    stage: str
    round_label: str  # "Round 2", "Playoff", "Scheduled battles"
    battles: list  # [(table number, Battle)]
    rounds: list  # every round label of this group or season, for the page's round links
    bye: str = ""  # Swiss: who has the round's bye
    tables: tuple = ()  # multiplayer tables: (number, [names in seat order], table id)


def _current(rounds):
    """The round a group is playing: the first round with at least half of its battles still to decide.
    A round mostly played is behind the group even while a late battle or two of it are open, so the
    next round's pairings print once most tables have reported. Else (only late battles are left) the
    first round with a battle still to decide; else the last round."""
    for label, battles in rounds:
        if 2 * sum(1 for b in battles if not b.kind) >= len(battles) > 0:
            return label
    for label, battles in rounds:
        if any(not b.kind for b in battles):
            return label
    return rounds[-1][0] if rounds else None


def _finished(battles):
    """Every battle decided: nothing left to print for the table."""
    return bool(battles) and all(b.kind for b in battles)


def _sheet(where, stage, battles, wanted_round):
    rounds = schedule_by_round(battles)
    label = wanted_round or _current(rounds)
    chosen = next((items for round_label, items in rounds if round_label == label), [])
    return Sheet(where=where, stage=stage, round_label=label or _("No battles"),
                 battles=list(enumerate(chosen, start=1)), rounds=[round_label for round_label, _ in rounds])


def _league_sheet(season, wanted_round):
    """A league has no rounds: its sheet is the season's battles still to be played (all once every one
    is decided), numbered as tables in battle order."""
    battles = sorted(season.battles.all(), key=lambda b: (b.playoff, b.number, b.pk))
    chosen = [b for b in battles if not b.kind] or battles
    label = _("Scheduled battles") if any(not b.kind for b in battles) else _("All battles")
    return Sheet(where=season.name, stage=_("League season"), round_label=label,
                 battles=list(enumerate(chosen, start=1)), rounds=[])


def round_sheets(event, *, group_id=None, season_id=None, round_label=None):
    """(sheets, finished): the sheets a pairings page or a slips page prints, by default each group of the
    event's latest stage (the final once it exists) and the league's current season, each at its current
    round, leaving out a group or season whose battles are all decided; `finished` names those left out,
    [(name, "group=<id>" or "season=<id>")], for a link that prints them anyway. A group or season asked
    for by its id prints even when finished."""
    if event.is_swiss:
        return swiss_sheets(event, round_label), []
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
    chosen = group_id is not None or season_id is not None
    sheets, finished = [], []
    for group in groups.order_by("-stage", "index"):
        battles = list(group.battles.all())
        if not chosen and _finished(battles):
            finished.append((group.name, f"group={group.pk}"))
        else:
            sheets.append(_sheet(group.name, group.get_stage_display(), battles, round_label))
    for season in seasons.order_by("-number"):
        if not chosen and _finished(list(season.battles.all())):
            finished.append((season.name, f"season={season.pk}"))
        else:
            sheets.append(_league_sheet(season, round_label))
    if chosen and not sheets:
        raise Http404(_("This event has no such group or season."))
    return sheets, finished


def swiss_sheets(event, round_label=None):
    """A Swiss event prints one round: the latest paired (or the one asked for), its tables, its bye."""
    labels, chosen = chosen_swiss_round(event, round_label)
    if chosen is None:
        return []
    battles = chosen.battles.select_related("general_a", "general_b", "winner", "forfeited_by").order_by("number")
    tables = tuple((table.number, [seat.general.name for seat in table.seats.all()], table.pk)
                   for table in chosen.tables.prefetch_related("seats__general").order_by("number"))
    return [Sheet(where=event.game_system.short_name, stage=chosen.get_stage_display(),
                  round_label=swiss_label(chosen), battles=[(b.number, b) for b in battles], rounds=labels,
                  bye=chosen.bye.name if chosen.bye_id else "", tables=tables)]


def round_selection(request):
    """The group or season and the round a printed or desk page asks for (`?group=`, `?season=`, `?round=`)."""

    def number(name):
        value = request.GET.get(name, "")
        if not value:
            return None
        if not value.isdigit():
            raise Http404(_("%(name)s must be a number.") % {"name": name})
        return int(value)

    return {"group_id": number("group"), "season_id": number("season"),
            "round_label": request.GET.get("round") or None}


def breakable_url(url):
    """The URL with a line-break opportunity (<wbr>) after each slash and before each dot of its host, so a
    narrow caption (a slip's QR code) wraps it between its parts, never inside a word."""
    from django.utils.html import escape

    head, _, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    parts = [escape(head + "://") + "<wbr>", "<wbr>".join(escape(part) if not index else "." + escape(part)
                                                for index, part in enumerate(host.split(".")))]
    if slash:
        parts.append("/<wbr>" + "/<wbr>".join(escape(part) for part in path.split("/")))
    return mark_safe("".join(parts))  # noqa: S308  (every part escaped above)


def qr_svg(url, title):
    """An inline SVG QR code (segno, drawn on the server: nothing loads from elsewhere)."""
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(scale=2, border=2, title=title, svgclass="qr", dark="#000", omitsize=True))  # noqa: S308


def pairings(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    selection = round_selection(request)
    sheets, finished = round_sheets(event, **selection)
    query = request.GET.urlencode()
    return render(request, "tournaments/print/pairings.html", {
        "event": event, "sheets": sheets, "finished": finished, "selection": selection, "query": query,
    })


def slips(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    sheets, finished = round_sheets(event, **round_selection(request))
    slip_list = []
    for sheet in sheets:
        for table, battle in sheet.battles:
            url = request.build_absolute_uri(reverse("battle-detail", args=[battle.pk]))
            slip_list.append({"sheet": sheet, "table": table, "battle": battle, "url": url,
                              "url_lines": breakable_url(url), "qr": qr_svg(url, (_("Battle page: %(url)s")
                                                                                  % {"url": url}))})
        for number, names, table_id in sheet.tables:
            url = request.build_absolute_uri(reverse("table-detail", args=[table_id]))
            slip_list.append({"sheet": sheet, "table": number, "players": names, "places": range(1, len(names) + 1),
                              "url": url, "url_lines": breakable_url(url), "qr": qr_svg(url, (_(
                                      "Table page: %(url)s")
                                                                                              % {"url": url}))})
    system = event.game_system
    return render(request, "tournaments/print/slips.html", {
        "event": event, "slips": slip_list, "sheets": sheets, "finished": finished,
        "query": request.GET.urlencode(),
        "kinds": [(kind.key, kind.label) for kind in system.result_kinds],
        "conditions": Battle.Condition.choices if system.adjudicated else [],
        "facts": system.result_facts,
    })
