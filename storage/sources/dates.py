"""Dates as people type them into a reference manager's date field, read as year, month and
day: Zotero's ``date`` (its Web API, its CSV), RIS's ``DA``/``PY``/``Y1``, EndNote's ``%D`` and
``%8``, a BibLaTeX ``date`` that is not ISO 8601. One reading for all of them, so that the
same typed date gives every reader the same year."""

from __future__ import annotations

import calendar
import re
from typing import Final

__all__ = ["checked_date", "no_year", "stated_date", "typed_date"]

#: Months by name: English (``Sep``, ``Sept``, ``September``: at least three letters of
#: the name), and the names in other languages that reference managers keep as typed.
_MONTH_NAMES: Final = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_OTHER_NAMES: Final = {
    "januar": 1, "enero": 1, "janvier": 1, "februar": 2, "febrero": 2, "février": 2,
    "märz": 3, "marzo": 3, "mars": 3, "abril": 4, "avril": 4, "mai": 5, "mayo": 5,
    "juni": 6, "junio": 6, "juin": 6, "juli": 7, "julio": 7, "juillet": 7, "agosto": 8,
    "août": 8, "septiembre": 9, "septembre": 9, "okt": 10, "oktober": 10, "octubre": 10,
    "octobre": 10, "noviembre": 11, "novembre": 11, "dez": 12, "dezember": 12,
    "diciembre": 12, "décembre": 12,
}  # fmt: skip
_ISO: Final = re.compile(r"(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?!\d)")
_NUMERIC: Final = re.compile(r"(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)")
_YEAR: Final = re.compile(r"(?<!\d)([12]\d{3})(?!\d)")
_WORD: Final = re.compile(r"[^\W\d_]{3,}")
_DAY: Final = re.compile(r"(?<![\d:])(\d{1,2})(?:st|nd|rd|th)?(?![\d:])")


def typed_date(text: str) -> tuple[int | None, int | None, int | None]:
    """Year, month and day of a date as people type it into a reference manager:
    ``2024-05-07``, ``2024/5``, RIS's ``2024/05/07/``, ``May 7, 2024``, ``7 May 2024``,
    ``2024, May 7``, ``05/07/2024`` (month first, as Zotero reads it, unless the first number
    cannot be a month), ``7.5.2024``, ``Spring 2024``, ``c2024``, ``2024``; None for what it
    does not give."""
    text = text.strip()[:100]
    iso = _ISO.match(text)
    if iso and iso.group(2) and (dated := checked_date(*map(_number, iso.groups())))[0]:
        return dated  # (a year alone may be followed by its month's name: "2024, May 5")
    numeric = _NUMERIC.search(text)
    if numeric:
        first, second, number = (int(g) for g in numeric.groups())
        if "." in numeric.group() or first > 12:  # 7.5.2024, 25/12/2024: the day first
            first, second = second, first
        return checked_date(number, first, second)
    year = _YEAR.search(text)
    if year is None:
        return None, None, None
    month = _month_named(text)
    day = _DAY.search(text.replace(year.group(), " ")) if month else None
    return checked_date(int(year.group(1)), month, int(day.group(1)) if day else None)


def _number(digits: str | None) -> int | None:
    """A number matched, or None for a group that matched nothing."""
    return int(digits) if digits else None


def _month_named(text: str) -> int | None:
    """The month the first month's name in ``text`` names: a word that begins like one
    ("Decided", "Marketing", "Novel" name none)."""
    for found in _WORD.finditer(text):
        word = found.group().casefold()
        if word in _OTHER_NAMES:
            return _OTHER_NAMES[word]
        month = next((n for n, name in enumerate(_MONTH_NAMES, 1) if name.startswith(word)), 0)
        if month:
            return month
    return None


def checked_date(
    year: int | None, month: int | None, day: int | None
) -> tuple[int | None, int | None, int | None]:
    """Year, month and day as far as they make a date: a year from 1000 to 2999, a month of
    the year, a day of that month (``2024-02-30`` is February 2024, no day); None for the
    rest."""
    if year is None or not 1000 <= year <= 2999:
        return None, None, None
    if month is None or not 1 <= month <= 12:
        return year, None, None
    last = calendar.monthrange(year, month)[1]
    return year, month, day if day is not None and 1 <= day <= last else None


def stated_date(year: str, date: str) -> tuple[int | None, int | None, int | None]:
    """Year, month and day of a reference that types its year and its date apart (EndNote's
    ``%D`` and ``%8``, its XML's ``<year>`` and ``<pub-dates>``): the year its year field
    states, the month and day of the date when its year agrees (a date of another year is
    its access's, its export's) or the year field gives none."""
    found = typed_date(date)
    stated = typed_date(year)
    if stated[0] is None:
        return found
    if stated[1] is not None or found[0] != stated[0]:
        return stated
    return found


def no_year(source: str, unread: list[tuple[int, str]]) -> str:
    """The one line for the records whose date, typed, names no year (``in press``,
    ``Forthcoming``): the first of them and how many, imported without a year."""
    number, typed = unread[0]
    many = f"{len(unread):,} records' dates give" if len(unread) > 1 else "a record's date gives"
    return f"{source}: {many} no year (record {number}: {typed[:40]!r}); imported without one"
