"""Export → import → export is a fixed point, for every format and every field.

Random libraries (titles, abstracts, authors in several scripts with LaTeX-special and
Markdown-special characters, links, code links, keywords, venue statuses, every reference
field, several lists, decisions, notes and tags) are exported in each of our six formats,
the export imported into an empty library, and that library exported again: the two exports
are the same text. What a format carries comes back as it went; what it does not carry
(a BibTeX file has no triage status) is not in either export.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.export import EXPORTERS, export

SUFFIXES = {"markdown": ".md", "json": ".json", "csv": ".csv", "bibtex": ".bib",
            "csl-json": ".csl.json", "ris": ".ris"}  # fmt: skip

# Text as papers hold it: letters of several scripts, digits, spaces and the punctuation
# titles and abstracts use, LaTeX's and Markdown's special characters among it.
_CHARS = st.sampled_from(
    list("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789")
    + list("éèüöñçøåßİıŁłșțĦ αβγΣΩ 中文字 日本語 한국어 😀 ﬁ ’“”–—…")
    + list(".,:;!?'()-/+=%&#*_[]<>{}$~^\\|\"@")
)
# Not a backtick, nor two apostrophes in a row: LaTeX (and so the display of every paper's
# text) reads ``…'' as quotation marks, which is what they are in the sources.
_TEXT = st.text(_CHARS, min_size=1, max_size=30).map(
    lambda t: " ".join(t.replace("''", "'").split()) or "x"
)
# Names as people have them: letters of any script, spaces, hyphens, apostrophes, periods.
_NAME = st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyz éüøßłİı αβ 中文 한국 -'.")),
                min_size=1, max_size=12).map(
    lambda t: " ".join(t.replace("''", "'").split()) or "x")  # fmt: skip
_WORD = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzéü"), min_size=2, max_size=10)


@st.composite
def libraries(draw: st.DrawFn) -> list[dict[str, object]]:
    count = draw(st.integers(1, 4))
    rows = []
    for i in range(count):
        words = draw(st.lists(_WORD, min_size=12, max_size=30))
        row: dict[str, object] = {
            "title": f"Paper {i} {draw(_TEXT)}",
            "abstract": f"Abstract {i}: {' '.join(words)}. {draw(_TEXT)} and more words here.",
            "authors": draw(st.lists(_NAME.map(lambda t: f"Ann {t} Lee"), max_size=3)),
            "lists": draw(st.lists(st.sampled_from(["ICLR 2025", "My list", "A, B"]), min_size=1,
                                   max_size=2, unique=True)),
            "status": draw(st.sampled_from([s.value for s in Status])),
        }  # fmt: skip
        if draw(st.booleans()):
            row["url"] = f"https://openreview.net/forum?id=paper{i:04d}x"
        if draw(st.booleans()):
            row["github"] = [f"https://github.com/owner{i}/repo-{j}" for j in range(2)]
        if draw(st.booleans()):
            row["keywords"] = draw(st.lists(_WORD, min_size=1, max_size=3, unique=True))
        if draw(st.booleans()):
            row["venue_status"] = draw(st.sampled_from(["Oral", "Poster", "Spotlight"]))
        extra: dict[str, object] = {}
        for name, value in (
            ("doi", f"10.1234/x.{i}"), ("year", 2020 + i), ("month", 1 + i % 12),
            ("journal", f"Journal of {draw(_TEXT)}"), ("publisher", draw(_TEXT)),
            ("volume", str(i + 1)), ("issue", str(i + 2)), ("pages", f"{i + 1}–{i + 9}"),
            ("bib_note", draw(_TEXT)), ("rating", 6.5), ("citations", 10 + i),
            ("area", "learning theory"), ("isbn", "978-3-16-148410-0"),
        ):  # fmt: skip
            if draw(st.booleans()):
                extra[name] = value
        row["extra"] = extra
        row["note"] = draw(st.one_of(st.just(""), _TEXT))
        row["tags"] = draw(st.lists(_WORD, max_size=2, unique=True))
        rows.append(row)
    return rows


def _library(home: Path, rows: list[dict[str, object]]) -> Library:
    """A library made the way papers arrive: a JSON list imported, decisions made."""
    source = home.parent / f"{home.name}-list.json"
    source.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    library = Library(home)
    library.import_file(source)
    return library


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=libraries(), fmt=st.sampled_from([e.name for e in EXPORTERS]))
# CI's find: a given name ending in a suffix's word, written ``Lee, Ann jr``, came back a
# suffix (``Lee, jr, Ann``); it is written ``Lee, Ann {jr}`` now, and read so
@example(
    rows=[{"title": "Paper 0 0", "authors": ["Ann jr Lee"], "lists": ["ICLR 2025"],
           "abstract": "Abstract 0: aa aa aa aa aa aa aa aa aa aa aa aa. 0 and more words here.",
           "status": "inbox", "extra": {}, "note": "", "tags": []}],
    fmt="bibtex",
)  # fmt: skip
def test_export_import_export_is_a_fixed_point(rows: list[dict[str, object]], fmt: str) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        first = _library(folder / "first", rows)
        text = export(first.papers(), first.triage(), fmt, abstracts=True)
        path = folder / f"export{SUFFIXES[fmt]}"
        path.write_text(text, encoding="utf-8")
        second = Library(folder / "second")
        second.import_file(path)
        again = export(second.papers(), second.triage(), fmt, abstracts=True)
        assert again == text
