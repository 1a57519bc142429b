"""What one ``papers fetch`` asks of every source, how it uses the network, where the services
are.

The services' base URLs come from the environment (tests point them at a server on
127.0.0.1); the defaults are the real services. Light on purpose: the command line builds its
options from here without loading the fetch itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from storage.fetch.errors import FetchError

#: Told how far a source is: (what, papers so far, papers in all or None when not known).
Progress = Callable[[str, int, "int | None"], None]
Notify = Callable[[str], None]

OPENREVIEW_API = ("PAPERS_OPENREVIEW_API", "https://api2.openreview.net")
OPENREVIEW_API_V1 = ("PAPERS_OPENREVIEW_API_V1", "https://api.openreview.net")
PAPERLISTS_URL = (
    "PAPERS_PAPERLISTS_URL",
    "https://raw.githubusercontent.com/papercopilot/paperlists/main",
)
ARXIV_API = ("PAPERS_ARXIV_API", "https://export.arxiv.org/api/query")

#: The largest answer a fetch reads (a whole Paper Copilot list of every ICLR submission is
#: tens of MB; a page of OpenReview notes with their reviews some 10 MB).
DEFAULT_MAX_BYTES = 256 * 1024**2
#: Seconds a request may wait for the server (to connect, and between two bytes of the answer).
DEFAULT_TIMEOUT = 30.0
#: The longest ``Retry-After`` waited for; a server asking for more gets an error instead.
MAX_WAIT = 120.0
#: How many times one request is tried again (429, 502, 503, 504).
RETRIES = 3


def host_of(url: str) -> str:
    """The host (and port) a URL names, as errors name it: ``api2.openreview.net``."""
    try:
        netloc = urlsplit(url).netloc
    except ValueError:  # an IPv6 host left open: the URL as given
        netloc = ""
    return netloc.rpartition("@")[2] or url[:60]


def check_base(url: str, variable: str) -> str:
    """A base URL from the environment, without its trailing slash; only http(s) is taken."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # ``http://[::1``: an IPv6 host left open
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise FetchError(f"{variable}={url[:100]!r}: not an http(s) URL")
    return url.strip().rstrip("/")


def base_url(setting: tuple[str, str]) -> str:
    """The base URL of a service: its environment variable, else the real service."""
    variable, default = setting
    return check_base(os.environ.get(variable) or default, variable)


@dataclass(slots=True)
class FetchRequest:
    """What the user asked of every source of one fetch."""

    #: Every submission, with its decision as the venue status (else the accepted papers).
    all_submissions: bool = False
    #: The official reviews' ratings and confidences (OpenReview).
    reviews: bool = False
    #: At most this many papers a source: the first of its list, in the order the list shows
    #: them (arXiv queries: 1,000 unless told).
    max_papers: int | None = None
    #: Short names the user's config adds (name → source), for aliases and errors.
    names: Mapping[str, str] = field(default_factory=dict)
    progress: Progress | None = None
    #: Told, as each source starts, what it asks, for people (``Asking OpenReview for ICLR
    #: 2025 (ICLR.cc/2025/Conference)…``): before its first page is counted there is no
    #: progress to tell, and a venue's group or a large list may take seconds.
    starting: Notify | None = None

    def tell(self, what: str, done: int, total: int | None) -> None:
        if self.progress is not None:
            self.progress(what, done, total)

    def begin(self, what: str) -> None:
        if self.starting is not None:
            self.starting(what)


def _never() -> bool:
    return False


@dataclass(slots=True)
class WebOptions:
    """How a fetch uses the network."""

    max_bytes: int = DEFAULT_MAX_BYTES
    timeout: float = DEFAULT_TIMEOUT
    max_wait: float = MAX_WAIT
    retries: int = RETRIES
    #: Download again what the cache holds.
    refresh: bool = False
    #: Told of what the user should see: a wait, a retry (one line each).
    notify: Notify | None = None
    #: Asked between requests and during waits: True stops the fetch (``FetchCancelled``).
    cancelled: Callable[[], bool] = field(default=_never)
