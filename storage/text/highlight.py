"""Where the words a search matched occur in a text, so that the screen can mark them.

The search gives its hits' *index words*: folded (``storage.text.normalize.fold``), hyphenated
compounds joined (``ORW-CFM-W2`` → ``orwcfmw2``) and camelCase names split (``ParaSolver`` also
gives ``solver``). :func:`highlight_spans` finds those words again in any form of the text, raw
or displayed, and returns their character spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from storage.text.normalize import fold

_WORD = re.compile(r"[^\W_]+")
_WORD_OR_COMPOUND = re.compile(r"[^\W_]+(?:[-\u2010\u2011][^\W_]+)*")
_HYPHEN = re.compile(r"[-\u2010\u2011]")
_CAMEL_PART = re.compile(r"[A-Z]?[a-z]+")
#: Shorter terms never mark a longer word (``gan`` would mark every ``gand…``).
_MIN_PREFIX = 3


def highlight_spans(
    text: str, terms: Iterable[str], *, prefix_slack: int = 0
) -> list[tuple[int, int]]:
    """Character spans of ``text`` whose words are among ``terms``, in order.

    A word is marked when it folds to a term; a hyphenated compound when it does with its hyphens
    dropped (``ORW-CFM-W2`` for ``orwcfmw2``); a part of a camelCase word when the part is a term
    of three letters or more (``Solver`` of ``ParaSolver`` for ``solver``). With
    ``prefix_slack``, a word that starts with a term of three characters or more and is at most
    that many characters longer is marked too (``models`` for ``model`` with a slack of 1).
    """
    wanted = {fold(term) for term in terms}
    if not wanted:
        return []
    prefixes = [t for t in wanted if len(t) >= _MIN_PREFIX] if prefix_slack > 0 else []
    spans: list[tuple[int, int]] = []
    for match in _WORD_OR_COMPOUND.finditer(text):
        chunk = match.group()
        start = match.start()
        hyphenated = "-" in chunk or "\u2010" in chunk or "\u2011" in chunk
        if hyphenated and _HYPHEN.sub("", fold(chunk)) in wanted:
            spans.append((start, match.end()))
            continue
        for part in _WORD.finditer(chunk):
            word = part.group()
            folded = fold(word)
            if folded in wanted or any(
                folded.startswith(p) and len(folded) - len(p) <= prefix_slack for p in prefixes
            ):
                spans.append((start + part.start(), start + part.end()))
                continue
            for sub in _CAMEL_PART.finditer(word):
                if len(sub.group()) >= 3 and sub.group().lower() in wanted and sub.group() != word:
                    spans.append(
                        (start + part.start() + sub.start(), start + part.start() + sub.end())
                    )
    return spans
