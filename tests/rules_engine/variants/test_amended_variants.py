"""The amended shared rulings in the variants (R4, R17 in test_battle_arts, R100, R103, R106-R108), each on
the battle that showed the engine judging it wrongly before."""
import pytest

from rules_engine import adjudicate

from .builders import MOVE, Case, all_of, art, battalion_is, game, maneuver, stall, turn

ARTS = ("battle_arts",)
BOTH = ("battle_arts", "terrain")
DT = ("double_time",)


def rout(target: str, to: str) -> dict:
    return {"act": "rout", "target": target, "to": to}


def two_routs(second_to: str, variants=DT, **options) -> dict:
    """Double Time: A1 routs B1 (a4) onto a5, then A2 routs B2 (b5) to `second_to` in the same turn."""
    turns = [turn("p1", maneuver("A3", MOVE)), turn("p2", stall(), stall()),
             turn("p1", maneuver("A1", MOVE, rout("B1", "a5")), maneuver("A2", MOVE, MOVE, rout("B2", second_to)))]
    return game(variants, turns, p1={"A1": "a2", "A2": "b2"}, p2={"B1": "a4", "B3": "d4"}, **options)


def p1_sacrifices_on_forest_then_b4_attacks(kingdoms=("frost", "sey")) -> dict:
    """3-row battlefield: A1 is marked on forest a1; B4 walks over valley b2 onto A2 on forest b1, slaughters it
    and takes Vigor; p1's next turn completes the sacrifice and the fire burns a1 and b1."""
    turns = [turn("p1", {"type": "sacrifice", "battalion": "A1"}), turn("p2", maneuver("B4", MOVE, MOVE)),
             turn("p1", maneuver("A3", MOVE), sacrifice_beneficiary="A3")]
    return game(("terrain",), turns, height=3, kingdoms=kingdoms, p2={"B4": "b3"},
                terrain={"a1": "forest", "b1": "forest", "b2": "valley"})


def forge_onto_b6(**fields) -> dict:
    """Blak A1 (Arms 1, 6 MA) on a2 forges the chasm a3 and lands on B6 (a4), which survives with Arms 5."""
    return game(BOTH, [turn("p1", maneuver("A1", art("forge", **fields)))], kingdoms=("blak", "sey"),
                terrain={"a3": "chasm"}, p1={"A1": "a2"}, p2={"B6": "a4"})


def two_surges(second_to: str, variants=ARTS, **options) -> dict:
    """Sey A6 (Arms 6, 8 MA from A1's sacrifice) on c2 surges B2 (c4) to b4, moves to c4, turns E and surges
    B4 (f4, on the edge) to `second_to`, all in one Maneuver (R61: a Surge does not end it)."""
    turns = [turn("p1", {"type": "sacrifice", "battalion": "A1"}), turn("p2", stall()),
             turn("p1", maneuver("A6", art("surge", to="b4"), MOVE, MOVE, {"act": "face", "to": "E"},
                                 art("surge", to=second_to)), sacrifice_beneficiary="A6")]
    return game(variants, turns, kingdoms=("sey", "flaym"), p1={"A6": "c2"}, p2={"B2": "c4", "B4": "f4"}, **options)


def descend_onto_b6(**fields) -> dict:
    """Frost: A2 builds on b2, A6 alights on it facing E; B6 walks onto c2, slaughters A3 and takes Vigor; A6
    descends E onto B6, which Vigor keeps alive (Arms 6 -> 5)."""
    turns = [turn("p1", maneuver("A2", {"act": "build", "zone": "b2"})), turn("p2", maneuver("B6", MOVE)),
             turn("p1", maneuver("A6", art("alight", zone="b2", facing="E"))), turn("p2", maneuver("B6", MOVE)),
             turn("p1", maneuver("A6", art("descend", to="E", **fields)))]
    return game(ARTS, turns, kingdoms=("frost", "sey"), p1={"A3": "c2"}, p2={"B6": "c4"})


def p1_builds_and_alights(then: dict | None, **alight_fields) -> dict:
    """Frost: A2 builds on b2 and A6 alights on it facing N (with `alight_fields`); then A6 plays `then`."""
    turns = [turn("p1", maneuver("A2", {"act": "build", "zone": "b2"})), turn("p2", maneuver("B1", MOVE)),
             turn("p1", maneuver("A6", art("alight", zone="b2", facing="N", **alight_fields)))]
    if then is not None:
        turns += [turn("p2", maneuver("B2", MOVE)), turn("p1", maneuver("A6", then))]
    return game(ARTS, turns, kingdoms=("frost", "sey"))


