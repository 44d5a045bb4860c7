"""The army-list checks of spec section 3, with the rulings of section 4.

Spec: ../shared/spec/reaper-warlord-armies.md. Messages come in the spec's fixed order: data errors
(RW-E01, RW-E02), faction (RW-F00, RW-F01), troops (RW-T00 .. RW-T05), Unique (RW-U01), points (RW-P01).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_systems.base import UnusableInput, Violation
from game_systems.reaper_warlord.options import POOL, Options
from game_systems.reaper_warlord.pool import Pool
from game_systems.reaper_warlord.vocabulary import (
    ELITE,
    LEADER,
    PRINTED_CAPACITY,
    PRINTED_RANK,
    SOLDIER,
    SOLO,
    Capacity,
    as_json,
    capacity_from,
    category_of,
    display_name,
    rank_word,
    unique_word,
)
from game_systems.text import name_key, whole_number, word_key

GAME_ID = "reaper-warlord"
RANK_LIST = "Warlord, Captain, Sergeant, Elite, Soldier, Monster, Solitaire"
CAPACITY_KEYS = ("soldiers_min", "soldiers_max", "elites_max")
NOTHING = "nothing"  # `{v}` of RW-E02 when the field is missing
_MISSING = object()


@dataclass(frozen=True)
class Facts:
    """What the checks know of one model; None where the value is unknown (RW-E01) or invalid (RW-E02)."""

    name: str
    known: bool
    factions: tuple[str, ...] | None = None
    cost: int | None = None
    rank: str | None = None
    unique: bool = False
    capacity: Capacity | None = None

    @property
    def category(self) -> str | None:
        return category_of(self.rank) if self.rank else None


@dataclass
class TroopEntry:
    """One model name in one troop, its repeated entries merged (section 2.1): valid counts added up."""

    key: str
    facts: Facts
    count: int = 0

    @property
    def takes_part(self) -> bool:
        """Section 3: unknown names and invalid ranks stay out of the troop-structure checks; so do entries
        whose every count is invalid (their number of models is unknown)."""
        return self.facts.known and self.facts.rank is not None and self.count > 0

    def shown(self) -> str:
        # RW-T02 lists Leaders as `Name` or `Name ×k`.
        return self.facts.name if self.count == 1 else f"{self.facts.name} ×{self.count}"


@dataclass
class Troop:
    entries: list[TroopEntry]
    listed_entries: int  # model entries as submitted, before merging


def check(submission: Any, *, pool: Pool | None, options: Options) -> list[Violation]:
    """Every violation of `submission` (the parsed JSON of section 2.1), in the spec's order.

    Raises UnusableInput only when the list cannot be read at all.
    """
    raw_troops = _raw_troops(submission)
    if options.model_source == POOL and pool is None:
        raise UnusableInput("This event checks models against its model list, and no model list was given.")
    describe = _pool_describer(pool) if options.model_source == POOL else _self_described

    data_errors: list[Violation] = []
    troops = [_read_troop(raw_troop, describe, data_errors) for raw_troop in raw_troops]
    violations = _unique_in_order(data_errors)
    violations += _faction_violations(submission.get("army_faction"), troops)
    violations += _troop_violations(troops)
    if options.unique_once_per_army:
        violations += _unique_violations(troops)
    violations += _points_violations(troops, options.points_limit)
    return violations


# --- reading the list -------------------------------------------------------------------------------

def _raw_troops(submission: Any) -> list[list[tuple[str, Mapping[str, Any]]]]:
    """The troops as (name, entry) pairs; UnusableInput names the first thing that makes the list unreadable."""
    if not isinstance(submission, Mapping):
        raise UnusableInput("The list is not a JSON object; it must be an object with a “troops” list.")
    game = submission.get("game", GAME_ID)
    if game != GAME_ID:
        raise UnusableInput(f"The list is for the game {as_json(game)}, not Reaper's Warlord (“{GAME_ID}”).")
    troops = submission.get("troops")
    if not isinstance(troops, list):
        raise UnusableInput("The list has no “troops” list; give the army's troops as a JSON list.")
    read = []
    for number, troop in enumerate(troops, start=1):
        if not isinstance(troop, Mapping):
            raise UnusableInput(f"Troop {number} is not a JSON object; give it as {{\"models\": [...]}}.")
        models = troop.get("models")
        if not isinstance(models, list):
            raise UnusableInput(f"Troop {number} has no “models” list.")
        read.append([_named_entry(entry, number, position) for position, entry in enumerate(models, start=1)])
    return read


def _named_entry(entry: Any, troop: int, position: int) -> tuple[str, Mapping[str, Any]]:
    if not isinstance(entry, Mapping):
        raise UnusableInput(f"Troop {troop}, model entry {position} is not a JSON object; give it as "
                            f"{{\"name\": ..., \"count\": ...}}.")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise UnusableInput(f"Troop {troop}, model entry {position} has no name.")
    return display_name(name), entry


def _read_troop(raw_troop, describe, data_errors: list[Violation]) -> Troop:
    merged: dict[str, TroopEntry] = {}
    for name, entry in raw_troop:
        facts, attribute_errors = describe(name, entry)
        count = _count(entry)
        if count is None:
            data_errors.append(_e02(facts.name, f"the count must be a whole number of at least 1 "
                                                f"(got {_shown_value(entry, 'count')})"))
        data_errors.extend(attribute_errors)
        key = name_key(name)
        # Section 2.1: a name repeated inside one troop is merged, counts added, the first entry's facts kept.
        troop_entry = merged.setdefault(key, TroopEntry(key, facts))
        troop_entry.count += count or 0
    return Troop(list(merged.values()), listed_entries=len(raw_troop))


def _count(entry: Mapping[str, Any]) -> int | None:
    count = whole_number(entry.get("count", 1))
    return count if count is not None and count >= 1 else None


def _pool_describer(pool: Pool):
    def describe(name: str, entry: Mapping[str, Any]) -> tuple[Facts, list[Violation]]:
        model = pool.get(name)
        if model is None:
            return Facts(name=name, known=False), [Violation(
                "RW-E01", f"“{name}” is not in this event's model list, so it cannot be checked; ask the "
                          f"organizer to add it or correct the name.")]
        return Facts(name=model.name, known=True, factions=model.factions, cost=model.cost, rank=model.rank,
                     unique=model.unique, capacity=model.capacity), []
    return describe


def _self_described(name: str, entry: Mapping[str, Any]) -> tuple[Facts, list[Violation]]:
    """Section 2.2's attributes given in the entry itself; each bad one is an RW-E02, in the spec's order."""
    errors: list[Violation] = []
    cost = whole_number(entry.get("cost"))
    if cost is None or cost < 0:
        cost = None
        errors.append(_e02(name, f"the cost must be a whole number of points, 0 or more "
                                 f"(got {_shown_value(entry, 'cost')})"))

    rank, printed_unique, printed_capacity, rank_value = _described_rank(entry)
    if rank is None:
        errors.append(_e02(name, f"the rank must be one of {RANK_LIST} (got {_as_shown(rank_value)})"))

    capacity_value = _capacity_value(entry)
    capacity = _described_capacity(capacity_value) or printed_capacity
    if rank is not None and category_of(rank) == LEADER and capacity is None:
        errors.append(_e02(name, "a Leader needs a troop capacity (minimum and maximum Soldiers, maximum "
                                 f"Elites, minimum not above maximum) (got {_as_shown(capacity_value)})"))
    elif rank is not None and category_of(rank) != LEADER and (capacity_value not in (_MISSING, None)
                                                                 or printed_capacity is not None):
        errors.append(_e02(name, f"only Leader models have a troop capacity, and this model is a {rank}"))
        capacity = None

    factions, factions_value = _described_factions(entry)
    if factions is None:
        errors.append(_e02(name, f"the affiliation must name at least one faction (got {_as_shown(factions_value)})"))

    unique = entry.get("unique")
    if isinstance(unique, str):
        unique = unique_word(unique)
    unique = unique if isinstance(unique, bool) else printed_unique
    return Facts(name=name, known=True, factions=factions, cost=cost, rank=rank, unique=unique,
                 capacity=capacity), errors


def _described_rank(entry: Mapping[str, Any]):
    """(rank, Unq printed, printed capacity, the value read) from `rank`, or else the printed `rank_line`."""
    if entry.get("rank") is None and isinstance(entry.get("rank_line"), str):
        value = entry["rank_line"]
    else:
        value = entry.get("rank", _MISSING)
    if not isinstance(value, str):
        return None, False, None, value
    match = PRINTED_RANK.match(value.strip())
    if match is None:
        return None, False, None, value
    capacity = None
    if match.group(3):
        capacity = capacity_from(*(int(match.group(index)) for index in (4, 5, 6)))
    return rank_word(match.group(2)), match.group(1) is not None, capacity, value


def _capacity_value(entry: Mapping[str, Any]) -> Any:
    """`capacity` as given (null included), or the three numbers given flat in the entry, or _MISSING."""
    flat = {key: entry[key] for key in CAPACITY_KEYS if entry.get(key) is not None}
    if entry.get("capacity") is None and flat:
        return flat
    return entry.get("capacity", _MISSING)


def _described_capacity(value: Any) -> Capacity | None:
    if isinstance(value, Mapping):
        return capacity_from(*(_non_negative(value.get(key)) for key in CAPACITY_KEYS))
    if isinstance(value, str):
        match = PRINTED_CAPACITY.match(value.strip())
        if match:
            return capacity_from(*(int(group) for group in match.groups()))
    return None


def _non_negative(value: Any) -> int | None:
    number = whole_number(value)
    return number if number is not None and number >= 0 else None


def _described_factions(entry: Mapping[str, Any]) -> tuple[tuple[str, ...] | None, Any]:
    """`factions` (a list, or one semicolon-separated string), or the printed `affiliation` "Faction/Alignment"."""
    value = entry.get("factions")
    if value is None and isinstance(entry.get("affiliation"), str):
        value = entry["affiliation"]
        factions = _faction_words(value.rpartition("/")[0] or value)
        return factions, value
    if value is None:
        return None, entry.get("factions", _MISSING)
    if isinstance(value, str):
        return _faction_words(value), value
    if isinstance(value, list) and value and all(isinstance(item, str) and item.strip() for item in value):
        return tuple(display_name(item) for item in value), value
    return None, value


def _faction_words(text: str) -> tuple[str, ...] | None:
    words = tuple(display_name(part) for part in text.split(";") if part.strip())
    return words or None


def _shown_value(entry: Mapping[str, Any], key: str) -> str:
    return _as_shown(entry.get(key, _MISSING))


def _as_shown(value: Any) -> str:
    return NOTHING if value is _MISSING else as_json(value)


def _e02(name: str, problem: str) -> Violation:
    return Violation("RW-E02", f"“{name}”: {problem}.")


def _unique_in_order(violations: list[Violation]) -> list[Violation]:
    """One message per problem: the same unknown name or bad value in two troops is reported once."""
    return list(dict.fromkeys(violations))


# --- the checks -----------------------------------------------------------------------------------

def _first_facts(troops: list[Troop]) -> dict[str, Facts]:
    """Per distinct name (A10), the facts of its first entry in the list."""
    first: dict[str, Facts] = {}
    for troop in troops:
        for entry in troop.entries:
            first.setdefault(entry.key, entry.facts)
    return first


def _faction_violations(army_faction: Any, troops: list[Troop]) -> list[Violation]:
    """RT7, A2, A15: one declared faction, and every model must carry it."""
    if not isinstance(army_faction, str) or not army_faction.strip():
        return [Violation("RW-F00", "The list does not name the army's faction; every model must belong to it.")]
    army = display_name(army_faction)
    violations = []
    for facts in _first_facts(troops).values():
        if facts.known and facts.factions and word_key(army) not in {word_key(f) for f in facts.factions}:
            violations.append(Violation(
                "RW-F01", f"“{facts.name}” ({', '.join(facts.factions)}) cannot be fielded in a {army} army; "
                          f"only an army of its own faction can field it."))
    return violations


def _troop_violations(troops: list[Troop]) -> list[Violation]:
    """RT3, RT4, RT6 with A5-A7: the per-troop evaluation of section 3, in its order."""
    if not troops:
        return [Violation("RW-T00", "The army has no troops; an army is made of one or more troops.")]
    violations = []
    for number, troop in enumerate(troops, start=1):
        violations += _one_troop(number, troop)
    return violations


def _one_troop(number: int, troop: Troop) -> list[Violation]:
    members = [entry for entry in troop.entries if entry.takes_part]
    solos = [entry for entry in members if entry.facts.category == SOLO]
    leaders = [entry for entry in members if entry.facts.category == LEADER]
    if solos:
        size = sum(entry.count for entry in members)
        if size > 1:
            return [Violation("RW-T03", f"Troop {number} has {size} models including the Solo model "
                                        f"“{solos[0].facts.name}”; a Solo model must be a troop on its own.")]
        return []
    if not leaders:
        # Section 3: a troop made only of unknown or unreadable models gets no RW-T01; an empty one does.
        if members or troop.listed_entries == 0:
            return [Violation("RW-T01", f"Troop {number} has no Leader and is not a single Solo model; a troop "
                                        f"is either a Leader with Soldiers and Elites, or one Solo model on its "
                                        f"own.")]
        return []
    leader_count = sum(entry.count for entry in leaders)
    if leader_count > 1:
        names = ", ".join(entry.shown() for entry in leaders)
        return [Violation("RW-T02", f"Troop {number} has {leader_count} Leaders ({names}); a troop is led by "
                                    f"exactly one Leader.")]
    return _capacity_violations(number, leaders[0].facts, members)


def _capacity_violations(number: int, leader: Facts, members: list[TroopEntry]) -> list[Violation]:
    """RT6, A6: only Soldiers count toward the Soldier range, only Elites toward the Elite maximum."""
    capacity = leader.capacity
    if capacity is None:  # section 3: a Leader without a valid capacity gets no RW-T04 or RW-T05
        return []
    soldiers = sum(entry.count for entry in members if entry.facts.category == SOLDIER)
    elites = sum(entry.count for entry in members if entry.facts.category == ELITE)
    violations = []
    if not capacity.soldiers_min <= soldiers <= capacity.soldiers_max:
        violations.append(Violation(
            "RW-T04", f"Troop {number}, led by “{leader.name}”, has {soldiers} Soldiers; this Leader's troop "
                      f"capacity allows {capacity.soldiers_min} to {capacity.soldiers_max}."))
    if elites > capacity.elites_max:
        violations.append(Violation(
            "RW-T05", f"Troop {number}, led by “{leader.name}”, has {elites} Elites; this Leader's troop "
                      f"capacity allows at most {capacity.elites_max}."))
    return violations


def _unique_violations(troops: list[Troop]) -> list[Violation]:
    """A4: a Unique name at most once in the whole army, counted by copies."""
    totals: dict[str, int] = {}
    for troop in troops:
        for entry in troop.entries:
            totals[entry.key] = totals.get(entry.key, 0) + entry.count
    return [Violation("RW-U01", f"“{facts.name}” is Unique (Unq) and appears {totals[key]} times; an army may "
                                f"field it only once.")
            for key, facts in _first_facts(troops).items()
            if facts.known and facts.unique and totals[key] > 1]


def army_points(troops: list[Troop]) -> int:
    """RT1, A12: Σ cost × count over the models whose cost and count are known; nothing else is added."""
    return sum(entry.facts.cost * entry.count for troop in troops for entry in troop.entries
               if entry.facts.cost is not None)


def _points_violations(troops: list[Troop], limit: int) -> list[Violation]:
    """RT2, A1: at most the limit; there is no minimum."""
    total = army_points(troops)
    if total <= limit:
        return []
    return [Violation("RW-P01", f"The army costs {total} points; this event's limit is {limit} points "
                                f"({total - limit} over).")]


# --- descriptions for tables and results ------------------------------------------------------------

def _readable_troops(submission: Any, pool: Pool | None) -> list[Troop] | None:
    """The troops read with the pool if given (else the entries' own attributes), or None if unreadable."""
    try:
        raw_troops = _raw_troops(submission)
    except UnusableInput:
        return None
    describe = _pool_describer(pool) if pool is not None else _self_described
    return [_read_troop(raw_troop, describe, []) for raw_troop in raw_troops]


def model_costs(submission: Any, *, pool: Pool | None = None) -> dict[str, int]:
    """Normalised name -> cost of one model, for every model of the list whose cost is known.

    Section 6 proposes "the points value of enemy models destroyed" as tie-break data.
    """
    troops = _readable_troops(submission, pool) or []
    return {entry.key: entry.facts.cost for troop in troops for entry in troop.entries
            if entry.facts.cost is not None}


def summary(submission: Any, *, pool: Pool | None = None) -> str:
    """One line such as "Crusaders, 3 troops, 985 points"; the points only when every model's cost is known."""
    troops = _readable_troops(submission, pool)
    if troops is None:
        return "Not a readable Reaper's Warlord list"
    faction = submission.get("army_faction")
    parts = [display_name(faction) if isinstance(faction, str) and faction.strip() else "No faction named"]
    parts.append(f"{len(troops)} troop" + ("" if len(troops) == 1 else "s"))
    entries = [entry for troop in troops for entry in troop.entries]
    if all(entry.facts.cost is not None and entry.count > 0 for entry in entries):
        parts.append(f"{army_points(troops)} points")
    return ", ".join(parts)
