"""What TeX commands do to their arguments, for the converter (``storage.text.latex``): the
classes of commands it reads (operators, text styles, declarations, relations, fonts), the
escapes, and the symbol commands beyond ``storage.text.symbols`` read from pylatexenc's table
when a text first needs one (``more_symbols``). What a symbol stands for is in
``storage.text.symbols``; how a command reads its argument is the converter's.
"""

from __future__ import annotations

import unicodedata

from storage.text.symbols import DOUBLE_STRUCK, FRAKTUR, SCRIPT
from storage.text.symbols import SYMBOLS as OURS

# Private-use stand-ins for characters that must survive the Markdown emphasis pass
# (an asterisk from math, an underscore inside a URL, ...). Stripped from the input first.
STAR = "\ue000"
USCORE = "\ue001"

# The shared symbol table, with the characters that must survive the Markdown pass guarded.
TEX_SYMBOLS = {**OURS, "textunderscore": USCORE, "textasteriskcentered": STAR}


def _names(text: str) -> frozenset[str]:
    """Return the space-separated command names of `text` as a set."""
    return frozenset(text.split())


# Operator names written out as words (`\log n` → "log n").
OPERATORS = _names(
    "log ln lg exp sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan max "
    "min sup inf lim liminf limsup argmax argmin arg det dim ker deg gcd lcm hom Pr tr Tr "
    "rank diag sgn sign poly polylog mod"
)
# Escaped single characters (control symbols) and what they print.
#: The text symbols LaTeX sets (`\textendash`, `\textquotedblleft`, `\textdegree`; pylatexenc's
#: `\text…` too): TeX reads the spaces after such a control word as its end, `a\textendash b`
#: is `a–b`. Not math's symbols met in text (`\alpha value`), nor the words some commands
#: stand for (`\LaTeX`, `\eg`), whose space an author meant. Nor, for now, what a name holds,
#: letters (`Stra\ss e`) and the apostrophe (`O\textquoteright Brien`): a name read anew
#: changes the id of a paper known by its title and first author (``author_keys``), which a
#: library made before would then hold twice.
TEXT_SYMBOLS = frozenset(n for n in OURS if n.startswith("text") and n != "textquoteright")
#: The symbols TeX sets within a word (``self\hyphen supervised``, ``input\slash output``),
#: ended by their spaces as the text symbols are; an id reads them as it first did
#: (``storage.importing.identity._as_first_read``).
WORD_SYMBOLS = frozenset({"hyphen", "slash"})

ESCAPES = {
    "%": "%",
    "&": "&",
    "$": "$",
    "#": "#",
    "_": USCORE,
    "{": "{",
    "}": "}",
    "*": STAR,
    " ": " ",
    "\n": " ",
    "\t": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    ">": " ",
    "!": "",
    "-": "",
    "/": "",
    "@": "",
    "|": "‖",
    "\\": " ",
}
# One argument, kept as is, read in the current mode (`\underline{T}ool`, `\mathrm{d}`).
KEEP_ARGUMENT = _names(
    "mathrm mathbf mathit mathsf mathtt mathnormal boldsymbol bm pmb mathop mathbin "
    "mathrel mathord operatorname boxed underline uline underbrace overbrace substack "
    "ensuremath"
)
# One argument, kept as is, read in text mode even inside math (`$\text{where } x$`).
TEXT_STYLES = _names(
    "text textrm textbf textit textsl textsc textsf texttt textup textmd textnormal emph "
    "mbox hbox fbox framebox intertext textsuperscript textsubscript mkbibemph mkbibitalic "
    "mkbibbold enquote mkbibquote"
)
# Text styles that print quotation marks around their argument (BibLaTeX's and csquotes').
QUOTING = _names("enquote mkbibquote")
# Commands whose (first) argument is dropped.
DROP_ARG = _names(
    "color fontfamily fontseries fontshape fontsize label ref eqref autoref cref Cref "
    "cite citet citep citealp citeauthor citeyear nocite vspace hspace phantom hphantom "
    "vphantom begin end includegraphics pagestyle thispagestyle"
)
# Declarations without argument: dropped together with the space that follows them.
DECLARATIONS = _names(
    "em it bf sf rm tt sc sl up md normalfont itshape bfseries scshape upshape slshape "
    "mdseries rmfamily sffamily ttfamily small footnotesize scriptsize tiny normalsize "
    "large Large LARGE huge Huge selectfont noindent indent centering raggedright "
    "raggedleft displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits "
    "nonumber notag left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr "
    "Biggl Biggr protect relax maketitle bigskip medskip smallskip nobreakdash"
)
# Relations get spaces around them in math (`p\\in[0,1]` → "p ∈ [0,1]"), as TeX sets them.
RELATIONS = _names(
    "leq le leqslant geq ge geqslant neq ne ll gg approx simeq cong equiv propto asymp "
    "lesssim gtrsim prec succ preceq succeq in notin ni subset subseteq subsetneq supset "
    "supseteq supsetneq to rightarrow leftarrow gets leftrightarrow Rightarrow Leftarrow "
    "Leftrightarrow implies iff mapsto longrightarrow longleftarrow triangleq coloneqq"
)
TWO_ARG_SECOND = _names("textcolor colorbox overset stackrel underset")
FRACTIONS = _names("frac dfrac tfrac cfrac")
BINOMIALS = _names("binom dbinom tbinom")
DELIMITER_SIZERS = _names("left right middle")

FONTS = {
    "mathbb": DOUBLE_STRUCK,
    "Bbb": DOUBLE_STRUCK,
    "mathds": DOUBLE_STRUCK,
    "mathcal": SCRIPT,
    "mathscr": SCRIPT,
    "cal": SCRIPT,
    "mathfrak": FRAKTUR,
    "frak": FRAKTUR,
}


_MORE_SYMBOLS: dict[str, str] | None = None


def more_symbols() -> dict[str, str]:
    """pylatexenc's table of symbol commands beyond ``storage.text.symbols`` (`\\texteuro`,
    `\\textmu`, `\\guillemotleft`, `\\nleq`, …): every command that takes no argument and
    stands for non-ASCII text. Read once, when a text first holds a command ours lacks."""
    global _MORE_SYMBOLS
    if _MORE_SYMBOLS is None:
        from pylatexenc.latex2text import get_default_latex_context_db
        from pylatexenc.latexwalker import get_default_latex_context_db as walker_db

        found: dict[str, str] = {}
        parsing = walker_db()
        for spec in get_default_latex_context_db().iter_macro_specs():
            name, text = spec.macroname, spec.simplify_repl
            if not (isinstance(text, str) and text and name.isalpha() and "%" not in text):
                continue
            arguments = parsing.get_macro_spec(name)
            argspec = getattr(getattr(arguments, "args_parser", None), "argspec", "")
            word = text.isascii() and (any(c.isalnum() for c in text) or not text.strip())
            if argspec.strip("*") or word or name in TEX_SYMBOLS:  # not `\cos`, `\quad`
                continue
            found[name] = unicodedata.normalize("NFC", text)
        _MORE_SYMBOLS = found
    return _MORE_SYMBOLS
