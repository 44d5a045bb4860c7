"""Battle Arts of the five kingdoms: each art used legally and refused where it breaks its rule
(kingdom, Arms, cost, range, ramparts, terrain), the passive arts, and the arts in the Blunt and
Paralyze verdicts (R12, R13, R16, R17, R47-R48, R55, R57-R67)."""
import pytest

from .builders import MOVE, Case, all_of, army, art, battalion_is, game, maneuver, turn

ARTS = ("battle_arts",)
BOTH = ("battle_arts", "terrain")


def p1_plays(kingdom: str, *actions_by, variants=ARTS, **options) -> dict:
    """Player-1 (of `kingdom`) plays the given (battalion, actions) maneuvers on alternate turns."""
    turns = []
    for number, (ident, actions) in enumerate(actions_by):
        if number:
            turns.append(turn("p2", maneuver(f"B{number}", MOVE)))
        turns.append(turn("p1", maneuver(ident, *actions)))
    return game(variants, turns, kingdoms=(kingdom, "sey"), **options)


def terrain_is(**wanted):
    def check(state):
        return [f"{zone} is {state.terrain_at(zone)!r}, not {kind!r}" for zone, kind in wanted.items()
                if state.terrain_at(zone) != kind]
    return check


BUILD_A2 = {"act": "build", "zone": "a2"}
SNOWBLIND = {"act": "move", "snowblind": True}


def ramparts_are(zone, owners):
    def check(state):
        return [] if state.ramparts_at(zone) == owners else [f"{zone} holds {state.ramparts_at(zone)}"]
    return check


def claim_is(condition: str, accepted: bool, reason: str | None = None) -> dict:
    """The `expect` of a claim by p1: accepted (a victory) or rejected with `reason`."""
    claim = {"by": "p1", "condition": condition, "accepted": accepted}
    if not accepted:
        claim["reason"] = reason
    return {"claim": claim, "outcome": "victory" if accepted else "unfinished",
            "winner": "p1" if accepted else None}


def burn_beside(enemy_kingdom: str) -> dict:
    """Flaym A1 moves to a3 and burns; B2 (Arms 2) stands next to it on a4 and moves on the next turn."""
    return game(ARTS, [turn("p1", maneuver("A1", MOVE, art("burn"))), turn("p2", maneuver("B2", MOVE))],
                kingdoms=("flaym", enemy_kingdom), p1={"A1": "a2"}, p2={"B2": "a4:E"})


def forest_fire(kingdom: str) -> dict:
    """A1 is sacrificed on forest a2; A2 on the forest b2 next to it maneuvers with the 8 MA afterwards."""
    return game(BOTH, [turn("p1", {"type": "sacrifice", "battalion": "A1"}), turn("p2", maneuver("B1", MOVE)),
                       turn("p1", maneuver("A2", MOVE), sacrifice_beneficiary="A2")],
                kingdoms=(kingdom, "sey"), p1={"A1": "a2", "A2": "b2"}, terrain={"a2": "forest", "b2": "forest"})


SIX_RAMPARTS = [{"act": "build", "zone": zone} for zone in ("a2", "b2", "c2", "a3", "b3", "c3")]


def harvest(kingdom: str, own: bool) -> dict:
    """A1 builds all six of p1's ramparts (a2-c2, a3-c3); B4 builds one on d3; A4 (Arms 4, on d2) destroys an
    own rampart (c2, turning W) or the enemy's (d3) and builds on it again, which only Harvest allows."""
    zone, turning = ("c2", [{"act": "face", "to": "W"}]) if own else ("d3", [])
    return game(ARTS, [turn("p1", maneuver("A1", *SIX_RAMPARTS)),
                       turn("p2", maneuver("B4", {"act": "build", "zone": "d3"})),
                       turn("p1", maneuver("A4", *turning, {"act": "destroy", "zone": zone},
                                           {"act": "build", "zone": zone}))],
                kingdoms=(kingdom, "sey"), p1={"A4": "d2"}, p2={"B4": "d4"})


def recruited_architect() -> dict:
    """A Timber general whose A1 is a recruited Sey battalion builds on marsh."""
    armies = {"p1": [{"id": "A1", "arms": 1, "kingdom": "sey"}] + [{"id": f"A{n}", "arms": n} for n in range(2, 7)],
              "p2": [{"id": f"B{n}", "arms": n} for n in range(1, 7)]}
    return game(BOTH + ("army_recruiting",), [turn("p1", maneuver("A1", BUILD_A2))], kingdoms=("timber", "sey"),
                armies=armies, terrain={"a2": "marsh"})


def overgrow_enemy(*actions) -> dict:
    """B1 (Sey) builds a rampart on a4; Timber A1, on a2, then acts."""
    return game(ARTS, [turn("p2", maneuver("B1", {"act": "build", "zone": "a4"})), turn("p1", maneuver("A1", *actions))],
                kingdoms=("timber", "sey"), p1={"A1": "a2"}, first="p2")


