"""The main screen, assembled from parts by concern (see ``screen``)."""

from tui.screens.main.screen import MainScreen

__all__ = ["MainScreen"]
