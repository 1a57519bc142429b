"""``python -m tui`` runs the ``papers`` command."""

from tui.cli import run

run()
