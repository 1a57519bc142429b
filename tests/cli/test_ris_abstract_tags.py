"""A RIS record with both ``AB`` and ``N2`` kept whichever came first as the abstract: a
record of RIS's 2004 kind (Reference Manager's: ``N2`` the abstract, ``AB`` a note) whose
short ``AB`` came first lost its abstract, shown a note in its place, and the abstract went
nowhere. The tags do not say which is which (Zotero, EndNote and Mendeley write ``AB`` for the
abstract); now the one that reads as an abstract is the abstract, whatever its tag and place,
and the other is the paper's note from its source (real processes, a temporary HOME).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.cli.test_bad_input import PAPERS, make_env

ABSTRACT = (
    "We show that a streaming graph sampler keeps its estimates unbiased when the graph is "
    "larger than memory, and that two passes over the edges suffice for every estimate we "
    "study, on twelve real graphs of up to four billion edges."
)
NOTE = "Read for the reading group."

RIS = f"""TY  - JOUR
TI  - Streaming graph sampling out of memory
AU  - Lee, Ann
AB  - {NOTE}
N2  - {ABSTRACT}
PY  - 2021
ER  - 

TY  - JOUR
TI  - Sampling graphs in two passes
AU  - Park, Bo
N2  - {NOTE}
AB  - {ABSTRACT.replace("streaming", "two-pass")}
PY  - 2022
ER  - 

TY  - JOUR
TI  - One abstract written twice
AU  - Doe, Cy
AB  - {ABSTRACT.replace("graph", "tree")}
N2  - {ABSTRACT.replace("graph", "tree")}
PY  - 2023
ER  - 
"""


def papers_in(tmp_path: Path, home: Path, *args: str) -> str:
    """What ``papers ARGS`` printed with HOME ``home`` (it must succeed)."""
    done = subprocess.run(
        [*PAPERS, *args],
        env=make_env(tmp_path, PAPERS_HOME=str(home)),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def papers(tmp_path: Path, *args: str) -> str:
    """``papers_in`` the test's HOME, ``tmp_path / "home"``."""
    return papers_in(tmp_path, tmp_path / "home", *args)


def test_the_abstract_is_the_text_that_reads_as_one_and_the_other_a_note(tmp_path: Path) -> None:
    source = tmp_path / "mendeley.ris"
    source.write_text(RIS, encoding="utf-8")
    papers(tmp_path, "import", str(source))
    listed = {p["title"]: p for p in json.loads(papers(tmp_path, "list", "--json"))}
    first = listed["Streaming graph sampling out of memory"]
    assert first["abstract"] == ABSTRACT
    assert first["extra"]["bib_note"] == NOTE
    second = listed["Sampling graphs in two passes"]
    assert second["abstract"] == ABSTRACT.replace("streaming", "two-pass")
    assert second["extra"]["bib_note"] == NOTE
    same = listed["One abstract written twice"]
    assert same["abstract"] == ABSTRACT.replace("graph", "tree")
    assert "bib_note" not in same["extra"]


def test_a_paper_stored_with_its_note_for_an_abstract_is_not_copied_by_a_reimport(
    tmp_path: Path,
) -> None:
    # stored as every version before the rule read such a record: the first of AB and N2,
    # the note, as its abstract (its id made from it), and starred
    old = tmp_path / "before.ris"
    old.write_text(
        f"TY  - JOUR\nTI  - Streaming graph sampling out of memory\nAU  - Lee, Ann\n"
        f"AB  - {NOTE}\nPY  - 2021\nER  - \n",
        encoding="utf-8",
    )
    papers(tmp_path, "import", str(old))
    [stored] = json.loads(papers(tmp_path, "list", "--json"))
    papers(tmp_path, "mark", stored["id"], "starred")
    source = tmp_path / "mendeley.ris"
    source.write_text(RIS, encoding="utf-8")
    papers(tmp_path, "import", str(source))
    listed = json.loads(papers(tmp_path, "list", "--json"))
    same = [p for p in listed if p["title"] == "Streaming graph sampling out of memory"]
    assert [p["id"] for p in same] == [stored["id"]]
    assert same[0]["status"] == "starred"
