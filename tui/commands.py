"""Every key of the app, defined once: binding, footer, help screen, palette, remapping.

A ``Command`` names its binding id (users remap it in ``config.toml``), its default keys,
the screen it belongs to (``scope``: the main screen or one of the dialogs), the action it
runs there, and the words the footer, the help screen and the command palette show.
``bindings(scope)`` makes a screen's Textual ``Binding``s; ``PaperCommands`` is the palette
provider; the README's key table is ``key_table()`` (a test compares them).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial

from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.keys import key_to_character
from textual.markup import escape

from tui.key_gate import screen_arrived


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
    #: The screen whose binding this is: "main", or a dialog's name (see ``SCOPES``).
    scope: str = "main"
    #: Checked before the focused widget sees the key: for keys that move the focus, so that
    #: the keys typed right after them (a fast typist, a paste) land where the focus went.
    priority: bool = False
    #: A main-screen key that acts while the search box has the focus too: the footer shows
    #: it then, beside the box's own keys (scope "search"), instead of the list's.
    typing: bool = False
    #: The footer's word for it, when shorter than ``title`` ("" for the title).
    brief: str = ""
    #: A dialog's key that is a main-screen command's (the same keys, the same meaning): it
    #: takes that command's remapped keys unless remapped itself (``read = "f"`` reads with
    #: ``f`` in the bulk dialog too, and its button says so).
    follows: str = ""
    #: Keys of Textual's own (not ours to remap) that its help names after its words, each
    #: with what it does ("": the same): named only while no command the user mapped takes
    #: the key on its screen (``help_text``): the search box's Tab, ↓ and ctrl+u.
    own_keys: tuple[tuple[str, str], ...] = ()
    #: Default keys it had before (``config.toml`` files written out then repeat them): such
    #: a setting is read as the default it is now, said nothing about (``tui.config``).
    former: tuple[str, ...] = ()
    #: A dialog's command that closes it: the main-screen command that opens the dialog,
    #: whose keys, as remapped, close it too (a toggle: ``?`` the help, ``m`` the similar
    #: papers), unless the user remapped this command itself (``bound_keys``).
    opener: str = ""

    def binding(self) -> Binding:
        return Binding(
            ",".join(bound_keys(self, {})),
            self.action,
            self.title,
            show=self.footer,
            id=self.id,
            tooltip=help_text(self),
            priority=self.priority,
        )


COMMANDS: tuple[Command, ...] = (
    # Triage
    Command("read", "r", "decide('read')", "Read", "Mark read, go to the next paper", "Triage", footer=True),
    Command("skip", "x", "decide('skipped')", "Skip", "Skip, go to the next paper", "Triage", footer=True),
    Command("star", "s", "decide('starred')", "Star", "Star, go to the next paper", "Triage", footer=True),
    Command("inbox", "i", "decide('inbox')", "Inbox", "Put the paper back in the Inbox", "Triage"),
    Command("undo", "u", "undo", "Undo", "Undo the last decision (many steps, across restarts), or a saved search just deleted, a note or tags just replaced", "Triage", footer=True),
    Command("redo", "ctrl+r", "redo", "Redo", "Redo the last undone decision", "Triage"),
    Command("mark", "space", "toggle_mark", "Mark", "Mark or unmark the paper for a bulk decision", "Triage"),
    Command("mark_all", "ctrl+a", "mark_all", "Mark all", "Mark every paper of the current list (again: clear the marks)", "Triage"),
    Command("marked_view", "M", "toggle_marked_view", "Marked", "Show only the marked papers, to review them before Decide marked (again: the whole list)", "Triage"),
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
    Command("tab_saved_first", "6", "show_saved(1)", "Saved search 1", "Show the first saved search's tab (each saved search is a tab after All)", "Lists", palette=False),
    Command("tab_saved_second", "7", "show_saved(2)", "Saved search 2", "Show the second saved search's tab", "Lists", palette=False),
    Command("tab_saved_third", "8", "show_saved(3)", "Saved search 3", "Show the third saved search's tab", "Lists", palette=False),
    Command("tab_saved_fourth", "9", "show_saved(4)", "Saved search 4", "Show the fourth saved search's tab (later ones: {palette}, Search: NAME)", "Lists", palette=False),
    Command("more_tabs", "0", "more_tabs", "More tabs", "Choose a tab from a list: those the tab bar has no room for (+3 more), else every tab", "Lists"),
    Command("search", "slash", "focus_search", "Search", "Search as you type ({leave_search} leaves, keeps the filter)", "Lists", footer=True, priority=True),
    Command("leave_search", "escape", "leave_search", "Leave search", "Leave the search box (keeps the filter); again clears it", "Lists", palette=False, priority=True, typing=True, brief="Leave"),
    Command("clear_search", "ctrl+l", "clear_search", "Clear search", "Clear the search filter and type the next one", "Lists", typing=True, brief="Clear"),
    Command("save_search", "ctrl+s", "save_search", "Save search", "Save the search typed as a tab, by name (the CLI runs it too: papers search --saved NAME)", "Lists", typing=True, brief="Save"),
    Command("delete_search", "ctrl+w", "delete_search", "Delete saved search", "Delete the saved search whose tab is shown, closing the tab (Undo brings it back)", "Lists"),
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
    Command("open_pdf", "p", "open_pdf", "Open PDF", "Open the paper's PDF: the local copy, else the source's (OpenReview, arXiv)", "Paper", brief="PDF"),
    Command("download_pdfs", "P", "download_pdfs", "Download PDFs", "Download the PDFs of the marked papers, else of the reading queue, in the background (then their text, for pdf:); again: stop", "Paper"),
    # The reading queue (the Starred tab)
    Command("queue_up", "left_square_bracket,ctrl+up", "queue_move('up')", "Queue: up", "Reading queue: move the paper one place up (Starred tab)", "Queue", brief="Move up"),
    Command("queue_down", "right_square_bracket,ctrl+down", "queue_move('down')", "Queue: down", "Reading queue: move the paper one place down", "Queue", brief="Move down"),
    Command("queue_top", "left_curly_bracket,ctrl+home", "queue_move('top')", "Queue: to the top", "Reading queue: move the paper to the head (read next)", "Queue"),
    Command("queue_bottom", "right_curly_bracket,ctrl+end", "queue_move('bottom')", "Queue: to the bottom", "Reading queue: move the paper to the end", "Queue"),
    Command("queue_sort", "Q", "queue_sort", "Sort queue", "Reading queue: sort it once by rating, likeness, venue, length or when starred (one undo step)", "Queue"),
    # The library
    Command("export", "e", "export", "Export", "Export the list shown (or the marked papers): any format, to a file or the clipboard", "Library"),
    Command("import", "a", "import_list", "Import", "Import a paper list, or a folder of them", "Library"),
    Command("remove", "delete", "remove", "Remove", "Remove the paper, or the marked papers, from the library (asks first; Undo brings them back)", "Library"),
    Command("remove_list", "shift+delete", "remove_list", "Remove list…", "Remove one of the imported lists (asks which, then to confirm; Undo brings it back)", "Library"),
    Command("stats", "S", "stats", "Stats", "Progress: decisions per day, pace, per list and venue", "Library"),
    Command("sync", "Y", "sync", "Sync", "Sync with the [sync] folder now (the app also syncs on start, after decisions and on quit)", "Library"),
    Command("help", "question_mark", "help", "Help", "Show every key", "Library", footer=True),
    Command("quit", "q", "quit", "Quit", "Quit (every decision is already saved)", "Library", footer=True),
    Command("force_quit", "ctrl+q", "quit", "Quit", "Quit from any screen", "Library", palette=False, scope="app", priority=True),
    Command("palette", "ctrl+p", "command_palette", "Command palette", "Command palette: every action by name", "Library", palette=False, scope="app", priority=True, brief="palette"),
    # The paper pane: keys from the list, and keys while it has the focus
    Command("pane_down", "J", "pane_scroll(3)", "Scroll paper", "Scroll the paper down a few lines", "Paper", palette=False),
    Command("pane_up", "K", "pane_scroll(-3)", "Scroll paper up", "Scroll the paper up a few lines", "Paper", palette=False),
    Command("pane_page_down", "ctrl+f", "pane_page(1)", "Paper page down", "Scroll the paper down a page", "Paper", palette=False),
    Command("pane_page_up", "ctrl+b", "pane_page(-1)", "Paper page up", "Scroll the paper up a page", "Paper", palette=False),
    Command("focus_pane", "l,right", "focus_pane", "Read the paper", "Move into the paper (then {line_down}/{line_up}/{page_down} scroll it; {leave_pane} or {leave_search} go back)", "Paper"),
    Command("zoom", "z", "zoom", "Zoom", "Show the paper full screen, or the list and the paper again", "Paper"),
    Command("split_narrower", "less_than_sign", "split(-5)", "Narrower list", "Give the paper more room (remembered)", "Paper"),
    Command("split_wider", "greater_than_sign", "split(5)", "Wider list", "Give the list more room (remembered)", "Paper"),
    Command("line_down", "j,down", "scroll_lines(1)", "Down", "Paper pane: a line down", "Paper pane", palette=False, scope="pane"),
    Command("line_up", "k,up", "scroll_lines(-1)", "Up", "Paper pane: a line up", "Paper pane", palette=False, scope="pane"),
    Command("page_down", "space,pagedown,ctrl+f,ctrl+d", "scroll_page(1)", "Page down", "Paper pane: a page down", "Paper pane", palette=False, scope="pane"),
    Command("page_up", "shift+space,pageup,ctrl+b,ctrl+u", "scroll_page(-1)", "Page up", "Paper pane: a page up", "Paper pane", palette=False, scope="pane"),
    Command("paper_top", "g,home", "scroll_top", "Top", "Paper pane: the title", "Paper pane", palette=False, scope="pane"),
    Command("paper_end", "G,end", "scroll_bottom", "End", "Paper pane: the end of the abstract", "Paper pane", palette=False, scope="pane"),
    Command("leave_pane", "h,left", "leave", "Back to the list", "Paper pane: back to the list", "Paper pane", palette=False, scope="pane"),
    # The search box: its own keys while it has the focus (esc, ctrl+l, ctrl+s act there too)
    Command("search_results", "enter", "submit", "Results", "Search box: go to the results, keeping the filter", "Search box", palette=False, scope="search", own_keys=(("tab", ""), ("down", ""))),
    Command("search_word_back", "alt+b", "cursor_left_word", "Word back", "Search box: back to a word's start", "Search box", palette=False, scope="search"),
    Command("search_word_forward", "alt+f", "cursor_word_end", "Word forward", "Search box: on to a word's end", "Search box", palette=False, scope="search"),
    Command("search_delete_to_space", "ctrl+w", "delete_to_space", "Delete word", "Search box: delete back to a space", "Search box", palette=False, scope="search", own_keys=(("ctrl+u", "everything before it"),)),
    Command("search_delete_word", "alt+backspace", "delete_left_word", "Delete word back", "Search box: delete the word before the cursor", "Search box", palette=False, scope="search", former=("ctrl+w", "ctrl+w,alt+backspace")),
    Command("search_delete_next_word", "alt+d", "delete_word_end", "Delete to word end", "Search box: delete to a word's end", "Search box", palette=False, scope="search"),
    # Dialogs: keys of the screens that open over the main one
    Command("path_complete", "tab", "complete", "Complete", "A path field: complete the file or folder name", "Dialogs", palette=False, scope="path"),
    Command("export_markdown", "m", "choose_format('markdown')", "Markdown", "Export: Markdown", "Dialogs", palette=False, scope="export"),
    Command("export_csv", "c", "choose_format('csv')", "CSV", "Export: CSV", "Dialogs", palette=False, scope="export"),
    Command("export_json", "j", "choose_format('json')", "JSON", "Export: JSON", "Dialogs", palette=False, scope="export"),
    Command("export_bibtex", "b", "choose_format('bibtex')", "BibTeX", "Export: BibTeX", "Dialogs", palette=False, scope="export"),
    Command("export_csl_json", "l", "choose_format('csl-json')", "CSL-JSON", "Export: CSL-JSON", "Dialogs", palette=False, scope="export"),
    Command("export_ris", "r", "choose_format('ris')", "RIS", "Export: RIS", "Dialogs", palette=False, scope="export"),
    Command("export_next_format", "right", "step_format(1)", "Next format", "Export: the next format (in the path field: the cursor)", "Dialogs", palette=False, scope="export"),
    Command("export_previous_format", "left", "step_format(-1)", "Previous format", "Export: the previous format", "Dialogs", palette=False, scope="export"),
    Command("export_field", "down,up", "other_field", "Other field", "Export: between the format and the file's path", "Dialogs", palette=False, scope="export", own_keys=(("tab", ""),)),
    Command("export_write", "enter", "write", "Write", "Export: write the file, from anywhere in the dialog", "Dialogs", palette=False, scope="export", priority=True),
    Command("export_copy", "ctrl+y", "copy", "Copy", "Export: copy to the clipboard instead of writing a file", "Dialogs", palette=False, scope="export"),
    Command("export_cancel", "escape", "cancel", "Cancel", "Export: close without exporting", "Dialogs", palette=False, scope="export"),
    Command("prompt_accept", "enter", "accept", "Accept", "Prompt (tags, a search's name): accept what the field holds", "Dialogs", palette=False, scope="prompt", priority=True),
    Command("prompt_cancel", "escape", "cancel", "Cancel", "Prompt (export, tags): close it without doing anything", "Dialogs", palette=False, scope="prompt"),
    Command("note_save", "ctrl+s", "save", "Save", "Note editor: save the note", "Dialogs", palette=False, scope="note"),
    Command("note_cancel", "escape", "cancel", "Cancel", "Note editor: close without saving (a second {note_cancel} when typed in)", "Dialogs", palette=False, scope="note"),
    Command("bulk_read", "r", "choose('read')", "Read", "Bulk decision: mark every marked paper read", "Dialogs", palette=False, scope="bulk", follows="read"),
    Command("bulk_skip", "x", "choose('skipped')", "Skip", "Bulk decision: skip every marked paper", "Dialogs", palette=False, scope="bulk", follows="skip"),
    Command("bulk_star", "s", "choose('starred')", "Star", "Bulk decision: star every marked paper", "Dialogs", palette=False, scope="bulk", follows="star"),
    Command("bulk_inbox", "i", "choose('inbox')", "Inbox", "Bulk decision: put every marked paper back in the Inbox", "Dialogs", palette=False, scope="bulk", follows="inbox"),
    Command("bulk_cancel", "escape,q", "cancel", "Cancel", "Bulk decision: decide nothing", "Dialogs", palette=False, scope="bulk", former=("escape",)),
    Command("remove_yes", "y", "confirm", "Remove", "Remove: take the papers out (Undo brings them back)", "Dialogs", palette=False, scope="remove"),
    Command("remove_no", "n,escape,q", "cancel", "Cancel", "Remove: keep everything", "Dialogs", palette=False, scope="remove", former=("n,escape",)),
    Command("lists_cancel", "escape,q", "cancel", "Cancel", "Remove list: close without choosing a list", "Dialogs", palette=False, scope="lists"),
    Command("lists_choose", "enter", "choose", "Remove", "Remove list: take out the highlighted list (asks first)", "Dialogs", palette=False, scope="lists"),
    Command("import_start", "enter", "start", "Import", "Import dialog: import the list (or fetch it), from either field; a folder at a second {import_start}", "Dialogs", palette=False, scope="import", priority=True),
    Command("import_field", "down,up", "other_field", "Other field", "Import dialog: between the list's path and the catalog's", "Dialogs", palette=False, scope="import"),
    Command("import_cancel", "escape", "cancel", "Cancel", "Import dialog: close it; while it fetches, stop the fetch (an import under way goes on)", "Dialogs", palette=False, scope="import"),
    Command("help_close", "escape,q", "close", "Close", "Help: close it", "Dialogs", palette=False, scope="help", opener="help", former=("escape,q,question_mark",)),
    Command("help_down", "j,down", "scroll(1)", "Down", "Help: a line down", "Dialogs", palette=False, scope="help", follows="down"),
    Command("help_up", "k,up", "scroll(-1)", "Up", "Help: a line up", "Dialogs", palette=False, scope="help", follows="up"),
    Command("help_page_down", "space,pagedown,ctrl+d", "scroll_page(1)", "Page down", "Help: a page down", "Dialogs", palette=False, scope="help"),
    Command("help_page_up", "shift+space,pageup,ctrl+u", "scroll_page(-1)", "Page up", "Help: a page up", "Dialogs", palette=False, scope="help"),
    Command("help_top", "g,home", "scroll_edge(0)", "Top", "Help: the top", "Dialogs", palette=False, scope="help", follows="first"),
    Command("help_end", "G,end", "scroll_edge(1)", "End", "Help: the end", "Dialogs", palette=False, scope="help", follows="last"),
    Command("stats_close", "escape,q", "close", "Close", "Statistics: close them", "Dialogs", palette=False, scope="stats", opener="stats", former=("escape,q,S",)),
    Command("similar_close", "escape,q", "cancel", "Close", "Similar papers: close them", "Dialogs", palette=False, scope="similar", opener="similar", former=("escape,q,m",)),
    Command("similar_go", "enter", "choose", "Go to it", "Similar papers: go to the highlighted paper", "Dialogs", palette=False, scope="similar"),
    Command("topics_close", "escape,q", "cancel", "Close", "Topics: close them", "Dialogs", palette=False, scope="topics"),
    Command("topics_mark", "enter", "choose", "Mark topic", "Topics: mark the highlighted topic's papers", "Dialogs", palette=False, scope="topics"),
    Command("topics_decide", "D", "decide", "Decide topic", "Topics: decide every paper of the highlighted topic at once", "Dialogs", palette=False, scope="topics"),
    Command("similar_down", "j", "move(1)", "Down", "Similar papers: the next one", "Dialogs", palette=False, scope="similar", follows="down"),
    Command("similar_up", "k", "move(-1)", "Up", "Similar papers: the one before", "Dialogs", palette=False, scope="similar", follows="up"),
    Command("topics_down", "j", "move(1)", "Down", "Topics: the next one", "Dialogs", palette=False, scope="topics", follows="down"),
    Command("topics_up", "k", "move(-1)", "Up", "Topics: the one before", "Dialogs", palette=False, scope="topics", follows="up"),
    Command("queue_sort_down", "j,down", "move(1)", "Next", "Sort the queue: the next sort", "Dialogs", palette=False, scope="queue_sort", follows="down"),
    Command("queue_sort_up", "k,up", "move(-1)", "Previous", "Sort the queue: the sort before", "Dialogs", palette=False, scope="queue_sort", follows="up"),
    Command("queue_sort_choose", "enter", "choose", "Sort", "Sort the queue: by the highlighted sort (one undo step)", "Dialogs", palette=False, scope="queue_sort", priority=True),
    Command("queue_sort_cancel", "escape,q", "cancel", "Close", "Sort the queue: close without sorting", "Dialogs", palette=False, scope="queue_sort"),
    Command("tabs_down", "j,down", "move(1)", "Next", "More tabs (a click on +2 more): the next tab", "Dialogs", palette=False, scope="tabs", follows="down"),
    Command("tabs_up", "k,up", "move(-1)", "Previous", "More tabs: the tab before", "Dialogs", palette=False, scope="tabs", follows="up"),
    Command("tabs_choose", "enter", "choose", "Show", "More tabs: show the highlighted tab", "Dialogs", palette=False, scope="tabs", priority=True),
    Command("tabs_cancel", "escape,q", "cancel", "Close", "More tabs: close without changing tabs", "Dialogs", palette=False, scope="tabs"),
    Command("palette_close", "escape", "close", "Close", "Command palette: close it (a command chosen with Enter before it still runs)", "Dialogs", palette=False, scope="palette"),
)  # fmt: skip

BY_ID: Mapping[str, Command] = {c.id: c for c in COMMANDS}


#: The screens that have keys: the main one, the app (every screen), and the dialogs.
SCOPES = (
    "main",
    "app",
    "pane",
    "search",
    "path",
    "export",
    "prompt",
    "note",
    "bulk",
    "remove",
    "lists",
    "import",
    "help",
    "stats",
    "similar",
    "topics",
    "queue_sort",
    "tabs",
    "palette",
)


def bindings(scope: str = "main") -> list[BindingType]:
    """The key bindings of one screen (``scope``), one per command."""
    return [c.binding() for c in COMMANDS if c.scope == scope]


def keys_for(command: Command, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``command`` now (after the user's remapping)."""
    return [k.strip() for k in keymap.get(command.id, command.keys).split(",") if k.strip()]


