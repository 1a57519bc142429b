"""papers-tui's terminal side: the Textual app and the ``papers`` command."""
