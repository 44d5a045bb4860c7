"""A list typed as rows, for the page's form, turned into the game's list JSON (and back, to edit it).

A count may be written "3", "3x" or "3 ×"; a name may begin with an X ("2 X Marks the Spot").

Warlord CCG (one card per line; the starting count optional):
    1 Lord Xu, starting 1
    3 Dwarf Spearman, starting 2
    2 Healing Potion
Reaper's Warlord (the faction first; troops separated by a line "Troop" or an empty line):
    Faction: Crusaders
    1 Sir Brannoc
    6 Crusader Soldier

    1 Dragon
Attributes of self-described cards or models do not fit in rows: such lists are uploaded as JSON.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext as _

from tournaments.domain import DomainError

_CARD = re.compile(r"^(?P<count>\d+)(?:x|\s*×)?\s+(?P<name>.+?)(?:\s*,\s*starting\s+(?P<starting>\d+))?\s*$", re.I)
_MODEL = re.compile(r"^(?P<count>\d+)(?:x|\s*×)?\s+(?P<name>.+?)\s*$", re.I)
_FACTION = re.compile(r"^faction\s*:\s*(?P<faction>.+?)\s*$", re.I)
_TROOP = re.compile(r"^troop\b.*$", re.I)
MAX_ROWS = 500


def _refuse(number, line, shape):
    raise DomainError(_("Row %(number)s (“%(line)s”) is not %(shape)s.")
                      % {"number": number, "line": line[:60], "shape": shape}, field="rows")


def rows_to_list(game, text):
    """The list JSON of the rows, or a DomainError naming the first row that does not read."""
    lines = text.splitlines()
    if len(lines) > MAX_ROWS:
        raise DomainError(_("At most %(limit)s rows.") % {"limit": MAX_ROWS}, field="rows")
    if game == "warlord-ccg-4e":
        cards = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            match = _CARD.match(line.strip())
            if not match:
                _refuse(number, line, "“count name” or “count name, starting n”")
            card = {"name": match["name"], "count": int(match["count"])}
            if match["starting"] is not None:
                card["starting"] = int(match["starting"])
            cards.append(card)
        return {"game": game, "cards": cards}
    if game == "reaper-warlord":
        army = {"game": game, "troops": []}
        troop = []
        for number, line in enumerate([*lines, ""], start=1):
            stripped = line.strip()
            if not stripped or _TROOP.match(stripped):
                if troop:
                    army["troops"].append({"models": troop})
                troop = []
                continue
            faction = _FACTION.match(stripped)
            if faction:
                army["army_faction"] = faction["faction"]
                continue
            match = _MODEL.match(stripped)
            if not match:
                _refuse(number, line, "“Faction: name”, “Troop”, or “count name”")
            troop.append({"name": match["name"], "count": int(match["count"])})
        return army
    raise DomainError(_("This game's lists are uploaded as JSON."), field="rows")


def list_to_rows(game, content):
    """The rows of a list, when it has nothing rows cannot say; else "" (edit its JSON instead)."""
    if not isinstance(content, dict):
        return ""
    try:
        if game == "warlord-ccg-4e":
            rows = []
            for card in content["cards"]:
                if set(card) - {"name", "count", "starting"}:
                    return ""
                starting = f", starting {card['starting']}" if card.get("starting") else ""
                rows.append(f"{card.get('count', 1)} {card['name']}{starting}")
            return "\n".join(rows)
        if game == "reaper-warlord":
            rows = [f"Faction: {content['army_faction']}"] if content.get("army_faction") else []
            for index, troop in enumerate(content["troops"]):
                if index:
                    rows.append("")
                for model in troop["models"]:
                    if set(model) - {"name", "count"}:
                        return ""
                    rows.append(f"{model.get('count', 1)} {model['name']}")
            return "\n".join(rows)
    except (KeyError, TypeError):
        return ""
    return ""
