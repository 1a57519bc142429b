"""The glass benchmark's own parts: frames and changes read from a byte stream, and one real pty."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks import glass
from benchmarks.glass import SYNC_END, SYNC_START, Emulator, Key, Paint


def frame(*writes: tuple[int, int, bytes]) -> bytes:
    """A synchronized update writing text at (row, column), both from 0."""
    body = b"".join(b"\x1b[%d;%dH%s" % (y + 1, x + 1, text) for y, x, text in writes)
    return SYNC_START + body + SYNC_END


def test_a_frame_is_shown_when_it_ends_even_split_across_reads() -> None:
    emulator = Emulator()
    data = frame((5, 70, b"a paper title"))
    cut = len(data) - 3  # inside the closing ?2026l
    assert emulator.feed(1.0, data[:cut]) == []
    [paint] = emulator.feed(2.0, data[cut:])
    assert paint == Paint(at=2.0, frame=True, screen=True, pane=True, blink=False)
    assert "a paper title" in emulator.lines()[5]


def test_the_list_is_not_the_pane_and_an_unchanged_frame_changes_nothing() -> None:
    emulator = Emulator()
    [listed] = emulator.feed(1.0, frame((5, 2, b"a title in the list")))
    assert listed.screen and not listed.pane
    [again] = emulator.feed(2.0, frame((5, 2, b"a title in the list")))
    assert again.frame and not again.screen


def test_a_blinking_cursor_is_not_a_change() -> None:
    emulator = Emulator()
    emulator.feed(1.0, frame((1, 4, b"query")))
    [blink] = emulator.feed(2.0, frame((1, 9, b"\x1b[7m \x1b[0m")))
    assert blink.blink and not blink.screen
    key = Key(b"j", ("j/k",), glass.shown_anything)
    real = Paint(1.5, frame=True, screen=True, pane=True, blink=False)
    stroke = glass.stroke_of(key, 1.0, [real, blink], [1.5, 2.0], ok=True)
    assert stroke.frames == 1 and stroke.settled == pytest.approx(0.5)


def test_output_outside_frames_is_shown_chunk_by_chunk() -> None:
    emulator = Emulator()
    first = emulator.feed(1.0, b"\x1b[3;3Hone")
    second = emulator.feed(1.001, b"\x1b[3;70Htwo")
    assert [p.frame for p in first + second] == [False, False]
    assert [p.pane for p in first + second] == [False, True]


def test_bursts_are_split_by_silence() -> None:
    assert glass.bursts_of([]) == 0
    assert glass.bursts_of([0.0, 0.001, 0.0015, 0.010, 0.0105, 0.5]) == 3


def test_a_key_view_and_checks() -> None:
    before = glass.View([" 1 Inbox 9,574  2 Starred 754", ""] + [""] * 34)
    after = glass.View([" 1 Inbox 9,573  2 Starred 755", ""] + [""] * 34)
    assert before.count("Inbox") == 9574
    assert glass.inbox_one_less(before, after)
    assert not glass.inbox_one_less(before, before)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_the_minimal_app_through_a_real_pty(tmp_path: Path) -> None:
    """j and k in a minimal Textual app: one synchronized frame each, seen within a second."""
    script = tmp_path / "minimal.py"
    script.write_text(glass.MINIMAL_APP, encoding="utf-8")
    run = glass.run_floor(
        "minimal", [sys.executable, str(script)], glass.MINIMAL_TEXT, 0, 6, True, seed=1
    )
    assert len(run.strokes) == 6
    assert all(s.ok for s in run.strokes), run.failures
    assert all(s.frames == 1 for s in run.strokes)
    assert all(s.settled is not None and s.settled < 1.0 for s in run.strokes)


def test_the_pane_heading_is_its_text_without_borders_or_scrollbars() -> None:
    lines = [""] * 36
    lines[2] = " " * 60 + "╭" + "─" * 58 + "╮"
    lines[3] = " " * 60 + "│ A paper title" + " " * 44 + "│"
    lines[4] = " " * 60 + "│ by someone" + " " * 45 + "▂▂│"
    view = glass.View(lines)
    assert view.pane_heading == ["A paper title", "by someone"]
    moved = glass.View(lines[:3] + [" " * 60 + "│ Another title"] + lines[4:])
    assert glass.pane_changed(view, moved)
