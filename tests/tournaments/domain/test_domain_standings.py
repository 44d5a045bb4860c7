"""Standings (R21-R24): worked examples for every tie-breaker, then properties over random tables."""
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.domain import (
    METRICS_BY_KEY,
    TIEBREAKERS,
    BattleResult,
    Decision,
    DomainError,
    ForfeitAward,
    Kind,
    Outcome,
    compute_standings,
    decide_place,
    opp_awards,
)


def win(winner, loser, condition="overpower"):
    return BattleResult(winner, loser, Outcome(Kind.VICTORY, winner=winner, condition=condition))


def stalemate(a, b):
    return BattleResult(a, b, Outcome(Kind.STALEMATE))


def resolve(a, b):
    return BattleResult(a, b, Outcome(Kind.RESOLVE))


def forfeit(by, opponent):
    return BattleResult(by, opponent, Outcome(Kind.FORFEIT, winner=opponent, forfeited_by=by))


def unplayed(disqualified, opponent):
    return BattleResult(disqualified, opponent, Outcome(Kind.UNPLAYED_DQ, disqualified=disqualified))


def scheduled(a, b):
    return BattleResult(a, b)


def figures(row):
    return {metric.key: row.figure(metric.key) for metric in TIEBREAKERS}


def by_general(rows):
    return {row.general: row for row in rows}


# --- the registry -----------------------------------------------------------------------------------

def test_the_registry_is_the_seed_s_order():  # R24
    assert [m.key for m in TIEBREAKERS] == [
        "opp", "victories", "shackle_victories", "crush_victories", "paralyze_victories", "blunt_victories",
        "stalemate_defeats", "resolve_defeats"]
    assert [m.label for m in TIEBREAKERS][1:] == [
        "Victories", "Victories by Shackle", "Victories by Crush", "Victories by Paralyze", "Victories by Blunt",
        "Defeats by Stalemate", "Defeats by Resolve"]
    assert [m.higher_is_better for m in TIEBREAKERS] == [True] * 6 + [False] * 2
    assert METRICS_BY_KEY["shackle_victories"].label == "Victories by Shackle"


def test_figure_reads_the_counters_and_nothing_else():
    row = compute_standings(["1", "2"], [win("1", "2", "shackle")])[0]
    assert row.figure("shackle_victories") == 1 and row.figure("played") == 1 and row.figure("pending") == 0
    with pytest.raises(KeyError):
        row.figure("general")


# --- one worked example per tie-breaker (R24) ---------------------------------------------------------
# In each, general "20" and general "10" are equal on every figure before the breaker named, and "20" is
# ahead on it: "20" must come first although its key sorts after "10". Opponents are "o1".."o4".

OPPONENTS = ["o1", "o2", "o3", "o4"]

TIE_BREAKER_EXAMPLES = {
    "opp": (
        [win("20", "o1", "crush"), win("10", "o2", "overpower")], ForfeitAward()),
    "victories": (  # 2 OPP each: two Overpowers beat one Blunt
        [win("20", "o1"), win("20", "o2"), win("10", "o3", "blunt")], ForfeitAward()),
    "shackle_victories": (  # 6 OPP, 2 Victories each: Shackle + Overpower beats Crush + Crush
        [win("20", "o1", "shackle"), win("20", "o2"), win("10", "o3", "crush"), win("10", "o4", "crush")],
        ForfeitAward()),
    "crush_victories": (  # 4 OPP, 2 Victories each: Crush + Overpower beats Paralyze + Overpower
        [win("20", "o1", "crush"), win("20", "o2"), win("10", "o3", "paralyze"), win("10", "o4")],
        ForfeitAward()),
    "paralyze_victories": (  # 4 OPP, 2 Victories each: Paralyze + Overpower beats Blunt + Blunt
        [win("20", "o1", "paralyze"), win("20", "o2"), win("10", "o3", "blunt"), win("10", "o4", "blunt")],
        ForfeitAward()),
    "blunt_victories": (  # 2 OPP, 2 Victories each; the Blunt decides before "20"'s Stalemate counts
        [win("20", "o1", "blunt"), win("20", "o2"), stalemate("20", "o3"), win("10", "o3"), win("10", "o4")],
        ForfeitAward()),
    "stalemate_defeats": (  # 1 OPP, 1 Victory each; "10" got back its Stalemate's -1 from a battle unplayed (R23)
        [win("20", "o1"), win("10", "o2"), stalemate("10", "o3"), unplayed("o4", "10")], ForfeitAward()),
    "resolve_defeats": (  # 0 OPP, 0 Victories each, under an organizer's forfeit award of 10 OPP, no Victory (R22)
        [win("o1", "20"), resolve("10", "o2"), forfeit("o3", "10")], ForfeitAward(opp=10, counts_as_victory=False)),
}


