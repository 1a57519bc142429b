"""arXiv: the papers of a query or a list of ids, from the arXiv API's Atom feed
(``PAPERS_ARXIV_API``, the ``query`` endpoint).

``arxiv:cat:cs.LG``, ``arxiv:"ti:diffusion AND cat:cs.CV"`` (a ``search_query``, newest
first), ``arxiv:2501.01234 2406.00001`` (an ``id_list``). Pages of 100 entries by ``start``
and ``max_results``, one request every 3 seconds as the API's terms ask (pages read from the
cache are not spaced), until ``--max`` papers (1,000 for a query unless told) or the feed's
``totalResults`` (the largest a page said: the empty page may say 0). A list of ids is asked
100 ids a request, each its own ``id_list`` (``_fetch_ids``): arXiv counts the ids asked in
``totalResults``, those it has not too, and pages by the ids asked, so a list holding an id
it does not have is no page cut short but an id to name (a warning; none found: an error). A
page that comes back empty before the end, the first one too, is asked again
(``EMPTY_RETRIES``), as arXiv sometimes answers so, and so is a blank answer (no byte of a
feed); still empty, the papers read are kept and a warning says how many of how many came
(none at all: an error saying arXiv counted papers it did not send, or that its answer was
not understood, blank). An empty page is never kept in the cache, so the next fetch asks again
rather than reading the glitch back for a day. arXiv's throttling answer, the text "Rate
exceeded." (with a 503, now and then with a 200), is waited for (its ``Retry-After``, else a
growing pause) and the page asked again, as a 429 is (``Web``); still throttled, one line says
so, and the pages read before it stay in the cache for the next fetch to go on from. Each page
is read by the arXiv Atom reader (``storage.sources.arxiv_atom``), which also reads a feed
saved to a file; an answer that is no page of the API's (HTML, text, a feed cut short or
without its count of results) is not understood, said so in one line (``_parse``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from storage.errors import SourceError
from storage.fetch.errors import AnswerError, FetchError, ThrottledError
from storage.fetch.names import arxiv_ids
from storage.fetch.request import ARXIV_API, FetchRequest, base_url, host_of
from storage.fetch.web import Web, decode_text
from storage.models import RecordError
from storage.sources.arxiv_atom import ArxivError, Feed, parse_feed
from storage.sources.citation import arxiv_key
from storage.sources.records import ReadResult
from storage.text.words import count

PAGE = 100
#: Seconds between two requests (arXiv's terms of use: no more than one every three seconds).
SPACING = 3.0
#: Papers a query brings unless ``--max`` says otherwise.
DEFAULT_MAX = 1000
#: The most the API serves for one query.
API_MAX = 30_000
#: Times an empty page before the end is asked again (arXiv answers so now and then).
EMPTY_RETRIES = 2


class _Spacing:
    """When the last request to the API was sent, for every arXiv fetch of the process."""

    last = -SPACING


def fetch_arxiv(argument: str, request: FetchRequest, web: Web) -> ReadResult:
    """The papers ``argument`` asks for (see the module), as a reader's result."""
    url = base_url(ARXIV_API)
    if ids := arxiv_ids(argument):
        return _fetch_ids(ids, argument, request, web)
    params = {"search_query": argument, "sortBy": "submittedDate", "sortOrder": "descending"}
    wanted = min(request.max_papers or DEFAULT_MAX, API_MAX)
    name = f"arXiv: {argument[:80]}"
    result = ReadResult(source=f"arxiv:{argument[:200]}", list_name=name)
    start = 0
    retries = 0
    #: The most papers a page of this fetch said there are: an empty page that says 0 (the
    #: glitch says so too) does not end a query an earlier page counted more for.
    counted = 0
    while start < wanted:
        page = {**params, "start": str(start), "max_results": str(min(PAGE, wanted - start))}
        feed = _ask(web, url, page, fresh=retries > 0, kept=start)
        blank = feed is None  # arXiv's blank answer: an empty page that counts nothing
        if feed is None:
            feed = _nothing()
        counted = max(counted, feed.total or 0)
        total = counted or start + feed.entries
        if feed.entries == 0 and (total > start or blank):
            if retries < EMPTY_RETRIES:
                retries += 1  # arXiv's empty page (or blank answer) before the end: asked again
                continue
            how = f"{'a blank answer' if blank else 'an empty page'}, {EMPTY_RETRIES + 1} times"
            if start == 0 and blank:
                said = f"arXiv sent nothing for {argument[:80]!r} ({how}): fetch again later"
                raise AnswerError(host_of(url), said)
            if start == 0:
                raise FetchError(
                    f"arXiv counts {count(total, 'paper')} for {argument[:80]!r} but sent none "
                    f"({how}): fetch again later"
                )
            result.warnings.append(
                f"arXiv sent no papers past the first {start:,} of {min(total, wanted):,} "
                f"({how}): fetch again later for the rest"
            )
            break
        retries = 0
        result.records += feed.result.records[: wanted - len(result.records)]
        result.errors += [
            RecordError(result.source, start + e.record, e.reason) for e in feed.result.errors
        ]
        start += feed.entries
        request.tell(name, len(result.records), min(total, wanted))
        if feed.entries == 0 or start >= total:
            break
    if not result.records and not result.errors:
        raise FetchError(f"arXiv has no papers for {argument[:80]!r}")
    return result


