"""Standings tables read from the database: the counters summed by SQL (`tallies`), ranked by the domain
(`tournaments.domain.standings`, R24), for a qualifying or final group, a league season (R88) or the
whole event. Read-only: nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from tournaments.domain import BattleResult, Kind, Outcome, rank_tallies
from tournaments.models import Battle, Disqualification, General
from tournaments.standings.tallies import count_in_database


def battle_result(battle):
    """The pure-domain view of a stored battle."""
    return result_from_row(battle.general_a_id, battle.general_b_id, battle.kind, battle.winner_id,
                           battle.condition, battle.forfeited_by_id, battle.playoff)


# The Battle columns `result_from_row` needs, in its argument order, for reading results with
# `values_list` instead of loading a model instance (and four generals) per battle.
RESULT_FIELDS = ("general_a_id", "general_b_id", "kind", "winner_id", "condition", "forfeited_by_id", "playoff")


def results_of(battles):
    """The pure-domain results of a Battle queryset, read column by column."""
    return [result_from_row(*row) for row in battles.order_by().values_list(*RESULT_FIELDS)]


def result_from_row(general_a_id, general_b_id, kind, winner_id, condition, forfeited_by_id, playoff):
    """`battle_result` from the battle's columns (RESULT_FIELDS)."""
    a, b = str(general_a_id), str(general_b_id)
    if not kind:
        outcome = None
    elif kind == Battle.Kind.VICTORY:
        outcome = Outcome(Kind.VICTORY, winner=str(winner_id), condition=condition)
    elif kind == Battle.Kind.FORFEIT:
        other = b if str(forfeited_by_id) == a else a
        outcome = Outcome(Kind.FORFEIT, winner=other, forfeited_by=str(forfeited_by_id))
    elif kind == Battle.Kind.UNPLAYED_DQ:
        dq = forfeited_by_id  # the disqualified general is kept in forfeited_by for unplayed battles
        outcome = Outcome(Kind.UNPLAYED_DQ, disqualified=str(dq))
    else:
        outcome = Outcome(Kind(kind))
    return BattleResult(a=a, b=b, outcome=outcome, playoff=playoff)


@dataclass(frozen=True)
class StandingsTable:
    rows: list  # domain StandingRow, in order
    generals: dict  # key -> General
    pending_results: int

    def entries(self):
        return [(row, self.generals[row.general]) for row in self.rows]


def standings_table(event, generals, *, group_id=None, season_id=None, disqualifications=None):
    """Counted by the database (tournaments/standings/tallies.py), ranked by the domain (R24). A general of a
    counted battle who is not among `generals` (e.g. withdrawn later) keeps a row: the table never
    loses a played battle."""
    disqualifications = event.disqualifications.all() if disqualifications is None else disqualifications
    # Whether each is disqualified comes with the generals: one round trip fewer per table. (One
    # statement for generals and counters was tried and measured slower: docs/performance.md, section 2.)
    annotated = generals.annotate(is_disqualified=Exists(disqualifications.filter(general=OuterRef("pk"))))
    generals = {g.key: g for g in annotated}
    tallies = count_in_database(generals=list(generals), forfeit_award=event.forfeit_award, group_id=group_id,
                                season_id=season_id, add_unknown=True)
    missing = [key for key in tallies if key not in generals]
    if missing:
        generals.update({g.key: g for g in General.objects.filter(pk__in=missing).annotate(
            is_disqualified=Exists(disqualifications.filter(general=OuterRef("pk"))))})
    rows = rank_tallies(tallies, disqualified={key for key, g in generals.items() if g.is_disqualified})
    return StandingsTable(rows=rows, generals=generals,
                          pending_results=sum(t["pending"] for t in tallies.values()) // 2)


def group_standings(group):
    generals = General.objects.filter(group_memberships__group=group)
    return standings_table(group.event, generals, group_id=group.pk)


def counted_in_event(event):
    """Keys of the generals with a counted battle anywhere in the event (R112 for the Victor)."""
    counted = set()
    fought = event.battles.filter(playoff=False).exclude(kind__in=["", Battle.Kind.UNPLAYED_DQ])
    for a, b in fought.values_list("general_a_id", "general_b_id"):
        counted.update((str(a), str(b)))
    return counted


def members_of(season):
    return General.objects.filter(season_memberships__season=season)


def disqualifications_of(season):
    """Disqualifications that mark this season: decided in it or in an earlier one (R88)."""
    return Disqualification.objects.filter(event_id=season.event_id).filter(
        Q(season__isnull=True) | Q(season__number__lte=season.number))


def season_standings(season):
    """The season's table: its members as it held them, its battles, its disqualifications."""
    return standings_table(season.event, members_of(season), season_id=season.pk,
                           disqualifications=disqualifications_of(season))
