"""Finding the name an abstract introduces: candidates, their best cue, reuse and repositories.

Candidates are tokens with capitals or digits (ParaSolver, HELMET, ORW-CFM-W2, kNN), multi-word
names that start with one (TetSphere Splatting), lower-case phrases after a naming word (termed
the functional homotopy method) and undefined acronyms that spell an introduced phrase (CONGO).
The paper's GitHub repositories are a strong hint: a candidate that equals a repository name
(compared by :func:`storage.text.normalize.key`) is taken, written with the repository's casing
(the abstract says ``COLLABEDIT``, the repository is ``CollabEdit``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from storage.sources.titles.acronyms import paren_spans, spelled_acronyms
from storage.sources.titles.clean import clean_text
from storage.sources.titles.cues import AddFn, Candidate, Occurrence, cue_score
from storage.sources.titles.sentences import Sentence, read_sentence, split_sentences
from storage.sources.titles.tokens import (
    RE_PLURAL_ACRONYM,
    is_common,
    name_shape,
    strip_possessive,
    word_set,
)
from storage.text import normalize

MAX_SCAN_CHARS = 20_000
"""Only this many leading characters of an abstract are analysed (real ones are < 3,000)."""

_MIN_NAME_SCORE = 3.0  # evidence needed for a name (see cue_score and _pick)
_STRONG_CUE = 6.0  # evidence needed for field vocabulary (Adam, GPT-4, LLMs) to be a name


@dataclass(slots=True)
class Analysis:
    """An abstract read for its title: clean text, sentences, acronyms and the name found."""

    text: str
    sentences: list[Sentence]
    acronyms: dict[str, str]  # acronym -> long form, from "long form (ACR)"
    name: str
    occurrence: Occurrence | None


_RE_REPO_NAME = re.compile(r"[A-Za-z0-9._-]+")


def _repo_names(github: Sequence[str]) -> list[str]:
    """The repository names of the links, those GitHub's syntax allows (letters, digits, ._-)."""
    names: list[str] = []
    for url in github:
        if not isinstance(url, str):
            continue
        part = url.strip().rstrip("/").rsplit("/", 1)[-1]
        if part.endswith(".git"):
            part = part[:-4]
        if _RE_REPO_NAME.fullmatch(part):
            names.append(part)
    return names


_RE_MW_AFTER = re.compile(
    r"((?: (?:[A-Z][\w'’\-+]*|\d+(?:\.\d+)*\b|of|for|the|and|in|on|to|&)){1,3})"
)
_MAX_SCORED_OCCURRENCES = 3


def _multiword(sent: Sentence, s_idx: int, start: int, token: str, add: AddFn) -> int:
    """Multi-word names that start with a name-like token ("TetSphere Splatting, a ...").

    Returns the end of the accepted name in the sentence, or -1.
    """
    text = sent.text
    m = _RE_MW_AFTER.match(text, start + len(token), start + len(token) + 60)
    if m is None:
        return -1
    words = m.group(1).split()
    for n in range(len(words), 0, -1):
        if not (words[n - 1][0].isupper() or words[n - 1][0].isdigit()):
            continue
        name = token + " " + " ".join(words[:n])
        end = start + len(name)
        if text[start:end] != name:
            continue
        occ = Occurrence(s_idx, start, end, start, end, "")
        occ.score = cue_score(sent, occ, 2)
        if occ.score >= _MIN_NAME_SCORE:
            add(name, 2, occ)
            return end
    return -1


_RE_LOWER_NAMED = re.compile(
    r"\b(?:termed|called|named|dubbed|coined|refer to (?:this|it|them|this \w+|our \w+) as)"
    r"\s+(?:as\s+)?(?:the\s+)?[\"“'‘]?([a-z][a-z\-]+(?: [a-z][a-z\-]+){0,3})"
    r"(?=[\"”'’]?(?:[,.;:()—–]|\s(?:which|that|to|for|in|with|where|is|was|and)\b|$))"
)
_RE_LOWER_INTRODUCED = re.compile(
    r"\b(?:introduce|introduces|propose|proposes|present|presents)\s+"
    r"([a-z][a-z\-]+(?: [a-z][a-z\-]+){0,3}),\s+(?:a|an)\s"
)
_LOWER_NAME_STOP = word_set(
    "a an the this these that our their its two three four several new novel various multiple "
    "both each some such it them they we which what how when where whether"
)
_SMALL_WORDS = word_set("a an the of for to in on and or as at by with via from")


