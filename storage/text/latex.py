"""LaTeX and Markdown made readable: the one converter from source text to display Unicode.

Abstracts and titles arrive with TeX math and commands (``$\\ell_{2}$``, ``\\textbf{...}``),
Markdown links and emphasis, HTML entities and stray control characters. :func:`to_unicode`
turns all of them into plain readable Unicode (``ℓ₂``), one space between words and one blank
line between paragraphs. What a symbol command stands for is in ``storage.text.symbols``, which
commands take which arguments in ``storage.text.tex_commands``; here is how commands read their
arguments and how math is set on one line.

Total: no function raises on any string, and every pass is linear in its input (a text with
too much markup is shown as plain text, see ``_MAX_MARKUP``). Symbol commands our table lacks
are looked up in pylatexenc's (``tex_commands.more_symbols``), read when a text first needs it.
"""

from __future__ import annotations

import html
import html.entities
import re
import unicodedata
from typing import Final

from storage.text.sanitize import SHOWN
from storage.text.symbols import (
    DINGS,
    LETTER_ACCENTS,
    MATH_ACCENTS,
    SUBSCRIPTS,
    SUPERSCRIPTS,
    SYMBOL_ACCENTS,
)
from storage.text.tex_commands import (
    BINOMIALS,
    DECLARATIONS,
    DELIMITER_SIZERS,
    DROP_ARG,
    ESCAPES,
    FONTS,
    FRACTIONS,
    KEEP_ARGUMENT,
    OPERATORS,
    QUOTING,
    RELATIONS,
    STAR,
    TEX_SYMBOLS,
    TEXT_STYLES,
    TEXT_SYMBOLS,
    TWO_ARG_SECOND,
    USCORE,
    WORD_SYMBOLS,
    more_symbols,
)

__all__ = ["to_unicode"]


# Control characters are shown, never obeyed nor hidden (as ``storage.text.sanitize`` shows
# them at every border: ``␛`` for ESC, ``␇`` for BEL, ``␡`` for DEL, ``�`` for a C1 control);
# tabs and form feeds become spaces, a lone CR a line break; the sentinels are dropped (a
# text's own: ``tex_commands``' and the quotes' below, ``_LIGATURE_BREAK``).
_CONTROL: dict[int, str | None] = {c: shown for c, shown in SHOWN.items() if c != 0x0A}
_CONTROL.update({0x09: " ", 0x0C: " ", 0x0D: "\n", 0xE000: None, 0xE001: None})
_CONTROL.update(dict.fromkeys((0xFDD0, 0xFDD1, 0xFDD2)))
_CONTROL_TABLE = str.maketrans(_CONTROL)
# Not ``shown``: the controls that are neither a space nor a line's end kept as they are.
_KEPT_TABLE = str.maketrans({c: v for c, v in _CONTROL.items() if chr(c).isspace() or v is None})
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ue000\ue001\ufdd0-\ufdd2]")
# A paragraph without any of these reads the same after the TeX pass (which is skipped).
_TEX_MARKERS = ("\\", "$", "{", "}", "~", "_", "^", "--", "://", "www.")
# Nor does one whose only marker is a link's "://" with no "*" in it (one abstract in nine):
# the pass keeps its text as it is, and a link whole, guarding only its "_" and "*" (none).
_TEX_MARKERS_BUT_LINKS = tuple(m for m in _TEX_MARKERS if m != "://")

_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_PARAGRAPH_RE = re.compile(r"\n\s*\n")
_MD_LINK_RE = re.compile(r"\[([^\[\]\n]{1,500})\]\(\s*([^\s()\[\]]{1,2000})\s*\)")
_AUTOLINK_RE = re.compile(r"<((?:https?://|www\.)[^\s<>]{1,2000})>")
_LINK_KEY_RE = re.compile(r"^(?:https?://)?(?:www\.)?")

