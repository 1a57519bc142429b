"""Ctrl+C while `papers` starts ends it with `papers: interrupted` and exit code 130, in a real
terminal, whenever it comes.

Before, Ctrl+C in the first tenth of a second, while the command's modules loaded, crashed
Python when it came as orjson's compiled module initialised (it imports ``uuid`` then, and an
interruption there is a segmentation fault: exit code 139 in a shell, no word said). Ctrl+C
there now waits for the modules to be loaded, then ends the command.

The moment is a tenth of a millisecond wide; the test makes it last: a module of Python's
user site (``PYTHONUSERBASE``, a folder of the test's) watches the imports through an audit
hook and, once orjson's module imports something as it initialises, says so on the terminal
and waits there, until the test has sent SIGINT (what Ctrl+C sends) and said so with a file.
Nothing of papers-tui or orjson is replaced: the real `papers` runs, paused at that moment.
"""

from __future__ import annotations

import os
import signal
import site
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.tui.test_pty import read_until, spawn_papers

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal"),
    pytest.mark.skipif(not site.ENABLE_USER_SITE, reason="Python's user site is turned off"),
]

#: The user site's module: pauses ``PAUSE_AT``'s first import of another module, until
#: ``PAUSE_GO`` exists.
PAUSE = """
import os, sys, time

_seen = []


def _pause(event, args):
    if event != "import" or (_seen and _seen[-1] != os.environ["PAUSE_AT"]):
        return
    if args[0] == os.environ["PAUSE_AT"]:
        _seen.append(args[0])  # (an import is told of twice)
    elif _seen:
        _seen.append(args[0])
        sys.stderr.write("[paused at " + args[0] + "]\\n")
        sys.stderr.flush()
        deadline = time.monotonic() + 10
        while not os.path.exists(os.environ["PAUSE_GO"]) and time.monotonic() < deadline:
            time.sleep(0.01)


sys.addaudithook(_pause)
"""


def user_site(base: Path) -> Path:
    """The user site-packages folder Python reads with ``PYTHONUSERBASE=base``."""
    scheme = f"{os.name}_user"
    return Path(sysconfig.get_path("purelib", scheme, vars={"userbase": str(base)}))


@pytest.mark.slow(5)
def test_ctrl_c_as_orjson_initialises_ends_the_command_as_interrupted(tmp_path: Path) -> None:
    packages = user_site(tmp_path / "userbase")
    packages.mkdir(parents=True)
    (packages / "pause_at_import.py").write_text(PAUSE, encoding="utf-8")
    (packages / "pause_at_import.pth").write_text("import pause_at_import\n", encoding="utf-8")
    go = tmp_path / "go"
    more_env = {
        "PYTHONUSERBASE": str(tmp_path / "userbase"),
        "PAUSE_AT": "orjson.orjson",
        "PAUSE_GO": str(go),
    }
    proc, master = spawn_papers(tmp_path / "home", 24, 80, more_env)
    try:
        screen = read_until(master, b"[paused at ", timeout=30)
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        go.touch()
        code = proc.wait(timeout=30)
        try:
            while chunk := os.read(master, 65536):
                screen += chunk
        except OSError:  # the terminal's other side closed: everything is read
            pass
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = screen.decode("utf-8", "replace")
    assert code == 130, (code, text[-1500:])
    assert "papers: interrupted" in text and "Traceback" not in text, text[-1500:]
    assert not (tmp_path / "home").exists()  # nothing was started