def _lowercase_names(sent: Sentence, s_idx: int, add: AddFn) -> None:
    """Names written in lower case: "termed the functional homotopy method", "we introduce
    data taggants, a novel ... technique". They are title-cased as names."""
    text = sent.text
    if not any(w in text for w in ("termed", "called", "named", "dubbed", "coined", " as ", ", a")):
        return
    for rx in (_RE_LOWER_NAMED, _RE_LOWER_INTRODUCED):
        for m in rx.finditer(text):
            phrase = m.group(1)
            words = phrase.split()
            if words[0] in _LOWER_NAME_STOP or words[-1] in _SMALL_WORDS:
                continue
            if len(words) == 1 and "-" not in phrase:
                continue  # a single ordinary word is not a coined name
            start, end = m.start(1), m.end(1)
            occ = Occurrence(s_idx, start, end, start, end, "")
            occ.score = cue_score(sent, occ, 2) - 1.0
            if rx is _RE_LOWER_INTRODUCED:
                occ.score = max(occ.score, 0.0)
            if occ.score >= _MIN_NAME_SCORE:
                name = " ".join(
                    w
                    if i and w in _SMALL_WORDS
                    else "-".join(p[:1].upper() + p[1:] for p in w.split("-"))
                    for i, w in enumerate(words)
                )
                add(name, 3, occ)


def analyse(abstract: str, github: Sequence[str]) -> Analysis:
    """Clean and split the abstract, score every name-like candidate, pick the introduced name.

    Candidates are tokens with capitals or digits (ParaSolver, HELMET, ORW-CFM-W2, kNN),
    multi-word names that start with one (TetSphere Splatting), lower-case phrases after a naming
    word (termed the functional homotopy method), and undefined acronyms that spell an introduced
    phrase (CONGO). Each of their first occurrences is scored by :func:`cue_score`.
    """
    text = clean_text(abstract[:MAX_SCAN_CHARS])
    parsed = [read_sentence(s) for _, s in split_sentences(text)]
    sentences = [p[0] for p in parsed]
    repos = _repo_names(github)
    repo_keys = {normalize.key(r): r for r in repos if len(normalize.key(r)) >= 2}
    repo_parts: set[str] = set()
    for r in repos:
        for part in re.split(r"[-_.]", r):
            if len(normalize.key(part)) >= 3:
                repo_parts.add(normalize.key(part))

    acronyms: dict[str, str] = {}
    candidates: dict[str, Candidate] = {}
    counts: dict[str, int] = {}
    inside: set[tuple[int, int]] = set()

    def add(token: str, shape: int, occ: Occurrence) -> None:
        cand = candidates.get(token)
        if cand is None:
            candidates[token] = Candidate(token, shape, [occ])
        else:
            cand.occurrences.append(occ)

    for s_idx, (sent, tokens) in enumerate(parsed):
        stext = sent.text
        spans = paren_spans(s_idx, stext, acronyms, inside)
        prev_end = -2
        for start, tok_end, raw in tokens:
            token = strip_possessive(raw)
            shape = name_shape(token)
            follows_capital = prev_end == start - 1
            prev_end = tok_end
            if shape == 0 or (shape == 1 and follows_capital):
                continue  # "TetSphere Splatting": the second word is no name on its own
            end = start + len(token)
            before_capital = stext.startswith(" ", end) and stext[end + 1 : end + 2].isupper()
            if shape == 1 and (
                start == 0 or stext[max(0, start - 4) : start].rstrip().endswith((":", "."))
            ):
                continue  # a capitalized sentence start is not a name
            n = counts.get(token, 0) + 1
            counts[token] = n
            if n > _MAX_SCORED_OCCURRENCES or (s_idx, start) in inside:
                continue
            if before_capital and (sent.first_person or sent.verb_ends):
                covered_until = _multiword(sent, s_idx, start, token, add)
                if covered_until > 0:
                    for inner_start, _, _ in tokens:
                        if start < inner_start < covered_until:
                            inside.add((s_idx, inner_start))
                    continue  # "Minimal Impact ControlNet" is the name, not "ControlNet"
            if shape == 1 and before_capital:
                continue  # "Adjoint Matching": only the whole phrase can be the name
            common = normalize.key(token) not in repo_keys and (
                is_common(token) or bool(RE_PLURAL_ACRONYM.match(token))
            )
            ctx_start, ctx_end, expansion = start, end, ""
            span = spans.get(start)
            if span is not None:
                if span[0] >= 0:
                    ctx_start, ctx_end, expansion = span[0], span[1], span[2]
                else:
                    ctx_end, expansion = span[1], span[2]
            occ = Occurrence(s_idx, start, end, ctx_start, ctx_end, expansion)
            occ.score = cue_score(sent, occ, shape)
            if common:
                # Field vocabulary (LLMs, Adam, GPT-4) is only a name when introduced outright:
                # "we introduce ADAM, An emboDied causal Agent in Minecraft".
                if occ.score < _STRONG_CUE:
                    continue
                occ.score -= 2.0
            add(token, shape, occ)

        if sent.first_person:
            _lowercase_names(sent, s_idx, add)

    spelled_acronyms(sentences, candidates, acronyms)
    best_name, best_occ = _pick(candidates, counts, repo_keys, repo_parts, text)
    if best_name:
        repo = repo_keys.get(normalize.key(best_name))
        if repo is not None and any(ch.isupper() for ch in repo):
            best_name = repo  # the repository's deliberate casing (COLLABEDIT -> CollabEdit)
    return Analysis(text, sentences, acronyms, best_name, best_occ)