def bound_keys(command: Command, keymap: Mapping[str, str]) -> list[str]:
    """The keys ``command`` is bound to now: its own (``keys_for``), then, for a dialog's
    closing command, its opener's as remapped (``Command.opener``: with ``similar = "w"``,
    w closes the similar papers, m no longer), each once. Not where the user remapped the
    closing command itself (``similar_close = "escape"``: Esc alone closes), nor an opener's
    key that another command of the dialog has (``similar = "enter"``: Enter still
    goes to the paper there; Textual would keep one binding of the two)."""
    keys = keys_for(command, keymap)
    if command.opener and command.id not in keymap:
        taken = {k for c in on_screen(command.scope) if c != command for k in keys_for(c, keymap)}
        keys += [k for k in keys_for(BY_ID[command.opener], keymap) if k not in taken]
    return list(dict.fromkeys(keys))


def keys_first(scope: str, keymap: Mapping[str, str]) -> dict[str, Command]:
    """Every key the dialog ``scope`` takes before its focused widget
    (``tui.screens.keys_first``), each with the command it runs: those that close it
    (``closing_keys``: its closing commands' own and their openers'), then those set in
    ``config.toml`` for its other commands. A list's, a scroll's or a button's own key took
    them first, and the dialog did not do what its footer said: an opener's (Home, End,
    PageUp: free on the main screen once remapped there) and a closing command's own as set
    (``similar_close = "escape,down"``: ↓ went to the next paper) stayed in the dialog;
    ``similar_go = "home"`` went to the first paper, not to the paper; ``bulk_skip =
    "enter"`` pressed the focused button, Read. A command's default keys are left to the
    widget where it binds them too (↓ moves either way)."""
    found: dict[str, Command] = {}
    for command in COMMANDS:
        if command.scope == scope and closes(command):
            for key in bound_keys(command, keymap):
                found.setdefault(key, command)
    for command in COMMANDS:
        if command.scope == scope and command.id in keymap:
            for key in keys_for(command, keymap):
                found.setdefault(key, command)
    return found


