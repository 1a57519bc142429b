"""BibTeX entries an unmatched ``}`` cut short, read again whole.

A ``}`` with no ``{`` before it (``title = {A {B}} C},``, a stray brace in an abstract) closes
the value early; BibTeX, and bibtexparser after it, then end the entry at the next ``}`` and
read what follows (``author``, ``year``, …) as a comment between entries: those fields are lost
without a word. This module reads such an entry's text together with what the parser left
after it, taking out each ``}`` that closes a value before its end, and gives the fields back;
or says that it cannot (then the entry is refused with one line, never imported short).

A ``}`` closes a value early when what follows it is no value's end: neither a ``,`` and the
next field (or the entry's end), nor ``#``, nor the entry's own end. A value read on past such
a brace must then end within its field: meeting the start of a field of its own (a comma,
a new line, ``name =``) first says the brace was no stray, and the entry is not guessed at.
The entry's own end is a brace after which no field, no ``#`` and no rest of a value come
(more braces and commas between them or not): so braces too many after a value (``{A}}},``,
``year = 2020},``), two inside one (``{Alpha Be}}ta}``) and one before one (``journal =}
{J}``) are taken out too.

Fields a missing comma ran together (``title = {A}`` and the next line's ``author = {B}``,
read by bibtexparser as one value) are read apart too (``comma_mended``).

Linear in the entry's text; pure standard library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "Mended",
    "comma_mended",
    "cut_short",
    "mend_entry",
    "runs_together",
    "starts_entry",
    "value_runs_on",
]

#: A field's name, as BibTeX and biblatex write them.
_NAME: Final = r"[A-Za-z_][\w:.+-]*"
#: Where a field starts: its name and ``=``.
_FIELD: Final = re.compile(rf"\s*({_NAME})\s*=\s*")
#: An entry's head: ``@type{key,`` (or ``(``), the key possibly empty.
_HEAD: Final = re.compile(r"\s*@\s*([A-Za-z]\w*)\s*([{(])\s*([^,\s{}()]*)\s*,")
#: More braces too many, and the commas and spaces between them: at most eight, so that each
#: brace of a value is looked past a bounded number of times (a file of ``}`` is read in linear
#: time).
_MORE: Final = r"(?:[})][\s,]*){0,8}"
#: The rest of a value that two braces too many cut short (``{Alpha Be}}ta},``), up to its
#: end: text on the line, a closing brace, then the next field or the entry's end. It starts
#: past the spaces and commas the patterns before it take: were both to take them, a long
#: run of them would be tried split every way (an 80 KB line took 36 s).
_VALUE_REST: Final = rf"(?:[^{{}}\n@\s,][^{{}}\n@]*)?[}})]\s*(?:,?\s*{_NAME}\s*=|,?\s*[}})]\s*\Z)"
#: A comment the parser left after an entry that goes on with the entry's fields (after more
#: braces too many, ``}},``), with the value's next part (``# {B}``), or with its rest.
_GOES_ON: Final = re.compile(rf"\s*,|[\s,]*{_MORE}(?:{_NAME}\s*=|#\s*[{{\"]|{_VALUE_REST})")
#: A delimited value's end, after its closing brace or quote: a comma and the next field or the
#: entry's end, a concatenation, a new line and the next field (a comma left out), or the end.
_VALUE_END: Final = re.compile(rf"\s*(?:#|,\s*(?:{_NAME}\s*=|[}})]|\Z)|\n\s*{_NAME}\s*=|[}})]|\Z)")
#: After a closing brace, the entry going on (after more braces too many) with a field, the
#: value's next part or its rest: that brace was not the entry's end.
_FIELD_AFTER: Final = re.compile(rf"[\s,]*{_MORE}(?:{_NAME}\s*=|#|{_VALUE_REST})")
#: Inside a value read past a stray brace: the start of a field of its own (a line's).
_FIELD_LINE: Final = re.compile(rf",[ \t]*\r?\n\s*{_NAME}\s*=")
#: A brace too many before a value: ``}`` and the value's start.
_STRAY_FIRST: Final = re.compile(r"\}\s*[{\"\w]")
#: A bare value (a number, a macro's name).
_BARE: Final = re.compile(r"[^\s,#{}()\"]+")


@dataclass(slots=True)
class Mended:
    """An entry read whole: its type, key, fields as written (``(name, raw value)``) and the
    fields from which an unmatched ``}`` was taken out."""

    kind: str
    key: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    strays: list[str] = field(default_factory=list)


def starts_entry(text: str) -> bool:
    """Whether ``text`` opens with an entry's head (``@article{key,``)."""
    return _HEAD.match(text) is not None


def cut_short(comment: str) -> bool:
    """Whether a comment the parser left right after an entry is the rest of that entry
    (``, author = {…}, year = 2020 }``): it opens with a comma or a field, as no comment
    between entries does."""
    return _GOES_ON.match(comment) is not None


def value_runs_on(raw: str) -> bool:
    """Whether a value as the parser gave it runs on past its closing brace (``{A {B}} C``):
    a ``}`` closed it early. A missing comma (``{A}\\n author = …``) is not this."""
    text = raw.strip()
    if not text.startswith("{"):
        return False
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                rest = text[i + 1 :].lstrip()
                return bool(rest) and not rest.startswith("#") and not _FIELD.match(rest)
    return False


