"""Abstract text made plain for title derivation: one line, no markup, no links.

LaTeX and Markdown go through the display converter; what only a title needs is done around it.
"""

from __future__ import annotations

import re
import unicodedata

from storage.text.latex import to_unicode

_RE_MD_LINK = re.compile(r"\[([^\[\]\n]{0,300})\]\(\s*[^()\s]{1,500}\s*\)")
_RE_AUTOLINK = re.compile(r"<(?:https?|ftp)://[^<>\s]{1,500}>")
_RE_URL_CMD = re.compile(r"\\(?:url|href)\{[^{}]{0,500}\}(?:\{([^{}]{0,300})\})?")
_RE_URL = re.compile(r"(?:https?://|ftp://|www\.)[^\s<>\"'\]]{1,500}")
_RE_GITHUB_IO = re.compile(r"(?<![\w-])[\w-]{1,60}\.github\.io\S{0,300}")
_RE_GITHUB_BARE = re.compile(r"\bgithub\.com/\S{1,300}", re.IGNORECASE)
_RE_CMD_ARG = re.compile(r"\\[A-Za-z]+\*?\s*\{([^{}]{0,400})\}")
# An author's macro for the paper's own name (``\method``, ``\ours{}``): its definition is lost.
_RE_PLACEHOLDER_MACRO = re.compile(
    r"\\(?:ours|method|model|dataset|benchmark|framework|approach|system|algorithm|algo|name)"
    r"(?![A-Za-z])(?:\{\})?"
)
_RE_MD_EMPH = re.compile(r"(\*{1,3}|_{2,3})(?=\S)([^*\n]{1,200}?)(?<=\S)\1")
_RE_SOFT_HYPHEN = re.compile(r"(?<=[a-z])- (?=[a-z]{2,})(?!(?:and|or|to|vs)\b)")
RE_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc
_RE_SPACE_BEFORE_PUNCT = re.compile(r" ([,.;:!?)\]])")
_RE_SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")
_RE_EMPTY_PARENS = re.compile(r"\(\s*[,;:]?\s*\)|\[\s*\]")


def _inside_word(match: re.Match[str], inner: str) -> bool:
    """Whether a few letters are emphasised inside a word, like the E of "sp**E**culative"."""
    start = match.start()
    return len(inner) <= 3 and inner.isalpha() and start > 0 and match.string[start - 1].isalpha()


def _fold_into_word(match: re.Match[str]) -> str:
    """Letters emphasised inside a word lose the emphasis and their case; other emphasis stays."""
    inner = match.group(match.lastindex or 0)
    return inner.lower() if _inside_word(match, inner) else match.group()


def _unwrap(match: re.Match[str]) -> str:
    """Markdown emphasis the converter left (``***name***``) gives its text."""
    inner = match.group(2)
    return inner.lower() if _inside_word(match, inner) else inner


def clean_text(text: str) -> str:
    """Turn an abstract into plain single-line text: no LaTeX, Markdown, HTML entities or URLs.

    LaTeX and Markdown go through the display converter (:func:`storage.text.latex.to_unicode`);
    what is particular to titles is done around it: links and URLs are dropped (a title never
    shows one), so are macros named after a generic noun (``\\method``: the name they stood for
    is lost), letters emphasised inside a word are folded back into it, line-break hyphens are
    joined and empty brackets go. Each step only runs when the text contains its trigger.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    if not text.isprintable():
        text = RE_CONTROL.sub(" ", text)
    if "](" in text:
        text = _RE_MD_LINK.sub(lambda m: "" if "://" in m.group(1) else m.group(1), text)
    if "://" in text or "www." in text or "github" in text:
        text = _RE_AUTOLINK.sub("", text)
        text = _RE_URL_CMD.sub(lambda m: m.group(1) or "", text)
        text = _RE_URL.sub("", text)
        text = _RE_GITHUB_BARE.sub("", text)
    if "github.io" in text:
        text = _RE_GITHUB_IO.sub("", text)
    if "\\" in text:
        text = _RE_PLACEHOLDER_MACRO.sub("", text)
        text = _RE_CMD_ARG.sub(_fold_into_word, text)
    if "*" in text or "__" in text:
        text = _RE_MD_EMPH.sub(_fold_into_word, text)
    text = to_unicode(text)
    if "*" in text or "__" in text:
        text = _RE_MD_EMPH.sub(_unwrap, text)
        text = text.replace("**", "")
    if "- " in text:
        text = _RE_SOFT_HYPHEN.sub("", text)
    if "(" in text or "[" in text:
        text = _RE_EMPTY_PARENS.sub("", text)
        text = _RE_SPACE_AFTER_OPEN.sub(r"\1", text)
    text = _RE_SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return text.strip()
