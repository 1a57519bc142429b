"""Small files that once made a reader blow up (issue 24), written fresh for each test.

Each writer returns what the file should give: the papers a sound reader imports from it and
the one-line warning or refusal it says. ``benchmarks/hostile_readers.py`` times the same
files through the real ``papers import`` and reports each one's peak memory.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from storage import Library

ABSTRACT = "A paper about sampling from diffusion models faster, with bounds and experiments."


@dataclass(frozen=True, slots=True)
class Bomb:
    """A hostile file and what importing it must give."""

    path: Path
    #: Papers added (the rest of the file, imported).
    added: int
    #: Words the command's output must hold (a warning, a refusal), lower case.
    said: tuple[str, ...]


def macro_bomb(folder: Path) -> Bomb:
    """720 bytes of ``@string`` macros, each doubling the last (2^26 × 8 characters), used
    by one entry, beside a sound one: 39 s and 550 MB before macros had a budget."""
    lines = ['@string{m0 = "abcdefgh"}']
    lines += [f"@string{{m{i} = m{i - 1} # m{i - 1}}}" for i in range(1, 27)]
    lines += ["@article{bomb, title = m26}", "@article{ok, title = {A Sound Paper}, year = 2024}"]
    path = folder / "macros.bib"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    assert 650 <= path.stat().st_size <= 800, path.stat().st_size
    return Bomb(path, 1, ("@string", "m26", "record error"))


def ris_wrapped(folder: Path, megabytes: int) -> Bomb:
    """A RIS record whose abstract wraps over ``megabytes`` MB of lines, between two sound
    records: joined in quadratic time, 10 MB took 75 s and 20 MB did not end in 15 minutes."""
    line = "continued abstract text of a wrapped value, line after line of it, " * 1
    count = megabytes * 1024 * 1024 // (len(line) + 1)
    parts = [
        f"TY  - JOUR\nTI  - Sound paper one\nAB  - {ABSTRACT}\nER  - \n",
        "TY  - JOUR\nTI  - Wrapped without end\nAB  - start\n" + (line + "\n") * count + "ER  - \n",
        f"TY  - JOUR\nTI  - Sound paper two\nAB  - {ABSTRACT} Two.\nER  - \n",
    ]
    path = folder / f"wrapped-{megabytes}mb.ris"
    path.write_text("\n".join(parts), encoding="ascii")
    return Bomb(path, 2, ("record 2", "too long a value"))


def huge_numbers(folder: Path) -> Bomb:
    """Citation counts of 1e308, 400 digits and 1e400 beside a sound record: each one bad
    field of one record (it aborted the import with an internal error)."""
    records = [
        {"title": "Huge one", "abstract": ABSTRACT + " One.", "citations": 1e308},
        {"title": "Huge two", "abstract": ABSTRACT + " Two.", "citations": 0},
        {"title": "Sound", "abstract": ABSTRACT + " Sound.", "citations": 12},
    ]
    text = json.dumps(records).replace('"citations": 0', '"citations": ' + "9" * 400)
    path = folder / "numbers.json"
    path.write_text(text, encoding="ascii")
    return Bomb(path, 1, ("citations", "out of range", "2 record errors"))


def hostile_library(folder: Path, triage: str) -> Bomb:
    """A library folder whose ``triage.json`` is hostile (``triage`` as its text): its papers
    still come, and the import says what it left out."""
    source = folder / "list.jsonl"
    source.write_text(
        "\n".join(
            json.dumps({"title": f"Paper {i}", "abstract": f"{ABSTRACT} {i}."}) for i in range(3)
        )
    )
    library_home = folder / "library"
    Library(library_home).import_file(source)
    (library_home / "triage.json").write_text(triage, encoding="utf-8")
    return Bomb(library_home, 3, ("triage.json", "left out"))


def crossref_cycle(folder: Path, size: int = 500) -> Bomb:
    """``size`` entries, each ``crossref``-ing the next, the last the first: they vanished
    with "no papers found" while each was taken for a container."""
    entries = [
        f"@inproceedings{{e{i}, title = {{Cycle paper {i}}}, crossref = {{e{(i + 1) % size}}}}}"
        for i in range(size)
    ]
    path = folder / "cycle.bib"
    path.write_text("\n".join(entries) + "\n", encoding="ascii")
    return Bomb(path, size, ("crossref cycle", "e0 → e1"))


def bare_cr_csv(folder: Path, rows: int = 10) -> Bomb:
    """A CSV whose rows end in a bare CR (old Mac files): they read as one bad row."""
    lines = ["title,abstract"] + [f'Paper {i},"{ABSTRACT} Number {i}."' for i in range(rows)]
    path = folder / "bare-cr.csv"
    path.write_bytes("\r".join(lines).encode("ascii") + b"\r")
    return Bomb(path, rows, ())


def nested_config(home: Path, depth: int = 600) -> Path:
    """A ``config.toml`` of ``depth`` nested arrays (1.2 KB): RecursionError stopped the app."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / "config.toml"
    path.write_text("x = " + "[" * depth + "]" * depth + "\n", encoding="ascii")
    return path


def run_together_fields(folder: Path, fields: int = 3000) -> Bomb:
    """An entry of ``fields`` fields with no comma between them (each read apart, the
    missing commas said), beside a sound one: the one call a field ran out of stack past a
    thousand, an internal error that imported nothing."""
    run = "".join(f"\n  f{i} = {{v{i}}}" for i in range(fields))
    entries = [
        f"@article{{run, title = {{Fields Run Together}}, year = {{2020}}, note = {{x}}{run}\n}}",
        "@article{ok, title = {A Sound Paper}, year = 2024}",
    ]
    path = folder / "run-together.bib"
    path.write_text("\n".join(entries) + "\n", encoding="ascii")
    return Bomb(path, 2, ("a comma is missing before f0, f1", f"and {fields - 5:,} more"))


def long_field_names(folder: Path, length: int = 100_000) -> Bomb:
    """Field names ``length`` letters long, one written twice, one after a missing comma:
    each warning named them whole, a line of 200,000 characters."""
    name = "f" * length
    entries = [
        f"@article{{twice, title = {{Named Twice}}, {name} = {{a}}, {name} = {{b}}}}",
        f"@article{{mended, title = {{Mended}}, year = {{2020}}\n  {'g' * length} = {{c}}}}",
    ]
    path = folder / "long-names.bib"
    path.write_text("\n".join(entries) + "\n", encoding="ascii")
    return Bomb(path, 2, ("f" * 40 + "… written twice", "missing before " + "g" * 40 + "…"))
