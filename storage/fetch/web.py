"""The network's border: GET requests over http(s) only, each answer capped, every failure one
line that names the host and the cause.

A fetch talks to three services (OpenReview, Paper Copilot's lists, arXiv) through one ``Web``:
httpx underneath (imported on the first request: the app's start does not pay for it), the
standard proxy variables honoured (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``,
``NO_PROXY``), a timeout on every request, redirects followed a few times, a body refused past
``max_bytes`` (counted after decompression), an answer trickling in slower than ``MIN_RATE``
given up on. A 429 or 503 with ``Retry-After`` is waited for, up to ``max_wait`` seconds and
``retries`` times, and the wait is told through ``notify``; a 502/503/504 is tried again
after a short pause, and so, once, is a GET whose connection dropped before its answer was
whole (a reset, a body cut short: ``DROP_RETRIES``), as a proxy or a load balancer recycling
a connection does now and then. An answer a source knows for its service's throttling
(arXiv's "Rate exceeded.", with a 503 or even a 200) is waited for the same way, then one
line saying so. Pages that parsed are kept in a ``PageCache`` (``pages.py``) and read from
it the next time, unless ``refresh``; a page its source says holds nothing yet (``keep``) is
neither kept nor believed from the cache, as the next request may bring what it lacks
(decisions out that afternoon, arXiv's empty page answered properly). An answer that came
but cannot be read (an HTML page where JSON was expected, nothing, JSON cut short) is said
not understood (``AnswerError``), as a source says of one of another shape, and not kept.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlencode, urlsplit

import orjson

from storage.fetch.errors import (
    AnswerError,
    FetchCancelled,
    FetchError,
    StatusError,
    ThrottledError,
)
from storage.fetch.request import WebOptions, host_of
from storage.stopping import Stopped, shut_sockets, stoppable

__all__ = ["FetchCancelled", "FetchError", "StatusError", "Web", "WebOptions", "host_of"]

if TYPE_CHECKING:
    import httpx

    from storage.fetch.pages import PageCache

T = TypeVar("T")
#: Whether an answer's body is the service's throttling rather than what was asked: its
#: words for the user ("arXiv is throttling requests ('Rate exceeded.')"), "" for no.
Throttled = Callable[[bytes], str]
_RETRIED = frozenset({429, 502, 503, 504})
#: The first wait when a service says it throttles, or answers 429, without naming a wait
#: (then 2×, 4×…, within ``max_wait``): arXiv's "Rate exceeded." wants more than a few
#: seconds' rest, and so does a rate limiter counting requests by the minute.
THROTTLE_PAUSE = 5.0
#: The slowest an answer may come, in bytes a second, once it has taken the timeout.
MIN_RATE = 1024
#: Times a GET whose connection dropped mid-answer is asked again, and the pause before: a
#: drop is mostly a one-off; a server that drops again is broken, and the pages read so far
#: are in the cache for the next fetch.
DROP_RETRIES = 1
DROP_PAUSE = 1.0
#: What a stopped fetch says.
STOPPED = "the fetch was stopped; nothing was imported"
#: A wait shorter than this is said as none ("asking again at once"), not as "waiting 0.0 s":
#: a ``Retry-After`` of 0, or of a date already past, a ``RateLimit-Reset`` of 0.
AT_ONCE = 0.05


class _Dropped(FetchError):
    """The connection dropped before the answer was whole (reset, cut short)."""


def full_url(url: str, params: Mapping[str, str | int] | None) -> str:
    """``url`` with its query parameters (their order kept): what a request asks, and the key of
    its page in the cache."""
    if not params:
        return url
    return f"{url}{'&' if '?' in url else '?'}{urlencode(list(params.items()))}"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class Web:
    """One fetch's requests: a client opened on first use, pages cached, errors made one line."""

    def __init__(self, options: WebOptions, cache: PageCache | None = None) -> None:
        self.options = options
        self.cache = cache
        #: The ``Authorization`` each origin is sent (``scheme://host:port``): a service's token
        #: goes to that service alone, never to another host the same fetch asks.
        self._authorization: dict[str, str] = {}
        self._client: httpx.Client | None = None
        #: The connections the client opened (httpcore's network streams), shut to stop a
        #: request under way (``_shut``).
        self._streams: list[Any] = []
        #: Requests sent (cache hits are not), for the report.
        self.requests = 0

    def __enter__(self) -> Web:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def authorize(self, base: str, value: str) -> None:
        """Send ``Authorization: value`` with every request to the origin of ``base``."""
        self._authorization[_origin(base)] = value

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        self._streams.clear()  # (closed with the client)

    # -- what the sources ask ---------------------------------------------------------------
    def get_json(
        self,
        url: str,
        params: Mapping[str, str | int] | None = None,
        *,
        cache: bool = True,
        keep: Callable[[Any], bool] | None = None,
        max_age: float | None = None,
    ) -> Any:
        """The JSON a GET answers (from the cache when it holds the page, kept at most
        ``max_age`` seconds ago: by default the cache's day)."""
        return self.get_parsed(url, params, parse_json, cache=cache, keep=keep, max_age=max_age)

    def get_parsed(
        self,
        url: str,
        params: Mapping[str, str | int] | None,
        parse: Callable[[bytes, str, str], T],
        *,
        cache: bool = True,
        fresh: bool = False,
        before: Callable[[], None] | None = None,
        keep: Callable[[T], bool] | None = None,
        throttled: Throttled | None = None,
        max_age: float | None = None,
    ) -> T:
        """What ``parse(body, host, content type)`` makes of a GET's answer; ``FetchError`` from
        it refuses the answer before it is cached. The cache is read unless ``fresh`` (or the
        fetch's ``refresh``); ``before`` is called before each request really sent, retries
        too (a source's spacing); ``keep(value)`` False says the answer holds nothing yet: it
        is not cached, and such a page found in the cache (kept by an older version) is asked
        again; ``throttled(body)`` says (in words) that an answer, a 200 or a 429/503, is the
        service's throttling rather than a page: waited for and tried again as a 429 is."""
        address = full_url(url, params)
        host = host_of(address)
        if self.cache is not None and cache and not (fresh or self.options.refresh):
            kept = self.cache.get(address, max_age)
            if kept is not None:
                try:
                    found = parse(kept, host, "")
                    if keep is None or keep(found):
                        return found
                except FetchError:
                    pass  # a damaged page: fetched again
                self.cache.refuse(address)
        if before is not None:
            self._client_for_use()  # made first: the spacing counts from the request itself
        body, content_type = self._request("GET", address, before=before, throttled=throttled)
        value = parse(body, host, content_type)
        if self.cache is not None and cache and (keep is None or keep(value)):
            self.cache.put(address, body)
        return value

    def cached(self, url: str, params: Mapping[str, str | int] | None = None) -> bool:
        """Whether the cache holds the page of this GET, from within its day (not read)."""
        return self.cache is not None and self.cache.holds(full_url(url, params))

    @property
    def from_cache(self) -> int:
        """Pages read from the cache so far: a source compares it before and after a request
        to tell the user an answer is an earlier fetch's."""
        return self.cache.hits if self.cache is not None else 0

    def post_json(self, url: str, payload: Mapping[str, Any]) -> Any:
        """POST a JSON body, the JSON answer (never cached: a login)."""
        body, content_type = self._request("POST", url, orjson.dumps(dict(payload)))
        return parse_json(body, host_of(url), content_type)

    # -- underneath -------------------------------------------------------------------------
    def _client_for_use(self) -> httpx.Client:
        if self._client is None:
            import httpx  # here: the app starts without it

            timeout = self.options.timeout
            self._client = httpx.Client(
                timeout=httpx.Timeout(timeout, connect=min(timeout, 15.0)),
                follow_redirects=True,
                max_redirects=5,
                headers={"User-Agent": _user_agent(), "Accept-Encoding": "gzip, deflate"},
                trust_env=True,
            )
        return self._client

    def _request(
        self,
        method: str,
        url: str,
        content: bytes | None = None,
        *,
        before: Callable[[], None] | None = None,
        throttled: Throttled | None = None,
    ) -> tuple[bytes, str]:
        """The body and content type of a 200 answer, after waits and retries as told above."""
        host = host_of(url)
        if urlsplit(url).scheme not in ("http", "https"):
            raise FetchError(f"{host}: only http(s) URLs are fetched, not {url[:80]!r}")
        attempt = dropped = 0
        while True:
            self._check_cancelled()
            if before is not None:
                before()
            try:
                status, reason, headers, body = self._send(method, url, content, host)
            except _Dropped as exc:
                if method != "GET" or dropped >= DROP_RETRIES:
                    raise FetchError(f"{exc}{_still(dropped)}") from None
                dropped += 1
                if self.options.notify is not None:
                    self.options.notify(
                        f"{exc}; waiting {_seconds(DROP_PAUSE)} before trying again "
                        f"({dropped} of {DROP_RETRIES})"
                    )
                self._sleep(DROP_PAUSE)
                continue
            said = ""
            if throttled is not None and (status == 200 or status in _RETRIED):
                said = throttled(body)
            if status == 200 and not said:
                return body, headers.get("content-type", "")
            if (said or status in _RETRIED) and attempt < self.options.retries:
                attempt += 1
                wait = self._wait_for(status, reason, headers, host, attempt, said)
                self._sleep(wait)
                continue
            if said:
                raise ThrottledError(f"{host}: {said}{_still(attempt)}; try again later")
            raise StatusError(f"{host}: {status_problem(status, reason, body, attempt)}", status)

    def _send(
        self, method: str, url: str, content: bytes | None, host: str
    ) -> tuple[int, str, Mapping[str, str], bytes]:
        """One request and its answer, asked on a thread of its own while this one checks
        whether the fetch was stopped (``storage.stopping``): a read blocks until its timeout,
        and Esc in the app's import dialog waited out the 30 s of a server that held its
        answer, then said the fetch had timed out. A request stopped has its connections shut
        (``_shut``), which ends its read at once, and its answer is dropped."""
        client = self._client_for_use()  # (here: a client closed meanwhile is not made anew)
        try:
            return stoppable(
                lambda: self._exchange(client, method, url, content, host),
                self.options.cancelled,
                self._shut,
                name="papers-fetch-request",
            )
        except Stopped:
            self.close()  # (after the request's thread, not under it, when it ends in time)
            raise FetchCancelled(STOPPED) from None

    def _exchange(
        self, client: httpx.Client, method: str, url: str, content: bytes | None, host: str
    ) -> tuple[int, str, Mapping[str, str], bytes]:
        import httpx

        headers = {}
        authorization = self._authorization.get(_origin(url))
        if authorization:  # (httpx drops it on a redirect to another origin)
            headers["Authorization"] = authorization
        if content is not None:
            headers["Content-Type"] = "application/json"
        self.requests += 1
        try:
            with client.stream(
                method, url, content=content, headers=headers, extensions={"trace": self._traced}
            ) as response:
                if response.url.scheme not in ("http", "https"):
                    raise FetchError(f"{host}: redirected away from http(s)")
                body = b""
                if response.status_code == 200:
                    body = self._read_capped(response, host)
                else:  # an error page: enough of it to quote its message
                    body = _read_some(response, 4096, self.options.timeout, host)
                return response.status_code, response.reason_phrase, response.headers, body
        except httpx.HTTPError as exc:
            problem = f"{host}: {transport_problem(exc, self.options.timeout)}"
            if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError):
                raise _Dropped(problem) from None
            raise FetchError(problem) from None

    def _traced(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace of a request: the connections it opens are noted (``_shut``)."""
        if event == "connection.connect_tcp.complete" and info.get("return_value") is not None:
            self._streams.append(info["return_value"])

    def _shut(self) -> None:
        """Shut every connection the fetch opened (``storage.stopping.shut_sockets``). The
        fetch is stopped: none is used again."""
        shut_sockets(stream.get_extra_info("socket") for stream in self._streams)

    def _read_capped(self, response: httpx.Response, host: str) -> bytes:
        cap = self.options.max_bytes
        declared = response.headers.get("content-length", "")
        if (
            declared.isdigit()
            and int(declared) > cap
            and "content-encoding" not in response.headers
        ):
            raise FetchError(
                f"{host}: the answer is {_size(int(declared))}, over the cap of {_size(cap)}"
            )
        parts: list[bytes] = []
        got = 0
        pace = _Pace(self.options.timeout, host)
        for chunk in response.iter_bytes():  # as it comes, so a trickle is seen while it lasts
            got += len(chunk)
            if got > cap:
                raise FetchError(f"{host}: the answer is over the cap of {_size(cap)}; refused")
            parts.append(chunk)
            pace.check(got)
        return b"".join(parts)

    def _wait_for(
        self,
        status: int,
        reason: str,
        headers: Mapping[str, str],
        host: str,
        attempt: int,
        throttling: str = "",
    ) -> float:
        """How long to wait before trying again (said to the user), or FetchError when the
        server asks for longer than ``max_wait``: its ``Retry-After``, else the
        ``RateLimit-Reset`` of a rate limiter that names no Retry-After. ``throttling``: the
        service's own words that it throttles; then, and for a 429, the wait, unless the
        server names one, grows from ``THROTTLE_PAUSE``: a service that limits its rate wants
        more rest (a window of a minute is common) than a server that stumbled (a 502)."""
        what = throttling or f"HTTP {status} {reason}".rstrip()
        header = "Retry-After"
        asked = retry_after(headers.get("retry-after", ""))
        if asked is None and (status == 429 or throttling):
            header, asked = "RateLimit-Reset", _delay(headers.get("ratelimit-reset", ""))
        if asked is not None and asked > self.options.max_wait:
            raise (ThrottledError if throttling else FetchError)(
                f"{host}: {what}, and it asks to wait {_seconds(asked)} "
                f"({header}), longer than {_seconds(self.options.max_wait)}; try again later"
            )
        limited = throttling or status == 429
        growing = THROTTLE_PAUSE * 2.0 ** (attempt - 1) if limited else 2.0**attempt
        wait = asked if asked is not None else min(growing, self.options.max_wait)
        if asked is not None and asked < AT_ONCE:  # 0, or a date already past
            said = f"asking again at once as it allows ({header})"
        elif asked is not None:
            said = f"waiting {_seconds(wait)} as it asks ({header})"
        else:
            said = f"waiting {_seconds(wait)} before trying again"
        if self.options.notify is not None:
            self.options.notify(f"{host}: {what}; {said} ({attempt} of {self.options.retries})")
        return wait

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self._check_cancelled()
            time.sleep(min(left, 0.1))

    def pause(self, seconds: float) -> None:
        """Wait (a source's spacing between requests), stopping if the fetch is cancelled."""
        self._sleep(seconds)

    def _check_cancelled(self) -> None:
        if self.options.cancelled():
            raise FetchCancelled(STOPPED)


class _Pace:
    """An answer's pace: the timeout bounds each wait for bytes, and this the whole answer: one
    that keeps coming a byte at a time (under ``MIN_RATE`` a second once ``timeout`` seconds
    have passed) is given up on, as a silent one is."""

    def __init__(self, timeout: float, host: str) -> None:
        self.timeout = timeout
        self.host = host
        self.start = time.monotonic()

    def check(self, got: int) -> None:
        elapsed = time.monotonic() - self.start
        if elapsed > self.timeout and got < elapsed * MIN_RATE:
            raise FetchError(
                f"{self.host}: the answer is coming too slowly ({_size(got)} in "
                f"{_seconds(elapsed)}, under {_size(MIN_RATE)} a second); gave up"
            )


def _read_some(response: httpx.Response, limit: int, timeout: float, host: str) -> bytes:
    got = b""
    pace = _Pace(timeout, host)
    for chunk in response.iter_bytes():
        got += chunk
        if len(got) >= limit:
            break
        pace.check(len(got))
    return got[:limit]


def _user_agent() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"papers-tui/{version('papers-tui')}"
    except PackageNotFoundError:
        return "papers-tui"


def retry_after(value: str) -> float | None:
    """Seconds a ``Retry-After`` header asks for (a number, or an HTTP date); None for none."""
    import email.utils

    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, seconds) if math.isfinite(seconds) else None


def _delay(value: str) -> float | None:
    """Seconds a ``RateLimit-Reset`` header names (the IETF draft's delta-seconds, what rate
    limiters such as express-rate-limit send), or None."""
    value = value.strip()
    if not value.isdigit() or len(value) > 9:
        return None
    return float(value)


def status_problem(status: int, reason: str, body: bytes, retried: int) -> str:
    """An error answer as one line: ``HTTP 404 Not Found (no such venue)``."""
    line = f"HTTP {status} {reason}".rstrip()
    message = _error_message(body)
    if message:
        line += f" ({message})"
    return line + _still(retried)


def _still(retried: int) -> str:
    if not retried:
        return ""
    return f", still after {retried} {'retry' if retried == 1 else 'retries'}"


def _error_message(body: bytes) -> str:
    """What an error answer says, when it is JSON with a message (OpenReview's are) or an
    Atom feed of arXiv's error entry."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return _atom_error(body)
    if isinstance(data, dict):
        for key in ("message", "error", "name"):
            value = data.get(key)
            if isinstance(value, dict):
                value = value.get("message")
            if isinstance(value, str) and value.strip():
                return " ".join(value.split())[:160]
    return ""


def _atom_error(body: bytes) -> str:
    """The summary of arXiv's error entry in an error answer, or ""."""
    import html
    import re

    text = body.decode("utf-8", "replace")
    if "/api/errors" not in text and "<title>Error</title>" not in text:
        return ""
    found = re.search(r"<entry\b.*?<summary[^>]*>(.*?)</summary>", text, re.DOTALL)
    return f"arXiv: {_short(html.unescape(found[1]))}" if found else ""


def transport_problem(exc: BaseException, timeout: float) -> str:
    """Why a request got no answer, in words: no network, a name that does not resolve, TLS…"""
    import socket
    import ssl

    import httpx

    causes = _causes(exc)
    if isinstance(exc, httpx.TimeoutException) or any(isinstance(c, TimeoutError) for c in causes):
        return f"timed out (no answer within {_seconds(timeout)})"
    if any(isinstance(c, socket.gaierror) for c in causes) or _says(
        causes, "name or service not known", "nodename nor servname", "name resolution",
        "no address associated",
    ):  # fmt: skip
        return "cannot resolve the host name (DNS failure, or no network)"
    if any(isinstance(c, ssl.SSLError) for c in causes) or _says(causes, "ssl", "certificate"):
        detail = next((str(c) for c in causes if isinstance(c, ssl.SSLError)), str(exc))
        return f"TLS error ({_short(detail)})"
    if isinstance(exc, httpx.ProxyError):
        return f"the proxy failed ({_short(str(exc))})"
    if any(isinstance(c, ConnectionRefusedError) for c in causes) or _says(causes, "refused"):
        return "cannot connect (connection refused)"
    if _says(causes, "network is unreachable", "no route to host"):
        return "cannot connect (no network: the network is unreachable)"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the answer was cut off or malformed ({_short(str(exc))})"
    if isinstance(exc, httpx.ReadError) and (
        any(isinstance(c, ConnectionResetError) for c in causes) or _says(causes, "reset")
    ):
        return "the connection was reset before the answer was whole"
    if isinstance(exc, httpx.TooManyRedirects):
        return "too many redirects"
    if isinstance(exc, httpx.UnsupportedProtocol):
        return "only http(s) URLs are fetched"
    if isinstance(exc, httpx.DecodingError):
        return "the answer's compression is broken"
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect ({_short(str(exc))})"
    return f"the request failed ({type(exc).__name__}: {_short(str(exc))})"


def _causes(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _says(causes: list[BaseException], *words: str) -> bool:
    text = " ".join(str(c) for c in causes).casefold()
    return any(word in text for word in words)


def _short(text: str) -> str:
    return " ".join(text.split())[:160] or "no detail"


def parse_json(body: bytes, host: str, content_type: str) -> Any:
    """A JSON answer; an HTML page, an empty body or one that does not parse (cut short) is an
    ``AnswerError``."""
    head = body[:512].lstrip().lower()
    if head.startswith((b"<!doctype", b"<html", b"<")) or "html" in content_type.casefold():
        raise AnswerError(host, "an HTML page came where JSON was expected (an error page?)")
    if not body.strip():
        raise AnswerError(host, "it is empty where JSON was expected")
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise AnswerError(host, f"not valid JSON ({_short(exc.msg)})") from None


def decode_text(body: bytes, host: str) -> str:
    """A text answer (an Atom feed) as UTF-8."""
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise AnswerError(host, f"not UTF-8 text (byte {exc.start})") from None


def _size(size: int) -> str:
    from storage.sources.limits import size_text

    return size_text(size)


def _seconds(seconds: float) -> str:
    if seconds >= 90:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s" if seconds >= 1 else f"{seconds:.1f} s"
