"""Every action of the main screen, defined once: key binding, footer, help screen, palette.

A ``Command`` names its binding id (users remap it in ``config.toml``), its default keys,
the screen action it runs, and the words the footer, the help screen and the command palette
show. ``bindings()`` makes the Textual ``Binding``s; ``PaperCommands`` is the palette provider.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial

from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape


@dataclass(frozen=True, slots=True)
class Command:
    """One action: its id, default keys, the screen action it runs, and how it is described."""

    id: str
    keys: str
    action: str
    title: str
    help: str
    group: str
    footer: bool = False
    palette: bool = True
    #: Checked before the focused widget sees the key: for keys that move the focus, so that
    #: the keys typed right after them (a fast typist, a paste) land where the focus went.
    priority: bool = False

    def binding(self) -> Binding:
        return Binding(
            self.keys,
            self.action,
            self.title,
            show=self.footer,
            id=self.id,
            tooltip=self.help,
            priority=self.priority,
        )


COMMANDS: tuple[Command, ...] = (
    # Triage
    Command("read", "r", "decide('read')", "Read", "Mark read, go to the next paper", "Triage", footer=True),
    Command("skip", "x", "decide('skipped')", "Skip", "Skip, go to the next paper", "Triage", footer=True),
    Command("star", "s", "decide('starred')", "Star", "Star, go to the next paper", "Triage", footer=True),
    Command("inbox", "i", "decide('inbox')", "Inbox", "Put the paper back in the Inbox", "Triage"),
    Command("undo", "u", "undo", "Undo", "Undo the last decision (many steps, across restarts)", "Triage", footer=True),
    Command("redo", "ctrl+r", "redo", "Redo", "Redo the last undone decision", "Triage"),
    Command("mark", "space", "toggle_mark", "Mark", "Mark or unmark the paper for a bulk decision", "Triage"),
    Command("mark_all", "ctrl+a", "mark_all", "Mark all", "Mark every paper of the current list", "Triage"),
    Command("decide_marked", "D", "decide_marked", "Decide marked", "Read, skip or star every marked paper at once (one undo step)", "Triage"),
    # Moving
    Command("down", "j,down", "cursor_down", "Next", "Next paper", "Move", palette=False),
    Command("up", "k,up", "cursor_up", "Previous", "Previous paper", "Move", palette=False),
    Command("first", "g,home", "cursor_first", "First", "First paper", "Move"),
    Command("last", "G,end", "cursor_last", "Last", "Last paper", "Move"),
    Command("half_down", "ctrl+d,pagedown", "half_page_down", "Half page down", "Half a page down", "Move", palette=False),
    Command("half_up", "ctrl+u,pageup", "half_page_up", "Half page up", "Half a page up", "Move", palette=False),
    # Views
    Command("tab_inbox", "1", "show_tab('inbox')", "Inbox", "Show the Inbox (papers not yet triaged)", "Lists"),
    Command("tab_starred", "2", "show_tab('starred')", "Starred", "Show the starred papers", "Lists"),
    Command("tab_read", "3", "show_tab('read')", "Read", "Show the papers marked read", "Lists"),
    Command("tab_skipped", "4", "show_tab('skipped')", "Skipped", "Show the skipped papers", "Lists"),
    Command("tab_all", "5", "show_tab('all')", "All", "Show every paper", "Lists"),
    Command("search", "slash", "focus_search", "Search", "Search as you type (esc leaves, keeps the filter)", "Lists", footer=True, priority=True),
    Command("leave_search", "escape", "leave_search", "Leave search", "Leave the search box (keeps the filter); again clears it", "Lists", palette=False, priority=True),
    Command("clear_search", "ctrl+l", "clear_search", "Clear search", "Clear the search filter", "Lists"),
    Command("suggested", "ctrl+o", "toggle_order", "Suggested order", "Sort the Inbox by likeness to your starred papers, or back to list order", "Lists"),
    Command("similar", "m", "similar", "Similar", "Papers most like this one", "Lists"),
    Command("topics", "T", "topics", "Topics", "Group the Inbox into topic clusters; mark one to decide it at once", "Lists"),
    # The paper
    Command("copy", "c,y", "copy_links", "Copy link", "Copy the paper's GitHub link(s)", "Paper", footer=True),
    Command("copy_all", "C", "copy_all_links", "Copy all links", "Copy the GitHub links of every paper in the list", "Paper"),
    Command("open", "o", "open_link", "Open", "Open the paper's page (or its code) in the browser", "Paper"),
    Command("open_code", "O", "open_code", "Open code", "Open the paper's GitHub repository in the browser", "Paper"),
    Command("note", "n", "edit_note", "Note", "Write a note on the paper", "Paper"),
    Command("tag", "t", "edit_tags", "Tags", "Tag the paper (search them with tag:NAME)", "Paper"),
    # The library
    Command("export", "e", "export", "Export", "Export the current list to Markdown", "Library"),
    Command("import", "a", "import_list", "Import", "Import a paper list (text, JSON, JSONL, CSV, or a folder)", "Library"),
    Command("stats", "S", "stats", "Stats", "Progress: decisions per day, pace, per list and venue", "Library"),
    Command("help", "question_mark", "help", "Help", "Show every key", "Library", footer=True),
    Command("quit", "q", "quit", "Quit", "Quit (every decision is already saved)", "Library", footer=True),
)  # fmt: skip

BY_ID: Mapping[str, Command] = {c.id: c for c in COMMANDS}


def bindings() -> list[BindingType]:
    """The main screen's key bindings, one per command."""
    return [c.binding() for c in COMMANDS]


def keys_for(command: Command, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``command`` now (after the user's remapping)."""
    return [k.strip() for k in keymap.get(command.id, command.keys).split(",") if k.strip()]


_KEY_NAMES = {
    "question_mark": "?",
    "escape": "esc",
    "slash": "/",
    "space": "space",
    "pagedown": "PgDn",
    "pageup": "PgUp",
    "down": "↓",
    "up": "↑",
}


def key_label(key: str) -> str:
    """A key as people write it: ``question_mark`` → ``?``, ``ctrl+r`` → ``ctrl+r``."""
    return _KEY_NAMES.get(key, key)


def grouped(commands: Iterable[Command] = COMMANDS) -> dict[str, list[Command]]:
    """Commands by help-screen group, in definition order."""
    groups: dict[str, list[Command]] = {}
    for command in commands:
        groups.setdefault(command.group, []).append(command)
    return groups


class PaperCommands(Provider):
    """The command palette's entries: every command of the main screen, with its key."""

    def _entries(self) -> Iterable[tuple[str, str, Command]]:
        keymap: Mapping[str, str] = getattr(self.app, "keymap", {})
        for command in COMMANDS:
            if command.palette:
                keys = " ".join(key_label(k) for k in keys_for(command, keymap))
                yield (
                    f"{command.group}: {command.title}",
                    escape(f"{command.help} · {keys}"),
                    command,
                )

    async def discover(self) -> Hits:
        for text, help_text, command in self._entries():
            yield DiscoveryHit(
                text, partial(self.screen.run_action, command.action), help=help_text
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, command in self._entries():
            score = max(matcher.match(text), matcher.match(command.help) * 0.8)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(text),
                    partial(self.screen.run_action, command.action),
                    text=text,
                    help=help_text,
                )
