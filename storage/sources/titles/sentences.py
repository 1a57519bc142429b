"""Sentences of a cleaned abstract, and what each says: who speaks, where it introduces something.

A sentence is read once (:func:`read_sentence`): the ends of its introducing verbs ("we
*propose*"), its name-like tokens, whether the paper speaks in it ("we", "this paper") and whether
it opens the contribution ("To address this, we ...") or is a side remark ("We also ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.sources.titles.tokens import RE_TOKEN

_MAX_SENTENCE_CHARS = 1_500  # longer "sentences" (no punctuation for pages) are chunked
_RE_SENT_BOUNDARY = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[\"“(\[]?[A-Z0-9])")
_RE_ABBREV_END = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|Fig|Figs|Eq|Eqs|Sec|resp|approx|No|Dr|Mr|Ms|Prof|St)"
    r"|\b[A-Z])\.$"
)


def split_sentences(text: str) -> list[tuple[int, str]]:
    """Split into sentences; returns (start offset, sentence) pairs."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in _RE_SENT_BOUNDARY.finditer(text):
        if _RE_ABBREV_END.search(text, max(start, m.start() - 8), m.start()):
            continue
        out.append((start, text[start : m.start()]))
        start = m.end()
    if start < len(text):
        out.append((start, text[start:]))
    if any(len(sent) > _MAX_SENTENCE_CHARS for _, sent in out):
        out = [piece for item in out for piece in _chunk(*item)]
    return out


def _chunk(offset: int, sent: str) -> list[tuple[int, str]]:
    """Split an over-long "sentence" (no punctuation for pages) at spaces."""
    pieces: list[tuple[int, str]] = []
    start = 0
    while len(sent) - start > _MAX_SENTENCE_CHARS:
        cut = sent.rfind(" ", start, start + _MAX_SENTENCE_CHARS)
        if cut <= start:
            cut = start + _MAX_SENTENCE_CHARS
        pieces.append((offset + start, sent[start:cut]))
        start = cut + 1 if sent[cut : cut + 1] == " " else cut
    pieces.append((offset + start, sent[start:]))
    return pieces


# The verbs with which a paper introduces what it contributes, as a regex alternation.
INTRO_VERBS = (
    r"propose|proposes|proposed|proposing|introduce|introduces|introduced|introducing|present|"
    r"presents|presented|presenting|develop|develops|developed|developing|design|designs|"
    r"designed|designing|construct|constructs|constructed|constructing|build|builds|built|"
    r"building|create|creates|created|creating|devise|devises|devised|devising|release|"
    r"releases|released|releasing|curate|curates|curated|curating|collect|collects|collected|"
    r"contribute|contributes|offer|offers|provide|provides|unveil|unveils|launch|launches|"
    r"implement|implements|establish|establishes|formulate|formulates|train|trains|"
    r"put forward|puts forward|pretrain|pre-train|open-source|open-sources|assemble|assembles|"
    r"compile|compiles|craft|crafts|crafted"
)


