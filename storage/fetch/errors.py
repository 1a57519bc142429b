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


class ThrottledError(FetchError):
    """A service that kept saying it throttles (arXiv's "Rate exceeded.") through every wait."""


class FetchCancelled(FetchError):
    """The user stopped the fetch (the app's import dialog)."""