def textual_keymap(keymap: Mapping[str, str]) -> dict[str, str]:
    """The user's remapping as Textual's ``App.set_keymap`` takes it: ``keymap``, and the keys
    of each dialog's closing command whose opener moved (``bound_keys``), for the binding's
    default names the opener's default key."""
    bound = dict(keymap)
    for command in COMMANDS:
        if command.opener and command.opener in keymap and command.id not in keymap:
            bound[command.id] = ",".join(bound_keys(command, keymap))
    return bound


#: The actions of a dialog's commands that close it (Esc, and any other key that does).
_CLOSING = ("close", "cancel")


def closes(command: Command) -> bool:
    """Whether ``command`` closes its dialog: the footer and the dialog's words name every
    key that does (``closing_keys``), not the first alone."""
    return command.group == "Dialogs" and command.action in _CLOSING


def closing_keys(scope: str, keymap: Mapping[str, str]) -> list[str]:
    """Every key that closes the dialog ``scope`` now, after the user's remapping, each
    once: its closing commands' (``esc``, ``q``…), with their openers' (``bound_keys``)."""
    keys: list[str] = []
    for command in COMMANDS:
        if command.scope == scope and closes(command):
            keys += bound_keys(command, keymap)
    return list(dict.fromkeys(keys))


def closing_words(
    scope: str, keymap: Mapping[str, str], *, web: bool = False, verb: str = "close"
) -> str:
    """``Esc, q, S close`` (``Esc closes``; ``verb``: ``Esc, ctrl+g cancel``): the keys that
    close the dialog ``scope`` as a sentence names them, from its bindings as remapped (each
    dialog named Esc alone, though q closes most of them too)."""
    shown = _closing_key_words(scope, keymap, web=web)
    return f"{', '.join(shown)} {verb}{'s' if len(shown) == 1 else ''}"


