"""Numbers in sentences: "1 paper", "3,703 papers", "2 saved searches"; text shortened whole.

Every count the CLI and the app show goes through ``count`` (or ``plural`` where the number is
written apart), so that no message says "1 papers" or "3703 marked".
"""

from __future__ import annotations

#: Plurals given outright (``_plural_word``'s rules make the others).
_PLURALS = {
    "query": "queries",
    "entry": "entries",
    "library": "libraries",
    "status": "statuses",
}


def plural(n: int, noun: str) -> str:
    """``noun`` as it reads after the number ``n``; in a noun of several words ("record
    error", "starred paper") the last word takes the number."""
    if n == 1:
        return noun
    head, space, last = noun.rpartition(" ")
    return head + space + _plural_word(last)


def _plural_word(word: str) -> str:
    if word in _PLURALS:
        return _PLURALS[word]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"  # matches, searches, statuses
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"  # entries, libraries (days, keys keep the y)
    return word + "s"


def count(n: int, noun: str) -> str:
    """``n`` with thousands separators and ``noun`` in the right number: ``3,703 papers``."""
    return f"{n:,} {plural(n, noun)}"


#: A list's name in a line for people is cut to this many characters (``shortened``), as the
#: app's tables and toasts cut one to as many cells (``tui.text.NAME_CELLS``): a list named in
#: 100,000 characters by a script made lines of 100,000. What scripts read keeps it whole.
NAME_CHARACTERS = 40


def shortened(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: as it is if it fits, else cut after its last
    whole word that fits, with "…" (a single word longer than that is cut through)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut_through = not head[-1].isspace() and not text[limit - 1].isspace()
    if cut_through and " " in head.strip():
        head = head.rpartition(" ")[0]
    return head.rstrip(" ,;:") + "…"
