"""XML as reference managers and feeds write it: the characters XML 1.0 cannot hold, and
the DTD none of them writes.

A field that holds a control character (a title pasted from a terminal: ``\\x1b``, a
vertical tab from a PDF) is written by EndNote and Zotero as it is, raw or as a character
reference (``&#27;``), though XML 1.0 refuses it: one such character made the whole export
unreadable. So the readers hold them while the XML is parsed (``hold``: as characters of a
private plane the document does not use) and give them back in the fields read
(``Held.restore``), as every other reader keeps them (the screen and the exports make them
printable). A reference to what is no character at all (``&#xD800;``, ``&#x110000;``) is
read as U+FFFD. Where XML reads no references they are text, left as they are: in a CDATA
section (``<![CDATA[&#27;]]>`` is the five characters ``&#27;``), a comment, a processing
instruction.

A document that declares a DTD, where entities (and their expansion bombs) would be, is
refused (``declares_dtd``): no export or feed read here writes one. The readers that read a
document element by element (EndNote XML, DBLP's XML) share one expat parser
(``parse_events``): nothing outside the file is ever fetched (no DTD, no external entity), an
entity declared inside the document is refused (``Refused``), an entity a ``DOCTYPE`` names
without declaring it here (DBLP's ``&ouml;``, from its ``dblp.dtd``; for a format whose DTD
defines them, also when the ``DOCTYPE`` was cut off: ``named_entities``) is read as HTML's, and
a document that is not well-formed is said where (``NotWellFormed``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = [
    "EventHandler",
    "Held",
    "NotWellFormed",
    "Refused",
    "declares_dtd",
    "hold",
    "parse_events",
    "restore_tree",
    "root_start",
]

#: What XML 1.0 cannot hold, raw: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; a lone
#: surrogate (which no decoded file holds: U+FFFD).
_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_REFERENCE: Final = re.compile(r"&#(?:[xX]0*([0-9A-Fa-f]{1,8})|0*([0-9]{1,10}));")
#: A reference, or where XML reads none, to its end (to the text's end when it has none): a
#: CDATA section (``]]>`` in its text is written by ending it and opening another), a comment,
#: a processing instruction.
_REFERENCE_OR_LITERAL: Final = re.compile(
    rf"{_REFERENCE.pattern}|<!\[CDATA\[.*?(?:\]\]>|\Z)|<!--.*?(?:-->|\Z)|<\?.*?(?:\?>|\Z)",
    re.DOTALL,
)
#: What may come before the root element: the XML declaration, comments, processing
#: instructions, space. A ``<!DOCTYPE`` can only come right after them.
_PROLOG: Final = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->)*", re.DOTALL)
#: The characters held: C0 controls but tab, LF and CR; U+FFFE, U+FFFF.
_HOLDS: Final = (*range(9), 11, 12, *range(14, 0x20), 0xFFFE, 0xFFFF)
#: The blocks of 256 characters of the private planes 15 and 16 (their first character >> 8)
#: they may be held in: the first that the document itself does not use (an icon font's
#: glyphs are there, raw or referenced), so that giving them back touches nothing else.
_BLOCKS: Final = range(0xF00, 0x1100)
_PRIVATE: Final = re.compile("[\U000f0000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class Held:
    """Where ``hold`` held the characters of one document: ``restore`` gives them back."""

    table: Mapping[int, int]

    def restore(self, text: str) -> str:
        """A field's text as the export wrote it (what ``hold`` held given back)."""
        return text.translate(self.table) if self.table else text


def restore_tree(root: Element, held: Held | None) -> None:
    """Every text and attribute of a parsed document as it was written (``Held.restore``),
    for a reader that reads the whole tree; nothing to do when ``hold`` held nothing."""
    if held is None or not held.table:
        return
    for element in root.iter():
        if element.text:
            element.text = held.restore(element.text)
        if element.tail:
            element.tail = held.restore(element.tail)
        for name, value in element.attrib.items():
            element.attrib[name] = held.restore(value)


def _allowed(code: int) -> bool:
    """Whether XML 1.0 holds the character ``code``, raw or referenced."""
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


def _code(match: re.Match[str]) -> int:
    hexadecimal, decimal = match.groups()
    return int(hexadecimal, 16) if hexadecimal else int(decimal)


def _place(text: str) -> dict[int, int]:
    """Each character to hold → where it is held while parsed: in a block of the private
    planes the document does not use (U+FFFD, not given back, should it use every one)."""
    used = {ord(c) >> 8 for c in set(_PRIVATE.findall(text))}
    if "&#" in text:
        used.update(code >> 8 for m in _REFERENCE.finditer(text) if (code := _code(m)) > 0xFFFF)
    block = next((b for b in _BLOCKS if b not in used), None)
    if block is None:
        return dict.fromkeys(_HOLDS, 0xFFFD)
    return {c: (block << 8) + (c & 0xFF) for c in _HOLDS}


def hold(text: str) -> tuple[str, Held | None]:
    """``text`` ready for an XML parser, what XML cannot hold held (see the module); and,
    when anything was, how to give it back in the fields read (``Held.restore``)."""
    raw = _NOT_XML.search(text) is not None
    referenced = "&#" in text and any(not _allowed(_code(m)) for m in _REFERENCE.finditer(text))
    if not raw and not referenced:
        return text, None
    place = _place(text)
    if raw:
        text = _NOT_XML.sub(lambda m: chr(place.get(ord(m.group()), 0xFFFD)), text)
    if referenced:  # outside CDATA, comments and instructions: their text is no markup
        held = False

        def referenced_char(match: re.Match[str]) -> str:
            nonlocal held
            if match.group()[1] != "#":
                return match.group()
            code = _code(match)
            if _allowed(code):
                return match.group()
            held = True
            return chr(place.get(code, 0xFFFD))

        text = _REFERENCE_OR_LITERAL.sub(referenced_char, text)
        if not held and not raw:
            return text, None
    return text, Held({at: c for c, at in place.items() if at != 0xFFFD})


