"""Text as BibTeX holds it: pure ASCII, LaTeX escapes for the rest, braces always balanced.

pdflatex reads a ``.bib`` file's text as LaTeX in its default 8-bit font encoding, biber turns
the commands back into Unicode for pdflatex to set, and bibtex counts every brace (an escaped
``\\{`` too). So every character outside printable ASCII is written as a command that
pdflatex + bibtex and biblatex + biber + pdflatex both set in a plain document and that reads
back as the same character (``é`` → ``{\\'e}``, ``í`` → ``{\\'i}``, not ``{\\'{\\i}}``, which
biber makes ``ı`` + U+0301; ``τ`` → ``{$\\tau$}``; ``€`` → ``{\\texteuro}``): the table of
``tex_table.json``, made from pylatexenc's and our own by compiling every candidate
(``storage.export.tex_table``). A character without an entry is written as its letter under
LaTeX's accents, nested (ACL's ``Nguy{\\~{\\^e}}n`` as ``Nguy{\\~{{\\^e}}}n``), a mark no plain
document sets (an ogonek, a dot below) and any other character as pylatexenc's
``\\ensuremath{\\langle}\\texttt{U+4E2D}\\ensuremath{\\rangle}``, which compiles everywhere and
reads back as the character: no character is lost to a ``?``.
Each brace of the text is a command that itself has balanced braces (``{$\\lbrace$}``).
Read back through ``storage.text.latex.to_unicode``, what was written reads as it was.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from typing import Final

from storage.text.symbols import GREEK, SUBSCRIPTS, SUPERSCRIPTS, SYMBOLS

__all__ = ["OWN_CHARACTERS", "own_encoding", "tex_ascii", "tex_note", "unihex"]

# ASCII characters that mean something to LaTeX or bibtex, and how the text writes them.
_ASCII: Final = {
    "\\": r"\textbackslash{}", "{": r"{$\lbrace$}", "}": r"{$\rbrace$}",
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}  # fmt: skip

# Accents: the combining mark and the command that puts it on a letter.
_ACCENTS: Final = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
    "\u0306": "u", "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H",
    "\u030c": "v", "\u0323": "d", "\u0327": "c", "\u0331": "b",
}  # fmt: skip

# Letters and marks of text that base LaTeX names.
_TEXT: Final = {
    "ß": r"{\ss}", "æ": r"{\ae}", "Æ": r"{\AE}", "œ": r"{\oe}", "Œ": r"{\OE}",
    "ø": r"{\o}", "Ø": r"{\O}", "ł": r"{\l}", "Ł": r"{\L}", "ı": r"{\i}", "ȷ": r"{\j}",
    "å": r"{\aa}", "Å": r"{\AA}", "¡": r"{!`}", "¿": r"{?`}",
    "–": "{--}", "—": "{---}", "−": "{$-$}",
    "‘": r"{\textquoteleft}", "’": r"{\textquoteright}", "‚": ",",
    "“": r"{\textquotedblleft}", "”": r"{\textquotedblright}", "„": ",,",
    "«": "{<<}", "»": "{>>}", "…": r"{\ldots}", "•": r"{\textbullet}",
    "·": r"{\textperiodcentered}", "§": r"{\S}", "¶": r"{\P}", "†": r"{\dag}",
    "‡": r"{\ddag}", "©": r"{\copyright}", "£": r"{\pounds}", "°": r"{$^\circ$}",
    "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "\u2002": " ", "\u2003": " ",
    "\u200b": "", "\u00ad": "", "Đ": "D", "đ": "d", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    # Romanian: a comma below, not a cedilla (``\c{s}`` is ş); biber makes them ș, ț, which
    # pdflatex sets
    "ș": r"{\textcommabelow{s}}", "Ș": r"{\textcommabelow{S}}",
    "ț": r"{\textcommabelow{t}}", "Ț": r"{\textcommabelow{T}}",
}  # fmt: skip


# Math symbols of base LaTeX (fontmath), by the names ``storage.text.symbols`` gives them.
def _words(text: str) -> list[str]:
    return text.split()


_MATH_NAMES: Final = frozenset(
    _words(
        """
        alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu
        nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma
        Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega infty leq geq neq approx pm mp
        times div cdot rightarrow leftarrow leftrightarrow Rightarrow Leftarrow Leftrightarrow
        mapsto in notin subset subseteq supset supseteq cup cap sum prod int oint partial nabla
        surd forall exists neg wedge vee oplus otimes ominus circ bullet sim simeq cong equiv
        propto perp parallel ell hbar Re Im aleph emptyset langle rangle prime ll gg top bot ast
        star dagger uparrow downarrow to gets le ge ne ni setminus wp angle triangle diamond
        clubsuit diamondsuit heartsuit spadesuit flat natural sharp vdots ddots cdots ldots
        """
    )
)


def _math_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for names in (GREEK, SYMBOLS):
        for name, char in names.items():
            if name in _MATH_NAMES and len(char) == 1 and not char.isascii():
                table.setdefault(char, f"{{$\\{name}$}}")
    for chars, marker in ((SUPERSCRIPTS, "^"), (SUBSCRIPTS, "_")):
        for plain, char in chars.items():
            if len(char) == 1 and len(plain) == 1 and plain.isascii():
                table.setdefault(char, f"{{${marker}{{{_ASCII.get(plain, plain)}}}$}}")
    return table


_MATH: Final = _math_table()


def own_encoding(ch: str) -> str:
    """Our own candidate for one non-ASCII character ("" for none): a text command or math
    symbol of LaTeX's kernel, or an ASCII letter under the accents LaTeX sets (``{\\'i}``)."""
    found = _TEXT.get(ch) or _MATH.get(ch)
    if found is not None:
        return found
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[:1], decomposed[1:]
    if marks and (base.isascii() or base in _TEXT) and base.isalpha():
        out = _TEXT.get(base, base)
        for mark in marks:
            if mark not in _ACCENTS:
                return ""
            accent = _ACCENTS[mark]  # a letter command takes braces: `\\c{s}`, not `\\cs`
            bare = len(out) == 1 and not accent.isalpha()
            if out.startswith("\\"):  # on an accent: in a group of its own (``_STACKING``)
                out = "{" + out + "}"
            out = f"\\{accent}{out}" if bare else f"\\{accent}{{{out}}}"
        return "{" + out + "}"
    return ""


#: The characters our own candidates cover (for ``storage.export.tex_table``).
OWN_CHARACTERS: Final = frozenset(_TEXT) | frozenset(_MATH)


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    """``tex_table.json``: every character with a command that compiles both ways."""
    from storage.export.tex_table import TABLE_FILE

    try:
        document = json.loads(TABLE_FILE.read_text(encoding="ascii"))
        table = document["characters"]
    except (OSError, ValueError, KeyError, TypeError):  # pragma: no cover - shipped with us
        return {}
    # braced, as the table was compiled: `{\\textasciidieresis}urek`, not one command
    return {
        k: v if v.startswith("{") or not v.startswith("\\") else "{" + v + "}"
        for k, v in table.items()
        if isinstance(k, str) and isinstance(v, str)
    }


#: Accents that go on any letter, one under another accent too (``{\~{{\^e}}}``: ễ): with
#: what they go on in a group of its own, biber leaves them as LaTeX and pdflatex sets them.
#: The others (``\d``, ``\v``, ``\c``…) biber turns into a Unicode mark that a plain document
#: cannot set, and ``\k`` needs the T1 encoding, through bibtex too: a letter under one of
#: them is in the table when it compiles (``\v{n}``), else that mark is ``unihex``'s.
_STACKING: Final = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
    "\u0307": ".", "\u0308": '"',
}  # fmt: skip


def _accented(decomposed: str) -> str | None:
    """A letter and its marks (``unicodedata`` NFD) as accents around it, nested: ``ễ`` →
    ``{\\~{{\\^e}}}``; from the longest start that has a command of its own (``ê``), or from an
    ASCII letter. A mark no accent of ``_STACKING`` writes follows as ``unihex``'s (``ę`` →
    ``{e}`` and U+0328): it reads back as the character. None for another base (a Greek or
    Cyrillic letter)."""
    base, marks = decomposed[0], decomposed[1:]
    form, rest = "", marks
    for end in range(len(marks), 0, -1):
        start = unicodedata.normalize("NFC", base + marks[:end])
        found = (_table().get(start) or _TEXT.get(start)) if len(start) == 1 else None
        if found:
            form, rest = found, marks[end:]
            break
    if not form:
        if not (base.isascii() and base.isalpha()):
            return None
        form = "{" + base + "}"
    unset = ""
    for mark in rest:
        accent = _STACKING.get(mark)
        if accent is None:
            unset += unihex(mark)
        else:
            form = f"{{\\{accent}{{{form}}}}}"
    return form + unset


def unihex(ch: str) -> str:
    """pylatexenc's escape for a character LaTeX has no command for: ``<U+4E2D>`` in print."""
    return f"{{\\ensuremath{{\\langle}}\\texttt{{U+{ord(ch):04X}}}\\ensuremath{{\\rangle}}}}"


