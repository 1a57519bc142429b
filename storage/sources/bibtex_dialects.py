"""What reference managers write into their BibTeX that BibTeX styles never read, and where
it holds what a paper would lose without it.

EndNote's BibTeX export opens an entry with no key (``@article{`` and, on the next line,
``author = …``): the parser took the first field for the key and failed the entry, and a file
of such entries was refused whole. BibDesk keeps a reference's links in ``Bdsk-Url-1``,
``Bdsk-Url-2``, … and, for what it fetched from PubMed, ``Remote-Url``, often with no
``url``. Mendeley names the arXiv id ``arxivId``, sometimes with no ``eprint``. A ``year``
typed as a date (``January 1978``) is a year too, and one that names none (``in press``,
``Forthcoming``) leaves the year to the entry's ``date`` (BibLaTeX's), or to nobody, said.
BibLaTeX's ``subtitle`` is the end of the title (``title = {General and Specific Measures},
subtitle = {Considerations and Examples}``), which the title alone cut short. BibSonomy
writes the eprint as the arXiv page's address, and JabRef links a PDF on the web in the
``file`` field (``:http\\://arxiv.org/pdf/1312.6114v10:PDF``), no file of this machine's.
Zotero's BibLaTeX writes a preprint's eprint with its arXiv category after it (``eprint =
{2010.11929 [cs]}``), which is no arXiv id as it stands. The BibTeX that the CSL style
"BibTeX generic citation style" writes (Zotero's Quick Copy, and the "How to cite" of Open
Journal Systems sites such as AAAI's) holds the abstract in ``abstractNote``, HTML escaped
once or twice in OJS's (``&lt;p&gt;…&lt;/p&gt;``).
The shapes come from the files users sent Better BibTeX for Zotero
(retorquere/zotero-better-bibtex ``test/fixtures/import``) and, for ``arxivId``, a Mendeley
entry cited in jnhwkim/MulLowBiVQA's README.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Final

from storage.sources.attachments import web_pdf
from storage.sources.csl_json import markup_free
from storage.sources.dates import typed_date

__all__ = [
    "NOTES",
    "abstract_of",
    "arxiv_of_address",
    "file_letters",
    "full_title",
    "keys_mended",
    "linked_urls",
    "mendeley_eprint",
    "mendeley_unescaped",
    "online_pdf",
    "stated_year",
    "unread_years",
]

#: The fields of notes, which an entry may write several times: Zotero's BibTeX writes an
#: ``annote`` a note (arXiv's ``Comment: …``, then the user's), its BibLaTeX an
#: ``annotation`` a note; each of them the paper's (``storage.sources.bibtex_notes``).
NOTES: Final = frozenset({"annote", "annotation"})
#: An entry's head with no key before its first field, on the next line (EndNote's): not
#: ``@string``, ``@preamble`` or ``@comment``, whose first line may well end after ``{``.
_KEYLESS_HEAD: Final = re.compile(
    r"(@[ \t]*(?!(?:string|preamble|comment)\b)[A-Za-z]\w*[ \t]*[{(])"
    r"(?=[ \t]*\r?\n\s*[A-Za-z][\w:.+-]*\s*=)",
    re.I,
)
#: BibDesk's links of an entry, numbered from 1.
_BDSK_URL: Final = re.compile(r"bdsk-url-(\d+)")
#: A year field as BibTeX and BibLaTeX mean it: a year, a range of years, a year and a
#: letter (``2019``, ``2019/2020``, ``2019--2020``, ``1991a``).
_YEAR_FIELD: Final = re.compile(r"\d{4}(?:\s*(?:/|--?|–)\s*\d{2,4}|[a-z])?")


def full_title(fields: Mapping[str, str]) -> str:
    """The title with BibLaTeX's ``subtitle`` after it, as biblatex styles print it (``Title:
    Subtitle``; a title ending in ``?`` or ``!`` keeps its own mark)."""
    title, subtitle = fields.get("title", "").strip(), fields.get("subtitle", "").strip()
    if not subtitle or not title:
        return title or subtitle
    return f"{title} {subtitle}" if title[-1] in ":?!." else f"{title}: {subtitle}"


def keys_mended(text: str) -> str:
    """``text`` with an empty key given to each entry that opens with none (``@article{,``,
    as Mendeley writes such an entry, which is read as keyless)."""
    return _KEYLESS_HEAD.sub(r"\1,", text) if "@" in text else text


def linked_urls(fields: Mapping[str, str]) -> list[str]:
    """The links BibDesk keeps for an entry, its own first (``Bdsk-Url-1``, …), then the one
    it fetched with the reference (``Remote-Url``)."""
    numbered = sorted(  # by number, compared as digits (a name's may be of any length)
        (len(found.group(1).lstrip("0")), found.group(1).lstrip("0"), name)
        for name in fields
        if (found := _BDSK_URL.fullmatch(name)) is not None
    )
    return [fields[name] for *_, name in numbered] + [fields.get("remote-url", "")]


#: An arXiv paper's page or PDF, as BibSonomy writes an ``eprint`` (``http://arxiv.org/abs/
#: 1312.6114v10``) and JabRef links a PDF: the id it names.
_ARXIV_ADDRESS: Final = re.compile(
    r"\s*(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/"
    r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]+(?:\.[A-Za-z]{2})?/\d{7}(?:v\d+)?)(?:\.pdf)?/?\s*",
    re.IGNORECASE,
)


_VERSION: Final = re.compile(r"v\d+$")


def arxiv_of_address(link: str) -> str:
    """The arXiv id an arXiv page's or PDF's address names ("" for another address)."""
    found = _ARXIV_ADDRESS.fullmatch(link)
    return found.group(1) if found else ""


#: An arXiv id with its category after it, as Zotero's BibLaTeX writes a preprint's eprint
#: (``2010.11929 [cs]``, ``2412.15204 [cs.CL]``): the id and the category.
_ID_AND_CLASS: Final = re.compile(
    r"\s*(?:arXiv:)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]+(?:\.[A-Za-z]{2})?/\d{7}(?:v\d+)?)"
    r"\s*\[([A-Za-z][\w.-]*)\]\s*",
    re.IGNORECASE,
)


def mendeley_eprint(fields: Mapping[str, str]) -> tuple[str, str, str]:
    """The entry's ``eprint``, its archive and its primary class; Mendeley's ``arxivId`` when
    it has no eprint; the id of an arXiv page's address written as the eprint (BibSonomy's);
    the id and category of Zotero's ``2010.11929 [cs]``."""
    eprint = fields.get("eprint", "")
    archive = fields.get("archiveprefix") or fields.get("eprinttype", "")
    listed = fields.get("primaryclass") or fields.get("eprintclass", "")
    if not eprint.strip() and fields.get("arxivid", "").strip():
        return fields["arxivid"], "arXiv", listed
    if arxiv := arxiv_of_address(eprint):
        return arxiv, archive or "arXiv", listed
    if archive.strip().casefold() in ("", "arxiv") and (found := _ID_AND_CLASS.fullmatch(eprint)):
        return found.group(1), archive or "arXiv", listed or found.group(2)
    return eprint, archive, listed


