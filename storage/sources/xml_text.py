"""XML as reference managers and feeds write it: the characters XML 1.0 cannot hold, and
the DTD none of them writes.

A field that holds a control character (a title pasted from a terminal: ``\\x1b``, a
vertical tab from a PDF) is written by EndNote and Zotero as it is, raw or as a character
reference (``&#27;``), though XML 1.0 refuses it: one such character made the whole export
unreadable. So the readers hold them while the XML is parsed (``hold``: as characters of a
private plane) and give them back in the fields read (``restore``), as every other reader
keeps them (the screen and the exports make them printable). A reference to what is no
character at all (``&#xD800;``, ``&#x110000;``) is read as U+FFFD.

A document that declares a DTD, where entities (and their expansion bombs) would be, is
refused (``declares_dtd``): no export or feed read here writes one.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["declares_dtd", "hold", "restore"]

#: What XML 1.0 cannot hold, raw: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; a lone
#: surrogate (which no decoded file holds: U+FFFD).
_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_REFERENCE: Final = re.compile(r"&#(?:[xX]0*([0-9A-Fa-f]{1,8})|0*([0-9]{1,10}));")
#: What may come before the root element: the XML declaration, comments, processing
#: instructions, space. A ``<!DOCTYPE`` can only come right after them.
_PROLOG: Final = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->)*", re.DOTALL)
_PLANE: Final = 0xF0000
_HELD: Final = {
    c: _PLANE + (c & 0xFF) for c in (*range(9), 11, 12, *range(14, 0x20), 0xFFFE, 0xFFFF)
}
_RESTORED: Final = {held: c for c, held in _HELD.items()}


def _allowed(code: int) -> bool:
    """Whether XML 1.0 holds the character ``code``, raw or referenced."""
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


def _referenced(match: re.Match[str]) -> str:
    hexadecimal, decimal = match.groups()
    code = int(hexadecimal, 16) if hexadecimal else int(decimal)
    if _allowed(code):
        return match.group()
    return chr(_HELD.get(code, 0xFFFD))


def hold(text: str) -> tuple[str, bool]:
    """``text`` ready for an XML parser, what XML cannot hold held (see the module); and
    whether anything was (the fields read are then given to ``restore``)."""
    raw = _NOT_XML.search(text) is not None
    if raw:
        text = _NOT_XML.sub(lambda m: chr(_HELD.get(ord(m.group()), 0xFFFD)), text)
    if "&#" not in text:
        return text, raw
    held = _REFERENCE.sub(_referenced, text)
    return held, raw or held != text


def restore(text: str) -> str:
    """A field's text as the export wrote it (what ``hold`` held given back)."""
    return text.translate(_RESTORED)


def declares_dtd(text: str) -> bool:
    """Whether the document declares a DTD (``<!DOCTYPE``, after its prolog however long)."""
    start = _PROLOG.match(text.removeprefix("\ufeff"))
    at = start.end() if start is not None else 0
    return text.removeprefix("\ufeff")[at : at + 9] == "<!DOCTYPE"
