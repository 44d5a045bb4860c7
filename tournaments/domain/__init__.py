"""The organized-play rules (seed: Organized Play; rulings R21-R25) as plain functions and values.

Standard library only: no Django, no database. The services, views, API and commands are thin
adapters around these; general ids are strings throughout.
"""
from tournaments.domain.errors import Conflict, DomainError, NotAllowed
from tournaments.domain.opp import DEFAULT_FORFEIT_AWARD, OPP_FOR_CONDITION, ForfeitAward, opp_awards
from tournaments.domain.outcomes import VICTORY_CONDITIONS, BattleResult, Kind, Outcome
from tournaments.domain.partitions import (
    assign_random,
    assign_snake,
    check_partition,
    possible_partitions,
    rating_order,
    validate_manual,
)
from tournaments.domain.playoffs import PlayoffState, next_playoff_pairings
from tournaments.domain.round_robin import Pairing, round_robin
from tournaments.domain.standings import (
    COUNTERS,
    METRICS_BY_KEY,
    TIEBREAKERS,
    Decision,
    Metric,
    StandingRow,
    compute_standings,
    decide_champion,
    decide_place,
    general_order,
    rank_tallies,
)

__all__ = [
    "COUNTERS", "rank_tallies",
    "DEFAULT_FORFEIT_AWARD", "METRICS_BY_KEY", "OPP_FOR_CONDITION", "TIEBREAKERS", "VICTORY_CONDITIONS",
    "BattleResult", "Conflict", "Decision", "DomainError", "ForfeitAward", "Kind", "Metric", "NotAllowed",
    "Outcome", "Pairing", "PlayoffState", "StandingRow", "assign_random", "assign_snake", "check_partition", "compute_standings",
    "decide_champion", "decide_place", "general_order", "next_playoff_pairings", "opp_awards", "possible_partitions", "round_robin",
    "rating_order", "validate_manual",
]
