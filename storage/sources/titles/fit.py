"""Fitting a phrase into a title: parentheticals and dangling words out, cut at a clause boundary.

Titles never exceed :data:`MAX_TITLE_LENGTH` characters; a cut that is not at a clause or phrase
boundary ends with an ellipsis.
"""

from __future__ import annotations

import re

from storage.sources.titles.acronyms import RE_PAREN
from storage.sources.titles.tokens import word_set
from storage.text import normalize

MAX_TITLE_LENGTH = 100
"""Hard upper bound on the length of a derived title, in characters."""

_ELLIPSIS = "…"
# A parenthetical, but not the group of a script (``d^(1/3)``, ``Θ_(base)``): that is math.
_RE_PARENTHETICAL = re.compile(r"\s*(?<![\^_])[(\[][^()\[\]]{0,160}[)\]]")
_RE_OPEN_BRACKET = re.compile(r"(?<![\^_])[(\[]")
# Where a description ends: the first clause boundary (";", ", which", " and we show", ". ").
_RE_HARD_CUT = re.compile(
    r";|\s—\s|—|\s–\s|:\s*\(?(?:1|i|a)\)|\s\((?:1|i|a)\)|\.(?:\s|$)"
    r"|,\s*(?:which|where|while|whereas|thus|thereby|hence|and (?:we|it|our|they|then|also)|"
    r"but|yet|so that|such that|allowing|enabling|leading|resulting|achieving|showing|"
    r"demonstrating|outperforming|making|with|without|namely|e\.g\.|i\.e\.|specifically|"
    r"including|particularly|especially)\b"
    r"|\sand\s(?:then\s)?[a-z][a-z\-]+\s(?:a|an|the|our|their|its|several|two|three|new|novel)\s"
    r"|\s(?:and|but|then)\s(?:we\s)?(?:(?:prove|show|demonstrate|derive|provide|propose|"
    r"introduce|present|evaluate|establish|obtain|find|validate|conduct|develop|analy[sz]e|use|"
    r"achieve|extend|investigate|explore|reveal)(?:s|es|ed|d|ing)?|appl(?:y|ies|ied|ying)|"
    r"stud(?:y|ies|ied|ying)|identif(?:y|ies|ied|ying))\b",
    re.IGNORECASE,
)
# Where a too long title is cut without an ellipsis, best first: a clause boundary ("that",
# "which", ", ") past 45% of the limit, else a phrase boundary ("to", "for", "by") past 70%.
_CUT_TIERS = (
    (
        re.compile(
            r"\s(?=(?:that|which|where|while|whereby|such that|so that|thereby|whose)\s)"
            r"|,\s(?=(?:which|where|while|whereas|and|but|thus|thereby|including|such|e\.g\.|"
            r"i\.e\.|a|an|the|as|with|without|[a-z]+ing)\b)",
            re.IGNORECASE,
        ),
        0.45,
    ),
    (
        re.compile(
            r"\s(?=(?:by|using|via|through|to|with|without|based on|in order to|so as to|"
            r"as well as|for|under|from|across|on|in|against|over|beyond|within|into)\s)",
            re.IGNORECASE,
        ),
        0.7,
    ),
)
_RE_ADJ_END = re.compile(r"(?:ive|ent|ant|al|ic|ous|ful|less|able|ible|ary|ed)$")
_TRAILING_STOP = word_set(
    "a an the of for to and or in on with by from that which as at its their our is are be "
    "into over under via using than such whose this these both between across within based "
    "built designed tailored taken derived obtained used aimed aiming called named while applied "
    "guided conditioned trained including"
)


def tidy(phrase: str) -> str:
    """Drop parentheticals (and a dangling unclosed one) and stray punctuation; one line."""
    phrase = _RE_PARENTHETICAL.sub("", phrase)
    if "(" in phrase or "[" in phrase:
        dangling = _RE_OPEN_BRACKET.search(phrase)
        if dangling is not None:
            phrase = phrase[: dangling.start()]
    phrase = " ".join(phrase.split()).strip(" ,;:—–-\"“”'‘’.")
    return phrase.replace(" ,", ",")


def hard_cut(phrase: str) -> str:
    """Cut a phrase at its first clause boundary (";", ", which", " and we show", ". ")."""
    for m in _RE_HARD_CUT.finditer(phrase):
        if m.start() >= 12:
            phrase = phrase[: m.start()]
            break
    return phrase.strip(" ,;:—–-")


