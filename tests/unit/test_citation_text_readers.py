"""IEEE Xplore's and ScienceDirect's plain-text citation downloads ("Export citations → Plain
Text", with or without the abstract) read as the citations they are: title, authors, venue,
year, DOI, abstract, keywords; never as paragraphs of abstracts. A list of abstracts that
quotes a title or names a DOI is still a list of abstracts, and the seeds read as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from storage.sources.plain_text import read_plain_text
from storage.sources.registry import read_source, reader_for

REPO = Path(__file__).resolve().parents[2]
#: The seed lists, as the package bundles them (the sample).
SEEDS = sorted((REPO / "storage" / "sample").glob("*.txt"))

IEEE = """\
C. Zhang, D. Chu, S. Liu, Z. Deng, C. Wu and X. Su, "Trajectory Planning and Tracking for \
Autonomous Vehicle Based on State Lattice and Model Predictive Control," in IEEE Intelligent \
Transportation Systems Magazine, vol. 11, no. 2, pp. 29-40, Summer 2019, doi: \
10.1109/MITS.2019.2903536.
Abstract: Trajectory planning and tracking control are two keys of collision avoidance for \
autonomous vehicles in critical traffic scenarios, "safely," as we show.
keywords: {Trajectory;Planning;Vehicle dynamics},
URL: https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=8668708&isnumber=8694967



L. N. Smith, "Cyclical Learning Rates for Training Neural Networks," 2017 IEEE Winter \
Conference on Applications of Computer Vision (WACV), Santa Rosa, CA, USA, 2017, pp. 464-472, \
doi: 10.1109/WACV.2017.58.
Abstract: It is known that the learning rate is the most important hyper-parameter to tune.
keywords: {Training;Neural networks;Schedules},
URL: https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=7926641&isnumber=7926564



A. Vaswani et al., "Attention Everywhere," in IEEE Transactions on Pattern Analysis and \
Machine Intelligence, vol. 45, no. 3, pp. 1234-1245, 1 March 2023, doi: 10.1109/TPAMI.2022.1.
Abstract: We show that attention is everywhere.



