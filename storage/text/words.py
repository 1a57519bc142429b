"""Numbers in sentences: "1 paper", "3,703 papers"."""

from __future__ import annotations

#: Nouns whose plural is not the noun and an "s".
_PLURALS = {"query": "queries", "entry": "entries", "library": "libraries"}


def plural(n: int, noun: str) -> str:
    """``noun`` as it reads after the number ``n``."""
    return noun if n == 1 else _PLURALS.get(noun, noun + "s")


def count(n: int, noun: str) -> str:
    """``n`` with thousands separators and ``noun`` in the right number: ``3,703 papers``."""
    return f"{n:,} {plural(n, noun)}"