_RE_FIRST_PERSON = re.compile(
    r"\b(?:we|our|us|this (?:paper|work|study|article|manuscript|submission)|here|the present "
    r"(?:paper|work))\b",
    re.IGNORECASE,
)
_RE_OTHERS_SUBJECT = re.compile(
    r"^(?:\w+\s+){0,2}(?:recent|existing|prior|previous|earlier|other|many|several)\s+(?:studies|"
    r"works|methods|approaches|research|literature|papers|efforts|researchers)\s+(?!that\b)"
    r"|\b(?:have|has) been (?:proposed|introduced|developed)|\breferred to as\b",
    re.IGNORECASE,
)
_RE_WE = re.compile(r"\b[Ww]e\b")
_RE_OTHER_VERB_SUBJECT = re.compile(
    r"\b(?:that|which|who|they|works?|studies|methods|approaches|authors|researchers|have|has|"
    r"had|been|be|is|are|was|were)\s+$",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Sentence:
    """One sentence of the abstract: whether the paper speaks in it, where its verbs introduce."""

    text: str
    first_person: bool
    verb_ends: list[int]
    promoted: bool = False  # "To address this, we ...", "In this paper, we ..."
    demoted: bool = False  # "We also ...", "Moreover, ...", "Finally, ..."


# A sentence that opens the contribution, or that adds a side remark to it.
RE_PROMOTED_START = re.compile(
    r"^(?:to (?:address|tackle|solve|overcome|bridge|fill|close|mitigate|remedy|resolve|this end|"
    r"that end|alleviate|handle|fix)|in this (?:paper|work|study)|here,|this paper|this work|"
    r"we (?:propose|introduce|present))",
    re.IGNORECASE,
)
_RE_SIDE_START = re.compile(
    r"(?:specifically|in particular|moreover|furthermore|additionally|also|finally|lastly|"
    r"besides|in addition|as a (?:by-?product|side))\b",
    re.IGNORECASE,
)
_RE_ALSO_EARLY = re.compile(r"\b(?:we|it|this)\s+(?:also|further|additionally)\b", re.IGNORECASE)
_RE_ING_LEAD = re.compile(r"(?:\b(?:by|via|through|after|and|while|thus|thereby)|,)\s+$")
_VERB_WORDS = frozenset(v for v in INTRO_VERBS.split("|") if " " not in v)


Token = tuple[int, int, str]  # start, end, text
_VERB_PATTERNS = {v: re.compile(r"(?<![\w-])" + re.escape(v) + r"(?![\w-])") for v in _VERB_WORDS}
_RE_PUT_FORWARD = re.compile(r"(?<![\w-])put forward\b")


def _is_verb_at(text: str, word: str, start: int) -> bool:
    """Is this lowercase word an introducing verb whose subject is the paper itself?"""
    if word not in _VERB_WORDS:
        return False
    if word.endswith("ing") and not _RE_ING_LEAD.search(text, max(0, start - 12), start):
        return False  # "the problem of releasing ..." is no introduction
    return not _RE_OTHER_VERB_SUBJECT.search(text, max(0, start - 14), start)


def read_sentence(text: str) -> tuple[Sentence, list[Token]]:
    """One pass over a sentence's words: introducing-verb positions and name-like tokens.

    Only words with capitals or digits go through the token pattern, and verbs are found by a
    set intersection on the words, which is several times faster than tokenizing every word.
    """
    words = text.split(" ")
    verb_ends: list[int] = []
    for verb in _VERB_WORDS.intersection(text.replace(",", " ").replace(":", " ").split()):
        for vm in _VERB_PATTERNS[verb].finditer(text):
            if _is_verb_at(text, verb, vm.start()):
                verb_ends.append(vm.end())
    if "put" in words:
        verb_ends.extend(m.end() for m in _RE_PUT_FORWARD.finditer(text))
    tokens: list[Token] = []
    pos = 0
    for word in [w for w in words if w and not w.islower()]:
        start = text.find(word, pos)
        while start > 0 and text[start - 1] != " ":
            start = text.find(word, start + 1)  # only whole words
        if start < 0:
            break
        pos = start + len(word)
        if word.lower() == word:
            continue  # no cased letters: numbers, symbols
        for tm in RE_TOKEN.finditer(text, start, pos):
            tok = tm.group()
            if tok.islower():
                if _is_verb_at(text, tok, tm.start()):
                    verb_ends.append(tm.end())  # "(we propose", "X/introduce" ...
                continue
            if tok.isdigit():
                continue
            if tok[1:].islower() and tok.lower() in _VERB_WORDS:
                verb_ends.append(tm.end())  # "Introducing X, ..."
                continue
            tokens.append((tm.start(), tm.end(), tok))
    verb_ends.sort()
    first_person = bool(_RE_FIRST_PERSON.search(text))
    if first_person and not _RE_WE.search(text) and _RE_OTHERS_SUBJECT.search(text):
        first_person = False
    sentence = Sentence(text, first_person, verb_ends)
    if first_person:
        sentence.promoted = bool(RE_PROMOTED_START.match(text))
        sentence.demoted = bool(_RE_SIDE_START.match(text) or _RE_ALSO_EARLY.search(text, 0, 40))
    return sentence, tokens
