"""The ``papers`` command line (``main``); the app opens when no command is given."""

try:
    from tui.cli.main import build_parser, main, run
except KeyboardInterrupt:  # Ctrl+C in the first tenth of a second, while the modules load
    import sys

    sys.stderr.write("papers: interrupted\n")  # one line, not the import's traceback
    raise SystemExit(130) from None

__all__ = ["build_parser", "main", "run"]
