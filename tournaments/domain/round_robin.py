"""Round-robin schedules by Berger tables (the circle method as FIDE publishes it).

The last general listed holds a fixed seat; the others sit on a circle that turns by n/2 seats each
round. Turning by n/2 rather than by 1 makes almost every general change sides from one round to the
next, and the fixed general changes sides every round. For 1, 2, ... n in the input, round 1 is
1-n, 2-(n-1), ... exactly as in the FIDE table.

Groups are even (R25). An odd list (a league season, say) gets a bye each round: the general who
would meet the empty fixed seat sits that round out, so rounds have (n-1)/2 battles.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.errors import DomainError


@dataclass(frozen=True)
class Pairing:
    round: int  # 1-based
    number: int  # battle number within the group, 1-based, in round order
    first: str
    second: str


def round_robin(general_keys: Sequence[str]) -> list[Pairing]:
    """Every general meets every other exactly once; in each round every general plays once. Each
    general is listed first floor((n-1)/2) or ceil((n-1)/2) times. The schedule depends only on the
    input order. An odd or empty list is refused."""
    keys = list(general_keys)
    repeated = sorted(key for key, seen in Counter(keys).items() if seen > 1)
    if repeated:
        raise DomainError(f"A round robin needs each general once; {', '.join(repeated)} "
                          f"{'is' if len(repeated) == 1 else 'are'} listed more than once.", field="generals")
    n = len(keys)
    if n % 2 or n < 2:
        change = "add 2" if n == 0 else "add or remove 1"
        raise DomainError(f"A round robin group needs an even number of generals, at least 2 (R25); this one has "
                          f"{n}: {change}.", field="generals")
    fixed, circle = keys[-1], keys[:-1]
    pairings: list[Pairing] = []
    for round_index in range(n - 1):
        shift = (round_index * n // 2) % (n - 1)
        turned = circle[shift:] + circle[:shift]
        # The fixed seat alternates sides by round; on the circle the earlier seat is listed first.
        tables = [(turned[0], fixed) if round_index % 2 == 0 else (fixed, turned[0])]
        tables += [(turned[i], turned[n - 1 - i]) for i in range(1, n // 2)]
        for first, second in tables:
            pairings.append(Pairing(round=round_index + 1, number=len(pairings) + 1, first=first, second=second))
    return pairings
