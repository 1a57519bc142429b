"""The errors of a fetch: each one line naming the host (or the source) and the cause."""

from __future__ import annotations

from storage.errors import LibraryError


class FetchError(LibraryError):
    """A fetch that could not be made: one line naming the host (or the source) and the cause."""


class StatusError(FetchError):
    """An error answer (HTTP 4xx or 5xx): its status too, for the sources that read it (a 404
    venue is no venue)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class AnswerError(FetchError):
    """An answer that came but was not understood: an HTML page, JSON or a feed of another
    shape, a body cut short, nothing at all. Said as such (``host: the answer to /notes was
    not understood: …``), never taken for an answer without papers."""

    def __init__(self, host: str, problem: str, asked: str = "") -> None:
        to = f" to {asked}" if asked else ""
        super().__init__(f"{host}: the answer{to} was not understood: {problem}")


class InconsistentAnswer(FetchError):
    """An answer that contradicts itself: OpenReview's first page of notes counting some
    (``"count": 5``) and sending none, a paging or permission problem on its side. Said as
    such (``host: the answer to /notes was inconsistent: …``), never taken for an answer
    without papers, and not kept in the cache."""

    def __init__(self, host: str, problem: str, asked: str = "") -> None:
        to = f" to {asked}" if asked else ""
        super().__init__(f"{host}: the answer{to} was inconsistent: {problem}")


class ThrottledError(FetchError):
    """A service that kept saying it throttles (arXiv's "Rate exceeded.") through every wait."""


class FetchCancelled(FetchError):
    """The user stopped the fetch (the app's import dialog)."""
