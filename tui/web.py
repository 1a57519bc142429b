"""What changes when the app runs in a browser tab (``papers serve``) instead of a terminal.

Under textual-serve each tab runs the app in a child process whose driver is Textual's
``WebDriver``: ``App.is_web`` is then true (``textual/drivers/web_driver.py``), and three
things the terminal app does on this machine must happen in the browser instead:

- a copied link goes to the browser's clipboard: the OSC 52 sequence of
  ``App.copy_to_clipboard`` reaches xterm.js in the page, whose clipboard add-on hands it to
  ``navigator.clipboard`` (never pyperclip: the server's X clipboard is not the user's). A
  browser grants that only to a secure page (https, or an address of its own machine), so
  the server tells the child the page's origin (``ORIGIN_VARIABLE``) and the notification
  says when the link must be selected by hand instead;
- a link opens in a new tab of that browser (``App.open_url``, which the driver forwards);
- an export or a screenshot is offered as a download (``App.deliver_text``), not written
  into the server's current folder; a PDF kept here (``p``) is sent to a new tab of the
  browser (``App.deliver_binary``), whose ``file://`` link the browser could not open.

Nothing here imports textual-serve: this module runs in the app's process.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from textual.app import App
from textual.notifications import SeverityLevel

from tui.web_child import ORIGIN_VARIABLE

#: What a download's file name keeps (the name goes into an HTTP header as it is).
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def in_browser(app: App[Any]) -> bool:
    """Whether ``app`` runs in a browser tab (textual-serve's driver), not a terminal."""
    return app.is_web


def clipboard_allowed(origin: str | None = None) -> bool:
    """Whether a page of ``origin`` (default: this child's page) may write the clipboard:
    browsers allow it to secure contexts only, https or a loopback address."""
    import ipaddress  # (1 ms: only when something is copied)

    origin = os.environ.get(ORIGIN_VARIABLE, "") if origin is None else origin
    try:
        parts = urlsplit(origin)
        host = parts.hostname or ""
    except ValueError:
        return False
    if parts.scheme == "https":
        return True
    if parts.scheme != "http":
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def copy_in_browser(app: App[Any], text: str, what: str) -> None:
    """Copy ``text`` to the browser's clipboard, and show it (to select by hand if need be)."""
    from tui.links import shown_copy  # (tui.links calls this module)

    app.copy_to_clipboard(text)
    shown = shown_copy(text)
    if clipboard_allowed():
        message = f"Copied {what} to your browser's clipboard:\n{shown}"
        severity: SeverityLevel = "information"
    else:
        message = (
            f"Your browser keeps its clipboard from pages on plain http from another machine: "
            f"select {what} here (shift+drag) and copy:\n{shown}"
        )
        severity = "warning"
    app.notify(message, title="Copied", severity=severity, timeout=8, markup=False)


def open_in_tab(app: App[Any], url: str) -> None:
    """Open ``url`` in a new tab of the user's browser (the page forwards it)."""
    app.open_url(url, new_tab=True)
    app.notify(
        f"Opened {url} in a new tab (if none opened, let this page open pop-ups)",
        title="Browser",
        timeout=4,
        markup=False,
    )


def download_name(wanted: str, default: str) -> str:
    """A file name safe in a download's header: the last part of ``wanted``, characters
    other than letters, digits, ``.``, ``_`` and ``-`` made ``-`` (``default`` if none left)."""
    name = _UNSAFE_NAME.sub("-", wanted.replace("\\", "/").rsplit("/", 1)[-1]).strip(".-")
    return name[:120] or default


def offer_download(app: App[Any], text: str, name: str) -> None:
    """Offer ``text`` to the browser as a download called ``name`` (UTF-8)."""
    app.deliver_text(io.StringIO(text), save_filename=name, encoding="utf-8")


def open_file_in_tab(app: App[Any], path: Path, what: str) -> None:
    """Open a PDF of the server's (``path``) in a new tab of the user's browser: the page
    fetches it from the server as a download the browser shows."""
    app.deliver_binary(
        path,
        save_filename=download_name(path.name, "paper.pdf"),
        open_method="browser",
        mime_type="application/pdf",
    )
    app.notify(
        f"Sent {what} to a new tab (if none opened, let this page open pop-ups)",
        title="Browser",
        timeout=4,
        markup=False,
    )
