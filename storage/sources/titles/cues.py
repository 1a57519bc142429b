"""Cue scoring: how strongly the words around one occurrence say "this name is introduced here".

"we propose X, a ...", "a ... framework, X", "called X" and "X (Long Form)" raise the score;
"such as X", "X, a widely used ..." and other people's work lower it (see :func:`cue_score`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from storage.sources.titles.sentences import Sentence
from storage.sources.titles.tokens import word_set

_PREPOSITIONS = word_set(
    "of for in on with by from to into that which and or as at over under than such using via "
    "across between within is are was were be been being has have had can could may might will "
    "would should must who whom whose where when while e.g. i.e. not no also both either it "
    "its their them they this these those"
)
RE_NAMING_BEFORE = re.compile(
    r"(?:\b(?:called|named|dubbed|termed|coined|codenamed|nicknamed|denoted(?: as| by)?"
    r"|abbreviated(?: as)?|name it|call it|call this|call them|refer to (?:it|this|them) as"
    r"|refer to as|term(?:ed)? as|named as|called as|dubbed as|coined as|denote it as|namely"
    r"|(?:we|which we|that we|and we)\s+(?:call|term|name|dub|coin|denote))"
    r"|\bi\.e\.,?|\bhereafter)[,:]?\s*[\"“'‘]?$",
    re.IGNORECASE,
)
_NAMING_LAST_WORDS = word_set(
    "called named dubbed termed coined codenamed nicknamed as by it this them call term name dub "
    "coin denote denoted abbreviated namely i.e. i.e hereafter"
)
RE_REFER_AS = re.compile(r"\brefer to (?:(?:the|a|an|our)\s+)?(.{2,100}?)\s+as\s*[\"“'‘]?$", re.I)
_RE_ARTICLE_BEFORE_COMMA = re.compile(
    r"\b(?:a|an|the|our)\s+([^,;:()]{2,90}),\s*[\"“'‘]?$", re.IGNORECASE
)
_RE_OUR_BEFORE = re.compile(
    r"\b(?:our|the proposed|our proposed|the new|our new|the novel)\s+(?:[\w\-]+\s+){0,2}"
    r"[\"“'‘]?$|\b(?:our|the proposed)\s+(?:method|methods|framework|approach|model|system|"
    r"algorithm|benchmark|dataset|pipeline|technique|architecture|tool|toolkit|agent|solution|"
    r"library|suite|metric|loss|module|strategy),\s*$",
    re.IGNORECASE,
)
_RE_KIND_BEFORE = re.compile(
    r"\b(?:benchmark|dataset|framework|method|model|algorithm|approach|system|pipeline|"
    r"toolkit|suite|corpus|agent|library|platform|architecture|technique|metric|environment)"
    r"\s+[\"“'‘]?$",
    re.IGNORECASE,
)
# After the name: an appositive or a colon introduces it ("X, a hierarchical ..."); a known
# thing's appositive ("X, a widely used ...") says it is not new.
_RE_APPOSITIVE_AFTER = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)\s*(?:which is\s+|that is\s+|as\s+|i\.e\.,?\s+)?"
    r"(?:a|an|the(?!\s+(?:same|other|first time)\b)|our|one)\s",
    re.IGNORECASE,
)
_RE_COLON_AFTER = re.compile(r"^\s*:\s+[A-Z]")
_RE_IS_A_AFTER = re.compile(
    r"^\s+(?:is|as)\s+(?:a|an)\s+(?:novel|new|simple|general|first|unified|efficient)\b"
)
_RE_SUBJECT_AFTER = re.compile(
    r"^,?\s+(?:(?:introduces|presents|proposes)\s+(?:a|an|the)\b"
    r"|is\s+(?:a|an)\s+(?:novel|new)\b)"
)
_RE_PROPOSED_HERE = re.compile(
    r"^,?\s+(?:(?:which|that)\s+(?:is|was|we)\s+)?(?:proposed|introduced|presented|developed)\s+"
    r"(?:in|by)\s+(?:this|our|us)\b",
    re.IGNORECASE,
)
_RE_ABSTRACT_HEAD = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)\s*(?:a|an|the)\s+(?:(?:new|novel|general|simple|key|"
    r"fundamental|unified|broad)\s+)*(?:concept|notion|phenomenon|problem|setting|task|"
    r"property|principle|perspective|hypothesis|regime|question|issue|observation|insight|"
    r"effect|behaviou?r|family|class|term|measure of|quantity)\b",
    re.IGNORECASE,
)
_RE_CLAUSE_AFTER = re.compile(r"^\s*,?\s*(?:which|that)\s", re.IGNORECASE)
_RE_KNOWN_AFTER = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)?\s*(?:a|an|the)\s+(?:widely|popular|standard|well|famous|common|"
    r"classic|commonly|existing|prevalent|leading|state-of-the-art|recent|recently|prominent|"
    r"mainstream|representative|established|traditional|conventional|canonical|celebrated)",
    re.IGNORECASE,
)
_RE_USE_BEFORE = re.compile(
    r"\b(?:such as|e\.g\.,?|like|including|includes|include|than|versus|vs\.?|using|use|uses|"
    r"used|leverag\w*|utiliz\w*|employ\w*|adopt\w*|apply\w*|existing|prior|previous|popular|"
    r"standard|baselines?)\s+(?:the\s+)?[\"“'‘]?$",
    re.IGNORECASE,
)


_RE_KIND_GAP = re.compile(
    r"^\s*(?:(?:a|an|the|our)\s+)?(?:[\w\-]+\s+){0,3}(?:benchmark|dataset|framework|method|"
    r"model|algorithm|approach|system|pipeline|toolkit|suite|corpus|library|platform|"
    r"architecture|technique|metric|environment|agent|network|strategy|family|series)s?\s+"
    r"(?:for|of|called|named|dubbed|termed)\s+$",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Occurrence:
    """One place a candidate name occurs, and how strongly its context introduces it."""

    sentence: int
    start: int  # offsets inside the sentence: the name itself
    end: int
    ctx_start: int  # where the introduced phrase starts (long form start for "LF (ACR)")
    ctx_end: int  # after the name (and its "(expansion)" when there is one)
    expansion: str
    score: float = 0.0


#: Records an occurrence of a candidate: (name, shape, occurrence).
AddFn = Callable[[str, int, Occurrence], None]


@dataclass(slots=True)
class Candidate:
    """A candidate name: its shape (see ``tokens.name_shape``) and every occurrence scored."""

    text: str
    shape: int
    occurrences: list[Occurrence]


def _gap_is_modifiers(gap: str, kind_gap: bool = False) -> bool:
    """True when the words between a verb and a name are only determiners / adjectives."""
    words = gap.split()
    if len(words) > 7:
        return False
    if not any(w.casefold().strip("\"“”'‘’") in _PREPOSITIONS for w in words):
        return len(words) <= 5
    # "a benchmark for Planning And Reasoning Tasks ... (PARTNR)": only for a defined acronym
    return kind_gap and bool(_RE_KIND_GAP.match(gap))


def _verb_before(sent: Sentence, pos: int, kind_gap: bool = False) -> bool:
    """Is there an introducing verb right before ``pos`` (only modifiers in between)?"""
    for end in reversed(sent.verb_ends):
        if end > pos:
            continue
        if pos - end > 70:
            return False
        return _gap_is_modifiers(sent.text[end:pos], kind_gap)
    return False


def cue_score(sent: Sentence, occ: Occurrence, shape: int) -> float:
    """How strongly the context of one occurrence says "this name is being introduced"."""
    text = sent.text
    base = max(0, occ.ctx_start - 120)
    pre = text[base : occ.ctx_start]
    post = text[occ.ctx_end : occ.ctx_end + 140]
    if post.startswith((" (", "(")):
        close = post.find(")", 0, 100)
        if close > 0:
            post = post[close + 1 :]
    post = post[:60]
    score = 0.0
    verb = _verb_before(sent, occ.ctx_start, bool(occ.expansion) and occ.ctx_start < occ.start)
    if verb:
        score += 3.0
    tail = pre[-48:]
    last_word = tail.rstrip(" ,:\"“'‘—–").replace("—", " ").rsplit(" ", 1)[-1]
    last_word = last_word.lstrip("([\"“'‘").lower()
    naming = (last_word in _NAMING_LAST_WORDS and bool(RE_NAMING_BEFORE.search(tail))) or (
        " as" in tail and bool(RE_REFER_AS.search(pre))
    )
    if naming:
        score += 4.0
    stripped = pre.rstrip(" \"“'‘")
    if not naming and stripped.endswith(","):
        appos = _RE_ARTICLE_BEFORE_COMMA.search(pre)
        if appos is not None:
            if _verb_before(sent, base + appos.start()):  # "we propose a ... framework, NAME"
                score += 3.0
            elif sent.first_person:
                score += 1.0
    low_tail = tail.lower()
    if "our" in low_tail or "propos" in low_tail or "new" in low_tail or "novel" in low_tail:
        if _RE_OUR_BEFORE.search(tail):
            score += 2.0
    elif _RE_KIND_BEFORE.search(tail):
        score += 0.5
    if _RE_KNOWN_AFTER.match(post):
        score -= 4.0
    elif _RE_APPOSITIVE_AFTER.match(post):
        score += 3.0 if score > 0 else 1.5
    elif _RE_COLON_AFTER.match(post) or _RE_IS_A_AFTER.match(post):
        score += 2.0
    elif score > 0 and _RE_CLAUSE_AFTER.match(post):
        score += 0.5
    if score > 0 and occ.expansion:
        score += 0.5
    if score > 0 and not naming and not verb and _RE_USE_BEFORE.search(tail):
        score -= 2.0
    if score > 0:
        if _RE_ABSTRACT_HEAD.match(post):
            score -= 1.5  # "X, a concept ...", "X, a phenomenon ...": not an artifact
        if sent.promoted:
            score += 0.5
        elif sent.demoted:
            score -= 1.0
    if _RE_PROPOSED_HERE.match(post):
        score += 3.0  # "Hallo2, proposed in this paper, is ..."
    if score > 0 and not sent.first_person:
        score *= 0.3
    if occ.ctx_start == 0 and occ.sentence <= 1 and _RE_SUBJECT_AFTER.match(post):
        score += 3.0  # the abstract opens with it: "MetaDesigner introduces a framework ..."
    return score
