"""The footer: the core keys, from the same command definitions as the bindings.

Textual's ``Footer`` rebuilds itself whenever the focus moves (the active bindings change),
which costs a frame's worth of work each time the search box is left; these keys do not
change with the focus, so one line of text is drawn once and again only on resize, or when a
dialog opens over the screen: then it shows that dialog's keys (``show_keys_of``), the keys
that work, until the dialog closes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from textual.binding import Binding
from textual.markup import escape
from textual.widgets import Input, Static

from tui.commands import BY_ID, COMMANDS, Command, closes, closing_keys, key_label, keys_for
from tui.keys import typed_in_field

#: The main footer's entries kept longest as the terminal narrows, the first the longest: the
#: decisions, help (which shows the rest), undo, quit. A dialog's: those on these keys (a way
#: out first, then its Enter, then its ctrl+ commands). The search box's: its own and those
#: that act while typing, from the left.
ESSENTIAL = ("read", "skip", "star", "help", "undo", "quit")
#: The Starred tab's footer (the reading queue, ``scope`` "queue"): its moves and the PDF in
#: the place of Star and Copy link, which do little there; kept longest, the first longest.
QUEUE_FOOTER = (
    "read",
    "skip",
    "undo",
    "queue_up",
    "queue_down",
    "open_pdf",
    "search",
    "help",
    "quit",
)
QUEUE_ESSENTIAL = ("read", "open_pdf", "queue_up", "queue_down", "help", "undo", "skip", "quit")
_ESSENTIAL_KEYS = ("escape", "enter", "ctrl+")
#: The search box's keys the footer leaves to the help: its readline word keys but ctrl+w.
_NOT_IN_FOOTER = frozenset(
    {"search_word_back", "search_word_forward", "search_delete_next_word", "search_delete_word"}
)
#: The scopes whose footer ends with the palette's entry (``^p``, or its key as remapped).
_WITH_PALETTE = ("main", "queue", "search")
#: The command palette's keys of Textual's (its bindings, and Enter in its field), shown while
#: it is open, before its Esc, which is ours (``palette_close``: remapped, named so).
PALETTE_KEYS = (("↑↓", "choose"), ("Enter", "run"))
#: The keys a text field has a use for itself (``ctrl+u``, ``home``, ``enter``…).
_FIELD_KEYS = frozenset(
    key.strip()
    for binding in Input.BINDINGS
    for key in (binding.key if isinstance(binding, Binding) else binding[0]).split(",")
)


class KeyBar(Static):
    """One line: the core keys and what they do; a click runs the command."""

    DEFAULT_CSS = """
    KeyBar {
        height: 1;
        background: $panel;
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        link-style: none;
        link-style-hover: bold;
        link-color-hover: $text;
        link-background-hover: $boost;
    }
    """

    def __init__(self, keymap: Mapping[str, str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keymap = keymap
        #: Whose keys it shows: "main" (the screen's), or the scope of a dialog open over it
        #: (``tui.commands.SCOPES``; "" for a screen without keys of its own).
        self.scope = "main"

    #: The width the line was drawn for.
    _drawn_for: int | None = None

    def show_keys_of(self, scope: str) -> None:
        """Show the keys of ``scope`` (a dialog's, or "main" again)."""
        if scope != self.scope:
            self.scope, self._drawn_for = scope, None
            self._draw()

    def on_mount(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width = self.size.width or 80
        if width == self._drawn_for:
            return
        self._drawn_for = width
        self.update(self.line(width), layout=False)

    @property
    def in_browser(self) -> bool:
        """Whether the app runs in a browser tab (``papers serve``): a key the browser keeps
        is shown as the one that reaches the app there (``key_label``). (False for a bar of
        no app: the footer's lines are worked out apart in tests.)"""
        return self.is_attached and self.app.is_web

    def entries(self) -> list[tuple[str, str, str, str]]:
        """(id, action, key, title) of each footer command, then the palette's; a dialog's
        commands, with no action (a click there reaches the dialog, not the footer); while
        the search box has the focus (scope "search"), its own keys and the screen's that
        act there too (``Command.typing``); under the command palette, its keys."""
        palette = ("palette", "app.command_palette", self._palette_key(), BY_ID["palette"].brief)
        if self.scope == "palette":
            textual = [("", "", key, title) for key, title in PALETTE_KEYS]
            keys = keys_for(BY_ID["palette_close"], self.keymap)
            if not keys:
                return textual
            return [
                *textual,
                ("palette_close", "", self._dialog_keys("palette_close", keys), "close"),
            ]
        if self.scope == "search":  # Enter and Esc first: where the typing leads
            typing = [
                (c.id, "" if c.scope == "search" else f"screen.{c.action}",
                 key_label(keys[0], web=self.in_browser), c.brief or c.title)
                for c in COMMANDS
                if (c.scope == "search" or c.typing) and c.id not in _NOT_IN_FOOTER
                and (keys := self._acting_in_box(c))
            ]  # fmt: skip
            typing.sort(key=lambda entry: {"Enter": 0, "esc": 1}.get(entry[2], 2))
            return [*typing, palette]
        if self.scope not in ("main", "queue"):
            return [
                (c.id, "", self._dialog_keys(c.id, keys), c.title)
                for c in COMMANDS
                if c.scope == self.scope and (keys := keys_for(c, self.keymap))
            ]
        shown = (
            [BY_ID[name] for name in QUEUE_FOOTER]
            if self.scope == "queue"
            else [c for c in COMMANDS if c.footer]
        )
        found = [
            (
                c.id,
                f"screen.{c.action}",
                key_label(keys_for(c, self.keymap)[0], web=self.in_browser),
                c.brief or c.title,
            )
            for c in shown
        ]
        return [*found, palette]

    def _dialog_keys(self, command_id: str, keys: list[str]) -> str:
        """A dialog's command's key; for one that closes the dialog, every key that does
        (``esc q S``: it named Esc alone, though q closes most dialogs too)."""
        command = BY_ID[command_id]
        if closes(command):
            keys = closing_keys(command.scope, self.keymap)
        labels = [key_label(key, web=self.in_browser) for key in keys]
        return " ".join(dict.fromkeys(labels)) if closes(command) else labels[0]

    def _palette_key(self) -> str:
        """The palette's key as the footer names it: ``^p`` for ``ctrl+p`` (a ctrl key of one
        character, as Textual's footer writes it), else as remapped (``f2``)."""
        key = key_label(keys_for(BY_ID["palette"], self.keymap)[0], web=self.in_browser)
        ctrl, _, rest = key.partition("ctrl+")
        return f"^{rest}" if not ctrl and len(rest) == 1 else key

    def _acting_in_box(self, command: Command) -> list[str]:
        """The keys of ``command`` that act while the search box has the focus: a key of the
        screen's (``Command.typing``) remapped to one the box types (``Z``) or has a use for
        (``ctrl+u``) reaches the box, not the screen, unless it is a priority one."""
        keys = keys_for(command, self.keymap)
        if command.scope == "search" or command.priority:
            return keys
        return [k for k in keys if k not in _FIELD_KEYS and not typed_in_field(k)]

    def _rank(self, entry: tuple[str, str, str, str]) -> int | None:
        """How long an entry stays as the footer narrows: None for one that goes first (from
        the right), else a rank (the highest goes next; among equals, the rightmost)."""
        if self.scope in ("main", "queue"):
            kept = QUEUE_ESSENTIAL if self.scope == "queue" else ESSENTIAL
            return kept.index(entry[0]) if entry[0] in kept else None
        if self.scope in ("search", "palette"):
            return 0
        keys = keys_for(BY_ID[entry[0]], self.keymap)
        for rank, prefix in enumerate(_ESSENTIAL_KEYS):
            if any(key.startswith(prefix) for key in keys):
                return rank
        return None

    def line(self, width: int) -> str:
        """The footer's markup for ``width`` columns: every entry whole, never cut. When they
        do not all fit, the palette's goes first, then the gaps narrow, then the entries
        from the right, down to the decisions, help, undo and quit; then those too, the
        least needed first (quit, undo, help…), rather than a word cut in the middle. A
        dialog's entries go from the right before its gaps narrow, down to its Esc, Enter
        and ctrl+ keys, then those from the last."""
        entries = self.entries()

        def fits(chosen: list[tuple[str, str, str, str]], gap: int) -> bool:
            used = sum(len(key) + 1 + len(title) for _, _, key, title in chosen)
            return used + gap * (len(chosen) - 1) <= width

        chosen, gap = list(entries), 2  # (narrowed apart: the last resort looks in entries)
        palette_first = self.scope in _WITH_PALETTE
        if palette_first and not fits(chosen, gap):
            chosen = entries[:-1]
        if palette_first and not fits(chosen, gap):
            gap = 1  # the main keys all stay, a little closer; a dialog's stay apart
        while not fits(chosen, gap):
            ranks = [self._rank(entry) for entry in chosen]
            optional = [i for i, rank in enumerate(ranks) if rank is None]
            if optional:
                del chosen[optional[-1]]
            elif gap > 1:
                gap = 1
            elif len(chosen) > 1:
                del chosen[max(range(len(chosen)), key=lambda i: (ranks[i] or 0, i))]
            else:  # one entry wider than the line: the first other kept one that fits, or none
                kept = [e for e in entries if self._rank(e) is not None and fits([e], gap)]
                chosen = kept[:1]
                break
        parts = [
            f"[@click={action}][b $text-accent]{key_markup(key)}[/] {title}[/]"
            if action
            else f"[b $text-accent]{key_markup(key)}[/] {escape(title)}"
            for _, action, key, title in chosen
        ]
        return (" " * gap).join(parts)


def key_markup(key: str) -> str:
    """A key's name as markup: Textual's ``escape`` leaves a ``[`` that opens no tag as it is,
    and then ``[/]`` after it is read as text (the queue's ``[`` showed as ``[[/]``)."""
    return _OPEN.sub(r"\\[", escape(key))


_OPEN = re.compile(r"(?<!\\)\[")
