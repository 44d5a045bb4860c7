"""Every corpus replay gets exactly the verdict it names (the shared examples included)."""
import json
from pathlib import Path

import pytest

from rules_engine import ERROR_CODES, adjudicate

from .corpus_cases import load_cases, mismatches
from .variants.registry import VARIANT_CASES

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_verdict(case):
    verdict = adjudicate(case.path.read_bytes()).to_dict()
    if case.exact:
        assert verdict == case.expect, case.checks
    else:
        assert mismatches(case.expect, verdict) == [], f"{case.checks}: {json.dumps(verdict)}"
    if not verdict["valid"]:
        assert verdict["error"]["code"] != "internal_error"
        assert verdict["error"]["message"].endswith(".")


def test_every_case_names_what_it_checks():
    assert all(case.checks for case in CASES)


# Codes that a file cannot show: a document over the size limit (tested in test_replay_reading),
# a file the command line cannot open (tested in test_cli), and the engine's own last resort.
# `unsupported_variant` stays in the catalogue (codes are stable) though every variant is built now.
# search_budget_exceeded: its logs are generated (`worst_case_game`, about 1 MB), test_worst_case.py.
NOT_IN_CORPUS = {"too_large", "unreadable_file", "internal_error", "unsupported_variant", "search_budget_exceeded"}


def test_every_error_code_has_a_corpus_case():
    covered = {case.expect["error"]["code"] for case in CASES if not case.expect.get("valid", True)}
    covered |= {case.error[0] for case in VARIANT_CASES if case.error is not None}
    assert set(ERROR_CODES) - NOT_IN_CORPUS - covered == set()
    assert covered - set(ERROR_CODES) == set()


def test_readme_lists_every_error_code():
    readme = (Path(__file__).resolve().parents[2] / "rules_engine" / "README.md").read_text()
    assert [code for code in ERROR_CODES if f"| `{code}` |" not in readme] == []
