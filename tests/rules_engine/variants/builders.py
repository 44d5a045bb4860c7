"""Replays for the variant tests: small battlefields, placements by id, and cases naming their rule.

Battalions are A1..A6 (p1) and B1..B6 (p2) with Arms equal to the digit unless `armies` says
otherwise; a placement maps an id to "zone" or "zone:F". Unplaced battalions stand on p1's row 1
(facing N) and p2's top row (facing S), in the column of their number (A3 on c1) or the next free one.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from rules_engine import adjudicate, replay_states

MOVE = {"act": "move"}


def army(letter: str, kingdom: str | None = None) -> list[dict]:
    out = [{"id": f"{letter}{arms}", "arms": arms} for arms in range(1, 7)]
    if kingdom is not None:
        for spec in out:
            spec["kingdom"] = kingdom
    return out


def formation(armies: dict, height: int, p1: dict | None, p2: dict | None, double_time: bool) -> list[dict]:
    sides = []
    for player, placed, home, facing in (("p1", p1 or {}, 1, "N"), ("p2", p2 or {}, height, "S")):
        entries = []
        taken = {where.partition(":")[0] for where in placed.values()}
        for column, spec in enumerate(armies[player]):
            ident = spec["id"]
            if ident in placed:
                zone, _, face = placed[ident].partition(":")
            else:
                while f"{chr(97 + column)}{home}" in taken:
                    column += 1
                zone, face = f"{chr(97 + column)}{home}", ""
                taken.add(zone)
            entries.append({"by": player, "battalion": ident, "zone": zone, "facing": face or facing})
        # Placed ones first, in the order given, so that a stack's bottom deploys before its top.
        order = list(placed)
        entries.sort(key=lambda e: order.index(e["battalion"]) if e["battalion"] in order else len(order))
        sides.append(entries)
    out = []
    step = 2 if double_time else 1
    ones, twos = sides
    while ones or twos:
        out.extend(ones[:step])
        out.extend(twos[:step])
        ones, twos = ones[step:], twos[step:]
    return out


def game(variants=(), turns=(), result=None, *, width=6, height=5, p1=None, p2=None, armies=None,
         kingdoms=("frost", "flaym"), terrain=None, control=None, first="p1", formation_entries=None) -> dict:
    armies = copy.deepcopy(armies) if armies is not None else {"p1": army("A"), "p2": army("B")}
    rules = {"variants": list(variants), "board": {"width": width, "height": height}}
    if terrain is not None:
        rules["terrain"] = terrain
    if control is not None:
        rules["control"] = control
    return {
        "format": "warline-replay", "version": 1, "meta": {},
        "rules": rules,
        "generals": {"p1": {"name": "Ann", "kingdom": kingdoms[0]}, "p2": {"name": "Ben", "kingdom": kingdoms[1]}},
        "armies": armies,
        "formation": formation_entries if formation_entries is not None else formation(
            armies, height, p1, p2, "double_time" in variants),
        "first_turn": first,
        "turns": copy.deepcopy(list(turns)),
        "result": result if result is not None else {"type": "unfinished"},
    }


def turn(by: str, *orders, **extra) -> dict:
    return {"by": by, **extra, "orders": list(orders)}


def maneuver(battalion: str, *actions) -> dict:
    return {"type": "maneuver", "battalion": battalion, "actions": list(actions)}


def face(to: str) -> dict:
    return {"act": "face", "to": to}


def art(name: str, **fields) -> dict:
    return {"act": name, **fields}


def stall(battalion: str | None = None, facing: str | None = None) -> dict:
    out = {"type": "stall"}
    if battalion is not None:
        out["battalion"] = battalion
    if facing is not None:
        out["facing"] = facing
    return out


def final_state(doc: dict):
    """The battle after the last turn of a valid replay."""
    return list(replay_states(doc))[-1].state


@dataclass
class Case:
    """One replay and what its verdict must show; `error` is (code, turn, order, action)."""

    name: str
    checks: str
    doc: dict
    error: tuple | None = None
    expect: dict = field(default_factory=dict)  # verdict keys that must match (valid replays)
    after: object = None  # a function of the final BattleState returning a list of problems

    def run(self) -> None:
        verdict = adjudicate(self.doc).to_dict()
        if self.error is None:
            assert verdict["valid"], f"{self.checks}: {verdict}"
            for key, value in self.expect.items():
                assert verdict[key] == value, f"{self.checks}: {key} is {verdict[key]!r}"
            if self.after is not None:
                problems = self.after(final_state(self.doc))
                assert not problems, f"{self.checks}: {problems}"
        else:
            assert not verdict["valid"], f"{self.checks}: expected {self.error[0]}, got a valid verdict"
            got = verdict["error"]
            code, *where = self.error
            assert got["code"] == code, f"{self.checks}: {got}"
            assert [got["turn"], got["order"], got["action"]][:len(where)] == list(where), f"{self.checks}: {got}"
            assert got["message"].endswith("."), got["message"]


def battalion_is(ident: str, **wanted):
    """An `after` check: the battalion's view has these values (arms, zone, place, facing, tokens)."""
    def check(state):
        view = state.battalion(ident)
        return [f"{ident}.{key} is {getattr(view, key)!r}, not {value!r}" for key, value in wanted.items()
                if getattr(view, key) != value]
    return check


def all_of(*checks):
    def check(state):
        return [problem for one in checks for problem in one(state)]
    return check
