"""An OpenReview answer that contradicts itself: a first page of notes that says how many
there are (``"count": 5``) and sends none (``"notes": []``): a paging or permission problem on
the server's side, not a venue without accepted papers. The user is told in one line naming
the host that the answer was inconsistent, nothing is imported, and the page is not kept in
the cache (the next fetch, once the server answers properly, brings the papers without
``--refresh``). API v2 and v1 alike, the v1 probe for blind submissions too. An empty page
after the first (the pages end before the count) keeps what came, with a warning
(``test_openreview.py``, ``test_empty_answers.py``)."""

from __future__ import annotations

import json

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

ICLR25 = "ICLR.cc/2025/Conference"
ICLR22 = "ICLR.cc/2022/Conference"
#: As OpenReview answers /notes: the notes and the count of them all.
COUNTS_FIVE_SENDS_NONE = b'{"notes": [], "count": 5}'

CASES = {
    # the fetch's words, the path answered so, how many requests pass before it
    "v2": (("iclr2025",), "/or2/notes", 0),
    "v2-all": (("iclr2025", "--all"), "/or2/notes", 0),
    "v2-reviews": (("iclr2025", "--reviews"), "/or2/notes", 0),
    "v1-probe": ((f"openreview:{ICLR22}",), "/or1/notes", 0),
    "v1-submissions": ((f"openreview:{ICLR22}",), "/or1/notes", 1),  # the probe passes
    "v1-all": ((f"openreview:{ICLR22}", "--all"), "/or1/notes", 1),
}


def _listed(env: dict[str, str]) -> list[dict[str, object]]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_first_page_that_counts_notes_and_sends_none_is_an_inconsistent_answer(
    services: tuple[Services, str], env: dict[str, str], case: tuple[tuple[str, ...], str, int]
) -> None:
    words, prefix, skip = case
    found, base = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(3, seed=91, fate=""), ICLR25)
    found.v1[ICLR22] = shapes.v1_venue(shapes.made_up(3, seed=92, fate=""), ICLR22)
    found.faults.append(Fault(prefix, "body", body=COUNTS_FIVE_SENDS_NONE, skip=skip, times=100))
    done = papers(env, "fetch", *words)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == "", done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    host = base.removeprefix("http://")
    assert line.startswith(f"papers: error: fetching {words[0]}: {host}: the answer"), line
    assert "to /notes was inconsistent: " in line and "counts 5 " in line, line
    assert "sends none" in line, line
    assert "no accepted papers" not in line and "no public submissions" not in line, line
    assert _listed(env) == []
    found.faults.clear()
    done = papers(env, "fetch", *words)  # (the answer was not kept: no --refresh needed)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 added" in done.stdout, done.stdout + done.stderr
