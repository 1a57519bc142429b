"""``papers fetch paperlists:…`` and ``papers fetch arxiv:…`` against the local stand-in, and
the arXiv Atom reader on a saved feed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

ICLR25 = "ICLR.cc/2025/Conference"


def _listed(env: dict[str, str]) -> list[dict]:
    return json.loads(papers(env, "list", "--json").stdout)


def _copilot(found: Services) -> list[shapes.Made]:
    made = shapes.made_up(3, fate="")
    made[0].ratings, made[0].confidences = [5, 6, 6, 6], [4, 3, 4, 4]
    made[0].tldr = "A short summary."
    made += shapes.made_up(2, seed=2) + shapes.made_up(1, seed=3, fate="Withdrawn_Submission")
    made += shapes.made_up(1, seed=4, fate="Desk_Rejected_Submission")
    found.paperlists["iclr2025"] = [shapes.paperlists_record(m, "iclr", 2025) for m in made]
    return made


def test_paper_copilot_list(services, env) -> None:
    found, _ = services
    made = _copilot(found)
    done = papers(env, "fetch", "paperlists:iclr2025")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout and "ICLR 2025 (Paper Copilot)" in done.stdout
    listed = {p["title"]: p for p in _listed(env)}
    first = listed[made[0].title]
    assert first["authors"] == made[0].authors
    assert first["extra"]["rating"] == 5.75 and first["extra"]["ratings"] == "5, 6, 6, 6"
    assert first["extra"]["confidence"] == 3.75 and first["extra"]["tldr"] == "A short summary."
    assert first["extra"]["affiliations"] == "MIT, Google, ETH Zurich"
    assert "area" not in first["extra"] or first["extra"]["area"] != "main"
    assert first["url"].startswith("https://openreview.net/forum?id=")
    # its PDF is the forum's pdf?id= (kept only when the page does not say it already)
    pdf = first["extra"].get("pdf") or first["url"].replace("/forum?", "/pdf?")
    assert pdf.startswith("https://openreview.net/pdf?id=")
    done = papers(env, "fetch", "paperlists:iclr2025", "--all")
    statuses = sorted(p["venue_status"] for p in _listed(env))
    assert statuses == sorted(["Poster"] * 3 + ["Rejected"] * 2 + ["Withdrawn", "Desk rejected"])
    assert [r.path for r in found.requests_to("/pl")] == ["/pl/iclr/iclr2025.json"]  # cached


def test_paper_copilot_area_is_openreview_s_words(services, env) -> None:
    """Paper Copilot writes a primary area as a slug (``generative_models``,
    ``applications_to_computer_vision,_audio,_language,_and_other_modalities``), OpenReview in
    words. The slug was kept: ``area:"generative models"`` found none of the list's papers,
    the pane said ``Area: generative_models``, and fetching the venue from the two sources in
    turn reported every paper updated each time, its area flipping."""
    found, _ = services
    made = shapes.made_up(3, fate="")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    records = [shapes.paperlists_record(m, "iclr", 2025) for m in made]
    records[1]["primary_area"] = (
        "applications_to_computer_vision,_audio,_language,_and_other_modalities"
    )
    found.v2[ICLR25].notes[1]["content"]["primary_area"] = {
        "value": "applications to computer vision, audio, language, and other modalities"
    }
    found.paperlists["iclr2025"] = records
    assert papers(env, "fetch", "paperlists:iclr2025").returncode == 0
    areas = sorted(p["extra"]["area"] for p in _listed(env))
    assert areas == [
        "applications to computer vision, audio, language, and other modalities",
        "generative models",
        "generative models",
    ]
    hits = papers(env, "search", 'area:"generative models"').stdout.splitlines()
    assert len(hits) == 2
    assert papers(env, "fetch", "iclr2025").returncode == 0
    again = papers(env, "fetch", "paperlists:iclr2025")
    assert "0 added, 0 updated, 3 skipped (unchanged)" in again.stdout, again.stdout


def test_paper_copilot_list_that_does_not_exist(services, env) -> None:
    done = papers(env, "fetch", "paperlists:iclr2031")
    assert done.returncode == 1
    assert (
        "no list iclr2031 on Paper Copilot (127.0.0.1" in done.stderr and "HTTP 404" in done.stderr
    )


def test_paper_copilot_names_neurips_lists_nips(services, env) -> None:
    """Paper Copilot files NeurIPS's lists as ``nips/nips2024.json``: ``paperlists:neurips2024``
    asks for that one, and is the same source as ``paperlists:nips2024``; a list it does not
    have says the name it was asked under and the short name OpenReview may know."""
    found, _ = services
    made = shapes.made_up(2, fate="", seed=8)
    found.paperlists["nips2024"] = [shapes.paperlists_record(m, "nips", 2024) for m in made]
    done = papers(env, "fetch", "paperlists:neurips2024")
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout and "NeurIPS 2024 (Paper Copilot)" in done.stdout
    done = papers(env, "fetch", "paperlists:nips2024")
    assert done.returncode == 0 and "0 added" in done.stdout, done.stdout + done.stderr
    assert [r.path for r in found.requests_to("/pl")] == ["/pl/nips/nips2024.json"]  # cached
    done = papers(env, "fetch", "paperlists:neurips2030")
    assert done.returncode == 1
    assert "no list nips2030 on Paper Copilot (its name for neurips2030; " in done.stderr
    assert "/nips/nips2030.json)" in done.stderr
    assert "OpenReview may have it: papers fetch neurips2030" in done.stderr
    done = papers(env, "fetch", "paperlists:cvpr2031")
    assert done.returncode == 1 and "no list cvpr2031" in done.stderr
    assert "OpenReview" not in done.stderr and "its name" not in done.stderr
    # a conference whose folder has a digit (3DV's): "not a list name" before
    other = shapes.made_up(2, fate="", seed=10)
    found.paperlists["3dv2025"] = [shapes.paperlists_record(m, "3dv", 2025) for m in other]
    done = papers(env, "fetch", "paperlists:3dv2025")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    assert "/pl/3dv/3dv2025.json" in [r.path for r in found.requests_to("/pl")]


def test_paper_copilot_records_with_only_an_openreview_id_link_to_its_forum(services, env) -> None:
    """Paper Copilot's ICLR 2023 and CoRL 2024 records give the OpenReview id as ``id`` and no
    ``site``, ``openreview`` or ``pdf``: the forum is the paper's link (its PDF the forum's).
    Its ids for papers not on OpenReview (``site_b8ebd99ee4``, CVPR's, NeurIPS 2019's) make
    none, nor does an id of a venue OpenReview does not hold."""
    found, _ = services
    lists = {
        "iclr2023": shapes.made_up(2, seed=9, fate=""),
        "corl2024": shapes.made_up(1, seed=10, fate=""),
    }
    lists |= {
        "nips2019": shapes.made_up(1, seed=11, fate=""),
        "cvpr2025": shapes.made_up(2, seed=12, fate=""),
    }
    for name, made in lists.items():
        records = [shapes.paperlists_record(m, name[:-4], int(name[-4:])) for m in made]
        for record in records:
            del record["site"], record["openreview"], record["pdf"]
        found.paperlists[name] = records
    found.paperlists["nips2019"][0].update(
        id="site_909d9fddd4", site="http://127.0.0.1:9/virtual/2019/poster/13959"
    )
    found.paperlists["cvpr2025"][0]["id"] = "site_b8ebd99ee4"
    for name in lists:
        done = papers(env, "fetch", f"paperlists:{name}")
        assert done.returncode == 0, done.stderr
    urls = {p["title"]: p["url"] for p in _listed(env)}
    for name in ("iclr2023", "corl2024"):
        for paper, record in zip(lists[name], found.paperlists[name], strict=True):
            assert urls[paper.title] == f"https://openreview.net/forum?id={record['id']}"
    assert urls[lists["nips2019"][0].title] == "http://127.0.0.1:9/virtual/2019/poster/13959"
    assert not any(urls[paper.title] for paper in lists["cvpr2025"])


def test_paper_copilot_placeholders_for_papers_nobody_reviewed_are_no_rating(services, env) -> None:
    """Paper Copilot writes ``"rating": ""`` with ``"rating_avg": -1`` (ICLR 2023), or an
    average of 0 (COLM 2024), for a paper without reviews: no rating, not a rating of -1."""
    found, _ = services
    made = shapes.made_up(3, fate="", seed=5)
    records = [shapes.paperlists_record(m, "iclr", 2023) for m in made]
    records[0].update(rating="", confidence="", rating_avg=-1, confidence_avg=-1)
    records[1].update(rating="", confidence="", rating_avg=0)
    records[2].update(rating="-1;-1", confidence="", rating_avg=6.5)
    more = shapes.made_up(3, fate="", seed=6)
    made += more
    records += [shapes.paperlists_record(m, "iclr", 2023) for m in more]
    # a lone -1 (no average), "0;0", a confidence of -1s: each paper kept, with no score
    records[3].update(rating="-1", confidence="-1", rating_avg=[0, 0])
    records[4].update(rating="0;0", confidence="0;0", rating_avg=[0, 0])
    records[5].update(rating="", confidence="-1;-1", rating_avg=-1)
    # the reviews' other scores: "presentation" is no venue status
    records[3].update(status="", presentation="3;3;2", soundness="2;3;3")
    found.paperlists["iclr2023"] = records
    done = papers(env, "fetch", "paperlists:iclr2023")
    assert done.returncode == 0, done.stderr
    listed = {p["title"]: p for p in _listed(env)}
    assert len(listed) == 6, done.stdout
    assert listed[made[3].title]["venue_status"] == ""
    for paper in made[:2] + made[3:]:
        assert "rating" not in listed[paper.title]["extra"]
        assert "confidence" not in listed[paper.title]["extra"]
    assert listed[made[2].title]["extra"]["rating"] == 6.5  # the average, its scores missing
    assert "ratings" not in listed[made[2].title]["extra"]
    hits = papers(env, "search", "rating:<1", "--json")
    assert json.loads(hits.stdout) == []


def test_an_arxiv_page_that_stays_empty_keeps_what_came_and_says_what_did_not(
    services, env
) -> None:
    found, _ = services
    query = "cat:cs.LG"
    found.arxiv_queries[query] = _entries(250)
    empty = shapes.atom_feed([], total=250, start=100, per_page=100).encode()
    found.faults.append(
        Fault(
            "/arxiv/query",
            "body",
            body=empty,
            headers={"Content-Type": "application/atom+xml"},
            skip=1,
            times=3,
        )
    )
    done = papers(env, "fetch", f"arxiv:{query}", "--max", "250")
    assert done.returncode == 0, done.stderr
    assert "100 added" in done.stdout, done.stdout
    assert (
        "warning: arXiv sent no papers past the first 100 of 250 (an empty page, 3 times): "
        "fetch again later for the rest" in done.stderr
    ), done.stderr
    starts = [r.query["start"] for r in found.requests_to("/arxiv/query")]
    assert starts == ["0", "100", "100", "100"]


def test_an_empty_page_that_counts_no_papers_does_not_end_the_query(services, env) -> None:
    """arXiv's empty-page glitch mid-query may say ``totalResults`` 0: the first page counted
    250, so the page is asked again, not taken for the end (which kept 100 of 250 papers
    without a word); still empty, the warning says how many of how many came."""
    found, _ = services
    found.arxiv_queries["cat:cs.LG"] = _entries(250)
    empty = shapes.atom_feed([], total=0, start=100, per_page=100).encode()
    atom = {"Content-Type": "application/atom+xml"}
    found.faults.append(Fault("/arxiv/query", "body", body=empty, headers=atom, skip=1))
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "250")
    assert done.returncode == 0, done.stderr
    assert "250 added" in done.stdout, done.stdout + done.stderr
    starts = [r.query["start"] for r in found.requests_to("/arxiv/query")]
    assert starts == ["0", "100", "100", "200"]
    found.log.clear()
    found.faults.append(Fault("/arxiv/query", "body", body=empty, headers=atom, skip=1, times=3))
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "250", "--refresh")
    assert done.returncode == 0, done.stderr
    assert (
        "warning: arXiv sent no papers past the first 100 of 250 (an empty page, 3 times)"
        in done.stderr
    ), done.stderr


def _entries(n: int, seed: str = "q") -> list[str]:
    return [
        shapes.atom_entry(
            f"2501.{i:05d}", f"Paper {seed} {i} on diffusion",
            f"We study diffusion number {i} of {seed} and show that it works well in practice.",
            [f"Ann {i}", "Bob Lee"], ("cs.CV", "cs.LG"),
            comment=f"10 pages; code at https://github.com/ann/diffusion-{i}" if i == 0 else "",
            doi="10.1000/xyz" if i == 1 else "",
        )
        for i in range(n)
    ]  # fmt: skip


def test_arxiv_query_pages_spaced_three_seconds(services, env) -> None:
    found, _ = services
    found.arxiv_queries["ti:diffusion AND cat:cs.CV"] = _entries(150)
    done = papers(env, "fetch", "arxiv:ti:diffusion AND cat:cs.CV", "--max", "130")
    assert done.returncode == 0, done.stderr
    assert "130 added" in done.stdout and "arXiv: ti:diffusion AND cat:cs.CV" in done.stdout
    asked = found.requests_to("/arxiv/query")
    assert [(r.query["start"], r.query["max_results"]) for r in asked] == [
        ("0", "100"),
        ("100", "30"),
    ]
    assert asked[1].at - asked[0].at >= 2.95
    assert asked[0].query["sortBy"] == "submittedDate"
    listed = {p["title"]: p for p in _listed(env)}
    first = listed["Paper q 0 on diffusion"]
    assert first["url"] == "https://arxiv.org/abs/2501.00000"
    assert first["extra"]["pdf"] == "https://arxiv.org/pdf/2501.00000v1"
    assert first["extra"]["date"] == "2025-01-02" and first["extra"]["primaryclass"] == "cs.CV"
    assert first["keywords"] == ["cs.CV", "cs.LG"] and first["authors"] == ["Ann 0", "Bob Lee"]
    assert first["github"] == ["https://github.com/ann/diffusion-0"]
    assert listed["Paper q 1 on diffusion"]["extra"]["doi"] == "10.1000/xyz"
    again = papers(env, "fetch", "arxiv:ti:diffusion AND cat:cs.CV", "--max", "130")
    assert "0 requests" in again.stderr and len(found.requests_to("/arxiv/query")) == 2


def test_arxiv_ids(services, env) -> None:
    found, _ = services
    for entry, arxiv_id in zip(_entries(2, "ids"), ("2501.01234", "2406.00001"), strict=True):
        found.arxiv_ids[arxiv_id] = entry
    done = papers(env, "fetch", "arxiv:2501.01234", "2406.00001v2")
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout
    [asked] = found.requests_to("/arxiv/query")
    assert asked.query["id_list"] == "2501.01234,2406.00001v2"


def test_arxiv_error_feed_and_429(services, env) -> None:
    found, _ = services
    found.faults.append(Fault("/arxiv/query", "status", status=429, headers={"Retry-After": "1"}))
    found.faults.append(
        Fault(
            "/arxiv/query", "body", body=shapes.atom_error("incorrect id format for 1234").encode()
        )
    )
    done = papers(env, "fetch", "arxiv:id:1234")
    assert done.returncode == 1
    assert "waiting 1 s as it asks" in done.stderr
    assert (
        "arXiv answered with an error: incorrect id format for 1234" in done.stderr.splitlines()[-1]
    )


def test_an_atom_feed_saved_to_a_file_is_imported_as_papers(env, tmp_path: Path) -> None:
    feed = tmp_path / "export.xml"
    feed.write_text(shapes.atom_feed(_entries(3, "saved"), total=3))
    done = papers(env, "import", str(feed))
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout
    titles = sorted(p["title"] for p in _listed(env))
    assert titles == [f"Paper saved {i} on diffusion" for i in range(3)]


def test_an_empty_first_arxiv_page_is_asked_again_and_never_kept(
    services, env, tmp_path: Path
) -> None:
    """arXiv's glitch on the first page: ``totalResults`` 230 and no entry. It is asked again
    like any other empty page; still empty, the error says arXiv counted papers it did not
    send, and nothing is cached, so the next fetch asks again instead of failing for a day."""
    found, _ = services
    query = "cat:cs.LG"
    found.arxiv_queries[query] = _entries(230)
    empty = shapes.atom_feed([], total=230, start=0, per_page=100).encode()
    atom = {"Content-Type": "application/atom+xml"}
    found.faults.append(Fault("/arxiv/query", "body", body=empty, headers=atom, times=3))
    done = papers(env, "fetch", f"arxiv:{query}", "--max", "100")
    assert done.returncode == 1, done.stdout
    assert (
        "arXiv counts 230 papers for 'cat:cs.LG' but sent none (an empty page, 3 times): "
        "fetch again later" in done.stderr
    ), done.stderr
    assert [r.query["start"] for r in found.requests_to("/arxiv/query")] == ["0", "0", "0"]
    assert not list((tmp_path / "home" / "fetched").glob("*.page"))
    found.log.clear()
    done = papers(env, "fetch", f"arxiv:{query}", "--max", "100")  # the same day
    assert done.returncode == 0 and "100 added" in done.stdout, done.stderr
    assert len(found.requests_to("/arxiv/query")) == 1
    found.log.clear()
    found.faults.append(Fault("/arxiv/query", "body", body=empty, headers=atom, times=1))
    done = papers(env, "fetch", f"arxiv:{query}", "--max", "100", "--refresh")
    assert done.returncode == 0 and "100 skipped" in done.stdout, done.stdout + done.stderr
    assert [r.query["start"] for r in found.requests_to("/arxiv/query")] == ["0", "0"]


def test_an_empty_page_an_older_version_cached_is_asked_again(services, tmp_path: Path) -> None:
    """A page that holds nothing, found in the cache (kept before empty pages were refused),
    is not believed: it is asked of the service, and not counted as read from the cache."""
    from storage.fetch.arxiv import _holds_entries, _parse
    from storage.fetch.pages import cache_in
    from storage.fetch.request import WebOptions
    from storage.fetch.web import Web, full_url

    found, base = services
    found.arxiv_queries["cat:cs.LG"] = _entries(3)
    url, params = f"{base}/arxiv/query", {"search_query": "cat:cs.LG", "max_results": "10"}
    cache = cache_in(tmp_path)
    cache.put(full_url(url, params), shapes.atom_feed([], total=3).encode())
    with Web(WebOptions(), cache) as web:
        feed = web.get_parsed(url, params, _parse, keep=_holds_entries)
    assert feed.entries == 3 and len(found.requests_to("/arxiv/query")) == 1
    assert cache.hits == 0


def test_a_paper_copilot_list_without_accepted_papers_says_it_came_from_the_cache(
    services, env
) -> None:
    """During the reviews Paper Copilot's list holds only active submissions. Fetched again the
    same day, the answer is the cached file's: the error says so, and how to ask again."""
    found, _ = services
    records = [
        shapes.paperlists_record(m, "iclr", 2026) for m in shapes.made_up(2, seed=9, fate="")
    ]
    for record in records:
        record["status"] = "Active"
    found.paperlists["iclr2026"] = records
    first = papers(env, "fetch", "paperlists:iclr2026")
    assert first.returncode == 1 and "holds no accepted papers (try --all)" in first.stderr
    again = papers(env, "fetch", "paperlists:iclr2026")
    assert again.returncode == 1
    assert (
        "holds no accepted papers in today's cached copy (--refresh downloads it again) "
        "(try --all)" in again.stderr
    ), again.stderr


def test_a_paper_copilot_list_without_papers_fetched_with_all_does_not_say_try_all(
    services, env
) -> None:
    """An empty list fetched with ``--all`` said "holds no accepted papers (try --all)": it
    holds no paper at all, which is what is said now; without ``--all`` the hint stays."""
    found, _ = services
    found.paperlists["iclr2025"] = []
    done = papers(env, "fetch", "paperlists:iclr2025", "--all")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().endswith("Paper Copilot's iclr2025 holds no papers"), done.stderr
    done = papers(env, "fetch", "paperlists:iclr2025")
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().endswith("holds no accepted papers (try --all)"), done.stderr