_TOKEN_RE = re.compile(
    r"(?P<url>(?:https?://|www\.)(?:[^\s{}\\<>()\[\]\"$]|\\[_#%&~])+)"
    r"|(?P<cmd>\\\\?[A-Za-z]+\*?|\\.?)"
    r"|(?P<dollar>\$)"
    r"|(?P<open>\{)"
    r"|(?P<close>\})"
    r"|(?P<script>[_^])"
    r"|(?P<dash>---?)"
    r"|(?P<tilde>~)"
    r"|(?P<text>(?:[^\\${}_^~\-hw]+|h(?!ttps?://)|w(?!ww\.)|-(?!-))+)"
    r"|(?P<char>.)",
    re.DOTALL,
)

# Markdown and quote passes over a rendered paragraph. Each body excludes its own delimiter,
# so a scan from an opener stops at the next delimiter: linear time, no backtracking blow-up.
# Each opens with its delimiter and looks back from there at what stands before it (``\*\*``
# not after ``*`` or ``\``: ``\*\*(?<![*\\]\*\*)``, the same matches as ``(?<![*\\])\*\*``),
# so that the engine skips from one delimiter to the next in C; a pattern that opens with a
# look-behind is tried at every character (the four passes over the abstracts of 100,000
# papers: 1.2 s of CPU, 0.15 s this way).
_STRONG_STAR_RE = re.compile(r"\*\*(?<![*\\]\*\*)(?=[^\s*])([^*]*?[^\s*])\*\*(?!\*)")
_EM_STAR_RE = re.compile(r"\*(?<![\w*\\]\*)(?=[^\s*])([^*]*?[^\s*])\*(?!\*)")
_STRONG_USCORE_RE = re.compile(r"__(?<![\w\\]__)(?=[^\s_])([^_]*?[^\s_])__(?!\w)")
_EM_USCORE_RE = re.compile(r"_(?<![\w\\]_)(?=[^\s_])([^_]*?[^\s_])_(?!\w)")
#: What an empty group between two quotes leaves (`'{}'`: TeX sets two quotes, not ”), and
#: the quotes a command writes (``\textasciigrave``, ``\textquotesingle``: as they are,
#: never read with the text's quotes as a curly one), until the quotes are read
#: (``_render_paragraph``): Unicode's noncharacters, for a program's own use, which a text's
#: own are dropped for (``_CONTROL``; U+E0B0-E0B2, of private use, were Powerline's glyphs).
_LIGATURE_BREAK: Final = "\ufdd0"
_GRAVE: Final = "\ufdd1"
_APOSTROPHE: Final = "\ufdd2"
_KEPT_QUOTES: Final = {"textasciigrave": _GRAVE, "textquotesingle": _APOSTROPHE}
_SINGLE_QUOTE_RE = re.compile(r"`([^`'\n]{1,200})'")
_CODE_SPAN_RE = re.compile(r"`(?<!``)(?=[^\s`])([^`]*?[^\s`])`(?!`)")

#: Dashes, whose spaces an author writes alike on both sides (``_Parser._spaced_dash``).
_DASHES = frozenset({"textendash", "textemdash"})
_MAX_DEPTH = 60
_MAX_MATH = 2000
# The TeX and Markdown passes cost about a microsecond per markup token. Real abstracts
# have at most a few hundred; a text with more than this many is shown as plain text
# (whitespace normalised) so that hostile input of any size renders in linear C-speed time.
_MARKUP = ("\\", "$", "{", "}", "_", "^", "~", "*", "`", "[", "&", "--", "://", "www.")
_MAX_MARKUP = 20_000

# LaTeX / Markdown escapes that authors put inside URLs (`IDI\_release`).
_URL_ESCAPE_RE = re.compile(r"\\([_#%&~$])")
# An asterisk in a superscript (`x^*`) is guarded like every math asterisk.
_SUPERSCRIPTS = {**SUPERSCRIPTS, STAR: STAR, "*": STAR, "∗": STAR}

_FRACTION_OPERATORS = frozenset(" +-−±∓·×/÷=<>≤≥,:;|")
_SCRIPT_CHARS = re.escape("".join(set(_SUPERSCRIPTS.values()) | set(SUBSCRIPTS.values())))
# A number or one symbol, optionally under a root, followed by scripts: `0.5`, `√d`, `x²`.
_ATOM_RE = re.compile(
    rf"√?(?:\d+(?:\.\d+)?|\S)(?:[{_SCRIPT_CHARS}]|[\^{USCORE}](?:\([^()]*\)|[^\s()]))*"
)


