"""Battlefield Terrain: every terrain's Move Onto cost and restrictions, terrain-to-terrain moves,
placement, routs onto chasm and cliffside, strongholds, the Forest fire and Closure (R18, R20, R55-R57)."""
import pytest

from rules_engine import battle_from_replay, load_replay

from .builders import MOVE, Case, all_of, battalion_is, game, maneuver, turn

TERRAIN = ("terrain",)
BOTH = ("terrain", "battle_arts")
# Arms -> MA (R1): A1 6, A2 5, A3 4, A4 3, A5 2, A6 1. A<n> stands on column n of row 1, facing N.
COLUMN = {f"A{n}": "abcdef"[n - 1] for n in range(1, 7)}


def onto(kind: str, ident: str, *extra_actions, control=None) -> dict:
    """`ident` moves one zone north onto `kind` (then does `extra_actions`)."""
    zone = f"{COLUMN[ident]}2"
    return game(TERRAIN, [turn("p1", maneuver(ident, MOVE, *extra_actions))], terrain={zone: kind}, control=control)


def cost_cases(kind: str, cost: int) -> list[Case]:
    """The battalion with exactly `cost` MA moves onto `kind`; one with a MA less cannot."""
    enough = f"A{7 - cost}"
    cases = [Case(f"terrain-{kind}-cost", f"Terrain: moving onto {kind} costs {cost} MA (R18)", onto(kind, enough),
                  after=battalion_is(enough, zone=f"{COLUMN[enough]}2"))]
    if cost > 1:
        short = f"A{8 - cost}"
        cases.append(Case(f"terrain-{kind}-cost-short", f"Terrain: {cost - 1} MA do not reach {kind} ({cost} MA)",
                          onto(kind, short), error=("not_enough_ma", 1, 1, 1)))
    return cases


def build_forbidden(kind: str) -> Case:
    return Case(f"terrain-{kind}-no-build", f"Terrain: no rampart is built on {kind}",
                game(TERRAIN, [turn("p1", maneuver("A1", {"act": "build", "zone": "a2"}))], terrain={"a2": kind}),
                error=("terrain_forbids_build", 1, 1, 1))


def no_entry(kind: str) -> list[Case]:
    return [
        Case(f"terrain-{kind}-no-move", f"Terrain: no battalion moves onto {kind}", onto(kind, "A1"),
             error=("impassable_terrain", 1, 1, 1)),
        Case(f"terrain-{kind}-no-deploy", f"Terrain: no battalion is deployed onto {kind}",
             game(TERRAIN, p1={"A1": "a2"}, terrain={"a2": kind}), error=("terrain_forbids_deploy", 0)),
        build_forbidden(kind),
    ]


def rout_onto(kind: str, from_kind: str | None = None) -> dict:
    """A2 moves from b2 to b3 and routs B1 from b4 onto c4, which is of `kind`."""
    terrain = {"c4": kind}
    if from_kind:
        terrain["b4"] = from_kind
    return game(TERRAIN, [turn("p1", maneuver("A2", MOVE, {"act": "rout", "target": "B1", "to": "c4"}))],
                p1={"A2": "b2"}, p2={"B1": "b4"}, terrain=terrain,
                control={"b4": "p2"} if from_kind == "stronghold" else None)


def marked_then_undertowed(ground: str, **third_turn) -> dict:
    """p2 marks B4 (a4) for Sacrifice; p1's Sey A1 (a2) undertows it onto a3, of `ground` (an Undertow is no
    attack and leaves the Sacrifice token, R47); p2's next turn starts with B4 marked there."""
    return game(BOTH, [turn("p2", {"type": "sacrifice", "battalion": "B4"}),
                       turn("p1", maneuver("A1", {"act": "undertow", "target": "B4"})),
                       turn("p2", maneuver("B1", MOVE), **third_turn)],
                kingdoms=("sey", "frost"), p1={"A1": "a2"}, p2={"B4": "a4"}, terrain={"a3": ground}, first="p2")


CLOSURE_ARMY = [1, 1, 1, 1, 4, 6]  # recruited: 14 <= 21, one of Arms 4+


