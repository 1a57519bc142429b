"""Text to terms: which words of a title or abstract count, and in which form.

Words are those the search index reads (``storage.paper_words``: LaTeX as shown, folded as
everywhere in papers-tui, ``Lévy`` reads ``levy``, ``ﬁne`` reads ``fine``, Greek letters by
name), with the punctuation that ends a phrase kept at their edges as ``BREAK`` (no bigram
spans it; one inside a word is dropped: ``e.g.`` is ``eg``). A word is a term unless it is a
stop word (English and paper boilerplate such as ``propose``, ``results``, LaTeX command
names), a number or a single letter; a plural counts as its singular when the corpus has that
(``graphs`` -> ``graph``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from storage.paper_words import BREAK as PHRASE_END

_STOPWORD_TEXT: Final = """
    a about above across after again against all almost along already also although always am
    among an and another any are around as at be because been before being below between both
    but by can cannot could did do does doing done down during each either else enough especially
    etc even ever every few for from further had has have having he her here hers him his how
    however i if in into is it its itself just least less let like likely made make makes making
    many may me might more most much must my neither no nor not now of off often on once one only
    onto or other others otherwise our ours out over own per perhaps rather same shall she should
    since so some such than that the their theirs them themselves then there thereby therefore
    these they this those though through throughout thus to together too toward towards under
    until up upon us very via was we well were what whatever when where whereas whether which
    while who whom whose why will with within without would yet you your yours
    eg ie et al vs cf resp wrt

    paper papers work works study studies propose proposes proposed proposing present presents
    presented introduce introduces introduced introducing approach approaches method methods
    technique techniques framework frameworks result results show shows showed shown showing
    demonstrate demonstrates demonstrated demonstrating find finds found finding findings
    experiment experiments experimental experimentally empirical empirically extensive
    extensively evaluate evaluates evaluated evaluation evaluations outperform outperforms
    outperformed outperforming achieve achieves achieved achieving improve improves improved
    improving improvement improvements significant significantly substantially substantial
    effective effectively efficient efficiently novel new existing prior previous previously recent
    recently current currently state art sota various variety several different diverse wide range
    widely commonly common key main important crucial critical challenge challenges challenging
    problem problems issue issues task tasks address addresses addressing leverage leverages
    leveraging enable enables enabling provide provides provided providing remain remains
    remaining including include includes included based use uses used using usage whose
    able ability often first second third two three four five six seven eight nine ten
    consistently competitive comparable compared comparison comparisons superior better best
    good high higher highly low lower large larger largest small smaller strong stronger
    furthermore moreover additionally specifically particular particularly notably instead
    namely given allows allow allowing aim aims via upon beyond despite toward around yield
    yields code available release released publicly open source https http www com org io html
    github url pdf project page anonymous
    performance due effectiveness potential specific require requires required requiring
    limitation limitations limited solution solutions research simple need needs needed identify
    lead leads leading insight insights rely relies relying perform performs performed
    comprehensive enhance enhances enhanced enhancing application applications finally manner
    discuss discusses discussed consequence consequences know known virtually overall
    respectively typically usually still related whereby furthermore hence seem seems

    mathcal mathbb mathbf mathrm mathsf mathit mathfrak boldsymbol operatorname textit textbf
    texttt textrm textsc textsuperscript textsubscript emph underline href cite citep citet
    frac sqrt ldots cdots dots cdot leq geq le ge neq approx infty widetilde tilde widehat hat
"""
_STOPWORDS: Final[frozenset[str]] = frozenset(_STOPWORD_TEXT.split())

#: Punctuation that ends a phrase, as a word keeps it at its edges.
BREAK: Final = PHRASE_END.decode("ascii")
_DIMENSION = re.compile(r"[1-9]d")


def _is_term(word: str) -> bool:
    """Whether a (lower-case) word can be a term: not a stop word, a number or a single letter."""
    if len(word) < 2 or word in _STOPWORDS:
        return False
    return not word[0].isdigit() or _DIMENSION.fullmatch(word) is not None


def _singular(word: str, vocabulary: Mapping[str, object]) -> str:
    """The singular of a plural word when the vocabulary has it (``graphs`` -> ``graph``)."""
    if len(word) < 4 or word[-1] != "s" or word[-2] in "su":
        return word
    if word.endswith("ies") and word[:-3] + "y" in vocabulary:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")) and word[:-2] in vocabulary:
        return word[:-2]
    if word[:-1] in vocabulary:
        return word[:-1]
    return word


def term_key(word: str, vocabulary: Mapping[str, object]) -> str | None:
    """The term a word counts as (its singular when that is a term), or None for no term."""
    if not _is_term(word):
        return None
    singular = _singular(word, vocabulary)
    return singular if singular == word or _is_term(singular) else word


def distinct(terms: Iterable[str], limit: int) -> tuple[str, ...]:
    """Up to ``limit`` terms, skipping one whose words an earlier term already shows.

    A bigram that extends earlier single words replaces them (``diffusion`` then
    ``diffusion model`` gives ``diffusion model``).
    """
    chosen: list[str] = []
    for term in terms:
        words = set(term.split())
        overlapping = [i for i, c in enumerate(chosen) if words & set(c.split())]
        if not overlapping:
            if len(chosen) >= limit:
                break
            chosen.append(term)
        elif all(set(chosen[i].split()) < words for i in overlapping):
            chosen[overlapping[0]] = term
            for i in reversed(overlapping[1:]):
                del chosen[i]
    return tuple(chosen)
