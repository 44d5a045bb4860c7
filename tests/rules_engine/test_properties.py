"""Properties over random legal games from the seeded generator (hypothesis)."""
import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine import adjudicate, generate_game, load_replay, replay_states
from rules_engine.aggressive import aggressive_at_hand, first_aggressive, maneuverable
from rules_engine.conditions import VICTORY_OPP
from rules_engine.model import VARIANTS
from rules_engine.paralyze import _steps_out_at_hand
from rules_engine.victory import (
    HOLDS,
    aggressive_action,
    condition_holds,
    has_aggressive_action,
)

boards = st.sampled_from([(7, 7), (6, 3), (5, 6), (9, 9), (4, 5), (26, 4)])
seeds = st.integers(0, 2**32 - 1)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game_for(seed, board, max_turns=60):
    width, height = board
    return generate_game(seed, width=width, height=height, max_turns=max_turns)


def test_the_same_seed_gives_the_same_game():
    assert generate_game(7) == generate_game(7)
    assert generate_game(7) != generate_game(8)


@SETTINGS
@given(seed=seeds, board=boards)
def test_generated_games_are_valid_and_round_trip(seed, board):
    doc = game_for(seed, board)
    verdict = adjudicate(doc)
    assert verdict.valid, verdict.to_dict()
    assert load_replay(doc).to_dict() == doc
    assert load_replay(json.dumps(doc)).to_dict() == doc
    assert verdict.turns == len(doc["turns"])
    assert len(list(replay_states(doc))) == len(doc["turns"]) + 1


@SETTINGS
@given(seed=seeds, board=boards)
def test_opp_follows_R21_from_the_outcome(seed, board):
    verdict = adjudicate(game_for(seed, board)).to_dict()
    opp, winner = verdict["opp"], verdict["winner"]
    if verdict["outcome"] == "victory":
        loser = "p1" if winner == "p2" else "p2"
        assert opp == {winner: VICTORY_OPP[verdict["condition"]], loser: 0}
    elif verdict["outcome"] == "stalemate":
        assert opp == {"p1": -1, "p2": -1}
    elif verdict["outcome"] == "resolve":
        assert opp == {"p1": -10, "p2": -10}
    else:
        assert opp == {"p1": 0, "p2": 0} and winner is None


@SETTINGS
@given(seed=seeds, board=boards)
def test_arms_never_increase_except_by_a_lighten_transfer(seed, board):
    doc = game_for(seed, board)
    states = [snapshot.state for snapshot in replay_states(doc)]
    for number, (before, after) in enumerate(zip(states, states[1:], strict=False), 1):
        order = doc["turns"][number - 1]["orders"][0]
        receiver = None
        if order["type"] == "lighten" and order.get("transfer"):
            stack = before.stacks[before.zone[before.index[order["battalion"]]]]
            receiver = stack[-2]
        for battalion in range(len(before.ids)):
            if battalion != receiver:
                assert after.arms[battalion] <= before.arms[battalion], (number, before.ids[battalion])
        for player in (0, 1):  # a transfer never exceeds what was dismissed
            assert after.total_arms(player) <= before.total_arms(player), (number, player)


MUTATIONS = ["drop_action", "duplicate_action", "change_facing", "change_act", "swap_battalion", "change_zone",
             "drop_order_key"]


def mutate(doc, rng_data):
    """One random single-step change to one order; returns (turn, action) of the change, or None."""
    turns = doc["turns"]
    if not turns:
        return None
    turn_number = rng_data.draw(st.integers(1, len(turns)))
    order = turns[turn_number - 1]["orders"][0]
    kind = rng_data.draw(st.sampled_from(MUTATIONS))
    actions = order.get("actions")
    if kind in ("drop_action", "duplicate_action", "change_facing", "change_act", "change_zone") and actions:
        index = rng_data.draw(st.integers(0, len(actions) - 1))
        action = actions[index]
        if kind == "drop_action":
            del actions[index]
        elif kind == "duplicate_action":
            actions.insert(index, copy.deepcopy(action))
        elif kind == "change_facing":
            actions[index] = {"act": "face", "to": rng_data.draw(st.sampled_from("NESW"))}
        elif kind == "change_act":
            actions[index] = {"act": "move"} if action["act"] != "move" else {"act": "destroy", "zone": "a1"}
        else:
            actions[index] = {"act": "build", "zone": rng_data.draw(st.sampled_from(["a1", "b2", "c3", "d4"]))}
        return turn_number, index + 1
    if kind == "swap_battalion" and "battalion" in order:
        order["battalion"] = rng_data.draw(st.sampled_from([f"{s}{n}" for s in "AB" for n in range(1, 7)]))
        return turn_number, None
    if kind == "drop_order_key" and order["type"] == "lighten":
        order.pop("facing", None)
        return turn_number, None
    order_type = rng_data.draw(st.sampled_from(["stall", "sacrifice"]))
    turns[turn_number - 1]["orders"][0] = {"type": order_type, **(
        {"battalion": order["battalion"]} if order_type == "sacrifice" and "battalion" in order else {})}
    if order_type == "sacrifice" and "battalion" not in order:
        turns[turn_number - 1]["orders"][0] = {"type": "stall"}
    return turn_number, None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, board=boards, data=st.data())
