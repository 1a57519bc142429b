"""The real ICLR 2025 list, larger synthetic libraries made from it, and a relevance evaluation set.

- ``load_real_papers()``: the 3,703 real papers as ``Paper``s (None when the data is absent).
- ``scaled_corpus(n, seed)``: ``n`` papers, the real ones first, then synthetic ones that
  recombine real title halves, abstract sentences and author names (deterministic per seed).
- ``relevance_queries(papers, seed)``: half-remembered queries, each with the paper it is for.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from storage.models import Paper

#: Where the real data lives: ``PAPERS_DATA_DIR`` when set (a checkout elsewhere: a worktree,
#: a clone in /tmp), else ``../shared/data`` beside the checkout.
DATA_DIR = Path(
    os.environ.get("PAPERS_DATA_DIR")
    or Path(__file__).resolve().parents[1].parent / "shared" / "data"
)
REAL_LIST = "iclr2025.jsonl"
LIST_NAME = "ICLR 2025"
SYNTHETIC_LIST = "Synthetic"

_NAME_PREFIX = re.compile(r"^\s*([^\s:][^:]{0,40}?)\s*:\s+\S")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_WORD = re.compile(r"[^\W_]+")

#: Words nobody remembers a paper by.
_STOPWORDS_TEXT = """
a an and are as at be by can do does for from how in into is it its of on or our over the their
this to toward towards under via vs what when where which while who why with without we you your
beyond through using based more less than not no all any new large learning model models
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def _paper_id(text: str, taken: set[str]) -> str:
    """A unique 12-hex id: the sha1 of the text, salted until it is unused."""
    salt = 0
    while True:
        digest = hashlib.sha1(f"{text}\x00{salt}".encode() if salt else text.encode())
        candidate = digest.hexdigest()[:12]
        if candidate not in taken:
            taken.add(candidate)
            return candidate
        salt += 1


def title_name(title: str) -> str:
    """The ``NAME`` of a ``NAME: what it does`` title (up to three words), or ""."""
    match = _NAME_PREFIX.match(title)
    if not match:
        return ""
    name = match.group(1).strip()
    return name if len(name.split()) <= 3 else ""


def load_real_papers(data_dir: Path | None = None) -> list[Paper] | None:
    """The real ICLR 2025 papers in file order, or None when the data file is absent."""
    path = (data_dir or DATA_DIR) / REAL_LIST
    if not path.is_file():
        return None
    papers: list[Paper] = []
    taken: set[str] = set()
    with path.open(encoding="utf-8") as handle:
        for position, line in enumerate(handle):
            if not line.strip():
                continue
            record = json.loads(line)
            title = " ".join(str(record.get("title", "")).split())
            abstract = str(record.get("abstract", ""))
            papers.append(
                Paper(
                    id=_paper_id(abstract, taken),
                    title=title,
                    abstract=abstract,
                    authors=tuple(record.get("authors") or ()),
                    github=tuple(record.get("github") or ()),
                    url=str(record.get("url", "")),
                    keywords=tuple(record.get("keywords") or ()),
                    venue_status=str(record.get("status", "")),
                    list=LIST_NAME,
                    position=position,
                    name=title_name(title),
                    lists=(LIST_NAME,),
                )
            )
    return papers


