"""CSL-JSON: the citation format Zotero, pandoc and citeproc read ("Import from clipboard").

Each item holds what the library knows of the paper (``storage.sources.citation``): its CSL
type (``article-journal``, ``paper-conference``, ``book``, ``thesis``, an arXiv preprint as
``article``…; a master's thesis's ``genre``), the ``editor`` of its book or proceedings
beside its ``author``, ``container-title``, ``collection-title`` (its series), ``issued``
(year, month and day as known), ``publisher``, ``volume``, ``issue``, ``page``, ``DOI``,
``URL``, ``ISBN``/``ISSN``, its arXiv id
(``archive`` and ``archive_location``), keywords, abstract, and a ``note`` ending in its code
links; ``storage.sources.csl_json`` reads it back as the same paper.

The user's own note starts the ``note``, a blank line before the reference's: Zotero's import
reads ``note`` (into the item's Extra) and leaves ``annote`` out, and CSL's ``note`` is the
variable for notes about an item. The user's tags follow the ``keyword`` list. ``custom`` says
which are the user's (``tags``, and ``reference_note``: what of the note is not theirs), so that
our reader takes them back as the note and tags.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from storage.export.bibtex import bibtex_key
from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.json_array import json_array_pieces
from storage.export.selection import keywords_and_tags, users_own, written_text
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.authors import is_et_al, name_parts
from storage.sources.citation import (
    CSL_TYPES,
    PROCEEDINGS_GENRE,
    Citation,
    citation_of,
    editors_only,
)
from storage.sources.fields import written_whole
from storage.sources.links import web_url


def csl_name(name: str, whole: Collection[str] = ()) -> dict[str, str]:
    """``Ann Lee`` → ``{"family": "Lee", "given": "Ann"}``; ``Jan van der Berg`` with
    ``"non-dropping-particle": "van der"`` (as Zotero writes it), ``John Smith Jr.`` with
    ``"suffix": "Jr."``; one word, or an organization (``is_organization``), is a
    ``literal``; the authors a list leaves out are a last ``{"literal": "others"}``, which
    citeproc (pandoc's) reads as "et al." when it ends the list, as pandoc writes BibTeX's
    ``and others``. One of ``whole`` (``literal_names``) is a ``literal``, as its source gave it."""
    if is_et_al(name):
        return {"literal": "others"}
    parts = name_parts(name, whole)
    if parts.literal:
        return {"literal": parts.literal}
    named = {
        "family": parts.family,
        "given": parts.given,
        "non-dropping-particle": parts.particle,
        "suffix": parts.suffix,
    }
    return {key: value for key, value in named.items() if value}


def _issued(cited: Citation) -> dict[str, Any] | None:
    """``{"date-parts": [[2025, 5, 17]]}`` as far as the paper's date, year and month go."""
    if cited.year is None:
        return None
    parts = [cited.year]
    if cited.month:
        parts += [cited.month, cited.day] if cited.day else [cited.month]
    return {"date-parts": [parts]}


def _fact(paper: Paper, name: str) -> str:
    value = paper.fact(name)
    return value if isinstance(value, str) else ""


def csl_item(paper: Paper, key: str, note: str = "", tags: Sequence[str] = ()) -> dict[str, Any]:
    """One paper as a CSL item, with the user's ``note`` and ``tags`` (see the module)."""
    cited = citation_of(paper)
    kind = CSL_TYPES.get(cited.kind, "document")
    if cited.kind == "misc" and cited.arxiv:
        kind = "article"  # what Zotero calls a preprint
    item: dict[str, Any] = {"id": key, "type": kind, "title": written_text(paper.title, title=True)}
    edited = editors_only(paper)
    whole = written_whole(paper.fact("literal_names"))
    if paper.authors:  # a volume that names only its editors: theirs (``editors_only``)
        item["editor" if edited else "author"] = [csl_name(a, whole) for a in paper.authors]
    if (editors := _fact(paper, "editors")) and not edited:  # its book's, its volume's
        item["editor"] = [csl_name(a, whole) for a in editors.split("; ")]
    if series_editors := _fact(paper, "series_editors"):  # (Zotero's "Series Editor")
        item["collection-editor"] = [csl_name(a, whole) for a in series_editors.split("; ")]
    if cited.container:
        item["container-title"] = cited.container
    if issued := _issued(cited):
        item["issued"] = issued
    for csl, ours in (("publisher", "publisher"), ("collection-title", "series"),
                      ("volume", "volume"), ("issue", "issue"), ("page", "pages"),
                      ("ISBN", "isbn"), ("ISSN", "issn")):  # fmt: skip
        if value := _fact(paper, ours):
            item[csl] = value
    if cited.kind in ("phdthesis", "mastersthesis", "thesis") and (
        school := _fact(paper, "school")
    ):
        item["publisher"] = school
    if cited.kind == "mastersthesis":  # its genre, as Zotero writes a thesis's type
        item["genre"] = "Master's thesis"
    elif cited.kind in ("proceedings", "mvproceedings"):  # a book of CSL's, its genre says
        item["genre"] = PROCEEDINGS_GENRE
    if cited.kind in ("techreport", "report") and (where := _fact(paper, "institution")):
        item["publisher"] = where
    if paper.abstract:
        item["abstract"] = written_text(paper.abstract)
    if url := web_url(paper.url):
        item["URL"] = url
    if cited.doi:
        item["DOI"] = cited.doi
    if cited.arxiv:
        item["archive"], item["archive_location"] = "arXiv", cited.arxiv
    elif cited.eprint:
        item["archive"], item["archive_location"] = cited.archive, cited.eprint
    if keywords := keywords_and_tags(paper.keywords, tags):
        item["keyword"] = ", ".join(keywords)
    cited_note = _fact(paper, "bib_note")
    if paper.github:
        code = "Code: " + ", ".join(paper.github)
        cited_note = f"{cited_note}; {code}" if cited_note else code
    if note or cited_note:
        item["note"] = "\n\n".join(n for n in (note, cited_note) if n)
    custom: dict[str, Any] = {}  # CSL's own place for what other fields do not hold
    if paper.lists or paper.list:
        custom["lists"] = list(paper.lists or (paper.list,))
        if paper.title_derived and paper.abstract:  # read back as derived, not as real
            custom["title_derived"] = True
    if tags:
        custom["tags"] = list(tags)
    if note:
        custom["reference_note"] = cited_note
    if custom:
        item["custom"] = custom
    return item


def to_csl_json(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """A CSL-JSON array, one item per paper, keyed as in the BibTeX export."""
    return "".join(csl_json_pieces(papers, triage, options))


def csl_json_pieces(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> Iterator[str]:
    """``to_csl_json`` in pieces."""
    taken: set[str] = set()
    return json_array_pieces(
        csl_item(p, bibtex_key(p, taken), *users_own(p, triage)) for p in papers
    )


CSL_JSON = Exporter(
    name="csl-json",
    label="CSL-JSON",
    suffix=".csl.json",
    description="CSL items: for Zotero, pandoc and other citation tools",
    pieces=csl_json_pieces,
)