def test_a_single_step_mutation_is_legal_or_rejected_at_that_step_never_earlier(seed, board, data):
    doc = game_for(seed, board, max_turns=30)
    mutated = copy.deepcopy(doc)
    where = mutate(mutated, data)
    if where is None:
        return
    turn_number, action_number = where
    verdict = adjudicate(mutated).to_dict()
    if verdict["valid"]:
        return
    error = verdict["error"]
    assert error["code"] != "internal_error", error
    if error["turn"] is None:  # the result: read after every turn
        return
    assert error["turn"] >= turn_number, (where, error)
    if error["turn"] == turn_number and action_number is not None and error["action"] is not None:
        if error["action"] < action_number:
            # R5: a face action is legal only in a Maneuver of face actions alone (a Stall); an action
            # changed after it into another act makes the face action itself the first illegal step.
            actions = mutated["turns"][turn_number - 1]["orders"][error["order"] - 1]["actions"]
            assert actions[error["action"] - 1]["act"] == "face", (where, error)
            assert actions[action_number - 1]["act"] != "face", (where, error)
        else:
            assert error["action"] >= action_number, (where, error)


variant_sets = st.lists(st.sampled_from(VARIANTS), unique=True, max_size=3).map(tuple)


@SETTINGS
@given(seed=seeds, variants=variant_sets)
def test_the_fast_turn_end_checks_agree_with_the_explained_ones(seed, variants):
    """The checks at every turn end skip the sentence and search in any order (`has_aggressive_action`,
    `HOLDS`); a claim is judged by the explained ones. Both must find the same thing, or a battle's
    missed victory and a rejected claim would disagree."""
    doc = generate_game(seed, max_turns=40, variants=variants)
    for snapshot in replay_states(doc):
        state = snapshot.state
        for player in (0, 1):
            assert has_aggressive_action(state, player) == (aggressive_action(state, player) is not None), \
                (seed, variants, snapshot.turn, player)
            for condition, holds in HOLDS.items():
                assert holds(state, player) == condition_holds(state, player, condition).holds, \
                    (seed, variants, snapshot.turn, player, condition)


@SETTINGS
@given(seed=seeds, variants=variant_sets)
def test_an_aggressive_action_found_at_hand_is_one_the_maneuver_search_finds(seed, variants):
    """`has_aggressive_action` answers early when a battalion's simplest paths (one turn, then straight
    ahead) meet an attack or a rampart to destroy; the whole Maneuver search must meet one too, for
    every battalion, or Blunt would be refused where it holds."""
    doc = generate_game(seed, max_turns=40, variants=variants)
    for snapshot in replay_states(doc):
        state = snapshot.state
        for player in (0, 1):
            hidden, candidates = maneuverable(state, player)
            for battalion, ma in candidates:
                if aggressive_at_hand(state, battalion, ma, hidden):
                    assert first_aggressive(state, battalion, ma, hidden) is not None, \
                        (seed, variants, snapshot.turn, state.ids[battalion])


@SETTINGS
@given(seed=seeds, variants=variant_sets)
def test_a_battalion_said_to_move_uniformly_pays_one_ma_everywhere(seed, variants):
    """The searches skip the cost hooks for a battalion whose moves all cost 1 MA (`uniform_moves_for`);
    the hooks themselves must agree, on every zone, for every battalion, at every turn end."""
    doc = generate_game(seed, max_turns=20, variants=variants)
    for snapshot in replay_states(doc):
        state = snapshot.state
        ruleset = state.ruleset
        for battalion in range(len(state.ids)):
            if state.zone[battalion] >= 0 and ruleset.uniform_moves_for(state, battalion):
                for zone in range(state.board.size):
                    assert ruleset.can_enter(state, battalion, zone), (seed, variants, zone)
                    assert ruleset.move_cost(state, battalion, zone) == 1, (seed, variants, zone)


@SETTINGS
@given(seed=seeds, variants=variant_sets)
def test_a_step_out_found_at_hand_is_one_the_maneuver_search_finds(seed, variants):
    """Paralyze after a Stall (R91) first looks for a one-step Move out of the zone without a search; the
    whole Maneuver search must reach another zone too, for every top-most battalion and every MA."""
    doc = generate_game(seed, max_turns=40, variants=variants)
    for snapshot in replay_states(doc):
        state = snapshot.state
        for battalion in range(len(state.ids)):
            where = state.zone[battalion]
            if where < 0 or state.stacks[where][-1] != battalion:
                continue
            for ma in (1, 2, 8):
                if _steps_out_at_hand(state, battalion, ma):
                    assert any(event.kind == "position" and event.zone != where
                               for event in state.explore(battalion, ma, builds=False)), \
                        (seed, variants, snapshot.turn, state.ids[battalion], ma)