def _parenthesised(text: str) -> bool:
    """Tell whether `text` is one parenthesised group, like `(a+b)` but not `(a)+(b)`."""
    if len(text) < 2 or text[0] != "(" or text[-1] != ")":
        return False
    depth = 0
    for position, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0 and position != len(text) - 1:
                return False
    return depth == 0


def _is_atom(text: str) -> bool:
    """Tell whether `text` reads unambiguously without parentheses: `2`, `0.5`, `x²`, `√d`."""
    return _parenthesised(text) or _ATOM_RE.fullmatch(text) is not None


def _group(text: str) -> str:
    """Wrap `text` in parentheses unless it is an atom or already parenthesised."""
    return text if _is_atom(text) or _parenthesised(text) else f"({text})"


def _fraction(numerator: str, denominator: str) -> str:
    """Render `\\frac{a}{b}` on one line: `a/b`, with parentheses where they are needed."""
    numerator, denominator = numerator.strip(), denominator.strip()
    if any(c in _FRACTION_OPERATORS for c in numerator) and not _parenthesised(numerator):
        numerator = f"({numerator})"
    return f"{numerator}/{_group(denominator)}"


def _script(marker: str, argument: str) -> str:
    """Render `^{...}` / `_{...}` with Unicode scripts, else as `^x` / `^(...)`."""
    argument = argument.strip()
    if not argument:
        return ""
    table = _SUPERSCRIPTS if marker == "^" else SUBSCRIPTS
    compact = "".join(argument.split())
    if all(c in table for c in compact):
        return "".join(table[c] for c in compact)
    shown = "^" if marker == "^" else USCORE
    if len(compact) == 1 or _parenthesised(argument):
        return shown + argument
    return f"{shown}({argument})"


def _combine(base: str, mark: str) -> str | None:
    """Return `base` with the combining `mark`, composed when Unicode has such a letter."""
    base = base.strip()
    if len(base) != 1:
        return None
    if base == "ı":
        base = "i"
    return unicodedata.normalize("NFC", base + mark)


def _clean_url(raw: str) -> str:
    """Return a URL from TeX source with escapes undone and Markdown-sensitive chars guarded."""
    url = "".join(_URL_ESCAPE_RE.sub(r"\1", raw).split())
    return url.replace("_", USCORE).replace("*", STAR)


def _link_key(text: str) -> str:
    """Return the comparable core of a link or of a link's text."""
    text = text.strip().strip("`*_").strip()
    return _LINK_KEY_RE.sub("", text).rstrip("/").lower()


def _markdown_link(match: re.Match[str]) -> str:
    """Render a Markdown link `[text](url)` as `text (url)`, or just `url` if they agree."""
    text, url = match.group(1), match.group(2)
    if not (url.startswith(("http://", "https://", "www.")) or "." in url.split("/", 1)[0]):
        return match.group(0)
    if _link_key(text) == _link_key(url):
        return url
    return f"{text} ({url})"


