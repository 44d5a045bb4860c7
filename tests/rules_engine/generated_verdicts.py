"""The verdicts of a fixed generated corpus, pinned: a change meant only to make the engine faster must
leave every one of them as it was.

The corpus: for the Core Rules and each combination of the Organized Play variants, seeded games
(`generate_game`, 7 x 7 and some 5 x 5, up to 120 turns). Each verdict is pinned by a digest of its
JSON (`generated_verdicts.json`), so a failure names the variants and seed that changed.

When a ruling or the generator changes on purpose, write the file again and say why in the commit:

    .venv/bin/python -m tests.rules_engine.generated_verdicts --write
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
from pathlib import Path

from rules_engine import adjudicate, generate_game
from rules_engine.model import VARIANTS

PINNED = Path(__file__).with_name("generated_verdicts.json")
CORE_GAMES = 60
VARIANT_GAMES = 12


def corpus() -> list[tuple[str, tuple[str, ...], int, int]]:
    """(name, variants, seed, board side) of every replay, in a fixed order."""
    cases = []
    for size in range(len(VARIANTS) + 1):
        for combo in itertools.combinations(VARIANTS, size):
            for seed in range(CORE_GAMES if not combo else VARIANT_GAMES):
                side = 5 if seed % 4 == 3 else 7
                name = f"{'+'.join(combo) or 'core'} seed {seed} {side}x{side}"
                cases.append((name, combo, seed, side))
    return cases


def verdict_digest(variants: tuple[str, ...], seed: int, side: int) -> str:
    replay = generate_game(seed, width=side, height=side, max_turns=120, variants=variants)
    verdict = adjudicate(json.dumps(replay)).to_dict()
    return hashlib.sha256(json.dumps(verdict, sort_keys=True).encode()).hexdigest()[:16]


def digests() -> dict[str, str]:
    return {name: verdict_digest(variants, seed, side) for name, variants, seed, side in corpus()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {PINNED.name}")
    args = parser.parse_args()
    found = digests()
    if args.write:
        PINNED.write_text(json.dumps(found, indent=1) + "\n")
        print(f"wrote {len(found)} verdict digests to {PINNED}")
    else:
        pinned = json.loads(PINNED.read_text())
        changed = [name for name in found if pinned.get(name) != found[name]]
        print(f"{len(found)} verdicts, {len(changed)} changed: {changed[:10]}")


if __name__ == "__main__":
    main()