def pounce_onto_b5_and_b6(**fields) -> dict:
    """Double Time, Flaym p1: A3 steps onto c3; B6 slaughters it there and takes Vigor, and B5 climbs onto B6;
    A6 (c1) pounces on c3: B5 is slaughtered outright (R60) and B6, attacked next, survives by its Vigor."""
    turns = [turn("p1", maneuver("A3", MOVE)),
             turn("p2", maneuver("B6", MOVE), maneuver("B5", MOVE, MOVE)),
             turn("p1", maneuver("A6", art("pounce", **fields)), stall())]
    return game(ARTS + DT, turns, kingdoms=("flaym", "sey"), p1={"A6": "c1", "A3": "c2"},
                p2={"B6": "c4", "B5": "c5"})


def far_apart_blunt_claim(variants) -> dict:
    """p1 claims Blunt after the first Battle turn. p2 stands on row 13, out of anyone's reach; each of its
    Arms 4+ battalions is beneath a lighter one (stacked, it cannot build or destroy)."""
    return game(variants, [turn("p1", maneuver("A5", MOVE))], {"type": "claim", "by": "p1", "condition": "blunt"},
                height=13, p2={"B6": "a13", "B1": "a13", "B4": "b13", "B2": "b13", "B5": "c13", "B3": "c13"})


