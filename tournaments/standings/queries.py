"""Read-side helpers shared by the pages, the API and the scoreboard: crosstables and schedules."""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from itertools import groupby

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.domain import TIEBREAKERS, opp_awards
from tournaments.models import Event, Report
from tournaments.standings.tables import battle_result, group_standings, season_standings
from tournaments.swiss import standings as swiss_standings


@dataclass(frozen=True)
class Cell:
    text: str  # "W 5", "L 0", "S -1", "R -10", "F", "DQ", "" (not played yet), "—" (the diagonal)
    opp: int | None
    css: str
    battle_id: int | None = None


def _cell_for(battle, row_general, event):
    result = battle_result(battle)
    if result.outcome is None:
        return Cell(text="·", opp=None, css="pending", battle_id=battle.pk)
    opp = opp_awards(result, event.forfeit_award)[row_general.key]
    kind = battle.kind
    if kind == "victory":
        won = battle.winner_id == row_general.pk
        return Cell(text=f"{'W' if won else 'L'} {opp}", opp=opp, css="win" if won else "loss",
                    battle_id=battle.pk)
    if kind == "forfeit":
        lost = battle.forfeited_by_id == row_general.pk
        return Cell(text=f"{'F' if lost else 'W'} {opp}", opp=opp, css="loss" if lost else "win",
                    battle_id=battle.pk)
    if kind == "unplayed_dq":
        return Cell(text=f"DQ {opp}", opp=opp, css="dq", battle_id=battle.pk)
    return Cell(text=f"{'S' if kind == 'stalemate' else 'R'} {opp}", opp=opp, css="draw", battle_id=battle.pk)


def crosstable(group, table=None):
    """Rows and columns in standings order; each cell is the row general's result and OPP.
    `table` is the group's standings when the caller has them already."""
    table = table if table is not None else group_standings(group)
    order = [table.generals[row.general] for row in table.rows]
    battles = {}
    for battle in group.battles.filter(playoff=False):
        battles[frozenset((battle.general_a_id, battle.general_b_id))] = battle
    grid = []
    for row_general in order:
        cells = []
        for col_general in order:
            if col_general.pk == row_general.pk:
                cells.append(Cell(text="—", opp=None, css="self"))
            else:
                battle = battles.get(frozenset((row_general.pk, col_general.pk)))
                cells.append(_cell_for(battle, row_general, group.event) if battle else
                             Cell(text="", opp=None, css="none"))
        grid.append((row_general, cells))
    return order, grid


def ranked_entries(table, winner=None):
    """[(row, general, place label)] with the winner (group winner, champion) first, labelled "1"
    without "=": a playoff decided the shared place (R24), so the others tied with them come after."""
    entries = table.entries()
    if winner is None or not any(g.pk == winner.pk for _row, g in entries):
        return [(row, general, f"{row.place}{'=' if row.shared else ''}") for row, general in entries]
    champion_row = next(row for row, g in entries if g.pk == winner.pk)
    others = [(row, g) for row, g in entries if g.pk != winner.pk]
    shared_with = [row for row, _g in others if row.place == champion_row.place]
    labelled = [(champion_row, winner, "1")]
    for row, general in others:
        if row.place == champion_row.place:
            label = f"{row.place + 1}{'=' if len(shared_with) > 1 else ''}"
        else:
            label = f"{row.place}{'=' if row.shared else ''}"
        labelled.append((row, general, label))
    return labelled


def season_schedule(battles):
    """A league season's battles: [(label, [battles])], still to play first, then results, then the
    playoffs. League battles are arranged one by one, not played in rounds."""
    battles = sorted(battles, key=lambda b: (b.playoff, b.number))
    parts = [(_("Still to play"), [b for b in battles if not b.playoff and not b.kind]),
             (_("Results"), [b for b in battles if not b.playoff and b.kind]),
             (_("Playoff (R24)"), [b for b in battles if b.playoff])]
    return [(label, items) for label, items in parts if items]


