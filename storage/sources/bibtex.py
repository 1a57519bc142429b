"""BibTeX (``.bib``): what Zotero, Better BibTeX, Mendeley, Google Scholar, arXiv, DBLP and our
own export write, read whole.

bibtexparser (v2) splits the file into entries, ``@string`` macros, ``@comment`` and
``@preamble`` blocks and blocks it could not parse (each a record refused, with its line).
Values are then read here: braces and quotes taken off, ``#`` concatenations and ``@string``
macros (and the month names BibTeX predefines) resolved within a budget (a few hundred bytes of
doubling macros would otherwise grow to gigabytes: past it a macro is refused, and so is each
entry using it, with one line), ``crossref`` parents' fields inherited
(``storage.sources.bibtex_crossref``).

Every entry is a paper, whatever its type (``@book``, ``@phdthesis``, ``@online``, a type no
style knows), except a ``crossref`` container: an entry another entry names in its
``crossref`` (DBLP's ``@proceedings``), which lends its fields instead, and biblatex's
``@xdata`` entries, whose fields are those of every entry naming them in its ``xdata``.
Entries in a ``crossref`` cycle are papers too, and the cycle is named. An entry that names no
``author`` (a book, a proceedings volume or a collection that names only its editors) has its
``editor`` as its people, as BibTeX's styles cite it; one that names both keeps the
``editor`` (its book's, its volume's: DBLP writes it in every paper of a volume) as its
``editors``. Keys are labels, not
identity: an empty key (Mendeley's ``@article{,``) or a repeated one imports, and
``Li2025MarS`` is not ``Li2025MaRS``.

An unmatched ``}`` (``title = {A {B}} C},``) ends an entry early for the parser, which reads its
later fields as a comment: the entry is read again whole (``storage.sources.bibtex_mend``), the
brace taken out, with a warning; when what follows cannot be read as its fields, the entry is
refused with one line naming it, never imported without them.

LaTeX in titles, names and other text fields (``{\\"U}ber``, ``{$\\tau$}-bench``) becomes
Unicode through the one converter (``storage.text.latex``); abstracts are kept as written
(LaTeX is their display's business). The reference fields (year, date, month, DOI, URL,
eprint and archive, journal, booktitle, publisher, series, volume, number, pages, note, …)
are kept as the paper's extra fields (``storage.sources.fields``) and written back by the
exports.
The user's own notes (``annote``: Zotero's, one a note; JabRef's, Mendeley's, ours;
``annotation``: BibLaTeX's, Zotero's BibLaTeX one a note) are the paper's note, each text
kept once, cut at the note's cap with a warning, never refused for its length, GitHub links
in them the code (``storage.sources.bibtex_notes``); its tags (``mendeley-tags``, which are
among the ``keywords`` too) are the paper's tags.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources import bibtex_dialects as dialects
from storage.sources.authors import ended_with_et_al, flat_name, parted
from storage.sources.bibtex_crossref import lending
from storage.sources.bibtex_mend import (
    Mended,
    comma_mended,
    cut_short,
    mend_entry,
    runs_together,
    starts_entry,
    value_runs_on,
)
from storage.sources.bibtex_notes import UsersNote, joined_notes, notes_read_once, users_note
from storage.sources.citation import entry_type
from storage.sources.fields import BadField, keywords_before_tags, without_tags
from storage.sources.records import (
    Fit,
    Reader,
    ReadResult,
    first_line,
    folder_of,
    note_and_code,
    record_from_fields,
    with_attachment,
)

BIBTEX_SUFFIXES: Final = (".bib", ".bibtex")
#: The month macros BibTeX predefines, as it expands them: a name, never a number, so that a
#: day beside it stays a day (Paperpile's ``"11~" # feb`` is February 11, ``jan # "~15"``
#: January 15).
_MONTHS: Final = {
    name[:3].casefold(): name
    for name in (
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    )
}  # fmt: skip
_ENTRY_START: Final = re.compile(r"@\s*[A-Za-z]+\s*[{(]")
#: The longest a field's value may grow by its macros (an abstract is refused past 20,000).
MAX_VALUE_CHARS: Final = 50_000
#: What all ``@string`` macros of a file may hold together: at least this, or four times the
#: file's length (a real file's macros are journal names, a few kilobytes in all).
MACRO_BUDGET_CHARS: Final = 4 * 1024**2
#: Macros named in a warning, at most.
_NAMED: Final = 5


def sniff_bibtex(text: str, path: Path) -> Fit:
    """The name says BibTeX (then nothing else reads it), or the text opens with an entry."""
    if path.suffix.lower() in BIBTEX_SUFFIXES:
        return Fit.NAMED
    head = text.lstrip()[:4096]
    while head.startswith("%"):  # comment lines before the first entry
        head = head.split("\n", 1)[1].lstrip() if "\n" in head else ""
    return Fit.OPENS if _ENTRY_START.match(head) else Fit.NO


@contextmanager
def _quiet() -> Iterator[None]:
    """bibtexparser logs a warning per block it cannot parse: the import reports them."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _parts(raw: str) -> Iterator[str]:
    """The parts of a value joined by ``#`` outside braces and quotes (linear)."""
    depth, quoted, start = 0, False, 0
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            yield raw[start:i].strip()
            start = i + 1
    yield raw[start:].strip()


