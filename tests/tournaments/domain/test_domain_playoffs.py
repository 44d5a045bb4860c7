"""Playoff battles for a tie that matters (R24): replays after Stalemate or Resolve, knockouts for more."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain import BattleResult, DomainError, Kind, Outcome, PlayoffState, next_playoff_pairings


def won(winner, loser):
    return BattleResult(winner, loser, Outcome(Kind.VICTORY, winner=winner, condition="overpower"), playoff=True)


def drawn(a, b, kind=Kind.STALEMATE):
    return BattleResult(a, b, Outcome(kind), playoff=True)


def test_two_tied_play_one_battle():
    assert next_playoff_pairings(["1", "2"], []) == PlayoffState(winner=None, pending=(("1", "2"),))
    assert next_playoff_pairings(["1", "2"], [won("2", "1")]) == PlayoffState(winner="2", pending=())


@pytest.mark.parametrize("kind", [Kind.STALEMATE, Kind.RESOLVE])
def test_a_stalemate_or_resolve_means_the_same_pairing_again(kind):  # R24
    results = [drawn("1", "2", kind)]
    assert next_playoff_pairings(["1", "2"], results) == PlayoffState(winner=None, pending=(("1", "2"),))
    results.append(drawn("2", "1", kind))
    assert next_playoff_pairings(["1", "2"], results).pending == (("1", "2"),)
    results.append(won("1", "2"))
    assert next_playoff_pairings(["1", "2"], results) == PlayoffState(winner="1", pending=())


def test_a_scheduled_playoff_battle_is_still_pending():
    results = [BattleResult("1", "2", playoff=True)]
    assert next_playoff_pairings(["1", "2"], results).pending == (("1", "2"),)


def test_a_forfeit_decides_a_playoff():
    forfeit = BattleResult("1", "2", Outcome(Kind.FORFEIT, winner="2", forfeited_by="1"), playoff=True)
    assert next_playoff_pairings(["1", "2"], [forfeit]).winner == "2"


def test_three_tied_the_first_waits_with_a_bye_then_a_final():
    tied = ["1", "2", "3"]
    assert next_playoff_pairings(tied, []) == PlayoffState(winner=None, pending=(("2", "3"),))
    assert next_playoff_pairings(tied, [drawn("2", "3")]).pending == (("2", "3"),)
    assert next_playoff_pairings(tied, [drawn("2", "3"), won("3", "2")]) == PlayoffState(
        winner=None, pending=(("1", "3"),))
    final = [drawn("2", "3"), won("3", "2"), won("1", "3")]
    assert next_playoff_pairings(tied, final) == PlayoffState(winner="1", pending=())


def test_four_tied_two_semi_finals_then_a_final():
    tied = ["1", "2", "3", "4"]
    assert next_playoff_pairings(tied, []).pending == (("1", "2"), ("3", "4"))
    assert next_playoff_pairings(tied, [won("4", "3")]).pending == (("1", "2"),)  # the final waits for both
    semis = [won("4", "3"), won("2", "1")]
    assert next_playoff_pairings(tied, semis).pending == (("2", "4"),)
    assert next_playoff_pairings(tied, [*semis, drawn("4", "2", Kind.RESOLVE)]).pending == (("2", "4"),)
    assert next_playoff_pairings(tied, [*semis, won("4", "2")]) == PlayoffState(winner="4", pending=())


def test_five_tied_three_byes():
    tied = ["1", "2", "3", "4", "5"]
    assert next_playoff_pairings(tied, []).pending == (("4", "5"),)
    assert next_playoff_pairings(tied, [won("5", "4")]).pending == (("1", "2"), ("3", "5"))


def test_the_order_of_recorded_results_does_not_matter():
    tied = ["1", "2", "3", "4"]
    results = [won("2", "1"), drawn("3", "4"), won("4", "3"), won("2", "4")]
    assert next_playoff_pairings(tied, results) == next_playoff_pairings(tied, list(reversed(results)))


def test_results_outside_the_bracket_are_ignored():
    assert next_playoff_pairings(["1", "2"], [won("1", "3"), won("3", "2")]).pending == (("1", "2"),)


def test_one_general_left_wins_at_once():
    assert next_playoff_pairings(["7"], []) == PlayoffState(winner="7", pending=())


def test_no_tied_generals_or_a_repeated_one_is_refused():
    with pytest.raises(DomainError, match="needs the tied generals"):
        next_playoff_pairings([], [])
    with pytest.raises(DomainError, match="each tied general once"):
        next_playoff_pairings(["1", "1"], [])


@given(st.integers(min_value=2, max_value=12), st.data())
def test_a_knockout_always_ends_with_one_winner_after_count_minus_one_decisive_battles(count, data):
    tied = [str(i) for i in range(1, count + 1)]
    results: list[BattleResult] = []
    decisive = 0
    for _ in range(5 * count + 5):
        state = next_playoff_pairings(tied, results)
        if state.winner is not None:
            break
        assert state.pending
        playing = [g for pairing in state.pending for g in pairing]
        assert len(playing) == len(set(playing))  # nobody is in two pending battles
        for first, second in state.pending:
            if len(results) < 3 * count and data.draw(st.booleans(), label="replay"):
                results.append(drawn(first, second, data.draw(st.sampled_from([Kind.STALEMATE, Kind.RESOLVE]))))
            else:
                results.append(won(*data.draw(st.permutations([first, second]), label="winner")))
                decisive += 1
    assert state.winner in tied
    assert decisive == count - 1
    eliminated = {r.opponent(r.outcome.winner) for r in results if r.outcome.kind is Kind.VICTORY}
    assert eliminated == set(tied) - {state.winner}