def with_open_report_status(battles):
    """A Battle queryset with `open_report_status`: the status of its latest open report, if any, so a
    schedule says "disputed" rather than "not played yet" (`schedule_state`)."""
    from django.db.models import OuterRef, Subquery

    latest = Report.objects.filter(battle=OuterRef("pk"), status__in=Report.OPEN_STATUSES).order_by(
        "-created_at", "-id").values("status")[:1]
    return battles.annotate(open_report_status=Subquery(latest))


def schedule_state(battle):
    """An undecided battle's state for everyone to read: no report's content or dispute reason, which
    are for its generals and the organizers."""
    status = getattr(battle, "open_report_status", None)
    if status in Report.AWAITING_STATUSES:
        return _("reported, waiting for confirmation")
    if status in Report.BEING_ADJUDICATED_STATUSES:
        return _("reported, being checked by the engine")
    if status in (Report.Status.DISPUTED, Report.Status.FAILED):
        return _("disputed: an organizer decides")
    return _("not played yet")


def schedule_by_round(battles):
    """[(round label, [battles])] with playoffs last."""
    battles = sorted(battles, key=lambda b: (b.playoff, b.round, b.number))
    rounds = []
    for (playoff, number), items in groupby(battles, key=lambda b: (b.playoff, b.round)):
        rounds.append((_("Playoff") if playoff else _("Round %(number)s") % {"number": number}, list(items)))
    return rounds


# --- documents for the API and venue screens --------------------------------------------------------

def event_revision(event):
    """(id, time) of the event's latest change. Every change writes an audit entry, so this names
    a version of everything the event shows: the scoreboard's ETag and cache key."""
    latest = event.audit_entries.order_by("-id").values_list("id", "at").first()
    return latest or (0, event.updated_at)


def _brief(general):
    return {"id": general.pk, "name": general.name} if general else None


def standing_rows(table):
    """Every figure of every row, in order: what standings endpoints and the scoreboard return."""
    rows = []
    for row, general in table.entries():
        rows.append({
            "place": row.place, "shared": row.shared, "general": {"id": general.pk, "name": general.name},
            **{metric.key: row.figure(metric.key) for metric in TIEBREAKERS},
            "played": row.played, "defeats": row.defeats, "forfeits": row.forfeits, "pending": row.pending,
            "disqualified": row.disqualified,
        })
    return rows


def standings_tables(event):
    tables = []
    for group in event.groups.select_related("winner").order_by("-stage", "index"):
        table = group_standings(group)
        tables.append({"kind": "group", "id": group.pk, "name": group.name, "stage": group.stage,
                       "decided": _brief(group.winner), "pending_results": table.pending_results,
                       "rows": standing_rows(table)})
    for season in event.seasons.select_related("champion").order_by("-number"):
        table = season_standings(season)
        tables.append({"kind": "season", "id": season.pk, "name": season.name, "stage": None,
                       "decided": _brief(season.champion), "pending_results": table.pending_results,
                       "rows": standing_rows(table)})
    return tables


def standings_document(event):
    return {
        "event": event.slug,
        "tiebreakers": [{"key": m.key, "label": m.label, "higher_is_better": m.higher_is_better}
                        for m in TIEBREAKERS],
        "tables": standings_tables(event),
    }


def _battle_line(battle):
    return {"id": battle.pk, "where": battle.group.name if battle.group_id else
            (battle.season.name if battle.season_id else str(battle.swiss_round) if battle.swiss_round_id else ""), "round": battle.round, "playoff": battle.playoff,
            "general_a": _brief(battle.general_a), "general_b": _brief(battle.general_b),
            "result": battle.outcome_text() if battle.kind else None}


def swiss_document(event):
    """A Swiss event's standings for the scoreboard: each player's rank, score, record and tie-breaker
    figures in the event's order."""
    table = swiss_standings.table(event)
    return {"tie_breakers": [{"key": key, "label": str(label)} for key, label, _explanation in table.tie_breakers],
            "rows": [{"rank": line.rank, "general": _brief(line.general), "score": line.score, "wins": line.wins,
                      "draws": line.draws, "losses": line.losses, "byes": line.byes, "dropped": line.dropped,
                      "tie_breaks": dict(line.tie_breaks)} for line in table.lines]}