#: What Mendeley Desktop writes for TeX's special characters of a field's text (its option
#: "Escape LaTeX special characters", on by default): ``$\backslash$`` for ``\``, ``{\$}``
#: for ``$``, ``{\{}`` for ``{``… An arXiv abstract's ``$O(n \log n)$`` comes as
#: ``{\$}O(n $\backslash$log n){\$}``.
_MENDELEY_ESCAPES: Final = {
    "$\\backslash$": "\\", "{\\$}": "$", "{\\{}": "{", "{\\}}": "}", "{\\_}": "_",
    "{\\%}": "%", "{\\&}": "&", "{\\#}": "#", "{\\~{}}": "~", "{\\^{}}": "^",
}  # fmt: skip
_MENDELEY_ESCAPE: Final = re.compile("|".join(map(re.escape, _MENDELEY_ESCAPES)))
#: The escapes that say a text is Mendeley's (TeX's own writers write ``\$``, ``\{``).
_MENDELEY_MARKS: Final = ("$\\backslash$", "{\\$}", "{\\{}")


def mendeley_unescaped(text: str) -> str:
    """A text Mendeley escaped (``_MENDELEY_ESCAPES``; told by the escapes only it writes) as
    its source wrote it; any other as it is."""
    if not any(mark in text for mark in _MENDELEY_MARKS):
        return text
    return _MENDELEY_ESCAPE.sub(lambda m: _MENDELEY_ESCAPES[m.group()], text)


