"""The hostile inputs and what must never reach a terminal (the formats: ``formats.py``)."""

from __future__ import annotations

import io
import re

from hypothesis import strategies as st

#: Text that, printed raw, would steer a terminal or disguise itself: name → text.
HOSTILE: dict[str, str] = {
    "clear screen": "\x1b[2J\x1b[H",
    "reset terminal": "\x1bc",
    "OSC 52 clipboard": "\x1b]52;c;cHduZWQ=\x07",
    "OSC 8 hyperlink": "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "window title": "\x1b]0;owned\x07",
    "8-bit CSI": "\x9b2J\x9b31m",
    "8-bit OSC": "\x9d52;c;cHduZWQ=\x9c",
    "leave the alternate screen": "\x1b[?1049l\x1b[?25l",
    "device status report": "\x1b[6n\x1b[c",
    "DCS request": "\x1bP+q544e\x1b\\",
    "right-to-left override": "invoice\u202egpj.exe",
    "bidi isolates": "\u2066\u2067\u2068abc\u2069\u202a\u202b\u202c\u202d",
    "DEL and backspaces": "real\x7f" + "\x08" * 8 + "fake",
    "carriage return": "shown\rhidden",
    "bell and NUL": "\x07\x00\x01\x02",
    "vertical tab and form feed": "a\x0bb\x0cc",
    "NEL and separators": "a\x85b\u2028c\u2029d",
    "Rich markup": "[bold red]markup[/] [link=https://evil.example]x[/link] [@click=app.quit]q[/]",
    "Markdown structure": "x](javascript:alert(1))\n# injected\n- [ ] item\n@misc{x,",
    "a tab": "a\tb",
}

#: Every character that must not reach a terminal from the data (newlines aside), found by a
#: rule written here independently of ``storage.text.sanitize``.
FORBIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class TerminalBuffer(io.StringIO):
    """A captured stream that says it is a terminal (so the terminal's path is the one taken)."""

    def isatty(self) -> bool:
        return True


def leaks(text: str) -> list[str]:
    """The forbidden characters in ``text``, as escapes (empty when it is safe)."""
    return sorted({ascii(ch) for ch in FORBIDDEN.findall(text)})


#: Arbitrary text with control characters, bidi overrides and the hostile sequences mixed in.
hostile_text = st.lists(
    st.one_of(
        st.sampled_from(list(HOSTILE.values())),
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
        st.text(st.characters(min_codepoint=0, max_codepoint=0x9F), max_size=8),
        st.sampled_from(["\u202e", "\u2066", "\x9b", "\x1b", "\x7f", "\r", "\n", "\t"]),
    ),
    min_size=1,
    max_size=5,
).map("".join)

#: The fields of a paper a list file may give (``list``: the list's name).
FIELDS = ("title", "abstract", "authors", "url", "github", "venue_status", "keywords", "list")


def sound_paper(i: int = 0) -> dict[str, str]:
    """The fields of a paper that every reader takes; tests put hostile text in one of them."""
    return {
        "title": f"A sound title number {i}",
        "abstract": (
            f"Paper {i} studies robust sampling for diffusion models and shows that a careful "
            f"schedule halves the number of steps on standard image benchmarks ({i})."
        ),
        "authors": "Ada Lovelace; Alan Turing",
        "url": f"https://openreview.net/forum?id=paper{i:04d}",
        "github": f"https://github.com/owner/repo{i}",
        "venue_status": "Poster",
        "keywords": "diffusion, sampling",
        "list": "A sound list",
    }