class _Parser:
    """Render one paragraph of TeX-flavoured text; every path is total and linear."""

    def __init__(self, source: str) -> None:
        self.source = source
        tokens = list(_TOKEN_RE.finditer(source))
        self.kinds: list[str] = [token.lastgroup or "char" for token in tokens]
        self.texts: list[str] = [token.group() for token in tokens]
        self.starts: list[int] = [token.start() for token in tokens]
        self.ends: list[int] = [token.end() for token in tokens]
        self.count = len(tokens)
        self.partner = [-1] * self.count
        self._match_braces()
        self._pair_dollars()

    def _match_braces(self) -> None:
        """Record, for every `{`, the index of its `}` (-1 when unbalanced)."""
        stack: list[int] = []
        for index, kind in enumerate(self.kinds):
            if kind == "open":
                stack.append(index)
            elif kind == "close" and stack:
                self.partner[stack.pop()] = index

    def _pair_dollars(self) -> None:
        """Pair `$...$` (and `$$...$$`) delimiters that plausibly enclose math.

        Dollars pair in order, as in TeX; a pair whose content does not read as math
        ("$5 and $10") is dropped and its second dollar may open the next pair.
        """
        dollars = [i for i, kind in enumerate(self.kinds) if kind == "dollar"]
        k = 0
        while k + 1 < len(dollars):
            first, second = dollars[k], dollars[k + 1]
            if second == first + 1 and k + 3 < len(dollars):
                third, fourth = dollars[k + 2], dollars[k + 3]
                if fourth == third + 1 and self._is_math(second, third):
                    self.partner[first] = fourth
                    k += 4
                    continue
            if second > first + 1 and self._is_math(first, second):
                self.partner[first] = second
                k += 2
            else:
                k += 1

    def _is_math(self, first: int, second: int) -> bool:
        """Tell whether the text between two dollar tokens reads as math.

        As in Pandoc, `$` followed by a space or a closing `$` preceded by one is not math,
        and neither is a digit right after the closing `$` (so "$5 and $10" and "$5,$6" stay
        prose); but a span that does not start with a digit may be padded (`$ f $`), and one
        without digits may touch a number (`$\\sim$40%`).
        """
        content = self.source[self.ends[first] : self.starts[second]]
        stripped = content.strip()
        if not stripped or len(content) > _MAX_MATH:
            return False
        after = self.source[self.ends[second] : self.ends[second] + 1]
        if after.isdigit() and any(c.isdigit() for c in content):
            return False
        if not content[0].isspace() and not content[-1].isspace():
            return True
        return not stripped[0].isdigit()

    def render(self) -> str:
        """Return the readable form of the whole paragraph."""
        return self.parse(0, self.count, False, 0)

    def flat(self, start: int, end: int) -> str:
        """Return the plain text of tokens [start, end) without interpreting anything."""
        keep = ("text", "url", "char")
        return "".join(self.texts[i] for i in range(start, end) if self.kinds[i] in keep)

    def parse(self, start: int, end: int, math: bool, depth: int) -> str:
        """Render tokens [start, end) in text or math mode."""
        if depth > _MAX_DEPTH:
            return self.flat(start, end)
        out: list[str] = []
        eat_space = False
        i = start
        while i < end:
            kind = self.kinds[i]
            text = self.texts[i]
            if kind == "text":
                if math:
                    if eat_space and text[:1].isspace() and text.lstrip()[:1].isalnum():
                        text = text.lstrip()
                    text = text.replace("'", "′").replace("*", STAR).replace("&", " ")
                out.append(text)
                i += 1
            elif kind == "cmd":
                rendered, i = self.command(i, end, math, depth)
                out.append(rendered)
                eat_space = math and len(rendered) == 1 and rendered.isalpha()
                continue
            elif kind == "open":
                close = self.partner[i]
                if i < close < end:
                    out.append(self.parse(i + 1, close, math, depth + 1))
                    if close == i + 1 and not math and self._between_quotes(out, close + 1):
                        out.append(_LIGATURE_BREAK)  # `'{}'` is two quotes, as TeX sets it
                    i = close + 1
                else:
                    i += 1
            elif kind == "dollar":
                close = self.partner[i]
                if i < close < end:
                    display = self.kinds[i + 1] == "dollar"
                    if close == i + 2 and self.kinds[i + 1] == "tilde":
                        out.append("~")  # `$~$40%`: authors mean "about", not a tie
                    elif display:
                        out.append(self.parse(i + 2, close - 1, True, depth + 1).strip())
                    else:
                        out.append(self.parse(i + 1, close, True, depth + 1).strip())
                    i = close + 1
                else:
                    out.append(text)
                    i += 1
            elif kind == "script":
                if math:
                    argument, i = self.argument(i + 1, end, True, depth)
                    out.append(text if argument is None else _script(text, argument))
                else:
                    out.append(text)
                    i += 1
            elif kind == "url":
                out.append(_clean_url(text))
                i += 1
            elif kind == "dash":
                out.append(text if math else ("—" if len(text) == 3 else "–"))
                i += 1
            elif kind == "tilde":
                out.append(" " if math else self._tilde(i))
                i += 1
            elif kind == "close":
                i += 1
            else:
                out.append(text.replace("*", STAR).replace("'", "′") if math else text)
                i += 1
            eat_space = False
        return "".join(out)

    def _between_quotes(self, out: list[str], after: int) -> bool:
        """Whether an empty group stands between two quotes of one kind (`'{}'`, `` `{}` ``):
        what breaks the ligature TeX would make of them (”, “)."""
        before = next((text for text in reversed(out) if text), "")[-1:]
        following = self.texts[after][:1] if after < len(self.texts) else ""
        return before in ("'", "`") and following == before

    def _tilde(self, index: int) -> str:
        """Read a text-mode `~`: a tie (space), except `~50%` (about) and `/~user` in paths."""
        before = self.source[self.starts[index] - 1] if self.starts[index] else " "
        after = self.source[self.ends[index] : self.ends[index] + 1] or " "
        if before == "/" or (after.isdigit() and not before.isalpha()):
            return "~"
        if before.isspace() and after.isspace():
            return "~"
        return " "

    def argument(
        self, i: int, end: int, math: bool, depth: int, skip_space: bool = True
    ) -> tuple[str | None, int]:
        """Read one macro argument at token i: a `{group}`, a command or one character."""
        j = i
        if skip_space:
            while j < end and self.kinds[j] == "text" and self.texts[j].isspace():
                j += 1
        if j >= end:
            return None, i
        kind = self.kinds[j]
        if kind == "text":
            text = self.texts[j].lstrip() if skip_space else self.texts[j]
            if not text or text[0].isspace():
                return None, i
            char, rest = text[0], text[1:]
            if math:
                char = {"'": "′", "*": STAR}.get(char, char)
            if rest:
                self.texts[j] = rest
                return char, j
            return char, j + 1
        if kind == "open":
            close = self.partner[j]
            if j < close < end:
                return self.parse(j + 1, close, math, depth + 1), close + 1
            return "", j + 1
        if kind == "cmd":
            if depth > _MAX_DEPTH:
                return self.texts[j], j + 1
            return self.command(j, end, math, depth + 1)
        if kind == "url":
            return _clean_url(self.texts[j]), j + 1
        if kind in ("char", "dash", "tilde"):
            return self.texts[j], j + 1
        return None, i

    def raw_group(self, i: int, end: int) -> tuple[str | None, int]:
        """Read a `{group}` at token i (spaces skipped) as raw source text."""
        j = i
        while j < end and self.kinds[j] == "text" and self.texts[j].isspace():
            j += 1
        if j < end and self.kinds[j] == "open":
            close = self.partner[j]
            if j < close < end:
                return self.source[self.ends[j] : self.starts[close]], close + 1
        return None, i

    def _skip_leading_space(self, i: int, end: int) -> None:
        """Drop the whitespace that starts token i (after a declaration like `\\em`)."""
        if i < end and self.kinds[i] == "text":
            self.texts[i] = self.texts[i].lstrip()

    def _spaced_dash(self, i: int, base: str) -> bool:
        """Whether the command at token i is a dash after a space (`flows \textemdash
        commuting`): its author meant one on each side, not TeX's `flows —commuting`."""
        start = self.starts[i]
        return base in _DASHES and start > 0 and self.source[start - 1].isspace()

    def command(self, i: int, end: int, math: bool, depth: int) -> tuple[str, int]:
        """Render the command at token i; return its text and the next token index."""
        name = self.texts[i][1:].lstrip("\\") or self.texts[i][1:]
        j = i + 1
        if not name:
            return "\\", j
        if len(name) == 1 and not name.isalpha():
            return self._control_symbol(name, j, end, math, depth)
        base = name.rstrip("*")
        if base in TEX_SYMBOLS:
            symbol = TEX_SYMBOLS[base]
            ended = base in TEXT_SYMBOLS or base in WORD_SYMBOLS
            if not math and ended and not self._spaced_dash(i, base):
                self._skip_leading_space(j, end)  # its end: `a\textendash b` is `a–b`
            return (f" {symbol} " if math and base in RELATIONS else symbol), j
        if base in OPERATORS:
            if j < end and (
                (self.kinds[j] == "cmd" and self.texts[j][1:2].isalpha())
                or (self.kinds[j] == "text" and self.texts[j][:1].isalnum())
            ):
                return base + " ", j
            return base, j
        if base in DECLARATIONS:
            if base in DELIMITER_SIZERS and j < end and self.kinds[j] == "text":
                if self.texts[j].startswith("."):
                    self.texts[j] = self.texts[j][1:]
            else:
                self._skip_leading_space(j, end)
            return "", j
        if base in LETTER_ACCENTS:
            if base == "b" and not (j < end and self.kinds[j] == "open"):
                return "", j  # `\b geometric \b score`: an author's lost macro, not an accent
            argument, j = self.argument(j, end, math, depth)
            if argument is None:
                return "", j
            combined = _combine(argument, LETTER_ACCENTS[base])
            return (combined if combined and len(combined) == 1 else argument), j
        return self._command_with_arguments(base, j, end, math, depth)

    def _command_with_arguments(
        self, base: str, j: int, end: int, math: bool, depth: int
    ) -> tuple[str, int]:
        """Render a command that reads arguments (or an unknown command)."""
        if base in TEXT_STYLES or base in KEEP_ARGUMENT:
            argument, j = self.argument(j, end, math and base not in TEXT_STYLES, depth)
            if base == "textsuperscript" and argument is not None:
                return _script("^", argument), j
            if base == "textsubscript" and argument is not None:
                return _script("_", argument), j
            if base in QUOTING and argument is not None:
                return f"“{argument}”", j
            return argument or "", j
        if base in FONTS:
            argument, j = self.argument(j, end, math, depth)
            table = FONTS[base]
            return "".join(table.get(c, c) for c in argument or ""), j
        if base in FRACTIONS or base in BINOMIALS:
            top, j = self.argument(j, end, math, depth)
            bottom, j = self.argument(j, end, math, depth)
            if base in BINOMIALS:
                return f"C({(top or '').strip()}, {(bottom or '').strip()})", j
            return _fraction(top or "", bottom or ""), j
        if base == "sqrt":
            index = ""
            if j < end and self.kinds[j] == "text" and self.texts[j].startswith("["):
                close = self.texts[j].find("]")
                if close > 0:
                    index = self.texts[j][1:close].strip()
                    rest = self.texts[j][close + 1 :]
                    self.texts[j] = rest
                    if not rest:
                        j += 1
            argument, j = self.argument(j, end, math, depth)
            root = {"": "√", "2": "√", "3": "∛", "4": "∜"}.get(index)
            if root is None:
                root = _script("^", index) + "√"
            return root + _group((argument or "").strip()), j
        if base in MATH_ACCENTS:
            argument, j = self.argument(j, end, math, depth)
            combined = _combine(argument or "", MATH_ACCENTS[base])
            return (combined if combined is not None else argument or ""), j
        if base == "not":
            argument, j = self.argument(j, end, math, depth)
            combined = _combine(argument or "", "\u0338")
            return (combined if combined is not None else "¬" + (argument or "")), j
        if base in DROP_ARG:
            _, j = self.argument(j, end, math, depth)
            if base == "fontsize":
                _, j = self.argument(j, end, math, depth)
            return "", j
        if base in TWO_ARG_SECOND:
            _, j = self.argument(j, end, math, depth)
            argument, j = self.argument(j, end, math, depth)
            return argument or "", j
        if base in ("url", "nolinkurl"):
            raw, j = self.raw_group(j, end)
            return (_clean_url(raw) if raw is not None else ""), j
        if base == "href":
            raw, j = self.raw_group(j, end)
            label, j = self.argument(j, end, False, depth)
            url = _clean_url(raw or "")
            label = (label or "").strip()
            if not label or _link_key(label) == _link_key(url):
                return url, j
            return (f"{label} ({url})" if url else label), j
        if base == "footnote":
            argument, j = self.argument(j, end, math, depth)
            return (f" ({argument.strip()})" if argument and argument.strip() else ""), j
        if base == "ding":
            argument, j = self.argument(j, end, math, depth)
            number = (argument or "").strip()
            return (DINGS.get(int(number), "") if number.isdecimal() else ""), j
        symbol = more_symbols().get(base)
        if symbol is not None and not math and base in _KEPT_QUOTES:
            symbol = _KEPT_QUOTES[base]  # as it is, never a curly quote (``_render_paragraph``)
        if symbol is not None:  # pylatexenc's table: `\texteuro{}`, `\textmu`, `\guillemotleft`
            if j + 1 < end and self.kinds[j] == "open" and self.partner[j] == j + 1:
                j += 2  # its empty group, `\texteuro{}`
            elif not math and base.startswith("text") and base != "textquoteright":
                self._skip_leading_space(j, end)  # its end, as ``TEXT_SYMBOLS``'
            return symbol, j
        # Unknown command: `\underline{T}ool` keeps its argument, `\ours{}` and `\model`
        # (an author's macro whose definition is lost) keep their name.
        if j < end and self.kinds[j] == "open":
            argument, after = self.argument(j, end, math, depth)
            if argument and argument.strip():
                return argument, after
            return base, after
        return base, j

    def _control_symbol(
        self, name: str, j: int, end: int, math: bool, depth: int
    ) -> tuple[str, int]:
        """Render `\\%`, `\\{`, `\\"o` and the other one-character commands."""
        if name in SYMBOL_ACCENTS:
            mark, fallback = SYMBOL_ACCENTS[name]
            if j < end and self.kinds[j] in ("text", "open", "cmd"):  # `\'e`, `\'{e}`, `\'\i`
                argument, after = self.argument(j, end, math, depth, skip_space=False)
                if argument is not None:
                    combined = _combine(argument, mark)
                    if combined is not None and len(combined) == 1:
                        return combined, after
                    return fallback + argument, after
            return fallback, j
        return ESCAPES.get(name, name), j