@pytest.mark.parametrize("breaker", list(TIE_BREAKER_EXAMPLES))
def test_each_tie_breaker_decides_in_turn(breaker):  # R24
    results, award = TIE_BREAKER_EXAMPLES[breaker]
    rows = by_general(compute_standings(["10", "20", *OPPONENTS], results, disqualified={"o4"},
                                        forfeit_award=award))
    ahead, behind = rows["20"], rows["10"]
    keys = [m.key for m in TIEBREAKERS]
    for earlier in keys[:keys.index(breaker)]:
        assert ahead.figure(earlier) == behind.figure(earlier), earlier
    assert ahead.figure(breaker) != behind.figure(breaker)
    assert ahead.place < behind.place


def test_the_breaker_examples_in_figures():
    rows = by_general(compute_standings(["10", "20", *OPPONENTS], TIE_BREAKER_EXAMPLES["blunt_victories"][0]))
    assert (rows["20"].opp, rows["20"].victories, rows["20"].blunt_victories, rows["20"].stalemate_defeats) == (
        2, 2, 1, 1)
    assert (rows["10"].opp, rows["10"].victories, rows["10"].blunt_victories, rows["10"].stalemate_defeats) == (
        2, 2, 0, 0)


def test_generals_equal_on_every_figure_share_the_place_one_one_three():
    rows = compute_standings(["3", "1", "2", "4"], [win("1", "3", "crush"), win("2", "4", "crush"),
                                                    win("3", "4", "blunt")])
    assert [(r.general, r.place, r.shared) for r in rows] == [
        ("1", 1, True), ("2", 1, True), ("3", 3, False), ("4", 4, False)]


def test_shared_places_list_numeric_keys_by_number():
    rows = compute_standings(["17", "2", "b", "a"], [])
    assert [r.general for r in rows] == ["2", "17", "a", "b"]
    assert {r.place for r in rows} == {1} and all(r.shared for r in rows)


def test_stalemate_and_resolve_are_defeats_for_both_generals():  # seed: "Lost by Stalemate (both Generals)"
    rows = by_general(compute_standings(["1", "2"], [stalemate("1", "2"), resolve("2", "1")]))
    for general in ("1", "2"):
        assert (rows[general].opp, rows[general].stalemate_defeats, rows[general].resolve_defeats) == (-11, 1, 1)
        assert (rows[general].played, rows[general].victories, rows[general].defeats) == (2, 0, 0)


# --- forfeits (R22) and disqualification (R23) -------------------------------------------------------

def test_a_forfeit_with_the_default_award_is_a_victory_for_the_opponent():  # R22
    rows = by_general(compute_standings(["1", "2"], [forfeit("2", "1")]))
    assert (rows["1"].opp, rows["1"].victories, rows["1"].forfeits, rows["1"].played) == (1, 1, 0, 1)
    assert (rows["2"].opp, rows["2"].victories, rows["2"].forfeits, rows["2"].defeats) == (0, 0, 1, 1)


def test_a_forfeit_with_the_event_s_own_award():  # R22
    award = ForfeitAward(opp=2, counts_as_victory=False)
    rows = by_general(compute_standings(["1", "2"], [forfeit("2", "1")], forfeit_award=award))
    assert (rows["1"].opp, rows["1"].victories) == (2, 0)
    assert rows["2"].forfeits == 1


def test_a_battle_unplayed_because_of_a_disqualification_gives_one_opp_and_no_victory():  # R23
    rows = by_general(compute_standings(["1", "2"], [unplayed("2", "1")], disqualified={"2"}))
    assert (rows["1"].opp, rows["1"].victories, rows["1"].played, rows["1"].pending) == (1, 0, 0, 0)
    assert (rows["2"].opp, rows["2"].defeats, rows["2"].played) == (0, 0, 0)