def _fetch_ids(ids: list[str], argument: str, request: FetchRequest, web: Web) -> ReadResult:
    """The papers of a list of arXiv ids (the first ``--max``), a request for each 100 of
    them: an id arXiv does not have comes back as no entry, though ``totalResults`` counts
    it (``id_list=1201.56789``: 1, and no entry), and a second page of the same ids is the
    first one's papers again (autobib/autobib#183, lukasschwab/arxiv.py#82). A request that
    brings none of its ids is asked again (``EMPTY_RETRIES``), as an empty page is; the ids
    that did not come are named, in a warning, or in the error when none came. An id is the
    paper arXiv names so (``arxiv_key``): an old-style one's subject class is none of it
    (``math.GT/0309136`` comes as ``math/0309136``), and each paper is asked once."""
    url = base_url(ARXIV_API)
    once: dict[str, str] = {}  # ``math.GT/0309136`` and ``math/0309136v2`` are one paper
    for arxiv_id in ids:
        once.setdefault(arxiv_key(arxiv_id), arxiv_id)
    ids = list(once.values())
    asked = ids[: request.max_papers or len(ids)]
    name = f"arXiv: {', '.join(ids[:3])}{' …' if len(ids) > 3 else ''}"
    result = ReadResult(source=f"arxiv:{argument[:200]}", list_name=name)
    missing: list[str] = []
    for first in range(0, len(asked), PAGE):
        these = asked[first : first + PAGE]
        params = {"id_list": ",".join(these), "start": "0", "max_results": str(len(these))}
        for retry in range(EMPTY_RETRIES + 1):
            feed = _ask(web, url, params, fresh=retry > 0, kept=len(result.records))
            if feed is not None and feed.entries:
                break
        if feed is None:  # a blank answer, still: what it stands for is not known
            how = f"a blank answer, {EMPTY_RETRIES + 1} times"
            if first == 0:
                said = f"arXiv sent nothing for {argument[:80]!r} ({how}): fetch again later"
                raise AnswerError(host_of(url), said)
            result.warnings.append(
                f"arXiv sent nothing past the first {first:,} of {len(asked):,} ids ({how}): "
                "fetch again later for the rest"
            )
            break
        result.records += feed.result.records
        result.errors += [
            RecordError(result.source, first + e.record, e.reason) for e in feed.result.errors
        ]
        came = {arxiv_key(arxiv_id) for arxiv_id in feed.ids}
        missing += [i for i in these if arxiv_key(i) not in came]
        request.tell(name, len(result.records), len(asked))
    if missing and not result.records and not result.errors:
        raise FetchError(f"arXiv has {_none_of(missing)}")
    if missing:
        result.warnings.append(f"arXiv has {_none_of(missing)} (the others are imported)")
    return result


