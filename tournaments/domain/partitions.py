"""Qualifying groups (seed: Qualifying Stage; R25): an even number of groups, each of the same even size.

The software never invents another structure: it says which group counts a field allows and, when
it allows none, how many generals to register or remove.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from tournaments.domain.errors import DomainError, ngettext
from tournaments.domain.errors import gettext as _


def possible_partitions(n: int) -> list[tuple[int, int]]:
    """(group count, group size) pairs the rules allow for a field of n, fewest groups first.

    Both numbers are even and at least 2, so n must be a multiple of 4 (R25).
    """
    return [(count, n // count) for count in range(2, n // 2 + 1, 2)
            if n % count == 0 and (n // count) % 2 == 0]


def _join(phrases, word="or"):
    if len(phrases) == 1:
        return phrases[0]
    return f"{', '.join(phrases[:-1])} {word} {phrases[-1]}"


def _join_alternatives(phrases):
    if len(phrases) == 1:
        return phrases[0]
    return _("%(phrases)s or %(last)s") % {"phrases": ", ".join(phrases[:-1]), "last": phrases[-1]}


def check_partition(n: int, group_count: int) -> int:
    """The group size for `group_count` groups of a field of n, or a refusal naming what would work: the
    nearest fields that work are the multiples of 4 above and below (R25)."""
    partitions = possible_partitions(n)
    if not partitions:
        below = n - n % 4
        params = {"count": n, "more": below + 4 - n, "fewer": n - below}
        if below < 4:
            raise DomainError(ngettext("%(count)s general cannot form equal even groups: register %(more)s more.",
                                       "%(count)s generals cannot form equal even groups: register %(more)s more.",
                                       n) % params, field="group_count")
        raise DomainError(_("%(count)s generals cannot form equal even groups: register %(more)s more or remove "
                            "%(fewer)s.") % params, field="group_count")
    for count, size in partitions:
        if count == group_count:
            return size
    options = [ngettext("%(count)s group of %(size)s", "%(count)s groups of %(size)s", c) % {"count": c, "size": s}
               for c, s in partitions]
    raise DomainError(ngettext("%(count)s generals can form %(options)s; %(groups)s group is not one of them.",
                               "%(count)s generals can form %(options)s; %(groups)s groups is not one of them.",
                               group_count) % {"count": n, "options": _join_alternatives(options),
                                               "groups": group_count},
                      field="group_count")


def _generals_named(keys, word="General"):
    return f"{word}{'' if len(keys) == 1 else 's'} {_join(keys, 'and')}"


def _require_distinct(keys):
    repeated = sorted(key for key, seen in Counter(keys).items() if seen > 1)
    if repeated:
        raise DomainError(f"Each general can be placed once; {_generals_named(repeated, 'general')} "
                          f"{'is' if len(repeated) == 1 else 'are'} listed more than once.", field="generals")


def _chunk(keys, group_count):
    size = len(keys) // group_count
    return [keys[i * size:(i + 1) * size] for i in range(group_count)]


def assign_random(general_keys: Sequence[str], group_count: int, seed: int) -> list[list[str]]:
    """A reproducible random draw into `group_count` groups.

    Pass the generals in registration order: the same seed and the same order give the same groups,
    so anyone holding the published seed can repeat the draw. A different order is a different draw.
    """
    keys = list(general_keys)
    _require_distinct(keys)
    check_partition(len(keys), group_count)
    random.Random(seed).shuffle(keys)
    return _chunk(keys, group_count)


def assign_snake(seeded_keys: Sequence[str], group_count: int) -> list[list[str]]:
    """Serpentine seeding from a list in seed order (best first): seeds 1..k go to groups A..K, the
    next k from K back to A, and so on, so every group gets a similar spread of seeds."""
    keys = list(seeded_keys)
    _require_distinct(keys)
    check_partition(len(keys), group_count)
    groups = [[] for _ in range(group_count)]
    for position, key in enumerate(keys):
        lap, offset = divmod(position, group_count)
        groups[offset if lap % 2 == 0 else group_count - 1 - offset].append(key)
    return groups


def rating_order(entries: Sequence[tuple[str, float | None]]) -> list[str]:
    """Seed order by rating, best first, for `assign_snake`. `entries` are (key, rating or None) in
    registration order. The stated rule for the unrated: every rated general is seeded above every
    unrated one (a rating is evidence of strength, its absence is none); equal ratings and the unrated
    keep registration order, so the order is the same however often it is computed."""
    order = {key: position for position, (key, _) in enumerate(entries)}
    rated = sorted((e for e in entries if e[1] is not None), key=lambda e: (-e[1], order[e[0]]))
    unrated = [e for e in entries if e[1] is None]
    return [key for key, _ in rated + unrated]


def validate_manual(general_keys: Sequence[str], groups: Sequence[Sequence[str]]) -> None:
    """Refuses an organizer's own assignment unless every registered general is in exactly one group
    and the groups form a partition the rules allow (R25)."""
    registered = list(general_keys)
    placed = [key for group in groups for key in group]
    counts = Counter(placed)
    repeated = sorted((key for key, seen in counts.items() if seen > 1), key=placed.index)
    if repeated:
        raise DomainError(f"{_generals_named(repeated)} {'is' if len(repeated) == 1 else 'are'} placed in more "
                          "than one group; each general belongs to exactly one.", field="groups")
    known = set(registered)
    strangers = [key for key in placed if key not in known]
    if strangers:
        raise DomainError(f"{_generals_named(strangers)} {'is' if len(strangers) == 1 else 'are'} not registered; "
                          "only registered generals can be placed.", field="groups")
    missing = [key for key in registered if key not in counts]
    if missing:
        raise DomainError(f"Every registered general needs a group; missing: {', '.join(missing)}.",
                          field="groups")
    size = check_partition(len(registered), len(groups))
    sizes = [len(group) for group in groups]
    if any(s != size for s in sizes):
        raise DomainError(f"Every group needs {size} generals, but the groups have "
                          f"{_join([str(s) for s in sizes], 'and')}; move generals until the groups are equal.",
                          field="groups")