def descend_onto_enemy(zone: str) -> dict:
    """A1 builds on a2, A6 alights on it and then descends north onto B1 (placed on `zone`, moved to a3)."""
    return p1_plays("frost", ("A1", [BUILD_A2]), ("A6", [art("alight", zone="a2", facing="N")]),
                    ("A6", [art("descend", to="N")]), p2={"B1": zone})


def blunt_claim(enemy_kingdom: str, variants=BOTH, stacked=False) -> dict:
    """p1 claims Blunt. p2's battalions stand on row 13, out of reach of p1's on row 1; B6 (Arms 6, 1 MA)
    alone on a13 (or on B1 when `stacked`) faces A1 down column a, with marsh ahead on a12 where no rampart
    is built, and every other Arms 4+ one is beneath another (no destroying from a stack)."""
    placed = ({"B1": "a13", "B6": "a13"} if stacked else {"B6": "a13", "B1": "b13"}) | {
        "B4": "b13", "B2": "b13", "B5": "c13", "B3": "c13"}
    return game(variants, [turn("p1", maneuver("A5", MOVE))], {"type": "claim", "by": "p1", "condition": "blunt"},
                height=13, kingdoms=("sey", enemy_kingdom), terrain={"a12": "marsh"}, p2=placed)


def forge_blunt_claim(a2: str) -> dict:
    """p1 claims Blunt. Row 4 and b5, d5, f5 are chasm; Blak B1 (Arms 1, 6 MA) alone on a5 faces S across the
    chasm a4; p2's other battalions are stacked (no destroying, R32) and boxed in. A2 stands on `a2`."""
    chasm = {f"{column}4": "chasm" for column in "abcdef"} | {"b5": "chasm", "d5": "chasm", "f5": "chasm"}
    return game(BOTH, [turn("p1", maneuver("A5", MOVE))], {"type": "claim", "by": "p1", "condition": "blunt"},
                kingdoms=("sey", "blak"), terrain=chasm, p1={"A2": a2},
                p2={"B1": "a5", "B4": "c5", "B2": "c5", "B5": "e5", "B6": "e5", "B3": "e5"})


def alight_blunt_claim(sacrifice: bool, second_rampart: bool = False) -> dict:
    """p1 claims Blunt. Row 4 but b4, and d5, f5 are chasm; B1 (Arms 1) builds a rampart on b5 that no p2
    battalion can destroy where it stands (B2..B5 are stacked on c5); Frost B6 (1 MA) stands alone on e5, A2
    on b2. With a sacrifice of p2's completing next turn B6 has 8 MA: Alight on b5, Descend to b4, and more.
    With `second_rampart` B1 builds a second rampart on b4 instead of the third turn's Stall."""
    chasm = {f"{column}4": "chasm" for column in "acdef"} | {"d5": "chasm", "f5": "chasm"}
    third = {"type": "sacrifice", "battalion": "B5"} if sacrifice else {"type": "stall"}
    if second_rampart:
        third = maneuver("B1", {"act": "build", "zone": "b4"})
    turns = [turn("p2", maneuver("B1", {"act": "build", "zone": "b5"})), turn("p1", maneuver("A5", MOVE)),
             turn("p2", third), turn("p1", maneuver("A4", MOVE))]
    return game(BOTH, turns, {"type": "claim", "by": "p1", "condition": "blunt"}, kingdoms=("sey", "frost"),
                terrain=chasm, first="p2", p1={"A2": "b2"},
                p2={"B1": "a5", "B2": "c5", "B3": "c5", "B4": "c5", "B5": "c5", "B6": "e5"})


def paralyze_claim(enemy_kingdom: str) -> dict:
    """p1 claims Paralyze. Row 4 and b5, d5, f5 are chasm: p2's stacks on a5 (B6 on B1), c5 and e5 can
    never move out; B6 faces A1 down column a across the chasm."""
    chasm = {f"{column}4": "chasm" for column in "abcdef"} | {"b5": "chasm", "d5": "chasm", "f5": "chasm"}
    return game(BOTH, [turn("p1", maneuver("A5", MOVE))], {"type": "claim", "by": "p1", "condition": "paralyze"},
                kingdoms=("sey", enemy_kingdom), terrain=chasm,
                p2={"B1": "a5", "B6": "a5", "B4": "c5", "B2": "c5", "B5": "e5", "B3": "e5"})


STACKED_ON_E5 = {"B2": "e5", "B3": "e5", "B4": "e5", "B5": "e5", "B6": "e5"}


def rampart_paralyze_claim(enemy_kingdom: str, *more_turns, placed=None) -> dict:
    """p1 claims Paralyze. Row 4, d5 and f5 are chasm; B1 (Arms 1) alone on a5 builds a rampart on b5 that
    it cannot destroy; the rest of p2's army stands on e5, which chasm surrounds (or as `placed` says)."""
    chasm = {f"{column}4": "chasm" for column in "abcdef"} | {"d5": "chasm", "f5": "chasm"}
    turns = [turn("p2", maneuver("B1", {"act": "build", "zone": "b5"})), turn("p1", maneuver("A5", MOVE)),
             *more_turns]
    return game(BOTH, turns, {"type": "claim", "by": "p1", "condition": "paralyze"}, kingdoms=("sey", enemy_kingdom),
                terrain=chasm, first="p2", p2={"B1": "a5", **(placed or STACKED_ON_E5)})