def declares_dtd(text: str) -> bool:
    """Whether the document declares a DTD (``<!DOCTYPE``, after its prolog however long)."""
    start = _PROLOG.match(text.removeprefix("\ufeff"))
    at = start.end() if start is not None else 0
    return text.removeprefix("\ufeff")[at : at + 9] == "<!DOCTYPE"


_SPACE: Final = re.compile(r"[ \t\r\n]*")


def root_start(head: str) -> int:
    """Where the root element starts after the prolog (declaration, comments, processing
    instructions, a ``DOCTYPE``), or -1 when ``head`` does not tell."""
    at = _after_space(head, 0)
    while at < len(head):
        if head.startswith(("<?", "<!--"), at):
            end = head.find("?>" if head[at + 1] == "?" else "-->", at + 2)
            at = -1 if end < 0 else end + (2 if head[at + 1] == "?" else 3)
        elif head.startswith("<!DOCTYPE", at):
            close = head.find(">", at)
            subset = head.find("[", at, close if close >= 0 else len(head))
            if subset >= 0:  # an internal subset: to its "]", then ">"
                close = head.find("]", subset)
                close = head.find(">", close) if close >= 0 else -1
            at = -1 if close < 0 else close + 1
        else:
            return at if head.startswith("<", at) else -1
        if at < 0:
            return -1
        at = _after_space(head, at)
    return -1


def _after_space(text: str, at: int) -> int:
    found = _SPACE.match(text, at)
    return found.end() if found else at


class Refused(Exception):
    """The document is refused before its end (it declares an entity, which no reader
    expands); ``line`` is where (``parse_events`` says it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.line = 0


class NotWellFormed(Exception):
    """The document is not well-formed XML: ``where`` (``line L, column C``), expat's
    ``reason``, and whether the whole text had been read (``ended``: then it is cut short)."""

    def __init__(self, where: str, reason: str, *, ended: bool) -> None:
        super().__init__(f"{where}: {reason}")
        self.where, self.reason, self.ended = where, reason, ended


class EventHandler(Protocol):
    """What ``parse_events`` hands a document's events to: a reader's element-by-element
    state. ``held`` is set before the first event (``hold``: give back what it held in the
    text read); ``refuse_entity`` raises ``Refused`` (or what else the reader makes of a
    declared entity)."""

    held: Held | None

    def start(self, name: str, attributes: dict[str, str]) -> None: ...

    def end(self, name: str) -> None: ...

    def text(self, data: str) -> None: ...

    def doctype(self, name: str, *_: object) -> None: ...

    def refuse_entity(self, name: str, *_: object) -> None: ...


#: How much text expat is given at a time.
_CHUNK: Final = 1 << 20


def parse_events(text: str, handler: EventHandler, *, named_entities: bool = False) -> None:
    """Parse ``text`` with expat, safely (see the module), handing its events to ``handler``;
    ``Refused`` (its line set), ``NotWellFormed``, or what the handler raises.

    ``named_entities``: the document's format has a DTD that defines named entities (DBLP's
    ``dblp.dtd``: ISO Latin-1's ``&ouml;`` and a few more), read as HTML's whether or not
    the document still has the ``DOCTYPE`` naming it (an excerpt cut from ``dblp.xml``
    without its second line). expat is told a DTD outside the file may define them
    (``UseForeignDTD``) and, as with a ``DOCTYPE``, never reads it."""
    from xml.parsers import expat

    text, handler.held = hold(text)
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    if named_entities:
        parser.UseForeignDTD(True)
    parser.buffer_text = True
    parser.StartElementHandler = handler.start
    parser.EndElementHandler = handler.end
    parser.CharacterDataHandler = handler.text
    parser.StartDoctypeDeclHandler = handler.doctype
    parser.EntityDeclHandler = handler.refuse_entity
    parser.SkippedEntityHandler = lambda name, _: handler.text(_entity(name))
    ended = False  # the whole text was given: an error now is a document cut short
    try:
        for at in range(0, len(text), _CHUNK):
            parser.Parse(text[at : at + _CHUNK], False)
        ended = True
        parser.Parse("", True)
    except Refused as exc:
        exc.line = parser.CurrentLineNumber
        raise
    except expat.ExpatError as exc:
        where = f"line {exc.lineno}, column {exc.offset}"
        raise NotWellFormed(where, expat.ErrorString(exc.code) or "", ended=ended) from None


def _entity(name: str) -> str:
    """An entity a ``DOCTYPE`` may define but does not here (``&eacute;``): HTML's, or as
    written."""
    import html

    return html.unescape(f"&{name};")


def element_text(value: str) -> str:
    """An element's text as a field holds it: its runs of whitespace made one space."""
    return " ".join(value.split())


def first_text(values: Mapping[str, list[str]], *fields: str) -> str:
    """The first non-empty text (``element_text``) of the first of ``fields`` that has one,
    of a record's elements' texts by field (the element-by-element readers')."""
    for field in fields:
        for value in values.get(field, ()):
            if text := element_text(value):
                return text
    return ""
