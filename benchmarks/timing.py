"""Latency samples, summarised the same way by every benchmark."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Latency:
    """Milliseconds per operation: p50, p95, max over ``count`` samples (``missed`` timed out)."""

    p50: float
    p95: float
    max: float
    count: int
    missed: int = 0

    @classmethod
    def of(cls, seconds: Sequence[float], missed: int = 0) -> Latency:
        """Summarise durations given in seconds."""
        if not len(seconds):
            return cls(float("nan"), float("nan"), float("nan"), 0, missed)
        ms = np.asarray(seconds) * 1000
        return cls(
            float(np.percentile(ms, 50)),
            float(np.percentile(ms, 95)),
            float(ms.max()),
            len(ms),
            missed,
        )

    def cells(self) -> str:
        """``p50 | p95 | max | n`` cells of a table row."""
        n = f"{self.count}" + (f" ({self.missed} timed out)" if self.missed else "")
        return f"{self.p50:>7.1f} | {self.p95:>7.1f} | {self.max:>7.1f} | {n:>5}"

    def row(self, what: str) -> str:
        """One line of a latency table: what, n, p50, p95, max."""
        return (
            f"{what:<58} | {self.count:>5} | {self.p50:>8.2f} | {self.p95:>8.2f} | {self.max:>8.2f}"
        )
