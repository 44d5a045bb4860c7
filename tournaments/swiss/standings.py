"""A Swiss event's standings: the counted results of its Swiss rounds (top-cut battles never change
them) and its byes, scored by the event's scoring and ranked by its tie-breakers."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from pairings.swiss_standings import Scoring, SwissGame, SwissRow, swiss_standings
from pairings.table_standings import TableGame, table_standings
from tournaments.models import Battle, Event, General, Registration, SwissRound, Table, TableSeat

# A game system's Swiss tie-breakers (game_systems/common.py, which imports no Django), by their English
# words: the pages show them in the reader's language.
SWISS_WORDS = {
    "Strength of schedule": _("Strength of schedule"),
    "The sum of the scores of every opponent met (a bye adds nothing).":
        _("The sum of the scores of every opponent met (a bye adds nothing)."),
    "Opponents' win rate": _("Opponents' win rate"),
    "The average of the opponents' match-win rates, each at least one third.":
        _("The average of the opponents' match-win rates, each at least one third."),
    "Head to head": _("Head to head"),
    "Points scored in the games among the players still tied.":
        _("Points scored in the games among the players still tied."),
    "Points destroyed": _("Points destroyed"),
    "The points value of the enemy models this player destroyed, over all games.":
        _("The points value of the enemy models this player destroyed, over all games."),
}


def swiss_words(text):
    """A Swiss tie-breaker's label or explanation in the reader's language; English when it has no entry."""
    return SWISS_WORDS.get(text, text)


DEFAULT_PLACEMENT_POINTS = (4, 2, 1, 0)  # multiplayer tables: first, second, third, fourth place

# Who is in a Swiss event's standings: everyone who was paired or is in the field now.
IN_FIELD = (Registration.Status.ACTIVE,)


def scoring_of(event) -> Scoring:
    points = {**event.game_system.default_scoring, **(event.scoring or {})}
    return Scoring(win=points["win"], draw=points["draw"], loss=points["loss"], bye=points["bye"])


def placement_points_of(event) -> tuple[float, ...]:
    """Multiplayer tables: the organizer's points by place, or the default; () for two-player events."""
    return tuple(event.placement_points or DEFAULT_PLACEMENT_POINTS) if event.table_size > 2 else ()


def tie_breakers_of(event) -> tuple[str, ...]:
    return tuple(event.tie_breakers or event.game_system.default_tie_breakers)


def winner_id(battle) -> int | None:
    """Whom a decided battle counts for: its winner; for a battle not fought because a player was
    disqualified while paired, the opponent, as for a forfeit (the R23 of Swiss events: a round without
    points would punish the opponent, and in a top cut the opponent goes on); None for a draw."""
    if battle.kind == Battle.Kind.UNPLAYED_DQ:
        return battle.general_b_id if battle.forfeited_by_id == battle.general_a_id else battle.general_a_id
    return battle.winner_id


def games_of(event, *, before_round=None) -> list[SwissGame]:
    """Every decided Swiss game and bye, from each player's side."""
    outcomes = event.game_system.outcomes
    battles = Battle.objects.filter(event=event, swiss_round__stage=SwissRound.Stage.SWISS).exclude(kind="")
    rounds = SwissRound.objects.filter(event=event, stage=SwissRound.Stage.SWISS, bye__isnull=False)
    if before_round is not None:
        battles = battles.filter(round__lt=before_round)
        rounds = rounds.filter(number__lt=before_round)
    games = []
    for battle in battles.only("round", "general_a_id", "general_b_id", "kind", "winner_id", "forfeited_by_id",
                               "facts"):
        destroyed = (battle.facts or {}).get("points_destroyed", {})
        if battle.kind == Battle.Kind.UNPLAYED_DQ:
            first, second = "win", "loss"
        else:
            first, second = outcomes[battle.kind]
        winner = winner_id(battle)
        for me, other, side in ((battle.general_a_id, battle.general_b_id, "a"),
                                (battle.general_b_id, battle.general_a_id, "b")):
            outcome = first if winner in (None, me) else second  # no winner: a draw for both
            games.append(SwissGame(round=battle.round, player=me, opponent=other, outcome=outcome,
                                   points_destroyed=destroyed.get(side, 0)))
    for swiss_round in rounds.only("number", "bye_id"):
        games.append(SwissGame(round=swiss_round.number, player=swiss_round.bye_id, opponent=None, outcome="bye"))
    return games


