"""The extra facts of the indexed papers as columns: ``rating:``, ``citations:`` and ``area:``
answered by array operations instead of a look at every paper.

Made once per index from the papers' ``extra`` field (read as one column of ``papers.cache``
when the index was loaded from disk: no paper is made), kept with the table until it grows:
a qualifier at 100,000 papers then takes about a millisecond (it took 400-525 ms, a Python
call per paper).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from storage.search.postings import BoolArray
from storage.search.table import PaperTable
from storage.text.normalize import fold

#: The extra fields kept as numbers (a paper without one: NaN, which no test passes).
NUMBER_FIELDS: Final = ("rating", "citations")
FloatArray = npt.NDArray[np.float64]


@dataclass(slots=True)
class ExtraColumns:
    """Per slot: each number field (NaN where the paper has none), and the area as a code
    into the distinct folded areas (``areas``; "" for none)."""

    size: int
    numbers: dict[str, FloatArray]
    area_code: npt.NDArray[np.int32]
    areas: dict[str, int]

    def area_mask(self, accepts: Callable[[str], bool]) -> BoolArray:
        """Slots whose folded area ``accepts`` takes (one test per distinct area)."""
        codes = [code for area, code in self.areas.items() if accepts(area)]
        return np.isin(self.area_code, codes)


def extra_columns(table: PaperTable) -> ExtraColumns:
    """The table's extra columns, made on first use and kept until the table grows."""
    kept = table.extra_columns
    if isinstance(kept, ExtraColumns) and kept.size == len(table):
        return kept
    found = _make(_extras(table.papers), len(table))
    table.extra_columns = found
    return found


def _extras(papers: Sequence[Any]) -> Sequence[Any]:
    """Every paper's ``extra``, in slot order: one column of ``papers.cache`` when the papers
    are read from it as far as asked (``PaperSequence.column``), else from each paper."""
    column = getattr(papers, "column", None)
    if column is not None:
        return column("extra")
    return [paper.extra for paper in papers]


def _make(extras: Sequence[Any], size: int) -> ExtraColumns:
    numbers = {name: np.full(size, np.nan) for name in NUMBER_FIELDS}
    area_code = np.zeros(size, dtype=np.int32)
    areas: dict[str, int] = {"": 0}
    for slot, extra in enumerate(extras):
        if not extra:
            continue
        for name, value in extra:
            if name == "area":
                area = fold(str(value))
                area_code[slot] = areas.setdefault(area, len(areas))
            elif name in numbers and isinstance(value, int | float) and not isinstance(value, bool):
                numbers[name][slot] = float(value)
    return ExtraColumns(size, numbers, area_code, areas)
