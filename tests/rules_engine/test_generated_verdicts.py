"""Every verdict of the pinned generated corpus is unchanged (`generated_verdicts`): the engine's speed
work and its refactors may not change what it decides."""
import json

import pytest

from .generated_verdicts import PINNED, corpus, verdict_digest

CASES = corpus()
DIGESTS = json.loads(PINNED.read_text())


def test_the_pinned_file_covers_the_whole_corpus():
    assert set(DIGESTS) == {name for name, *_ in CASES}


@pytest.mark.parametrize(("name", "variants", "seed", "side"), CASES, ids=[case[0] for case in CASES])
def test_verdict_unchanged(name, variants, seed, side):
    assert verdict_digest(variants, seed, side) == DIGESTS[name], (
        f"the verdict of {name} changed; if a ruling or the generator changed on purpose, write the file "
        "again: .venv/bin/python -m tests.rules_engine.generated_verdicts --write")