class _Unbounded:
    """A macro past the budget: using it refuses the entry (``BadField``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Macros:
    """A file's ``@string`` macros, expanded within ``MACRO_BUDGET_CHARS`` in all and
    ``MAX_VALUE_CHARS`` each: linear in the file, however the macros double."""

    def __init__(self, budget: int = MACRO_BUDGET_CHARS) -> None:
        self._values: dict[str, str | _Unbounded] = {}
        self._budget = budget
        self.refused: list[str] = []

    def define(self, name: str, raw: str) -> None:
        key = name.casefold()
        try:
            value = value_of(raw, self)
        except BadField:
            value = ""
            self._values[key] = _Unbounded(name)
            self.refused.append(name)
            return
        if len(value) > self._budget:
            self._values[key] = _Unbounded(name)
            self.refused.append(name)
            return
        self._budget -= len(value)
        self._values[key] = value

    def get(self, name: str) -> str | None:
        """The macro's text (None for no such macro); ``BadField`` for one past the budget."""
        found = self._values.get(name.casefold())
        if isinstance(found, _Unbounded):
            raise BadField(f"uses @string {found.name[:40]}, which grows past what a file may hold")
        return found


def value_of(
    raw: str, macros: Macros | Mapping[str, str], limit: int | None = MAX_VALUE_CHARS
) -> str:
    """A field's value: delimiters off, concatenations joined, macros and months resolved.

    ``BadField`` when its macros make it grow past ``MAX_VALUE_CHARS``, or when it is longer
    than ``limit`` (None: a note's, which ``bibtex_notes`` cuts at the note's cap, said)."""
    out: list[str] = []
    grown = size = 0
    for part in _parts(raw.strip()):
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            piece = part[1:-1]
        elif part.isdigit():
            piece = part
        else:
            name = part.casefold()
            found = macros.get(name)
            piece = found if found is not None else _MONTHS.get(name, part)
            grown += len(piece)  # (what is written the file's size cap bounds)
            if grown > MAX_VALUE_CHARS:
                raise BadField(f"a value grows past {MAX_VALUE_CHARS:,} characters by its macros")
        size += len(piece)
        out.append(piece)
    if limit is not None and size > limit:
        raise BadField(f"its value is {size:,} characters long (at most {limit:,} a field)")
    return "".join(out)


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` (compared in lower case) outside braces: a name in braces
    (``{Smith and Sons}``) stays whole. Linear in ``text``."""
    parts: list[str] = []
    depth, start, i, width = 0, 0, 0, len(sep)
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and ch == sep[0] and text[i : i + width].lower() == sep:
            parts.append(text[start:i])
            start = i = i + width
            continue
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _readable(text: str, *, markdown: bool = True) -> str:
    """TeX read as Unicode; not ``markdown``: a title's or a name's ``__init__`` as it is."""
    from storage.text.latex import to_unicode

    return to_unicode(text, markdown=markdown)


def _as_source(text: str) -> str:
    """A title's display text as the TeX source the library keeps titles in (``literal``)."""
    from storage.text.source_text import literal

    return literal(text, markdown=False)


#: The commands TeX sets within a word (``self\\hyphen supervised``, ``input\\slash output``,
#: ``non\\nobreakdash-linear``), with the spaces that end them, and what stands for each
#: while the rest of the title is read (a character of Unicode's private use).
_WORD_COMMAND: Final = re.compile(r"\\(hyphen|slash|nobreakdash)(?![A-Za-z])\s*")
_MARKS: Final = {"hyphen": "\ue010", "slash": "\ue011", "nobreakdash": "\ue012"}
_COMMANDS: Final = str.maketrans({mark: f"\\{name}{{}}" for name, mark in _MARKS.items()})
_UNMARKED: Final = dict.fromkeys(map(ord, _MARKS.values()))  # a title's own: no command


def _title_source(raw: str) -> str:
    """A title read (``_readable``) and kept as source (``_as_source``), its word commands
    (``_WORD_COMMAND``) kept as commands (``\\hyphen{}``): shown as TeX prints them, and
    read for the id of a paper known by its title as the converter first read them, when it
    knew none of them (``storage.importing.identity._as_first_named``): a file imported
    before gives its papers the ids it gave them then."""
    if "\\" not in raw or _WORD_COMMAND.search(raw) is None:
        return _as_source(_readable(raw, markdown=False))
    marked = _WORD_COMMAND.sub(lambda found: _MARKS[found.group(1)], raw.translate(_UNMARKED))
    return _as_source(_readable(marked, markdown=False)).translate(_COMMANDS)


def _name(raw: str) -> str:
    """``Lee, Ann`` → ``Ann Lee``; ``von Last, Jr, First`` → ``First von Last Jr``
    (``flat_name``: a family name of two words, ``Stender Clausen, Jørgen``, tied, as is the
    last of ``Jørgen {Stender Clausen}``); ``{Google Research}`` stays one name."""
    pieces = _split_top(raw, ",")
    if len(pieces) >= 2:
        last, first, suffix = pieces[0], pieces[-1], " ".join(pieces[1:-1])
        # ``Lee, Ann {jr}``: a braced last word of the first name is a given name, as our
        # export writes one that reads as a suffix (``flat_name``'s ``Smith, John Jr.``)
        braced = len(pieces) == 2 and first.rstrip().endswith("}")
        return flat_name(
            _name_text(last), _name_text(first), _name_text(suffix), suffix_in_first=not braced
        )
    words = _split_top(raw, " ")
    if len(words) > 1 and words[-1][:1] == "{" and words[-1][-1:] == "}":  # a braced last name
        given = _name_text(" ".join(words[:-1]))
        return flat_name(_name_text(words[-1]), given) if given else _name_text(raw)
    return _name_text(raw)


def written_whole(raw: str) -> list[str]:
    """The names of an ``author`` or ``editor`` field written whole in one pair of braces
    (``{Acme Widgets}``: BibTeX's one last name, an organization's), as ``authors_of`` reads
    them, that the exports would part (``parted``)."""
    names = _split_top(" ".join(raw.split()), " and ")
    whole = (_name(n) for n in names if n[:1] == "{" and _braced_whole(n))
    return [name for name in whole if parted(name)]


def _braced_whole(name: str) -> bool:
    """Whether ``name`` is one braced group: its first brace closes at its end."""
    depth = 0
    for i, char in enumerate(name):
        depth += (char == "{") - (char == "}")
        if depth == 0:
            return i == len(name) - 1
    return False


def _name_text(raw: str) -> str:
    """A name's part as read (TeX as Unicode), its spaces (a ``~`` too) single spaces."""
    return " ".join(_readable(raw, markdown=False).split())


def authors_of(raw: str) -> tuple[str, ...]:
    """The names of an ``author`` field, in Unicode, in order (two people may share a name);
    ``and others`` is a last ``ET_AL``."""
    names = (_name(n) for n in _split_top(" ".join(raw.split()), " and "))
    return tuple(ended_with_et_al(n for n in names if n))


@dataclass(slots=True)
class _Entry:
    """One entry as the file wrote it: its place, key, type and fields (macros resolved)."""

    number: int
    line: int
    key: str
    kind: str
    fields: dict[str, str]
    #: Why a field cannot be read ("" when all can): the entry is refused.
    problem: str = ""
    #: The fields read apart where a comma before them was missing (said as a warning).
    mended: list[str] = field(default_factory=list)
    #: The fields written again after their first (each a note's excepted): said, not read.
    repeated: list[str] = field(default_factory=list)
    #: The fields an unmatched ``}`` was taken out of, the entry read whole (a warning).
    strays: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        key = self.key if len(self.key) <= 60 else self.key[:60] + "…"
        return f"@{self.kind}{{{key}}} (line {self.line})"


def _entry(block: Any, number: int, macros: Macros) -> _Entry:
    written = [(str(f.key), str(f.value)) for f in block.fields]
    line = int(getattr(block, "start_line", 0) or 0) + 1
    return _entry_of(written, str(block.entry_type), str(block.key), line, number, macros)


def _entry_of(
    written: list[tuple[str, str]], kind: str, key: str, line: int, number: int, macros: Macros
) -> _Entry:
    """An entry from its fields as written (``(name, raw value)``), macros resolved."""
    fields: dict[str, str] = {}
    notes: list[str] = []  # every annote and annotation, in order (``bibtex_notes``)
    problem = ""
    mended: list[str] = []
    repeated: list[str] = []
    for name_written, raw in written:
        name = name_written.strip().casefold()
        run_together = runs_together(raw)  # rare: C, not Python
        for one, value in comma_mended(name, raw, mended) if run_together else ((name, raw),):
            if one in fields and one not in dialects.NOTES:  # a field written twice: the first,
                repeated.append(one)  # and a warning
                continue
            note = one in dialects.NOTES  # each note (``dialects.NOTES``), however long
            try:
                read = value_of(value, macros, None if note else MAX_VALUE_CHARS)
            except BadField as exc:
                problem = problem or f"{one}: {exc}"
                continue
            if note:
                notes.append(read)
            else:
                fields[one] = read
    if notes:  # one note, as the user's (``_USERS``) is read
        fields["annote"] = joined_notes(notes)
    kind = kind.strip().casefold()
    return _Entry(number, line, key.strip(), kind, fields, problem, mended, repeated)


_URL_COMMAND: Final = re.compile(r"^\\(?:url|href)\s*\{([^{}]*)\}")


def _verbatim(text: str) -> str:
    """A URL, DOI or id as BibTeX holds it: ``\\url{…}`` and braces off, ``\\_`` unescaped."""
    text = text.strip()
    match = _URL_COMMAND.match(text)
    if match:
        text = match.group(1)
    text = re.sub(r"\\([_#%&~$])", r"\1", text)
    return text.replace("{", "").replace("}", "").strip()


def _urls(field: str) -> list[str]:
    """The links of a ``url`` field: Mendeley writes every link of a reference in one,
    separated by spaces or newlines (``http://arxiv.org/abs/… https://…``)."""
    parts = field.split()
    if len(parts) > 1 and all("://" in part for part in parts):
        return parts
    return [field]


def _note(fields: Mapping[str, str]) -> tuple[str, str]:
    """The reference's note, and the code links of the entry (our export's ``Code:``)."""
    note, code = note_and_code(_readable(fields.get("note", "")))
    more = " ".join(fields.get(n, "") for n in ("code", "github", "repository"))
    return note, f"{more} {code}".strip()


#: The fields of the user's note (an entry's own joined in ``annote``: ``bibtex_notes``).
_USERS: Final = ("annote", "annotation")


#: Reference fields kept as the paper's extra fields: (ours, BibTeX's names), as text.
_TEXT_FIELDS: Final = (
    ("journal", ("journal", "journaltitle")),
    ("booktitle", ("booktitle", "eventtitle")),  # Zotero's BibLaTeX: the conference's name
    # Google Scholar's @inproceedings names its publisher ``organization`` (``{PMLR}``,
    # ``{IEEE}``): the publisher where none is named, as Zotero's BibTeX import reads it
    ("publisher", ("publisher", "organization")),
    ("school", ("school",)),
    ("institution", ("institution",)),
    ("series", ("series",)),
    ("volume", ("volume",)),
    ("issue", ("number", "issue")),
    ("pages", ("pages",)),
    ("isbn", ("isbn",)),
    ("issn", ("issn",)),
)


def _first(fields: Mapping[str, str], names: tuple[str, ...]) -> str:
    return next((fields[n] for n in names if fields.get(n, "").strip()), "")


#: Scopus's page of a record (``url`` of its BibTeX), which only its subscribers may open.
_SCOPUS_RECORD: Final = re.compile(r"https?://(?:www\.)?scopus\.com/(?:inward|record)/", re.I)
#: The first line of our BibTeX export (``storage.export.bibtex``).
OWN_EXPORT_LINE: Final = "% Written by papers-tui"


#: A date written as ISO 8601 (BibLaTeX's): kept as the paper's date when it gives a day.
_ISO_START: Final = re.compile(r"\d{4}-\d\d-\d\d")


def _fields(
    entry: _Entry,
    fields: Mapping[str, str],
    ours: bool = False,
    notes_of: Callable[[str, bool], UsersNote] = users_note,
) -> dict[str, Any]:
    """An entry's fields under the names ``record_from_fields`` reads (``notes_of``: its
    note, ``bibtex_notes.notes_read_once`` for a file's entries)."""
    howpublished = fields.get("howpublished", "").strip()
    published_url = _URL_COMMAND.match(howpublished) or howpublished.startswith("http")
    venue = _first(fields, ("journal", "journaltitle", "booktitle", "eventtitle"))
    if not venue and howpublished and not published_url:
        venue = howpublished
    date = _verbatim(fields.get("date", ""))
    eprint, archive, primary_class = dialects.mendeley_eprint(fields)
    # BibLaTeX's ``date`` is ISO 8601 (``2024-05``, ``2024-05-07/2024-05-09``); as typed in
    # JabRef it may be ``May 2024``: its year and month either way
    year, month, unread = dialects.stated_year(fields.get("year", ""), date)
    if not _ISO_START.match(date):
        date = ""  # no ISO date to keep as the paper's date
    author, editor = _first(fields, ("author",)), _first(fields, ("editor",))
    out: dict[str, Any] = {
        # read, then written so that it reads as that (``{$\lbrace$}`` is ``\{``, not ``{``)
        "title": _title_source(dialects.full_title(fields)),
        "abstract": dialects.abstract_of(fields),
        # a book or proceedings volume that names only its editors is cited by them (as
        # BibTeX's styles and CSL do): they are its people, never added to its authors
        "authors": list(authors_of(author or editor)),
        "edited_by": not author,  # (then they are its editors)
        "editors": list(authors_of(editor)) if author else [],  # its book's, its volume's
        "venue": _readable(venue),
        "year": year,
        "keywords": _readable(_first(fields, ("keywords", "author_keywords"))),  # Scopus's
        "doi": _verbatim(fields.get("doi", "")),
        "urn": _verbatim(fields.get("urn", "")),  # DBLP's of a Dagstuhl paper
        "entry_type": entry_type(entry.kind),
        "month": fields.get("month", "").strip() or month,
        "date": date if len(date) > 7 else "",
        "eprint": _verbatim(eprint),
        "archiveprefix": _verbatim(archive),
        "primaryclass": _verbatim(primary_class),
        # Zotero's, JabRef's, Mendeley's attachments (``storage.sources.attachments``)
        "file": _verbatim(dialects.file_letters(fields.get("file", ""))),
        "pdf": dialects.online_pdf(fields, eprint),
    }
    if "{" in author or "{" in editor:  # (a name written whole is in braces)
        out["literal_names"] = [*written_whole(author), *written_whole(editor)]
    for name, names in _TEXT_FIELDS:
        out[name] = _readable(_first(fields, names))
    if out["entry_type"] == "inproceedings" and out["journal"] and not out["booktitle"]:
        # Scopus's @CONFERENCE names its proceedings in ``journal``: BibTeX styles want a
        # booktitle, and our exports write one, which would read back as another field
        out["booktitle"], out["journal"] = out["journal"], ""
    links = [u for u in _urls(_verbatim(fields.get("url", ""))) if u]
    links = links or [_verbatim(u) for u in dialects.linked_urls(fields)]  # BibDesk's
    if out.get("doi"):  # Scopus's record page is behind its login: the DOI's page instead
        links = [u for u in links if not _SCOPUS_RECORD.match(u)]
    if published_url:
        links.append(_verbatim(howpublished))
    out["url"] = [u for u in links if u]
    out["bib_note"], out["code"] = _note(fields)
    # the user's: the note in ``annote`` and the tags Mendeley and we name among the keywords
    # (Zotero's, JabRef's, Mendeley's, ours: ``bibtex_notes``), cut at its cap, said
    out["note"], code, out["notes_cut"] = notes_of(_first(fields, _USERS), ours)
    if code:  # Zotero's notes' links (``users_note``)
        out["code"] = " ".join([out["code"], *code]).strip()
    out["tags"] = _readable(fields.get("mendeley-tags", ""))
    out["keywords"] = (keywords_before_tags if ours else without_tags)(out["keywords"], out["tags"])
    groups = _readable(fields.get("groups", ""))  # JabRef's groups, our export's lists
    # JabRef separates its groups by commas ("Reading, Thesis"); our export by semicolons
    out["lists"] = groups if ours or ";" in groups else groups.split(",")
    out["links_given"] = ours
    out["title_derived"] = ours and fields.get("titlederived") == "true"
    # said by ``read_bibtex``, not read as a field: the year as typed, or the date
    out["year_unread"] = (year or date or _verbatim(fields.get("date", ""))) if unread else ""
    return {k: v for k, v in out.items() if v}


def _mended(whole: Mended, line: int, number: int, macros: Macros) -> _Entry:
    """An entry ``bibtex_mend`` read whole, as ``_entry`` reads one the parser gave."""
    entry = _entry_of(whole.fields, whole.kind, whole.key, line, number, macros)
    entry.strays = whole.strays
    return entry


def _with_tail(text: str, found: int, raw: str, tail: str) -> str:
    """An entry's text (``raw``, found at ``found`` in ``text``, -1 for not found) and the
    comment the parser left after it, with what lay between them (the parser keeps no
    whitespace at a block's ends)."""
    if found < 0 or not tail:
        return f"{raw}\n{tail}"
    start = text.find(tail, found + len(raw))
    return text[found : start + len(tail)] if start >= 0 else f"{raw}\n{tail}"


def _unread(block: Any, line: int, *, cut: bool) -> str:
    """Why a block is refused: an entry an unmatched ``}`` cut short whose rest cannot be read
    as its fields (``cut``), or a block that is no entry."""
    raw = str(block.raw or "")
    if cut:
        key = str(getattr(block, "key", "") or "")
        kind = str(getattr(block, "entry_type", "") or "").casefold()
        shown = key if len(key) <= 60 else key[:60] + "…"
        return (
            f"@{kind}{{{shown}}} (line {line}): an unmatched }} ends the entry before its "
            "last fields, which cannot be read apart: take out the extra brace"
        )
    shown = (first_line(raw, 60) or raw[:60]).strip()
    return f"line {line}: not a BibTeX entry: {shown}"


def _names(names: list[str]) -> str:
    """Fields named in a warning: the first ``_NAMED``, each once and cut at 40 characters
    (a name may run to thousands), then how many more."""
    once = [*dict.fromkeys(names)]
    more = f" and {len(once) - _NAMED:,} more" if len(once) > _NAMED else ""
    return ", ".join(n if len(n) <= 40 else f"{n[:40]}…" for n in once[:_NAMED]) + more


def read_bibtex(text: str, path: Path) -> ReadResult:
    """Every entry of a BibTeX file as a record (see the module)."""
    import bibtexparser
    from bibtexparser.model import Entry, ImplicitComment, ParsingFailedBlock, String

    text = dialects.keys_mended(text)  # EndNote's ``@article{`` with no key
    with _quiet():
        library = bibtexparser.parse_string(text, parse_stack=[])
    result = ReadResult(source=str(path), list_name=path.stem)
    ours = text.lstrip().startswith(OWN_EXPORT_LINE)
    macros = Macros(max(MACRO_BUDGET_CHARS, 4 * len(text)))
    entries: list[_Entry] = []
    number = 0
    blocks = library.blocks
    at = cursor = 0
    while at < len(blocks):
        block = blocks[at]
        at += 1
        if isinstance(block, String):
            macros.define(str(block.key), str(block.value))
            continue
        entry = block if isinstance(block, Entry) else getattr(block, "ignore_error_block", None)
        if not isinstance(entry, Entry) and not isinstance(block, ParsingFailedBlock):
            continue  # a comment, a preamble
        number += 1
        # what the parser left right after the entry may be the rest of it (``bibtex_mend``)
        after = blocks[at] if at < len(blocks) else None
        tail = str(after.raw or "") if isinstance(after, ImplicitComment) else ""
        failed = not isinstance(entry, Entry)
        values = entry.fields if isinstance(entry, Entry) else ()
        runs_on = any(value_runs_on(str(f.value)) for f in values)
        # ``journal =} {J},``: the last field has no value, and the entry's rest follows it
        cut = cut_short(tail) or bool(values and tail.strip() and not str(values[-1].value))
        if failed or cut or runs_on:
            raw = str(block.raw or "")
            found = text.find(raw, cursor) if raw else -1
            cursor = max(cursor, found)
            whole = mend_entry(_with_tail(text, found, raw, tail)) if starts_entry(raw) else None
            line = int(getattr(block, "start_line", 0) or 0) + 1
            if whole is not None:
                at += 1 if tail else 0
                entries.append(_mended(whole, line, number, macros))
                continue
            if failed or cut:
                at += 1 if tail and not failed else 0
                result.refuse(number, _unread(block if failed else entry, line, cut=not failed))
                continue
        entries.append(_entry(entry, number, macros))
    if macros.refused:
        names = ", ".join(n[:40] for n in macros.refused[:_NAMED])
        more = f" and {len(macros.refused) - _NAMED:,} more" if len(macros.refused) > _NAMED else ""
        result.warnings.append(
            f"{path}: @string macros grow past what a file may hold and were not expanded: "
            f"{names}{more}"
        )
    lent = lending(entries, str(path))  # crossref parents, xdata (``bibtex_crossref``)
    result.warnings.extend(lent.warnings)
    unread: list[tuple[int, str]] = []  # years that name no year
    notes_of = notes_read_once()  # (a crossref parent's note is each child's)
    for index, entry in enumerate(entries):
        if index in lent.containers:
            result.containers += 1
            continue
        if entry.problem:
            result.refuse(entry.number, f"{entry.label}: {entry.problem}")
            continue
        if entry.strays:
            result.warnings.append(
                f"{path}: record {entry.number}: {entry.label}: an unmatched }} in "
                f"{_names(entry.strays)} was taken out, and the fields after it read"
            )
        if entry.mended:
            result.warnings.append(
                f"{path}: record {entry.number}: {entry.label}: a comma is missing before "
                f"{_names(entry.mended)}: read as fields of their own"
            )
        if entry.repeated:
            result.warnings.append(
                f"{path}: record {entry.number}: {entry.label}: {_names(entry.repeated)} "
                "written twice: the first read"
            )
        try:
            fields = _fields(entry, lent.fields_of(entries, index), ours, notes_of)
            if typed := fields.pop("year_unread", ""):
                unread.append((entry.number, typed))
            if said := fields.pop("notes_cut", ""):  # (as ``zotero_api.attach`` says it)
                result.warnings.append(f"{path}: record {entry.number}: {entry.label}: {said}")
            if "file" in fields:
                fields = with_attachment(fields, folder_of(str(path)))
            record, problem = record_from_fields(fields, entry.number)
        except BadField as exc:
            record, problem = None, str(exc)
        if record is None:
            result.refuse(entry.number, f"{entry.label}: {problem}")
        else:
            result.records.append(record)
    if unread:
        result.warnings.append(dialects.unread_years(str(path), unread))
    if not result.records and not result.errors and not entries:
        raise SourceError(f"{path}: holds no BibTeX entries")
    return result


BIBTEX = Reader(
    name="BibTeX",
    label="BibTeX",
    suffixes=BIBTEX_SUFFIXES,
    sniff=sniff_bibtex,
    read=read_bibtex,
)