def alight_paralyze_claim(placed=None) -> dict:
    """p1 claims Paralyze on a 7-wide battlefield: row 4 and c5, d5, f5 are chasm; Sey B1 on a5 builds a rampart
    on b5; Sey B2..B5 stand on e5, Frost B6 (recruited) alone on g5, where only an Alight (onto b5) takes it
    away."""
    chasm = {f"{column}4": "chasm" for column in "abcdefg"} | {"c5": "chasm", "d5": "chasm", "f5": "chasm"}
    turns = [turn("p2", maneuver("B1", {"act": "build", "zone": "b5"})), turn("p1", maneuver("A5", MOVE))]
    sey = [{"id": f"B{arms}", "arms": arms, "kingdom": "sey"} for arms in range(1, 6)]
    armies = {"p1": army("A"), "p2": [*sey, {"id": "B6", "arms": 6, "kingdom": "frost"}]}
    return game((*BOTH, "army_recruiting"), turns, {"type": "claim", "by": "p1", "condition": "paralyze"},
                kingdoms=("sey", "sey"), terrain=chasm, first="p2", width=7, armies=armies,
                p2={"B1": "a5", "B2": "e5", "B3": "e5", "B4": "e5", "B5": "e5", "B6": "g5", **(placed or {})})


CASES = [
    # ---- Flaym ----
    Case("art-pounce", "Pounce (Flaym Arms 6, R60): onto the first enemy ahead, slaughtered; Vigor on the pouncer",
         p1_plays("flaym", ("A6", [art("pounce")])),
         after=all_of(battalion_is("B6", place="graveyard"), battalion_is("A6", zone="f5", tokens=("vigor",)))),
    Case("art-pounce-arms", "Pounce needs Arms 6", p1_plays("flaym", ("A5", [art("pounce")])),
         error=("art_wrong_arms", 1, 1, 1)),
    Case("art-pounce-rampart", "Pounce: a rampart between blocks it",
         p1_plays("flaym", ("A5", [{"act": "build", "zone": "f2"}]), ("A6", [art("pounce")]), p1={"A5": "e2"}),
         error=("blocked_by_rampart", 3, 1, 1)),
    Case("art-burn", "Burn (Flaym, all MA): each adjacent battalion loses 2 Arms",
         p1_plays("flaym", ("A1", [MOVE, art("burn")]), p1={"A1": "a2"}, p2={"B4": "a4"}),
         after=battalion_is("B4", arms=2)),
    Case("art-burn-kingdom", "Burn is Flaym's: a Frost battalion cannot burn",
         p1_plays("frost", ("A1", [art("burn")])), error=("art_wrong_kingdom", 1, 1, 1)),
    Case("art-burn-ends-maneuver", "R48: an art that spends all remaining MA ends the Maneuver",
         p1_plays("flaym", ("A1", [art("burn"), MOVE])), error=("action_after_final_art", 1, 1, 2)),
    Case("art-fireproof", "Fireproof: Flaym battalions lose nothing to Burn; a recruited Frost one does",
         game(ARTS + ("army_recruiting",), [turn("p1", maneuver("A1", art("burn")))], kingdoms=("flaym", "sey"),
              armies={"p1": [{"id": "A1", "arms": 1}, {"id": "A2", "arms": 2},
                             {"id": "A3", "arms": 3, "kingdom": "frost"}, {"id": "A4", "arms": 4},
                             {"id": "A5", "arms": 5}, {"id": "A6", "arms": 6}],
                      "p2": [{"id": f"B{n}", "arms": n} for n in range(1, 7)]},
              p1={"A3": "a2"}),
         after=all_of(battalion_is("A2", arms=2), battalion_is("A3", arms=1))),
    Case("art-incinerate", "Incinerate (Flaym 4-6, on forest): the forest region burns, battalions there lose 3",
         p1_plays("flaym", ("A4", [art("incinerate")]), variants=BOTH, p1={"A4": "a2"}, p2={"B4": "a4"},
                  terrain={"a2": "forest", "a3": "forest", "a4": "forest", "c2": "forest"}),
         after=all_of(battalion_is("B4", arms=1), terrain_is(a3=None, a4=None, c2="forest"))),
    Case("art-incinerate-terrain", "Incinerate needs forest underfoot",
         p1_plays("flaym", ("A4", [art("incinerate")]), variants=BOTH), error=("art_wrong_terrain", 1, 1, 1)),
    Case("art-scald", "Scald (Flaym 4-6, on marsh): that marsh and the marsh next to it evaporate",
         p1_plays("flaym", ("A4", [art("scald")]), variants=BOTH, p1={"A4": "a2"},
                  terrain={"a2": "marsh", "a3": "marsh", "a4": "marsh"}),
         after=terrain_is(a2=None, a3=None, a4="marsh")),
    Case("art-scald-arms", "Scald needs Arms 4-6", p1_plays("flaym", ("A3", [art("scald")]), variants=BOTH,
                                                          p1={"A3": "a2"}, terrain={"a2": "marsh"}),
         error=("art_wrong_arms", 1, 1, 1)),
    Case("art-melt", "Melt (R16: Flaym 4-6, on ice): ice and the ice next to it become waterbody",
         p1_plays("flaym", ("A4", [art("melt")]), variants=BOTH, p1={"A4": "a2"}, terrain={"a2": "ice", "b2": "ice"}),
         after=terrain_is(a2="waterbody", b2="waterbody")),
    Case("art-melt-is-flaym", "R16: Melt is a Flaym art, not Frost's",
         p1_plays("frost", ("A4", [art("melt")]), variants=BOTH, p1={"A4": "a2"}, terrain={"a2": "ice"}),
         error=("art_wrong_kingdom", 1, 1, 1)),
    # ---- Frost ----
    Case("art-alight-descend", "Alight onto an own rampart anywhere (1 MA, any facing), Descend from it (1 MA)",
         p1_plays("frost", ("A1", [BUILD_A2]), ("A6", [art("alight", zone="a2", facing="E")]),
                  ("A6", [art("descend", to="N")])),
         after=battalion_is("A6", zone="a3", facing="E")),
    Case("art-alight-needs-own-rampart", "Alight lands only on a rampart of the battalion's army",
         p1_plays("frost", ("A6", [art("alight", zone="c3", facing="N")])), error=("art_no_target", 1, 1, 1)),
    Case("art-descend-needs-rampart", "Descend starts from a rampart", p1_plays("frost", ("A6", [art("descend",
                                                                                                     to="N")])),
         error=("art_no_target", 1, 1, 1)),
    Case("art-alight-no-move", "Alight: on a rampart, only Descend takes the battalion down",
         p1_plays("frost", ("A1", [BUILD_A2]), ("A6", [art("alight", zone="a2", facing="N")]), ("A6", [MOVE])),
         error=("must_descend", 5, 1, 1)),
    Case("art-alight-no-lighten", "Alight: a battalion on a rampart cannot be lightened",
         game(ARTS, [turn("p1", maneuver("A1", BUILD_A2)), turn("p2", maneuver("B1", MOVE)),
                     turn("p1", maneuver("A6", art("alight", zone="a2", facing="N"))),
                     turn("p2", maneuver("B2", MOVE)), turn("p1", {"type": "lighten", "battalion": "A6", "arms": 5})]),
         error=("lighten_on_rampart", 5, 1)),
    Case("art-snowblind", "Snowblind (R17): a Frost battalion moves for 0 MA onto an empty zone next to an own "
         "rampart", p1_plays("frost", ("A5", [{"act": "build", "zone": "e2"}]), ("A6", [SNOWBLIND, MOVE])),
         after=battalion_is("A6", zone="f3")),
    Case("r17-snowblind-is-written", "R17 amended: a plain move onto a zone Snowblind could reach costs what a move "
         "costs", p1_plays("frost", ("A5", [{"act": "build", "zone": "e2"}]), ("A6", [MOVE, MOVE])),
         error=("not_enough_ma", 3, 1, 2)),
    Case("r17-snowblind-needs-the-rampart", "R17: Snowblind written onto a zone next to no own rampart is refused",
         p1_plays("frost", ("A5", [SNOWBLIND])), error=("art_no_target", 1, 1, 1)),
    Case("r17-snowblind-frost-only", "R17: only a Frost battalion may write Snowblind",
         p1_plays("sey", ("A5", [SNOWBLIND])), error=("art_wrong_kingdom", 1, 1, 1)),
    Case("art-snowblind-needs-rampart", "Snowblind: without an own rampart next to the zone, moves cost their MA",
         p1_plays("frost", ("A6", [MOVE, MOVE])), error=("not_enough_ma", 1, 1, 2)),
    Case("art-freeze", "Freeze (Frost 4-6, on waterbody): that waterbody and the waterbody next to it become ice",
         p1_plays("frost", ("A4", [art("freeze")]), variants=BOTH, p1={"A4": "a2"},
                  terrain={"a2": "waterbody", "b2": "waterbody"}),
         after=terrain_is(a2="ice", b2="ice")),
    Case("art-freeze-terrain", "Freeze needs waterbody underfoot", p1_plays("frost", ("A4", [art("freeze")]),
                                                                            variants=BOTH),
         error=("art_wrong_terrain", 1, 1, 1)),
    Case("art-mountain-march", "Mountain March: mountain costs a Frost battalion 1 MA",
         p1_plays("frost", ("A5", [MOVE, MOVE]), variants=BOTH, terrain={"e2": "mountain"}),
         after=battalion_is("A5", zone="e3")),
    Case("art-mountain-no-march", "Mountain March is Frost's: mountain costs a Flaym battalion 3 MA",
         p1_plays("flaym", ("A5", [MOVE]), variants=BOTH, terrain={"e2": "mountain"}),
         error=("not_enough_ma", 1, 1, 1)),
    Case("art-ice-march", "Ice March: ice costs a Frost battalion 2 MA",
         p1_plays("frost", ("A5", [MOVE]), variants=BOTH, terrain={"e2": "ice"}), after=battalion_is("A5", zone="e2")),
    Case("art-ice-march-cost", "Ice March: 2 MA, not less", p1_plays("frost", ("A6", [MOVE]), variants=BOTH,
                                                                    terrain={"f2": "ice"}),
         error=("not_enough_ma", 1, 1, 1)),
    # ---- Sey ----
    Case("art-surge", "Surge (Sey Arms 6, R61): the first enemy ahead is routed two zones away, stunned",
         p1_plays("sey", ("A6", [art("surge", to="f3")])), after=battalion_is("B6", zone="f3", tokens=("stun",))),
    Case("art-surge-off", "Surge off the edge takes a prisoner without a Stun (R31, R61)",
         p1_plays("sey", ("A6", [art("surge", to="off")])), after=battalion_is("B6", place="prison", tokens=())),
    Case("art-surge-range", "Surge: the destination is adjacent to the target or two zones from it in a line",
         p1_plays("sey", ("A6", [art("surge", to="d3")])), error=("art_out_of_range", 1, 1, 1)),
    Case("art-undertow", "Undertow (Sey, all MA, R62): the enemy two zones away is pulled next to the battalion, "
         "facing away, stunned", p1_plays("sey", ("A1", [art("undertow", target="B4")]), p1={"A1": "a2"},
                                           p2={"B4": "a4"}),
         after=battalion_is("B4", zone="a3", facing="N", tokens=("stun",))),
    Case("art-undertow-distance", "Undertow reaches exactly two zones", p1_plays("sey", ("A1", [art(
        "undertow", target="B1")])), error=("art_out_of_range", 1, 1, 1)),
    Case("art-flood", "Flood (Sey 4-6, on valley): that valley and the valley next to it become waterbody",
         p1_plays("sey", ("A4", [art("flood")]), variants=BOTH, p1={"A4": "a2"}, terrain={"a2": "valley",
                                                                                           "a3": "valley"}),
         after=terrain_is(a2="waterbody", a3="waterbody")),
    Case("art-flood-arms", "Flood needs Arms 4-6", p1_plays("sey", ("A3", [art("flood")]), variants=BOTH,
                                                          p1={"A3": "a2"}, terrain={"a2": "valley"}),
         error=("art_wrong_arms", 1, 1, 1)),
    Case("art-water-march", "Water March: waterbody costs a Sey battalion 1 MA",
         p1_plays("sey", ("A5", [MOVE, MOVE]), variants=BOTH, terrain={"e2": "waterbody"}),
         after=battalion_is("A5", zone="e3")),
    Case("art-water-no-march", "Water March is Sey's: waterbody costs a Frost battalion 5 MA",
         p1_plays("frost", ("A2", [MOVE, MOVE]), variants=BOTH, terrain={"b2": "waterbody"}),
         error=("not_enough_ma", 1, 1, 2)),
    # ---- Timber ----
    Case("art-flourish", "Flourish (Timber Arms 6, 1 MA, R63): a rampart on any empty zone",
         p1_plays("timber", ("A6", [art("flourish", zone="c3")])), after=ramparts_are("c3", ("p1",))),
    Case("art-flourish-occupied", "Flourish needs an empty zone", p1_plays("timber", ("A6", [art("flourish",
                                                                                                  zone="b1")])),
         error=("zone_occupied", 1, 1, 1)),
    Case("art-overgrow-harvest", "Overgrow stacks a rampart; Destroy takes the top one only; Harvest returns an "
         "own rampart to a Timber battalion of Arms 4-6",
         p1_plays("timber", ("A4", [BUILD_A2, art("overgrow", zone="a2"), {"act": "destroy", "zone": "a2"}]),
                  p1={"A4": "a1", "A1": "d1"}),
         after=lambda state: [] if state.ramparts_at("a2") == ("p1",) and state.ramparts_left[0] == 5 else [
             f"a2 holds {state.ramparts_at('a2')}, {state.ramparts_left[0]} ramparts left"]),
    Case("art-overgrow-needs-rampart", "Overgrow builds on a rampart only",
         p1_plays("timber", ("A1", [art("overgrow", zone="a2")])), error=("no_rampart", 1, 1, 1)),
    Case("art-forestry", "Forestry (Timber 4-6, on flatland): that flatland and the flatland next to it grow forest",
         p1_plays("timber", ("A4", [art("forestry")]), variants=BOTH, p1={"A4": "a2"}, terrain={"b2": "hills"}),
         after=terrain_is(a2="forest", a3="forest", b2="hills", a1="forest")),
    Case("art-forestry-needs-terrain", "R64: Forestry changes terrain and needs the terrain variant",
         p1_plays("timber", ("A4", [art("forestry")])), error=("art_wrong_terrain", 1, 1, 1)),
    Case("art-forest-march", "Forest March: forest costs a Timber battalion 1 MA",
         p1_plays("timber", ("A5", [MOVE, MOVE]), variants=BOTH, terrain={"e2": "forest"}),
         after=battalion_is("A5", zone="e3")),
    Case("art-natural-architect", "Natural Architect: a Timber battalion builds on marsh and crag",
         p1_plays("timber", ("A1", [BUILD_A2, {"act": "build", "zone": "a3"}]), variants=BOTH,
                  terrain={"a2": "marsh", "a3": "crag"}), after=ramparts_are("a3", ("p1",))),
    # ---- Blak ----
    Case("art-mortar", "Mortar (Blak Arms 6, 1 MA): a zone up to 3 ahead; its battalions lose 3 Arms",
         p1_plays("blak", ("A6", [art("mortar", zone="f4")]), p2={"B6": "f4"}), after=battalion_is("B6", arms=3)),
    Case("art-mortar-range", "Mortar reaches 3 zones", p1_plays("blak", ("A6", [art("mortar", zone="f5")])),
         error=("art_out_of_range", 1, 1, 1)),
    Case("art-mortar-rampart", "Mortar destroys a rampart in its zone (an aggressive action, R13)",
         p1_plays("blak", ("A5", [{"act": "build", "zone": "f2"}]), ("A6", [art("mortar", zone="f2")]),
                  p1={"A5": "e2"}),
         after=ramparts_are("f2", ())),
    Case("art-farshot", "Farshot (Blak, all MA): the first battalion within 4 ahead loses 1 Arms, no Vigor",
         p1_plays("blak", ("A2", [art("farshot")]), p1={"A2": "b1"}, p2={"B3": "b4", "B2": "c5"}),
         after=all_of(battalion_is("B3", arms=2), battalion_is("A2", tokens=()))),
    Case("art-farshot-target", "Farshot needs a battalion within 4 zones ahead",
         p1_plays("blak", ("A2", [art("farshot")]), p1={"A2": "b1"}, height=7, p2={"B2": "b7"}),
         error=("art_no_target", 1, 1, 1)),
    Case("art-forge", "Chasm Forge (Blak, 5 MA, R67): across the chasm ahead, facing kept",
         p1_plays("blak", ("A1", [art("forge")]), variants=BOTH, terrain={"a2": "chasm"}),
         after=battalion_is("A1", zone="a3", facing="N")),
    Case("art-forge-needs-chasm", "Chasm Forge: the battalion faces a chasm next to it",
         p1_plays("blak", ("A1", [art("forge")]), variants=BOTH), error=("art_wrong_terrain", 1, 1, 1)),
    Case("art-devastate", "Devastate (Blak 4-6): flatland around becomes crag; crag is obliterated into chasm "
         "and slaughters whoever stands on it",
         p1_plays("blak", ("A4", [art("devastate")]), variants=BOTH, p1={"A4": "a2"}, terrain={"a1": "crag"}),
         after=all_of(battalion_is("A1", place="graveyard"), terrain_is(a1="chasm", a2="crag", b2="crag"))),
    Case("art-devastate-terrain", "Devastate needs flatland or crag underfoot",
         p1_plays("blak", ("A4", [art("devastate")]), variants=BOTH, p1={"A4": "a2"}, terrain={"a2": "hills"}),
         error=("art_wrong_terrain", 1, 1, 1)),
    Case("art-crag-march", "Crag March: crag costs a Blak battalion 1 MA, and it builds on crag",
         p1_plays("blak", ("A5", [MOVE, {"act": "build", "zone": "d2"}]), variants=BOTH,
                  terrain={"e2": "crag", "d2": "crag"}),
         after=all_of(battalion_is("A5", zone="e2"), ramparts_are("d2", ("p1",)))),
    Case("art-stacked-only-moves", "R58: a stacked battalion uses only the arts that move it",
         p1_plays("blak", ("A1", [art("farshot")]), p1={"A2": "a1", "A1": "a1"}), error=("stacked_only_move", 1, 1, 1)),
    Case("art-crag-no-march", "Crag March is Blak's: crag costs a Sey battalion 3 MA",
         p1_plays("sey", ("A5", [MOVE]), variants=BOTH, terrain={"e2": "crag"}), error=("not_enough_ma", 1, 1, 1)),
    Case("art-crag-march-no-marsh", "Crag March lets Blak build on crag only, not on marsh",
         p1_plays("blak", ("A1", [BUILD_A2]), variants=BOTH, terrain={"a2": "marsh"}),
         error=("terrain_forbids_build", 1, 1, 1)),
    # ---- Passive arts relied on where they do not apply ----
    Case("art-fireproof-enemy", "Fireproof protects every Flaym battalion: a Flaym B2 beside a Burn keeps its Arms "
         "and maneuvers next turn", burn_beside("flaym"), after=battalion_is("B2", arms=2, zone="b4")),
    Case("art-fireproof-wrong-kingdom", "Fireproof is Flaym's: a Frost B2 (Arms 2) beside a Burn is slaughtered, so "
         "a later order to it is refused", burn_beside("frost"), error=("not_on_battlefield", 2, 1)),
    Case("art-fireproof-forest-fire", "Fireproof, R55: the Forest fire of a sacrifice does not reduce a Flaym "
         "battalion on the burned forest", forest_fire("flaym"),
         after=all_of(battalion_is("A2", arms=2, zone="b3"), terrain_is(a2=None, b2=None))),
    Case("art-fireproof-forest-fire-wrong-kingdom", "Fireproof is Flaym's (R55): the Forest fire slaughters a Frost "
         "A2 of Arms 2, which then cannot be the sacrifice beneficiary", forest_fire("frost"),
         error=("bad_sacrifice_beneficiary", 3, None)),
    Case("art-harvest-rebuild", "Harvest: a Timber Arms 4 battalion that destroys an own rampart gets it back and "
         "builds it again with none left otherwise", harvest("timber", own=True),
         after=lambda state: [] if state.ramparts_left[0] == 0 and state.ramparts_at("c2") == ("p1",) else [
             f"{state.ramparts_left[0]} ramparts left, c2 holds {state.ramparts_at('c2')}"]),
    Case("art-harvest-wrong-kingdom", "Harvest is Timber's: a Frost battalion that destroys an own rampart does not "
         "get it back, so a seventh rampart is refused", harvest("frost", own=True),
         error=("no_ramparts_left", 3, 1, 3)),
    Case("art-harvest-enemy-rampart", "Harvest reclaims only a rampart the general owns: destroying the enemy's "
         "gives Timber no rampart to build", harvest("timber", own=False), error=("no_ramparts_left", 3, 1, 2)),
    Case("art-natural-architect-not-waterbody", "Natural Architect covers crag and marsh only: Timber builds no "
         "rampart on waterbody", p1_plays("timber", ("A1", [BUILD_A2]), variants=BOTH, terrain={"a2": "waterbody"}),
         error=("terrain_forbids_build", 1, 1, 1)),
    Case("art-natural-architect-battalion-kingdom", "Natural Architect goes with the battalion's kingdom: a "
         "recruited Sey battalion of a Timber general builds no rampart on marsh", recruited_architect(),
         error=("terrain_forbids_build", 1, 1, 1)),
    Case("art-forest-no-march", "Forest March is Timber's: forest costs a Flaym battalion 3 MA",
         p1_plays("flaym", ("A5", [MOVE]), variants=BOTH, terrain={"e2": "forest"}), error=("not_enough_ma", 1, 1, 1)),
    # ---- Arts against ramparts and enemies ----
    Case("art-undertow-rampart", "Undertow (R62): a rampart between the battalion and the target stops it",
         p1_plays("sey", ("A1", [{"act": "build", "zone": "a3"}, art("undertow", target="B4")]), p1={"A1": "a2"},
                  p2={"B4": "a4"}),
         error=("blocked_by_rampart", 1, 1, 2)),
    Case("art-overgrow-enemy", "Overgrow (R63): a Timber battalion overgrows an adjacent enemy rampart with its own",
         overgrow_enemy(MOVE, art("overgrow", zone="a4")),
         after=all_of(ramparts_are("a4", ("p2", "p1")), battalion_is("A1", zone="a3"))),
    Case("art-overgrow-enemy-not-adjacent", "Overgrow (R63): an enemy rampart is overgrown only from an adjacent "
         "zone, not through a chain of own ramparts", overgrow_enemy({"act": "build", "zone": "a3"},
                                                                     art("overgrow", zone="a4")),
         error=("build_not_connected", 2, 1, 2)),
    Case("art-descend-onto-enemy", "Descend (R65, R47) onto an enemy battalion attacks it as a Move does; Vigor on "
         "the attacker", descend_onto_enemy("a4"),
         after=all_of(battalion_is("B1", place="graveyard"), battalion_is("A6", zone="a3", tokens=("vigor",)))),
    Case("art-descend-onto-rampart", "Descend (R65) never lands on a rampart; Alight reaches ramparts",
         p1_plays("frost", ("A1", [BUILD_A2, {"act": "build", "zone": "b2"}]),
                  ("A6", [art("alight", zone="a2", facing="E")]), ("A6", [art("descend", to="E")])),
         error=("blocked_by_rampart", 5, 1, 1)),
    # ---- Arts in the Blunt and Paralyze verdicts (R12, R13) ----
    Case("art-blunt-pounce", "R13: a Pounce is an aggressive action, so an enemy that could attack only by "
         "pouncing is not blunted", blunt_claim("flaym"),
         expect=claim_is("blunt", False, "p2 is not blunted: B6 can pounce on A1 at a1.")),
    Case("art-blunt-no-pounce", "R13: the same battlefield without a Flaym pouncer is blunted (Frost has no such "
         "art)", blunt_claim("frost"), expect=claim_is("blunt", True)),
    Case("art-blunt-pounce-without-arts", "R13: without battle arts the Flaym Arms 6 cannot pounce, so the enemy "
         "is blunted", blunt_claim("flaym", variants=("terrain",)), expect=claim_is("blunt", True)),
    Case("r100-blunt-no-pounce-from-a-stack", "R100: the same Flaym Arms 6 standing on B1 cannot pounce (a stacked "
         "battalion only Moves), so the enemy is blunted", blunt_claim("flaym", stacked=True),
         expect=claim_is("blunt", True)),
    Case("art-blunt-forge-then-attack", "R13, R67: Chasm Forge leaves Blak B1 1 MA to attack A2 beyond the chasm "
         "in the same Maneuver, so p2 is not blunted", forge_blunt_claim("a2"),
         expect=claim_is("blunt", False, "p2 is not blunted: B1 can forge the chasm at a4, then attack A2 at a2.")),
    Case("art-blunt-forge-nothing-after", "R13: the same forge with no enemy within reach after it leaves p2 "
         "blunted", forge_blunt_claim("b2"), expect=claim_is("blunt", True)),
    Case("art-blunt-alight-descend-sacrifice", "R13, R65: with a sacrifice's 8 MA a Frost Arms 6 can Alight and "
         "Descend and act on in the same Maneuver, so p2 is not blunted", alight_blunt_claim(sacrifice=True),
         expect=claim_is("blunt", False, "p2 is not blunted: B6 can alight on b5 and descend to b4, then destroy "
                                         "the rampart at b5.")),
    Case("art-blunt-alight-one-ma", "R13: with its own 1 MA the same Frost Arms 6 can only Alight, so p2 is "
         "blunted", alight_blunt_claim(sacrifice=False), expect=claim_is("blunt", True)),
    Case("r13-blunt-alight-then-destroy", "R13: with its own 1 MA the same Frost Arms 6 can Alight on b5 and destroy "
         "the own-kingdom rampart on b4 for 0 MA, so p2 is not blunted",
         alight_blunt_claim(sacrifice=False, second_rampart=True),
         expect=claim_is("blunt", False, "p2 is not blunted: B6 can alight on b4 and destroy the rampart at b5.")),
    Case("art-paralyze-pounce", "R12, R100, R102: B1 beneath B6 on a5, once uncovered with Arms 6 handed down, "
         "can leave its zone by Pounce: not paralyzed (B6 on the stack cannot pounce)",
         paralyze_claim("flaym"), expect=claim_is("paralyze", False, "p2 is not paralyzed: B1 can still move out "
                                                                     "of a5.")),
    Case("art-paralyze-forge", "R12: a Blak battalion that can cross the chasm ahead by Chasm Forge is not "
         "paralyzed", paralyze_claim("blak"),
         expect=claim_is("paralyze", False, "p2 is not paralyzed: B1 can still move out of a5.")),
    Case("art-paralyze-no-art", "R12: the same battalions boxed in by chasm without an art that moves them are "
         "paralyzed", paralyze_claim("frost"), expect=claim_is("paralyze", True)),
    Case("art-paralyze-alight", "R12: a Frost Arms 6 that can Alight on an own rampart elsewhere is not paralyzed",
         alight_paralyze_claim(), expect=claim_is("paralyze", False, "p2 is not paralyzed: B6 can still move out of g5.")),
    Case("r100-paralyze-no-alight-from-a-stack", "R100: the same Frost Arms 6 on top of its own stack cannot "
         "Alight (a stacked battalion only Moves): paralyzed", alight_paralyze_claim({"B6": "e5"}),
         expect=claim_is("paralyze", True)),
    Case("art-paralyze-descend", "R12: a Frost Arms 6 on a rampart, whose only way down is Descend, is not "
         "paralyzed", rampart_paralyze_claim("frost", turn("p2", maneuver("B6", art("alight", zone="b5",
                                                                                      facing="S"))),
                                             turn("p1", maneuver("A4", MOVE)),
                                             placed={**STACKED_ON_E5, "B6": "c5"}),
         expect=claim_is("paralyze", False, "p2 is not paralyzed: B6 can still move out of b5.")),
    Case("art-paralyze-rampart-no-art", "R12: the same rampart and stack with a Sey army (no art that moves "
         "it) are paralyzed", rampart_paralyze_claim("sey"), expect=claim_is("paralyze", True)),
    Case("r102-paralyze-lower-battalion-uncovered", "R102: B2 (Arms 2) beneath B6 on c5 is uncovered by B6's "
         "Lighten (4 Arms handed down) and Sacrifice, then destroys the rampart on b5 with 8 MA: not paralyzed",
         rampart_paralyze_claim("sey", placed={"B2": "c5", "B6": "c5", "B3": "e5", "B4": "e5", "B5": "e5"}),
         expect=claim_is("paralyze", False, "p2 is not paralyzed: B2 can still move out of c5.")),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_battle_arts(case):
    case.run()