@lru_cache(maxsize=8192)
def _char(ch: str) -> str:
    """One character outside printable ASCII, as ASCII LaTeX (see the module)."""
    if ch in "\t\n\r\f\v" or unicodedata.category(ch).startswith("Z"):
        return _TEXT.get(ch, " ")
    found = _table().get(ch)
    if found is not None:
        return found
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Cn"):
        return _TEXT.get(ch, "")
    if unicodedata.decomposition(ch).startswith("<compat>"):  # a ligature: ﬁ → fi
        compatible = unicodedata.normalize("NFKC", ch)
        if compatible.isascii() and compatible.isalpha():
            return compatible
    decomposed = unicodedata.normalize("NFD", ch)
    if len(decomposed) > 1:  # a letter and its marks (ễ, ḿ, ę)
        accented = _accented(decomposed)
        if accented is not None:
            return accented
        return "".join(_ASCII.get(c, c) if c.isascii() else _char(c) for c in decomposed)
    return unihex(ch)


def tex_ascii(text: str, *, paragraphs: bool = False, markdown: bool = True) -> str:
    """``text`` on one line as pure ASCII LaTeX with balanced braces (see the module); with
    ``paragraphs``, its paragraphs kept apart by a blank line (an abstract's). Its asterisks
    are written ``\\textasteriskcentered{}`` where a reader of Markdown (ours, of an abstract)
    would take two of them for emphasis; without ``markdown`` (a title, which no reader of
    ours reads as Markdown: ``Paper.display_title``) they stay ``*``, as LaTeX and every
    BibTeX reader take them.

    One regular expression finds what is not written as it is (``_WRITTEN_OTHERWISE``: an
    abstract holds a few such characters among a thousand), rather than a Python loop over
    every character: the BibTeX export of 100,000 papers spent 25 s in that loop
    (``benchmarks.exports``).
    """
    if paragraphs:
        parts = (tex_ascii(p) for p in re.split(r"\n\s*\n", text))
        return "\n\n".join(p for p in parts if p)
    plain = " ".join(unicodedata.normalize("NFC", text).split())
    written = _quotes_apart(_WRITTEN_OTHERWISE.sub(_Escapes().escaped, plain))
    # perhaps Markdown's emphasis to a reader (`*0*` read as `0`)
    if markdown and written.count("*") > 1:
        from storage.text.latex import to_unicode

        guarded = written.replace("*", r"\textasteriskcentered{}")
        if to_unicode(written) != to_unicode(guarded):
            return guarded
    return written


