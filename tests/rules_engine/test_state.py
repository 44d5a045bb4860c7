"""BattleState mechanics a verdict does not show directly: Arms, tokens, stacks, reach."""
import pytest

from rules_engine import (
    BattleState,
    ReplayError,
    battle_from_replay,
    generate_game,
    load_replay,
    replay_states,
)
from rules_engine.victory import Check, aggressive_action, blunted, paralyzed

from .helpers import MOVE, face, line_formation, maneuver, replay, turn


def final_state(doc):
    return list(replay_states(doc))[-1].state


def test_vigor_caps_the_loss_over_the_whole_enemy_turn_R4():
    # A4 slaughters B4 and gets Vigor; B5 then attacks it with Arms 5: A4 loses only 1.
    doc = replay([turn("p1", maneuver("A4", MOVE, MOVE)), turn("p2", maneuver("B5", face("W"), MOVE))])
    state = final_state(doc)
    assert state.battalion("A4").arms == 3
    assert state.battalion("B4").place == "graveyard"
    assert state.stack_at("d3") == ("A4", "B5")


def test_counter_attack_from_below_swaps_and_keeps_the_attackers_facing_R26():
    doc = replay([turn("p1", maneuver("A4", MOVE, MOVE)), turn("p2", maneuver("B5", face("W"), MOVE)),
                  turn("p1", {"type": "stall"}, counter_facings={"B5": "N"})])
    state = final_state(doc)
    assert state.stack_at("d3") == ("B5", "A4")
    assert state.battalion("B5").arms == 2
    assert state.battalion("B5").facing == "N"
    assert state.battalion("A4").facing == "N"
    assert "vigor" not in state.battalion("A4").tokens  # reset at p1's step 3


def test_counter_attack_continues_down_the_stack_R26():
    # A4 attacks a B1-on-B2 stack with Arms 4: B1 slaughtered, B2 slaughtered, A4 on the ground.
    formation = line_formation(p2={"B2": "d3", "B1": "d3", "B4": "a3"})
    doc = replay([turn("p1", maneuver("A4", MOVE, MOVE))], formation=formation)
    state = final_state(doc)
    assert state.stack_at("d3") == ("A4",)
    assert [state.ids[b] for b in state.graveyards[0]] == ["B1", "B2"]
    assert "vigor" in state.battalion("A4").tokens


def test_attack_chain_stops_on_a_survivor_and_no_vigor_on_a_stack_R8():
    formation = line_formation(p2={"B6": "d3", "B1": "d3", "B4": "f3"})
    doc = replay([turn("p1", maneuver("A4", MOVE, MOVE))], formation=formation)
    state = final_state(doc)
    assert state.stack_at("d3") == ("B6", "A4")
    assert state.battalion("B6").arms == 2
    assert state.battalion("A4").tokens == ()


def test_no_vigor_after_a_rout_even_after_an_attack_R27():
    # B1 walks to b2; A2 attacks it (slaughter) and then routs B2 from b3 back to b4.
    formation = line_formation(width=6, height=4)
    doc = replay([turn("p2", maneuver("B1", MOVE, MOVE, face("E"), MOVE)),
                  turn("p1", maneuver("A6", MOVE)),
                  turn("p2", maneuver("B2", MOVE)),
                  turn("p1", maneuver("A2", MOVE, {"act": "rout", "target": "B2", "to": "b4"}))],
                 width=6, height=4, formation=formation, first="p2")
    state = final_state(doc)
    assert state.battalion("B1").place == "graveyard"
    assert state.battalion("A2").tokens == ()
    assert state.vigor < 0
    assert (state.battalion("B2").zone, state.battalion("B2").facing) == ("b4", "N")
    assert state.battalion("B2").tokens == ("stun",)


def test_the_single_vigor_token_moves_R3():
    doc = replay([turn("p1", maneuver("A4", MOVE, MOVE)), turn("p2", maneuver("B1", MOVE, MOVE))])
    after_p1, after_p2 = [snapshot.state for snapshot in replay_states(doc)][1:]
    assert after_p1.battalion("A4").tokens == ("vigor",)
    assert after_p2.battalion("A4").tokens == ()
    assert after_p2.battalion("B1").tokens == ("vigor",)


def test_lighten_transfer_changes_both_battalions():
    formation = line_formation(p1={"A5": "e1", "A2": "e1:N"})
    doc = replay([turn("p1", {"type": "lighten", "battalion": "A2", "arms": 1, "transfer": 1,
                              "below_facing": "E", "facing": "W"})], formation=formation)
    state = final_state(doc)
    assert (state.battalion("A2").arms, state.battalion("A2").facing) == (1, "W")
    assert (state.battalion("A5").arms, state.battalion("A5").facing) == (6, "E")


