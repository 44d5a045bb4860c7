"""Each variant declares its own fields of the battle state once (`FIELDS` of its mixin), and the battle
copies and keys them from there: a copy a search changes never changes the battle it came from, and two
battlefields that differ in a variant's field never share an answer of the searches' memo (R99, R103:
`BattleState.position_key`). A field declared without a copy or left out of the key fails here."""
import pytest

from rules_engine import BattleState, generate_game, replay_states
from rules_engine.model import VARIANTS
from rules_engine.variants import MIXINS

DECLARED = {field.name: (variant, field) for variant, mixin in MIXINS.items() for field in mixin.FIELDS}


def states_electing(variants: tuple[str, ...]) -> list[BattleState]:
    """Battles electing `variants`, at a few turn ends each (fields as setup gave them, and as turns changed them)."""
    found = []
    for seed in (3, 11):
        snapshots = list(replay_states(generate_game(seed, max_turns=30, variants=variants)))
        found += [snapshot.state for snapshot in snapshots[::7]]
    return found


def changed_in_place(value) -> None:
    """A change a turn could make to a field's value, in place (a zone's terrain, a pool, an overgrown zone)."""
    if isinstance(value, list):
        value[0] = ("changed",)
    elif isinstance(value, dict):
        value[-1] = ("changed",)
    else:  # pragma: no cover - a new kind of field: say how a turn changes it
        raise AssertionError(f"no in-place change known for {type(value).__name__}")


def battle_slots() -> tuple[str, ...]:
    # (compiled by mypyc, the class lists its fields in __mypyc_attrs__ instead)
    return getattr(BattleState, "__slots__", None) or BattleState.__mypyc_attrs__


def test_every_variant_field_lives_in_its_variant_alone():
    assert DECLARED, "no variant declares a field"
    assert not set(DECLARED) & set(battle_slots())
    names = [field.name for mixin in MIXINS.values() for field in mixin.FIELDS]
    assert len(names) == len(set(names)), "two variants declare the same field"


def test_a_field_a_copy_gets_its_own_is_part_of_the_position_key():
    """Whatever a turn changes in a variant's part, the searches' memo must tell apart (R103)."""
    for name, (variant, field) in DECLARED.items():
        if field.copy is not None:
            assert field.key is not None, f"{variant}.{name} is copied but not keyed"


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_changing_a_variant_field_on_a_copy_leaves_the_battle_and_changes_the_key(name):
    variant, field = DECLARED[name]
    states = states_electing(VARIANTS)
    for state in states:
        original = getattr(state.variant, name)
        assert original is not None, f"{variant} elected but {name} not set up"
        other = state.copy()
        assert other.variant == state.variant
        assert other.position_key() == state.position_key()
        if field.copy is None:  # fixed for the battle: shared by every copy
            assert getattr(other.variant, name) is original
            continue
        before = (list(original) if isinstance(original, list) else dict(original), state.position_key())
        changed_in_place(getattr(other.variant, name))
        assert (list(original) if isinstance(original, list) else dict(original), state.position_key()) == before
        assert other.position_key() != state.position_key(), f"{name} is not in the position key"


@pytest.mark.parametrize("elected", [(name,) for name in VARIANTS] + [()])
def test_the_fields_of_a_variant_not_elected_read_none(elected):
    for state in states_electing(elected)[:2]:
        for name, (variant, _field) in DECLARED.items():
            if variant not in elected:
                assert getattr(state.variant, name) is None, (elected, name)
            else:
                assert getattr(state.variant, name) is not None, (elected, name)
        other = state.copy()
        assert other.variant == state.variant and other.position_key() == state.position_key()
