"""What the list checkers share: name normalisation (both specs, section 2.4) and reading JSON numbers."""
from __future__ import annotations

import re
import unicodedata
from typing import Any

_SPACES = re.compile(r"\s+")
_APOSTROPHES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u2032": "'"})


def name_key(name: str) -> str:
    """NFKC, trimmed, runs of whitespace collapsed, case-folded, curly apostrophes made straight."""
    text = unicodedata.normalize("NFKC", name).translate(_APOSTROPHES)
    return _SPACES.sub(" ", text).strip().casefold()


def word_key(word: str) -> str:
    """Trait and faction words: case-insensitive, spaces and hyphens ignored ("Dragon Lord" = "Dragonlord")."""
    return unicodedata.normalize("NFKC", word).replace(" ", "").replace("-", "").casefold()


def whole_number(value: Any) -> int | None:
    """A JSON number with no fractional part (3 and 3.0 alike) as an int, else None; true, false and
    "3" are not numbers."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