def closing_named(
    scope: str, keymap: Mapping[str, str], *, web: bool = False, last: str = ", "
) -> str:
    """``Esc``, ``Esc, ctrl+g``: every key that closes the dialog ``scope`` (``closing_keys``)
    as a sentence names them, the last after ``last`` (`` or ``: "Esc, ctrl+g or q again
    throws it away"; it said "Esc or ctrl+g or q"): a dialog's words named its first alone,
    where its footer names them all."""
    *before, final = _closing_key_words(scope, keymap, web=web) or [""]
    return f"{', '.join(before)}{last}{final}" if before else final


def _closing_key_words(scope: str, keymap: Mapping[str, str], *, web: bool) -> list[str]:
    return list(dict.fromkeys(key_word(key, web=web) for key in closing_keys(scope, keymap)))


_KEY_NAMES = {
    "escape": "esc",
    "enter": "Enter",
    "right": "→",
    "left": "←",
    "space": "space",
    "slash": "/",
    "pagedown": "PgDn",
    "pageup": "PgUp",
    "down": "↓",
    "up": "↑",
}


#: Keys a browser keeps for itself whatever the page does (ctrl+w closes the tab in Chrome and
#: Firefox), shown in a browser tab (``papers serve``) as a key that reaches the app as the
#: same key: xterm.js sends alt+backspace as ESC DEL, which Textual reads as ctrl+w.
_BROWSER_KEYS = {"ctrl+w": "alt+backspace"}


