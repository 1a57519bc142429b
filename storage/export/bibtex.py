"""BibTeX: one entry per paper, valid where it lands (pdflatex + bibtex, biblatex + biber,
Zotero), holding what the library knows of the paper.

Every value is pure ASCII with LaTeX escapes and balanced braces (``storage.export.tex``);
keys are ``lastname2025firstword``, ASCII, unique within the file (a letter added to a
repeat) and the same for the same papers in the same order. The entry is what the paper's
fields say (``storage.sources.citation``): its own type when a source gave one (``@book``,
``@phdthesis``), an ``@article{journal}``, an ``@inproceedings{booktitle}`` (a known venue,
whether its source or its list says it, as ``International Conference on Learning
Representations (ICLR)``), an arXiv preprint as ``@misc{eprint, archiveprefix, primaryclass}``;
with its book's or volume's editors (``editor`` beside ``author``), its year, month,
publisher, series, volume, number, pages, DOI, URL, note, keywords and abstract,
and its code links at the end of the note, so that the file imports back as the same papers.

The user's own note and tags go where reference managers read them: the note in ``annote``
(Zotero, JabRef and Mendeley write and read a note there; its lines kept as the field's
lines), the tags among the ``keywords`` (Zotero's and JabRef's tags) and named apart in
``mendeley-tags``, as Mendeley writes them, so that our reader takes them back as tags.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from typing import Final

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import keywords_and_tags, lists_text, users_own
from storage.export.tex import tex_ascii, tex_note
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.authors import is_et_al, is_suffix, name_parts
from storage.sources.bibtex import OWN_EXPORT_LINE
from storage.sources.citation import citation_of, editors_only
from storage.sources.fields import written_whole
from storage.sources.links import web_url
from storage.text.normalize import LATIN_LETTERS
from storage.text.sanitize import printable, printable_block


def bib_escape(text: str) -> str:
    """Text safe inside a BibTeX field: one line, ASCII, LaTeX escapes, balanced braces."""
    return tex_ascii(text)


def _title_escape(text: str) -> str:
    """A title as ``bib_escape`` writes it, its asterisks as they are (``tex_ascii``)."""
    return tex_ascii(text, markdown=False)


def _ascii_word(text: str) -> str:
    """The ASCII letters and digits of ``text``, in lower case (what keys are made of):
    accents dropped, and letters no decomposition takes to ASCII written as people write
    them (``Ørsted``'s key was ``rsted``; ``ß`` is ``ss``)."""
    plain = unicodedata.normalize("NFKD", text.casefold().translate(LATIN_LETTERS))
    return re.sub(r"[^a-z0-9]", "", plain.encode("ascii", "ignore").decode())


#: A terminal's escape sequence: CSI (``ESC [ 2 J``, the 8-bit CSI), OSC (``ESC ] … BEL``), or
#: ESC and the one character after it.
_ESCAPE_SEQUENCE: Final = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?", re.DOTALL
)


def _key_name(authors: Sequence[str]) -> str:
    """The first author's family name (``smith`` of ``John Smith Jr.``, ``garcialopez`` of
    ``García López, José``), or the last word of a name written whole, its letters alone;
    "" for none. An escape sequence in the name is no part of it (``Mallory \x1b[2J`` is
    ``mallory``, not ``2j``)."""
    first = _ESCAPE_SEQUENCE.sub("", next((a for a in authors if not is_et_al(a)), ""))
    parts = name_parts(first)
    # the whole family name (``garcialopez`` of ``García López, José``), unless no letter of
    # it is ASCII (``李, Wei``): then the last word of the name that has one, as before
    family = re.sub("[^a-z]", "", _ascii_word(parts.family))
    if family:
        return family
    words = [a for w in (parts.literal or first).split() if (a := _ascii_letters(w))]
    return words[-1] if words else ""


def _ascii_letters(word: str) -> str:
    return re.sub("[^a-z]", "", _ascii_word(word))


#: The most letters a key takes of the family name and of the title's word: more than any
#: real one holds (the longest of the 3,703 ICLR 2025 papers': 20 and 24 letters), so that
#: their keys are what they were, while a title of one 1,000-letter "word" gives a key of a
#: line, not of a page.
KEY_PART_CHARS: Final = 32