def test_a_disqualified_general_keeps_a_marked_place_and_cannot_take_it():  # R23
    results = [win("1", "2", "shackle"), win("1", "3", "shackle"), win("2", "3"), unplayed("1", "4"),
               win("4", "3", "crush"), win("2", "4", "crush")]
    rows = compute_standings(["1", "2", "3", "4"], results, disqualified={"1", "elsewhere"})
    assert [(r.general, r.place, r.disqualified) for r in rows] == [
        ("1", 1, True), ("2", 2, False), ("4", 3, False), ("3", 4, False)]
    assert decide_place(rows) == Decision(decided="2")
    assert decide_place(rows, 2) == Decision(decided="4")
    assert decide_place(rows, 3) == Decision(decided="3")
    assert decide_place(rows, 4) == Decision(decided=None, tied=())


def test_decide_place_names_the_tied_generals_for_a_playoff():  # R24
    rows = compute_standings(["1", "2", "3", "4"], [win("1", "3"), win("2", "4"), win("4", "3")])
    assert decide_place(rows) == Decision(decided=None, tied=("1", "2", "4"))
    rows = compute_standings(["1", "2", "3", "4"], [win("1", "3"), win("2", "4"), win("4", "3")], disqualified={"2"})
    assert decide_place(rows) == Decision(decided=None, tied=("1", "4"))


def test_decide_place_when_everyone_is_disqualified():  # R23: nobody can win
    rows = compute_standings(["1", "2"], [win("1", "2")], disqualified={"1", "2"})
    assert decide_place(rows) == Decision(decided=None, tied=())


def test_decide_place_refuses_place_zero():
    with pytest.raises(DomainError, match="Places start at 1; 0 is not a place."):
        decide_place([], 0)


def test_playoff_battles_never_change_the_figures():  # R24
    plain = compute_standings(["1", "2"], [stalemate("1", "2")])
    with_playoffs = compute_standings(["1", "2"], [
        stalemate("1", "2"), BattleResult("1", "2", Outcome(Kind.RESOLVE), playoff=True),
        BattleResult("1", "2", Outcome(Kind.VICTORY, winner="2", condition="shackle"), playoff=True),
        BattleResult("1", "2", playoff=True)])
    assert with_playoffs == plain


def test_scheduled_battles_are_pending():
    rows = by_general(compute_standings(["1", "2", "3"], [scheduled("1", "2"), scheduled("1", "3"), win("2", "3")]))
    assert (rows["1"].pending, rows["2"].pending, rows["3"].pending) == (2, 1, 1)
    assert (rows["1"].played, rows["2"].played) == (0, 1)


def test_a_battle_of_a_general_outside_the_table_is_refused():
    with pytest.raises(DomainError) as refused:
        compute_standings(["1", "2"], [win("1", "9")])
    assert str(refused.value) == ("A battle between 1 and 9 names general 9, who is not in this group or season; "
                                  "add them to its generals or leave that battle out.")


# --- properties ------------------------------------------------------------------------------------

GENERALS = [str(i) for i in range(1, 9)] + ["a", "b"]


@st.composite
def battle(draw, generals):
    a, b = draw(st.permutations(generals))[:2]
    kind = draw(st.sampled_from(["victory", "stalemate", "resolve", "forfeit", "unplayed_dq", "scheduled"]))
    if kind == "scheduled":
        outcome = None
    elif kind == "victory":
        outcome = Outcome(Kind.VICTORY, winner=a, condition=draw(st.sampled_from(
            ["overpower", "crush", "shackle", "paralyze", "blunt", "forced_surrender", "voluntary_surrender"])))
    elif kind == "forfeit":
        outcome = Outcome(Kind.FORFEIT, winner=b, forfeited_by=a)
    elif kind == "unplayed_dq":
        outcome = Outcome(Kind.UNPLAYED_DQ, disqualified=a)
    else:
        outcome = Outcome(Kind(kind))
    return BattleResult(a, b, outcome, playoff=draw(st.booleans()) and draw(st.booleans()))


