"""Google Scholar's BibTeX writes its venues in sentence case (``Neural computation``,
``Advances in neural information processing systems``), and a one-word journal all in lower
case (``journal={nature}``, ``science``): the pane, ``list --json`` and every export showed
``nature``. A venue with no capital is now written as people write it (``Nature``; a word
whose capitals are its own given them: ``ICML``, ``arXiv``, ``IEEE``); one with a capital
anywhere is as its source wrote it (real processes, a temporary HOME).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ris_abstract_tags import papers  # (the CLI in a temporary HOME)

# as Google Scholar's "Cite" → BibTeX writes them
SCHOLAR = r"""@article{lecun2015deep,
  title={Deep learning},
  author={LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  journal={nature},
  volume={521},
  number={7553},
  pages={436--444},
  year={2015},
  publisher={Nature Publishing Group UK London}
}

@article{vaswani2017attention,
  title={Attention is all you need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob},
  journal={Advances in neural information processing systems},
  volume={30},
  year={2017}
}

@article{hochreiter1997long,
  title={Long short-term memory},
  author={Hochreiter, Sepp and Schmidhuber, J{\"u}rgen},
  journal={Neural computation},
  year={1997}
}

@inproceedings{chen2020simple,
  title={A simple framework for contrastive learning of visual representations},
  author={Chen, Ting and Kornblith, Simon},
  booktitle={international conference on machine learning},
  year={2020}
}

@article{doe2021wiring,
  title={Wiring a small lab},
  author={Doe, Jane},
  journal={ieee transactions on pattern analysis and machine intelligence},
  year={2021}
}
"""


def test_a_venue_all_in_lower_case_is_written_as_people_write_it(tmp_path: Path) -> None:
    source = tmp_path / "scholar.bib"
    source.write_text(SCHOLAR, encoding="utf-8")
    papers(tmp_path, "import", str(source))
    listed = {p["title"]: p for p in json.loads(papers(tmp_path, "list", "--json"))}
    deep = listed["Deep learning"]
    assert deep["extra"]["journal"] == "Nature"
    assert deep["venue"] == "Nature 2015"
    # sentence case, as Scholar writes its venues: as written
    attention = listed["Attention is all you need"]["extra"]["journal"]
    assert attention == "Advances in neural information processing systems"
    assert listed["Long short-term memory"]["extra"]["journal"] == "Neural computation"
    simple = listed["A simple framework for contrastive learning of visual representations"]
    assert simple["extra"]["booktitle"] == "International conference on machine learning"
    wiring = listed["Wiring a small lab"]["extra"]["journal"]
    assert wiring == "IEEE transactions on pattern analysis and machine intelligence"
    bibtex = papers(tmp_path, "export", "--status", "all", "--format", "bibtex")
    assert "journal = {Nature}" in bibtex and "{nature}" not in bibtex, bibtex
    csl = json.loads(papers(tmp_path, "export", "--status", "all", "--format", "csl-json"))
    assert {i["title"]: i.get("container-title") for i in csl}["Deep learning"] == "Nature"


# lower-case venues that start with a number, or join two acronyms by a slash
ORDINALS = r"""@inproceedings{lee2024first,
  title={A first workshop paper},
  author={Lee, Ann},
  booktitle={1st workshop on efficient systems for foundation models},
  year={2024}
}

@inproceedings{kim2022joint,
  title={A joint conference paper},
  author={Kim, Bo},
  booktitle={acm/ieee design automation conference},
  year={2022}
}
"""


def test_a_lower_case_venue_that_starts_with_a_number_keeps_its_ordinal(tmp_path: Path) -> None:
    """``1st workshop on …`` became ``1St workshop on …`` (the letter after the digit made a
    capital), and ``acm/ieee`` ``Acm/ieee`` (the pair looked up as one word)."""
    source = tmp_path / "ordinals.bib"
    source.write_text(ORDINALS, encoding="utf-8")
    papers(tmp_path, "import", str(source))
    listed = {
        p["title"]: p["extra"]["booktitle"] for p in json.loads(papers(tmp_path, "list", "--json"))
    }
    assert (
        listed["A first workshop paper"]
        == "1st workshop on efficient systems for foundation models"
    )
    assert listed["A joint conference paper"] == "ACM/IEEE design automation conference"
    bibtex = papers(tmp_path, "export", "--status", "all", "--format", "bibtex")
    assert "1St" not in bibtex and "Acm/ieee" not in bibtex, bibtex


def test_a_venue_whose_first_word_is_lower_case_of_its_own_keeps_it() -> None:
    from storage.sources.venues import cased_venue

    assert cased_venue("npj digital medicine") == "npj digital medicine"  # (was "Npj")
    assert cased_venue("nature medicine") == "Nature medicine"
