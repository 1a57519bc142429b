"""What the page of ``papers serve`` says when a tab's app ends (``ending_reason``): the app's
last line on stderr when it ended on an error, nothing when a signal ended it, whatever it
wrote before (a warning as it started: a library file linked to a missing drive)."""

from __future__ import annotations

from tui.web_server import ending_reason

WARNED = b"papers: warning: /h/triage.json links to /mnt/x/triage.json, which is missing\n"
DAMAGED = b"papers: error: /h/triage.json is damaged (line 3); nothing was changed\n"


def test_an_app_that_ended_on_an_error_says_its_last_line() -> None:
    assert ending_reason(WARNED + DAMAGED, 1, started=True) == DAMAGED.decode().strip()
    assert ending_reason(DAMAGED, 1, started=False) == DAMAGED.decode().strip()


def test_an_app_a_signal_ended_gives_no_reason_whatever_it_wrote_before() -> None:
    for code in (-9, -15, -1):
        assert ending_reason(WARNED, code, started=True) is None
        assert ending_reason(WARNED, code, started=False) is None


def test_an_app_that_ended_as_asked_gives_no_reason() -> None:
    assert ending_reason(WARNED, 0, started=True) is None
    assert ending_reason(b"", None, started=True) is None


def test_an_app_that_could_not_start_and_said_nothing_says_its_exit_code() -> None:
    assert ending_reason(b"", 3, started=False) == (
        "the app could not start (exit code 3), and said nothing"
    )


def test_control_characters_of_the_last_line_are_shown_not_obeyed() -> None:
    found = ending_reason(b"papers: error: \x1b]52;c;aGk=\x07 \x1b[2J\n", 1, started=True)
    assert found is not None and "\x1b" not in found and "\x07" not in found
