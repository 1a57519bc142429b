"""Dates as people type them into a reference manager's date field, read as year, month and
day: Zotero's ``date`` (its Web API, its CSV), RIS's ``DA``/``PY``/``Y1``, EndNote's ``%D`` and
``%8``, a BibLaTeX ``date`` that is not ISO 8601. One reading for all of them, so that the
same typed date gives every reader the same year."""

from __future__ import annotations

import calendar
import re
from typing import Final

__all__ = ["checked_date", "typed_date"]

_MONTHS: Final = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_ISO: Final = re.compile(r"(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?!\d)")
_NUMERIC: Final = re.compile(r"(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)")
_YEAR: Final = re.compile(r"(?<!\d)([12]\d{3})(?!\d)")
_MONTH_WORD: Final = re.compile(rf"\b({'|'.join(_MONTHS)})[a-z]*\.?", re.IGNORECASE)
_DAY: Final = re.compile(r"(?<![\d:])(\d{1,2})(?:st|nd|rd|th)?(?![\d:])")


def typed_date(text: str) -> tuple[int | None, int | None, int | None]:
    """Year, month and day of a date as people type it into a reference manager:
    ``2024-05-07``, ``2024/5``, RIS's ``2024/05/07/``, ``May 7, 2024``, ``7 May 2024``,
    ``05/07/2024`` (month first, as Zotero reads it, unless the first number cannot be a
    month), ``7.5.2024``, ``Spring 2024``, ``c2024``, ``2024``; None for what it does not
    give."""
    text = text.strip()[:100]
    iso = _ISO.match(text)
    if iso and (dated := checked_date(*(int(g) if g else None for g in iso.groups())))[0]:
        return dated
    numeric = _NUMERIC.search(text)
    if numeric:
        first, second, number = (int(g) for g in numeric.groups())
        if "." in numeric.group() or first > 12:  # 7.5.2024, 25/12/2024: the day first
            first, second = second, first
        return checked_date(number, first, second)
    year = _YEAR.search(text)
    if year is None:
        return None, None, None
    word = _MONTH_WORD.search(text)
    month = _MONTHS[word.group(1).casefold()] if word else None
    day = _DAY.search(text.replace(year.group(), " ")) if word else None
    return checked_date(int(year.group(1)), month, int(day.group(1)) if day else None)


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
