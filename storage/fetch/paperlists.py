"""Paper Copilot's lists (the papercopilot/paperlists repository): one JSON file a conference and
year, ``{base}/{conf}/{conf}{year}.json`` (``PAPERS_PAPERLISTS_URL``).

``paperlists:iclr2025``; NeurIPS's lists are ``nips2024`` there (``names.PAPERLISTS_NAMES``:
``paperlists:neurips2024`` asks for it). Each record carries its ``status`` (``Poster``,
``Oral``, ``Reject``, ``Withdraw``…), ``;``-joined ``author`` and ``aff``, the reviews' scores
as ``"5;6;6;6"`` in ``rating`` and ``confidence``, a ``tldr``, ``github`` and ``project``
links, the OpenReview forum and PDF. Without ``--all`` only accepted papers are kept (like
OpenReview's; those whose status is "Unknown" are left out, said in a line); with it,
rejected, withdrawn, desk-rejected and workshop-track ones too, their status said in the words
OpenReview's fetch uses (an "Unknown" one kept as written: no acceptance), as is the
presentation of an accepted paper Paper Copilot names its own way (ICLR 2023's "Top-5%" is an
Oral: ``_PRESENTATIONS``). The records are then read by the JSON lists reader. An answer that
is no such list (another object, a list of no paper's record) is not understood, said so in
one line, and not kept in the cache.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

from storage.fetch.errors import AnswerError, FetchError, StatusError
from storage.fetch.names import PAPERLISTS_NAMES, short_name
from storage.fetch.records import add_items, names_no_one, numbers, score_list
from storage.fetch.request import PAPERLISTS_URL, FetchRequest, base_url, host_of
from storage.fetch.web import Web
from storage.sources.decisions import (
    DESK_REJECTED,
    SUBMITTED,
    WORKSHOP,
    decided_against,
    says_no_decision,
)
from storage.sources.records import ReadResult
from storage.sources.venues import find_venue

#: Statuses of papers that were not accepted that no reader reads as a decision against them
#: (``storage.sources.decisions``: "Reject", "Withdraw", "Desk Reject", "Active"), and the
#: venue status each becomes. ICLR 2018's "Workshop" (its decision "Invite to Workshop Track",
#: papercopilot/paperlists iclr/iclr2018.json) is no acceptance to the conference, as
#: OpenReview's fetch reads it; "Submitted" was sent there, no more (``SUBMITTED``), as every
#: reader reads it.
_NOT_ACCEPTED: tuple[tuple[str, str], ...] = (
    ("desk", DESK_REJECTED),
    ("workshop", WORKSHOP),
    ("submitted", SUBMITTED),
)


def fetch_paperlists(name: str, request: FetchRequest, web: Web) -> ReadResult:
    """The list ``name`` (``iclr2025``) as a reader's result."""
    conf = name.rstrip("0123456789")
    url = f"{base_url(PAPERLISTS_URL)}/{conf}/{name}.json"
    cached = web.from_cache
    try:
        data = _records_of(web.get_json(url, keep=_holds_records), name, host_of(url))
    except StatusError as exc:
        if exc.status == 404:
            raise _missing(name, url) from None
        raise
    # a venue on OpenReview: its records' ids are OpenReview's (``_forum``)
    on_openreview = short_name(_our_name(name)) is not None
    found = find_venue(name)
    list_name = f"{found.text} (Paper Copilot)" if found.venue is not None else name
    result = ReadResult(source=f"paperlists:{name}", list_name=list_name)
    items: list[Any] = []
    statuses: list[str | None] = []
    unknown: dict[str, int] = {}  # papers of no decision known, left out: by their status
    for record in data:
        status = _decision(record)
        if status is not None and not request.all_submissions:
            if says_no_decision(status):
                unknown[status] = unknown.get(status, 0) + 1
            continue
        items.append(_shaped(record, on_openreview))
        statuses.append(status or _presentation(record))
        if request.max_papers is not None and len(items) >= request.max_papers:
            break
    request.tell(list_name, len(items), len(items))
    add_items(result, items, 1, statuses)
    if unknown:
        n = sum(unknown.values())
        result.warnings.append(
            f"{n:,} paper{'s' if n != 1 else ''} of {name} whose decision Paper Copilot does not "
            f"know ({', '.join(map(repr, unknown))}): left out; --all brings them"
        )
    # the whole list of accepted papers, when nothing was left out (--all, --max, a record
    # not read, one of no known decision: a Poster stored may be among those now): one
    # stored before and not here has left it
    result.every_accepted = not (
        request.all_submissions or request.max_papers is not None or result.errors or unknown
    )
    if not result.records and not result.errors:
        # the list is one large file, kept for the day even without accepted papers (asking
        # again on every --all fetch would download it each time): the user is told
        since = " in today's cached copy (--refresh downloads it again)"
        what = "papers" if request.all_submissions else "accepted papers"
        raise FetchError(
            f"Paper Copilot's {name} holds no {what}{since if web.from_cache > cached else ''}"
            + ("" if request.all_submissions else " (try --all)")
        )
    return result


