"""Google Scholar writes titles in sentence case, its acronyms with them (``Bert: Pre-training
of deep bidirectional transformers``): imported after Zotero's record of the same paper
(``BERT: Pre-training of Deep Bidirectional Transformers``), its title replaced Zotero's. A
title that differs from the paper's only in letter case, with fewer capitals, no longer
replaces it; in the other order Zotero's replaces Scholar's as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library

ZOTERO_BIB = """
@misc{devlinBERTPretrainingDeep2019,
	title = {{BERT}: {Pre}-training of {Deep} {Bidirectional} {Transformers} for {Language} {Understanding}},
	shorttitle = {{BERT}},
	url = {http://127.0.0.1/abs/1810.04805},
	doi = {10.48550/arXiv.1810.04805},
	publisher = {arXiv},
	author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
	month = may,
	year = {2019},
	note = {arXiv:1810.04805 [cs]},
}
"""  # noqa: E501

SCHOLAR_BIB = """@article{devlin2018bert,
  title={Bert: Pre-training of deep bidirectional transformers for language understanding},
  author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  journal={arXiv preprint arXiv:1810.04805},
  year={2018}
}
"""

ZOTERO_TITLE = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"


@pytest.mark.parametrize("order", [("zotero", "scholar"), ("scholar", "zotero")])
def test_scholars_sentence_case_does_not_replace_the_title(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    texts = {"zotero": ZOTERO_BIB, "scholar": SCHOLAR_BIB}
    library = Library(tmp_path / "home")
    for name in order:
        source = tmp_path / f"{name}.bib"
        source.write_text(texts[name], encoding="utf-8")
        report = library.import_file(source)
        assert not report.errors and not report.warnings
    (paper,) = library.papers()
    assert paper.title == ZOTERO_TITLE


@pytest.mark.parametrize("order", [("catalog", "zotero"), ("zotero", "catalog")])
def test_a_title_in_capitals_alone_gives_way_to_the_title_in_its_case(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    """A record whose title is all capitals (as some catalogs' RIS write it) was replaced by
    a later record's title in its own case; counting capitals alone kept the shouting one
    for good, and took it over Zotero's when it came after. A title without a small letter
    says nothing of case: the title in its case is kept, in either order."""
    library = Library(tmp_path / "home")
    shouting = SCHOLAR_BIB.replace(
        "Bert: Pre-training of deep bidirectional transformers for language understanding",
        ZOTERO_TITLE.upper(),
    )
    texts = {"catalog": shouting, "zotero": ZOTERO_BIB}
    for name, text in ((name, texts[name]) for name in order):
        source = tmp_path / f"{name}.bib"
        source.write_text(text, encoding="utf-8")
        report = library.import_file(source)
        assert not report.errors and not report.warnings
    (paper,) = library.papers()
    assert paper.title == ZOTERO_TITLE
