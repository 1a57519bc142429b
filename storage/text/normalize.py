"""The forms in which papers-tui compares text: folded words and alphanumeric keys."""

from __future__ import annotations

import re
import unicodedata

#: Latin letters people write for others in plain letters, in lower case (``ø`` has no
#: accent to drop, so no decomposition takes it to ``o``).
LATIN_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)
_COMBINING = re.compile(r"[\u0300-\u036f]")
_NOT_ALNUM = re.compile(r"[\W_]+")
_ASCII_NOT_ALNUM = bytes(c for c in range(128) if not chr(c).isalnum())


def fold(text: str) -> str:
    """NFKC, case folded, accents dropped: the form in which words are compared.

    ``Lévy`` and ``levy`` fold alike, as do ``ﬁne`` and ``fine``; punctuation is kept.
    """
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


def key(text: str) -> str:
    """NFKC and case folded, letters and digits only: the form two texts are matched by.

    Paper ids hash the ``key`` of the abstract, so changing this changes every id.
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if folded.isascii():  # the common case, about ten times faster than the regex
        return folded.encode("ascii").translate(None, _ASCII_NOT_ALNUM).decode("ascii")
    # ASCII signs and spaces dropped in C first (UTF-8 keeps other characters' bytes above
    # 127): the regex then meets only the few other characters that are no letter nor digit
    # (an abstract's key made 40% faster)
    kept = folded.encode("utf-8", "surrogatepass").translate(None, _ASCII_NOT_ALNUM)
    return _NOT_ALNUM.sub("", kept.decode("utf-8", "surrogatepass"))
