"""Warlord: Saga of the Storm CCG (4th edition): deck lists and starting armies.

Spec: shared/spec/warlord-ccg-decks.md. Pure Python, no Django.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game_systems.base import Violation

from .checker import check, summary
from .options import Options, parse_options
from .pool import POOL_HEADER, Pool, PoolCard, parse_pool

__all__ = ["CHECKER", "Options", "Pool", "PoolCard", "WarlordCcgChecker", "check", "parse_options",
           "parse_pool", "summary"]


class WarlordCcgChecker:
    """The ListChecker of this game (game_systems.base.ListChecker)."""

    pool_label = "card pool"
    pool_header = POOL_HEADER

    def parse_pool(self, csv_text: str, *, options: Options | None = None) -> Pool:
        """The pool, read with the event's own faction aliases when its options add some (2.3)."""
        return parse_pool(csv_text, faction_aliases=options.faction_aliases if options else ())

    def parse_options(self, raw: Mapping[str, Any], *, has_pool: bool) -> Options:
        return parse_options(raw, has_pool=has_pool)

    def check(self, submission: Any, *, pool: Pool | None, options: Options | None) -> list[Violation]:
        return check(submission, pool=pool, options=options)

    def summary(self, submission: Any) -> str:
        return summary(submission)


CHECKER = WarlordCcgChecker()

