"""Acronym definitions: "Long Form (ACR)" and "ACR (Long Form)" (Schwartz & Hearst 2003).

Also the undefined acronyms that spell a capitalized phrase the paper introduces ("the Compressive
Online Gradient Optimization framework ... CONGO").
"""

from __future__ import annotations

import re
import unicodedata

from storage.sources.titles.cues import Candidate, Occurrence, cue_score
from storage.sources.titles.sentences import INTRO_VERBS, Sentence
from storage.sources.titles.tokens import (
    RE_TOKEN,
    acronym_core,
    is_common,
    name_shape,
    strip_possessive,
)


def long_form_start(short: str, before: str) -> int:
    """Where the long form of ``short`` starts at the end of ``before`` (-1 if it does not).

    ``before`` is the text right before "(short)". The classic Schwartz-Hearst matcher: the
    acronym's characters are found right to left in the candidate long form, the first one at
    the start of a word.
    """
    if not short.isascii():
        short = unicodedata.normalize("NFKC", short)  # GSBAᴷ spells "... attack" with its K
    chars = [ch.casefold() for ch in short if ch.isalnum()]
    if len(chars) < 2 or not chars[0].isalpha():
        return -1
    max_words = min(len(chars) + 5, len(chars) * 2)
    # The window: at most max_words words before the parenthesis.
    end = len(before)
    pos = end
    words = 0
    while pos > 0 and words < max_words:
        prev = before.rfind(" ", 0, pos - 1)
        pos = prev + 1 if prev >= 0 else 0
        words += 1
        if prev < 0:
            break
    window = before[pos:end]
    if any(ch in window for ch in "()[];:."):
        cut = max(window.rfind(ch) for ch in "()[];:")
        # a "." only counts as a boundary when followed by a space (not "1.5" or "e.g.")
        dot = window.rfind(". ")
        cut = max(cut, dot + 1 if dot >= 0 else -1)
        if cut >= 0:
            pos += cut + 1
            window = before[pos:end]
    low = window.casefold()
    s_idx = len(chars) - 1
    l_idx = len(low) - 1
    while s_idx >= 0:
        c = chars[s_idx]
        while l_idx >= 0 and (
            low[l_idx] != c or (s_idx == 0 and l_idx > 0 and low[l_idx - 1].isalnum())
        ):
            l_idx -= 1
        if l_idx < 0:
            return -1
        l_idx -= 1
        s_idx -= 1
    start = l_idx + 1
    # Extend to the start of the word that holds the first letter.
    while start > 0 and not window[start - 1].isspace():
        start -= 1
    long_form = window[start:].strip()
    if not long_form or " " not in long_form and "-" not in long_form:
        return -1
    if len(long_form) <= len(short):
        return -1
    return pos + start


RE_PAREN = re.compile(r"\(([^()]{1,120})\)")
_RE_LAST_WORD = re.compile(r"([^\s(]+)$")
_RE_INTRO_PHRASE = re.compile(
    r"\b(?:" + INTRO_VERBS + r")\s+(?:(?:the|a|an|our)\s+)?(?:(?:novel|new)\s+)?"
    r"([^,;:()]{3,100})$",
    re.IGNORECASE,
)
_RE_CAPS_PHRASE = re.compile(
    r"\b(?:" + INTRO_VERBS + r")\s+(?:(?:the|a|an)\s+)?((?:[A-Z][\w\-]*\s+){1,7})"
)


def paren_spans(
    s_idx: int, sent: str, acronyms: dict[str, str], inside: set[tuple[int, int]]
) -> dict[int, tuple[int, int, str]]:
    """Acronym definitions in a sentence: name start -> (context start, context end, expansion).

    Handles "Long Form (ACR)" (Schwartz-Hearst, or the object of an introducing verb when the
    letters do not line up, as in "Spectro-Riemannian Graph Neural Networks (CUSP)") and
    "NAME (Long Form)".
    """
    spans: dict[int, tuple[int, int, str]] = {}
    if "(" not in sent:
        return spans
    for pm in RE_PAREN.finditer(sent):
        inner = pm.group(1).strip(" \"“”'‘’*")
        token = strip_possessive(inner)
        base = max(0, pm.start() - 300)  # bounded look-back: no quadratic work on huge inputs
        before = sent[base : pm.start()].rstrip()
        if RE_TOKEN.fullmatch(token) and name_shape(token) == 2:
            start = long_form_start(acronym_core(token), before)
            if start < 0:
                m = _RE_INTRO_PHRASE.search(before, max(0, len(before) - 140))
                if m is not None and 2 <= len(m.group(1).split()) <= 10:
                    start = len(before) - len(m.group(1))
            if start >= 0:
                long_form = before[start:].strip(" ,\"“”'‘’")
                acronyms.setdefault(token, long_form)
                if is_common(token):
                    continue  # "Integrative Decoding (ID)": the long form may be the name
                for tm in RE_TOKEN.finditer(before, start):
                    inside.add((s_idx, base + tm.start()))
                spans[pm.start() + 1 + pm.group(1).find(token)] = (
                    base + start,
                    pm.end(),
                    long_form,
                )
        elif " " in inner and 2 <= len(inner.split()) <= 12:
            last = _RE_LAST_WORD.search(before, max(0, len(before) - 60))
            if last is None:
                continue
            token = strip_possessive(last.group(1).strip("\"“”'‘’*"))
            if name_shape(token) == 2 and long_form_start(acronym_core(token), inner) >= 0:
                acronyms.setdefault(token, inner)
                spans[base + before.rfind(token)] = (-1, pm.end(), inner)
    return spans


def spelled_acronyms(
    sentences: list[Sentence], candidates: dict[str, Candidate], acronyms: dict[str, str]
) -> None:
    """Undefined acronyms that spell a capitalized phrase the paper introduces.

    "We tackle this problem by introducing the Compressive Online Gradient Optimization
    framework ... CONGO's superiority": CONGO is the name, the phrase its expansion.
    """
    for token, cand in candidates.items():
        if (
            token in acronyms
            or not token.isupper()
            or len(token) < 3
            or max(o.score for o in cand.occurrences) > 0
        ):
            continue
        first = min(o.sentence for o in cand.occurrences)
        for s_idx, sent in enumerate(sentences[: first + 1]):
            if not sent.first_person or not sent.verb_ends:
                continue
            for vm in _RE_CAPS_PHRASE.finditer(sent.text):
                phrase = vm.group(1).rstrip()
                if long_form_start(token, phrase) != 0:
                    continue
                ctx_start = vm.start(1)
                occ = Occurrence(
                    s_idx,
                    ctx_start,
                    ctx_start + len(phrase),
                    ctx_start,
                    ctx_start + len(phrase),
                    phrase,
                )
                occ.score = cue_score(sent, occ, 2) + 0.5
                acronyms.setdefault(token, phrase)
                cand.occurrences.append(occ)