def _paper_list(data: Any) -> list[Any] | None:
    """The records of an answer: a list, or the first list an object wraps; None for none."""
    if isinstance(data, Mapping):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    return data if isinstance(data, list) else None


def _is_record(value: Any) -> bool:
    """Whether an entry of a list is a paper's record: an object with a title."""
    return isinstance(value, Mapping) and isinstance(value.get("title"), str)


def _holds_records(data: Any) -> bool:
    """Whether an answer is worth keeping in the cache: a list holding a paper's record (one
    not understood, or an empty one, is asked again)."""
    records = _paper_list(data)
    return records is not None and any(_is_record(record) for record in records)


def _records_of(data: Any, name: str, host: str) -> list[Any]:
    """The records of the list ``name``; ``AnswerError`` for an answer of another shape: no
    list, or one none of whose entries is a paper's record (one odd entry among records is
    the record error it makes)."""
    records = _paper_list(data)
    if records is None:
        raise AnswerError(host, f"{name}.json is not a list of papers")
    if records and not any(_is_record(record) for record in records):
        raise AnswerError(
            host, f"{name}.json holds no paper ({len(records):,} entries, none with a title)"
        )
    return records


def _missing(name: str, url: str) -> FetchError:
    """The error for a list Paper Copilot does not have: the name it was asked under when it
    is not ours (``nips2030`` for ``neurips2030``), and the short name OpenReview may have the
    venue under."""
    conf, ours = name.rstrip("0123456789"), _our_name(name)
    said = f"its name for {ours}; " if ours != name else ""
    text = (
        f"no list {name} on Paper Copilot ({said}{host_of(url)}: HTTP 404 for /{conf}/{name}.json)"
    )
    if short_name(ours) is not None:
        text += f"; OpenReview may have it: papers fetch {ours}"
    return FetchError(text)


def _our_name(name: str) -> str:
    """A list's short name where Paper Copilot's differs (``nips2024`` → ``neurips2024``)."""
    conf = name.rstrip("0123456789")
    return next((k for k, v in PAPERLISTS_NAMES.items() if v == conf), conf) + name[len(conf) :]


#: An OpenReview note id: 9 (ICLR 2017), 10 (today) or 13 (ICLR 2013) letters, digits, ``_``
#: and ``-``. Paper Copilot's own ids for papers not on OpenReview (CVPR, NeurIPS before 2021)
#: are ``site_`` and ten hex digits (``site_b8ebd99ee4``): never one.
_NOTE_ID = re.compile(r"[A-Za-z0-9_-]{8,14}")


def _forum(record: Mapping[str, Any], on_openreview: bool) -> str:
    """The OpenReview id of a record that gives it only as its ``id`` (ICLR 2023's, CoRL
    2024's records have no ``openreview`` link), or ""."""
    found = record.get("id")
    if not on_openreview or not isinstance(found, str) or found.startswith("site_"):
        return ""
    return found if _NOTE_ID.fullmatch(found) else ""


def _decision(record: Any) -> str | None:
    """The venue status of a paper that was not accepted (or whose decision Paper Copilot does
    not know: "Unknown", kept as written); None for an accepted one."""
    if not isinstance(record, Mapping):
        return None
    status = record.get("status")
    if not isinstance(status, str):
        return None
    if says_no_decision(status):
        return " ".join(status.split())
    low = status.casefold()
    return decided_against(status) or next((w for key, w in _NOT_ACCEPTED if key in low), None)


#: Paper Copilot's own names of an accepted paper's presentation, and OpenReview's words for it
#: (its fetch reads the decisions they stand for so): ICLR 2023's "Top-5%" and "Top-25%"
#: ("Accept: notable-top-5%", "notable-top-25%": its orals and spotlights), ICLR 2020's "Talk"
#: ("Accept (Talk)"), as papercopilot/paperbot ``settings/iclr.json`` names them (``tname``).
_PRESENTATIONS = {"top-5%": "Oral", "top-25%": "Spotlight", "talk": "Oral"}


