"""What a query's filters leave: qualifiers, exclusions and required phrases, as masks.

Qualifiers are declared in ``qualifiers.py``; here is what they ask of the index
(``PaperFacts``). A phrase of several words first narrows the papers to those with all its
words; whether the words are in a row is checked later, only as far as the results go
(``Filters.passes``), and the answers are remembered per phrase. A paper's text is read only in
the fields whose postings hold every word of the phrase (none: no text is read), and the papers
of a block of results are read together (``Filters.answer``): from ``papers.cache``, each chunk
once, and only the columns of those fields (a chunk of 256 papers decoded whole for each paper
checked took a search of 100,000 papers 0.55 s for ``transformer "attention is"``, 20 s for
every paper with ``"language model"``). A phrase joined to other terms by ``OR`` narrows
nothing here: ``matching.py`` weighs it with its alternatives.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Final

import numpy as np

from storage.models import Paper, Status
from storage.search.columns import NUMBER_FIELDS, extra_columns
from storage.search.none_found import Part, qualifier_label
from storage.search.pairs import may_have
from storage.search.postings import ALL_FIELDS, AUTHORS, FIELDS, BoolArray, IntArray, Postings
from storage.search.qualifiers import HeldFields, NumberTest, PdfTextSearch, kind_of
from storage.search.query import Query
from storage.search.table import PaperTable
from storage.search.text import folded, query_words, tokenize, word_key
from storage.search.vocabulary import Vocabulary, number_twin

#: Phrases whose answers (which papers have them) are remembered.
_PHRASES_KEPT: Final = 32
#: The fields a phrase is looked for in, in the order read: where it most likely is first.
_READ_ORDER: Final = ("title", "abstract", "name", "authors")


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words in a row (the last one as a prefix when ``is_open``), looked for in some fields."""

    words: tuple[str, ...]
    is_open: bool
    #: The fields whose text is read (``title:"a phrase"`` reads the title only).
    fields: tuple[str, ...] = _READ_ORDER
    pattern: re.Pattern[str] = field(init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", _phrase_pattern(self.words, self.is_open))

    @property
    def key(self) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
        """What is looked for, and where: the answers are remembered by it."""
        return self.words, self.is_open, self.fields


@dataclass(frozen=True, slots=True)
class PhraseCheck:
    """Phrases of which a paper must have one (``wanted``), or none, checked on its text."""

    phrases: tuple[Phrase, ...]
    wanted: bool
    #: Papers that have all the words of one of the phrases (others cannot have it), if known.
    candidates: BoolArray | None = field(default=None, compare=False, hash=False)
    #: Papers the check does not apply to (they meet an ``OR`` group with another term).
    excused: BoolArray | None = field(default=None, compare=False, hash=False)


def _phrase_pattern(words: Sequence[str], is_open: bool) -> re.Pattern[str]:
    """The words in a row, separated by anything but letters and digits.

    It starts with the first word itself, so that the regex engine can look for it as plain
    text (many times faster than starting with a look-behind); ``_has_phrase`` checks that the
    match begins a word.
    """
    tail = "" if is_open else r"(?![^\W_])"
    return re.compile(r"[\W_]+".join(re.escape(w) for w in words) + tail)


def _has_phrase(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` matches ``text`` at the start of a word."""
    for match in pattern.finditer(text):
        start = match.start()
        if start == 0 or not text[start - 1].isalnum():
            return True
    return False


@dataclass(frozen=True, slots=True)
class Allowed:
    """The papers a query's filters allow, and what the filters leave for later."""

    mask: BoolArray
    #: Phrases to check paper by paper, as far as the results go.
    checks: list[PhraseCheck]
    #: Author words that ``author:`` matched, for the hits to mark.
    author_terms: set[str]
    #: Words that ``title:`` and ``abstract:`` matched (term id -> the field bits to mark).
    field_terms: dict[int, int]
    #: Each qualifier, exclusion and phrase, with the papers it allows alone, and what the
    #: qualifiers asked of the index: why none matches, should none (``none_found.py``).
    parts: list[Part]
    facts: HeldFields


def _as_status(value: Status | str) -> Status:
    """A triage state from a stored value; anything unreadable counts as the inbox."""
    if isinstance(value, Status):
        return value
    try:
        return Status.parse(value)
    except ValueError:
        return Status.INBOX


class Filters:
    """Masks for a query's filters over one index, and the phrase answers remembered."""

    def __init__(self, table: PaperTable, vocabulary: Vocabulary, postings: Postings) -> None:
        self._table = table
        self._vocabulary = vocabulary
        self._postings = postings
        self._phrase_answers: OrderedDict[
            tuple[tuple[str, ...], bool, tuple[str, ...]], dict[int, bool]
        ] = OrderedDict()

    def clear_cache(self) -> None:
        """Forget the remembered phrase answers."""
        self._phrase_answers.clear()

    def allowed(
        self,
        query: Query,
        statuses: Mapping[str, Status | str] | None,
        tags: Mapping[str, Sequence[str]] | None,
        notes: Collection[str] = (),
        pdf_text: PdfTextSearch | None = None,
    ) -> Allowed:
        """Papers the qualifiers, exclusions and phrases allow, and the phrase checks left.

        ``notes`` holds the ids of the papers with a note (for ``has:note``); ``pdf_text``
        the text of the downloaded PDFs (for ``pdf:``).
        """
        mask = self._table.live.copy()
        checks: list[PhraseCheck] = []
        facts = _Facts(self, self._table, self._vocabulary, statuses or {}, tags or {}, notes)
        facts.pdf_text = pdf_text
        parts: list[Part] = []
        for qualifier in query.qualifiers:
            selected = kind_of(qualifier).select(facts, qualifier)
            if qualifier.negated:
                selected = ~selected
            mask &= selected
            parts.append(Part(qualifier_label(qualifier), selected, qualifier))
        excluded = [(f"-{w}", w.split("-")) for w in query.excluded]
        excluded += [(f'-"{p}"', p.split()) for p in query.excluded_phrases]
        for label, split in excluded:
            words = [w for w in split if w]
            if not words:
                continue
            # the word, and its plural or singular, as a word of a search matches them both
            # (``-model`` leaves out "models" too)
            key = "".join(words)
            ids = self._vocabulary.ids
            found = [t for t in (ids.get(key), ids.get(number_twin(key))) if t is not None]
            if found:
                kept = ~self.docs_with(found)
                mask &= kept
                parts.append(Part(label, kept, exact=len(words) == 1))
            if len(words) > 1:
                having = self.words_mask(words, False)
                checks.append(PhraseCheck((Phrase(tuple(words), False),), False, having))
        _, grouped = query.grouped()
        for i, phrase in enumerate(query.phrases):
            if i in grouped:
                continue  # one of an OR group's terms: weighed with the others
            words = phrase.split()
            is_open = query.open_phrase and i == len(query.phrases) - 1
            having = self.words_mask(words, is_open)
            mask &= having
            parts.append(Part(f'"{phrase}"', having, exact=len(words) == 1))
            if len(words) > 1:
                checks.append(PhraseCheck((Phrase(tuple(words), is_open),), True))
        return Allowed(mask, checks, facts.author_terms, facts.field_terms, parts, facts)

    def docs_with(self, tids: Iterable[int], field_bits: int = ALL_FIELDS) -> BoolArray:
        """Papers that contain any of the terms (in those fields)."""
        return self._postings.docs_with(tids, len(self._table), field_bits)

    def words_mask(
        self, words: Sequence[str], is_open: bool, field_bits: int = ALL_FIELDS
    ) -> BoolArray:
        """Papers with every one of the words (the last as a prefix when ``is_open``), in
        those fields."""
        mask = self._table.live.copy()
        for i, word in enumerate(words):
            if is_open and i == len(words) - 1:
                tids = self._vocabulary.expand(word, True, True).tids
                mask &= self.docs_with(tids, field_bits)
                continue
            tid = self._vocabulary.ids.get(word)
            if tid is None:
                return np.zeros(len(self._table), dtype=np.bool_)
            mask &= self.docs_with([tid], field_bits)
        return mask

    def answer(self, slots: IntArray, checks: Sequence[PhraseCheck]) -> None:
        """Check the phrases of ``checks`` in the papers of ``slots`` (those a check applies
        to, not yet answered) at once: the texts of the fields that may hold them read
        together (from ``papers.cache``, each chunk once, and only those fields' columns)."""
        todo: list[tuple[Phrase, dict[int, bool], list[int], list[int]]] = []
        for check in checks:
            for phrase in check.phrases:
                answers = self._answers(phrase)
                asked = dict.fromkeys(self._applying(slots, check))
                wanted = [s for s in asked if s not in answers]
                if wanted:
                    todo.append((phrase, answers, wanted, self._fields_to_read(phrase, wanted)))
        if not todo:
            return
        read = sorted({s for _, _, w, bits in todo for s, b in zip(w, bits, strict=True) if b})
        every = 0
        for _, _, _, bits in todo:
            for b in set(bits):
                every |= b
        names = [f for i, field in enumerate(FIELDS) if every >> i & 1 for f in _COLUMNS[field]]
        texts = dict(zip(read, self._texts_at(read, names), strict=True))
        for phrase, answers, wanted, bits in todo:
            for slot, b in zip(wanted, bits, strict=True):
                found = texts.get(slot)
                answers[slot] = found is not None and _paper_has(found, phrase, b)

    def _texts_at(self, slots: list[int], names: list[str]) -> Sequence[Paper | _Texts]:
        """The texts of these fields (``Paper`` attributes) of the papers of ``slots``: the
        papers themselves when they are in memory."""
        papers = self._table.papers
        some: Callable[[list[int], list[str]], list[tuple[Any, ...]]] | None
        some = getattr(papers, "fields_at", None)
        if some is None:
            return [papers[s] for s in slots]
        return [_Texts(**dict(zip(names, row, strict=True))) for row in some(slots, names)]

    @staticmethod
    def _applying(slots: IntArray, check: PhraseCheck) -> list[int]:
        """The papers of ``slots`` that ``check`` asks about (not excused, maybe having it)."""
        if check.excused is not None:
            slots = slots[~check.excused[slots]]
        if check.candidates is not None:
            slots = slots[check.candidates[slots]]
        return slots.tolist()

    def _fields_to_read(self, phrase: Phrase, slots: list[int]) -> list[int]:
        """``_phrase_fields``, but none for a paper whose neighbour words (``pairs.py``) show
        that it cannot have the phrase: its text is not read."""
        bits = self._phrase_fields(phrase, slots)
        words = phrase.words[:-1] if phrase.is_open else phrase.words
        ids = self._vocabulary.ids
        if len(words) < 2 or any(word not in ids for word in words):
            return bits  # (a word the index lacks: no field holds it)
        tids = [ids[word] for word in words]
        pairs = list(zip(tids, tids[1:], strict=False))
        at = np.asarray(slots, dtype=np.int64)
        may = may_have(self._postings.signatures(at), pairs).tolist()
        return [b if m else 0 for b, m in zip(bits, may, strict=True)]

    def _phrase_fields(self, phrase: Phrase, slots: list[int]) -> list[int]:
        """For each paper of ``slots``, the fields (bits, ``FIELDS``) that may hold the phrase:
        those of its fields asked for whose postings have every word of the phrase but one being
        typed (whose completions are many)."""
        at = np.asarray(slots, dtype=np.int64)
        order = np.argsort(at, kind="stable")
        at = at[order]
        bits = np.full(len(at), sum(1 << FIELDS.index(f) for f in phrase.fields), np.uint8)
        words = phrase.words[:-1] if phrase.is_open else phrase.words
        for word in dict.fromkeys(words):
            tid = self._vocabulary.ids.get(word)
            having = np.zeros(len(at), dtype=np.uint8)
            if tid is not None:
                for segment in self._postings.segments:
                    span, present = segment.postings(tid)
                    if not present:
                        continue
                    docs = segment.docs[span]
                    place = np.minimum(docs.searchsorted(at), len(docs) - 1)
                    hit = docs[place] == at
                    having[hit] |= segment.masks[span][place[hit]]
            bits &= having
        found = np.empty(len(at), dtype=np.uint8)
        found[order] = bits
        return found.tolist()

    def _answers(self, phrase: Phrase) -> dict[int, bool]:
        """The answers remembered for a phrase (which papers have it)."""
        answers = self._phrase_answers.get(phrase.key)
        if answers is None:
            answers = self._phrase_answers[phrase.key] = {}
            if len(self._phrase_answers) > _PHRASES_KEPT:
                self._phrase_answers.popitem(last=False)
        else:
            self._phrase_answers.move_to_end(phrase.key)
        return answers

    def passes(self, slot: int, checks: Sequence[PhraseCheck]) -> bool:
        """Whether a paper has one phrase of each wanted check and none of the unwanted ones."""
        for check in checks:
            if check.excused is not None and check.excused[slot]:
                continue
            if check.candidates is not None and not check.candidates[slot]:
                found = False
            else:
                found = any(self.has_phrase(slot, phrase) for phrase in check.phrases)
            if found != check.wanted:
                return False
        return True

    def has_phrase(self, slot: int, phrase: Phrase) -> bool:
        """Whether the paper has the phrase in the fields it names.

        Answers are remembered per phrase, so typing on after a closing quote costs nothing.
        """
        answers = self._answers(phrase)
        found = answers.get(slot)
        if found is None:
            (bits,) = self._fields_to_read(phrase, [slot])
            paper = self._table.papers[slot] if bits else None
            found = answers[slot] = paper is not None and _paper_has(paper, phrase, bits)
        return found


#: The ``Paper`` attributes of each field's texts (``_field_texts``).
_COLUMNS: Final = {
    "title": ("title",),
    "name": ("name",),
    "authors": ("authors",),
    "abstract": ("abstract", "keywords"),
}


@dataclass(frozen=True, slots=True)
class _Texts:
    """A paper's texts, as much of them as a phrase check read (the rest empty)."""

    title: str = ""
    abstract: str = ""
    keywords: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    name: str = ""


def _paper_has(paper: Paper | _Texts, phrase: Phrase, bits: int) -> bool:
    """Whether the paper has the phrase in one of the fields of ``bits`` (read in the phrase's
    order)."""
    for name in phrase.fields:
        if not bits >> FIELDS.index(name) & 1:
            continue
        for text in _field_texts(paper, name):
            if text and _has_phrase(phrase.pattern, folded(text)):
                return True
    return False


def _field_texts(paper: Paper | _Texts, field: str) -> tuple[str, ...]:
    """The texts of a paper that the index reads into a field."""
    if field == "title":
        return (paper.title,)
    if field == "abstract":
        return (paper.abstract, " ".join(paper.keywords)) if paper.keywords else (paper.abstract,)
    if field == "authors":
        return ("; ".join(paper.authors),) if paper.authors else ()
    return (paper.name,) if paper.name else ()


class _Facts:
    """The ``PaperFacts`` and ``HeldFields`` of one search: the index, with that search's
    triage states, tags and notes."""

    def __init__(
        self,
        filters: Filters,
        table: PaperTable,
        vocabulary: Vocabulary,
        statuses: Mapping[str, Status | str],
        tags: Mapping[str, Sequence[str]],
        notes: Collection[str],
    ) -> None:
        self._filters = filters
        self._table = table
        self._vocabulary = vocabulary
        self._statuses = statuses
        self._tags = tags
        self._notes = notes
        self.author_terms: set[str] = set()
        self.field_terms: dict[int, int] = {}
        self.pdf_text: PdfTextSearch | None = None

    def with_status(self, wanted: frozenset[Status]) -> BoolArray:
        """Papers in one of the wanted triage states (papers absent from ``statuses``: inbox)."""
        statuses = self._statuses
        mask = np.full(len(self._table), Status.INBOX in wanted, dtype=np.bool_)
        if not statuses:
            return mask
        slots = np.fromiter(
            map(self._table.slot_by_id.get, statuses.keys(), repeat(-1)), np.int64, len(statuses)
        )
        chosen = np.fromiter(
            (_as_status(v) in wanted for v in statuses.values()), np.bool_, len(statuses)
        )
        known = slots >= 0
        mask[slots[known]] = chosen[known]
        return mask

    def with_code(self) -> BoolArray:
        """Papers that link a GitHub repository."""
        return self._table.has_code.copy()

    def with_venue(self, accepts: Callable[[str], bool]) -> BoolArray:
        """Papers whose folded venue status ``accepts`` takes."""
        codes = [c for venue, c in self._table.venues.items() if venue and accepts(venue)]
        return np.isin(self._table.venue_code, codes)

    def in_lists(self, accepts: Callable[[tuple[str, ...]], bool]) -> BoolArray:
        """Papers whose folded list names ``accepts`` takes."""
        codes = [c for names, c in self._table.list_sets.items() if accepts(names)]
        return np.isin(self._table.lists_code, codes)

    def with_note(self) -> BoolArray:
        """Papers with a note (the ids of papers not indexed are left out)."""
        slots = [self._table.slot_by_id.get(pid, -1) for pid in self._notes]
        mask = np.zeros(len(self._table), dtype=np.bool_)
        mask[[s for s in slots if s >= 0]] = True
        return mask

    def in_field(self, field: str, text: str, *, highlight: bool) -> BoolArray:
        """Papers whose ``field`` has the word of ``text`` (exactly, as a prefix, or a typo
        away) or, for several words, has them in a row (the last as a prefix)."""
        vocabulary = self._vocabulary
        bits = 1 << FIELDS.index(field)
        words = query_words(text)
        joined = word_key(words[0]) if len(words) == 1 else ""
        if joined and (joined in vocabulary or "-" not in words[0]):
            tids = vocabulary.look_alikes(joined)
            mask = self._filters.docs_with(tids, bits)
        else:
            parts = tuple(p for word in words for p in word.split("-") if p)
            if not parts:
                return np.zeros(len(self._table), dtype=np.bool_)
            mask = self._filters.words_mask(parts, True, bits)
            if len(parts) > 1:
                phrase = Phrase(parts, True, (field,))
                slots = np.flatnonzero(mask)
                self._filters.answer(slots, [PhraseCheck((phrase,), True)])  # read together
                for slot in slots.tolist():
                    mask[slot] = self._filters.has_phrase(slot, phrase)
            tids = [vocabulary.ids[p] for p in parts[:-1] if p in vocabulary]
            tids += vocabulary.expand(parts[-1], True, True).tids
        if highlight:
            for tid in tids:
                self.field_terms[tid] = self.field_terms.get(tid, 0) | bits
        return mask

    def tagged(self, accepts: Callable[[Sequence[str]], bool]) -> BoolArray:
        """Papers whose tags ``accepts`` takes."""
        mask = np.zeros(len(self._table), dtype=np.bool_)
        for paper_id, paper_tags in self._tags.items():
            slot = self._table.slot_by_id.get(paper_id)
            if slot is not None and accepts(paper_tags):
                mask[slot] = True
        return mask

    def in_pdf(self, text: str) -> BoolArray:
        """Papers whose downloaded PDF has the words of ``text`` in a row."""
        mask = np.zeros(len(self._table), dtype=np.bool_)
        if self.pdf_text is not None:
            slots = [self._table.slot_by_id.get(pid, -1) for pid in self.pdf_text.papers_with(text)]
            mask[[s for s in slots if s >= 0]] = True
        return mask & self._table.live

    def with_number(self, field: str, test: NumberTest) -> BoolArray:
        """Papers whose number ``field`` passes ``test``: comparisons over its column."""
        values = extra_columns(self._table).numbers[field]
        with np.errstate(invalid="ignore"):  # NaN (no such fact) passes no comparison
            low = values >= test.low if test.low_included else values > test.low
            high = values <= test.high if test.high_included else values < test.high
        return low & high

    def with_area(self, accepts: Callable[[str], bool]) -> BoolArray:
        """Papers whose folded area ``accepts`` takes: one test per distinct area."""
        return extra_columns(self._table).area_mask(accepts)

    def where(self, accepts: Callable[[Paper], bool]) -> BoolArray:
        """Papers that ``accepts`` takes, one by one."""
        papers = self._table.papers
        return np.fromiter(map(accepts, papers), np.bool_, len(papers))

    def held(self, field: str, has: Callable[[Paper], bool] | None = None) -> bool:
        """Whether any live paper has ``field`` (``HeldFields.held``): what the index alone
        tells is remembered with the table, until it changes."""
        table = self._table
        if field == "tag":  # the triage's: changes with each tag, costs a look at the tagged
            slots = table.slot_by_id
            return any(tags and pid in slots for pid, tags in self._tags.items())
        if field == "pdf":
            return self.pdf_text is not None and self.pdf_text.has_texts()
        key = (field, len(table), table.live_count)
        found = table.held.get(key)
        if found is None:
            found = table.held[key] = self._look_for(field, has)
        return found

    def _look_for(self, field: str, has: Callable[[Paper], bool] | None) -> bool:
        table, live = self._table, self._table.live
        if has is not None:
            papers = table.papers
            return any(has(papers[slot]) for slot in np.flatnonzero(live).tolist())
        if field in NUMBER_FIELDS:
            return bool(np.isfinite(extra_columns(table).numbers[field][live]).any())
        if field == "area":
            return bool(np.any(extra_columns(table).area_code[live]))
        if field == "status":
            codes = [code for venue, code in table.venues.items() if venue]
            return bool(np.isin(table.venue_code[live], codes).any())
        if field == "list":
            codes = [code for names, code in table.list_sets.items() if any(names)]
            return bool(np.isin(table.lists_code[live], codes).any())
        raise ValueError(f"no such field of the papers: {field!r}")

    def by_author(self, name: str, *, highlight: bool) -> BoolArray:
        """Papers with one author whose name has every word of ``name``."""
        vocabulary = self._vocabulary
        mask = np.ones(len(self._table), dtype=np.bool_)
        wanted: list[set[int]] = []
        for word in query_words(name):
            joined = word_key(word)
            parts = [joined] if joined in vocabulary or "-" not in word else word.split("-")
            for part in filter(None, parts):
                tids = vocabulary.author_words(part)
                wanted.append(set(tids))
                mask &= self._filters.docs_with(tids, 1 << AUTHORS)
                if highlight:
                    self.author_terms.update(vocabulary.terms[t] for t in tids)
        if len(wanted) > 1:  # "yoshua bengio": the words must name the same author
            for slot in np.flatnonzero(mask).tolist():
                mask[slot] = any(
                    all(not wanted_ids.isdisjoint(ids) for wanted_ids in wanted)
                    for ids in self._author_name_ids(slot)
                )
        return mask

    def _author_name_ids(self, slot: int) -> list[set[int]]:
        """The term ids of each author of a paper, author by author."""
        ids = self._vocabulary.ids
        return [
            {ids[t] for t in tokenize(author) if t in ids}
            for author in self._table.papers[slot].authors
        ]
