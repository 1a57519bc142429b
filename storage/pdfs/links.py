"""Where a paper's PDF is on the web.

In order: the ``pdf`` field a list gave (OpenReview's ``content.pdf``, often a path such as
``/pdf/1f2e….pdf``, read against the paper's page); an OpenReview forum page (``…/forum?id=X`` →
``…/pdf?id=X``); an arXiv page (``…/abs/2401.01234v2`` → ``…/pdf/2401.01234v2``); else arXiv's
PDF of the paper's arXiv id (an ``eprint``). The host is the page's own, so a library whose
pages point at a mirror (or, in tests, at 127.0.0.1) downloads from there too.
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit, urlunsplit

from storage.models import Paper
from storage.sources.links import web_url

#: An arXiv page: ``/abs/2401.01234v2`` or an old id, ``/abs/hep-th/9901001`` (on arXiv or a
#: mirror: the path is the sign).
_ARXIV_PAGE: Final = re.compile(
    r"^/(?:abs|html)/(?P<id>\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)/?$"
)


def pdf_url(paper: Paper) -> str:
    """The address of the paper's PDF ("" when none is known)."""
    given = paper.fact("pdf")
    if isinstance(given, str) and given.strip():
        given = given.strip().replace(" ", "%20")  # a file name with spaces, as lists write it
        try:
            joined = urljoin(paper.url, given) if paper.url else given
        except ValueError:  # a malformed IPv6 host ("//[bad"): no address (web_url's rule)
            joined = ""
        found = web_url(joined)
        if found:
            return found
    found = page_pdf_url(paper.url)
    if found:
        return found
    from storage.sources.citation import arxiv_id  # a preprint known by its arXiv id alone

    number = arxiv_id(paper)
    return f"https://arxiv.org/pdf/{number}" if number else ""


def page_pdf_url(page: str) -> str:
    """The PDF of a paper page this knows (OpenReview, arXiv), or "" for another page."""
    url = web_url(page)
    if not url:
        return ""
    parts = urlsplit(url)
    path = parts.path
    if path.rstrip("/").endswith("/forum") or path.rstrip("/").endswith("/pdf"):
        ids = parse_qs(parts.query).get("id")
        if ids and ids[0]:
            pdf_path = path.rstrip("/").rsplit("/", 1)[0] + "/pdf"
            return urlunsplit((parts.scheme, parts.netloc, pdf_path, urlencode({"id": ids[0]}), ""))
    match = _ARXIV_PAGE.match(path)
    if match:
        return urlunsplit((parts.scheme, parts.netloc, f"/pdf/{match['id']}", "", ""))
    if path.lower().endswith(".pdf"):
        return url
    return ""