def scoreboard_document(event, latest_count=8):
    """One compact document for venue screens and overlays: every table, the battles of each
    group's current round still to be decided, and the latest results (a Swiss event: its standings
    under "swiss" and the current round's battles)."""
    battles = event.battles.select_related("group", "season", "swiss_round", "general_a", "general_b", "winner",
                                           "forfeited_by")
    undecided = [b for b in battles.filter(kind="").order_by("group_id", "season_id", "playoff", "round", "number")]
    current = {}
    for battle in undecided:
        key = (battle.group_id, battle.season_id, battle.playoff)
        current.setdefault(key, battle.round)
    in_progress = [b for b in undecided if current[(b.group_id, b.season_id, b.playoff)] == b.round]
    latest = battles.exclude(kind="").exclude(decided_at=None).order_by("-decided_at", "-id")[:latest_count]
    document = {
        "event": {"slug": event.slug, "name": event.name, "state": event.state, "status": event.status_label,
                  "victor": _brief(event.victor)},
        "tables": [{key: table[key] for key in ("name", "stage", "decided", "rows")}
                   for table in standings_tables(event)],
        "in_progress": [_battle_line(b) for b in in_progress],
        "latest_results": [_battle_line(b) for b in latest],
    }
    if event.format == event.Format.SWISS:
        document["swiss"] = swiss_document(event)
    return document


_SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")


def scoreboard_head_key(slug, generation=""):
    return f"scoreboard-head:{slug}:{generation}"


def _head_generation_key(slug):
    return f"scoreboard-generation:{slug}"


def head_generation(slug):
    """The event's head generation: a token that every change of the event replaces (never reused,
    so a key evicted and made again cannot bring an old head back)."""
    key = _head_generation_key(slug)
    generation = cache.get(key)
    if generation is None:
        cache.add(key, uuid.uuid4().hex, timeout=HEAD_GENERATION_SECONDS)
        generation = cache.get(key)
    return generation


HEAD_GENERATION_SECONDS = 24 * 3600


def scoreboard_head(slug):
    """What a polling screen needs to decide between 304 and a body, without touching the database
    while nothing changes: {"event": pk, "published", "revision", "at"} or None (no such event).

    The head is cached under the event's current generation, read BEFORE the database: a poll that
    read the revision just before a change committed writes its head under the generation that the
    change replaced (`forget_scoreboard_head`), where no poll looks any more, so it can never be
    served after the change (a plain delete-then-set let such a poll put the old revision back)."""
    if not _SLUG.fullmatch(slug):  # no event has it, and it would make a cache key memcached refuses
        return None
    key = scoreboard_head_key(slug, head_generation(slug))
    head = cache.get(key)
    if head is None:
        event = Event.objects.filter(slug=slug).only("pk", "published", "updated_at").first()
        if event is None:
            return None
        revision_id, revision_at = event_revision(event)
        head = {"event": event.pk, "published": event.published, "revision": revision_id,
                "at": revision_at.timestamp()}
        cache.set(key, head, timeout=3600)
    return head


def forget_scoreboard_head(slug):
    """A new generation: heads cached under the old one, also those still being written, are never read."""
    cache.set(_head_generation_key(slug), uuid.uuid4().hex, timeout=HEAD_GENERATION_SECONDS)


def cached_scoreboard(event_pk, revision_id):
    """The scoreboard document of one revision of the event. The key carries the revision, so any
    change to the event (a confirmed result writes an audit entry) makes the next request rebuild it. It
    has the reader's words (an event's state, a result: "Ada wins by Crush"), so each language its own."""
    key = f"scoreboard:{event_pk}:{revision_id}:{get_language()}"
    document = cache.get(key)
    if document is None:
        document = scoreboard_document(Event.objects.select_related("victor").get(pk=event_pk))
        cache.set(key, document, timeout=3600)
    return document
