"""``papers import`` of exports as reference managers and bibliographies write them, through
the real command: what a file's entries come without is said on stderr, in one line for them
all, and the papers are imported."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run


def test_entries_whose_crossref_is_not_in_the_file_are_one_line(tmp_path: Path) -> None:
    """Chapters copied out of a JabRef library without their books came without a venue and
    a year, nothing said."""
    path = tmp_path / "chapters.bib"
    path.write_text(
        "@incollection{one, author = {Lee, Ann}, title = {One}, crossref = {book1}, pages = 1}\n"
        "@incollection{two, author = {Roe, Rob}, title = {Two}, crossref = {book1}, year = 2001}\n"
        "@incollection{three, author = {Moe, Max}, title = {Three}, crossref = {book2}}\n"
        "@incollection{four, author = {Poe, Pat}, title = {Four}, crossref = {here}}\n"
        "@book{here, editor = {Doe, Jane}, title = {Here}, year = 2002}\n",
        encoding="utf-8",
    )
    result = run("--home", tmp_path / "home", "import", path, env=make_env(tmp_path))
    assert ok(result).startswith("Imported chapters: 4 added")
    assert result.stderr == (
        f"  warning: {path}: 3 entries name a crossref the file does not hold (book1, book2; "
        "the first, record 1: @incollection{one} (line 1)): imported without the venue and "
        "year it would lend them\n"
    )


def test_ris_and_endnote_years_that_name_no_year_are_one_line(tmp_path: Path) -> None:
    """``PY  - In Press``, ``%D in press``: imported without a year, nothing said (BibTeX and
    EndNote XML said it), now the one line EndNote XML's reader says."""
    ris = tmp_path / "press.ris"
    ris.write_text(
        "TY  - JOUR\nTI  - In Press Paper\nAU  - Lee, Ann\nPY  - In Press\nJO  - Cell\nER  - \n\n"
        "TY  - JOUR\nTI  - Dated Paper\nAU  - Lee, Ann\nPY  - 2020\nER  - \n\n"
        "TY  - JOUR\nTI  - Forthcoming Paper\nAU  - Roe, Rob\nDA  - Forthcoming\nER  - \n",
        encoding="utf-8",
    )
    enw = tmp_path / "press.enw"
    enw.write_text("%0 Journal Article\n%T Pressed\n%A Lee, Ann\n%D in press\n%J Cell\n")
    env = make_env(tmp_path)
    result = run("--home", tmp_path / "home", "import", ris, enw, env=env)
    ok(result)
    assert result.stderr == (
        f"  warning: {ris}: 2 records' dates give no year (record 1: 'In Press'); imported "
        "without one\n"
        f"  warning: {enw}: a record's date gives no year (record 1: 'in press'); imported "
        "without one\n"
    )


def test_a_csl_json_date_that_names_no_year_is_one_line(tmp_path: Path) -> None:
    """CSL's ``issued`` as a literal a writer could not read as a date (``{"literal": "in
    press"}``): imported without a year, nothing said."""
    path = tmp_path / "press.json"
    path.write_text(
        '[{"id": "a", "type": "article-journal", "title": "Pressed", "container-title": "Cell",'
        ' "author": [{"family": "Lee", "given": "Ann"}], "issued": {"literal": "in press"}},'
        ' {"id": "b", "type": "article-journal", "title": "Dated", "container-title": "Cell",'
        ' "author": [{"family": "Lee", "given": "Ann"}], "issued": {"date-parts": [[2020]]}}]',
        encoding="utf-8",
    )
    result = run("--home", tmp_path / "home", "import", path, env=make_env(tmp_path))
    assert ok(result).startswith("Imported press: 2 added")
    assert result.stderr == (
        f"  warning: {path}: a record's date gives no year (record 1: 'in press'); imported "
        "without one\n"
    )


