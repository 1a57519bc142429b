"""arXiv's throttling answer, "Rate exceeded." (plain text, with a 503 and now and then a 200,
with or without ``Retry-After``): waited for and said as any other wait, tried again, and only
then one line saying arXiv throttles; the pages read before it stay in the cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

_PLAIN = {"Content-Type": "text/plain"}


def _entries(n: int) -> list[str]:
    return [
        shapes.atom_entry(
            f"2502.{i:05d}", f"Throttled paper {i}",
            f"We study throttled request number {i} and show that waiting works in practice.",
            [f"Ann {i}"],
        )
        for i in range(n)
    ]  # fmt: skip


def _rate_exceeded(status: int, times: int = 1, skip: int = 0, wait: str | None = None) -> Fault:
    headers = {**_PLAIN, **({"Retry-After": wait} if wait is not None else {})}
    kind = "body" if status == 200 else "status"
    return Fault(
        "/arxiv/query", kind, status=status, headers=headers, body=b"Rate exceeded.\n",
        times=times, skip=skip,
    )  # fmt: skip


def test_rate_exceeded_is_waited_for_and_the_page_asked_again(
    services: tuple[Services, str], env
) -> None:
    """A 503 "Rate exceeded." then a 200 "Rate exceeded." on the second page: both waited for
    as they ask, said on stderr, the page asked again; every paper comes."""
    found, _ = services
    found.arxiv_queries["cat:cs.LG"] = _entries(150)
    found.faults.append(_rate_exceeded(503, skip=1, wait="1"))
    found.faults.append(_rate_exceeded(200, wait="0"))
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "150")
    assert done.returncode == 0, done.stderr
    assert "150 added" in done.stdout, done.stdout
    said = "arXiv is throttling requests (it answers 'Rate exceeded.');"
    assert f"{said} waiting 1 s as it asks (Retry-After) (1 of 3)" in done.stderr, done.stderr
    assert f"{said} asking again at once as it allows (Retry-After) (2 of 3)" in done.stderr
    asked = found.requests_to("/arxiv/query")
    assert [r.query["start"] for r in asked] == ["0", "100", "100", "100"]
    assert all(b.at - a.at >= 2.95 for a, b in zip(asked, asked[1:], strict=False))  # spaced


def test_throttling_to_the_end_is_one_line_and_the_pages_read_are_kept(
    services: tuple[Services, str], env, tmp_path: Path
) -> None:
    """arXiv says "Rate exceeded." to every try of the second page: one line saying arXiv
    throttles and to try later, nothing imported; the next fetch reads the first page from
    the cache and asks only for the second."""
    found, _ = services
    found.arxiv_queries["cat:cs.LG"] = _entries(150)
    found.faults.append(_rate_exceeded(503, times=4, skip=1, wait="0"))
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "150")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line == (
        "papers: error: fetching arxiv:cat:cs.LG: 127.0.0.1:"
        + line.split("127.0.0.1:")[1].split(":")[0]
        + ": arXiv is throttling requests (it answers 'Rate exceeded.'), still after 3 retries; "
        "try again later (the first 100 papers' pages are kept: the next fetch goes on from "
        "there)"
    ), line
    assert json.loads(papers(env, "list", "--json").stdout) == []
    assert [r.query["start"] for r in found.requests_to("/arxiv/query")] == ["0"] + ["100"] * 4
    found.log.clear()
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "150")
    assert done.returncode == 0 and "150 added" in done.stdout, done.stderr
    assert [r.query["start"] for r in found.requests_to("/arxiv/query")] == ["100"]


def test_rate_exceeded_without_retry_after_waits_longer_each_time_within_max_wait(
    services: tuple[Services, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ``Retry-After``: the pause grows (``THROTTLE_PAUSE``, twice it, …) but never past
    the options' ``max_wait``; every wait is told through ``notify``."""
    from storage.fetch import arxiv, web
    from storage.fetch.errors import ThrottledError
    from storage.fetch.request import WebOptions

    found, base = services
    found.arxiv_queries["cat:cs.LG"] = _entries(3)
    monkeypatch.setattr(web, "THROTTLE_PAUSE", 0.1)
    told: list[str] = []
    params = {"search_query": "cat:cs.LG", "max_results": "10"}
    found.faults.append(_rate_exceeded(200, times=2))
    with web.Web(WebOptions(max_wait=0.3, notify=told.append)) as client:
        feed = client.get_parsed(
            f"{base}/arxiv/query", params, arxiv._parse, throttled=arxiv._throttled
        )
    assert feed.entries == 3
    assert [t.split("; ")[1] for t in told] == [
        "waiting 0.1 s before trying again (1 of 3)",
        "waiting 0.2 s before trying again (2 of 3)",
    ]
    told.clear()
    found.faults.append(_rate_exceeded(503, times=4))
    with (
        web.Web(WebOptions(max_wait=0.3, notify=told.append)) as client,
        pytest.raises(
            ThrottledError, match=r"arXiv is throttling requests .*still after 3 retries; try again"
        ),
    ):
        client.get_parsed(f"{base}/arxiv/query", params, arxiv._parse, throttled=arxiv._throttled)
    assert [t.split("; ")[1].split(" before")[0] for t in told] == [
        "waiting 0.1 s", "waiting 0.2 s", "waiting 0.3 s",
    ]  # fmt: skip


def test_a_throttling_wait_longer_than_the_bound_says_arxiv_throttles(
    services: tuple[Services, str], env
) -> None:
    found, _ = services
    found.arxiv_queries["cat:cs.LG"] = _entries(3)
    found.faults.append(_rate_exceeded(503, wait="3600"))
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "3")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert (
        "arXiv is throttling requests (it answers 'Rate exceeded.'), and it asks to wait 60 min "
        "(Retry-After), longer than 2 min; try again later" in line
    ), line
