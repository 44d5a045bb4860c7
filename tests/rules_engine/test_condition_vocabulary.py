"""The victory-condition vocabulary is written once, in `rules_engine.conditions` (R10, R21): the replay
format's claimable conditions and the words a person reads are derived from it, never spelled again."""
from rules_engine.conditions import BEST_FIRST, LABELS, OUTCOME_LABELS, VICTORY_OPP, Condition
from rules_engine.model import CONDITIONS
from rules_engine.verdict import Outcome


def test_a_result_claims_exactly_the_declarable_conditions_R10():
    assert set(CONDITIONS) == {condition.value for condition in BEST_FIRST}
    assert CONDITIONS == ("overpower", "crush", "shackle", "paralyze", "blunt")  # the replay format's order


def test_every_condition_and_every_settled_outcome_has_the_words_a_person_reads():
    assert set(LABELS) == set(Condition) == set(VICTORY_OPP)
    assert LABELS[Condition.FORCED_SURRENDER] == "Forced Surrender"
    assert set(OUTCOME_LABELS) == {outcome.value for outcome in Outcome if outcome != Outcome.UNFINISHED}
    assert all(label and label[0].isupper() for label in (*LABELS.values(), *OUTCOME_LABELS.values()))