def _presentation(record: Any) -> str | None:
    """The venue status of an accepted paper whose status is Paper Copilot's own name for its
    presentation (``_PRESENTATIONS``); None for any other (read as written)."""
    status = record.get("status") if isinstance(record, Mapping) else None
    return (
        _PRESENTATIONS.get(" ".join(status.split()).casefold()) if isinstance(status, str) else None
    )


def _scores(value: Any) -> list[float]:
    """The scores of a field: no review score is 0 or less; Paper Copilot writes ``-1`` (and
    ``0`` in some lists) for a paper nobody reviewed, a placeholder, not a score."""
    return [score for score in numbers(value) if score > 0]


#: Where a record names its authors: ``author`` (``;``- or ``,``-joined), older lists
#: ``authors``; a withdrawn or rejected paper's may say "Anonymous" (iclr/iclr2018.json).
_AUTHOR_KEYS = ("author", "authors")


#: The reviews' other scores (``"3;3;2"``), which nothing here reads: ``presentation`` would
#: otherwise be read as the venue status ("Oral", "Poster") it names in other lists.
_OTHER_SCORES = ("soundness", "presentation", "contribution")


def _shaped(record: Any, on_openreview: bool) -> Any:
    """A record as the JSON lists reader reads it: the reviews' scores as lists, the
    OpenReview forum as the paper's link (made from its id when the venue is on OpenReview
    and the record names no forum, with the PDF beside it), the averages (a number, or
    ``[mean, std]``) left out but for the mean of a record without its scores, no authors
    for an "Anonymous" one (a withdrawn or rejected paper's), and the HTML entities of its
    authors' names and affiliations read (``_unescaped``)."""
    if not isinstance(record, Mapping):
        return record
    # ``track`` ("main") is no research area; ``rating_avg`` is [mean, standard deviation]
    item = {
        k: v
        for k, v in record.items()
        if not str(k).endswith("_avg")
        and k != "track"
        and k not in _OTHER_SCORES
        and not (k in _AUTHOR_KEYS and names_no_one(v))
    }
    # a placeholder (-1, 0, "0;0") is no score: the field goes, not the paper with it
    item.pop("rating", None)
    item.pop("confidence", None)
    ratings = _scores(record.get("rating"))
    if ratings:
        item["rating"] = sum(ratings) / len(ratings)
        item["ratings"] = score_list(ratings)
    elif mean := _scores(record.get("rating_avg"))[:1]:
        item["rating"] = mean[0]
    confidences = _scores(record.get("confidence"))
    if confidences:
        item["confidence"] = score_list(confidences)
    forum = record.get("openreview")
    if isinstance(forum, str) and forum.startswith(("https://", "http://")):
        item["url"] = forum
    elif note := _forum(record, on_openreview):
        item["url"] = f"https://openreview.net/forum?id={note}"
        if not (isinstance(record.get("pdf"), str) and record["pdf"].strip()):
            item["pdf"] = f"https://openreview.net/pdf?id={note}"
    for key in _AUTHOR_KEYS:  # before the reader's split: ``&#x27;`` holds a ``;``
        if isinstance(item.get(key), str):
            item[key] = _unescaped(item[key])
        elif isinstance(item.get(key), list):
            item[key] = [_unescaped(a) if isinstance(a, str) else a for a in item[key]]
    aff = record.get("aff")
    if isinstance(aff, str):
        aff = _unescaped(aff)  # before the split: ``&#x27;`` holds a ``;``
        names = [a.strip() for part in aff.split(";") for a in part.split("+")]
        item["aff"] = list(dict.fromkeys(a for a in names if a))
    return item


def _unescaped(text: str) -> str:
    """Text with its HTML entities read, those escaped twice or thrice over too: Paper
    Copilot's CVPR 2024 list writes ``Xi&amp;amp;#x27;an`` for "Xi'an" in an ``aff``, which
    split on its ``;`` made four affiliations ("Xi&amp", "amp", "#x27", "an"); an author's
    name so escaped was split the same way ("Sean O&amp", "#x27", "Brien")."""
    for _ in range(3):
        if "&" not in text:
            break
        plain = html.unescape(text)
        if plain == text:
            break
        text = plain
    return text
