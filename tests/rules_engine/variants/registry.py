"""Every variant case, for the checks that span the corpus (each error code has a case); the checks
of the list itself are in `test_registry.py`."""
from . import test_battle_arts, test_double_time, test_recruiting, test_terrain

VARIANT_CASES = [*test_recruiting.CASES, *test_double_time.CASES, *test_terrain.CASES,
                 *test_battle_arts.CASES]
