"""Every variant case, for the checks that span the corpus (each error code has a case)."""
from . import test_battle_arts, test_double_time, test_recruiting, test_terrain

VARIANT_CASES = [*test_recruiting.CASES, *test_double_time.CASES, *test_terrain.CASES,
                 *test_battle_arts.CASES]


def test_every_variant_case_names_its_rule():
    names = [case.name for case in VARIANT_CASES]
    assert len(names) == len(set(names))
    assert all(case.checks for case in VARIANT_CASES)
