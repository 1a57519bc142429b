"""``papers serve`` in a real browser: the server as a child process, headless Chromium driven
by selenium, the page's terminal read as text.

Used by ``benchmarks.serve`` (start to painted Inbox, key to disk), by the browser tests
(``tests/web``) and by ``screenshots/make.py`` (the browser's view). The browser is the
system's Chromium with its own driver (Debian's ``chromium`` and ``chromium-driver``; other
paths through ``PAPERS_CHROMIUM`` and ``PAPERS_CHROMEDRIVER``): selenium is never let fetch a
browser of its own. The page draws its terminal on a canvas, so what it shows is read from
xterm.js's buffer: a script run before the page's own (``Page.addScriptToEvaluateOnNewDocument``)
keeps the ``Terminal`` textual-serve's page makes and records, after each frame xterm.js
paints, the first time each watched text was on the glass.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("PAPERS_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PAPERS_CHROMEDRIVER", "/usr/bin/chromedriver")
#: Chromium on a closed network: no background connections (they are refused here and slow
#: the start), no QUIC, no first-run or sync machinery; a fresh profile each time.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: The page of the figures and the screenshot: 120x36 cells of its 16 px font.
WINDOW = (1085, 770)
#: A phone held upright (360 CSS pixels, as most Android phones): 40 columns.
PHONE = (360, 780)

_WATCH = """
(() => {
  const needles = %s;
  window.__papers = {term: null, seen: {}, renders: 0, sent: []};
  const text = (term) => {
    const buffer = term.buffer.active, rows = [];
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      rows.push(line ? line.translateToString(true) : "");
    }
    return rows.join("\\n");
  };
  window.__papersText = () => window.__papers.term ? text(window.__papers.term) : null;
  // textual-serve's page keeps its Terminal in a closure: take it as it is assigned.
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    set(value) {
      Object.defineProperty(this, "terminal", {value, writable: true, configurable: true,
                                               enumerable: true});
      if (window.__papers.term || !value || !value.buffer || !value.onRender) return;
      window.__papers.term = value;
      // what the terminal sent to the app (keys, its answers), the last 50 (a wait that
      // fails says whether a key left the page)
      value.onData((data) => window.__papers.sent.push(data) > 50 && window.__papers.sent.shift());
      value.onRender(() => {
        window.__papers.renders += 1;
        const shown = text(value);
        for (const needle of needles) {
          if (!(needle in window.__papers.seen) && shown.includes(needle)) {
            window.__papers.seen[needle] = Date.now();
          }
        }
      });
    },
  });
})();
"""


def missing() -> str | None:
    """Why the browser tests and figures cannot run here (None: they can)."""
    for module, extra in (("textual_serve", "web"), ("selenium", "test")):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e '.[{extra}]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"no {path} (apt-get install {package})"
    return None


# -- the server ------------------------------------------------------------------------------
@dataclass
class Served:
    """A running ``papers serve`` and the address it printed."""

    proc: subprocess.Popen[str]
    url: str
    started: float
    output: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.url.split(":")[2].split("/")[0])

    def children(self) -> list[int]:
        """The process ids of the app children (one per open tab)."""
        return children_of(self.proc.pid)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        """End the server by ``sig`` and wait; returns its exit code. App children still
        running then (a test that failed half-way) are killed."""
        children = self.children() if self.proc.poll() is None else []
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        for pid in children:
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        return code


def papers_command() -> list[str]:
    """The ``papers`` script beside this interpreter (the CLI tests' rule), else ``-m tui``."""
    script = Path(sys.executable).with_name("papers")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "tui"]