def mend_entry(text: str) -> Mended | None:
    """The fields of the entry ``text`` opens with, unmatched ``}`` taken out of its values;
    None when its text cannot be read as fields so (see the module)."""
    head = _HEAD.match(text)
    if head is None:
        return None
    closer = "}" if head.group(2) == "{" else ")"
    entry = Mended(kind=head.group(1), key=head.group(3))
    pos = head.end()
    while True:
        while pos < len(text) and (text[pos].isspace() or text[pos] == ","):
            pos += 1
        if pos >= len(text):
            return None  # the entry never ends
        if text[pos] == closer:
            if _FIELD_AFTER.match(text, pos + 1) is None:
                return entry
            # a brace too many after a bare or quoted value (``year = 2020},``): taken out
            if entry.fields and entry.fields[-1][0].casefold() not in entry.strays:
                entry.strays.append(entry.fields[-1][0].casefold())
            pos += 1
            continue
        name = _FIELD.match(text, pos)
        if name is None:
            return None
        read = _value(text, name.end(), closer)
        if read is None:
            return None
        value, pos, strays = read
        entry.fields.append((name.group(1), value))
        if strays:
            entry.strays.append(name.group(1).casefold())


def _value(text: str, pos: int, closer: str) -> tuple[str, int, int] | None:
    """A value's parts from ``pos`` (joined by ``#``): the value as it should have been
    written, where it ends, how many unmatched ``}`` were taken out; None when unreadable."""
    parts: list[str] = []
    strays = 0
    if _STRAY_FIRST.match(text, pos):  # ``journal =} {J}``: a brace before the value
        pos, strays = text.index("}", pos) + 1, 1
        while pos < len(text) and text[pos].isspace():
            pos += 1
    while True:
        if pos >= len(text):
            return None
        delimited = {"{": _braced, '"': _quoted}.get(text[pos])
        if delimited is not None:
            read = delimited(text, pos)
            if read is None:
                return None
            part, pos, taken = read
            strays += taken
        else:
            bare = _BARE.match(text, pos)
            if bare is None:
                return None
            part, pos = bare.group(), bare.end()
        parts.append(part)
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos < len(text) and text[pos] == "#":
            parts.append(" # ")
            pos += 1
            while pos < len(text) and text[pos].isspace():
                pos += 1
            continue
        if pos < len(text) and text[pos] not in (",", closer) and not _FIELD.match(text, pos):
            return None  # something after a quoted or bare value: not guessed at
        return "".join(parts), pos, strays


def _braced(text: str, start: int) -> tuple[str, int, int] | None:
    """The braced value at ``start``, read past each ``}`` that closes it early."""
    kept: list[str] = []
    depth, strays, run = 0, 0, start
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if _ends_value(text, i + 1):
                    kept.append(text[run : i + 1])
                    return "".join(kept), i + 1, strays
                kept.append(text[run:i])  # this brace closed the value early: taken out
                run = i + 1
                depth = 1
                strays += 1
        elif ch == "," and strays and depth == 1 and _FIELD_LINE.match(text, i):
            return None  # read on into what is a field of its own: the brace was no stray
    return None


def _quoted(text: str, start: int) -> tuple[str, int, int] | None:
    """The quoted value at ``start``; a ``}`` with no ``{`` inside it is taken out."""
    kept: list[str] = []
    depth, strays, run = 0, 0, start
    for i in range(start + 1, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                kept.append(text[run:i])
                run = i + 1
                strays += 1
            else:
                depth -= 1
        elif ch == '"' and depth == 0:
            kept.append(text[run : i + 1])
            return "".join(kept), i + 1, strays
    return None


def _ends_value(text: str, pos: int) -> bool:
    """Whether a value's closing brace just before ``pos`` ends it (``_VALUE_END``), and, when
    an entry's closing brace follows, whether that is the entry's end (no field after it)."""
    end = _VALUE_END.match(text, pos)
    if end is None:
        return False
    if end.group().rstrip().endswith(("}", ")")):
        return _FIELD_AFTER.match(text, end.end()) is None
    return True


#: Where a value delimited whole is followed by the next field (``{A}\n  author = {B}``):
#: the comma between them is missing.
_NEXT_FIELD = re.compile(r"\s+([A-Za-z][\w-]*)\s*=\s*(?=[{\"\w])")
#: What a value with a missing comma holds somewhere: a closing delimiter, then a field.
_CLOSED_THEN_FIELD = re.compile(r"[}\"]\s+[A-Za-z][\w-]*\s*=\s*[{\"\w]")


def runs_together(raw: str) -> bool:
    """Whether a field's value as written may hold the next field, its comma missing (rare:
    C, not Python, looks first)."""
    return _CLOSED_THEN_FIELD.search(raw) is not None


def comma_mended(name: str, raw: str, mended: list[str]) -> list[tuple[str, str]]:
    """A field as written, or the fields a missing comma ran together (``title = {A}`` and
    the next line's ``author = {B}``: bibtexparser gives the title ``{A} author = {B}``),
    each named in ``mended``. Only a value whose first part is delimited whole (braces or
    quotes) is cut: a title's text that holds "x = y" is kept as it is. One pass, however
    many fields ran together (one call a field ran out of stack past a thousand)."""
    text = raw.strip()
    out: list[tuple[str, str]] = []
    at = 0
    while at < len(text) and text[at] in '{"':
        end = _delimited_end(text, at)
        found = _NEXT_FIELD.match(text, end) if end is not None and end < len(text) else None
        if found is None:
            break
        out.append((name, text[at:end]))
        name = found.group(1).casefold()
        mended.append(name)
        at = found.end()
    return [*out, (name, text[at:] if out else raw)]


def _delimited_end(text: str, start: int = 0) -> int | None:
    """Where the braced or quoted value at ``start`` in ``text`` ends (None: it does not)."""
    if text[start] == "{":
        depth = 0
        for i in range(start, len(text)):
            ch = text[i]
            depth += 1 if ch == "{" else -1 if ch == "}" else 0
            if depth == 0:
                return i + 1
        return None
    depth = 0
    for i in range(start + 1, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 0:
            return i + 1
    return None