def _none_of(missing: list[str]) -> str:
    """The ids arXiv does not have, in words: ``no paper 1201.56789``."""
    shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5:,} more" if len(missing) > 5 else "")
    return f"no paper {shown}" if len(missing) == 1 else f"no papers {shown}"


def _holds_entries(feed: Feed | None) -> bool:
    """Whether a page is worth keeping: an empty one is arXiv's glitch (its total says there
    are papers) or a query with none yet, and the next fetch should ask again either way; a
    blank answer is no page at all."""
    return feed is not None and feed.entries > 0


def _nothing() -> Feed:
    """A blank answer as the page it stands for: no entries, no count."""
    return Feed(ReadResult(source="", list_name=""), total=None, start=0, per_page=0, entries=0)


#: What arXiv answers when it throttles (plain text, with a 503 and now and then a 200).
_RATE_EXCEEDED = "rate exceeded"


def _throttled(body: bytes) -> str:
    """arXiv's throttling answer in words, or "" for any other answer."""
    said = " ".join(body[:200].decode("utf-8", "replace").split())
    if said.casefold().rstrip(".!") != _RATE_EXCEEDED:
        return ""
    return f"arXiv is throttling requests (it answers {said!r})"


def _ask(web: Web, url: str, params: dict[str, str], *, fresh: bool, kept: int) -> Feed | None:
    """One answer of arXiv's, read (None: blank), spaced as its terms ask and asked afresh
    when ``fresh``; its throttling that outlasts the waits said with the ``kept`` papers."""
    try:
        return web.get_parsed(
            url, params, _parse, fresh=fresh, before=_spaced(web), keep=_holds_entries,
            throttled=_throttled,
        )  # fmt: skip
    except ThrottledError as exc:
        raise FetchError(f"{exc}{_kept(kept)}") from None


def _kept(start: int) -> str:
    """What a fetch stopped by throttling keeps: the pages read are in the cache, and the next
    fetch the same day goes on from there."""
    if not start:
        return ""
    return f" (the first {start:,} papers' pages are kept: the next fetch goes on from there)"


def _parse(body: bytes, host: str, content_type: str) -> Feed | None:
    """A page of the feed; None for a blank answer (nothing but white space), which arXiv
    sends now and then (ropensci/aRxiv#66, 2025: "arxiv api often returning blank results",
    ``XML content does not seem to be XML: ''``): asked again, as its empty page is. An
    answer that is no feed of the API's (HTML, text, XML cut short, a feed without its count
    of results, which every page of the API's has) is ``AnswerError``: a feed without count
    or entry was taken for a query without papers."""
    text = decode_text(body, host)
    if not text.strip():
        return None
    head = text[:512].lstrip().casefold()
    if head.startswith(("<!doctype html", "<html")) or "html" in content_type.casefold():
        raise AnswerError(host, "an HTML page came where an Atom feed was expected")
    if not head.startswith("<"):
        said = " ".join(text.split())[:100]
        raise AnswerError(host, f"no Atom feed but {said!r}")
    try:
        feed = parse_feed(text, host, "")
    except ArxivError as exc:  # understood: arXiv says what it did not like
        raise FetchError(str(exc)) from None
    except SourceError as exc:
        raise AnswerError(host, str(exc).removeprefix(f"{host}: ")) from None
    if feed.total is None and not feed.entries:
        raise AnswerError(host, "an Atom feed with no entry and no count of results")
    return feed


def _spaced(web: Web) -> Callable[[], None]:
    """Wait until the API's spacing allows the next request."""

    def wait() -> None:
        left = _Spacing.last + SPACING - time.monotonic()
        if left > 0:
            web.pause(left)
        _Spacing.last = time.monotonic()

    return wait
