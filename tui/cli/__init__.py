"""The ``papers`` command line (``main``); the app opens when no command is given."""

from tui.cli.main import build_parser, main, run

__all__ = ["build_parser", "main", "run"]