def bibtex_key(paper: Paper, taken: set[str]) -> str:
    """``lastname2025firstword``, made unique with a letter suffix; the name and the word
    each cut at ``KEY_PART_CHARS``."""
    last = _key_name(paper.authors)[:KEY_PART_CHARS]
    year = citation_of(paper).year
    words = [w for w in map(_ascii_word, paper.display_title.split()) if w]
    first = next((w for w in words if len(w) > 3), words[0] if words else "paper")
    key = f"{last or 'anon'}{year or ''}{first[:KEY_PART_CHARS]}"
    candidate, n = key, 0
    while candidate in taken:
        n += 1
        candidate = f"{key}{chr(ord('a') + (n - 1) % 26)}{(n - 1) // 26 or ''}"
    taken.add(candidate)
    return candidate


def _author(name: str, whole: Collection[str] = ()) -> str:
    """One author as BibTeX reads it: ``others`` for the authors a list leaves out; a name
    written whole (an organization, one holding " and " or a comma) in braces, since BibTeX
    would split ``Google DeepMind`` into a first and a last name; a person as ``First Last``
    where BibTeX reads that form as the name's parts, else as ``von Last, Jr, First`` (a
    suffix, a lower-case word that is no particle); one of ``whole`` (its source wrote it
    whole: ``literal_names``) in braces too, whatever its words."""
    if is_et_al(name):
        return "others"
    parts = name_parts(name, whole)
    if parts.literal:
        escaped = bib_escape(parts.literal)
        return "{" + escaped + "}" if " " in parts.literal or "," in name else escaped
    words = [*parts.given.split(), *parts.last.split()]
    # a family name of two words (``García López``) only in ``Last, First``: BibTeX would
    # take the first of them for a given name
    one_word = " " not in parts.family
    if one_word and not parts.suffix and _reads_as_parts(words, len(parts.given.split())):
        return bib_escape(" ".join(words))
    if parts.suffix:  # its first name in third place, even empty (``King, Jr.,``)
        return ", ".join(bib_escape(p) for p in (parts.last, parts.suffix, parts.given)).strip()
    given = parts.given.split()
    if len(given) > 1 and is_suffix(given[-1]):  # ``Ann jr Lee``: braced, not read as a suffix
        written = f"{bib_escape(' '.join(given[:-1]))} {{{bib_escape(given[-1])}}}"
        return f"{bib_escape(parts.last)}, {written}"
    return ", ".join(bib_escape(p) for p in (parts.last, parts.given) if p)


def _people(names: Sequence[str], whole: Collection[str] = ()) -> str:
    """An ``author`` or ``editor`` field: each name as ``_author`` writes it, control
    characters shown (as in the title)."""
    return " and ".join(
        _author(printable(name), [printable(name)] if name in whole else ()) for name in names
    )


def _reads_as_parts(words: list[str], given: int) -> bool:
    """Whether BibTeX reads ``First von Last`` (no comma) as the name's parts: its "von" is
    the lower-case words before the last, and they are the particles, right after the
    ``given`` first words."""
    lower = [i for i, word in enumerate(words[:-1]) if _starts_lower(word)]
    return lower == list(range(given, len(words) - 1))


def _starts_lower(word: str) -> bool:
    """Whether BibTeX takes a word for lower case: its first letter with a case is."""
    return next((c.islower() for c in word if c.isupper() or c.islower()), False)


_MONTH_MACROS: Final = ("jan", "feb", "mar", "apr", "may", "jun",
                        "jul", "aug", "sep", "oct", "nov", "dec")  # fmt: skip
#: Types whose venue, when neither a journal nor proceedings, is said by ``howpublished``.
_PUBLISHED: Final = frozenset({"misc", "online", "booklet", "unpublished", "software", "dataset"})
#: Further reference fields, written as the paper holds them: (BibTeX's name, ours).
_MORE_FIELDS: Final = (
    ("publisher", "publisher"), ("school", "school"), ("institution", "institution"),
    ("series", "series"), ("volume", "volume"), ("number", "issue"), ("pages", "pages"),
)  # fmt: skip


def _text_fact(paper: Paper, name: str) -> str:
    value = paper.fact(name)
    return value if isinstance(value, str) else ""


