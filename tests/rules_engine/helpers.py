"""Small builders for replays on tiny battlefields (A1..A6 for p1, B1..B6 for p2, Arms = digit)."""
from __future__ import annotations

import copy

MOVE = {"act": "move"}


def army(letter: str) -> list[dict]:
    return [{"id": f"{letter}{arms}", "arms": arms} for arms in range(1, 7)]


def line_formation(width: int = 6, height: int = 3, p1: dict | None = None, p2: dict | None = None) -> list[dict]:
    """A1..A6 on row 1 facing N and B1..B6 on the top row facing S, alternating; `p1`/`p2` map an id to
    a zone (and optionally a facing as "zone:F") to place it elsewhere, in the given order first."""
    def side(letter, row, facing, moved):
        placed = []
        moved = moved or {}
        for ident, where in moved.items():
            zone, _, face = where.partition(":")
            placed.append((ident, zone, face or facing))
        for number in range(1, 7):
            ident = f"{letter}{number}"
            if ident not in moved:
                placed.append((ident, f"{chr(96 + number)}{row}", facing))
        return placed
    out = []
    for a, b in zip(side("A", 1, "N", p1), side("B", height, "S", p2), strict=True):
        out.append({"by": "p1", "battalion": a[0], "zone": a[1], "facing": a[2]})
        out.append({"by": "p2", "battalion": b[0], "zone": b[1], "facing": b[2]})
    return out


def replay(turns=(), result=None, *, width=6, height=3, formation=None, first="p1", params=None) -> dict:
    rules = {"variants": [], "board": {"width": width, "height": height}}
    if params is not None:
        rules["params"] = {"ma_by_arms": params}
    doc = {
        "format": "warline-replay", "version": 1, "meta": {},
        "rules": rules,
        "generals": {"p1": {"name": "Ann", "kingdom": "frost"}, "p2": {"name": "Ben", "kingdom": "flaym"}},
        "armies": {"p1": army("A"), "p2": army("B")},
        "formation": formation if formation is not None else line_formation(width, height),
        "first_turn": first,
        "turns": copy.deepcopy(list(turns)),
    }
    doc["result"] = result if result is not None else {"type": "unfinished"}
    return doc


def turn(by: str, *orders, **extra) -> dict:
    return {"by": by, **extra, "orders": list(orders)}


def maneuver(battalion: str, *actions) -> dict:
    return {"type": "maneuver", "battalion": battalion, "actions": list(actions)}


def face(to: str) -> dict:
    return {"act": "face", "to": to}