W. Issa, N. Moustafa, B. Turnbull and K. -K. R. Choo, "RVE-PFL: Robust Variational \
Encoder-based Personalised Federated Learning against Model Inversion Attacks," in IEEE \
Transactions on Information Forensics and Security, doi: 10.1109/TIFS.2024.3368879.
keywords: {Training;Data models;Servers},
"""

SCIENCEDIRECT = """\
Kaspars Sudars, Janis Jasko, Ivars Namatevs, Liva Ozola, Niks Badaukis,
Dataset of annotated food crops and weed images for robotic computer vision control,
Data in Brief,
Volume 31,
2020,
105833,
ISSN 2352-3409,
https://doi.org/10.1016/j.dib.2020.105833.
(https://www.sciencedirect.com/science/article/pii/S2352340920307277)
Abstract: Weed management technologies that can identify weeds and distinguish them from \
crops are in need of artificial intelligence solutions based on a computer vision approach.
Keywords: Computer vision; Object detection; Image annotation

Ann Lee, Bo Park,
Graphs, flows, and everything in between: a survey,
Pattern Recognition,
Volume 140, Issue 2,
2023,
Pages 109-130,
ISSN 0031-3203,
https://doi.org/10.1016/j.patcog.2023.109130.
(https://www.sciencedirect.com/science/article/pii/S0031320323001234)

Carl Moe,
Chapter 3 - Learning on graphs,
Editor(s): Dee Edit, Eve Edit,
Graph Learning Handbook,
Academic Press,
2021,
Pages 45-80,
ISBN 9780128000000,
https://doi.org/10.1016/B978-0-12-800000-0.00003-1.
(https://www.sciencedirect.com/science/article/pii/B9780128000000000031)
Abstract: This chapter introduces learning on graphs and its many uses in practice.
Keywords: Graphs; Learning
"""


def _read(tmp_path: Path, text: str, name: str, newline: str = "\n") -> dict[str, dict]:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    result = read_source(path)
    assert not result.errors and not result.warnings
    return {
        r.title: {
            "authors": r.authors,
            "abstract": r.abstract,
            "url": r.url,
            "keywords": r.keywords,
            "venue": r.venue,
            **dict(r.extra),
        }
        for r in result.records
    }


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_ieee_xplore_plain_text(tmp_path: Path, newline: str) -> None:
    papers = _read(tmp_path, IEEE, "export2024.01.01-12.00.00.txt", newline)
    assert len(papers) == 4
    zhang = papers[
        "Trajectory Planning and Tracking for Autonomous Vehicle Based on State Lattice and "
        "Model Predictive Control"
    ]
    assert zhang["authors"] == ("C. Zhang", "D. Chu", "S. Liu", "Z. Deng", "C. Wu", "X. Su")
    assert zhang["journal"] == "IEEE Intelligent Transportation Systems Magazine"
    assert zhang["year"] == 2019 and zhang["volume"] == "11" and zhang["issue"] == "2"
    assert zhang["pages"] == "29–40" and zhang["doi"] == "10.1109/MITS.2019.2903536"
    assert zhang["abstract"].startswith("Trajectory planning") and "safely" in zhang["abstract"]
    assert zhang["keywords"] == ("Trajectory", "Planning", "Vehicle dynamics")
    assert zhang["url"] == "https://ieeexplore.ieee.org/document/8668708"
    smith = papers["Cyclical Learning Rates for Training Neural Networks"]
    assert smith["authors"] == ("L. N. Smith",) and smith["entry_type"] == "inproceedings"
    assert smith["booktitle"] == (
        "2017 IEEE Winter Conference on Applications of Computer Vision (WACV)"
    )
    assert smith["year"] == 2017 and smith["pages"] == "464–472"
    vaswani = papers["Attention Everywhere"]
    assert vaswani["authors"] == ("A. Vaswani", "et al.")
    assert vaswani["year"] == 2023 and vaswani["month"] == 3
    early = papers[
        "RVE-PFL: Robust Variational Encoder-based Personalised Federated Learning against "
        "Model Inversion Attacks"
    ]
    assert early["authors"][-1] == "K.-K. R. Choo" and early["abstract"] == ""
    assert early["doi"] == "10.1109/TIFS.2024.3368879" and "year" not in early


def test_sciencedirect_plain_text(tmp_path: Path) -> None:
    papers = _read(tmp_path, SCIENCEDIRECT, "ScienceDirect_citations_1700000000000.txt")
    weeds = papers[
        "Dataset of annotated food crops and weed images for robotic computer vision control"
    ]
    assert weeds["authors"][0] == "Kaspars Sudars" and len(weeds["authors"]) == 5
    assert weeds["journal"] == "Data in Brief" and weeds["year"] == 2020
    assert weeds["volume"] == "31" and weeds["issn"] == "2352-3409"
    assert weeds["doi"] == "10.1016/j.dib.2020.105833"
    assert weeds["url"] == "https://www.sciencedirect.com/science/article/pii/S2352340920307277"
    assert weeds["abstract"].startswith("Weed management") and weeds["keywords"][0] == (
        "Computer vision"
    )
    survey = papers["Graphs, flows, and everything in between: a survey"]
    assert survey["authors"] == ("Ann Lee", "Bo Park") and survey["abstract"] == ""
    assert survey["volume"] == "140" and survey["issue"] == "2" and survey["pages"] == "109–130"
    chapter = papers["Chapter 3 - Learning on graphs"]
    assert chapter["entry_type"] == "incollection"
    assert chapter["booktitle"] == "Graph Learning Handbook"
    assert chapter["publisher"] == "Academic Press" and chapter["authors"] == ("Carl Moe",)


def test_abstract_lists_with_quotes_and_dois_stay_abstract_lists(tmp_path: Path) -> None:
    text = (
        "My Reading List\n\n"
        'We introduce "FlowNet," a model that, as A. Smith, "Flows," in Proc. X, 2020, showed, '
        "beats every baseline we tried on the benchmarks we care about. doi: 10.1000/xyz.\n\n"
        'A. Lee, "Quoted Title," in Journal of Things, vol. 1, 2021, doi: 10.1000/abc.\n\n'
        "Diffusion models generate images; see https://doi.org/10.1016/j.x.2020.1 for a survey "
        "of the methods that came before them and of what they left open.\n"
    )
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    assert reader_for(text, path).name == "plain text"
    assert len(read_source(path).records) == 3


def test_the_seed_lists_read_exactly_as_before() -> None:
    assert SEEDS
    for seed in SEEDS:
        text = seed.read_text(encoding="utf-8")
        assert reader_for(text, seed).name == "plain text"
        assert read_source(seed).records == read_plain_text(text, seed).records


def test_hostile_entries_are_read_or_refused_in_one_line(tmp_path: Path) -> None:
    """Control characters and markup in fields, an empty title, a huge abstract, a heading
    above the entries and a stray paragraph: papers, or one line each, nothing lost unsaid."""
    huge = "word " * 5000
    text = (
        "IEEE export\n\n"
        'A. \x1b[31mBad, "<b>Marked</b> \u202eTitle," in IEEE Access, vol. 1, 2020, '
        "doi: 10.1109/ACCESS.2020.1.\nAbstract: An abstract with \x01 and \x07 inside it, long "
        "enough to be read as one.\n\n"
        '"," in IEEE Access, vol. 2, 2021, doi: 10.1109/ACCESS.2021.2.\nAbstract: \n\n'
        f'B. Big, "Huge," in IEEE Access, vol. 3, 2022, doi: 10.1109/X.3.\nAbstract: {huge}\n\n'
        "a stray paragraph that is no citation at all\n\n"
        'C. Fine, "Fine Title," in IEEE Access, vol. 4, 2023, doi: 10.1109/ACCESS.2023.4.\n'
    )
    path = tmp_path / "hostile.txt"
    path.write_text(text, encoding="utf-8")
    result = read_source(path)
    titles = [r.title for r in result.records]
    assert "Fine Title" in titles and any("Marked" in t for t in titles)
    assert {e.record for e in result.errors} == {2, 3, 4}
    assert all("\n" not in e.reason for e in result.errors)


def test_the_command_imports_a_download(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERS_", "XDG_"))}
    env.update(HOME=str(tmp_path / "user"), PYTHONPATH=str(REPO))
    path = tmp_path / "ScienceDirect_citations.txt"
    path.write_text(SCIENCEDIRECT, encoding="utf-8")

    def papers(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )

    done = papers("import", str(path))
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout and not done.stderr
    listed = json.loads(papers("list", "--json").stdout)
    assert {p["title"] for p in listed} == {
        "Dataset of annotated food crops and weed images for robotic computer vision control",
        "Graphs, flows, and everything in between: a survey",
        "Chapter 3 - Learning on graphs",
    }
    assert listed[0]["authors"][0] == "Kaspars Sudars"