def _render_paragraph(paragraph: str, spaced: bool = True, markdown: bool = True) -> str:
    """Render one paragraph: links, TeX, quotes and Markdown emphasis, spaces collapsed (not
    without ``spaced``; no Markdown without ``markdown``: see ``to_unicode``)."""
    if markdown and "](" in paragraph:
        paragraph = _MD_LINK_RE.sub(_markdown_link, paragraph)
    if markdown and "<" in paragraph:
        paragraph = _AUTOLINK_RE.sub(r"\1", paragraph)
    has_tex = any(marker in paragraph for marker in _TEX_MARKERS_BUT_LINKS) or (
        "://" in paragraph and "*" in paragraph
    )
    text = _Parser(paragraph).render() if has_tex else paragraph
    if _LIGATURE_BREAK in text:  # the quotes beside it are as they are
        for quote, kept in (("`", _GRAVE), ("'", _APOSTROPHE)):
            text = text.replace(quote + _LIGATURE_BREAK, kept + _LIGATURE_BREAK)
            text = text.replace(_LIGATURE_BREAK + quote, _LIGATURE_BREAK + kept)
    if "`" in text or "''" in text:
        text = text.replace("``", "“").replace("''", "”")
        text = _CODE_SPAN_RE.sub(r"\1", text) if markdown else text
        text = _SINGLE_QUOTE_RE.sub(r"‘\1’", text)
    if _LIGATURE_BREAK in text or _GRAVE in text or _APOSTROPHE in text:
        text = text.replace(_LIGATURE_BREAK, "").replace(_GRAVE, "`").replace(_APOSTROPHE, "'")
    if markdown and "*" in text:
        text = _STRONG_STAR_RE.sub(r"\1", text)
        text = _EM_STAR_RE.sub(r"\1", text)
    if markdown and "_" in text:
        text = _STRONG_USCORE_RE.sub(r"\1", text)
        text = _EM_USCORE_RE.sub(r"\1", text)
    text = text.replace(STAR, "*").replace(USCORE, "_")
    if not spaced:
        return text
    text = " ".join(text.split())
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text


