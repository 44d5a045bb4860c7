"""The games an event can be played in, each a plug-in of its own.

A game system is one package under `game_systems/` (pure Python, no Django) that defines a
`GameSystem` (`game_systems.base`): its list format and checker (none for WARLINE), the result kinds
and the facts a result records, the formats it allows, its default scoring and tie-breakers, and
whether the rules engine adjudicates its battles (WARLINE only).

Adding a game: write `game_systems/<your_game>/` with a `SYSTEM`, and add its module path to
`_SYSTEM_MODULES` below. Events offer it from then on; its list checks run in the pages, the API and
`python manage.py check_list --game <slug>`.
"""
from __future__ import annotations

import importlib
from functools import cache

from game_systems.base import GameSystem

DEFAULT_GAME = "warline"

# One line per game: slug -> the module holding its SYSTEM.
_SYSTEM_MODULES: dict[str, str] = {
    "warline": "game_systems.warline.system",
    "warlord-ccg-4e": "game_systems.warlord_ccg.system",
    "reaper-warlord": "game_systems.reaper_warlord.system",
}


class UnknownGame(KeyError):
    def __str__(self):
        return (f"{self.args[0]!r} is not a game this site runs; choose one of "
                f"{', '.join(_SYSTEM_MODULES)}.")


@cache
def get(slug: str) -> GameSystem:
    if slug not in _SYSTEM_MODULES:
        raise UnknownGame(slug)
    system = importlib.import_module(_SYSTEM_MODULES[slug]).SYSTEM
    assert system.slug == slug, f"{_SYSTEM_MODULES[slug]} defines {system.slug!r}, registered as {slug!r}"
    return system


def all_systems() -> tuple[GameSystem, ...]:
    return tuple(get(slug) for slug in _SYSTEM_MODULES)


def choices() -> list[tuple[str, str]]:
    """(slug, name) for a form's or a model field's choices."""
    return [(system.slug, system.name) for system in all_systems()]
