"""The fast paths of an import read exactly as the slow ones: an id that changed would split
a paper from its decisions, a link found differently would change what it links
(``storage.text.normalize.key``, the TeX pass of ``storage.text.latex``, the signs of
``storage.importing.identity``, the links of ``storage.sources.links``); and the BibTeX
export writes what it wrote a character at a time (``storage.export.tex``)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import storage.text.latex as latex
from storage.text.latex import to_unicode
from storage.text.normalize import key

#: Pieces of abstracts as they come: words, links, emphasis, TeX, other scripts, signs.
PIECES = st.sampled_from(
    [
        "diffusion",
        "Lévy",
        "ﬁne",
        "ℓ₂",
        "中文",
        "naïve",
        "ß",
        "İ",
        " ",
        "  ",
        "\n",
        "\n\n",
        "https://127.0.0.1/a/b",
        "http://127.0.0.1:8000/p?q=1&r=2",
        "www.localhost",
        "://",
        "ftp://h/p",
        "*",
        "**",
        "_",
        "a_b",
        "*bold*",
        "~",
        "--",
        "-",
        "$x$",
        "\\alpha",
        "{",
        "}",
        "^",
        "(",
        ")",
        "[",
        "](",
        "<",
        ">",
        "`",
        "''",
        "9.5%",
        "±",
        "—",
        ".",
        ",",
        "\u00a0",
        "\u200b",
    ]  # fmt: skip
)
TEXTS = st.lists(PIECES, max_size=30).map("".join) | st.text(max_size=80)


def key_by_the_regex(text: str) -> str:
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return re.sub(r"[\W_]+", "", folded)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_a_key_is_that_of_the_regex_alone(text: str) -> None:
    assert key(text) == key_by_the_regex(text)


@pytest.mark.parametrize("surrogate", ["\ud800", "a\udfffb"])
def test_a_key_of_text_with_a_lone_surrogate_is_that_of_the_regex(surrogate: str) -> None:
    assert key(surrogate) == key_by_the_regex(surrogate)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_a_paragraph_with_links_reads_as_the_tex_pass_reads_it(text: str) -> None:
    fast = to_unicode(text)
    shipped = latex._TEX_MARKERS_BUT_LINKS
    try:
        latex._TEX_MARKERS_BUT_LINKS = latex._TEX_MARKERS  # every link through the TeX pass
        assert fast == to_unicode(text)
    finally:
        latex._TEX_MARKERS_BUT_LINKS = shipped


#: The emphasis and code passes of ``storage.text.latex`` as first written, opening with the
#: look-behind (the engine then tries each at every character).
LOOK_BEHIND_FIRST = {
    "_STRONG_STAR_RE": r"(?<![*\\])\*\*(?=[^\s*])([^*]*?[^\s*])\*\*(?!\*)",
    "_EM_STAR_RE": r"(?<![\w*\\])\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)",
    "_STRONG_USCORE_RE": r"(?<![\w\\])__(?=[^\s_])([^_]*?[^\s_])__(?!\w)",
    "_EM_USCORE_RE": r"(?<![\w\\])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)",
    "_CODE_SPAN_RE": r"(?<!`)`(?=[^\s`])([^`]*?[^\s`])`(?!`)",
}
#: Pieces of emphasised text: the delimiters, what may stand before them, words, spaces.
EMPHASIS_PIECES = st.sampled_from(
    ["*", "**", "***", "_", "__", "`", "``", "\\", "a", "word", "é", "1", " ", "\n", "-", "."]
)


@pytest.mark.parametrize("name", sorted(LOOK_BEHIND_FIRST))
@settings(max_examples=500, deadline=None)
@given(text=st.lists(EMPHASIS_PIECES, max_size=12).map("".join))
def test_an_emphasis_pass_matches_as_its_look_behind_first_form(name: str, text: str) -> None:
    shipped: re.Pattern[str] = getattr(latex, name)
    first = re.compile(LOOK_BEHIND_FIRST[name])
    assert [m.span(0) for m in shipped.finditer(text)] == [m.span(0) for m in first.finditer(text)]
    assert shipped.sub(r"\1", text) == first.sub(r"\1", text)


#: Pieces of text around GitHub links: prefixes, owners, separators, look-alikes.
LINK_PIECES = st.sampled_from(
    [
        "github.com/",
        "GitHub.com/",
        "https://",
        "http://",
        "www.",
        "git@github.com:",
        "git@",
        "owner",
        "repo",
        "a-b",
        "x.y",
        "_",
        ".",
        "-",
        "/",
        " ",
        "on GitHub",
        "github.io/x",
        "ghithub.com/",
        "xgithub.com/a/b",
        ".github.com/a/b",
        "(",
        ")",
        "#",
        "?",
        "İ",
        "é",
        "\n",
        # beyond ASCII, letters ``(?i)`` takes for the host's: the next host is looked for
        # by its pattern there (``_GITHUB_HOST``), not in the lower case
        "gİthub.com/",
        "gıthub.com/",
        "GITHUB.COM/",
        "httpſ://",
        "中",
        "\x00",
    ]  # fmt: skip
)


@settings(max_examples=600, deadline=None)
@given(st.lists(LINK_PIECES, max_size=25).map("".join))
def test_links_are_found_as_the_regex_finds_them_over_the_whole_text(text: str) -> None:
    from storage.sources import links

    whole = [m.span() for m in links._GITHUB_RE.finditer(text)]
    assert [m.span() for m in links._github_matches(text)] == whole


@settings(max_examples=600, deadline=None)
@given(
    TEXTS
    | st.lists(
        st.sampled_from(
            ["1", "2.5", "-", "--", "–", "+", "x", "a-b", " ", "½", "=", "\n", "é", "%"]
        ),
        max_size=30,
    ).map("".join)
)
def test_the_signs_of_an_abstract_are_those_of_the_whole_text(text: str) -> None:
    from storage.importing import identity

    whole = identity._DASH_RUN.sub(
        "-", " ".join(identity._SIGNS.findall(text)).translate(identity._SAME_SIGN)
    )
    assert identity._signs(text) == whole


#: Enough words for an abstract (``identity.MIN_ABSTRACT_ALNUM``).
WORDS = "Denoising diffusion models sample images"
#: Whitespace of every kind, where a text starts and ends and beside signs and marks.
SPACED_PIECES = st.sampled_from(
    [" ", "  ", "\t", "\n", "\n\n", "\n \n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85"]
    + ["\xa0", "\u2028", "\u3000", "\u2003", "\u0301", "\u00a8", "-", "--", "1", "2.5", "a"]
    + ["é", "$x$", "*b*", "_", "\\alpha", "+", "=", "{", "}"]
)


@settings(max_examples=600, deadline=None)
@given(TEXTS | st.lists(SPACED_PIECES, max_size=30).map("".join))
def test_an_identity_is_that_of_the_display_form(text: str) -> None:
    """The identity reads the converter's text with its spaces as they come (``to_unicode``'s
    ``spaced``), or the text itself (plain ASCII): the words and signs of the display form."""
    from storage.importing import identity

    assert identity.text_key(text) == key(to_unicode(text))
    for abstract in (f"{WORDS} {text}", f"{text} {WORDS}"):  # not too short to be one
        shown = unicodedata.normalize("NFKC", to_unicode(abstract))
        assert identity.abstract_identity(abstract) == f"{key(shown)}\x1f{identity._signs(shown)}"


def tex_ascii_a_character_at_a_time(text: str) -> str:
    """``storage.export.tex.tex_ascii`` of one line as it was written before its table."""
    from storage.export import tex

    out: list[str] = []
    for ch in " ".join(unicodedata.normalize("NFC", text).split()):
        if ch.isascii() and ch.isprintable():
            # (after what was written last: a character left out, a control, sets nothing apart)
            if ch == "-" and next((o for o in reversed(out) if o), "").endswith("-"):
                out.append("{}")
            out.append(r"\textasciigrave{}" if ch == "`" else tex._ASCII.get(ch, ch))
        else:
            out.append(tex._char(ch))
    written = re.sub("'(?=')", "'{}", "".join(out))  # two quotes apart: `''` is TeX's ”
    if written.count("*") > 1:
        guarded = written.replace("*", r"\textasteriskcentered{}")
        if to_unicode(written) != to_unicode(guarded):
            return guarded
    return written


#: What BibTeX escapes and sets apart: hyphens, a dash written ``{--}``, the characters that
#: stand in for a hyphen while a text is written, stars, braces, other scripts.
TEX_PIECES = st.sampled_from(
    ["-", "--", "‐", "–", "\U0010fffd", "\U0010fffc", "*", "{", "}", "\\", "中", "é", "e\u0301",
     "ﬁ", "\t", "\x00", "$", "_", "~", " ", "a", "Lévy", "'", "''", "`", "\x1b"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(TEX_PIECES, max_size=30).map("".join) | TEXTS)
def test_bibtex_text_is_what_it_was_a_character_at_a_time(text: str) -> None:
    from storage.export.tex import tex_ascii

    assert tex_ascii(text) == tex_ascii_a_character_at_a_time(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(TEX_PIECES, max_size=30).map("".join))
def test_a_hyphen_after_a_character_written_with_one_is_set_apart(text: str) -> None:
    """No character is written ending in a hyphen today; one that were (``‐`` here) would
    set the hyphen after it apart, as ``-`` does."""
    from storage.export import tex

    shipped = tex._char
    try:
        tex._char = lambda ch: "-" if ch == "‐" else shipped(ch)  # type: ignore[assignment]
        assert tex.tex_ascii(text) == tex_ascii_a_character_at_a_time(text)
    finally:
        tex._char = shipped


#: Pieces of authors' names, and of how a list says it is cut short (``_CUT``).
NAME_PIECES = st.sampled_from(
    [
        "Ann",
        "Lee",
        "Al",
        "al",
        "AL",
        "aL",
        "et",
        "Et",
        "ET",
        "al.",
        ".",
        "..",
        "...",
        "…",
        "et al",
        "et. al.",
        "etal",
        " ",
        "  ",
        "\t",
        "\n",
        "\u00a0",
        "\u2028",
        "\x1c",
        "\x85",
        "İ",
        "ı",
        "ſ",
        "\u212a",
        "ａｌ",
        "ᴬᴸ",
        "-",
        ",",
    ]  # fmt: skip
)


def ended_by_the_search_alone(names: list[str]) -> list[str]:
    """``ended_with_et_al`` as it was: every name searched for ``_CUT``."""
    from storage.sources import authors

    kept: list[str] = []
    cut = False
    for name in names:
        if authors.is_et_al(name):
            cut = True
            continue
        shortened = authors._CUT.search(name)
        if shortened:
            cut, name = True, name[: shortened.start()]
        if name.strip():
            kept.append(name)
    return [*kept, authors.ET_AL] if cut and kept else kept


@settings(max_examples=600, deadline=None)
@given(st.lists(st.lists(NAME_PIECES, max_size=8).map("".join) | st.text(max_size=12), max_size=6))
def test_names_cut_short_are_found_as_the_search_finds_them(names: list[str]) -> None:
    """A name is searched for ``_CUT`` only when it ends as a match must (``_CUT_ENDS``):
    the names kept, and whether the list was cut short, are those of the search alone."""
    from storage.sources.authors import ended_with_et_al

    assert ended_with_et_al(names) == ended_by_the_search_alone(names)


def breaks_url_a_character_at_a_time(url: str) -> bool:
    return any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in url)


@pytest.mark.parametrize("code", range(128))
def test_an_ascii_character_breaks_a_link_as_its_category_says(code: int) -> None:
    """Every ASCII character, in a link, breaks it as the look at each character's category
    says (``_breaks_url``: the ASCII link told by ``str.isprintable``)."""
    from storage.sources.links import _breaks_url

    url = f"https://127.0.0.1/a{chr(code)}b"
    assert _breaks_url(url) == breaks_url_a_character_at_a_time(url)


@settings(max_examples=600, deadline=None)
@given(TEXTS | st.text(st.characters(max_codepoint=127), max_size=40))
def test_a_link_is_broken_as_its_characters_categories_say(text: str) -> None:
    from storage.sources.links import _breaks_url

    assert _breaks_url(text) == breaks_url_a_character_at_a_time(text)
