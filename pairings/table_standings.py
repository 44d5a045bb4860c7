"""Standings of multiplayer tables (Warlord CCG tables of 3 or 4): placement points, then tie-breakers.

Tables. Each `TableGame` is one decided table: the players seated, the order they were eliminated in,
and whether the game finished ("The last player in the game wins the fight", warlord-ccg-decks.md
section 6, PDF:5) or time ran out, leaving the players not eliminated still in. Every table is checked
as a report is (`tables.check_table_result`); a table seats at least two players and a player sits at
one table per round. The same table listed twice counts once.

Score: the sum over the player's tables of the placement points (`tables.placement_points`): the
organizer's `points_by_place`, first place first; players still in at an unfinished table share the
places they cover. The game text sets no scoring (section 6), so this is the event's choice.

Record: a win is a finished table the player won (sole first place); a draw is an unfinished table the
player was still in at (shared first place); every other table is a loss. Tables have no byes.

Tie-breakers (keys of TABLE_TIE_BREAKERS), applied one after the other as in Swiss standings:
  sos  strength of schedule: the sum of the scores of the player's table-mates, once per table (a
       table-mate met at two tables counts twice).
  omw  table-mates' win rate: the average over every table-mate at every table of that player's
       table wins / tables played, each floored at 1/3 as in Swiss standings. Only a sole first place
       is a win here; a shared first place at an unfinished table is not. A player with no tables has 0.
  h2h  head to head, among exactly the players tied on the score and every tie-breaker before it: the
       placement points each scored at the tables where at least one other of that group sat. It
       applies only when every two of the group have shared a table; otherwise, and for a player tied
       with nobody, the figure is 0 for all of them and decides nothing.
Players still equal after the last tie-breaker share the rank (1, 2, 2, 4), listed by id.

Dropped players keep their row (marked `dropped`) and their rank by the same figures, and their
tables keep counting for their table-mates' sos and omw.

Figures are computed as exact fractions and compared exactly (a shared 7/3 three times is exactly 7);
`score` and `tie_breaks` show them as floats.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pairings.swiss import SwissError, exact
from pairings.swiss_standings import (
    OMW_FLOOR,
    SwissRow,
    TieBreaker,
    check_standings_setup,
    ranked_groups,
    shared_ranks,
)
from pairings.tables import check_table_result, finishing_order


@dataclass(frozen=True)
class TableGame:  # one decided table
    round: int
    seats: tuple[int, ...]  # the players seated
    eliminations: tuple[int, ...]  # in order of elimination
    finished: bool  # False: time ran out; survivors = seats not eliminated

    @property
    def survivors(self) -> tuple[int, ...]:
        """The players not eliminated, in seat order: the winner alone once the game is finished."""
        out = set(self.eliminations)
        return tuple(player for player in self.seats if player not in out)


TABLE_TIE_BREAKERS: dict[str, TieBreaker] = {tb.key: tb for tb in (
    TieBreaker("sos", "Strength of schedule",
               "The sum of your table-mates' scores, once for every table you shared."),
    TieBreaker("omw", "Table-mates' win rate",
               "The average share of tables your table-mates won (only a sole first place is a win), each "
               "counted as at least 1/3."),
    TieBreaker("h2h", "Head to head",
               "Placement points scored at tables shared with the other tied players; used only when each "
               "of them has shared a table with all the others."),
)}


@dataclass(frozen=True)
class _Seat:  # one player's part in one table
    table: TableGame
    points: Fraction
    outcome: str  # "win" | "draw" | "loss"


def table_standings(players: Sequence[int], tables: Sequence[TableGame], points_by_place: Sequence[float],
                    tie_breakers: Sequence[str], dropped: frozenset[int] = frozenset()) -> list[SwissRow]:
    """Rows best first, one per player (see the module docstring for every figure)."""
    check_standings_setup(players, tie_breakers, dropped, allowed=TABLE_TIE_BREAKERS)
    seats = _seats(players, _checked_tables(players, tables), points_by_place)
    scores = {player: sum((seat.points for seat in own), Fraction(0)) for player, own in seats.items()}
    figures: dict[int, dict[str, Fraction]] = {player: {} for player in seats}
    for key in tie_breakers:
        for player in seats:
            # h2h depends on the tied group; it is set while the groups are cut (0 where it decides nothing)
            figures[player][key] = Fraction(0) if key == "h2h" else _FIGURES[key](player, seats, scores)
    groups = ranked_groups(scores, tie_breakers, figures, lambda group: _head_to_head(group, seats))
    rows = []
    for player, rank in shared_ranks(groups):
        outcomes = [seat.outcome for seat in seats[player]]
        rows.append(SwissRow(
            id=player, rank=rank, score=float(scores[player]), wins=outcomes.count("win"),
            draws=outcomes.count("draw"), losses=outcomes.count("loss"), byes=0,
            tie_breaks=tuple((key, float(figures[player][key])) for key in tie_breakers),
            dropped=player in dropped))
    return rows


def table_points(table: TableGame, points_by_place: Sequence[float]) -> dict[int, Fraction]:
    """The placement points of one checked table, exactly: the same figures as `tables.placement_points`,
    which gives floats (a share of 7/3 would not add up to exactly 7 over three tables)."""
    survivors = table.survivors
    order = finishing_order(table.eliminations, survivors)
    points = [exact(figure) for figure in points_by_place]
    points += [Fraction(0)] * (len(order) - len(points))
    shared = sum(points[:len(survivors)], Fraction(0)) / len(survivors)
    return {player: shared if place < len(survivors) else points[place] for place, player in enumerate(order)}


def _checked_tables(players, tables) -> list[TableGame]:
    """The tables once each, every one checked as a report (section 6) and against the field."""
    known = set(players)
    distinct = list(dict.fromkeys(tables))
    for table in distinct:
        _check_table(table, known)
    seated_at: dict[tuple[int, int], TableGame] = {}
    for table in distinct:
        for player in table.seats:
            if (table.round, player) in seated_at:
                raise SwissError(f"Round {table.round}: player {player} sits at two tables; a player has one "
                                 "table per round.")
            seated_at[(table.round, player)] = table
    return distinct


def _check_table(table, known):
    strangers = [player for player in dict.fromkeys(table.seats) if player not in known]
    if strangers:
        raise SwissError(f"Round {table.round}: player {strangers[0]} is seated but is not in the event's "
                         "players.")
    if len(table.seats) < 2:
        raise SwissError(f"Round {table.round}: a table needs at least two players; "
                         f"{'nobody sits' if not table.seats else f'player {table.seats[0]} sits alone'} "
                         "at this one.")
    survivors = table.survivors
    # the report names no winner: a finished table's is the first player not eliminated, and any other one
    # left over is then reported as neither eliminated nor the winner
    winner = survivors[0] if table.finished and survivors else None
    problems = check_table_result(table.seats, table.eliminations, winner, table.finished)
    if problems:
        raise SwissError(f"Round {table.round}: {' '.join(problems)}")


def _seats(players, tables, points_by_place) -> dict[int, list[_Seat]]:
    """Per player, their tables in round order with the points scored and the outcome."""
    seats: dict[int, list[_Seat]] = {player: [] for player in players}
    for table in sorted(tables, key=lambda table: table.round):
        for player, points in table_points(table, points_by_place).items():
            seats[player].append(_Seat(table, points, _outcome(player, table)))
    return seats


def _outcome(player, table: TableGame) -> str:
    """A win is a sole first place (a finished table); still in when time ran out is a shared first, a draw."""
    if player not in table.survivors:
        return "loss"
    return "win" if table.finished else "draw"


def _table_mates(player, seat: _Seat) -> list[int]:
    return [other for other in seat.table.seats if other != player]


def _sos(player, seats, scores):
    return sum((scores[mate] for seat in seats[player] for mate in _table_mates(player, seat)), Fraction(0))


def _table_win_rate(own: list[_Seat]) -> Fraction:
    if not own:
        return Fraction(0)
    return Fraction(sum(1 for seat in own if seat.outcome == "win"), len(own))


def _omw(player, seats, scores):
    rates = [max(OMW_FLOOR, _table_win_rate(seats[mate]))
             for seat in seats[player] for mate in _table_mates(player, seat)]
    if not rates:
        return Fraction(0)
    return sum(rates, Fraction(0)) / len(rates)


_FIGURES = {"sos": _sos, "omw": _omw}


def _head_to_head(group, seats) -> dict[int, Fraction]:
    members = set(group)
    shared_with = {player: {mate for seat in seats[player] for mate in _table_mates(player, seat)} & members
                   for player in group}
    if len(group) < 2 or any(shared_with[player] != members - {player} for player in group):
        return dict.fromkeys(group, Fraction(0))
    return {player: sum((seat.points for seat in seats[player] if set(_table_mates(player, seat)) & members),
                        Fraction(0)) for player in group}