CASES = [
    Case("r103-blunt-two-orders", "R103: under Double Time B1 steps off B6 and B6 builds a rampart and destroys "
         "it in the same turn, so p2 is not blunted", far_apart_blunt_claim(DT),
         expect={"outcome": "unfinished", "winner": None}),
    Case("r103-blunt-one-order", "R13: with one order a turn the same army is blunted", far_apart_blunt_claim(()),
         expect={"outcome": "victory", "winner": "p1", "condition": "blunt"}),
    Case("r100-no-pounce-from-a-stack", "R100 (replaces R58): A6 standing on A5 cannot Pounce",
         game(ARTS, [turn("p1", maneuver("A6", art("pounce")))], kingdoms=("flaym", "sey"),
              p1={"A5": "f1", "A6": "f1"}), error=("stacked_only_move", 1, 1, 1)),
    Case("r100-move-off-then-pounce", "R100: once a Move has taken it off the stack it may Pounce (8 MA)",
         game(ARTS, [turn("p1", {"type": "sacrifice", "battalion": "A1"}), turn("p2", maneuver("B1", MOVE)),
                     turn("p1", maneuver("A6", MOVE, art("pounce")), sacrifice_beneficiary="A6")],
              kingdoms=("flaym", "sey"), p1={"A5": "f1", "A6": "f1"}),
         after=battalion_is("B6", place="graveyard")),
    Case("r108-mortar-on-an-empty-zone", "R108: a Mortar may target an empty zone in range",
         game(ARTS, [turn("p1", maneuver("A6", art("mortar", zone="f3")))], kingdoms=("blak", "sey")),
         after=battalion_is("A6", zone="f1")),
    Case("r107-no-stun-after-a-rout-off", "R107: the last battalion routed in a Double Time turn is taken "
         "prisoner, so no Stun stays on the earlier one",
         two_routs("off"), after=all_of(battalion_is("B1", zone="a5", tokens=()), battalion_is("B2", place="prison"))),
    Case("r107-no-stun-after-a-rout-into-chasm", "R107: the last battalion routed is slaughtered on chasm, so no "
         "Stun stays on the earlier one", two_routs("c5", variants=(*DT, "terrain"), terrain={"c5": "chasm"}),
         after=all_of(battalion_is("B1", zone="a5", tokens=()), battalion_is("B2", place="graveyard"))),
    Case("r107-stun-on-the-last-routed", "R107: when the last one routed stays, it has the Stun",
         two_routs("c5"), after=all_of(battalion_is("B1", tokens=()), battalion_is("B2", zone="c5", tokens=("stun",)))),
    Case("r106-surge-torment", "R106: a Surge that takes a prisoner may torment it at once",
         game(ARTS, [turn("p1", maneuver("A6", art("surge", to="off", torment=True)))], kingdoms=("sey", "sey")),
         after=battalion_is("B6", place="prison", arms=5)),
    Case("r106-surge-torment-needs-prisoner", "R106, R44: torment: true needs a Surge off the battlefield",
         game(ARTS, [turn("p1", maneuver("A6", art("surge", to="f3", torment=True)))], kingdoms=("sey", "sey")),
         error=("torment_needs_prisoner", 1, 1, 1)),
    Case("r106-forge-enemy-facings", "R106: a Chasm Forge landing that attacks sets the survivor's facing",
         forge_onto_b6(enemy_facings={"B6": "E"}), after=battalion_is("B6", arms=5, facing="E")),
    Case("r106-forge-enemy-facings-survivor-only", "R106: enemy_facings names only a battalion that survives",
         forge_onto_b6(enemy_facings={"B1": "E"}), error=("bad_enemy_facing", 1, 1, 1)),
    Case("r106-pounce-enemy-facings-checked", "R106: a Pounce may carry enemy_facings; its slaughtered target "
         "is no survivor", game(ARTS, [turn("p1", maneuver("A6", art("pounce", enemy_facings={"B6": "E"})))],
                                kingdoms=("flaym", "sey")), error=("bad_enemy_facing", 1, 1, 1)),
    Case("r107-surge-stun-on-the-last-surged", "R107, R61: the Stun goes to the last battalion surged that stays "
         "on the battlefield; the earlier one keeps none", two_surges("f3"),
         after=all_of(battalion_is("B2", zone="b4", tokens=()), battalion_is("B4", zone="f3", tokens=("stun",)),
                      battalion_is("A6", zone="c4"))),
    Case("r107-surge-last-taken-prisoner", "R107, R31: the last battalion surged is taken prisoner, so no Stun "
         "is placed (the earlier one keeps none)", two_surges("off"),
         after=all_of(battalion_is("B2", zone="b4", tokens=()), battalion_is("B4", place="prison", tokens=()))),
    Case("r107-surge-last-slaughtered-on-chasm", "R107: the last battalion surged is slaughtered on chasm, so no "
         "Stun is placed (the earlier one keeps none)", two_surges("f3", variants=BOTH, terrain={"f3": "chasm"}),
         after=all_of(battalion_is("B2", zone="b4", tokens=()), battalion_is("B4", place="graveyard"))),
    Case("r106-descend-enemy-facings", "R106: a Descend that attacks sets the survivor's facing",
         descend_onto_b6(enemy_facings={"B6": "W"}),
         after=all_of(battalion_is("B6", zone="c2", arms=5, facing="W"), battalion_is("A6", zone="c2"))),
    Case("r106-descend-without-enemy-facings", "R7: without enemy_facings the survivor's facing is unchanged",
         descend_onto_b6(), after=battalion_is("B6", zone="c2", arms=5, facing="S")),
    Case("r106-descend-enemy-facings-survivor-only", "R106: a Descend's enemy_facings names only a survivor",
         descend_onto_b6(enemy_facings={"A3": "W"}), error=("bad_enemy_facing", 5, 1, 1)),
    Case("r106-descend-onto-an-empty-zone-no-enemy-facings", "R106: a Descend onto an empty zone attacks nobody, "
         "so enemy_facings has no battalion to name",
         p1_builds_and_alights(art("descend", to="N", enemy_facings={"B6": "W"})), error=("bad_enemy_facing", 5, 1, 1)),
    Case("r106-alight-no-enemy-facings", "R106, R59: an Alight never lands on an enemy battalion, so its "
         "enemy_facings has no survivor to name", p1_builds_and_alights(None, enemy_facings={"B6": "W"}),
         error=("bad_enemy_facing", 3, 1, 1)),
    Case("r106-pounce-enemy-facings", "R106, R60: a Pounce may set the facing of the battalion that survives "
         "beneath its slaughtered target", pounce_onto_b5_and_b6(enemy_facings={"B6": "E"}),
         after=all_of(battalion_is("B5", place="graveyard"), battalion_is("B6", zone="c3", arms=5, facing="E"),
                      battalion_is("A6", zone="c3"))),
    Case("r106-pounce-without-enemy-facings", "R7: without enemy_facings the survivor of a Pounce keeps its "
         "facing", pounce_onto_b5_and_b6(), after=battalion_is("B6", zone="c3", arms=5, facing="S")),
    Case("r4-vigor-caps-the-forest-fire", "R4 amended: Vigor caps B4's loss to the Forest fire of p1's Sacrifice "
         "at 1", p1_sacrifices_on_forest_then_b4_attacks(), after=battalion_is("B4", zone="b1", arms=3)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_amended_variant_ruling(case):
    case.run()


def test_r103_the_reason_names_both_orders():
    reason = adjudicate(far_apart_blunt_claim(DT)).to_dict()["claim"]["reason"]
    assert reason.startswith("p2 is not blunted: B1 can move to "), reason
    assert ", then B6 can build a rampart at " in reason and reason.endswith(" and destroy it."), reason