def _strip_trailing(words: list[str]) -> list[str]:
    """Drop dangling function words, participles and "-ally" adverbs at the end of a cut."""
    while words:
        last = words[-1].rstrip(",;:—–-(")
        low = last.casefold()
        if not last or low in _TRAILING_STOP or (low.endswith("ally") and len(low) > 6):
            words.pop()
            continue
        words[-1] = last
        break
    return words


def _drop_short_tail(cut: str, low: int) -> str:
    """Drop a last comma segment of at most three words ("..., to address") if enough is left."""
    comma = cut.rfind(", ")
    if comma >= low and len(cut[comma + 2 :].split()) <= 3:
        return " ".join(_strip_trailing(cut[:comma].split()))
    return cut


def fit(title: str, limit: int = MAX_TITLE_LENGTH, floor: int = 0) -> str:
    """Shorten ``title`` to ``limit`` characters at a clause or word boundary.

    Cuts at the last clause boundary ("that", "which", ", ") past 45% of the limit, or the last
    phrase boundary ("to", "for", "by", ...) past 70% of it, without an ellipsis; otherwise at
    the last word boundary, adding "…". Nothing before ``floor`` is cut.
    """
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    window = title[: limit + 16]  # room for the boundary regexes' look-ahead
    for tier, share in _CUT_TIERS:
        low = max(floor, int(limit * share))
        best = -1
        for m in tier.finditer(window):
            if m.start() > limit:
                break
            if m.start() >= low and not (
                window[m.start()] == "," and _RE_ADJ_END.search(window, 0, m.start())
            ):
                best = m.start()
        if best > 0:
            cut = _drop_short_tail(" ".join(_strip_trailing(title[:best].split())), low)
            if len(cut) >= low:
                return cut
    words = title[: limit - 1].split()  # one character is left for the ellipsis
    if not title[limit - 1].isspace() and len(words) > 1:
        words = words[:-1]  # the last word was cut through
    cut = _drop_short_tail(" ".join(_strip_trailing(words)), max(floor, int(limit * 0.6)))
    if len(cut) < max(floor, 1):
        cut = title[: limit - 1].rstrip()
    return cut[: limit - 1].rstrip() + _ELLIPSIS


def _simple_words(text: str) -> bool:
    return all(w[:1].isupper() and w[1:].islower() or w.islower() for w in text.split("-"))


def fit_phrase(phrase: str, acronyms: dict[str, str], name: str, budget: int) -> str:
    """Make a title phrase of at most ``budget`` characters from raw sentence text.

    Parentheticals go. When the phrase is too long, spelled-out forms of acronyms the abstract
    defined are contracted back to their acronyms, last first ("... Markov decision processes
    (MDPs)" -> "... MDPs"), and then it is cut at a clause or word boundary. Finally, acronyms are
    spelled out while that still fits ("KE framework" -> "knowledge editing framework").
    """
    contractible: list[tuple[int, int, str]] = []
    for pm in RE_PAREN.finditer(phrase):
        acr = pm.group(1).strip()
        long_form = acronyms.get(acr)
        if long_form and phrase[: pm.start()].rstrip().endswith(long_form):
            start = phrase.rfind(long_form, 0, pm.start())
            contractible.append((start, pm.end(), acr))
    text = tidy(phrase)
    for i in range(len(contractible) - 1, -1, -1):
        if len(text) <= budget:
            break
        start, end, acr = contractible[i]
        phrase = phrase[:start] + acr + phrase[end:]
        text = tidy(phrase)
    if len(text) > budget:
        text = fit(text, budget)
        if text.endswith(_ELLIPSIS):
            return text
    for acr, long_form in acronyms.items():
        if acr == name or (name and normalize.key(acr) in normalize.key(name)):
            continue
        if acr not in text or len(text) + len(long_form) - len(acr) > budget:
            continue
        pat = re.compile(r"(?<![\w-])" + re.escape(acr) + r"(?![\w-])")
        m = pat.search(text)
        if m is None or text[: m.start()].rstrip().endswith(long_form):
            continue
        simple = all(_simple_words(w) for w in long_form.split())
        replacement = long_form.lower() if simple and m.start() > 0 else long_form
        text = text[: m.start()] + replacement + text[m.end() :]
    return text