def serve(home: Path, *args: str, timeout: float = 30.0) -> Served:
    """Start ``papers serve --home HOME --port 0 ARGS…``; returns once it printed its address."""
    started = time.time()
    proc = subprocess.Popen(
        [*papers_command(), "serve", "--home", str(home), "--port", "0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    output: list[str] = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"papers serve ended: {''.join(output)!r}")
        output.append(line)
        found = re.search(r"(http://\S+)", line)
        if found:
            served = Served(proc, found.group(1), started, output)
            _drain(proc, output)
            return served
    proc.kill()
    raise TimeoutError(f"papers serve printed no address within {timeout} s: {output!r}")


def _drain(proc: subprocess.Popen[str], output: list[str]) -> None:
    """Keep reading the server's output (a full pipe would stop it), into ``output``."""
    import threading

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            output.append(line)

    threading.Thread(target=read, name="papers-serve-output", daemon=True).start()


def children_of(pid: int) -> list[int]:
    """The direct children of process ``pid`` (Linux ``/proc``)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return sorted(set(found))


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# -- the browser -----------------------------------------------------------------------------
class Browser:
    """Headless Chromium through selenium, reading the page's terminal."""

    def __init__(
        self,
        size: tuple[int, int] = WINDOW,
        watch: Sequence[str] = (),
        downloads: Path | None = None,
    ) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = Path(tempfile.mkdtemp(prefix="papers-chromium-"))
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={size[0]},{size[1]}")
        self.driver = webdriver.Chrome(
            options=options, service=Service(CHROMEDRIVER, log_output=subprocess.DEVNULL)
        )
        # the page's own size, whatever the headless window's frame takes
        metrics = {"width": size[0], "height": size[1], "deviceScaleFactor": 1}
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {**metrics, "mobile": size[0] < 600}
        )
        # the page focused, as a browser's window a person opens is: a headless Chromium has
        # no focused window (Chromium 150 of Debian's: document.hasFocus() false, no focus
        # event to the page until a key), which no person meets
        self.driver.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.driver.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument", {"source": _WATCH % json.dumps(list(watch))}
        )
        if downloads is not None:
            self.driver.execute_cdp_cmd(
                "Browser.setDownloadBehavior",
                {"behavior": "allow", "downloadPath": str(downloads), "eventsEnabled": True},
            )

    def open(self, url: str) -> None:
        self.driver.get(url)

    def text(self) -> str:
        """What the page's terminal shows now, one line a row ("" before it exists)."""
        return (
            self.driver.execute_script("return window.__papersText && window.__papersText()") or ""
        )

    def seen(self) -> dict[str, float]:
        """When (epoch seconds) each watched text was first painted."""
        seen = self.driver.execute_script("return window.__papers ? window.__papers.seen : {}")
        return {needle: at / 1000 for needle, at in (seen or {}).items()}

    def wait_for(
        self, test: Callable[[str], bool] | str, timeout: float = 15.0, what: str = ""
    ) -> str:
        """Wait until the terminal's text passes ``test`` (or holds that string)."""
        check = (lambda shown: test in shown) if isinstance(test, str) else test
        deadline = time.time() + timeout
        shown = ""
        while time.time() < deadline:
            shown = self.text()
            if shown and check(shown):
                return shown
            time.sleep(0.02)
        sent = self.script("return window.__papers ? window.__papers.sent : []")
        raise TimeoutError(
            f"the page never showed {what or test!r}; its terminal sent {sent!r};"
            f" it shows:\n{shown}"
        )

    def press(self, *keys: str) -> float:
        """Type ``keys`` into the terminal (selenium's key names for special keys); returns the
        time (epoch seconds) just before they were sent."""
        from selenium.webdriver.common.by import By

        field = self.driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        sent = time.time()
        field.send_keys(*keys)
        return sent

    def type(self, *keys: str) -> float:
        """Type ``keys`` as a person's keyboard does: to whatever has the page's focus (no
        field is chosen first, as ``press`` does); returns the time just before they were sent."""
        from selenium.webdriver.common.action_chains import ActionChains

        sent = time.time()
        ActionChains(self.driver).send_keys(*keys).perform()
        return sent

    def script(self, source: str, *args: Any) -> Any:
        return self.driver.execute_script(source, *args)

    def screenshot(self, path: Path) -> Path:
        self.driver.save_screenshot(str(path))
        return path

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