def abstract_of(fields: Mapping[str, str]) -> str:
    """The entry's ``abstract`` (Mendeley's escapes undone: ``mendeley_unescaped``), else the
    ``abstractNote`` the CSL style writes, as text: its HTML entities decoded (twice escaped in
    some OJS sites' answers) and its elements off."""
    abstract = mendeley_unescaped(fields.get("abstract", ""))
    note = fields.get("abstractnote", "")
    if abstract.strip() or not note.strip():
        return abstract
    for _ in range(2):
        if "&" not in note:
            break
        note = html.unescape(note)
    return markup_free(note)


def online_pdf(fields: Mapping[str, str], eprint: str) -> str:
    """The PDF the entry's ``file`` field links on the web (``web_pdf``), but for the arXiv PDF
    of the entry's own ``eprint``, which its id gives already; "" for none."""
    link = web_pdf(fields.get("file", ""))
    own = arxiv_of_address(link)
    return "" if own and _VERSION.sub("", own) == _VERSION.sub("", eprint.strip()) else link


def stated_year(year: str, date: str) -> tuple[str, str, bool]:
    """The year of an entry, the month its date gives it, and whether its ``year`` (or, with
    none, its ``date``: BibLaTeX's ``-0876``) named no year where one was typed: the year as
    typed when it is one (``2019``, ``2019/2020``), else the year (and month) of a date typed
    in it (``January 1978``), else the ``date``'s.
    A date's month is the year's when they agree (year 2020, date 2019-12-01: no month)."""
    year = year.strip()
    dated_year, dated_month, _ = typed_date(date)
    if year and not _YEAR_FIELD.fullmatch(year):
        typed_year, typed_month, _ = typed_date(year)
        if typed_year is not None:
            return str(typed_year), str(typed_month or ""), False
        if dated_year is None:  # kept as typed, for the venue ("Cell in press")
            return year[:10], "", True
        year = ""  # "in press" beside a date: the date's year
    if not year and date.strip() and dated_year is None:  # a date that names no year: said
        return "", "", True
    year = year or (str(dated_year) if dated_year else "")
    return year, str(dated_month or "") if str(dated_year) == year[:4] else "", False


def unread_years(source: str, unread: list[tuple[int, str]]) -> str:
    """The warning for the entries whose ``year`` names no year (as EndNote XML's reader
    words it): the first of them, and how many."""
    number, year = unread[0]
    many = f"{len(unread):,} entries' years give" if len(unread) > 1 else "an entry's year gives"
    return f"{source}: {many} no year (record {number}: {year[:40]!r}); imported without one"


#: A letter or symbol as Mendeley writes one in a file's path: ``{\\'{e}}``, ``{\\"{u}}``,
#: ``{\\ss}``, ``{\\&}`` (its ``{\\_}`` too, which ``bibtex._verbatim`` reads anyway).
_TEX_LETTER: Final = re.compile(
    r"\{\\(?:[^A-Za-z{}\\\s]|[A-Za-z]{1,2})(?:\{[^{}\\]{0,2}\}|[A-Za-z])?\}"
)


def file_letters(field: str) -> str:
    """A file field with the letters Mendeley Desktop writes in TeX read as they are in the
    path (``Thi{\\'{e}}ry - 2012.pdf`` names ``Thiéry - 2012.pdf``)."""
    if "{\\" not in field:
        return field
    from storage.text.latex import to_unicode

    return _TEX_LETTER.sub(lambda m: to_unicode(m.group(0), markdown=False), field)
