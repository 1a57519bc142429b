"""Links of a paper: GitHub repositories in its text or a catalog's code field; its web page.

Pure standard library and total: no function raises on any string, and every regular
expression is written so that it runs in linear time on hostile input.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

__all__ = ["extract_github_links", "github_from_code_field", "web_url"]

#: Longer than this, a paper's page address is not one (browsers stop near 2,000 characters).
MAX_URL_CHARS = 4096
# Printable ASCII that RFC 3986 never allows raw in a URL, yet browsers take: written as %XX,
# so that "}" cannot close a BibTeX field, nor ">" or "|" end a Markdown link or table cell.
_UNSAFE_IN_URL = {ch: f"%{ord(ch):02X}" for ch in '"<>\\^`{|}'}

# `github.com/OWNER/REPO`, with or without a scheme and `www.`, not preceded by a word
# character, a dot or a hyphen (so `gist.github.com` and `mygithub.com` never match).
# OWNER follows GitHub's login syntax, REPO its repository-name syntax; both are bounded and
# ASCII (only the host is case-insensitive: under re.IGNORECASE `[a-z]` would match "İ").
_GITHUB_RE = re.compile(
    r"(?<![\w.-])(?i:(?:https?://)?(?:www\.)?github\.com/|git@github\.com:)"
    r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})"
)
#: The host of ``_GITHUB_RE``'s links as it matches it (case ignored as there), to find the
#: next link in text that is not ASCII (``_github_matches``).
_GITHUB_HOST = re.compile(r"(?i:github\.com)")
# LaTeX / Markdown escapes that authors put inside URLs (`IDI\_release`), braced too, as
# Mendeley and the ACL Anthology write them (`bar{\_}baz`).
_URL_ESCAPE_RE = re.compile(r"\{\\([_#%&~$])\}|\\([_#%&~$])")
# First path segments of github.com that are site pages, not users or organisations.
_RESERVED_OWNERS = frozenset(
    {
        "about",
        "account",
        "apps",
        "codespaces",
        "collections",
        "contact",
        "customer-stories",
        "dashboard",
        "enterprise",
        "events",
        "explore",
        "features",
        "issues",
        "join",
        "login",
        "logout",
        "marketplace",
        "new",
        "notifications",
        "organizations",
        "orgs",
        "pricing",
        "pulls",
        "readme",
        "search",
        "security",
        "sessions",
        "settings",
        "signup",
        "site",
        "sponsors",
        "stars",
        "team",
        "topics",
        "trending",
        "users",
    }
)
# A bare `OWNER/REPO` (optionally `/tree/...` after it) in a code field.
_BARE_REPO_RE = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})(?:[/#?].*)?")
_CODE_ITEM_SPLIT_RE = re.compile(r"[\s,;|]+")
_CODE_ITEM_STRIP = "[](){}<>'\"`"
_PLACEHOLDERS = frozenset({"n/a", "na/na", "none/none", "tbd/tbd"})


def _repo_url(owner: str, repo: str) -> str | None:
    """Return the canonical URL of OWNER/REPO, or None when it is not a repository."""
    repo = repo.rstrip(".")
    if repo[-4:].lower() == ".git":
        repo = repo[:-4].rstrip(".")
    if not repo or owner.lower() in _RESERVED_OWNERS:
        return None
    return f"https://github.com/{owner}/{repo}"


def _flatten(values: Iterable[object]) -> Iterator[str]:
    """Yield the strings of `values`, descending into lists and tuples, skipping the rest."""
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            yield from _flatten(value)


def _add_link(url: str | None, found: list[str], seen: set[str]) -> None:
    """Append `url` to `found` unless it is None or already there (ignoring case)."""
    if url is not None and url.lower() not in seen:
        seen.add(url.lower())
        found.append(url)


def _unescaped(match: re.Match[str]) -> str:
    return match.group(1) or match.group(2)


def extract_github_links(*texts: str) -> tuple[str, ...]:
    """Return every GitHub repository linked in `texts` as `https://github.com/OWNER/REPO`.

    Links come in order of first appearance, de-duplicated ignoring case (the first
    spelling wins). `github.io` pages, gists, bare `github.com/OWNER` and site pages such as
    `github.com/topics/...` are not repositories; prose like "on GitHub" is not a link.
    """
    found: list[str] = []
    seen: set[str] = set()
    for text in _flatten(texts):
        if "github" not in text.lower():
            continue
        if "\\" in text:
            text = _URL_ESCAPE_RE.sub(_unescaped, text)
        for match in _github_matches(text):
            _add_link(_repo_url(match.group(1), match.group(2)), found, seen)
    return tuple(found)


#: The most a link starts before its ``github.com``: ``https://www.``.
_LINK_HEAD = len("https://www.")


def _github_matches(text: str) -> Iterator[re.Match[str]]:
    """``_GITHUB_RE.finditer(text)``, the engine started only near each ``github.com``.

    Every link holds ``github.com`` at most ``_LINK_HEAD`` characters after its start, so
    no link starts between the end of the last and ``_LINK_HEAD`` characters before the next
    ``github.com``: an abstract is not tried at each of its thousand characters (the links
    of 100,000 abstracts took 1.5 s). In ASCII text the next ``github.com`` is found in its
    lower case; in other text, where a case change can change the length (and ``(?i)``
    matches some other letters: ``İ`` for ``i``), by ``_GITHUB_HOST``, which matches as the
    link's own host does (the 1,100 abstracts beyond ASCII that name GitHub among 30,000:
    0.048 s read whole, 0.01 s so).
    """
    ascii = text.isascii()
    low = text.lower() if ascii else ""

    def next_host(start: int) -> int:
        if ascii:
            return low.find("github.com", start)
        host = _GITHUB_HOST.search(text, start)
        return -1 if host is None else host.start()

    end = 0
    at = next_host(0)
    while at >= 0:
        match = _GITHUB_RE.search(text, max(end, at - _LINK_HEAD))
        if match is None:
            return
        yield match
        end = match.end()
        at = next_host(end)


def github_from_code_field(value: str) -> tuple[str, ...]:
    """Return the repositories of a catalog's code field: full URLs and bare `OWNER/REPO`.

    A field made only of links and `OWNER/REPO` items (separated by spaces, commas or
    written as a list) yields all of them; prose yields only its full github.com URLs.
    """
    found: list[str] = []
    seen: set[str] = set()
    for text in _flatten([value]):
        items = [item.strip(_CODE_ITEM_STRIP) for item in _CODE_ITEM_SPLIT_RE.split(text)]
        items = [item for item in items if item]
        bare = [_BARE_REPO_RE.fullmatch(item) for item in items]
        link_like = all(
            "://" in item or "github.com" in item.lower() or match is not None
            for item, match in zip(items, bare, strict=True)
        )
        if not link_like:
            for url in extract_github_links(text):
                _add_link(url, found, seen)
            continue
        for item, match in zip(items, bare, strict=True):
            if "github.com" in item.lower():
                for url in extract_github_links(item):
                    _add_link(url, found, seen)
            elif (
                match is not None
                and "://" not in item
                and "." not in match.group(1)
                and item.lower() not in _PLACEHOLDERS
            ):
                _add_link(_repo_url(match.group(1), match.group(2)), found, seen)
    return tuple(found)


def web_url(value: str) -> str:
    """``value`` as a web page address (``http(s)://`` and a host, on one line); "" if not one.

    The whitespace around it is dropped. One inside it (a newline that would start a Markdown
    line or a BibTeX field), a control or a formatting character (a bidirectional override)
    makes it no address: a paper keeps no link rather than a wrong one. The scheme is written
    in lower case, and the few characters RFC 3986 forbids as ``%XX``.
    """
    url = value.strip()
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or len(url) > MAX_URL_CHARS:
        return ""
    if _breaks_url(url):
        return ""
    try:
        parts = urlsplit(url)
        host, _ = parts.hostname, parts.port  # the port read: ``:x``, ``:99999`` raise
    except ValueError:  # a malformed port or IPv6 address
        return ""
    if not host:
        return ""
    return f"{scheme.lower()}://" + "".join(_UNSAFE_IN_URL.get(ch, ch) for ch in rest)


def _breaks_url(url: str) -> bool:
    """Whether ``url`` holds whitespace, a control or a formatting character (``Cc``, ``Cf``,
    ``Zl``, ``Zp``). In ASCII those are the characters up to the space and DEL, which
    ``str.isprintable`` tells in C but for the space (every record's link: 3.9 µs a
    character at a time, 0.1 µs so)."""
    if url.isascii():
        return not url.isprintable() or " " in url
    return any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in url)


def unique_links(links: Iterable[str]) -> tuple[str, ...]:
    """Links without repeats, in order: GitHub names are case-insensitive, so ``Owner/Repo``
    and ``owner/repo`` are one repository (the first spelling is kept)."""
    seen: dict[str, str] = {}
    for link in links:
        seen.setdefault(link.casefold(), link)
    return tuple(seen.values())