def test_a_refused_action_leaves_the_state_unchanged():
    state = battle_from_replay(load_replay(replay()))
    for entry in load_replay(replay()).formation:
        state.deploy(entry)
    state.begin_battle("p1")
    state.start_turn("p1")
    run = state.begin_maneuver("A1")
    before = (list(state.stacks), list(state.facing), run.ma_left)
    with pytest.raises(ReplayError) as refused:
        run.apply(load_replay(replay([turn("p1", maneuver("A1", {"act": "build", "zone": "c2"}))])).turns[0]
                  .orders[0].actions[0])
    assert refused.value.code == "build_not_connected"
    assert (list(state.stacks), list(state.facing), run.ma_left) == before


def test_copy_is_independent():
    state = list(replay_states(replay()))[0].state
    other = state.copy()
    other.start_turn("p1")
    other.apply_order(load_replay(replay([turn("p1", maneuver("A1", MOVE))])).turns[0].orders[0])
    other.end_turn()
    assert state.stack_at("a1") == ("A1",)
    assert other.stack_at("a2") == ("A1",)


def test_copy_carries_every_field_and_shares_no_list_a_turn_changes():
    """`copy` names each field; one added to the battle but forgotten there would be missing here. The
    battle's fixed tables (ids to numbers, who controls a populace zone) and its memo are shared."""
    replays = [generate_game(seed, max_turns=30, variants=variants) for seed, variants in
               ((3, ()), (5, ("terrain", "army_recruiting", "battle_arts")))]
    for source in replays:
        for snapshot in replay_states(source):
            state = snapshot.state
            other = state.copy()
            # (compiled by mypyc, the class lists its fields in __mypyc_attrs__ instead)
            for name in getattr(BattleState, "__slots__", None) or BattleState.__mypyc_attrs__:
                assert getattr(other, name) == getattr(state, name), name
                if isinstance(getattr(state, name), list | dict) and name not in ("control", "index", "memo"):
                    assert getattr(other, name) is not getattr(state, name), name


def test_reach_lists_zones_and_actions_with_their_costs():
    state = list(replay_states(replay()))[0].state
    reach = state.reach("A4")  # Arms 4 at d1: 3 MA
    assert reach.ma == 3
    zones = {(p.zone, p.facing): p.ma_left for p in reach.positions}
    assert zones[("d1", "N")] == 3
    assert zones[("d2", "N")] == 2
    assert zones[("d2", "E")] == 1
    attacks = {(a.zone, a.target): a.cost for a in reach.actions if a.kind == "attack"}
    assert attacks == {("d3", "B4"): 2}  # c3 and e3 would need 4 MA (move, face, move, face)
    destroys = {(a.zone, a.target): a.cost for a in reach.actions if a.kind == "destroy"}
    assert destroys[("d2", "built")] == 1  # build ahead for 1 MA, destroy the own rampart for 0
    assert all(a.cost <= 3 for a in reach.actions)


def test_blunt_counts_a_stun_only_while_it_lasts_R13():
    # B2 walks to b2 and is routed to c2 (stunned): it is p2's only battalion able to attack at once
    # only if it were not stunned; elsewhere p2's battalions still reach p1's.
    formation = line_formation(width=6, height=4)
    doc = replay([turn("p2", maneuver("B2", MOVE, MOVE)),
                  turn("p1", maneuver("A2", {"act": "rout", "target": "B2", "to": "c2"}))],
                 width=6, height=4, formation=formation, first="p2")
    state = final_state(doc)
    assert state.stun == state.index["B2"]
    action = aggressive_action(state, 1)
    assert action is not None and not action.startswith("B2")


def test_paralyze_and_blunt_hold_on_a_boxed_in_army_R12_R13():
    # 3 x 3: p1 on row 1, p2 on row 3; p2 stacks everything on a3 with B1 on top... then p1 walls it.
    formation = []
    for number, zone in zip(range(1, 7), ["a1", "b1", "c1", "c1", "c1", "c1"], strict=True):
        formation.append({"by": "p1", "battalion": f"A{number}", "zone": zone, "facing": "N"})
        formation.append({"by": "p2", "battalion": f"B{number}", "zone": "a3", "facing": "S"})
    doc = replay([turn("p1", maneuver("A1", {"act": "build", "zone": "a2"}, {"act": "build", "zone": "b2"},
                                       {"act": "build", "zone": "b3"}))],
                 width=3, height=3, formation=formation)
    state = final_state(doc)
    # B6 is on top of five own battalions at a3 whose neighbours a2 and b3 are ramparts; standing on
    # a battalion, none of them can destroy one in its coming Maneuver (R13)...
    assert blunted(state, 0).holds
    # ...but B1 at the bottom can be uncovered: the ones above hand Arms down by Lighten and are
    # sacrificed, and B1 destroys a rampart with the last Sacrifice's 8 MA (R102).
    assert paralyzed(state, 0) == Check(False, "p2 is not paralyzed: B1 can still move out of a3.")
    assert not paralyzed(state, 1).holds