def closure(p2_forest_stack=("B1", "B2", "B3", "B4"), prisoner=False) -> dict:
    """Each general stacks four Arms 1 battalions on a forest (p1 a1, p2 a5) and sacrifices the top one: the
    Forest fire (R55) slaughters the rest of the stack. After p2's fire both armies have two active
    battalions left, unless p2 stacked only three there, or B3 (on f4) was taken prisoner (a prisoner is
    active). Then A6 (Arms 6, 1 MA) moves onto f2, a mountain before Closure (R20)."""
    armies = {player: [{"id": f"{letter}{n}", "arms": arms} for n, arms in enumerate(CLOSURE_ARMY, 1)]
              for player, letter in (("p1", "A"), ("p2", "B"))}
    # A5 (8 MA from the sacrifice) may rout B3 off the battlefield from f3 first.
    a5 = [MOVE, MOVE, {"act": "face", "to": "E"}, MOVE, {"act": "face", "to": "N"},
          {"act": "rout", "target": "B3", "to": "off"}] if prisoner else [MOVE]
    turns = [turn("p1", {"type": "sacrifice", "battalion": "A4"}), turn("p2", {"type": "sacrifice", "battalion": "B4"}),
             turn("p1", maneuver("A5", *a5), sacrifice_beneficiary="A5"),
             turn("p2", maneuver("B5", MOVE), sacrifice_beneficiary="B5"),
             turn("p1", maneuver("A6", MOVE))]
    p2 = {ident: "a5" for ident in p2_forest_stack}
    if prisoner:
        p2["B3"] = "f4"
    return game(TERRAIN + ("army_recruiting",), turns, armies=armies, p1={f"A{n}": "a1" for n in range(1, 5)}, p2=p2,
                terrain={"a1": "forest", "a5": "forest", "f2": "mountain"})


def no_terrain_left(state):
    left = [name for name in state.board.names if state.terrain_at(name) is not None]
    return [f"terrain left on {', '.join(left)}"] if left else []