def key_label(key: str, *, web: bool = False) -> str:
    """A key as people write it: ``question_mark`` → ``?``, ``exclamation_mark`` → ``!``,
    ``ctrl+r`` → ``ctrl+r``; with
    ``web`` (the app in a browser tab), the key to press there for one the browser keeps."""
    if web and key in _BROWSER_KEYS:
        return _BROWSER_KEYS[key]
    if key in _KEY_NAMES:
        return _KEY_NAMES[key]
    character = key_to_character(key)  # a key named for its character (a remapped one too)
    return character if character and character.isprintable() else key


#: Keys as a sentence or a button names them, where the key column writes them lower case.
_IN_WORDS = {"esc": "Esc", "tab": "Tab"}


def key_named(command_id: str, keymap: Mapping[str, str], *, web: bool = False) -> str:
    """The first key of a command as a dialog's words name it, after the user's remapping:
    ``ctrl+s``, ``Enter``, ``Esc``, ``Tab`` (``MainBase.key_shown`` names the main screen's)."""
    key = key_label(keys_for(BY_ID[command_id], keymap)[0], web=web)
    return _IN_WORDS.get(key, key)


#: A command's help names another command's key (or its own) as ``{id}``: filled in by
#: ``help_text`` as the key is now, so that no help says a default key the user remapped.
_NAMED_KEY = re.compile(r"\{([a-z_]+)\}")


