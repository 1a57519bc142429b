"""The timeouts a download may be given: what ``papers pdf --timeout``, ``papers fetch
--timeout`` and ``config.toml``'s ``[pdf] timeout`` take, and the pauses ``papers pdf``'s
``--pause`` and ``--max-wait`` take. Here, not in the command line's
code, so that reading the settings imports no command (``tui.cli`` holds Ctrl+C back while
it is imported) and both say the same bounds."""

from __future__ import annotations

from typing import Final

#: The shortest timeout taken, in seconds: a request given less fails on any network
#: (``--timeout 1e-300`` was taken, and every PDF "timed out").
MIN_TIMEOUT_S: Final = 0.1
#: The longest: an hour (a server silent longer is no server to wait for).
MAX_TIMEOUT_S: Final = 3600.0


def timeout_problem(value: float) -> str:
    """Why ``value`` is no timeout in seconds ("" when it is one): from ``MIN_TIMEOUT_S`` to
    ``MAX_TIMEOUT_S`` (not a number, infinite, 0 or less, a tiny or a huge one are none)."""
    if not MIN_TIMEOUT_S <= value <= MAX_TIMEOUT_S:  # (NaN compares false: refused too)
        return f"must be from {MIN_TIMEOUT_S:g} to {MAX_TIMEOUT_S:g} seconds"
    return ""


#: The longest pause between two requests, and the longest ``Retry-After`` waited for: an
#: hour each (``--pause 1e9`` was taken, a run sleeping 31 years between two PDFs; a server
#: that asks for more than an hour's wait is asked again by a later run).
MAX_PAUSE_S: Final = 3600.0


def pause_problem(value: float) -> str:
    """Why ``value`` is no pause in seconds ("" when it is one): from 0 to ``MAX_PAUSE_S``
    (not a number, infinite, less than 0 or more than an hour are none)."""
    if not 0 <= value <= MAX_PAUSE_S:  # (NaN compares false: refused too)
        return f"must be from 0 to {MAX_PAUSE_S:g} seconds"
    return ""