def bibtex_entry(paper: Paper, key: str, note: str = "", tags: Sequence[str] = ()) -> str:
    """The entry of one paper, with the user's ``note`` and ``tags`` (see the module)."""
    cited = citation_of(paper)
    fields = [("title", "{" + _title_escape(paper.display_title) + "}")]
    edited = editors_only(paper)
    whole = written_whole(paper.fact("literal_names"))
    if paper.authors:  # a volume that names only its editors: theirs (``editors_only``)
        # control characters shown, as in the title (they were left out here alone)
        fields.append(("editor" if edited else "author", _people(paper.authors, whole)))
    else:  # what styles sort by when there is no author
        fields.append(("key", _title_escape(paper.display_title[:40])))
    if (editors := _text_fact(paper, "editors")) and not edited:  # its book's, its volume's
        fields.append(("editor", _people(editors.split("; "), whole)))
    if cited.journal:
        fields.append(("journal", bib_escape(cited.journal)))
    if cited.booktitle:
        fields.append(("booktitle", bib_escape(cited.booktitle)))
    if cited.published and cited.kind in _PUBLISHED:
        fields.append(("howpublished", bib_escape(cited.published)))
    for name, ours in _MORE_FIELDS:
        if value := _text_fact(paper, ours):
            fields.append((name, bib_escape(value)))
    if cited.year:
        fields.append(("year", str(cited.year)))
    if cited.month:
        fields.append(("month", _MONTH_MACROS[cited.month - 1]))
    if cited.arxiv:
        fields.append(("eprint", bib_escape(cited.arxiv)))
        fields.append(("archiveprefix", "arXiv"))
    elif cited.eprint:
        fields.append(("eprint", bib_escape(cited.eprint)))
        if cited.archive:  # (an eprint of no archive named: no ``archiveprefix = {}``)
            fields.append(("archiveprefix", bib_escape(cited.archive)))
    if cited.primary_class:
        fields.append(("primaryclass", bib_escape(cited.primary_class)))
    if url := web_url(paper.url):  # one line, no brace: a URL cannot end the entry early
        fields.append(("url", url))
    if cited.doi and "{" not in cited.doi + "}":
        fields.append(("doi", bib_escape(cited.doi)))
    for name in ("isbn", "issn", "urn"):  # (a URN: DBLP's of a Dagstuhl paper)
        if value := _text_fact(paper, name):
            fields.append((name, bib_escape(value)))
    cited_note = _text_fact(paper, "bib_note")
    if paper.github:
        code = "Code: " + ", ".join(paper.github)
        cited_note = f"{cited_note}; {code}" if cited_note else code
    if cited_note:
        fields.append(("note", bib_escape(cited_note)))
    if note:  # control characters shown (as the RIS and Markdown exports do), not dropped
        fields.append(("annote", tex_note(printable_block(note))))
    if keywords := keywords_and_tags(paper.keywords, tags):
        fields.append(("keywords", bib_escape(", ".join(keywords))))
    if tags:
        fields.append(("mendeley-tags", bib_escape(", ".join(tags))))
    if groups := lists_text(paper):  # JabRef's field for the groups an entry is in
        fields.append(("groups", bib_escape(groups)))
    if paper.title_derived and paper.abstract:  # ours: read back as derived, not as real
        fields.append(("titlederived", "true"))
    if paper.abstract:
        fields.append(("abstract", tex_ascii(paper.display_abstract, paragraphs=True)))
    body = ",\n".join(
        f"  {name} = {value}" if name == "month" else f"  {name} = {{{value}}}"
        for name, value in fields
    )
    return f"@{cited.kind}{{{key},\n{body}\n}}\n"


def to_bibtex(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """One entry per paper (``@inproceedings``, ``@article`` or ``@misc``)."""
    return "".join(bibtex_pieces(papers, triage, options))


def bibtex_pieces(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> Iterator[str]:
    """``to_bibtex`` in pieces: the first line, then an entry at a time."""
    # the reader knows its own export by this line: code links are the notes', none else
    coded = any(paper.github for paper in papers)  # the line says what is true of the file
    said = " (an entry's https://github.com links end its note)" if coded else ""
    yield f"{OWN_EXPORT_LINE}{said}\n\n"
    taken: set[str] = set()
    for number, paper in enumerate(papers):
        entry = bibtex_entry(paper, bibtex_key(paper, taken), *users_own(paper, triage))
        yield f"\n{entry}" if number else entry


BIBTEX = Exporter(
    name="bibtex",
    label="BibTeX",
    suffix=".bib",
    description="one entry per paper, ASCII with LaTeX escapes: for LaTeX and reference managers",
    pieces=bibtex_pieces,
)
