"""A paper's links: copied to the clipboard (terminal and system) or opened in the browser.

In a browser tab (``papers serve``) both go to that browser instead (``tui/web.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App

from storage.models import Paper
from storage.sources.links import web_url
from storage.text.words import count
from tui.web import copy_in_browser, in_browser, open_in_tab

#: A copied text longer than this is cut in the notification that shows it.
SHOWN_CHARS = 400

#: The longest OSC 52 sequence (its base64 payload) terminals are counted on to take: hterm
#: and the usual editor plugins stop at 100,000 bytes, tmux and others at about as much; some
#: (kitty, WezTerm) take more. A longer copy is still sent, with a word that it may be lost.
OSC52_LIMIT = 100_000


def osc52_size(text: str) -> int:
    """The size of ``text`` as OSC 52 carries it: UTF-8, then base64."""
    return (len(text.encode("utf-8")) + 2) // 3 * 4


def shown_copy(text: str) -> str:
    """A copied text as a notification shows it: whole, or its first whole lines within
    ``SHOWN_CHARS`` and how many lines more (a link cut in its middle would be a wrong one)."""
    if len(text) <= SHOWN_CHARS:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    used = 0
    for line in lines:
        if kept and used + len(line) + 1 > SHOWN_CHARS:
            break
        kept.append(line if len(line) <= SHOWN_CHARS else line[:SHOWN_CHARS] + "…")
        used += len(line) + 1
    more = len(lines) - len(kept)
    return "\n".join(kept) + (f"\n… and {count(more, 'line')} more" if more else "")


def copy_paper_links(app: App[object], paper: Paper | None) -> None:
    """Copy the GitHub links of the paper under the cursor."""
    if paper is None:
        return
    if not paper.github:
        app.notify("This paper links no GitHub repository.", severity="warning", markup=False)
        return
    copy_text(app, "\n".join(paper.github), count(len(paper.github), "link"))


def copy_list_links(app: App[object], papers: Sequence[Paper]) -> None:
    """Copy the GitHub links of every paper in the list, one per line."""
    linked = [p for p in papers if p.github]
    if not linked:
        app.notify(
            "No paper in this list links a GitHub repository.", severity="warning", markup=False
        )
        return
    links = [url for p in linked for url in p.github]
    what = f"{count(len(links), 'link')} from {count(len(linked), 'paper')}"
    copy_text(app, "\n".join(links), what)


def copy_text(app: App[object], text: str, what: str, *, instead: str = "") -> None:
    """Copy by OSC 52 (works over SSH and in tmux) and to the system clipboard (in a browser
    tab: to the browser's clipboard only, never the server's). ``instead`` says how to write
    the text to a file, for a text too long to select in the notification."""
    if in_browser(app):
        copy_in_browser(app, text, what)
        return
    app.copy_to_clipboard(text)
    instead = instead or _file_hint(app)

    def to_system() -> None:
        from tui.clipboard import copy_to_system  # pyperclip: only when something is copied

        problem = copy_to_system(text)
        app.call_from_thread(
            app.notify,
            copied_message(text, what, problem, instead),
            title="Copied" if problem is None else "Copy",
            severity="information" if problem is None else "warning",
            timeout=8,
            markup=False,
        )

    app.run_worker(
        to_system, thread=True, group="clipboard", exit_on_error=False, description="copy"
    )


def copied_message(text: str, what: str, problem: str | None, instead: str) -> str:
    """What became of a copy: to the system clipboard, or (``problem``: why not) only sent by
    OSC 52, then shown to select by hand when it fits in the note, else pointed to a file."""
    shown = shown_copy(text)
    too_big = osc52_size(text) > OSC52_LIMIT
    if problem is None:
        also = "" if too_big else " (and the terminal's)"
        return f"Copied {what} to the system clipboard{also}:\n{shown}"
    sent = f"Sent {what} to the terminal's clipboard (OSC 52); {problem}."
    if shown == text:
        return f"{sent} If nothing was copied, select it here:\n{shown}"
    lines = count(len(text.splitlines()), "line")
    if too_big:
        kilobytes = f"{osc52_size(text) / 1000:,.0f} kB"
        return (
            f"{sent} At {kilobytes} the terminal may not take it (many take at most "
            f"{OSC52_LIMIT // 1000} kB), and at {lines} it is too long to select here: {instead}."
        )
    return f"{sent} At {lines} it is too long to select here: {instead}."


def _file_hint(app: App[object]) -> str:
    """How to write the list to a file, with the export key as the user has it."""
    key_of = getattr(app, "key_of", None)
    key = key_of("export") if callable(key_of) else "e"
    return f"to keep it, {key} exports the list to a file"


def open_paper(app: App[object], paper: Paper | None, *, code: bool = False) -> None:
    """Open the paper's page (its code when it has no page, or when ``code``)."""
    if paper is None:
        return
    if code and not paper.github:
        app.notify("This paper links no GitHub repository.", severity="warning", markup=False)
        return
    url = paper.github[0] if code else paper.url or (paper.github[0] if paper.github else "")
    if not url:
        app.notify("This paper has no link.", severity="warning", markup=False)
        return
    if not web_url(url):  # a library imported before links were checked may hold anything
        app.notify(f"Not opened: {url!r} is not a web link.", severity="warning", markup=False)
        return
    open_link(app, web_url(url))


def _shown_link(url: str) -> str:
    """A link as a notification shows it to copy by hand: a local file as its path (a PDF's
    ``file:///…/Title%20(id).pdf`` is ``/…/Title (id).pdf``)."""
    if not url.startswith("file://"):
        return url
    from urllib.parse import unquote, urlsplit

    return unquote(urlsplit(url).path)


def open_link(app: App[object], url: str) -> None:
    """Open ``url`` (a checked web link) in the user's browser: the one the app runs in when
    it runs in a browser tab, else the system's, in a child process kept off the screen."""
    if in_browser(app):
        open_in_tab(app, url)
        return

    def open_it() -> None:
        from tui.browser import open_in_browser

        opening = open_in_browser(url)
        if opening.opened:
            message = f"Opened {url} in the browser" + (
                f" ({opening.detail})" if opening.detail else ""
            )
        else:  # the link on a line of its own, to select and copy (a file as its path)
            message = f"Could not open the browser: {opening.detail}\n{_shown_link(url)}"
        app.call_from_thread(
            app.notify,
            message,
            title="Browser",
            severity="information" if opening.opened else "error",
            timeout=4 if opening.opened else 10,
            markup=False,
        )

    app.run_worker(open_it, thread=True, group="browser", exit_on_error=False, description="open")
