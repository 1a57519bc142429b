"""The table of LaTeX commands the BibTeX export writes for non-ASCII characters, and how it
was made: ``tex_table.json`` beside this module.

Every character of pylatexenc's table (``latexencode``'s 1,500-odd rules) and of our own
(``storage.export.tex``: accents, Greek and math of LaTeX's kernel) is a candidate. One is kept
for a character only when

- ``storage.text.latex.to_unicode`` reads it back as that character (an approximation such as
  pylatexenc's ``\\={H}`` for ``Ħ`` is not kept: re-importing would change the title), and
- a document citing an entry holding it compiles with pdflatex + bibtex **and** with
  biblatex + biber + pdflatex, in a plain ``article`` (no package): commands that need the T1
  encoding or a package (``\\k``, ``\\mathbb``), and characters biber turns into Unicode that
  pdflatex cannot set (``\\c{e}`` → ``ȩ``), fail there and are left out.

A character without an entry is written from its parts (a letter under LaTeX's accents,
nested, and ``U+XXXX`` for a mark no plain document sets) or as pylatexenc's
``\\ensuremath{\\langle}\\texttt{U+XXXX}\\ensuremath{\\rangle}``, which compiles everywhere and
reads back as the character: nothing is ever lost to a ``?``.

Made again, with TeX installed, by ``python -m storage.export.tex_table`` (a few minutes); the
compile test in ``tests/unit/test_bibtex_compile.py`` checks the table as it stands.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

TABLE_FILE: Final = Path(__file__).with_name("tex_table.json")

BIBTEX_DOCUMENT: Final = (
    "\\documentclass{article}\\begin{document}\\nocite{*}"
    "\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
)
BIBLATEX_DOCUMENT: Final = (
    "\\documentclass{article}\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}"
    "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n"
)


def has_tex() -> bool:
    """pdflatex, bibtex and biber are installed (and biblatex's packages with them)."""
    return all(shutil.which(t) for t in ("pdflatex", "bibtex", "biber", "kpsewhich")) and bool(
        subprocess.run(
            ["kpsewhich", "biblatex.sty", "etoolbox.sty"], capture_output=True, text=True
        ).stdout.count("\n")
        == 2
    )


def run(
    folder: Path, *command: str, timeout: float = 900, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A TeX command in ``folder``, its output kept (a failure is read from the log)."""
    return subprocess.run(
        command, cwd=folder, capture_output=True, text=True, errors="replace",
        timeout=timeout, check=False, env={**os.environ, **(env or {})},
    )  # fmt: skip


def compile_both(folder: Path, bib: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``bib`` as ``refs.bib`` cited whole by a document, through pdflatex + bibtex and
    biblatex + biber: the output of each step, by name (``bibtex``, ``pdflatex+biber``…).
    ``env``: for TeX (``extra_mem_top`` raised for thousands of entries: biblatex keeps every
    cited entry in TeX's memory)."""
    (folder / "refs.bib").write_text(bib, encoding="ascii")
    (folder / "bt.tex").write_text(BIBTEX_DOCUMENT)
    (folder / "bl.tex").write_text(BIBLATEX_DOCUMENT)
    latex = ("pdflatex", "-interaction=nonstopmode")
    out: dict[str, str] = {}
    run(folder, *latex, "bt.tex", env=env)
    out["bibtex"] = run(folder, "bibtex", "bt").stdout
    out["pdflatex+bibtex"] = run(folder, *latex, "bt.tex", env=env).stdout
    run(folder, *latex, "bl.tex", env=env)
    out["biber"] = run(folder, "biber", "bl").stdout
    out["pdflatex+biber"] = run(folder, *latex, "bl.tex", env=env).stdout
    return out


_ERROR_LINE: Final = re.compile(r"^! .*?\n(?:.*\n){0,8}?l\.(\d+)", re.MULTILINE)


def failing_keys(log: str, bbl: str) -> set[str]:
    """The entries of a ``.bbl`` on whose lines pdflatex stopped (``l.NNN`` of an error)."""
    owner: dict[int, str] = {}
    current = ""
    for number, line in enumerate(bbl.split("\n"), 1):
        found = re.search(r"\\(?:bibitem|entry)\{([^}]*)\}", line)
        if found:
            current = found.group(1)
        owner[number] = current
    return {owner.get(int(m.group(1)), "") for m in _ERROR_LINE.finditer(log)} - {""}


def _bib(candidates: Mapping[int, str]) -> str:
    return "".join(
        f"@misc{{k{code}, title = {{{{{tex}}}}}, author = {{Ann Lee}}, year = {{2020}}}}\n"
        for code, tex in candidates.items()
    )


def _decoded_failures(folder: Path, candidates: Mapping[int, str]) -> set[int]:
    """Characters biber decodes into Unicode that pdflatex then cannot set: the decoded
    titles are set one per paragraph and the errors read back by line."""
    (folder / "good.bib").write_text(_bib(candidates), encoding="ascii")
    run(folder, "biber", "--tool", "--output-encoding=UTF-8", "--output-file=decoded.bib",
        "good.bib")  # fmt: skip
    decoded = re.findall(
        r"@MISC\{k(\d+),.*?TITLE = \{(.*?)\},\n\}",
        (folder / "decoded.bib").read_text(encoding="utf-8", errors="replace"),
        re.DOTALL,
    )
    body = "".join(f"{title}\\par\n" for _, title in decoded)
    (folder / "dec.tex").write_text(
        "\\documentclass{article}\\begin{document}\n" + body + "\\end{document}\n",
        encoding="utf-8",
    )
    log = run(folder, "pdflatex", "-interaction=nonstopmode", "dec.tex").stdout
    lines = {int(m.group(1)) for m in _ERROR_LINE.finditer(log)}
    return {int(decoded[n - 2][0]) for n in lines if 2 <= n < len(decoded) + 2}


def candidates() -> list[dict[int, str]]:
    """Every non-ASCII character's candidates, best first: ours, then pylatexenc's; each
    kept only when it reads back as its character."""
    from pylatexenc.latexencode import get_builtin_conversion_rules

    from storage.export.tex import own_encoding
    from storage.text.latex import to_unicode

    rules = get_builtin_conversion_rules("defaults")[0].rule
    assert isinstance(rules, Mapping)
    codes = sorted({c for c in rules if c > 127} | set(range(0xA0, 0x250)) | _own_codes())
    rounds: list[dict[int, str]] = [{}, {}]
    for code in codes:
        char = chr(code)
        for index, tex in enumerate((own_encoding(char), rules.get(code))):
            if tex and to_unicode("{" + tex + "}") == char:
                rounds[index][code] = tex
    return rounds


def _own_codes() -> set[int]:
    from storage.export.tex import OWN_CHARACTERS

    return {ord(c) for c in OWN_CHARACTERS}


def make_table(progress: Iterable[str] | None = None) -> dict[str, str]:
    """Character → LaTeX for every candidate that compiles both ways (see the module)."""
    table: dict[int, str] = {}
    pending = candidates()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for batch in pending:
            batch = {c: t for c, t in batch.items() if c not in table}
            while batch:
                logs = compile_both(folder, _bib(batch))
                failed = set()
                for log, bbl in (("pdflatex+bibtex", "bt.bbl"), ("pdflatex+biber", "bl.bbl")):
                    text = (
                        (folder / bbl).read_text(errors="replace")
                        if (folder / bbl).exists()
                        else ""
                    )
                    failed |= {int(k[1:]) for k in failing_keys(logs[log], text)}
                failed |= _decoded_failures(folder, batch)
                if "ERROR" in logs["biber"]:
                    raise RuntimeError("biber refused the candidates: " + logs["biber"][-500:])
                if not failed:
                    errors = [n for n in ("pdflatex+bibtex", "pdflatex+biber") if "\n! " in logs[n]]
                    if errors:  # an error no entry can be blamed for: look at the logs
                        raise RuntimeError(f"{', '.join(errors)} failed: see {folder}")
                    table.update(batch)
                    break
                print(f"{len(failed)} of {len(batch)} candidates fail; trying without them",
                      file=sys.stderr)  # fmt: skip
                batch = {c: t for c, t in batch.items() if c not in failed}
    return {chr(code): table[code] for code in sorted(table)}


def main() -> int:
    if not has_tex():
        print("pdflatex, bibtex, biber and biblatex are needed to make the table", file=sys.stderr)
        return 1
    import pylatexenc

    table = make_table()
    document = {
        "made_with": f"pylatexenc {pylatexenc.__version__}, pdflatex + bibtex, "
        "biblatex + biber (python -m storage.export.tex_table)",
        "characters": table,
    }
    TABLE_FILE.write_text(
        json.dumps(document, ensure_ascii=True, indent=0, sort_keys=False) + "\n",
        encoding="ascii",
    )
    print(f"{len(table):,} characters written to {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
