"""Records in the shapes the real services answer in, written here (after the public shapes of
openreview-py's and arxiv.py's tests and of crawlers that saved API answers), for
``services.py``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from tests.fetch.services import Venue


@dataclass
class Made:
    """A paper to serve: what the note says, and its reviews."""

    title: str
    abstract: str
    authors: list[str]
    #: The venue id suffix that says its fate ("" accepted, "Rejected_Submission", …).
    fate: str = ""
    #: Oral, Spotlight, Poster for accepted papers.
    presentation: str = "Poster"
    ratings: list[Any] = field(default_factory=list)
    confidences: list[Any] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    tldr: str = ""
    note_id: str = ""
    #: The decision in the venue's own words ("Accept (Talk)", "Invite to Workshop Track");
    #: "" for the usual ones its fate and presentation give.
    decision: str = ""


def note_id(seed: str) -> str:
    """An OpenReview id: 10 characters of letters, digits, ``_`` and ``-``."""
    digest = hashlib.sha1(seed.encode()).digest()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    return "".join(alphabet[b % 64] for b in digest[:10])


def _short(venue_id: str) -> str:
    """How a note's venue names its venue: ``ICLR 2024``; a workshop by its own name and
    year, without the conference (``ME-FoMo 2024 Poster``, as OpenReview writes them)."""
    parts = venue_id.split("/")
    if len(parts) > 3 and parts[2] == "Workshop":
        return f"{parts[3]} {parts[1]}"
    return f"{parts[0].split('.')[0]} {parts[1]}" if len(parts) > 1 else venue_id


def v2_note(paper: Made, venue_id: str, number: int) -> dict[str, Any]:
    """A submission note of API v2: values in ``{"value": …}``, ``invitations`` a list."""
    pid = paper.note_id or note_id(paper.title + paper.abstract[:40])
    venueid = venue_id if not paper.fate else f"{venue_id}/{paper.fate}"
    short = _short(venue_id)
    venue = f"{short} {paper.presentation}" if not paper.fate else f"Submitted to {short}"
    content: dict[str, Any] = {
        "title": {"value": paper.title},
        "authors": {"value": paper.authors},
        "authorids": {"value": [f"~{a.replace(' ', '_')}1" for a in paper.authors]},
        "keywords": {"value": paper.keywords},
        "abstract": {"value": paper.abstract},
        "primary_area": {"value": "generative models"},
        "venue": {"value": venue},
        "venueid": {"value": venueid},
        "pdf": {"value": f"/pdf/{hashlib.sha1(pid.encode()).hexdigest()}.pdf"},
        "_bibtex": {"value": f"@inproceedings{{x{number},\ntitle={{{paper.title}}}\n}}"},
    }
    if paper.tldr:
        content["TLDR"] = {"value": paper.tldr}
    return {
        "id": pid,
        "forum": pid,
        "number": number,
        "cdate": 1727000000000 + number,
        "mdate": 1737000000000 + number,
        "invitations": [f"{venue_id}/-/Submission", f"{venue_id}/-/Post_Submission"],
        "domain": venue_id,
        "readers": ["everyone"],
        "writers": [venue_id],
        "signatures": [f"{venue_id}/Submission{number}/Authors"],
        "content": content,
    }


def v2_reviews(
    paper: Made, venue_id: str, number: int, pid: str, review_name: str = "Official_Review"
) -> list[dict[str, Any]]:
    """The direct replies of a v2 submission: its official reviews (under the name the venue's
    group gives them), a comment, a decision."""
    replies = []
    for i, (rating, confidence) in enumerate(zip(paper.ratings, paper.confidences, strict=False)):
        replies.append(
            {
                "id": note_id(f"{pid}-review-{i}"),
                "forum": pid,
                "replyto": pid,
                "invitations": [
                    f"{venue_id}/Submission{number}/-/{review_name}",
                    f"{venue_id}/-/Edit",
                ],
                "signatures": [f"{venue_id}/Submission{number}/Reviewer_{i}"],
                "content": {
                    "summary": {"value": "The paper studies something. " * 40},
                    "rating": {"value": rating},
                    "confidence": {"value": confidence},
                    "soundness": {"value": 3},
                },
            }
        )
    replies.append(
        {
            "id": note_id(f"{pid}-comment"),
            "invitations": [f"{venue_id}/Submission{number}/-/Official_Comment"],
            "content": {"comment": {"value": "Rating: 1 (a number in a comment is no rating)"}},
        }
    )
    if not paper.fate or paper.fate == "Rejected_Submission":
        decision = "Reject" if paper.fate else f"Accept ({paper.presentation.lower()})"
        replies.append(
            {
                "id": note_id(f"{pid}-decision"),
                "invitations": [f"{venue_id}/Submission{number}/-/Decision"],
                "content": {"decision": {"value": decision}},
            }
        )
    return replies


def v2_venue(
    papers: Sequence[Made],
    venue_id: str,
    *,
    domain: bool = True,
    review_name: str = "Official_Review",
) -> Venue:
    """A venue of API v2 holding ``papers``; ``review_name`` is what its group calls its
    reviews (openreview-py's venue takes it from the review stage's name)."""
    notes, replies = [], {}
    for number, paper in enumerate(papers, start=1):
        note = v2_note(paper, venue_id, number)
        notes.append(note)
        replies[note["id"]] = v2_reviews(paper, venue_id, number, note["id"], review_name)
    group: dict[str, Any] = {
        "id": venue_id,
        "content": {
            "title": {"value": f"{_short(venue_id)} Conference"},
            "submission_id": {"value": f"{venue_id}/-/Submission"},
            "submission_venue_id": {"value": f"{venue_id}/Submission"},
            "withdrawn_venue_id": {"value": f"{venue_id}/Withdrawn_Submission"},
            "desk_rejected_venue_id": {"value": f"{venue_id}/Desk_Rejected_Submission"},
            "review_name": {"value": review_name},
            "decision_name": {"value": "Decision"},
            "meta_review_name": {"value": "Meta_Review"},
        },
    }
    if domain:
        group["domain"] = venue_id
    return Venue(group, notes, replies)


#: A journal's venue texts by fate (openreview-py's Journal invitations set them so).
_JOURNAL_VENUES = {
    "": "Accepted by {short}",
    "Under_Review": "Under review for {short}",
    "Decision_Pending": "Decision pending for {short}",
    "Rejected": "Rejected by {short}",
    "Withdrawn_Submission": "Withdrawn by Authors",
    "Desk_Rejected": "Desk rejected by {short}",
}
_DAY_MS = 86_400_000


def journal_note(paper: Made, venue_id: str, number: int, year: int) -> dict[str, Any]:
    """A journal's submission on API v2 (TMLR): its ``venueid`` ``TMLR``, ``TMLR/Rejected``…,
    its ``venue`` naming no year ("Accepted by TMLR"), dates in ms since the epoch (made and
    public in ``year``; a published paper's ``pdate`` the next year, its BibTeX that year)."""
    pid = paper.note_id or note_id(paper.title + paper.abstract[:40])
    made = (year - 1970) * 365 * _DAY_MS + 150 * _DAY_MS + number  # in May of ``year``
    published = made + 300 * _DAY_MS if not paper.fate else None
    cited = year + 1 if published else year
    journal = "Transactions on Machine Learning Research"
    said = {"": "Featured Certification", "Rejected": "Rejected"}.get(paper.fate, "Under review")
    bibtex = (
        f"@article{{x{number}{year},\ntitle={{{paper.title}}},\n"
        f"author={{{' and '.join(paper.authors)}}},\n"
        f"journal={{{journal if published else 'Submitted to ' + journal}}},\n"
        f"issn={{2835-8856}},\nyear={{{cited}}},\n"
        f"url={{http://127.0.0.1:9/forum?id={pid}}},\nnote={{{said}}}\n}}"
    )
    short = venue_id.split("/")[0]
    content: dict[str, Any] = {
        "title": {"value": paper.title},
        "authors": {"value": paper.authors},
        "authorids": {"value": [f"~{a.replace(' ', '_')}1" for a in paper.authors]},
        "abstract": {"value": paper.abstract},
        "pdf": {"value": f"/pdf/{hashlib.sha1(pid.encode()).hexdigest()}.pdf"},
        "venue": {"value": _JOURNAL_VENUES[paper.fate].format(short=short)},
        "venueid": {"value": f"{venue_id}/{paper.fate}" if paper.fate else venue_id},
        "_bibtex": {"value": bibtex},
    }
    if published:
        content["certifications"] = {"value": ["Featured Certification"]}
    note: dict[str, Any] = {
        "id": pid,
        "forum": pid,
        "number": number,
        "cdate": made,
        "odate": made + _DAY_MS,
        "mdate": (published or made) + _DAY_MS,
        "invitations": [f"{venue_id}/-/Submission", f"{venue_id}/-/Under_Review"],
        "domain": venue_id,
        "readers": ["everyone"],
        "content": content,
    }
    if published:
        note["pdate"] = published
    return note


def journal_venue(papers: Sequence[Made], venue_id: str = "TMLR", year: int = 2023) -> Venue:
    """A journal of API v2 as openreview-py's Journal sets it up: its group names its
    under-review and decision-pending venue ids, not the rejected, withdrawn or desk-rejected
    ones (``TMLR/Rejected``, ``TMLR/Withdrawn_Submission``, ``TMLR/Desk_Rejected``)."""
    notes = [journal_note(p, venue_id, n, year) for n, p in enumerate(papers, start=1)]
    group: dict[str, Any] = {
        "id": venue_id,
        "domain": venue_id,
        "content": {
            "title": {"value": "Transactions on Machine Learning Research"},
            "subtitle": {"value": venue_id},
            "website": {"value": "jmlr.org/tmlr"},
            "submission_id": {"value": f"{venue_id}/-/Submission"},
            "under_review_venue_id": {"value": f"{venue_id}/Under_Review"},
            "decision_pending_venue_id": {"value": f"{venue_id}/Decision_Pending"},
            "certifications": {"value": ["Featured Certification", "Survey Certification"]},
        },
    }
    return Venue(group, notes, {})


_V1_OWN_INVITATION = ("Withdrawn_Submission", "Desk_Rejected_Submission")
_COPILOT_STATUS = {
    "Rejected_Submission": "Reject",
    "Withdrawn_Submission": "Withdraw",
    "Desk_Rejected_Submission": "Desk Reject",
}


def v1_venue(papers: Sequence[Made], venue_id: str, *, acceptance_decision: bool = False) -> Venue:
    """A venue of API v1: plain values, one ``invitation`` a note, decisions as replies;
    ``acceptance_decision``: ICLR 2018's, under one invitation for the whole venue
    (``…/-/Acceptance_Decision``) rather than one a paper."""
    notes, replies = [], {}
    for number, paper in enumerate(papers, start=1):
        pid = paper.note_id or note_id(paper.title + paper.abstract[:40])
        kind = paper.fate if paper.fate in _V1_OWN_INVITATION else "Blind_Submission"
        short = _short(venue_id)
        # a withdrawn or desk-rejected submission keeps its authors hidden: v1 says "Anonymous"
        hidden = kind != "Blind_Submission"
        notes.append(
            {
                "id": pid,
                "forum": pid,
                "number": number,
                "invitation": f"{venue_id}/-/{kind}",
                "content": {
                    "title": paper.title,
                    "authors": ["Anonymous"] if hidden else paper.authors,
                    "authorids": [f"{venue_id}/Paper{number}/Authors"]
                    if hidden
                    else [f"~{a.replace(' ', '_')}1" for a in paper.authors],
                    "abstract": paper.abstract,
                    "keywords": paper.keywords,
                    "pdf": f"/pdf/{hashlib.sha1(pid.encode()).hexdigest()}.pdf",
                    "venue": f"{short} {paper.presentation.lower()}"
                    if not paper.fate
                    else f"Submitted to {short}",
                    # v1 gives a rejected paper the venue's id too: its venue says it
                    "venueid": f"{venue_id}/{kind}" if kind != "Blind_Submission" else venue_id,
                },
            }
        )
        these = []
        for i, (rating, confidence) in enumerate(
            zip(paper.ratings, paper.confidences, strict=False)
        ):
            these.append(
                {
                    "id": note_id(f"{pid}-r{i}"),
                    "invitation": f"{venue_id}/Paper{number}/-/Official_Review",
                    "content": {
                        "recommendation": rating,
                        "confidence": confidence,
                        "review": "Fine.",
                    },
                }
            )
        if kind == "Blind_Submission":
            decision = paper.decision or (
                "Reject" if paper.fate else f"Accept: {paper.presentation.lower()}"
            )
            invitation = f"{venue_id}/Paper{number}/-/Decision"
            title = "Paper Decision"
            if acceptance_decision:
                invitation = f"{venue_id}/-/Acceptance_Decision"
                title = f"{_short(venue_id)} Conference Acceptance Decision"
            these.append(
                {
                    "id": note_id(f"{pid}-d"),
                    "invitation": invitation,
                    "forum": pid,
                    "replyto": pid,
                    "content": {"decision": decision, "title": title, "comment": "Thanks."},
                }
            )
        replies[pid] = these
    return Venue({"id": venue_id, "members": []}, notes, replies)


def iclr2017_venue(papers: Sequence[Made]) -> Venue:
    """ICLR 2017 on API v1: its id in lower case (``ICLR.cc/2017/conference``), submissions
    under ``…/-/submission``, no venue in the notes, each decision a reply under
    ``…/-/paper<N>/acceptance`` titled "ICLR committee final decision", each review one under
    ``…/-/paper<N>/official/review`` with its ``rating`` and ``confidence`` (as OpenReview's
    own ICLR 2017 scripts ask for them: ``…/-/paper.*/official/review``), beside
    ``…/pre-review/question`` and ``…/public/comment`` replies."""
    venue_id = "ICLR.cc/2017/conference"
    venue = v1_venue(papers, venue_id)
    for note in venue.notes:
        number = note["number"]
        note["invitation"] = f"{venue_id}/-/submission"
        del note["content"]["venue"], note["content"]["venueid"]
        replies = venue.replies[note["id"]]
        for reply in replies:
            if "decision" in reply["content"]:
                reply["invitation"] = f"{venue_id}/-/paper{number}/acceptance"
                reply["content"]["title"] = "ICLR committee final decision"
            elif "recommendation" in reply["content"]:
                reply["invitation"] = f"{venue_id}/-/paper{number}/official/review"
                said = reply["content"]
                said["rating"] = said.pop("recommendation")
                said["title"] = "Review"
        for i, kind in enumerate(("pre-review/question", "public/comment")):
            replies.append(
                {
                    "id": note_id(f"{note['id']}-{kind}"),
                    "invitation": f"{venue_id}/-/paper{number}/{kind}",
                    "content": {"title": kind, "question" if i == 0 else "comment": "Why?"},
                }
            )
    return venue


def paperlists_record(paper: Made, conf: str, year: int) -> dict[str, Any]:
    """A Paper Copilot record: ``;``-joined authors and scores, the status in words."""
    pid = paper.note_id or note_id(paper.title + paper.abstract[:40])
    status = _COPILOT_STATUS.get(paper.fate, paper.presentation)
    return {
        "id": pid,
        "title": paper.title,
        "track": "main",
        "status": status,
        "tldr": paper.tldr,
        "abstract": paper.abstract,
        "keywords": ";".join(paper.keywords),
        "primary_area": "generative_models",
        "author": ";".join(paper.authors),
        "authorids": ";".join(f"~{a.replace(' ', '_')}1" for a in paper.authors),
        "aff": ";".join(
            "MIT+Google" if i == 0 else "ETH Zurich" for i in range(len(paper.authors))
        ),
        "aff_unique_norm": "Massachusetts Institute of Technology;Google;ETH Zurich",
        "rating": ";".join(str(r) for r in paper.ratings),
        "confidence": ";".join(str(c) for c in paper.confidences),
        "rating_avg": _mean_and_spread(paper.ratings),
        "github": "",
        "project": "",
        "site": f"https://{conf}.cc/virtual/{year}/poster/{abs(hash(pid)) % 100000}",
        "openreview": f"https://openreview.net/forum?id={pid}",
        "pdf": f"https://openreview.net/pdf?id={pid}",
        "gs_citation": -1,
    }


def _mean_and_spread(ratings: Sequence[Any]) -> list[float]:
    """Paper Copilot's ``rating_avg``: [mean, standard deviation] of the numeric ratings."""
    numbers = [float(r) for r in ratings if isinstance(r, int | float)]
    if not numbers:
        return [0.0, 0.0]
    mean = sum(numbers) / len(numbers)
    return [mean, (sum((n - mean) ** 2 for n in numbers) / len(numbers)) ** 0.5]


def atom_entry(
    arxiv_id: str,
    title: str,
    summary: str,
    authors: Iterable[str],
    categories: Sequence[str] = ("cs.LG",),
    *,
    published: str = "2025-01-02T18:59:59Z",
    comment: str = "",
    doi: str = "",
    journal: str = "",
    version: int = 1,
) -> str:
    """One ``<entry>`` of an arXiv API feed."""
    people = "".join(
        f"<author><name>{escape(a)}</name>"
        + ("<arxiv:affiliation>MIT</arxiv:affiliation>" if i == 0 else "")
        + "</author>"
        for i, a in enumerate(authors)
    )
    more = ""
    if comment:
        more += f"<arxiv:comment>{escape(comment)}</arxiv:comment>"
    if doi:
        more += f"<arxiv:doi>{escape(doi)}</arxiv:doi>"
        more += f'<link title="doi" href="https://doi.org/{escape(doi)}" rel="related"/>'
    if journal:
        more += f"<arxiv:journal_ref>{escape(journal)}</arxiv:journal_ref>"
    cats = "".join(
        f'<category term={quoteattr(c)} scheme="http://arxiv.org/schemas/atom"/>'
        for c in categories
    )
    return (
        f"<entry><id>http://arxiv.org/abs/{arxiv_id}v{version}</id>"
        f"<updated>2025-01-05T10:00:00Z</updated><published>{published}</published>"
        f"<title>{escape(title)}</title><summary>{escape(summary)}</summary>{people}{more}"
        f'<link href="http://arxiv.org/abs/{arxiv_id}v{version}" rel="alternate" type="text/html"/>'
        f'<link title="pdf" href="http://arxiv.org/pdf/{arxiv_id}v{version}" rel="related" '
        'type="application/pdf"/>'
        f'<arxiv:primary_category term={quoteattr(categories[0])} scheme="http://arxiv.org/schemas/atom"/>'
        f"{cats}</entry>"
    )


def atom_feed(entries: Sequence[str], *, total: int, start: int = 0, per_page: int = 10) -> str:
    """An arXiv API answer: the feed header, the opensearch counts, the entries."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">'
        '<link href="http://arxiv.org/api/query?search_query=x" rel="self" '
        'type="application/atom+xml"/>'
        '<title type="html">ArXiv Query: search_query=x&amp;id_list=&amp;start=0</title>'
        "<id>http://arxiv.org/api/abc</id><updated>2025-01-06T00:00:00-05:00</updated>"
        f"<opensearch:totalResults>{total}</opensearch:totalResults>"
        f"<opensearch:startIndex>{start}</opensearch:startIndex>"
        f"<opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>"
        + "".join(entries)
        + "</feed>"
    )


def atom_error(message: str) -> str:
    """arXiv's answer to a malformed query: a feed of one error entry."""
    entry = (
        "<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>"
        "<title>Error</title>"
        f"<summary>{escape(message)}</summary>"
        "<updated>2025-01-06T00:00:00-05:00</updated>"
        '<link href="http://arxiv.org/api/errors#incorrect_id_format_for_1234" rel="alternate" '
        'type="text/html"/>'
        "<author><name>arXiv api core</name></author></entry>"
    )
    return atom_feed([entry], total=1, per_page=1)


_PROSE = (
    "we propose a method for learning representations of graphs that scales to millions of "
    "nodes and improves accuracy on benchmark tasks while reducing the cost of training by "
    "sharing parameters across layers and using a sparse attention pattern over neighbours "
    "theory shows convergence under mild assumptions and experiments confirm the gains"
)
_WORDS = _PROSE.split()


def made_up(n: int, seed: int = 7, fate: str = "Rejected_Submission") -> list[Made]:
    """``n`` papers that exist nowhere, each with its own title and abstract."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        words = rng.choices(_WORDS, k=90)
        abstract = f"Submission {seed}-{i}: " + " ".join(words).capitalize() + "."
        title = " ".join(rng.choices(_WORDS, k=6)).title() + f" {seed}-{i}"
        ratings = [rng.randint(1, 6) * 2 - 1 if rng.random() < 0.5 else 3 for _ in range(3)]
        out.append(Made(title, abstract, [f"Author {i}", f"Coauthor {i}"], fate=fate,
                        ratings=ratings, confidences=[3, 4, 4]))  # fmt: skip
    return out


def from_rows(rows: Iterable[dict[str, Any]], seed: int = 3) -> list[Made]:
    """Accepted papers from a real list's rows (title, abstract, authors, status)."""
    rng = random.Random(seed)
    made = []
    for row in rows:
        ratings = [rng.choice((3, 5, 6, 8, 10)) for _ in range(4)]
        url = str(row.get("url", ""))
        made.append(Made(
            row["title"], row["abstract"], list(row.get("authors") or []),
            presentation=str(row.get("status") or "Poster"), ratings=ratings,
            confidences=[rng.randint(2, 5) for _ in ratings],
            note_id=url.rpartition("id=")[2] if "id=" in url else "",
        ))  # fmt: skip
    return made
