"""OpenReview: a venue's papers from its public API, anonymously.

``openreview:ICLR.cc/2025/Conference`` (or a short name, ``iclr2025``). The venue's group is
looked up first (``/groups?id=``): a venue that is not there is an error naming the short
names known. API v2 (``PAPERS_OPENREVIEW_API``) serves the newer venues (ICLR from 2024,
NeurIPS and ICML from 2023), API v1 (``PAPERS_OPENREVIEW_API_V1``) the older ones; a venue
whose group v2 gives without a ``domain`` is a v1 venue (what openreview-py's own tools check).

- **v2**: notes by ``content.venueid``: the venue id itself for the accepted papers; with
  ``--all`` also the venue ids its group names (or the usual suffixes, a conference's or a
  journal's: ``OTHER_SUBMISSIONS``) for submissions under review, awaiting a decision,
  rejected, withdrawn and desk rejected, each of which is then the paper's venue status.
  Pages of 1,000 notes (200 with reviews), sorted by id and continued ``after`` the last one
  (by ``offset`` when the server sends the first page again for ``after``), ``count`` saying
  how many to expect. A page without notes is not cached: before the
  decisions, the accepted papers' page is empty, and a fetch later that day must ask again.
  The pages of a venue still deciding (the cache holds a page of its submissions under
  review or awaiting a decision) are believed for an hour, not the day (``_deciding``).
- **v1**: notes by ``invitation``, the accepted told from their decision replies, paged by
  ``offset``: ``openreview_v1.py`` holds what a venue of v1 needs besides.
- A part ``--all`` adds that OpenReview refuses (HTTP 403: a venue may show its withdrawn
  submissions to some accounts only) is said in one warning, the rest kept (``_read_part``).
- ``--reviews`` asks for the direct replies (``replies.py``): the reviews' ratings and
  confidences become the paper's ``ratings`` (each), ``rating`` and ``confidence`` (means). A
  venue of v2 names its reviews, decisions and meta reviews in its group (``review_name``…);
  the usual names (``Official_Review``…) are read too. The decision reply is read beside
  them: a v2 note that names no venue (none, an empty one, a stale "Submitted to …") takes
  its presentation from it (its venue is the group's name for it, ``_venue_name``, not the
  venue id, as is that of a note of ``--all``'s other parts that names none), and so does a
  submission ``--all`` finds still under review or awaiting a decision once its decision is
  out (the venue ids move hours later); a withdrawn or desk-rejected venue id says the last
  word over any decision, in both APIs.

The API, a query and a page of notes, alike in both, are ``openreview_notes.py``'s. Each note
is mapped to a record by the JSON lists reader (``storage.sources.json_lists``), as a saved
list of notes would be; the PDF link (``content.pdf``, a path on the site) is made a full URL.
Credentials are used only when the environment has them (``OPENREVIEW_TOKEN``, or
``OPENREVIEW_USERNAME`` and ``OPENREVIEW_PASSWORD``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from storage.fetch import openreview_v1
from storage.fetch.errors import AnswerError, FetchError, StatusError
from storage.fetch.names import known_names, known_spelling
from storage.fetch.openreview_notes import (
    Api,
    Query,
    api_error,
    first_notes,
    holds_notes,
    notes_of,
)
from storage.fetch.pages import LIVE_AGE
from storage.fetch.records import add_items, in_workshop, names_no_one, score_list, value_of
from storage.fetch.replies import ReplyNames, direct_replies, read_replies
from storage.fetch.request import OPENREVIEW_API, OPENREVIEW_API_V1, FetchRequest, base_url, host_of
from storage.fetch.web import Web
from storage.sources.decisions import (
    ACCEPTED,
    DECISION_PENDING,
    DESK_REJECTED,
    REJECTED,
    UNDER_REVIEW,
    WITHDRAWN,
)
from storage.sources.json_lists import note_year
from storage.sources.records import ReadResult, SourceRecord
from storage.sources.status_words import accepted_status, decision_status, status_word
from storage.sources.venues import find_venue, names_workshop

PAGE = 1000
#: Notes with their replies are some 30 times larger: smaller pages.
PAGE_WITH_REPLIES = 200
#: No venue has more; a server that keeps paging beyond is refused.
MAX_NOTES = 500_000


@dataclass(frozen=True, slots=True)
class Others:
    """Submissions ``--all`` asks for beside the accepted papers: the group's field that names
    their venue id, the suffix the venue's id takes without it in a conference and in a
    journal ("" for none; openreview-py's Venue and Journal), the venue status they get."""

    key: str
    conference: str
    journal: str
    status: str


#: In the order they are read: the decided first. A note is read once, in the first query that
#: brings it, and one can be in two: the decisions came out while the fetch paged through the
#: submissions, or the pages under review are today's cached ones (kept) while the page of the
#: rejected ones was empty this morning (not kept). Its decision is then what it gets, not a
#: stale "Under review". The list shows them in the order of ``SHOWN_ORDER``, and ``--max N``
#: keeps the first N of the list so shown (``_room``), not the first N read.
OTHER_SUBMISSIONS: tuple[Others, ...] = (
    Others("rejected_venue_id", "Rejected_Submission", "Rejected", REJECTED),
    Others("withdrawn_venue_id", "Withdrawn_Submission", "Withdrawn_Submission", WITHDRAWN),
    Others("desk_rejected_venue_id", "Desk_Rejected_Submission", "Desk_Rejected", DESK_REJECTED),
    Others("decision_pending_venue_id", "", "Decision_Pending", DECISION_PENDING),
    Others("under_review_venue_id", "", "Under_Review", UNDER_REVIEW),
    Others("submission_venue_id", "Submission", "", UNDER_REVIEW),
)
#: The order the list shows them in, after the accepted papers (``Query.shown``): those still
#: under review first, then those decided against.
SHOWN_ORDER: tuple[str, ...] = (
    "submission_venue_id",
    "under_review_venue_id",
    "decision_pending_venue_id",
    "rejected_venue_id",
    "withdrawn_venue_id",
    "desk_rejected_venue_id",
)
#: The venue statuses of submissions not decided yet: a venue with some is still deciding.
UNDECIDED = frozenset({UNDER_REVIEW, DECISION_PENDING})
#: What only a journal's group names (openreview-py's Journal writes them, no conference does).
_JOURNAL_KEYS = ("under_review_venue_id", "decision_pending_venue_id")


def fetch_openreview(venue_id: str, request: FetchRequest, web: Web) -> ReadResult:
    """The venue's papers (see the module) as a reader's result."""
    v2, v1 = Api(2, base_url(OPENREVIEW_API)), Api(1, base_url(OPENREVIEW_API_V1))
    _log_in(web, v2, v1)
    api, group = _find_venue(venue_id, v2, v1, request, web)
    result = ReadResult(source=f"openreview:{venue_id}", list_name=_list_name(venue_id))
    queries = _v2_queries(venue_id, group, request) if api.version == 2 else None
    seen: set[str] = set()
    unsaid = 0  # accepted papers of v2 whose notes name no venue (``ACCEPTED_UNSAID``)
    forbidden: list[tuple[Query, StatusError]] = []  # --all's parts OpenReview refused
    if queries is not None:
        queries = list(queries)
        max_age = LIVE_AGE if _deciding(api, queries, request, web) else None
        parts: list[tuple[int, list[SourceRecord]]] = []
        for query in queries:
            ahead = sum(len(records) for shown, records in parts if shown <= query.shown)
            room = _room(request, ahead)
            if room == 0:
                continue  # its papers would all come after the first --max N of the list
            start = len(result.records)
            read = _read_part(api, query, request, web, result, seen, room, max_age, forbidden)
            unsaid += read or 0
            if read is not None:
                parts.append((query.shown, result.records[start:]))
        _accepted_missing(venue_id, queries, parts, result)
        parts.sort(key=lambda part: part[0])  # (stable: the order read within a place)
        result.records[:] = [record for _, records in parts for record in records]
        if request.max_papers is not None:
            del result.records[request.max_papers :]
    else:
        for query in openreview_v1.queries(venue_id, request, api, web):
            if (room := _room(request, len(result.records))) == 0:
                break  # (v1 reads in the list's order)
            _read_part(api, query, request, web, result, seen, room, None, forbidden)
    # every accepted paper (and with --all every submission), when nothing was left out
    # (--max, a note not read, pages ending before their count): one stored before and not
    # here (as accepted, or with --all at all) has left them
    result.every_accepted = not (request.max_papers is not None or result.errors or result.warnings)
    result.every_submission = request.all_submissions and not forbidden
    if forbidden:
        result.refused = _parts_named(forbidden)
        result.warnings.append(_forbidden_line(venue_id, forbidden))
    if unsaid:
        result.warnings.append(
            f"{unsaid:,} accepted paper(s) of {venue_id} name no venue"
            + (" and state no decision" if request.reviews else "")
            + f": shown as {ACCEPTED_UNSAID}"
            + ("" if request.reviews else "; --reviews reads their decisions (oral, poster)")
        )
    if names_workshop(venue_id):  # (its notes' venue: "ME-FoMo 2024 Poster", no conference)
        in_workshop(result, _list_name(venue_id).removesuffix(" (OpenReview)"))
    if not result.records and not result.errors:
        what = "public submissions" if request.all_submissions else "accepted papers"
        hint = "" if request.all_submissions else " (decisions may not be out: try --all)"
        raise FetchError(f"OpenReview has no {what} of {venue_id} yet{hint}")
    return result


def _read_part(
    api: Api,
    query: Query,
    request: FetchRequest,
    web: Web,
    result: ReadResult,
    seen: set[str],
    room: int | None,
    max_age: float | None,
    forbidden: list[tuple[Query, StatusError]],
) -> int | None:
    """``_read_query``; None for a query ``--all`` adds (the rejected, withdrawn… papers)
    that OpenReview refuses (HTTP 403: a venue may show them to some accounts only), which
    is added to ``forbidden`` and brings nothing (its pages read before the refusal neither):
    the rest of the fetch is kept and a line says what was not read (``_forbidden_line``). A
    refusal of the accepted papers (or of v1's submissions) fails the fetch, as before.

    A part refused leaves no trace: its notes are not ``seen`` either (a note its first page
    brought, whose venue id moved to a query read later, is that query's), nor its warnings."""
    records, errors, warnings = len(result.records), len(result.errors), len(result.warnings)
    seen_before = set(seen)
    try:
        return _read_query(api, query, request, web, result, seen, room, max_age)
    except StatusError as exc:
        if exc.status != 403 or query.status is None:
            raise
        del result.records[records:], result.errors[errors:], result.warnings[warnings:]
        seen.intersection_update(seen_before)
        forbidden.append((query, exc))
        return None


def _parts_named(forbidden: Sequence[tuple[Query, StatusError]]) -> str:
    """The parts of ``--all`` refused, named: ``withdrawn and desk rejected``."""
    whats = list(dict.fromkeys(query.what for query, _ in forbidden))
    return " and ".join([", ".join(whats[:-1]), whats[-1]] if len(whats) > 1 else whats)


def _forbidden_line(venue_id: str, forbidden: Sequence[tuple[Query, StatusError]]) -> str:
    """The warning for the parts of ``--all`` OpenReview refused: which, what it answered,
    and that the user may not have access (anonymously: an account may)."""
    named = _parts_named(forbidden)
    keys = ("OPENREVIEW_TOKEN", "OPENREVIEW_USERNAME")
    if any(os.environ.get(key, "").strip() for key in keys):
        access = "your account may not have access to them"
    else:
        access = (
            "you may not have access to them anonymously (set OPENREVIEW_USERNAME and "
            "OPENREVIEW_PASSWORD to use an account)"
        )
    return (
        f"OpenReview refused the {named} submissions of {venue_id} ({forbidden[0][1]}): "
        f"{access}; the others are imported"
    )


def _accepted_missing(
    venue_id: str,
    queries: Sequence[Query],
    parts: Sequence[tuple[int, Sequence[SourceRecord]]],
    result: ReadResult,
) -> None:
    """Warn when ``--all`` read no accepted paper while rejected ones came (the decisions are
    out, so a venue that accepted papers lists them): OpenReview's page of accepted papers
    came back empty, a broken answer. The rest is kept (an empty page is not cached, so the
    next fetch asks again); the papers stored as accepted are left as they are."""
    shown = [query.shown for query in queries]
    if len(parts) < 2 or 0 not in shown or any(records for at, records in parts if at == 0):
        return
    rejected = sum(
        1 for at, records in parts if at != 0 for r in records if r.venue_status == REJECTED
    )
    if rejected:
        result.warnings.append(
            f"OpenReview gave no accepted papers of {venue_id}, though {rejected:,} of its "
            "submissions are rejected (its decisions are out): its page of accepted papers "
            "may have failed; the others are imported, fetch again later for the accepted ones"
        )


def _list_name(venue_id: str) -> str:
    """The list a venue's papers go in: ``ICLR 2025 (OpenReview)``. A workshop or a track says
    which (``ICLR.cc/2024/Workshop/ME-FoMo`` → ``ICLR 2024 Workshop ME-FoMo (OpenReview)``):
    in the main conference's list, ``papers remove --list`` would take both. A venue not known
    by name is its id."""
    found = find_venue(venue_id)
    if found.venue is None:
        return venue_id
    parts = venue_id.split("/")
    year = str(found.year)
    after = parts[parts.index(year) + 1 :] if year in parts else parts[1:]
    words = (" ".join(p.replace("_", " ").split()) for p in after if p.casefold() != "conference")
    return " ".join([found.text, *(w for w in words if w)]) + " (OpenReview)"


def _log_in(web: Web, api: Api, *others: Api) -> None:
    """Credentials from the environment, only when the user set them: logged in at ``api``,
    the token sent to it and ``others`` (OpenReview's other API), to no other host."""
    token = os.environ.get("OPENREVIEW_TOKEN", "").strip()
    user = os.environ.get("OPENREVIEW_USERNAME", "").strip()
    password = os.environ.get("OPENREVIEW_PASSWORD", "")
    if not token and user and password:
        answer = web.post_json(f"{api.base}/login", {"id": user, "password": password})
        token = answer.get("token", "") if isinstance(answer, Mapping) else ""
        if not isinstance(token, str) or not token:
            raise FetchError(f"{host_of(api.base)}: the login gave no token")
    if token:
        for where in (api, *others):
            web.authorize(where.base, f"Bearer {token.removeprefix('Bearer ')}")


def _find_venue(
    venue_id: str, v2: Api, v1: Api, request: FetchRequest, web: Web
) -> tuple[Api, Mapping[str, Any]]:
    """The API that serves the venue, and its group; FetchError when neither knows it.

    The group is asked of v2 first, whatever the venue's year: both APIs answer for the
    groups (one store behind them), so v1 also finds the group of a venue whose papers are on
    v2 only (NeurIPS 2023, ICML 2023). A group of v2 with a ``domain`` is a venue of v2 (what
    openreview-py documents); one without is a venue of v1, when v1 knows it."""
    group = _group(v2, venue_id, web)
    if group is not None and group.get("domain"):
        return v2, group
    if _group(v1, venue_id, web) is not None:
        return v1, {}
    if group is not None:
        return v2, group
    meant = known_spelling(venue_id)
    hint = f" (ids are case-sensitive: did you mean {meant}?)" if meant else ""
    raise FetchError(
        f"no venue {venue_id} on OpenReview{hint}; known short names: {known_names(request.names)}"
    )


def _group(api: Api, venue_id: str, web: Web) -> Mapping[str, Any] | None:
    """The venue's group as ``api`` gives it, None when it has none; ``AnswerError`` for an
    answer of another shape (no list of groups, or an entry that is no group), which is not
    kept in the cache: taken for "no such group", it made the fetch ask the other API, and
    say the venue had no papers."""
    try:
        data = web.get_json(f"{api.base}/groups", {"id": venue_id}, keep=_lists_groups)
    except StatusError as exc:
        if exc.status in (400, 404):
            return None
        if exc.status == 403:
            raise FetchError(
                f"{exc} — OpenReview does not show {venue_id} to anonymous users "
                "(set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD to use an account)"
            ) from None
        raise
    groups = data.get("groups") if isinstance(data, Mapping) else None
    if not isinstance(groups, list):
        raise AnswerError(host_of(api.base), f"no list of groups{api_error(data)}", "/groups")
    if not _lists_groups(data):
        raise AnswerError(
            host_of(api.base), "an entry of its list of groups is no group (an id)", "/groups"
        )
    return next((group for group in groups if group.get("id") == venue_id), None)


def _lists_groups(data: Any) -> bool:
    """Whether an answer to /groups is a list of groups, each an object with its id."""
    groups = data.get("groups") if isinstance(data, Mapping) else None
    return isinstance(groups, list) and all(
        isinstance(group, Mapping) and isinstance(group.get("id"), str) for group in groups
    )


def _group_value(group: Mapping[str, Any], key: str) -> str:
    content = group.get("content")
    value = content.get(key) if isinstance(content, Mapping) else None
    if isinstance(value, Mapping):
        value = value.get("value")
    return value if isinstance(value, str) and value.strip() else ""


def _reply_names(group: Mapping[str, Any]) -> ReplyNames:
    """The names the venue's group gives its replies and its reviews' score and confidence
    fields, beside the usual ones: a venue whose reviews are ``…/-/Review``, or whose score is
    ``review_rating``, would otherwise give no ratings."""
    return ReplyNames().with_own(
        *(_group_value(group, key) for key in ("review_name", "decision_name", "meta_review_name")),
        *(_group_value(group, key) for key in ("review_rating", "review_confidence")),
    )


def _v2_queries(venue_id: str, group: Mapping[str, Any], request: FetchRequest) -> list[Query]:
    names, venue = _reply_names(group), _venue_name(venue_id, group)
    accepted = {"content.venueid": venue_id}
    queries = [Query(accepted, "accepted papers", names=names, venue=venue)]
    if request.all_submissions:
        asked = {venue_id}
        for others, other in _other_venue_ids(venue_id, group):
            if other not in asked:
                asked.add(other)
                status = others.status
                shown = 1 + SHOWN_ORDER.index(others.key)
                params = {"content.venueid": other}
                query = Query(params, status.lower(), status, names=names, shown=shown, venue=venue)
                queries.append(query)
    return queries


def _venue_name(venue_id: str, group: Mapping[str, Any]) -> str:
    """The venue's name for an accepted paper whose note names none (the reader would show
    its ``venueid``): the short name its group gives (``subtitle``: openreview-py's venue
    writes its short name there, ``LoG 2024``, and starts each note's venue with it), else
    the name papers-tui knows it by, else the group's title; "" for none."""
    known = find_venue(venue_id).venue is not None
    return (
        _group_value(group, "subtitle")
        or (_list_name(venue_id).removesuffix(" (OpenReview)") if known else "")
        or _group_value(group, "title")
    )


def _other_venue_ids(venue_id: str, group: Mapping[str, Any]) -> Iterator[tuple[Others, str]]:
    """The venue ids of the submissions not accepted: as the group names them, else as a
    conference's (``…/Rejected_Submission``) or a journal's (``TMLR/Rejected``) are made. A
    journal is a group naming what only journals have (``_JOURNAL_KEYS``), or a venue known
    as one."""
    found = find_venue(venue_id).venue
    journal = any(_group_value(group, key) for key in _JOURNAL_KEYS) or (
        found is not None and found.journal
    )
    for others in OTHER_SUBMISSIONS:
        suffix = others.journal if journal else others.conference
        other = _group_value(group, others.key) or (f"{venue_id}/{suffix}" if suffix else "")
        if other:
            yield others, other


def _deciding(api: Api, queries: Sequence[Query], request: FetchRequest, web: Web) -> bool:
    """Whether the venue was still deciding at the fetch whose pages the cache holds: the
    first page of its submissions under review or awaiting a decision is kept (only a page
    with notes is). Its pages then change within the day (decisions, reviews, venue ids
    moving from one query to another), and are believed for ``LIVE_AGE`` only, all of them
    (a paper accepted since this morning is on no page of it cached then); a decided venue's
    keep the day. Told by the cache alone: no request more."""
    return any(
        web.cached(f"{api.base}/notes", _page_params(api, query, request))
        for query in queries
        if query.status in UNDECIDED
    )


def _page_params(api: Api, query: Query, request: FetchRequest) -> dict[str, str]:
    """The parameters of a query's first page (the next ones add where they start)."""
    replies = request.reviews or api.version == 1
    params: dict[str, str] = {
        **query.params,
        "limit": str(PAGE_WITH_REPLIES if replies else PAGE),
    }
    if replies:
        params["details"] = "directReplies"
    if api.version == 2:
        params["sort"] = "id"
    return params


def _room(request: FetchRequest, ahead: int) -> int | None:
    """How many papers a query may still bring to the first ``--max N`` of the list, with
    ``ahead`` papers read that the list shows before its own; None without ``--max``."""
    return None if request.max_papers is None else max(0, request.max_papers - ahead)


def _read_query(
    api: Api,
    query: Query,
    request: FetchRequest,
    web: Web,
    result: ReadResult,
    seen: set[str],
    room: int | None = None,
    max_age: float | None = None,
) -> int:
    """Every page of one query into ``result`` (notes already seen are skipped), or its first
    ``room`` papers (``_room``); returns how many of its papers are accepted without a venue
    said (``ACCEPTED_UNSAID``). A page is read from the cache if kept within ``max_age``
    seconds (None: the cache's day)."""
    start = len(result.records)
    replies = request.reviews or api.version == 1
    limit = PAGE_WITH_REPLIES if replies else PAGE
    url = f"{api.base}/notes"
    host = host_of(url)
    after = ""
    offset = 0
    #: v1 pages by offset; v2 after the last id, and by offset too when the server sends the
    #: first page again for ``after`` (both are documented for /notes).
    by_offset = api.version == 1
    total: int | None = None
    got = unsaid = 0
    what = f"{result.list_name}: {query.what}"
    mine: set[str] = set()  # this query's notes: a page of them again is a page repeated
    while True:
        params = _page_params(api, query, request)
        if by_offset:
            params["offset"] = str(offset)
        elif after:
            params["after"] = after
        data = web.get_json(url, params, keep=_worth_keeping(api, query), max_age=max_age)
        notes, count = first_notes(data, host, query.what) if not got else notes_of(data, host)
        if total is None:
            total = count
        repeated, unsaid_here = _add_page(notes, api, query, result, seen, mine)
        unsaid += unsaid_here
        if after and not by_offset and notes and repeated == len(notes):
            by_offset = True  # ``after`` ignored: the same notes again; asked by offset
            continue
        got += len(notes)
        request.tell(what, got, total)
        if _enough(result, start, room):
            return unsaid
        if _last_page(notes, limit, got, total):
            if total is not None and got < total:
                result.warnings.append(
                    f"{what}: OpenReview counts {total:,} notes but its pages ended after "
                    f"{got:,}: fetch again later for the rest"
                )
            return unsaid
        last = notes[-1].get("id") if isinstance(notes[-1], Mapping) else None
        if repeated == len(notes) or (api.version == 2 and not isinstance(last, str)):
            raise FetchError(f"{host}: the pages of notes do not move on (the same page again)")
        if got > MAX_NOTES:
            raise FetchError(f"{host}: more than {MAX_NOTES:,} notes; refused")
        after, offset = (last if isinstance(last, str) else ""), offset + len(notes)


def _add_page(
    notes: Sequence[Any],
    api: Api,
    query: Query,
    result: ReadResult,
    seen: set[str],
    mine: set[str],
) -> tuple[int, int]:
    """One page's notes into ``result``, but those an earlier query read (``seen``: a note
    whose venue id moved while the fetch paged, see ``OTHER_SUBMISSIONS``); returns how many
    of them this query had already brought (``mine``; all of them: the server sent the same
    page again), and how many are ``ACCEPTED_UNSAID``."""
    items, statuses = [], []
    repeated = unsaid = 0
    for note in notes:
        key = note.get("id") if isinstance(note, Mapping) else None
        if isinstance(key, str):
            if key in mine:
                repeated += 1
                continue
            mine.add(key)
            if key in seen:
                continue
            seen.add(key)
        shaped = _shaped(note, api, query)
        if shaped is None:
            continue  # v1: not accepted
        items.append(shaped[0])
        statuses.append(shaped[1])
        # (v1's accepted notes, and v2's naming their venue alone, "COLM", are Accepted too)
        unsaid += (
            api.version == 2
            and shaped[1] == ACCEPTED_UNSAID
            and not _says_venue(note["content"])
            and "decision" not in shaped[0]  # (one read says Accepted too)
        )
    add_items(result, items, len(result.records) + len(result.errors) + 1, statuses)
    return repeated, unsaid


def _last_page(notes: Sequence[Any], limit: int, got: int, total: int | None) -> bool:
    """Whether a query has no page after this one: an empty page, or all the notes ``count``
    said; without a count, a page shorter than asked. A short page while the count says more
    is no end: a server may cut a page short, and openreview-py's own paging goes on until
    the count too."""
    if not notes:
        return True
    if total is not None:
        return got >= total
    return len(notes) < limit


def _enough(result: ReadResult, start: int, room: int | None) -> bool:
    """Whether the query whose papers begin at ``start`` brought its ``room``; those past it
    are dropped (they come after the first ``--max N`` of the list)."""
    if room is None or len(result.records) - start < room:
        return False
    del result.records[start + room :]
    return True


def _worth_keeping(api: Api, query: Query) -> Callable[[Any], bool]:
    """Whether a page of the query's is worth keeping in the cache: ``holds_notes``; a venue of
    v1 asks more (``openreview_v1.keeps``)."""
    return holds_notes if api.version == 2 else openreview_v1.keeps(query)


def _shaped(note: Any, api: Api, query: Query) -> tuple[Any, str | None] | None:
    """A note as the JSON lists reader reads it, and the venue status the fetch knows for it;
    None for a v1 note the query does not keep."""
    if not isinstance(note, Mapping):
        return note, None  # counted as a record error
    content = note.get("content")
    if not isinstance(content, Mapping):
        return {"id": note.get("id")}, None  # no abstract, no title: a record error
    said = read_replies(direct_replies(note), query.names)
    decision = said.decision
    item: dict[str, Any] = {
        "id": note.get("id"),
        "forum": note.get("forum") or note.get("id"),
        "content": {**_without_hidden_authors(content), "pdf": _pdf(value_of(content, "pdf"), api)},
    }
    if _takes_venue_name(content, query):
        item["content"]["venue"] = query.venue
    if (year := note_year(note, query.params.values())) is not None:
        item["year"] = year
    if said.ratings:
        item["ratings"] = score_list(said.ratings)
    if said.confidences:
        item["confidence"] = score_list(said.confidences)
    status = query.status
    if api.version == 1 and status is None:
        fate = openreview_v1.fate(content, decision, query)
        if fate is None:
            return None  # not accepted, and the query keeps the accepted only
        status, kept = fate
        if kept:
            item["decision"] = kept
    elif decision and (status in _UNDECIDED or (status is None and not _says_venue(content))):
        # the decision reply says what the note does not (yet): no venue, or still under review;
        # in the words a venue's note or v1 gives it ("Accept" is Accepted, "Accept-Findings"
        # Findings), else (words of no decision known) accepted among the accepted papers, or
        # as written
        item["decision"] = decision
        status = decision_status(decision) or (ACCEPTED if status is None else None)
    elif status is None and not _says_venue(content):
        # an accepted paper (the query's venue id) whose note says no venue, and whose
        # decision reply, if any, was not read (without --reviews): accepted, at least
        status = ACCEPTED_UNSAID
    elif status is None and not status_word(value_of(content, "venue")):
        status = accepted_status(decision)  # the venue alone (COLM's "COLM"): accepted
    return item, status


#: The status of an accepted paper of v2 that names no venue and no decision was read for:
#: its presentation (oral, poster) is in its decision reply, which ``--reviews`` reads.
ACCEPTED_UNSAID = ACCEPTED


#: The statuses ``--all`` gives a submission whose decision its venue id does not say yet; a
#: decision posted as a reply (before the venue id moves) says more.
_UNDECIDED = frozenset({UNDER_REVIEW, DECISION_PENDING})


def _says_venue(content: Mapping[str, Any]) -> bool:
    """Whether a note of v2 names its venue (``ICLR 2025 Oral``): a note with none, an empty
    one or one still "Submitted to …" takes its presentation from its decision reply."""
    venue = value_of(content, "venue")
    if not isinstance(venue, str) or not venue.strip():
        return False
    return not venue.strip().casefold().startswith("submitted to")


def _takes_venue_name(content: Mapping[str, Any], query: Query) -> bool:
    """Whether a note of v2 is shown at the venue's name (``Query.venue``), not at its
    ``venueid`` (an id, which the reader falls back to): an accepted paper's note that does
    not name its venue (``_says_venue``); a note of ``--all``'s other parts (rejected,
    withdrawn…) that says nothing (its "Submitted to …" is what such a paper was)."""
    if not query.venue:
        return False
    if query.status is None:
        return not _says_venue(content)
    venue = value_of(content, "venue")
    return not isinstance(venue, str) or not venue.strip()


def _without_hidden_authors(content: Mapping[str, Any]) -> Mapping[str, Any]:
    """The note's content without its authors when it hides them: "Anonymous" is no author,
    and stored as one it would be cited, searched and merged as a person."""
    authors = value_of(content, "authors")
    if not isinstance(authors, list) or not names_no_one(authors):
        return content
    return {k: v for k, v in content.items() if k not in ("authors", "authorids")}


def _pdf(value: Any, api: Api) -> str | None:
    """The PDF's full URL: a note names a path on the site (``/pdf/….pdf``)."""
    if not isinstance(value, str) or not value.strip() or len(value) > 500:
        return None
    value = value.strip()
    if value.startswith("/") and not value.startswith("//"):
        return api.site + value
    try:
        scheme = urlsplit(value).scheme
    except ValueError:  # an IPv6 host left open (``http://[bad``): no address
        return None
    return value if scheme in ("http", "https") else None
