"""Keys of a burst taken one after another: a key that may move the focus or open a screen
settles before the next key is given to anyone.

Textual hands a key to the widget that has the focus when the key arrives, and the widget
takes it later, from its own queue; a key it does not take climbs to its parents and to the
app, whose bindings then act (open a dialog, leave the search box). Keys that arrive together
(a paste without brackets, ``tmux send-keys "mytag" Enter``, a fast typist, a key pressed while
the app is busy) were all handed out before the first had acted: the tag prompt's text went to
the list it opened over and the tag was lost; ``/`` in a burst ran before the keys ahead of it
(``2/graph`` searched the Inbox, not the Starred tab); ``diffusion`` Enter ``j`` typed ``j``
into the search box it had just left.

So a key that is not a character typed into a text field holds the keys after it until it has
climbed every queue it could climb (its widget's, each parent's, the app's) and the screen has
been drawn (a dialog it opened is on screen, its field focused); then the next key is given
out as if it had just arrived. Characters typed into a field are not held: a field takes its
own keys in order, however fast. A key never waits longer than ``MAX_WAIT_S``: should a queue
never answer, the keys go on.

A key whose work a thread does (an import, a large export, a search) holds the keys after it
until that work is shown (``expect_screen``): the keys typed while an import ran went into the
dialog's field instead of to the list it was bringing. Such a screen names the keys it still
takes meanwhile (its Esc, which stops the work): they go ahead of the keys held, at once, and
so do the app's quit keys (``KeyGate``'s ``quitting``), whatever the work: ctrl+q, "Quit from
any screen", was held behind a fetch the server did not answer, and dropped when it failed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final

from textual import events, messages
from textual.app import App
from textual.dom import DOMNode
from textual.timer import Timer

from tui.keys import character_key

#: The longest a key waits for the one before it to settle (seconds).
MAX_WAIT_S = 0.3
#: The longest keys wait for a screen a key's work is making (``expect_screen``; seconds):
#: similar papers take 0.2 s at 100,000 papers, topics 2.5 s.
MAX_SCREEN_WAIT_S = 3.0


def expect_screen(
    app: App[Any],
    *,
    wait: float | None = MAX_SCREEN_WAIT_S,
    passing: Collection[str] = (),
    by: str | None = None,
) -> None:
    """A key's action opens a screen once a thread's work is done (similar papers, topics),
    or shows a search's results: the keys after it wait for that screen (``m q`` in a burst
    quit the app: the ``q`` came before the dialog it was meant to close) or those results,
    until ``screen_arrived`` or ``wait`` seconds. ``wait`` None: for as long as the work
    takes (an import, minutes): then every end of it must call ``screen_arrived`` or
    ``screen_stays``. The keys ``passing`` (a dialog's Esc, which stops that work) are not
    held: they go to the screen at work at once, ahead of the keys held; so do the app's
    quit keys (the screen at work stops its work as it goes: ``on_unmount``). ``by``: who
    expects it, when other work may say a screen arrived meanwhile (the palette's Enter,
    holding the keys for the command it chooses): only ``screen_arrived`` ``by`` the same, or
    the deadline, lets the keys go; and should the command expect a screen of its own, the
    palette's word then lets nothing go."""
    gate = getattr(app, "key_gate", None)
    if isinstance(gate, KeyGate):
        gate.expect(wait, passing, by)


def screen_arrived(app: App[Any], *, by: str | None = None) -> None:
    """The screen ``expect_screen`` waited for is pushed (or will not come): the keys held
    go to it once it is drawn. Only the screen expected ``by`` the same: a search's results
    shown while the palette's Enter holds the keys for its command let them go early."""
    gate = getattr(app, "key_gate", None)
    if isinstance(gate, KeyGate):
        gate.arrived(by)


def screen_stays(app: App[Any]) -> int:
    """The screen ``expect_screen`` waited for will not come (the import failed: its dialog
    stays, its form taking keys again): the keys held were typed while that form took none,
    for the screen that did not come, and are dropped. How many were."""
    gate = getattr(app, "key_gate", None)
    return gate.abandon() if isinstance(gate, KeyGate) else 0


#: The signs macOS's Option key types with the digits, 1 to 0: on the list (no text field
#: focused) each shows the digit's tab, as the digit does (``sign_digit``). A keyboard types
#: them too (a UK one ``£``, a Spanish one ``ª º``, a German one ``§``): in a text field they
#: are typed. (Textual read Esc and a digit sent at once as these signs: ``tui.terminal``
#: gives them as alt and the digit.)
_ESCAPED_DIGITS: Final = dict(zip("¡™£¢∞§¶•ªº", "1234567890", strict=True))


def sign_digit(event: events.Key) -> events.Key | None:
    """The digit whose sign macOS's Option types ``event`` is (``£``: 3), None for another key."""
    character = event.character
    if character in _ESCAPED_DIGITS and event.key == character_key(character):
        digit = _ESCAPED_DIGITS[character]
        return events.Key(digit, digit)
    return None


def escape_then(event: events.Key) -> events.Key | None:
    """The key typed after Esc, when ``event`` is the two read as one: a terminal sends Esc
    and a letter within ``ESCDELAY`` (100 ms) as Alt and the letter, which a text field types
    as the letter (Esc then ``j`` in the search box typed ``j`` into it), and Esc and a digit
    as Alt and the digit (``tui.terminal``; the kitty keyboard protocol's Alt+digit, which
    has no character, is taken so too, the tab shown as elsewhere); None otherwise. (The app
    splits it but in a dialog's field, where Esc would close the dialog and throw away what
    was typed: there it types the letter.)"""
    name = event.key.removeprefix("alt+")
    if name != event.key and len(name) == 1 and name in "0123456789":
        return events.Key(name, name)
    character = event.character
    if not event.key.startswith("alt+") or not character or len(character) != 1:
        return None
    if not character.isprintable():
        return None
    return events.Key(character_key(character), character)


#: What waits behind a key settling: keys, a paste (``a``, then a path pasted into the
#: import dialog it opens, went to the list under it), and the quit of a browser tab closed
#: or reloaded right after its keys (``ssssss`` then a reload dropped the stars held).
Held = events.Key | events.Paste | messages.ExitApp


class KeyGate:
    """The keys held while an earlier key settles, for ``app`` (its ``on_event`` asks);
    ``quitting``, the app's keys that end it, go ahead while a screen's work is awaited."""

    def __init__(
        self,
        app: App[Any],
        give: Callable[[Held], Awaitable[None]],
        quitting: Collection[str] = (),
    ) -> None:
        self.app = app
        self._quitting = frozenset(quitting)
        #: Gives a held key out again (the app's own handling of a key that just arrived).
        self._give = give
        self._held: deque[Held] = deque()
        #: The settling key's number (0: none settles); a late answer for an earlier key is
        #: told apart from the current one's.
        self._settling = 0
        self._count = 0
        self._timer: Timer | None = None
        #: A screen is expected (``expect_screen``): the keys wait for it.
        self._expecting = False
        #: Its deadline (None: none).
        self._deadline: Timer | None = None
        #: The keys that go ahead meanwhile, to the screen at work.
        self._passing: frozenset[str] = frozenset()
        #: Who expects it (``expect_screen``'s ``by``).
        self._expected_by: str | None = None

    @property
    def busy(self) -> bool:
        return bool(self._settling or self._expecting or self._held)

    def expect(
        self,
        wait: float | None = MAX_SCREEN_WAIT_S,
        passing: Collection[str] = (),
        by: str | None = None,
    ) -> None:
        self._stop_expecting()
        self._expecting = True
        self._expected_by = by
        self._passing = frozenset(passing) | self._quitting
        if wait is not None:
            self._deadline = self.app.set_timer(wait, lambda: self.arrived(by))
        # keys typed after the key whose work this is, held while it settled
        held, self._held = self._held, deque()
        for event in held:
            if not self._ahead(event):
                self._held.append(event)

    def _stop_expecting(self) -> None:
        self._expecting = False
        self._passing = frozenset()
        if self._deadline is not None:
            self._deadline.stop()
            self._deadline = None

    def arrived(self, by: str | None = None) -> None:
        if not self._expecting or by != self._expected_by:
            return  # (another's: a search's results shown while the palette holds the keys)
        self._stop_expecting()
        self._count += 1
        self._settling = number = self._count
        self._wait(number)
        if not self.app.call_after_refresh(self._settled, number):
            self._settled(number)

    def abandon(self) -> int:
        """The screen expected will not come: forget the keys held (``screen_stays``), but
        not a browser tab's quit held with them, which still ends the app (its child was
        left running, the tab gone)."""
        if not self._expecting:
            return 0
        self._stop_expecting()
        dropped = sum(isinstance(event, events.Key) for event in self._held)
        self._held = deque(e for e in self._held if isinstance(e, messages.ExitApp))
        if self._held and not self._settling:
            self.app.call_next(self._give_next)
        return dropped

    def hold(self, event: Held) -> bool:
        """Whether ``event``, just arrived, waits for an earlier key (it is then kept, in
        order, and given out by ``give`` once the keys before it have settled), or goes
        ahead of the keys held (given out next: ``expect_screen``'s ``passing``)."""
        if not self.busy:
            return False
        if not self._ahead(event):
            self._held.append(event)
        return True

    def _ahead(self, event: Held) -> bool:
        """Give ``event`` out next, ahead of the keys held, when the screen at work takes it
        now; the letter of Esc and a letter read as one (``escape_then``) waits its turn."""
        if not self._expecting or not isinstance(event, events.Key):
            return False
        now = event if event.key in self._passing else None
        if now is None and "escape" in self._passing:
            then = escape_then(event)
            if then is not None:
                self._held.append(then)
                now = events.Key("escape", "\x1b")
        if now is None:
            return False
        self.app.call_next(self._give, now)
        return True

    def settle(self, target: DOMNode | None, *, frame: bool = True) -> None:
        """The key just given to ``target`` (the focused widget, or the screen) holds the
        next keys until it has settled: taken by every queue it climbs, and, with ``frame``,
        drawn (without: a key that only moves the cursor, which opens nothing; a held j then
        keeps up, a frame a key slower otherwise)."""
        self._count += 1
        self._settling = number = self._count
        self._wait(number)
        hops: list[DOMNode] = [self.app] if target is None else list(target.ancestors_with_self)
        self._climb(number, hops, 0, frame)

    def first(self, event: events.Key) -> None:
        """Give ``event`` out before the keys held (the second half of a key split in two)."""
        self._held.appendleft(event)
        if not self._settling and not self._expecting:
            self.app.call_next(self._give_next)

    def _wait(self, number: int) -> None:
        """Key ``number`` holds the next keys no longer than ``MAX_WAIT_S``."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.app.set_timer(MAX_WAIT_S, lambda: self._settled(number))

    def drop(self) -> None:
        """Forget the held keys (the app is ending)."""
        self._held.clear()
        self._settling = 0

    def _climb(self, number: int, hops: list[DOMNode], at: int, frame: bool = True) -> None:
        """Wait on each queue the key may climb, in turn: a callback posted to a queue after
        the key got there runs after the key was taken (and passed on to the next queue)."""
        if number != self._settling:
            return
        while at < len(hops):
            if hops[at].call_later(self._climb, number, hops, at + 1, frame):
                return
            at += 1  # a widget gone meanwhile: nothing waits there
        # every queue passed: the frame after it (a dialog opened is mounted and drawn)
        if not frame or not self.app.call_after_refresh(self._settled, number):
            self._settled(number)

    def _settled(self, number: int) -> None:
        if number != self._settling:
            return
        self._settling = 0
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._held and not self._expecting:
            self.app.call_next(self._give_next)

    async def _give_next(self) -> None:
        # (a character typed into a field settles at once: the next goes on)
        while self._held and not self._settling and not self._expecting:
            await self._give(self._held.popleft())
