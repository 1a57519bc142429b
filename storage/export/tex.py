"""Text as BibTeX holds it: pure ASCII, LaTeX escapes for the rest, braces always balanced.

pdflatex reads a ``.bib`` file's text as LaTeX in its default 8-bit font encoding, and bibtex
counts every brace (an escaped ``\\{`` too): so every character outside printable ASCII becomes
a command base LaTeX knows (``é`` → ``{\\'e}``, ``τ`` → ``{$\\tau$}``, ``–`` → ``--``), each
brace of the text a command that itself has balanced braces (``{$\\lbrace$}``), and a
character with no such command its closest ASCII (``ﬁ`` → ``fi``) or ``?``. Read back through
``storage.text.latex.to_unicode``, what was mapped reads as it was written.

Only commands of LaTeX's kernel are used (no package): the file compiles in any document.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from storage.text.symbols import GREEK, SUBSCRIPTS, SUPERSCRIPTS, SYMBOLS

__all__ = ["tex_ascii"]

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
    "\u0326": "c",  # a comma below (ș, ț): a cedilla is the closest base LaTeX has
}  # fmt: skip

# Letters and marks of text that base LaTeX names.
_TEXT: Final = {
    "ß": r"{\ss}", "æ": r"{\ae}", "Æ": r"{\AE}", "œ": r"{\oe}", "Œ": r"{\OE}",
    "ø": r"{\o}", "Ø": r"{\O}", "ł": r"{\l}", "Ł": r"{\L}", "ı": r"{\i}", "ȷ": r"{\j}",
    "å": r"{\aa}", "Å": r"{\AA}", "¡": r"{!`}", "¿": r"{?`}",
    "–": "--", "—": "---", "‐": "-", "‑": "-", "‒": "--", "−": "{$-$}",
    "‘": r"{\textquoteleft}", "’": r"{\textquoteright}", "‚": ",",
    "“": r"{\textquotedblleft}", "”": r"{\textquotedblright}", "„": ",,",
    "«": "{<<}", "»": "{>>}", "…": r"{\ldots}", "•": r"{\textbullet}",
    "·": r"{\textperiodcentered}", "§": r"{\S}", "¶": r"{\P}", "†": r"{\dag}",
    "‡": r"{\ddag}", "©": r"{\copyright}", "£": r"{\pounds}", "°": r"{$^\circ$}",
    "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "\u2002": " ", "\u2003": " ",
    "\u200b": "", "\u00ad": "", "Đ": "D", "đ": "d", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
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


def _char(ch: str) -> str:
    """One character outside printable ASCII, as ASCII LaTeX."""
    found = _TEXT.get(ch) or _MATH.get(ch)
    if found is not None:
        return found
    if ch in "\t\n\r\f\v" or unicodedata.category(ch).startswith("Z"):
        return " "
    if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn"):
        return ""
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[:1], decomposed[1:]
    if marks and (base.isascii() or base in _TEXT) and base.isprintable():
        # the accents base LaTeX sets; others (an ogonek needs the T1 encoding) are dropped
        out = _TEXT.get(base, "\\i" if base == "i" else base)
        for mark in marks:
            if mark in _ACCENTS:
                out = f"\\{_ACCENTS[mark]}{{{out}}}"
        return "{" + out + "}"
    compatible = unicodedata.normalize("NFKC", ch)
    if compatible != ch and all(c.isascii() or c in _TEXT or c in _MATH for c in compatible):
        return "".join(_ASCII.get(c, c) if c.isascii() else _char(c) for c in compatible)
    return "?"


def tex_ascii(text: str) -> str:
    """``text`` on one line as pure ASCII LaTeX with balanced braces (see the module)."""
    out: list[str] = []
    for ch in " ".join(text.split()):
        if ch.isascii() and ch.isprintable():
            out.append(_ASCII.get(ch, ch))
        else:
            out.append(_char(ch))
    return "".join(out)