def test_more_tools_exports_through_the_real_command(tmp_path: Path) -> None:
    """Semantic Scholar's references, OpenReview's BibTeX and Mendeley's links, imported by
    ``papers import``: the reference it could not use is one line, the NeurIPS papers are
    NeurIPS's, a tool's repository is its code link."""
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"
    references = folder / "s2_references.json"
    env = make_env(tmp_path)
    home = tmp_path / "home"
    files = (references, folder / "openreview.bib", folder / "mendeley_links.bib")
    result = run("--home", home, "import", *files, env=env)
    out = ok(result)
    assert "9 added" in out and "1 record error" in out
    assert result.stderr == (f"  not imported: {references}: record 3: no abstract and no title\n")
    found = json.loads(ok(run("--home", home, "search", "venue:neurips", "--json", env=env)))
    assert sorted(p["title"][:20] for p in found) == [
        "GREATS: Online Selec",
        "Scaling Laws for Hyp",
    ]
    papers = {p["title"]: p for p in json.loads(ok(run("--home", home, "list", "--json", env=env)))}
    assert papers["QUIT: QUantitative Imaging Tools"]["github"] == [
        "https://github.com/spinicist/QUIT"
    ]
    submitted = papers["Implicit Chain of Thought Reasoning via Knowledge Distillation"]
    assert (submitted["venue"], submitted["venue_status"]) == ("ICLR 2024", "Submitted")


FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def test_semantic_scholar_authors_with_their_papers_through_the_real_command(
    tmp_path: Path,
) -> None:
    """``papers import`` of Semantic Scholar's ``/author/batch`` answer (its papers nested
    under its authors) in a PAPERS_HOME: each paper once; asked without the papers, one line."""
    env = make_env(tmp_path, PAPERS_HOME=str(tmp_path / "home"))
    result = run("import", FOLDER / "s2_author_batch.json", env=env)
    assert ok(result).startswith("Imported s2_author_batch: 2 added") and result.stderr == ""
    papers = json.loads(ok(run("list", "--json", env=env)))
    assert [p["title"] for p in papers] == [
        "On-the-Fly Garbage Collection: An Exercise in Cooperation",
        "The Humble Programmer",
    ]
    assert papers[0]["authors"][:2] == ["E. Dijkstra", "L. Lamport"]
    names = tmp_path / "names.json"
    names.write_text('{"data": [{"authorId": "1", "name": "A. Turing"}]}', encoding="utf-8")
    refused = run("import", names, env=env)
    assert refused.returncode == 1 and refused.stdout == "" and "Traceback" not in refused.stderr
    assert refused.stderr == (
        f"papers: error: {names}: a Semantic Scholar answer of 1 author and no papers (ask "
        "for them: fields=name,papers.title,papers.abstract,…); nothing to import\n"
    )


def test_dblp_xml_through_the_real_command(tmp_path: Path) -> None:
    """``papers import`` of a DBLP person page and of dblp.xml's records in a PAPERS_HOME: the
    list named after the person, homepages passed over, DBLP's numbers off the names; a file
    cut short is one line, exit 1, nothing imported."""
    env = make_env(tmp_path, PAPERS_HOME=str(tmp_path / "home"))
    result = run("import", FOLDER / "dblp_person.xml", env=env)
    assert ok(result).startswith("Imported Di Xu: 3 added") and result.stderr == ""
    result = run("import", FOLDER / "dblp_records.xml", env=env)
    assert ok(result).startswith("Imported dblp_records: 4 added") and result.stderr == ""
    papers = {p["title"]: p for p in json.loads(ok(run("list", "--json", env=env)))}
    spectre = papers["Spectre Attacks: Exploiting Speculative Execution"]
    assert spectre["authors"][7:9] == ["Thomas Prescher", "Michael Schwarz"]
    assert papers["Correction of Clipped Pixels in Color Images"]["list"] == "Di Xu"
    whole = (FOLDER / "dblp_person.xml").read_text(encoding="utf-8")
    cut = tmp_path / "cut.xml"
    cut.write_text(whole[: whole.index("<coauthors")], encoding="utf-8")
    refused = run("import", cut, env=env)
    assert refused.returncode == 1 and refused.stdout == "" and "Traceback" not in refused.stderr
    assert refused.stderr.startswith(f"papers: error: {cut}: the XML is cut short: it ends at ")
    assert refused.stderr.count("\n") == 1
    assert len(json.loads(ok(run("list", "--json", env=env)))) == 7