def scaled_corpus(n: int, seed: int = 0, data_dir: Path | None = None) -> list[Paper]:
    """``n`` papers: the real list first, then synthetic papers recombined from it.

    A synthetic paper joins the first half of one real title to the second half of another,
    draws its abstract's sentences from all real abstracts and its authors from all real authors,
    so that word frequencies, lengths and vocabulary stay those of a real conference list.
    Raises ``FileNotFoundError`` when the real list is absent.
    """
    real = load_real_papers(data_dir)
    if real is None:
        raise FileNotFoundError((data_dir or DATA_DIR) / REAL_LIST)
    if n <= len(real):
        return real[:n]
    rng = random.Random(seed)
    sentences = [s for p in real for s in _SENTENCE_END.split(" ".join(p.abstract.split()))]
    sentence_counts = [len(_SENTENCE_END.split(p.abstract)) for p in real]
    heads: list[str] = []
    tails: list[str] = []
    for paper in real:
        words = paper.title.split()
        cut = max(1, len(words) // 2)
        heads.append(" ".join(words[:cut]))
        tails.append(" ".join(words[cut:]) or words[-1])
    authors = sorted({a for p in real for a in p.authors})
    statuses = [p.venue_status for p in real]
    taken = {p.id for p in real}
    papers = list(real)
    for position in range(len(real), n):
        title = f"{rng.choice(heads)} {rng.choice(tails)}"
        count = max(3, min(rng.choice(sentence_counts), 12))
        abstract = " ".join(rng.choice(sentences) for _ in range(count))
        names = tuple(rng.sample(authors, rng.randint(1, 8)))
        github: tuple[str, ...] = ()
        if rng.random() < 0.19:
            owner = names[0].split()[-1].lower()
            repo = (title_name(title) or title.split()[0]).replace(" ", "-")
            github = (f"https://github.com/{owner}/{repo}",)
        papers.append(
            Paper(
                id=_paper_id(abstract, taken),
                title=title,
                abstract=abstract,
                authors=names,
                github=github,
                venue_status=rng.choice(statuses),
                list=SYNTHETIC_LIST,
                position=position,
                name=title_name(title),
                lists=(SYNTHETIC_LIST,),
            )
        )
    return papers


# --------------------------------------------------------------------------- evaluation set


@dataclass(frozen=True, slots=True)
class EvalQuery:
    """A half-remembered query and the id of the paper it is meant to find."""

    text: str
    target: str
    kind: str


_KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def _neighbours(letter: str) -> str:
    """Keys next to a letter on a QWERTY keyboard (or any letter for other characters)."""
    for row_index, row in enumerate(_KEYBOARD_ROWS):
        at = row.find(letter)
        if at < 0:
            continue
        near = row[max(0, at - 1) : at] + row[at + 1 : at + 2]
        for other in (row_index - 1, row_index + 1):
            if 0 <= other < len(_KEYBOARD_ROWS):
                near += _KEYBOARD_ROWS[other][max(0, at - 1) : at + 1]
        return near
    return "etaoinshr"


def typo(word: str, rng: random.Random) -> str:
    """One typing slip after the first letter: a dropped, doubled-wrong, swapped or near key."""
    if len(word) < 3:
        return word
    at = rng.randrange(1, len(word) - 1)
    kind = rng.choice(("drop", "insert", "substitute", "swap"))
    if kind == "drop":
        return word[:at] + word[at + 1 :]
    if kind == "insert":
        return word[:at] + rng.choice(_neighbours(word[at])) + word[at:]
    if kind == "substitute":
        choices = [c for c in _neighbours(word[at]) if c != word[at]] or ["e"]
        return word[:at] + rng.choice(choices) + word[at + 1 :]
    if word[at] == word[at + 1]:
        return word[:at] + word[at + 1 :]
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def _content_words(title: str) -> list[str]:
    seen: dict[str, None] = {}
    for word in _words(title.split(":", 1)[-1] if title_name(title) else title):
        if len(word) >= 3 and word not in STOPWORDS and not word.isdigit():
            seen.setdefault(word, None)
    return list(seen)


def relevance_queries(papers: list[Paper], seed: int = 0, size: int = 330) -> list[EvalQuery]:
    """Half-remembered queries built from ``papers`` (the real list), each with its target.

    Four kinds, in fixed shares: ``name`` (the method name of a ``NAME: ...`` title, 30%
    with a typo), ``words`` (2-4 of the title's rarer words, shuffled, 40% with a typo in one),
    ``typing`` (like ``words`` but the last word cut short, as while typing) and ``concept``
    (two title words in order and a rarer word of the abstract). Queries that fit another
    paper as well (its title has the same title words, and for ``concept`` its text has the
    abstract word) are skipped: a person could not tell the two apart either.
    """
    rng = random.Random(seed)
    document_frequency: Counter[str] = Counter()
    title_sets: list[set[str]] = []
    text_sets: list[set[str]] = []
    for paper in papers:
        title_sets.append(set(_words(paper.title)))
        text_sets.append(title_sets[-1] | set(_words(paper.abstract)))
        document_frequency.update(text_sets[-1])

    def ambiguous(kind: str, words: list[str], target: int) -> bool:
        if kind == "concept":
            in_title, in_text = set(words[:2]), set(words[2:])
            return any(
                in_title <= title_sets[i] and in_text <= text_sets[i]
                for i in range(len(papers))
                if i != target
            )
        wanted = set(words)
        return any(wanted <= s for i, s in enumerate(title_sets) if i != target)

    def slip(word: str) -> str:
        if len(word) >= 9 and rng.random() < 0.2:
            return typo(typo(word, rng), rng)
        return typo(word, rng)

    name_counts = Counter(title_name(p.title).casefold() for p in papers)
    order = list(range(len(papers)))
    rng.shuffle(order)
    shares = {"name": 0.3, "words": 0.4, "typing": 0.1, "concept": 0.2}
    wanted = {kind: round(size * share) for kind, share in shares.items()}
    queries: list[EvalQuery] = []
    made: Counter[str] = Counter()
    used: set[int] = set()
    for kind in shares:
        for index in order:
            if made[kind] >= wanted[kind]:
                break
            if index in used:
                continue
            paper = papers[index]
            made_query = _make_query(kind, paper, rng, document_frequency, name_counts, slip)
            if made_query is None:
                continue
            text, remembered = made_query
            if kind != "name" and ambiguous(kind, remembered, index):
                continue
            used.add(index)
            made[kind] += 1
            queries.append(EvalQuery(text=text, target=paper.id, kind=kind))
    return queries


def _make_query(
    kind: str,
    paper: Paper,
    rng: random.Random,
    df: Counter[str],
    name_counts: Counter[str],
    slip: Callable[[str], str],
) -> tuple[str, list[str]] | None:
    """A query of this kind for the paper, and the words it remembers (before slips)."""
    if kind == "name":
        name = title_name(paper.title)
        if not name or len(name.split()) > 1 or len(name) < 3 or name_counts[name.casefold()] > 1:
            return None
        if len(name) >= 5 and rng.random() < 0.3:
            return slip(name.casefold()), [name.casefold()]
        return (name if rng.random() < 0.5 else name.casefold()), [name.casefold()]
    content = _content_words(paper.title)
    if len(content) < 2:
        return None
    if kind == "concept":
        pairs = [(a, b) for a, b in zip(content, content[1:], strict=False)]
        first, second = rng.choice(pairs)
        title = set(_words(paper.title))
        extra = [
            w
            for w in dict.fromkeys(_words(paper.abstract))
            if w not in title
            and w not in STOPWORDS
            and len(w) >= 5
            and not w.isdigit()
            and 2 <= df[w] <= 60
        ]
        if not extra:
            return None
        word = rng.choice(extra)
        return f"{first} {second} {word}", [first, second, word]
    count = rng.choice((2, 3, 3, 4))
    if len(content) < count:
        count = len(content)
    rarest = sorted(content, key=lambda w: (df[w], w))
    pool = rarest[: max(count, round(0.6 * len(rarest)))]
    chosen = rng.sample(pool, count)
    rng.shuffle(chosen)
    remembered = list(chosen)
    if kind == "typing":
        last = chosen[-1]
        if len(last) < 6:
            return None
        chosen[-1] = last[: rng.randint(4, len(last) - 2)]
    elif rng.random() < 0.4:
        long_words = [i for i, w in enumerate(chosen) if len(w) >= 5]
        if long_words:
            i = rng.choice(long_words)
            chosen[i] = slip(chosen[i])
    return " ".join(chosen), remembered
