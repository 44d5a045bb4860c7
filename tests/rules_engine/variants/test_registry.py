"""The variant cases as one list (`registry.VARIANT_CASES`): each has its own name and says what it checks."""
from .registry import VARIANT_CASES


def test_every_variant_case_names_its_rule():
    names = [case.name for case in VARIANT_CASES]
    assert len(names) == len(set(names)), sorted(name for name in names if names.count(name) > 1)
    assert all(case.checks for case in VARIANT_CASES)


def test_the_registry_holds_every_variant_module_s_cases():
    from . import test_battle_arts, test_double_time, test_recruiting, test_terrain
    modules = (test_battle_arts, test_double_time, test_recruiting, test_terrain)
    assert len(VARIANT_CASES) == sum(len(module.CASES) for module in modules)
