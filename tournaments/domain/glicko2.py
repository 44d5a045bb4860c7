"""Glicko-2, as Mark Glickman published it ("Example of the Glicko-2 system", 2013): one rating
period's update of a player from the games of that period, the new volatility found by the Illinois
algorithm (epsilon 0.000001). Ratings go in and out on the Glicko scale (1500 / 350 / 0.06 for a
new player); the Glicko-2 scale is used inside only.

Written here rather than taken from PyPI: the `glicko2` package (2.1.0, January 2024) is a 2009
port with a mutable `Player` updated in place and the system constant a class attribute, and it
ships no tests; the other packages of that name are single 0.x releases. The algorithm is short,
and a pure function of immutable values is what a recomputation from the record needs (R98).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 step 2: the Glicko scale's points per Glicko-2 unit
BASE = 1500.0
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5  # the system constant: how fast the volatility may change
EPSILON = 0.000001  # the Illinois algorithm's convergence tolerance


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm (a regula falsi that halves the stale end)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low = f_low / 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period of `games`: (the opponent's rating at the start of
    the period, the player's score: 1 a win, 0.5 a draw, 0 a loss). No games: `idle` for one period."""
    if not games:
        return idle(player)
    mu = (player.rating - BASE) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    terms = []  # (g(phi_j), E, s) per game
    for opponent, score in games:
        mu_j = (opponent.rating - BASE) / SCALE
        phi_j = opponent.deviation / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    new_sigma = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(rating=new_mu * SCALE + BASE, deviation=new_phi * SCALE, volatility=new_sigma)


def idle(player: Rating, periods: int = 1, ceiling: float = DEFAULT_DEVIATION) -> Rating:
    """A player who does not play for `periods` rating periods: the rating and volatility stay, the
    deviation grows by step 6 each period (phi' = sqrt(phi^2 + sigma^2), so after n periods
    sqrt(phi^2 + n sigma^2)), never above `ceiling`, a new player's uncertainty (R98)."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility * player.volatility) * SCALE
    return Rating(rating=player.rating, deviation=min(grown, max(ceiling, player.deviation)),
                  volatility=player.volatility)