def tex_note(text: str) -> str:
    """A note (BibTeX's ``annote``) as ASCII LaTeX with balanced braces: each character as
    ``tex_ascii`` writes it, its spaces and lines as they are (TeX reads them as spaces), and
    no guard of ``*`` (Zotero and JabRef would show ``\\textasteriskcentered{}`` for the ``**``
    of a Markdown note): ``storage.text.source_text.tex_text`` reads it back as it was. A line
    that reads as an entry's start or a field's (``@comment{``, ``title = …``) starts with
    ``{}``: bibtexparser took the first for an entry, biber warns of a runaway string."""
    lines = unicodedata.normalize("NFC", text).split("\n")
    written = (_quotes_apart(_WRITTEN_OTHERWISE.sub(_Escapes().escaped, line)) for line in lines)
    return "\n".join(_ENTRY_OR_FIELD.sub(r"\1{}", line, count=1) for line in written)


#: The start of a line that reads as an entry's (``@``) or a field's (``name =``).
_ENTRY_OR_FIELD: Final = re.compile(r"^( *)(?=@|[^\s={}]+ *=)")


#: What ``tex_ascii`` does not write as it is: a hyphen (written apart from a hyphen before
#: it), a grave accent (a command: `` `x' `` and ``` `` ``` are TeX's quotes), ASCII that
#: means something to LaTeX or bibtex (``_ASCII``), and every character beyond printable
#: ASCII (``_char``).
_WRITTEN_OTHERWISE: Final = re.compile(
    "[-`" + re.escape("".join(_ASCII)) + "\x00-\x1f\x7f-\U0010ffff]"
)
#: A single quote before another, in what is written (``''`` is TeX's ”, also where a control
#: character left out stood between them): written apart, ``'{}'``, as TeX sets them.
_QUOTE_BEFORE_QUOTE: Final = re.compile("'(?=')")


def _quotes_apart(written: str) -> str:
    return _QUOTE_BEFORE_QUOTE.sub("'{}", written) if "''" in written else written


class _Escapes:
    """How each character ``_WRITTEN_OTHERWISE`` finds in one text is written, in order."""

    __slots__ = ("end", "last")

    def __init__(self) -> None:
        #: Where the last character found ends, and how it was written.
        self.end = -1
        self.last = ""

    def escaped(self, found: re.Match[str]) -> str:
        ch = found.group()
        if ch == "-":  # `--` would be read as a dash: a hyphen is a hyphen, `-{}-`
            after_hyphen = found.start() == self.end and self.last.endswith("-")
            written = "{}-" if after_hyphen else "-"
        elif ch == "`":
            written = r"\textasciigrave{}"
        else:
            written = _ASCII.get(ch) or _char(ch)
        # a character left out (a control) right after another is no break between hyphens:
        # `-\x1b-` is `-{}-`
        kept = not written and found.start() == self.end
        self.end, self.last = found.end(), self.last if kept else written
        return written
