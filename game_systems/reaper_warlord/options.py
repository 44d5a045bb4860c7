"""The event's list options (spec section 2.4), with their defaults."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_systems.base import UnusableInput
from game_systems.reaper_warlord.vocabulary import as_json
from game_systems.text import whole_number

POOL, SELF_DESCRIBED = "pool", "self_described"
DEFAULT_POINTS_LIMIT = 1000  # RT2: "a 1000 point game is a good size" (RQ:126)
_TRUE_WORDS, _FALSE_WORDS = frozenset({"true", "yes", "1", "on"}), frozenset({"false", "no", "0", "off"})


@dataclass(frozen=True)
class Options:
    points_limit: int = DEFAULT_POINTS_LIMIT
    model_source: str = POOL
    # A4 is a ruling, not text, so the organizer may switch it off.
    unique_once_per_army: bool = True


KNOWN_OPTIONS = ("points_limit", "model_source", "unique_once_per_army")


def parse_options(raw: Mapping[str, Any] | None, *, has_pool: bool) -> Options:
    """The options with section 2.4's defaults filled in; UnusableInput names an unknown key or a bad value.

    A key given as null takes its default. `model_source` defaults to `pool` when a model list is uploaded.
    """
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise UnusableInput("The options must be a JSON object of option names and values.")
    unknown = [key for key in raw if key not in KNOWN_OPTIONS]
    if unknown:
        raise UnusableInput(f"“{unknown[0]}” is not a Reaper's Warlord list option; the options are "
                            f"{', '.join(KNOWN_OPTIONS)}.")
    given = {key: value for key, value in raw.items() if value is not None}
    model_source = _model_source(given.get("model_source", POOL if has_pool else SELF_DESCRIBED), has_pool)
    return Options(
        points_limit=_points_limit(given.get("points_limit", DEFAULT_POINTS_LIMIT)),
        model_source=model_source,
        unique_once_per_army=_switch("unique_once_per_army", given.get("unique_once_per_army", True)),
    )


def _points_limit(value: Any) -> int:
    # RT2: "any point value you choose"; a limit of 0 points would allow no army at all.
    number = whole_number(value)
    if number is None and isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number is None or number < 1:
        raise UnusableInput(f"The option “points_limit” must be a whole number of points, 1 or more "
                            f"(got {as_json(value)}).")
    return number


def _model_source(value: Any, has_pool: bool) -> str:
    if value not in (POOL, SELF_DESCRIBED):
        raise UnusableInput(f"The option “model_source” must be “{POOL}” or “{SELF_DESCRIBED}” "
                            f"(got {as_json(value)}).")
    if value == POOL and not has_pool:
        raise UnusableInput("The option “model_source” is “pool”, but this event has no model list; upload "
                            "one or let players describe their models (“self_described”).")
    return value


def _switch(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().casefold() in _TRUE_WORDS | _FALSE_WORDS:
        return value.strip().casefold() in _TRUE_WORDS
    raise UnusableInput(f"The option “{key}” must be true or false (got {as_json(value)}).")
