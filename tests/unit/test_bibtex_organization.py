"""Google Scholar's BibTeX names a conference paper's publisher ``organization``
(``organization={PMLR}``): it was dropped on import, and no export showed it. It is the
paper's publisher where the entry names none, as Zotero's BibTeX import reads it (its
``backupPublisher``), and every export writes it as the publisher."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.export import export

#: Google Scholar's "Cite → BibTeX" of a PMLR paper, and of a paper whose entry names both.
SCHOLAR = """@inproceedings{radford2021learning,
  title={Learning transferable visual models from natural language supervision},
  author={Radford, Alec and Kim, Jong Wook and Hallacy, Chris and others},
  booktitle={International conference on machine learning},
  pages={8748--8763},
  year={2021},
  organization={PMLR}
}

@inproceedings{lee2024both,
  title={Sparse attention at scale},
  author={Lee, Ann},
  booktitle={Proceedings of the Workshop on Sparse Models},
  year={2024},
  organization={Association for Sparse Models},
  publisher={Sparse Press}
}
"""


@pytest.mark.parametrize(
    ("fmt", "written"),
    [("bibtex", "publisher = {PMLR}"), ("ris", "PB  - PMLR"), ("csl-json", '"publisher": "PMLR"')],
)
def test_scholars_organization_is_the_publisher_every_export_writes(
    tmp_path: Path, fmt: str, written: str
) -> None:
    path = tmp_path / "scholar.bib"
    path.write_text(SCHOLAR, encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    assert (report.added, report.errors, report.warnings) == (2, [], [])
    clip, both = library.papers()
    assert clip.fact("publisher") == "PMLR"
    assert both.fact("publisher") == "Sparse Press"  # the publisher named: it is the publisher
    assert written in export([clip], library.triage(), fmt)
