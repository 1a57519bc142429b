"""At the network's border: every failure is one line naming the host and the cause, exit 1,
the library untouched; waits are said; proxies are honoured; only http(s)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from storage.fetch.errors import FetchError
from storage.fetch.request import WebOptions
from storage.fetch.web import Web
from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

ICLR25 = "ICLR.cc/2025/Conference"


def _serve(found: Services) -> None:
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(3, fate=""), ICLR25)


def _fails(env: dict[str, str], *args: str, home: Path | None = None) -> str:
    before = _library_files(home) if home else None
    done = papers(env, "fetch", "iclr2025", *args)
    assert done.returncode == 1, done.stdout
    *said, line = done.stderr.strip().splitlines()
    assert all("; waiting " in b or "; asking again at once " in b for b in said)  # said first
    assert "Traceback" not in done.stderr and line.startswith("papers: error: ")
    assert done.stdout == ""
    if home is not None:
        assert _library_files(home) == before
    return line


def _library_files(home: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in home.glob("*.json")}


@pytest.fixture
def seeded(services, env, tmp_path: Path) -> Path:
    """A library holding the two seed lists: the border tests check it is left as it was."""
    samples = sorted((Path(__file__).parents[2] / "storage" / "sample").glob("*.txt"))
    assert papers(env, "import", *map(str, samples)).returncode == 0
    return tmp_path / "home"


def test_no_server_listening(services, env, seeded: Path) -> None:
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    env = {**env, "PAPERS_OPENREVIEW_API": f"http://127.0.0.1:{port}"}
    line = _fails(env, home=seeded)
    assert f"127.0.0.1:{port}: cannot connect (connection refused)" in line


def test_a_silent_server_times_out(services, env, seeded: Path) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(Fault("/or2/groups", "silent", seconds=4))
    line = _fails(env, "--timeout", "1", home=seeded)
    assert "timed out (no answer within 1 s)" in line and "127.0.0.1" in line


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (Fault("/or2/notes", "status", status=500), "HTTP 500 Internal Server Error"),
        (
            Fault(
                "/or2/notes",
                "status",
                status=403,
                body=b'{"name":"ForbiddenError","message":"Forbidden"}',
            ),
            "HTTP 403 Forbidden (Forbidden)",
        ),
        (Fault("/or2/notes", "html"), "an HTML page came where JSON was expected"),
        (Fault("/or2/notes", "body", body=b'{"notes": [{"id": "a"'), "not valid JSON"),
        (Fault("/or2/notes", "body", body=b"[" * 100_000 + b"]" * 100_000), "not valid JSON"),
        (Fault("/or2/notes", "body", body=b'{"notes": {"a": 1}}'), "answer to /notes was not"),
        (Fault("/or2/notes", "body", body=b'"notes"'), "answer to /notes was not"),
        (Fault("/or2/notes", "cut", body=b'{"notes": []', times=2), "cut off"),
        (Fault("/or2/groups", "body", body=b'{"groups": 7}'), "answer to /groups was not"),
        (Fault("/or2/notes", "body", body=b"\xff\xfe\x00garbage"), "not valid JSON"),
        (
            Fault(
                "/or2/notes",
                "body",
                body=b'{"name": "ValidationError", "message": "after must be a valid id"}',
            ),
            "answer to /notes was not understood: no list of notes: ValidationError: after must",
        ),
    ],
    ids=[
        "500",
        "403",
        "html",
        "truncated-json",
        "deep",
        "shape",
        "string",
        "cut",
        "groups",
        "binary",
        "error-body",
    ],
)
def test_bad_answers_are_one_line(services, env, seeded: Path, fault: Fault, said: str) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(fault)
    line = _fails(env, home=seeded)
    assert said in line and "127.0.0.1" in line and "fetching iclr2025" in line


def test_an_answer_over_the_cap_is_refused(services, env, seeded: Path) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(Fault("/or2/notes", "huge", size=4 * 1024**2))
    line = _fails(env, "--max-size", "1MB", home=seeded)
    assert "the answer is over the cap of 1 MB; refused" in line


def test_429_with_retry_after_is_waited_for_and_said(services, env) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(Fault("/or2/notes", "status", status=429, headers={"Retry-After": "1"}))
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert (
        "HTTP 429 Too Many Requests; waiting 1 s as it asks (Retry-After) (1 of 3)" in done.stderr
    )
    notes = found.requests_to("/or2/notes")
    assert notes[1].at - notes[0].at >= 0.95


def test_a_429_without_retry_after_rests_as_a_rate_limit_wants(services, env) -> None:
    """A rate limiter counting by the minute: 2, 4 and 8 s (a 502's pauses) were all spent
    inside one window; a 429 that names no wait rests 5 s, then 10, then 20."""
    found, _ = services
    _serve(found)
    found.faults.append(Fault("/or2/notes", "status", status=429))
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "HTTP 429 Too Many Requests; waiting 5 s before trying again (1 of 3)" in done.stderr
    notes = found.requests_to("/or2/notes")
    assert notes[1].at - notes[0].at >= 4.9


def test_a_429_naming_its_wait_in_ratelimit_reset_is_waited_for(services, env) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(
        Fault("/or2/notes", "status", status=429, headers={"RateLimit-Reset": "1"}, times=2)
    )
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    said = "HTTP 429 Too Many Requests; waiting 1 s as it asks (RateLimit-Reset)"
    assert f"{said} (1 of 3)" in done.stderr and f"{said} (2 of 3)" in done.stderr
    notes = found.requests_to("/or2/notes")
    assert 0.95 <= notes[1].at - notes[0].at < 1.9


def test_a_retry_after_gone_by_or_a_reset_of_0_asks_again_at_once(services, env) -> None:
    """A 503 whose ``Retry-After`` is a date gone by, a 429 whose ``RateLimit-Reset`` is 0:
    each was said as "waiting 0.0 s"; it is no wait, and said as none."""
    found, _ = services
    _serve(found)
    gone = {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}
    found.faults.append(Fault("/or2/notes", "status", status=503, headers=gone))
    found.faults.append(Fault("/or2/notes", "status", status=429, headers={"RateLimit-Reset": "0"}))
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0 and "3 added" in done.stdout, done.stderr
    assert (
        "HTTP 503 Service Unavailable; asking again at once as it allows (Retry-After) (1 of 3)\n"
        in done.stderr
    ), done.stderr
    assert (
        "HTTP 429 Too Many Requests; asking again at once as it allows (RateLimit-Reset) (2 of 3)\n"
        in done.stderr
    ), done.stderr
    assert "waiting" not in done.stderr and "0.0 s" not in done.stderr
    assert len(found.requests_to("/or2/notes")) == 3


def test_a_wait_longer_than_the_bound_is_an_error(services, env, seeded: Path) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(Fault("/or2/notes", "status", status=429, headers={"Retry-After": "3600"}))
    line = _fails(env, home=seeded)
    assert "asks to wait 60 min (Retry-After), longer than 2 min; try again later" in line


def test_429_for_ever_gives_up_after_the_retries(services, env, seeded: Path) -> None:
    found, _ = services
    _serve(found)
    found.faults.append(
        Fault("/or2/notes", "status", status=429, headers={"Retry-After": "0"}, times=10)
    )
    line = _fails(env, home=seeded)
    assert "HTTP 429 Too Many Requests, still after 3 retries" in line
    assert len(found.requests_to("/or2/notes")) == 4


def test_tls_to_a_plain_server_is_a_tls_error(services, env, seeded: Path) -> None:
    _, base = services
    env = {**env, "PAPERS_OPENREVIEW_API": base.replace("http://", "https://") + "/or2"}
    line = _fails(env, home=seeded)
    assert "TLS error" in line


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/or2", "file:///etc/passwd", "127.0.0.1:80", "", "http://[::1/or2"]
)
def test_only_http_base_urls(services, env, url: str) -> None:
    env = {**env, "PAPERS_OPENREVIEW_API": url} if url else {**env, "PAPERS_OPENREVIEW_API": " "}
    done = papers(env, "fetch", "iclr2025")
    assert (
        done.returncode == 1
        and "not an http(s) URL" in done.stderr
        and "PAPERS_OPENREVIEW_API" in done.stderr
    )


def test_the_proxy_variables_are_honoured(services, env) -> None:
    found, _ = services
    _serve(found)
    proxy = f"http://{services[1].removeprefix('http://')}"
    # a base URL nothing listens on, reached through the stand-in acting as the proxy
    env = {
        **env,
        "PAPERS_OPENREVIEW_API": "http://127.0.0.2:9/or2",
        "HTTP_PROXY": proxy,
        "NO_PROXY": "",
    }
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout


def test_hostile_text_is_kept_as_data_and_shown_harmless(services, env) -> None:
    found, _ = services
    made = shapes.made_up(1, fate="")
    made[0].title = "Evil \x1b]52;c;aGk=\x07 title \u202e"
    made[0].authors = ["\x1b[2J Mallory"]
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    shown = papers(env, "list")
    assert "\x1b" not in shown.stdout and "\u202e" not in shown.stdout and "Evil" in shown.stdout
    stored = json.loads(papers(env, "list", "--json").stdout)
    assert stored[0]["title"].startswith("Evil \x1b]52")  # the data, as given


@pytest.mark.parametrize(
    "pdf", ["http://[bad/x.pdf", "//[bad/x.pdf", "https://127.0.0.1:99999999/x.pdf"]
)
def test_a_note_whose_pdf_is_a_broken_address_is_fetched_without_one(
    services, env, pdf: str
) -> None:
    """A note's ``pdf`` that no URL parser takes (an IPv6 host left open) is no address: the
    paper is fetched with its page's PDF, not "internal error: ValueError"."""
    found, _ = services
    _serve(found)
    found.v2[ICLR25].notes[0]["content"]["pdf"] = {"value": pdf}
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout and "Traceback" not in done.stderr
    pdfs = [p.get("pdf", "") for p in json.loads(papers(env, "list", "--json").stdout)]
    assert not any("[bad" in str(p) for p in pdfs)


def test_a_name_that_does_not_resolve_is_a_dns_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_dns(*args: object, **kwargs: object) -> None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    with Web(WebOptions(timeout=2)) as web, pytest.raises(FetchError) as caught:
        web.get_json("http://localhost:9/or2/notes")
    assert (
        str(caught.value)
        == "localhost:9: cannot resolve the host name (DNS failure, or no network)"
    )


def test_an_unreachable_network_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    real = socket.socket.connect

    def unreachable(self: socket.socket, address: object) -> None:
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    with Web(WebOptions(timeout=2)) as web, pytest.raises(FetchError) as caught:
        web.get_json("http://127.0.0.1:9/notes")
    assert "no network" in str(caught.value)
    del real


def test_unknown_sources_are_usage_one_liners(env) -> None:
    for word in ("nosuchvenue", "paperlists:", "openreview:bad id", "arxiv:"):
        done = papers(env, "fetch", word)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, (word, done.stderr)


@pytest.mark.parametrize("answered", [b"", b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"])
def test_a_stop_ends_a_request_whose_server_holds_its_answer(answered: bytes) -> None:
    """A server that takes the request and answers nothing (or the head, then nothing more):
    the fetch stopped meanwhile ends within a second or so, as stopped, not at its timeout
    (Esc in the app's import dialog waited out the 30 s, then said the fetch timed out)."""
    import threading
    import time

    from storage.fetch.errors import FetchCancelled

    taken: list[socket.socket] = []
    with socket.create_server(("127.0.0.1", 0)) as server:

        def answer() -> None:
            connection, _ = server.accept()
            taken.append(connection)
            connection.recv(65536)
            connection.sendall(answered)

        threading.Thread(target=answer, daemon=True).start()
        stop = threading.Event()
        options = WebOptions(timeout=30.0, retries=0, cancelled=stop.is_set)
        url = f"http://127.0.0.1:{server.getsockname()[1]}/notes"
        with Web(options) as web:
            threading.Timer(0.3, stop.set).start()
            start = time.monotonic()
            with pytest.raises(FetchCancelled, match="the fetch was stopped"):
                web.get_json(url)
        assert time.monotonic() - start < 3.0
        assert not [t for t in threading.enumerate() if t.name == "papers-fetch-request"]
        for connection in taken:
            connection.close()
