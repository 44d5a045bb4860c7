"""Swiss standings: score, then the event's tie-breakers in the order it chose, then a shared rank.

Games. Each `SwissGame` is one player's view of one decided game or bye. A game may be listed from
one side or from both; a side left out is taken as the mirror of the other (a win there is a loss
here) with 0 points destroyed. Both sides listed must agree (a win and a loss, or two draws), and a
player has at most one game or bye per round.

Score: wins, draws, losses and byes times the event's `Scoring`. Byes are counted apart from wins.

Tie-breakers (keys of TIE_BREAKERS), applied one after the other: players equal on the score and on
every tie-breaker before are ordered by the next one, highest first.
  sos  strength of schedule: the sum of the scores of the opponents, once per game (an opponent
       met twice counts twice); a bye adds nothing.
  sos_median  the same without the highest and the lowest of those scores, from three games on
       (median Buchholz); with fewer games it equals sos.
  omw  opponents' match-win rate: the average over the player's games of the opponent's win rate,
       (wins + draws / 2) / games played, floored at 1/3 as in card-game practice so one weak
       opponent does not sink a player. A draw is half a win whatever the event's scoring, and byes
       count in neither the opponent's wins nor games: a bye says nothing of how strong they are.
       A player with no games (byes only) has 0.
  h2h  head to head, among exactly the players tied on the score and every tie-breaker before it:
       the points (event scoring) each scored in games against the others of that group. It applies
       only when every two of the group have met; otherwise, and for a player tied with nobody, the
       figure is 0 for all of them and decides nothing.
  points_destroyed  the points value of enemy models destroyed over all games (Reaper's Warlord).
Players still equal after the last tie-breaker share the rank (1, 2, 2, 4); nothing breaks the tie
in secret. Rows of a shared rank are listed by id, which is only the order of listing.

Dropped players keep their row (marked `dropped`) and their rank by the same figures, and their
results keep counting for their opponents' sos and omw.

Figures are computed as exact fractions and compared exactly; `tie_breaks` shows them as floats.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pairings.swiss import SwissError, exact

OUTCOMES = ("win", "draw", "loss", "bye")
_MIRROR = {"win": "loss", "loss": "win", "draw": "draw"}
OMW_FLOOR = Fraction(1, 3)


@dataclass(frozen=True)
class SwissGame:  # one decided two-player game (or a bye)
    round: int
    player: int
    opponent: int | None  # None = bye
    outcome: str  # "win" | "draw" | "loss" (from player's view); a bye is "bye"
    points_destroyed: float = 0  # Reaper: points value of enemy models this player destroyed (0 if unknown)


@dataclass(frozen=True)
class Scoring:
    win: float = 3
    draw: float = 1
    loss: float = 0
    bye: float = 3

    def points(self, outcome: str) -> Fraction:
        return exact(getattr(self, outcome))


@dataclass(frozen=True)
class SwissRow:
    id: int
    rank: int
    score: float
    wins: int
    draws: int
    losses: int
    byes: int
    tie_breaks: tuple[tuple[str, float], ...]  # (key, figure) in the chosen order, the figures shown to players
    dropped: bool


@dataclass(frozen=True)
class TieBreaker:
    key: str
    label: str
    explanation: str


TIE_BREAKERS: dict[str, TieBreaker] = {tb.key: tb for tb in (
    TieBreaker("sos", "Strength of schedule",
               "The sum of your opponents' scores; a bye adds nothing."),
    TieBreaker("sos_median", "Median strength of schedule",
               "Strength of schedule without your highest- and lowest-scoring opponent (from three games on)."),
    TieBreaker("omw", "Opponents' win rate",
               "The average win rate of your opponents (a draw is half a win, byes left out), each counted "
               "as at least 1/3."),
    TieBreaker("h2h", "Head to head",
               "Points scored in games among the tied players; used only when each of them has met all the "
               "others."),
    TieBreaker("points_destroyed", "Points destroyed",
               "The total points value of enemy models you destroyed."),
)}


@dataclass
class _Record:
    games: list[tuple[int, str]]  # (opponent, outcome) per game played, byes left out
    byes: int = 0
    destroyed: Fraction = Fraction(0)

    def count(self, outcome: str) -> int:
        return sum(1 for _, result in self.games if result == outcome)


def swiss_standings(players: Sequence[int], games: Sequence[SwissGame], scoring: Scoring,
                    tie_breakers: Sequence[str], dropped: frozenset[int] = frozenset()) -> list[SwissRow]:
    """Rows best first, one per player (see the module docstring for every figure)."""
    check_standings_setup(players, tie_breakers, dropped)
    records = _records(players, games)
    scores = {player: _score(record, scoring) for player, record in records.items()}
    figures: dict[int, dict[str, Fraction]] = {player: {} for player in records}
    for key in tie_breakers:
        for player, record in records.items():
            # h2h depends on the tied group; it is set while the groups are cut (0 where it decides nothing)
            figures[player][key] = Fraction(0) if key == "h2h" else _FIGURES[key](record, records, scores)
    tied_groups = ranked_groups(scores, tie_breakers, figures,
                                lambda group: _head_to_head(group, records, scoring))
    rows = []
    for player, rank in shared_ranks(tied_groups):
        record = records[player]
        rows.append(SwissRow(
            id=player, rank=rank, score=float(scores[player]), wins=record.count("win"),
            draws=record.count("draw"), losses=record.count("loss"), byes=record.byes,
            tie_breaks=tuple((key, float(figures[player][key])) for key in tie_breakers),
            dropped=player in dropped))
    return rows


def check_standings_setup(players: Sequence[int], tie_breakers: Sequence[str], dropped: frozenset[int],
                          allowed: Mapping[str, TieBreaker] = TIE_BREAKERS) -> None:
    """Refuse (SwissError) a player listed twice, a tie-breaker not in `allowed` or chosen twice, or a dropped
    player who is not in the event."""
    if len(set(players)) != len(players):
        raise SwissError("Standings list each player once; a player is listed more than once.")
    unknown = [key for key in tie_breakers if key not in allowed]
    if unknown:
        raise SwissError(f"Unknown tie-breaker {', '.join(map(repr, unknown))}; choose from "
                         f"{', '.join(allowed)}.")
    if len(set(tie_breakers)) != len(tie_breakers):
        raise SwissError("Each tie-breaker can be chosen once; one is listed twice.")
    strangers = sorted(set(dropped) - set(players))
    if strangers:
        raise SwissError(f"Dropped player {', '.join(map(str, strangers))} is not in the event's players.")


def _records(players, games) -> dict[int, _Record]:
    """Per player, the games and byes, each game once per side (the missing side mirrored)."""
    known = set(players)
    stated: dict[tuple[int, int], SwissGame] = {}
    for game in games:
        _check_game(game, known)
        slot = (game.round, game.player)
        if slot in stated and stated[slot] != game:
            raise SwissError(f"Player {game.player} has two different results in round {game.round}; "
                             "keep one.")
        stated[slot] = game
    views = dict(stated)
    for (round_number, player), game in stated.items():
        if game.opponent is None:
            continue
        other = views.get((round_number, game.opponent))
        if other is None:
            views[(round_number, game.opponent)] = SwissGame(round_number, game.opponent, player,
                                                             _MIRROR[game.outcome])
        elif other.opponent != player or other.outcome != _MIRROR[game.outcome]:
            raise SwissError(f"Round {round_number}: the results of players {player} and {game.opponent} "
                             "disagree; correct one side.")
    records = {player: _Record(games=[]) for player in players}
    for (_round, player), game in sorted(views.items()):
        record = records[player]
        record.destroyed += exact(game.points_destroyed)
        if game.opponent is None:
            record.byes += 1
        else:
            record.games.append((game.opponent, game.outcome))
    return records


def _check_game(game, known):
    if game.outcome not in OUTCOMES:
        raise SwissError(f"Round {game.round}: {game.outcome!r} is not a result; use win, draw, loss or bye.")
    if (game.opponent is None) != (game.outcome == "bye"):
        raise SwissError(f"Round {game.round}: player {game.player} has a bye only when no opponent is "
                         "given, and needs an opponent for a win, draw or loss.")
    for player in (game.player, game.opponent):
        if player is not None and player not in known:
            raise SwissError(f"Round {game.round}: player {player} has a result but is not in the event's "
                             "players.")
    if game.player == game.opponent:
        raise SwissError(f"Round {game.round}: player {game.player} cannot play themselves.")


def _score(record: _Record, scoring: Scoring) -> Fraction:
    return sum((scoring.points(outcome) for _, outcome in record.games), Fraction(0)) + \
        record.byes * scoring.points("bye")


def _sos(record, records, scores):
    return sum((scores[opponent] for opponent, _ in record.games), Fraction(0))


def _sos_median(record, records, scores):
    faced = sorted(scores[opponent] for opponent, _ in record.games)
    if len(faced) >= 3:
        faced = faced[1:-1]
    return sum(faced, Fraction(0))


def _win_rate(record: _Record) -> Fraction:
    if not record.games:
        return Fraction(0)
    return Fraction(2 * record.count("win") + record.count("draw"), 2 * len(record.games))


def _omw(record, records, scores):
    if not record.games:
        return Fraction(0)
    rates = [max(OMW_FLOOR, _win_rate(records[opponent])) for opponent, _ in record.games]
    return sum(rates, Fraction(0)) / len(rates)


def _points_destroyed(record, records, scores):
    return record.destroyed


_FIGURES = {"sos": _sos, "sos_median": _sos_median, "omw": _omw, "points_destroyed": _points_destroyed}


def _head_to_head(group, records, scoring) -> dict[int, Fraction]:
    members = set(group)
    met = {player: {opponent for opponent, _ in records[player].games} & members for player in group}
    if len(group) < 2 or any(met[player] != members - {player} for player in group):
        return dict.fromkeys(group, Fraction(0))
    return {player: sum((scoring.points(outcome) for opponent, outcome in records[player].games
                         if opponent in members), Fraction(0)) for player in group}


HeadToHead = Callable[[list[int]], dict[int, Fraction]]  # a tied group -> each member's h2h figure


def ranked_groups(scores: Mapping[int, Fraction], tie_breakers: Sequence[str],
                  figures: dict[int, dict[str, Fraction]], head_to_head: HeadToHead) -> list[list[int]]:
    """The players cut into groups equal on the score and on every tie-breaker, best group first.

    `figures[player][key]` holds each tie-breaker's figure. "h2h" depends on the tied group, so it is
    worked out by `head_to_head(group)` while the groups are cut and written into `figures`; a player
    no longer tied with anyone keeps what `figures` held (0)."""
    by_score = defaultdict(list)
    for player, score in scores.items():
        by_score[score].append(player)
    groups = []
    for score in sorted(by_score, reverse=True):
        groups += _split(by_score[score], list(tie_breakers), figures, head_to_head)
    return groups


def shared_ranks(groups: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """(player, rank) best first: a group shares the rank after everyone ahead (1, 2, 2, 4), listed by id."""
    ranked, ahead = [], 0
    for group in groups:
        ranked += [(player, ahead + 1) for player in sorted(group)]
        ahead += len(group)
    return ranked


def _split(group, keys, figures, head_to_head) -> list[list[int]]:
    """The group (equal so far) cut into runs of players equal on every figure, best run first."""
    if not keys or len(group) == 1:
        return [group]
    key, rest = keys[0], keys[1:]
    if key == "h2h":
        for player, figure in head_to_head(group).items():
            figures[player][key] = figure
    runs = defaultdict(list)
    for player in group:
        runs[figures[player][key]].append(player)
    return [part for figure in sorted(runs, reverse=True)
            for part in _split(runs[figure], rest, figures, head_to_head)]
