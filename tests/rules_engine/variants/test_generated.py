"""Random legal games under every one of the 16 variant combinations adjudicate as valid."""
from itertools import combinations

import pytest

from rules_engine import adjudicate, generate_game
from rules_engine.model import VARIANTS

COMBINATIONS = [combo for size in range(len(VARIANTS) + 1) for combo in combinations(VARIANTS, size)]


@pytest.mark.parametrize("variants", COMBINATIONS, ids=["+".join(c) or "core" for c in COMBINATIONS])
def test_generated_games_are_valid(variants):
    for seed in range(6):
        game = generate_game(seed, variants=variants, max_turns=60)
        verdict = adjudicate(game).to_dict()
        assert verdict["valid"], (variants, seed, verdict)
        assert game["rules"]["variants"] == list(variants)


def test_there_are_sixteen_combinations():
    assert len(COMBINATIONS) == 16
