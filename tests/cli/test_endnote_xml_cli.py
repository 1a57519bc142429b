"""``papers import`` of EndNote XML exports, through the real command: the records become
papers with their fields, again and again without duplicates, and a folder picks them up."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_cli import make_env, ok, run
from tests.unit.test_endnote_xml import ABSTRACT, endnote_export, mendeley_export, zotero_export


def _listed(home: Path, env: dict[str, str]) -> list[dict]:
    import json

    return json.loads(ok(run("--home", home, "list", "--json", env=env)))


def test_a_mendeley_export_imports_as_papers(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    pdf = tmp_path / "Mendeley Desktop" / "Doe - 2024 - Sparse.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"%PDF-1.4\n")
    export = tmp_path / "My Collection.xml"
    export.write_text(mendeley_export(pdf.as_uri()), encoding="utf-8")
    out = ok(run("--home", home, "import", export, env=env))
    assert "2 added" in out and "2 records read" in out, out
    first, second = _listed(home, env)
    assert first["title"] == "Sparse Mixtures of Experts at Scale"
    assert first["authors"] == ["Jane Doe", "Richard Roe"]
    assert first["abstract"] == f"{ABSTRACT} Experts are routed sparsely."
    assert first["url"] == "https://arxiv.org/abs/2401.04088" and first["list"] == "My Collection"
    assert first["keywords"] == ["mixture of experts", "sparsity"]
    assert first["venue"] == "arXiv preprint 2024"  # the year, which the extra fields leave out
    assert first["extra"]["file"] == str(pdf)
    assert second["title"] == "A Generic Record With Only a Title"
    again = ok(run("--home", home, "import", export, env=env))
    assert "0 added" in again and len(_listed(home, env)) == 2


def test_a_folder_of_endnote_and_zotero_exports_is_imported(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "endnote.xml").write_text(endnote_export(), encoding="utf-8")
    (folder / "zotero.xml").write_text(zotero_export(tmp_path / "none.pdf"), encoding="utf-8")
    out = ok(run("--home", home, "import", folder, env=env))
    assert "4 added" in out, out
    papers = {p["title"]: p for p in _listed(home, env)}
    helmet = papers["HELMET: How to Evaluate Long-Context Models"]
    assert helmet["extra"]["booktitle"] == "International Conference on Learning Representations"
    assert helmet["venue"] == "ICLR 2025"  # the known venue's name
    fast = papers["Fast parallel sampling of diffusion models"]
    assert fast["github"] == ["https://github.com/lee/parasolver"]
    assert fast["note"] == "Read section 3 first."
    assert "file" not in fast["extra"]  # its PDF is in EndNote's own folder, not here
