"""Field shapes of the real services not tried elsewhere: ICLR 2026's review scale, whose
lowest rating is 0 (a score, not Paper Copilot's placeholder for none); a note of API v2 whose
authors and PDF the reader may not see (v2 leaves such fields out of ``content``); arXiv's
answer pretty-printed, its ids and links over https (as its API has written them since 2025)."""

from __future__ import annotations

import json

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services

ICLR26 = "ICLR.cc/2026/Conference"


def _listed(env: dict[str, str]) -> dict[str, dict]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p for p in json.loads(done.stdout)}


def test_a_rating_of_zero_is_a_rating(services: tuple[Services, str], env) -> None:
    """ICLR 2026 rates 0, 2, 4, 6, 8, 10 (``{"value": 0}``): the 0 is in the ratings and
    their mean, and its review's confidence in theirs."""
    found, _ = services
    made = shapes.made_up(1, seed=131, fate="")
    made[0].ratings, made[0].confidences = [0, 2, 4], [5, 3, 4]
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026", "--reviews")
    assert done.returncode == 0, done.stderr
    extra = _listed(env)[made[0].title]["extra"]
    assert extra["ratings"] == "0, 2, 4" and extra["rating"] == 2.0, extra
    assert extra["confidence"] == 4.0, extra
    hits = json.loads(papers(env, "search", "rating:<3", "--json").stdout)
    assert [h["title"] for h in hits] == [made[0].title]


def test_a_v2_note_without_its_hidden_authors_and_pdf_still_comes(
    services: tuple[Services, str], env
) -> None:
    """``--all``: a withdrawn note whose ``authors``, ``authorids`` and ``pdf`` are not in
    its content (hidden from the reader) is imported, Withdrawn, with no author and no PDF
    link; the accepted one beside it has its title, authors, status and PDF link."""
    found, _ = services
    made = shapes.made_up(1, seed=132, fate="")
    made += shapes.made_up(1, seed=133, fate="Withdrawn_Submission")
    venue = shapes.v2_venue(made, ICLR26)
    hidden = venue.notes[1]["content"]
    for key in ("authors", "authorids", "pdf"):
        del hidden[key]
    hidden["venue"] = {"value": "ICLR 2026 Conference Withdrawn Submission"}
    found.v2[ICLR26] = venue
    done = papers(env, "fetch", "iclr2026", "--all")
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout, done.stdout
    listed = _listed(env)
    accepted, withdrawn = (listed[m.title] for m in made)
    assert accepted["authors"] == made[0].authors and accepted["venue_status"] == "Poster"
    assert accepted["extra"]["pdf"].endswith(".pdf"), accepted
    assert withdrawn["venue_status"] == "Withdrawn" and withdrawn["authors"] == []
    assert "pdf" not in withdrawn["extra"] and withdrawn["url"].endswith(venue.notes[1]["id"])


def test_an_arxiv_feed_pretty_printed_with_https_ids(services: tuple[Services, str], env) -> None:
    """An entry indented over several lines (its title and abstract broken across them), its
    id, page and PDF over https, its primary category without a scheme: the paper's id,
    page, PDF link, title, abstract and authors are read as from the compact form."""
    found, _ = services
    entry = """<entry>
    <id>https://arxiv.org/abs/2501.01234v2</id>
    <title>A Study of
      Things</title>
    <updated>2025-01-05T10:00:00Z</updated>
    <link href="https://arxiv.org/abs/2501.01234v2" rel="alternate" type="text/html"/>
    <link href="https://arxiv.org/pdf/2501.01234v2" rel="related" type="application/pdf"
      title="pdf"/>
    <summary>  We study things in
  depth, and show results that matter for many tasks in practice.
</summary>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <published>2025-01-02T18:59:59Z</published>
    <arxiv:primary_category term="cs.LG"/>
    <author>
      <name>Ann Lee</name>
    </author>
    <author>
      <name>Bo Park</name>
    </author>
  </entry>"""
    found.arxiv_ids["2501.01234"] = entry
    done = papers(env, "fetch", "arxiv:2501.01234")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout and "warning" not in done.stderr, done.stdout + done.stderr
    [paper] = _listed(env).values()
    assert paper["title"] == "A Study of Things" and paper["authors"] == ["Ann Lee", "Bo Park"]
    assert paper["abstract"].startswith("We study things in depth, and show"), paper
    assert paper["url"] == "https://arxiv.org/abs/2501.01234"
    assert paper["extra"]["pdf"] == "https://arxiv.org/pdf/2501.01234v2"
    assert paper["extra"]["primaryclass"] == "cs.LG" and paper["extra"]["date"] == "2025-01-02"
