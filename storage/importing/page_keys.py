"""The page a paper's link names at a service that gives each paper one page for good: its
OpenReview forum (``…/forum?id=X``) or its arXiv abstract (``…/abs/2501.01234v2``, any
version). A venue fetched again after the camera-ready gives the same forum a revised title
or abstract: the page says it is the paper the library has, which its abstract's id and its
title no longer say (``storage.importing.resolve``).

A paper's DOI names it for good too, however a tool writes it (``10.1109/CVPR.2016.90``,
``https://doi.org/10.1109/cvpr.2016.90``, ``doi:…``: DOIs are case-insensitive), and two tools
give one paper different abstracts (the publisher's, arXiv's): ``doi_key``."""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import parse_qs, urlsplit

#: An OpenReview note id as its forum links write it.
_NOTE_ID: Final = re.compile(r"[A-Za-z0-9_-]{6,64}")


def page_key(url: str) -> str:
    """``openreview:ID`` or ``arxiv:ID`` (``arxiv_key``: without its version, nor an old-style
    id's subject class) for a paper's own page at OpenReview or arXiv; "" for any other link
    (or none)."""
    folded = url.casefold()
    if "openreview" not in folded and "arxiv" not in folded:
        return ""  # (most links: asked of every paper of a library, once)
    from storage.sources.citation import arxiv_id_of_url, arxiv_key

    found = arxiv_id_of_url(url)
    if found:  # (``…/abs/math.GT/0309136`` is ``math/0309136``'s page)
        return "arxiv:" + arxiv_key(found)
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return ""
    host = (parts.hostname or "").casefold()
    if parts.scheme not in ("http", "https") or not parts.path.rstrip("/").endswith("/forum"):
        return ""
    if host != "openreview.net" and not host.endswith(".openreview.net"):
        return ""
    ids = parse_qs(parts.query).get("id") or [""]
    return f"openreview:{ids[0]}" if _NOTE_ID.fullmatch(ids[0]) else ""


def doi_key(doi: str, url: str = "") -> str:
    """``doi:10.1109/cvpr.2016.90`` for a paper's DOI (its ``doi`` fact, else its link when
    that is a DOI's address), case-folded; "" for none."""
    from storage.sources.citation import doi_of

    found = doi_of(doi) or doi_of(url)
    return "doi:" + found.casefold() if found else ""
