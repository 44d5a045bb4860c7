"""A whole tournament through the pure functions only: groups, schedules, standings, playoffs, the final."""
from tournaments.domain import (
    BattleResult,
    Kind,
    Outcome,
    assign_snake,
    check_partition,
    compute_standings,
    decide_place,
    next_playoff_pairings,
    round_robin,
)


def play(pairing, winner, condition="crush"):
    return BattleResult(pairing.first, pairing.second, Outcome(Kind.VICTORY, winner=winner, condition=condition))


def test_eight_generals_two_groups_a_playoff_and_a_final():
    field = [str(i) for i in range(1, 9)]
    assert check_partition(len(field), 2) == 4
    groups = assign_snake(field, 2)
    assert groups == [["1", "4", "5", "8"], ["2", "3", "6", "7"]]

    # Group A: the lower key always wins by Crush. Group B: a rock-paper-scissors among 2, 3 and 6, who
    # all beat 7 by Shackle, so three generals are tied on every figure.
    cycle = {frozenset(("2", "3")): "2", frozenset(("3", "6")): "3", frozenset(("2", "6")): "6"}

    def winner_b(pairing):
        pair = frozenset((pairing.first, pairing.second))
        return cycle[pair] if pair in cycle else next(iter(pair - {"7"}))

    results_a = [play(p, min(p.first, p.second, key=int)) for p in round_robin(groups[0])]
    results_b = [play(p, winner_b(p), "shackle") for p in round_robin(groups[1])]

    assert decide_place(compute_standings(groups[0], results_a)).decided == "1"
    table_b = compute_standings(groups[1], results_b)
    decision = decide_place(table_b)
    assert decision.decided is None and decision.tied == ("2", "3", "6")
    assert [row.place for row in table_b] == [1, 1, 1, 4]

    playoffs = []
    state = next_playoff_pairings(decision.tied, playoffs)
    assert state.pending == (("3", "6"),)  # "2" has the bye
    playoffs.append(BattleResult("3", "6", Outcome(Kind.STALEMATE), playoff=True))
    assert next_playoff_pairings(decision.tied, playoffs).pending == (("3", "6"),)
    playoffs.append(BattleResult("6", "3", Outcome(Kind.VICTORY, winner="6", condition="blunt"), playoff=True))
    assert next_playoff_pairings(decision.tied, playoffs).pending == (("2", "6"),)
    playoffs.append(BattleResult("2", "6", Outcome(Kind.VICTORY, winner="6", condition="overpower"), playoff=True))
    assert next_playoff_pairings(decision.tied, playoffs).winner == "6"
    # R24: the playoffs decided the place without changing a single figure
    assert compute_standings(groups[1], results_b + playoffs) == table_b

    final = round_robin(["1", "6"])
    assert [(p.first, p.second) for p in final] == [("1", "6")]
    standings = compute_standings(["1", "6"], [play(final[0], "6", "shackle")])
    assert decide_place(standings).decided == "6"
