"""Reaper's Warlord (miniatures, quick start): the army-list format and its checks.

Spec: ../shared/spec/reaper-warlord-armies.md (rules RT1-RT9, rulings A1-A16). Pure Python, no Django.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game_systems.base import Violation
from game_systems.reaper_warlord import checker, options, pool
from game_systems.reaper_warlord.options import Options
from game_systems.reaper_warlord.pool import HEADER, Pool


class ReaperWarlordChecker:
    """The ListChecker of Reaper's Warlord: a model list (CSV), the event options, the checks."""

    pool_label = "model list"
    pool_header = HEADER

    def parse_pool(self, csv_text: str, *, options: Options | None = None) -> Pool:
        return pool.parse_pool(csv_text)  # no option changes how a model list reads

    def parse_options(self, raw: Mapping[str, Any], *, has_pool: bool) -> Options:
        return options.parse_options(raw, has_pool=has_pool)

    def check(self, submission: Any, *, pool: Pool | None, options: Options) -> list[Violation]:
        return checker.check(submission, pool=pool, options=options)

    def summary(self, submission: Any, *, pool: Pool | None = None) -> str:
        return checker.summary(submission, pool=pool)

    def model_costs(self, submission: Any, *, pool: Pool | None = None) -> dict[str, int]:
        return checker.model_costs(submission, pool=pool)


CHECKER = ReaperWarlordChecker()