@st.composite
def table(draw):
    generals = draw(st.lists(st.sampled_from(GENERALS), min_size=2, max_size=len(GENERALS), unique=True))
    results = draw(st.lists(battle(generals), max_size=30))
    disqualified = draw(st.sets(st.sampled_from(generals)))
    award = draw(st.builds(ForfeitAward, opp=st.integers(-2, 10), counts_as_victory=st.booleans()))
    return generals, results, disqualified, award


@settings(max_examples=200)
@given(table(), st.randoms(use_true_random=False))
def test_the_order_never_depends_on_the_input_order(data, random):
    generals, results, disqualified, award = data
    rows = compute_standings(generals, results, disqualified=disqualified, forfeit_award=award)
    shuffled_generals, shuffled_results = list(generals), list(results)
    random.shuffle(shuffled_generals)
    random.shuffle(shuffled_results)
    assert compute_standings(iter(shuffled_generals), iter(shuffled_results), disqualified=list(disqualified),
                             forfeit_award=award) == rows


@settings(max_examples=200)
@given(table())
def test_total_opp_is_the_sum_of_the_per_battle_awards(data):
    generals, results, disqualified, award = data
    rows = compute_standings(generals, results, disqualified=disqualified, forfeit_award=award)
    per_general = dict.fromkeys(generals, 0)
    for result in results:
        for general, opp in opp_awards(result, award).items():
            per_general[general] += opp
    assert {row.general: row.opp for row in rows} == per_general
    assert sum(row.opp for row in rows) == sum(sum(opp_awards(r, award).values()) for r in results)


@settings(max_examples=200)
@given(table())
def test_places_follow_the_figures(data):
    generals, results, disqualified, award = data
    rows = compute_standings(generals, results, disqualified=disqualified, forfeit_award=award)
    assert sorted(row.general for row in rows) == sorted(generals)
    assert rows[0].place == 1
    for before, after in zip(rows, rows[1:], strict=False):
        assert before.place <= after.place
        assert before.sort_key() <= after.sort_key()
    for row in rows:
        strictly_better = sum(1 for other in rows if other.sort_key() < row.sort_key())
        assert row.place == strictly_better + 1
        equals = [other for other in rows if other.place == row.place]
        assert all(figures(other) == figures(row) for other in equals)  # shared places: equal on all figures
        assert row.shared == (len(equals) > 1)
        assert row.disqualified == (row.general in disqualified)
    assert sum(row.pending for row in rows) == 2 * sum(1 for r in results if r.outcome is None and not r.playoff)


@settings(max_examples=200)
@given(table(), st.data())
def test_a_victory_by_shackle_never_lowers_a_tied_general(data, more):
    generals, results, disqualified, award = data
    rows = compute_standings(generals, results, disqualified=disqualified, forfeit_award=award)
    tied = [row for row in rows if row.shared]
    assume(tied)
    general = more.draw(st.sampled_from([row.general for row in tied]))
    before = by_general(rows)[general]
    partners = {row.general for row in tied if row.place == before.place} - {general}
    opponent = more.draw(st.sampled_from(sorted(set(generals) - {general})))
    after_rows = by_general(compute_standings(generals, [*results, win(general, opponent, "shackle")],
                                              disqualified=disqualified, forfeit_award=award))
    after = after_rows[general]
    assert after.place <= before.place
    assert (after.opp, after.victories, after.shackle_victories) == (
        before.opp + 5, before.victories + 1, before.shackle_victories + 1)
    assert all(after_rows[p].place > after.place for p in partners)  # the tie is broken in their favour


@settings(max_examples=200)
@given(table())
def test_decide_place_never_picks_a_disqualified_general_and_picks_the_best_eligible(data):  # R23
    generals, results, disqualified, award = data
    rows = compute_standings(generals, results, disqualified=disqualified, forfeit_award=award)
    decision = decide_place(rows)
    eligible = [row for row in rows if not row.disqualified]
    if not eligible:
        assert decision == Decision(decided=None, tied=())
        return
    best = min(row.sort_key() for row in eligible)
    at_best = tuple(row.general for row in eligible if row.sort_key() == best)
    if len(at_best) == 1:
        assert decision == Decision(decided=at_best[0])
    else:
        assert decision == Decision(decided=None, tied=at_best)
    assert decide_place(list(reversed(rows))) == decision