def _pick(
    candidates: dict[str, Candidate],
    counts: dict[str, int],
    repo_keys: dict[str, str],
    repo_parts: set[str],
    text: str,
) -> tuple[str, Occurrence | None]:
    """The best-supported candidate: its strongest introduction, how often it is reused, and
    whether a repository carries its name. Returns ("", None) when nothing is convincing."""
    best_name = ""
    best_occ: Occurrence | None = None
    best_score = _MIN_NAME_SCORE - 1e-9
    folded = text.casefold()
    for token, cand in candidates.items():
        key = normalize.key(token)
        if not key:
            continue
        occ = max(cand.occurrences, key=lambda o: o.score)
        score = occ.score
        count = folded.count(token.casefold()) if " " in token else counts.get(token, 0)
        repo = key in repo_keys
        if not repo and occ.score <= 0:
            continue
        if cand.shape == 1 and not repo and occ.score < _MIN_NAME_SCORE:
            continue  # a plain capitalized word is only a name when clearly introduced
        if count >= 2:
            score += min(count - 1, 4) * 0.4
        if repo:
            score += 5.0
        elif key in repo_parts:
            score += 1.0
        if cand.shape == 1 and not repo:
            score -= 1.0
        if score > best_score or (
            score == best_score
            and best_occ is not None
            and (occ.sentence, occ.start) < (best_occ.sentence, best_occ.start)
        ):
            best_score, best_name, best_occ = score, token, occ
    return best_name, best_occ


def find_introduced_name(abstract: str, github: Sequence[str] = ()) -> str:
    """Return the name of the method / benchmark / dataset / model the abstract introduces.

    The name must be tied to an introducing pattern ("we propose X, a ...", "a ... framework,
    X", "named X", "Long Form (X)" as the object of "we propose/introduce") or match one of the
    paper's ``github`` repositories (whose casing then wins when it has capitals). Acronyms that
    the paper merely uses (LLMs, MDPs, GPT-4, ImageNet) are not names. Returns ``""`` when there
    is none.
    """
    if not abstract or not abstract.strip():
        return ""
    return analyse(abstract, github).name
