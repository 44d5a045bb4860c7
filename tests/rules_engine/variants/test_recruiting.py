"""Army Recruiting: army size, equal counts, the Arms limit, a heavy battalion, ramparts by kingdom."""
import pytest

from .builders import MOVE, Case, battalion_is, game, maneuver, turn

RECRUIT = ("army_recruiting",)


def recruited(letter: str, arms: list[int], kingdoms: list[str] | None = None) -> list[dict]:
    out = []
    for number, value in enumerate(arms, 1):
        spec = {"id": f"{letter}{number}", "arms": value}
        if kingdoms and kingdoms[number - 1]:
            spec["kingdom"] = kingdoms[number - 1]
        out.append(spec)
    return out


SEVEN = [6, 5, 4, 3, 3, 2, 1]  # 24 = floor(3.5 x 7)
MIXED = ["sey", "timber", None, "blak", None, "sey", None]


def seven_a_side(turns=(), **options) -> dict:
    armies = {"p1": recruited("A", SEVEN, MIXED), "p2": recruited("B", SEVEN)}
    return game(RECRUIT, turns, width=7, armies=armies, **options)


def rampart_kingdoms(state):
    zone = state.board.index["a3"]
    return [] if state.ramparts[zone] == (0, "sey") else [f"a3 holds {state.ramparts[zone]}"]


CASES = [
    Case("recruit-seven-mixed-kingdoms", "Army Recruiting: 7 battalions of mixed kingdoms, combined Arms 24 = "
         "floor(3.5 x 7), one of Arms 4+ (the limit itself is allowed)",
         seven_a_side([turn("p1", maneuver("A1", {"act": "build", "zone": "a2"}))]), expect={"turns": 1}),
    Case("recruit-rampart-of-own-kingdom", "Army Recruiting, R53: a battalion builds a rampart of its own kingdom",
         seven_a_side([turn("p1", maneuver("A6", MOVE, {"act": "face", "to": "W"},
                                           {"act": "build", "zone": "a3"}))], p1={"A6": "b2"}),
         after=rampart_kingdoms),
    Case("recruit-no-rampart-of-kingdom-left", "Army Recruiting, R53: the general has one sey rampart per sey "
         "battalion; a third sey build finds none left",
         seven_a_side([turn("p1", maneuver("A6", {"act": "build", "zone": "f2"}, {"act": "build", "zone": "e2"},
                                           {"act": "build", "zone": "g2"}))]),
         error=("no_ramparts_left", 1, 1, 3)),
    Case("recruit-too-small", "Army Recruiting: an army needs at least 6 battalions",
         game(RECRUIT, armies={"p1": recruited("A", [6, 5, 4, 3, 2]), "p2": recruited("B", [6, 5, 4, 3, 2])}),
         error=("army_too_small", 0, None, None)),
    Case("recruit-sizes-differ", "Army Recruiting: both armies have the same number of battalions",
         game(RECRUIT, width=7, armies={"p1": recruited("A", [6, 5, 4, 3, 2, 1]),
                                        "p2": recruited("B", [6, 5, 4, 3, 2, 1, 1])}),
         error=("army_sizes_differ", 0, None, None)),
    Case("recruit-arms-over-limit", "Army Recruiting: combined Arms at most floor(3.5 x n) (22 > 21 for six)",
         game(RECRUIT, armies={"p1": recruited("A", [6, 6, 4, 3, 2, 1]), "p2": recruited("B", [6, 5, 4, 3, 2, 1])}),
         error=("army_arms_over_limit", 0, None, None)),
    Case("recruit-without-heavy", "Army Recruiting: at least one battalion of Arms 4 or more",
         game(RECRUIT, armies={"p1": recruited("A", [6, 5, 4, 3, 2, 1]), "p2": recruited("B", [3, 3, 3, 3, 3, 3])}),
         error=("army_without_heavy", 0, None, None)),
    Case("recruit-own-kingdom-destroys-free", "Army Recruiting with R40: a sey battalion of a frost general destroys "
         "a sey rampart for 0 MA (Arms 4 has 3 MA: build 1, destroy 0, move 1, face 1)",
         game(RECRUIT, [turn("p1", maneuver("A3", {"act": "build", "zone": "c2"}, {"act": "destroy", "zone": "c2"},
                                           MOVE, {"act": "face", "to": "E"}))],
             width=7, armies={"p1": recruited("A", [1, 2, 4, 3, 5, 6, 3], [None, None, "sey"] + [None] * 4),
                              "p2": recruited("B", SEVEN)}),
         after=battalion_is("A3", zone="c2", facing="E")),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_army_recruiting(case):
    case.run()