def help_text(
    command: Command, keymap: Mapping[str, str] | None = None, *, web: bool = False
) -> str:
    """``command``'s help with the keys it names (``{leave_search}``) as ``key_named`` names
    them after the user's remapping (``keymap``; None: the default keys, as in the README),
    then Textual's own keys that do it too, while free (``Command.own_keys``)."""
    keys = keymap or {}
    words = _NAMED_KEY.sub(lambda found: key_named(found.group(1), keys, web=web), command.help)
    free = [(key, did) for key, did in command.own_keys if own_key_free(key, command.scope, keys)]
    too = " and ".join(key_word(key) for key, did in free if not did)
    said = [f"{too} too"] if too else []
    said += [f"{key_word(key)}: {did}" for key, did in free if did]
    return f"{words} ({'; '.join(said)})" if said else words


def on_screen(scope: str) -> list[Command]:
    """The commands whose keys act on the screen ``scope``: its own, the app's, and in the
    search box the main screen's that act while typing (Esc…)."""
    return [c for c in COMMANDS if c.scope in (scope, "app") or (scope == "search" and c.typing)]


def keys_shown(command: Command, keymap: Mapping[str, str], *, web: bool = False) -> list[str]:
    """``command``'s keys as the help names them (``key_label``), each once, a dialog's
    closing command's with its opener's (``bound_keys``); in a browser
    without a key the browser keeps whose stand-in is another command's on its screen: the
    search box's ctrl+w (back to a space) has none there, its alt+backspace being the box's
    Alt+Backspace (the word alone)."""
    keys = bound_keys(command, keymap)
    if web:
        others = {k for c in on_screen(command.scope) if c != command for k in keys_for(c, keymap)}
        keys = [k for k in keys if _BROWSER_KEYS.get(k) not in others]
    return list(dict.fromkeys(key_label(key, web=web) for key in keys))