# A character LaTeX has no command for, as pylatexenc's ``unknown_char_policy="unihex"`` and our
# BibTeX export write it: `\ensuremath{\langle}\texttt{U+4E2D}\ensuremath{\rangle}` is 中.
_UNIHEX_RE = re.compile(
    r"\\ensuremath\{\\langle\}\\texttt\{U\+([0-9A-Fa-f]{2,6})\}\\ensuremath\{\\rangle\}"
)


def _unihex(match: re.Match[str]) -> str:
    """The character a `U+XXXX` escape names: never ASCII (which has its own escapes) nor a
    surrogate or a code point past Unicode's (the text would not encode)."""
    code = int(match.group(1), 16)
    if code < 0x80 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        return match.group()
    return chr(code)


def _entity(match: re.Match[str]) -> str:
    """Decode one HTML entity (`&#151;` → an em dash); leave unknown names as written."""
    entity = match.group()
    if entity[1] == "#" or entity[1:] in html.entities.html5:
        return html.unescape(entity)
    return entity


def _without_controls(text: str, shown: bool = True) -> str:
    """`text` with its controls shown (``_CONTROL``; not ``shown``, ``_KEPT_TABLE``'s only)."""
    if text.isprintable():  # no control character nor sentinel (neither is printable)
        return text
    table = _CONTROL_TABLE if shown else _KEPT_TABLE
    return text.translate(table) if _CONTROL_RE.search(text) else text


