"""``papers fetch`` against answers in the shapes the real services were seen to write, as public
repositories and issue threads show them (each test names where): Paper Copilot's records of
papers sent to a workshop or whose authors are hidden, arXiv's answer to ids it does not have."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

SHAPES = Path(__file__).resolve().parents[1] / "fixtures" / "fetched_shapes"


def _listed(env: dict[str, str]) -> dict[str, dict]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p for p in json.loads(done.stdout)}


def _iclr2018(found: Services) -> None:
    """Paper Copilot's ICLR 2018 list: four records of papercopilot/paperlists
    ``iclr/iclr2018.json`` (``fixtures/fetched_shapes``)."""
    found.paperlists["iclr2018"] = json.loads((SHAPES / "paper_copilot_iclr2018.json").read_text())


def test_a_paper_copilot_workshop_paper_is_not_accepted(services, env) -> None:
    """Paper Copilot says "Workshop" for a paper ICLR 2018 invited to its workshop track (its
    decision "Invite to Workshop Track"): no accepted paper, as OpenReview's fetch of ICLR
    2018 reads that decision. It comes with ``--all``, as "Workshop"."""
    found, _ = services
    _iclr2018(found)
    done = papers(env, "fetch", "paperlists:iclr2018")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout, done.stdout
    [poster] = _listed(env).values()
    assert poster["venue_status"] == "Poster"
    assert poster["authors"] == ["Yan Zhang", "Jonathon Hare", "Adam Prugel-Bennett"]
    assert poster["github"] == ["https://github.com/Cyanogenoid/vqa-counting"]
    done = papers(env, "fetch", "paperlists:iclr2018", "--all")
    assert done.returncode == 0, done.stderr
    listed = _listed(env)
    assert listed["No Spurious Local Minima in a Two Hidden Unit ReLU Network"]["venue_status"] == (
        "Workshop"
    )
    active = listed["THINK VISUALLY: QUESTION ANSWERING THROUGH VIRTUAL IMAGERY"]
    assert active["venue_status"] == "Under review"


def test_a_paper_copilot_record_by_anonymous_has_no_authors(services, env) -> None:
    """Paper Copilot writes "Anonymous" as the ``author`` of a rejected ICLR 2018 paper whose
    authors were never revealed: no person (OpenReview's fetch leaves out its "Anonymous" as
    well), who would otherwise be cited, searched and merged as one."""
    found, _ = services
    _iclr2018(found)
    done = papers(env, "fetch", "paperlists:iclr2018", "--all")
    assert done.returncode == 0, done.stderr
    rejected = _listed(env)["Training Autoencoders by Alternating Minimization"]
    assert rejected["venue_status"] == "Rejected" and rejected["authors"] == []
    assert rejected["extra"]["ratings"] == "4, 6, 7"
    hits = papers(env, "search", "anonymous", "--json")
    assert json.loads(hits.stdout) == [], hits.stdout


def test_paper_copilot_s_own_names_of_a_presentation_are_openreview_s_words(services, env) -> None:
    """Paper Copilot names ICLR 2023's notable papers "Top-5%" and "Top-25%" and ICLR 2020's
    talks "Talk" (papercopilot/paperbot ``settings/iclr.json``, its ``tname``), decisions
    OpenReview's fetch reads as Oral and Spotlight: a paper was "Top-5%" from one source and
    "Oral" from the other, ``status:oral`` missed it, and fetching both said the decisions
    differ. Now both sources say Oral, Spotlight, and with ``--all`` Rejected, Withdrawn and
    Desk rejected for the others, whichever is fetched first."""
    found, _ = services
    made = shapes.made_up(3, seed=91, fate="")
    for paper, word in zip(made, ("notable-top-5%", "notable-top-25%", "poster"), strict=True):
        paper.decision, paper.presentation = f"Accept: {word}", word.replace("-", " ")
    made += [
        shapes.made_up(1, seed=92 + i, fate=fate)[0]
        for i, fate in enumerate(
            ("Rejected_Submission", "Withdrawn_Submission", "Desk_Rejected_Submission")
        )
    ]
    records = [shapes.paperlists_record(m, "iclr", 2023) for m in made]
    for record, word in zip(records, ("Top-5%", "Top-25%", "Poster"), strict=False):
        record["status"] = word
    assert [r["status"] for r in records[3:]] == ["Reject", "Withdraw", "Desk Reject"]
    found.paperlists["iclr2023"] = records
    talk = shapes.paperlists_record(shapes.made_up(1, seed=96, fate="")[0], "iclr", 2020)
    talk["status"] = "Talk"
    found.paperlists["iclr2020"] = [talk]
    found.v1["ICLR.cc/2023/Conference"] = shapes.v1_venue(made, "ICLR.cc/2023/Conference")
    done = papers(env, "fetch", "paperlists:iclr2023", "paperlists:iclr2020", "--all")
    assert done.returncode == 0, done.stderr
    said = ["Oral", "Spotlight", "Poster", "Rejected", "Withdrawn", "Desk rejected"]
    listed = _listed(env)
    assert [listed[m.title]["venue_status"] for m in made] == said
    assert listed[talk["title"]]["venue_status"] == "Oral"
    assert papers(env, "fetch", "iclr2023", "--all").returncode == 0
    done = papers(env, "fetch", "paperlists:iclr2023", "--all")
    assert done.returncode == 0, done.stderr
    assert "OpenReview's kept" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert [_listed(env)[m.title]["venue_status"] for m in made] == said


def test_paper_copilot_s_escaped_affiliations_are_read_whole(services, env) -> None:
    """Paper Copilot's CVPR 2024 list (papercopilot/paperlists ``cvpr/cvpr2024.json``, its
    record of "3D Geometry-Aware Deformable Gaussian Splatting for Dynamic View Synthesis")
    writes an ``aff`` with an HTML entity escaped twice over, ``Xi&amp;amp;#x27;an``: split on
    its ``;``, "Xi'an" became four affiliations ("Xi&amp", "amp", "#x27", "an"). Now the
    entity is read first (its addresses here are the stand-in's, not the list's)."""
    found, _ = services
    found.paperlists["cvpr2024"] = [
        {
            "title": "3D Geometry-Aware Deformable Gaussian Splatting for Dynamic View Synthesis",
            "status": "Poster",
            "site": "http://127.0.0.1:9/virtual/2024/poster/31693",
            "project": "",
            "github": "",
            "pdf": "http://127.0.0.1:9/content/CVPR2024/papers/Lu_CVPR_2024_paper.pdf",
            "youtube": "",
            "author": "Zhicheng Lu, xiang guo, Le Hui, Tianrui Chen",
            "aff": "Northwest Polytechnical University Xi'an; Northwest Polytechnical University "
            "Xi&amp;amp;#x27;an; Northwestern Polytechnical University; Nanjing University Of "
            "Science And Technology",
            "oa": "http://127.0.0.1:9/content/CVPR2024/html/Lu_CVPR_2024_paper.html",
            "arxiv": "2404.06270",
        }
    ]
    done = papers(env, "fetch", "paperlists:cvpr2024")
    assert done.returncode == 0 and "1 added" in done.stdout, done.stdout + done.stderr
    [paper] = _listed(env).values()
    assert paper["extra"]["affiliations"] == (
        "Northwest Polytechnical University Xi'an, Northwestern Polytechnical University, "
        "Nanjing University Of Science And Technology"
    ), paper["extra"]


def test_paper_copilot_s_escaped_author_names_are_read_whole(services, env) -> None:
    """An author's name in a Paper Copilot list may carry an HTML entity escaped twice over, as
    its affiliations do (CVPR 2024's ``Xi&amp;amp;#x27;an``): split on the ``;`` of
    ``&amp;amp;#x27;``, "Sean O'Brien" was three authors ("Sean O&amp", "#x27", "Brien"), in a
    list joined by commas (CVPR's) or by ``;`` (ICLR's). The names are now read first (the
    addresses here are the stand-in's)."""
    found, _ = services
    found.paperlists["cvpr2024"] = [
        {
            "title": f"Escaped Names In A {kind} List",
            "status": "Poster",
            "site": "http://127.0.0.1:9/virtual/2024/poster/1",
            "pdf": "http://127.0.0.1:9/content/CVPR2024/papers/x.pdf",
            "author": joined.join(["Ann Lee", "Sean O&amp;amp;#x27;Brien", "Bo Park"]),
            "aff": "University of Cork",
        }
        for kind, joined in (("Comma", ", "), ("Semicolon", ";"))
    ]
    done = papers(env, "fetch", "paperlists:cvpr2024")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    assert [p["authors"] for p in _listed(env).values()] == [
        ["Ann Lee", "Sean O'Brien", "Bo Park"]
    ] * 2


def test_paper_copilot_s_withdrawn_records_come_with_all_each_with_its_status(
    services, env
) -> None:
    """Paper Copilot's ICLR 2025 shape (``fixtures/real_shapes/paper_copilot_iclr2025.json``):
    two withdrawn submissions written "Withdraw", each titled "Withdrawn", by "Anonymous",
    with no abstract. Without ``--all`` neither comes; with it both do, apart (a title that
    says there is none makes no two records one paper), Withdrawn, with no author."""
    found, _ = services
    real = Path(__file__).resolve().parents[1] / "fixtures" / "real_shapes"
    found.paperlists["iclr2025"] = json.loads((real / "paper_copilot_iclr2025.json").read_text())
    done = papers(env, "fetch", "paperlists:iclr2025")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    done = papers(env, "fetch", "paperlists:iclr2025", "--all")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    listed = json.loads(papers(env, "list", "--json").stdout)
    gone = [p for p in listed if p["title"] == "Withdrawn"]
    assert [p["venue_status"] for p in gone] == ["Withdrawn", "Withdrawn"], listed
    assert len({p["url"] for p in gone}) == 2 and all(p["authors"] == [] for p in gone)
    assert sorted(p["venue_status"] for p in listed if p not in gone) == ["Oral", "Poster"]


def _arxiv_paper(found: Services, arxiv_id: str) -> None:
    found.arxiv_ids[arxiv_id] = shapes.atom_entry(
        arxiv_id, "Attention Is Enough", "We show that attention is enough for this task.",
        ["Ann Lee"],
    )  # fmt: skip


def test_an_arxiv_id_it_does_not_have_is_named(services, env) -> None:
    """arXiv answers ``id_list=1201.56789`` (an id of the right form that names no paper) with
    ``totalResults`` 1 and no entry (autobib/autobib#183): the paper is not there, which the
    fetch says, rather than that arXiv "counts 1 papers but sent none: fetch again later". An
    answer without a paper is asked again twice, as arXiv's empty page is."""
    found, _ = services
    done = papers(env, "fetch", "arxiv:1201.56789")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line == "papers: error: fetching arxiv:1201.56789: arXiv has no paper 1201.56789", line
    assert len(found.requests_to("/arxiv/query")) == 3
    assert _listed(env) == {}


def test_an_arxiv_id_list_with_an_id_it_does_not_have_keeps_the_others(services, env) -> None:
    """arXiv counts the ids asked, not the papers it has: ``0000.0000,1707.08567`` says
    ``totalResults`` 2 and brings one entry, and its page at ``start=1`` is 1707.08567 again
    (lukasschwab/arxiv.py#82). One request brings the list; the paper is imported once and
    the id arXiv does not have is named in a warning."""
    found, _ = services
    _arxiv_paper(found, "1707.08567")
    done = papers(env, "fetch", "arxiv:0000.0000", "1707.08567")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout and "(1 record read)" in done.stdout, done.stdout
    assert "warning: arXiv has no paper 0000.0000 (the others are imported)" in done.stderr
    [asked] = found.requests_to("/arxiv/query")
    assert asked.query["id_list"] == "0000.0000,1707.08567", asked.query
    [paper] = _listed(env).values()
    assert paper["url"] == "https://arxiv.org/abs/1707.08567"


def test_an_old_arxiv_id_with_its_subject_class_is_the_paper_arxiv_sends(services, env) -> None:
    """An old-style id may name its subject class (``math.GT/0309136``, as papers cite it);
    arXiv's own id of the paper has none (``math/0309136``: arXiv's "identifier for services"
    page writes ``math.CA/0611800v2`` as ``arXiv:math/0611800v2``, and arXiv/arxiv-browse's
    ``Identifier`` keeps the archive alone), and that is the id its entry comes with. The
    paper came, and was named missing all the same ("warning: arXiv has no paper
    math.GT/0309136"). Both ids are one paper now, and one asked twice so is asked once."""
    found, _ = services
    _arxiv_paper(found, "math/0309136")
    done = papers(env, "fetch", "arxiv:math.GT/0309136")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout and "warning" not in done.stderr, done.stdout + done.stderr
    done = papers(env, "fetch", "math.GT/0309136v1", "math/0309136", "--refresh")
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    [asked] = found.requests_to("/arxiv/query")[1:]
    assert asked.query["id_list"] == "math.GT/0309136v1", asked.query
    [paper] = _listed(env).values()
    assert paper["url"] == "https://arxiv.org/abs/math/0309136"


def test_a_paper_linked_to_its_arxiv_page_with_the_subject_class_is_the_one_fetched(
    services, env, tmp_path: Path
) -> None:
    """A list links a paper to its arXiv page as the paper cites itself, its eprint
    ``math.GT/0309136`` (arXiv serves that page), with the abstract of an earlier
    version; the fetch of ``math/0309136`` brings the revised one. The page is the paper's
    for good (``page_key``), and the fetch is merged into it: it was a second paper, told
    apart by the subject class."""
    found, _ = services
    _arxiv_paper(found, "math/0309136")
    listed = tmp_path / "cited.json"
    earlier = {
        "title": "Attention Is Enough",
        "abstract": "An earlier abstract: we argue that attention may be enough for the task.",
        "eprint": "math.GT/0309136",  # its page: arXiv's abstract page of that id
    }
    listed.write_text(json.dumps([earlier]))
    done = papers(env, "import", str(listed))
    assert done.returncode == 0 and "1 added" in done.stdout, done.stdout + done.stderr
    done = papers(env, "fetch", "arxiv:math/0309136")
    assert done.returncode == 0, done.stderr
    assert "0 added" in done.stdout and "1 merged" in done.stdout, done.stdout
    assert "the same page (its abstract revised)" in done.stdout, done.stdout
    [paper] = _listed(env).values()
    assert paper["abstract"] == "We show that attention is enough for this task."


def _blank(times: int) -> Fault:
    """arXiv's blank answer: a 200 whose body holds no feed (ropensci/aRxiv#66, 2025-11:
    "arxiv api often returning blank results", ``XML content does not seem to be XML: ''``)."""
    atom = {"Content-Type": "application/atom+xml; charset=utf-8"}
    return Fault("/arxiv/query", "body", body=b"", headers=atom, times=times)


def test_a_blank_arxiv_answer_is_asked_again(services, env) -> None:
    """A blank answer is no reason to refuse the fetch (it was: "the answer is no Atom feed
    but ''"): asked again, as an empty page is, the page comes, and every paper with it; one
    kept blank is one line that says so."""
    found, _ = services
    found.arxiv_queries["cat:cs.LG"] = [
        shapes.atom_entry(f"2501.{i:05d}", f"Paper {i} On Sampling", "We sample well.", ["Ann Lee"])
        for i in range(3)
    ]
    found.faults.append(_blank(1))
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "3")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout, done.stdout
    assert len(found.requests_to("/arxiv/query")) == 2
    found.faults.append(_blank(3))
    _arxiv_paper(found, "1707.08567")
    done = papers(env, "fetch", "arxiv:1707.08567")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.endswith(
        "arXiv sent nothing for '1707.08567' (a blank answer, 3 times): fetch again later"
    ), line
