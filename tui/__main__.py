"""``python -m tui`` runs the ``papers`` command."""

import sys

from tui.cli import main

sys.exit(main())