def _render(text: str, spaced: bool = True, shown: bool = True, markdown: bool = True) -> str:
    """Render a whole text; paragraphs (blank-line separated) are kept apart by "\\n\\n"."""
    if "{U+" in text:
        text = _UNIHEX_RE.sub(_unihex, text)
    text = _without_controls(text.replace("\r\n", "\n"), shown)
    # The markers share no character, so a text shorter than the limit cannot hold more.
    if len(text) > _MAX_MARKUP and sum(text.count(m) for m in _MARKUP) > _MAX_MARKUP:
        paragraphs = (" ".join(p.split()) for p in _PARAGRAPH_RE.split(text))
        return "\n\n".join(p for p in paragraphs if p)
    if "&" in text:
        text = _without_controls(_ENTITY_RE.sub(_entity, text), shown)
    paragraphs = (_render_paragraph(p, spaced, markdown) for p in _PARAGRAPH_RE.split(text))
    return "\n\n".join(p for p in paragraphs if p)


def to_unicode(text: str, *, spaced: bool = True, shown: bool = True, markdown: bool = True) -> str:
    """Return the display form of an abstract or title: LaTeX and Markdown made readable.

    Math and commands become Unicode (`$\\ell_{2}$` → `ℓ₂`, `\\textbf{x}` → `x`), HTML
    entities are decoded, runs of whitespace become one space and a blank line becomes
    exactly one paragraph break. Dollars that do not enclose math (`$5 million`) stay.

    Without ``spaced``, whitespace is left as the source has it (a run not made one space, a
    paragraph's ends not trimmed) and the text is not composed (NFC): for a caller that reads
    only its words and signs (an abstract's identity, ``storage.importing.identity``), to
    which that is the same text. Making the spaces one is a fifth of the converter's time
    (the identities of the 100,000 abstracts of ``benchmarks.import_speed``: 6.4 s of CPU
    with it, 5.5 s without).

    Not ``shown``, control characters neither a space nor a line's end (ESC, BEL, DEL, the
    8-bit CSI) are kept, not shown (``␛``): an export to a file keeps the text.

    Without ``markdown``, no Markdown is read (emphasis, code spans, links): a title's
    ``__init__``, ``*args`` and backticks are its characters; its LaTeX is still read.
    """
    if not isinstance(text, str) or not text:
        return ""
    try:
        return _render(text, spaced, shown, markdown)
    except Exception:  # pragma: no cover - defensive only
        # The renderer is written to be total; should a bug slip through, show the source.
        return "\n\n".join(" ".join(p.split()) for p in _PARAGRAPH_RE.split(text) if p.strip())
