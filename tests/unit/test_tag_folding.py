"""Which tags are one: a tag is a label whose case does not count (``A-B`` is ``a-b``) and
whose spaces are dashes (``a b`` is ``a-b``); a run of dashes (``a--b``) and an underscore
(``a_b``) make other tags, in ``papers tag``, the app (both ``typed_tags``) and an import of
our own exports alike. An import folded ``a--b`` (and ``a–b``) into a paper's ``a-b`` and
dropped it without a word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.files.triage_model import normalise_tags, typed_tags

TAGS = ["a-b", "a--b", "a_b", "a–b"]


def test_case_and_spaces_fold_dashes_and_underscores_do_not() -> None:
    assert typed_tags(["A-B", "a b", "a--b", "a_b", "a–b", "#a-b"]) == ("a-b", "a--b", "a_b", "a–b")
    assert normalise_tags(["A-B; a  b, a--b"]) == ("a-b", "a--b")


@pytest.mark.parametrize("fmt", ["json", "bibtex", "ris", "csl-json", "csv", "markdown"])
def test_an_export_imported_into_a_library_holding_one_of_its_tags_adds_the_others(
    tmp_path: Path, fmt: str
) -> None:
    source = tmp_path / "list.jsonl"
    source.write_text(json.dumps({"title": "Tagged", "abstract": "A paper of my own, tagged."}))
    exported = Library(tmp_path / "there")
    exported.import_file(source)
    (paper,) = exported.papers()
    exported.set_tags(paper.id, TAGS)
    suffix = {"json": ".json", "bibtex": ".bib", "ris": ".ris", "csl-json": ".json"}
    path = tmp_path / f"export{suffix.get(fmt, '.' + fmt.replace('markdown', 'md'))}"
    path.write_text(export(exported.papers(), exported.triage(), fmt), encoding="utf-8")

    here = Library(tmp_path / "here")
    here.import_file(source)
    here.set_tags(paper.id, ["a-b"])
    here.import_file(path)
    assert here.triage().tags[paper.id] == tuple(TAGS)
