"""The ``papers`` command line (``main``); the app opens when no command is given.

Ctrl+C while the command's modules load (the first tenth of a second) waits for them to be
loaded, then ends the command: ``papers: interrupted``, exit code 130. Raised inside a module
as it loaded, the interruption crashed Python where the module was one compiled (orjson's,
interrupted while it imports ``uuid``: a segmentation fault, exit code 139) and came out as
another error, with a traceback, in a dataclass's fields (a ``RuntimeError``, exit code 1).
"""

import signal
import sys
from types import FrameType

_interrupted: list[int] = []


def _hold(number: int, _frame: FrameType | None) -> None:
    _interrupted.append(number)


_before = signal.getsignal(signal.SIGINT)
try:
    signal.signal(signal.SIGINT, _hold)
    _holding = True
except ValueError:  # (imported by a thread other than the main one: no signal reaches it)
    _holding = False
try:
    from tui.cli.main import build_parser, main, run
except KeyboardInterrupt:  # (before the signal was held)
    _interrupted.append(signal.SIGINT)
finally:
    if _holding:
        signal.signal(signal.SIGINT, signal.default_int_handler if _before is None else _before)
if _interrupted:
    sys.stderr.write("papers: interrupted\n")  # one line, not the import's traceback
    raise SystemExit(130)

__all__ = ["build_parser", "main", "run"]