def own_key_free(key: str, scope: str, keymap: Mapping[str, str]) -> bool:
    """Whether Textual's own ``key`` (Tab moves the focus, a field's ctrl+u) still does its
    own on the screen ``scope``: no command there takes it after the user's remapping
    (``export_next_format = "tab"`` makes Tab choose the next format in the export dialog)."""
    return all(key not in keys_for(c, keymap) for c in on_screen(scope))


def key_word(key: str, *, web: bool = False) -> str:
    """A key as a sentence names it: ``Tab``, ``Esc``, ``?``, ``ctrl+u``."""
    label = key_label(key, web=web)
    return _IN_WORDS.get(label, label)


def button_label(
    command_id: str, keymap: Mapping[str, str], *, web: bool = False, title: str = ""
) -> str:
    """A dialog button's word (``title``, else its command's) and the keys that press it now,
    after the user's remapping: ``Read (r)``, ``Cancel (n, Esc)``."""
    command = BY_ID[command_id]
    keys = [key_label(key, web=web) for key in keys_for(command, keymap)]
    shown = ", ".join(_IN_WORDS.get(key, key) for key in keys)
    return f"{title or command.title} ({shown})" if shown else title or command.title


def grouped(commands: Iterable[Command] = COMMANDS) -> dict[str, list[Command]]:
    """Commands by help-screen group, in definition order."""
    groups: dict[str, list[Command]] = {}
    for command in commands:
        groups.setdefault(command.group, []).append(command)
    return groups