def field_ids(event) -> list[int]:
    """Everyone who plays or played: the active registrations and anybody paired before (a player
    who left keeps their games, and their opponents keep them too)."""
    ids = list(event.registrations.filter(status__in=IN_FIELD).order_by("number").values_list("general_id",
                                                                                             flat=True))
    seen = set(ids)
    paired = list(Battle.objects.filter(event=event, swiss_round__isnull=False).values_list("general_a_id",
                                                                                            "general_b_id"))
    paired += [(general,) for general in TableSeat.objects.filter(table__event=event).values_list("general_id",
                                                                                                  flat=True)]
    for generals in paired:
        for general in generals:
            if general not in seen:
                seen.add(general)
                ids.append(general)
    return ids


def dropped_ids(event) -> frozenset[int]:
    """Players who dropped, withdrew or were disqualified: kept in the standings, marked, never paired."""
    return frozenset(event.registrations.filter(Q(dropped_after_round__isnull=False)
                                                | ~Q(status=Registration.Status.ACTIVE))
                     .values_list("general_id", flat=True)) | frozenset(
        event.disqualifications.values_list("general_id", flat=True))


def tables_of(event) -> list[TableGame]:
    """Every counted multiplayer table: its seats and elimination order."""
    games = []
    for table in Table.objects.filter(event=event, finished__isnull=False).select_related("swiss_round") \
            .prefetch_related("seats"):
        games.append(TableGame(round=table.swiss_round.number,
                               seats=tuple(seat.general_id for seat in table.seats.all()),
                               eliminations=tuple(table.eliminations), finished=table.finished))
    return games


def compute(event, *, before_round=None) -> list[SwissRow]:
    if event.table_size > 2:
        return table_standings(field_ids(event), tables_of(event),
                               placement_points_of(event), tie_breakers_of(event),
                               dropped=dropped_ids(event))
    return swiss_standings(field_ids(event), games_of(event, before_round=before_round), scoring_of(event),
                           tie_breakers_of(event), dropped=dropped_ids(event))


@dataclass(frozen=True)
class Line:
    """One row as the pages and the API show it."""

    rank: int
    general: General
    score: float
    wins: int
    draws: int
    losses: int
    byes: int
    tie_breaks: tuple[tuple[str, float], ...]
    dropped: bool
    shared: bool  # equal with another player on the score and every tie-breaker


def shared_ranks(rows) -> set[int]:
    """The ranks more than one player holds (standings show 1, 2, 2, 4)."""
    held = Counter(row.rank for row in rows)
    return {rank for rank, players in held.items() if players > 1}


@dataclass(frozen=True)
class SwissTable:
    lines: list[Line]
    tie_breakers: tuple[tuple[str, str, str], ...]  # (key, label, explanation) in order
    scoring: Scoring
    placement_points: tuple[float, ...] = ()  # multiplayer tables: points by place, first first


def table(event) -> SwissTable:
    rows = compute(event)
    generals = General.objects.in_bulk([row.id for row in rows])
    keys = tie_breakers_of(event)
    labels = {t.key: t for t in event.game_system.tie_breakers}  # the keys were checked against these
    described = tuple((key, swiss_words(labels[key].label), swiss_words(labels[key].explanation))
                      for key in keys if key in labels)
    shared = shared_ranks(rows)
    return SwissTable(lines=[Line(rank=row.rank, general=generals[row.id], score=row.score, wins=row.wins,
                             draws=row.draws, losses=row.losses, byes=row.byes, tie_breaks=row.tie_breaks,
                             dropped=row.dropped, shared=row.rank in shared) for row in rows],
                 tie_breakers=described, scoring=scoring_of(event),
                 placement_points=placement_points_of(event))


def is_swiss(event) -> bool:
    return event.format == Event.Format.SWISS
