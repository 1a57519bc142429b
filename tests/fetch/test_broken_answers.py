"""Answers a fetch cannot read, from every source (OpenReview v2 and v1, Paper Copilot, arXiv):
an HTML page, JSON of another shape, a body cut short, a 200 with nothing in it. The user is
told in one line that the answer was not understood, naming the host and what was wrong, never
that the venue has no accepted papers (or that its records are bad); nothing is imported, and
the answer is not kept in the cache: the next fetch, once the server answers properly, brings
the papers without ``--refresh``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

ICLR25 = "ICLR.cc/2025/Conference"
ICLR22 = "ICLR.cc/2022/Conference"
#: A feed as arXiv's API never answers: no count of results (``opensearch:totalResults``).
NO_COUNT = b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>'


@dataclass(frozen=True)
class Broken:
    """A fetch (its words), the answer that breaks it (a fault of ``services.py``), and what
    its error line says was wrong."""

    words: tuple[str, ...]
    prefix: str
    kind: str
    body: bytes
    said: str


def _case(words: str, prefix: str, kind: str, body: bytes, said: str) -> Broken:
    return Broken(tuple(words.split()), prefix, kind, body, said)


_V2, _V1 = "iclr2025", f"openreview:{ICLR22}"
_PL, _ARXIV = "paperlists:iclr2025", "arxiv:cat:cs.LG --max 3"
_HTML = "an HTML page came where JSON was expected"
CASES = {
    "v2-html": _case(_V2, "/or2/notes", "html", b"", _HTML),
    "v2-notes-text": _case(
        _V2, "/or2/notes", "body", b'{"notes": "x"}', "to /notes was not understood: no list"
    ),
    "v2-notes-numbers": _case(
        _V2, "/or2/notes", "body", b'{"notes": [1, 2]}', "none of its 2 notes is a note"
    ),
    "v2-cut-short": _case(_V2, "/or2/notes", "body", b'{"notes": [{"id": "a"', "not valid JSON"),
    "v2-empty": _case(_V2, "/or2/notes", "body", b"", "empty where JSON was expected"),
    "v2-all-notes-numbers": _case(
        f"{_V2} --all", "/or2/notes", "body", b'{"notes": [1, 2]}', "none of its 2 notes"
    ),
    "v2-groups-numbers": _case(
        _V2, "/or2/groups", "body", b'{"groups": [1, 2]}', "to /groups was not understood"
    ),
    "v1-html": _case(_V1, "/or1/notes", "html", b"", _HTML),
    "v1-notes-text": _case(
        _V1, "/or1/notes", "body", b'{"notes": "x"}', "to /notes was not understood: no list"
    ),
    "v1-notes-numbers": _case(
        _V1, "/or1/notes", "body", b'{"notes": [1, 2]}', "none of its 2 notes is a note"
    ),
    "v1-cut-short": _case(_V1, "/or1/notes", "body", b'{"notes": [{"id": "a"', "not valid JSON"),
    "v1-empty": _case(_V1, "/or1/notes", "body", b"", "empty where JSON was expected"),
    "v1-groups-numbers": _case(
        _V1, "/or1/groups", "body", b'{"groups": [1, 2]}', "to /groups was not understood"
    ),
    "copilot-html": _case(_PL, "/pl/", "html", b"", _HTML),
    "copilot-object": _case(
        _PL, "/pl/", "body", b'{"notes": "x"}', "iclr2025.json is not a list of papers"
    ),
    "copilot-numbers": _case(
        _PL, "/pl/", "body", b"[1, 2]", "iclr2025.json holds no paper (2 entries"
    ),
    "copilot-wrapped-numbers": _case(
        _PL, "/pl/", "body", b'{"notes": [1, 2]}', "iclr2025.json holds no paper (2 entries"
    ),
    "copilot-cut-short": _case(_PL, "/pl/", "body", b'[{"title": "A', "not valid JSON"),
    "copilot-empty": _case(_PL, "/pl/", "body", b"", "empty where JSON was expected"),
    "arxiv-html": _case(
        _ARXIV, "/arxiv/query", "html", b"", "an HTML page came where an Atom feed was expected"
    ),
    "arxiv-json": _case(
        _ARXIV, "/arxiv/query", "body", b'{"notes": "x"}', """no Atom feed but '{"notes": "x"}'"""
    ),
    "arxiv-cut-short": _case(
        _ARXIV, "/arxiv/query", "body", NO_COUNT[:70], "not a well-formed Atom feed"
    ),
    "arxiv-empty": _case(
        _ARXIV, "/arxiv/query", "body", b"", "arXiv sent nothing for 'cat:cs.LG' (a blank answer"
    ),
    "arxiv-no-count": _case(_ARXIV, "/arxiv/query", "body", NO_COUNT, "no count of results"),
    "arxiv-ids-no-count": _case(
        "arxiv:2501.00001", "/arxiv/query", "body", NO_COUNT, "no count of results"
    ),
}


def _serve(found: Services) -> None:
    """Three papers from each source: what a fetch brings once the server answers again."""
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(3, seed=81, fate=""), ICLR25)
    found.v1[ICLR22] = shapes.v1_venue(shapes.made_up(3, seed=82, fate=""), ICLR22)
    made = shapes.made_up(3, seed=83, fate="")
    found.paperlists["iclr2025"] = [shapes.paperlists_record(m, "iclr", 2025) for m in made]
    entries = [
        shapes.atom_entry(f"2501.{i:05d}", f"Paper {i} On Sampling", "We sample well.", ["A Lee"])
        for i in range(1, 4)
    ]
    found.arxiv_queries["cat:cs.LG"] = entries
    found.arxiv_ids["2501.00001"] = entries[0]


def _listed(env: dict[str, str]) -> list[dict[str, Any]]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def _one_line(done: Any) -> str:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == "", done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert all("; waiting " in line for line in lines[:-1]), lines  # (waits are said first)
    return str(lines[-1])


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_an_answer_not_understood_is_said_so_and_not_kept(
    services: tuple[Services, str], env: dict[str, str], case: Broken
) -> None:
    found, base = services
    _serve(found)
    found.faults.append(Fault(case.prefix, case.kind, body=case.body, times=100))
    line = _one_line(papers(env, "fetch", *case.words))
    host = base.removeprefix("http://")
    assert line.startswith(f"papers: error: fetching {case.words[0]}: {host}: the answer"), line
    assert "was not understood: " in line and case.said in line, line
    assert "no accepted papers" not in line and "no papers" not in line, line
    assert _listed(env) == []
    found.faults.clear()
    done = papers(env, "fetch", *case.words)
    assert done.returncode == 0, done.stdout + done.stderr  # (the answer was not kept)
    assert len(_listed(env)) == (1 if "arxiv:2501.00001" in case.words else 3)


@pytest.mark.parametrize("body", [b'{"notes": "x"}', b'{"notes": [1, 2]}'], ids=["text", "numbers"])
def test_a_v1_venue_whose_probe_is_not_understood_is_not_a_venue_without_papers(
    services: tuple[Services, str], env: dict[str, str], body: bytes
) -> None:
    """A venue of v1 whose submissions are under ``…/-/Submission`` (not blind): the fetch
    first asks for one note of ``…/-/Blind_Submission``. That answer broken, the fetch took
    the blind submissions for the venue's, found none, and said "OpenReview has no accepted
    papers of ICLR.cc/2022/Conference yet (decisions may not be out: try --all)"."""
    found, base = services
    venue = shapes.v1_venue(shapes.made_up(3, seed=84, fate=""), ICLR22)
    for note in venue.notes:
        note["invitation"] = f"{ICLR22}/-/Submission"
    found.v1[ICLR22] = venue
    found.faults.append(Fault("/or1/notes", "body", body=body))  # the first: the probe
    line = _one_line(papers(env, "fetch", f"openreview:{ICLR22}"))
    host = base.removeprefix("http://")
    assert f"{host}: the answer to /notes was not understood" in line, line
    assert "no accepted papers" not in line, line
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    assert done.returncode == 0 and "3 added" in done.stdout, done.stdout + done.stderr