def key_table() -> str:
    """The README's key table (Markdown): every command, its default keys and its id."""
    lines = ["| keys | what it does | id |", "| --- | --- | --- |"]
    for group, commands in grouped().items():
        lines.append(f"| **{group}** | | |")
        for command in commands:
            keys = " ".join(f"`{key_label(k)}`" for k in bound_keys(command, {}))
            lines.append(f"| {keys} | {help_text(command)} | `{command.id}` |")
    return "\n".join(lines) + "\n"


def palette_title(command: Command) -> str:
    """A command's title in the palette, after its group (``Paper: Copy link``), unless the
    title names the group already (``Queue: up``, not ``Queue: Queue: up``)."""
    if command.title.casefold().startswith(command.group.casefold()):
        return command.title
    return f"{command.group}: {command.title}"


#: Who holds the keys after Enter in the palette until its command has run (``expect_screen``).
PALETTE = "palette"


class PaperCommands(Provider):
    """The command palette: the commands of the screen it opened on, in the order of the
    table (with their keys), its saved searches (show one, delete one), then the app's own
    few (theme, screenshot)."""

    def _entries(self) -> Iterable[tuple[str, str, Callable[[], object]]]:
        keymap: Mapping[str, str] = getattr(self.app, "keymap", {})
        web = self.app.is_web
        screen = self.screen
        for command in COMMANDS:
            name = command.action.split("(")[0]
            if command.palette and hasattr(screen, f"action_{name}"):
                keys = " ".join(key_label(k, web=web) for k in keys_for(command, keymap))
                yield (
                    palette_title(command),
                    escape(f"{help_text(command, keymap, web=web)} · {keys}"),
                    partial(screen.run_action, command.action),
                )
        for title, words, run in getattr(screen, "palette_searches", list)():
            yield escape(title), escape(words), run  # names and queries are the user's
        for title, words, run in getattr(self.app, "palette_extras", list)():
            yield f"App: {title}", escape(words), run

    def _then_keys(self, run: Callable[[], object]) -> Callable[[], object]:
        """``run``, then the keys typed after the Enter that chose it go on (the palette
        holds them: ``tui.screens.palette``), unless it expects a screen of its own."""

        async def running() -> None:
            try:
                done = run()
                if inspect.isawaitable(done):
                    await done
            finally:
                screen_arrived(self.app, by=PALETTE)

        return running

    async def discover(self) -> Hits:
        for text, words, run in self._entries():
            yield DiscoveryHit(text, self._then_keys(run), help=words)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, words, run in self._entries():
            score = max(matcher.match(text), matcher.match(words) * 0.8)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(text), self._then_keys(run), text=text, help=words
                )