CASES = [
    *cost_cases("mountain", 3), *cost_cases("hills", 2), *cost_cases("forest", 3), *cost_cases("marsh", 4),
    *cost_cases("waterbody", 5), *cost_cases("ice", 4), *cost_cases("crag", 3), *cost_cases("populace", 2),
    *cost_cases("stronghold", 6),
    Case("terrain-flatland-cost", "Terrain: a zone without terrain is flatland, 1 MA",
         onto("hills", "A6") | {"rules": {**onto("hills", "A6")["rules"], "terrain": {"f3": "hills"}}},
         after=battalion_is("A6", zone="f2")),
    Case("terrain-valley-free", "Terrain: moving onto valley costs 0 MA (A6, 1 MA: valley then flatland)",
         game(TERRAIN, [turn("p1", maneuver("A6", MOVE, MOVE))], terrain={"f2": "valley"}),
         after=battalion_is("A6", zone="f3")),
    Case("terrain-valley-alone-spends-nothing", "Terrain with R29: a Maneuver of one valley move spends no MA",
         onto("valley", "A6"), error=("no_ma_spent", 1, 1, None)),
    Case("terrain-to-terrain", "Terrain: moving from hills onto mountain pays the destination only (3 MA)",
         game(TERRAIN, [turn("p1", maneuver("A3", MOVE, MOVE))], terrain={"c2": "valley", "c3": "mountain"}),
         after=battalion_is("A3", zone="c3")),
    *no_entry("chasm"), *no_entry("cliffside"),
    build_forbidden("marsh"), build_forbidden("waterbody"), build_forbidden("crag"),
    Case("terrain-build-on-hills", "Terrain: ramparts may be built on the other terrains (hills)",
         game(TERRAIN, [turn("p1", maneuver("A1", {"act": "build", "zone": "a2"}))], terrain={"a2": "hills"}),
         expect={"turns": 1}),
    Case("terrain-marsh-no-sacrifice", "Terrain: no Sacrifice is ordered on marsh",
         game(TERRAIN, [turn("p1", {"type": "sacrifice", "battalion": "A1"})], p1={"A1": "a2"},
              terrain={"a2": "marsh"}), error=("terrain_forbids_sacrifice", 1, 1)),
    Case("terrain-waterbody-no-sacrifice", "Terrain: no Sacrifice is ordered on waterbody",
         game(TERRAIN, [turn("p1", {"type": "sacrifice", "battalion": "A1"})], p1={"A1": "a2"},
              terrain={"a2": "waterbody"}), error=("terrain_forbids_sacrifice", 1, 1)),
    Case("terrain-forest-fire", "Terrain, R55: a battalion sacrificed on forest burns every forest traced back "
         "to it and each battalion there loses 2 Arms",
         game(TERRAIN, [turn("p1", {"type": "sacrifice", "battalion": "A1"}), turn("p2", {"type": "stall"}),
                        turn("p1", {"type": "stall"})],
              p1={"A1": "a2", "A3": "b2"}, terrain={"a2": "forest", "b2": "forest", "c2": "forest", "d1": "forest"}),
         after=lambda state: ([] if state.battalion("A3").arms == 1 and state.terrain_at("c2") is None
                              and state.terrain_at("d1") == "forest" and state.battalion("A1").place == "graveyard"
                              else ["the forest fire did not burn as R55 says"])),
    Case("terrain-chasm-no-extricate", "Terrain: no battalion is extricated onto chasm",
         game(TERRAIN, [turn("p1", maneuver("A2", MOVE, MOVE, {"act": "rout", "target": "B2", "to": "off"})),
                        turn("p2", {"type": "extricate", "battalion": "B2", "zone": "f5", "facing": "S"})],
              p1={"A2": "b2"}, p2={"B6": "f4"}, terrain={"f5": "chasm"}),
         error=("terrain_forbids_extricate", 2, 1)),
    Case("terrain-rout-into-chasm", "Terrain: a battalion routed onto chasm is slaughtered",
         rout_onto("chasm"), after=battalion_is("B1", place="graveyard")),
    Case("terrain-rout-onto-cliffside", "Terrain: a battalion routed from non-waterbody onto cliffside is "
         "slaughtered", rout_onto("cliffside"), after=battalion_is("B1", place="graveyard")),
    Case("terrain-cliffside-from-waterbody", "Terrain: a battalion on waterbody cannot be routed onto cliffside",
         rout_onto("cliffside", "waterbody"), error=("rout_onto_cliffside", 1, 1, 2)),
    Case("terrain-stronghold-rout-immune", "Terrain: a battalion on a stronghold cannot be routed",
         rout_onto("hills", "stronghold"), error=("rout_from_stronghold", 1, 1, 2)),
    Case("terrain-stronghold-routs-out", "Terrain: a battalion on a stronghold may rout one that is not",
         game(TERRAIN, [turn("p2", maneuver("B1", MOVE)),
                        turn("p1", maneuver("A2", {"act": "rout", "target": "B1", "to": "c3"}))],
              p1={"A2": "b2"}, p2={"B1": "b4"}, terrain={"b2": "stronghold"}, control={"b2": "p1"}, first="p2"),
         after=battalion_is("B1", zone="c3")),
    Case("terrain-populace-controller-deploys", "Terrain: the controlling general deploys onto populace",
         game(TERRAIN, p1={"A1": "a2"}, terrain={"a2": "populace"}, control={"a2": "p1"}), expect={"turns": 0}),
    Case("terrain-populace-not-controlled", "Terrain: a general who does not control a populace cannot deploy on it",
         game(TERRAIN, p1={"A1": "a2"}, terrain={"a2": "populace"}, control={"a2": "p2"}),
         error=("terrain_forbids_deploy", 0)),
    Case("terrain-stronghold-not-controlled", "Terrain: nobody deploys onto an uncontrolled stronghold",
         game(TERRAIN, p1={"A1": "a2"}, terrain={"a2": "stronghold"}), error=("terrain_forbids_deploy", 0)),
    Case("terrain-control-needs-populace", "Terrain, R56: rules.control names populace or stronghold zones only",
         game(TERRAIN, terrain={"a2": "hills"}, control={"a2": "p1"}), error=("bad_control", 0)),
    Case("terrain-zone-off-board", "Terrain: a terrain zone must lie on the battlefield",
         game(TERRAIN, terrain={"h9": "hills"}), error=("off_board", 0)),
    Case("terrain-middle-row-undeployable", "Terrain, R56: deployment by halves leaves the middle row to nobody",
         game(TERRAIN, p1={"A1": "a3"}, terrain={"b3": "hills"}), error=("not_deployment_row", 0)),
    Case("terrain-marsh-sacrifice-lapses", "Terrain, R55: a battalion marked for Sacrifice that stands on marsh "
         "when the sacrifice would resolve is not sacrificed: the token goes, it stays, no 8 MA",
         marked_then_undertowed("marsh"), after=battalion_is("B4", zone="a3", arms=4, tokens=("stun",))),
    Case("terrain-marsh-sacrifice-lapses-no-beneficiary", "Terrain, R55: a lapsed sacrifice on marsh completes "
         "nothing, so no sacrifice beneficiary may be named", marked_then_undertowed("marsh", sacrifice_beneficiary="B1"),
         error=("bad_sacrifice_beneficiary", 3, None)),
    Case("terrain-hills-sacrifice-resolves", "Terrain, R55: the same sacrifice on hills resolves and gives its "
         "beneficiary 8 MA", marked_then_undertowed("hills", sacrifice_beneficiary="B1"),
         after=battalion_is("B4", place="graveyard")),
    Case("terrain-closure", "Terrain, R20: at a turn end with two active battalions in each army all terrain is "
         "removed; a former mountain then costs 1 MA like flatland", closure(),
         after=all_of(battalion_is("A6", zone="f2"), no_terrain_left)),
    Case("terrain-closure-three-left", "Terrain, R20: with three battalions left in one army there is no Closure; "
         "the mountain still costs 3 MA", closure(("B1", "B2", "B4")), error=("not_enough_ma", 5, 1, 1)),
    Case("terrain-closure-prisoner-active", "Terrain, R20: a battalion in prison is still active, so two on the "
         "battlefield and one in prison prevent Closure", closure(("B1", "B2", "B4"), prisoner=True),
         error=("not_enough_ma", 5, 1, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_terrain(case):
    case.run()


def test_closure_removes_terrain_when_two_battalions_each_remain():
    """R20: at a turn end with exactly two active battalions each, every terrain is removed."""
    doc = game(TERRAIN, terrain={"c3": "mountain", "d3": "forest"})
    doc["turns"] = []
    replay = load_replay(doc)
    state = battle_from_replay(replay)
    for entry in replay.formation:
        state.deploy(entry)
    state.begin_battle("p1")
    for ident in ("A1", "A2", "A3", "A4", "B1", "B2", "B3"):
        state.slaughter(state.index[ident], 1 - state.owner[state.index[ident]])
    state.start_turn("p1")
    state.apply_order(load_replay({**doc, "turns": [turn("p1", maneuver("A5", MOVE))]}).turns[0].orders[0])
    state.end_turn()
    assert state.terrain_at("c3") == "mountain"  # p2 still has three
    state.slaughter(state.index["B4"], 0)
    state.start_turn("p2")
    state.apply_order(load_replay({**doc, "turns": [turn("p2", maneuver("B5", MOVE))]}).turns[0].orders[0])
    state.end_turn()
    assert state.terrain_at("c3") is None and state.terrain_at("d3") is None


def test_terrain_costs_show_in_reach():
    doc = game(TERRAIN, terrain={"a2": "mountain"})
    replay = load_replay(doc)
    state = battle_from_replay(replay)
    for entry in replay.formation:
        state.deploy(entry)
    state.begin_battle("p1")
    positions = {(p.zone, p.facing): p.ma_left for p in state.reach("A1").positions}
    assert positions[("a2", "N")] == 3 and positions[("a3", "N")] == 2
