"""A title for a paper that only comes with an abstract: ``NAME: phrase``, or its contribution."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.sources.titles.clean import RE_CONTROL
from storage.sources.titles.fit import MAX_TITLE_LENGTH, fit
from storage.sources.titles.names import analyse
from storage.sources.titles.phrases import (
    contribution_phrase,
    lower_first,
    name_aliases,
    name_phrase,
    strip_name,
)
from storage.text import normalize


@dataclass(frozen=True, slots=True)
class DerivedTitle:
    """A title derived from an abstract.

    ``title`` is what the app shows (at most :data:`MAX_TITLE_LENGTH` characters, never empty for
    a non-blank abstract); ``name`` is the method / benchmark / dataset / model name the paper
    introduces, or ``""`` when it introduces none.
    """

    title: str
    name: str


def _raw_fallback(abstract: str) -> str:
    text = " ".join(RE_CONTROL.sub(" ", abstract[: MAX_TITLE_LENGTH * 4]).split())
    return fit(text) if text else "Untitled"


def derive_title(abstract: str, github: Sequence[str] = ()) -> DerivedTitle:
    """Derive a display title (and the introduced name, if any) from an abstract.

    With a name: ``NAME: phrase`` where the phrase is the abstract's own description of it
    (appositive, acronym expansion or the noun phrase before it), or else the main contribution
    clause. Without one: the main contribution clause ("We present the first comprehensive
    analysis of X" -> "Analysis of X"). Always <= :data:`MAX_TITLE_LENGTH` characters, never
    empty for a non-blank abstract; ``DerivedTitle("", "")`` for a blank one.
    """
    if not abstract or not abstract.strip():
        return DerivedTitle("", "")
    analysis = analyse(abstract, github)
    name = analysis.name
    if name:
        prefix = name + ": "
        if len(prefix) > MAX_TITLE_LENGTH // 2:
            return DerivedTitle(fit(name), name)
        budget = MAX_TITLE_LENGTH - len(prefix)
        phrase = name_phrase(analysis, budget)
        if not phrase:
            aliases = name_aliases(name, analysis.acronyms)
            phrase = strip_name(contribution_phrase(analysis, budget), aliases)
            phrase = lower_first(phrase)
        if not phrase or normalize.key(phrase) == normalize.key(name):
            return DerivedTitle(fit(name), name)
        return DerivedTitle(fit(prefix + phrase, floor=len(prefix) + 8), name)
    phrase = contribution_phrase(analysis, MAX_TITLE_LENGTH)
    title = fit(phrase) if phrase else ""
    return DerivedTitle(title or _raw_fallback(abstract), "")
