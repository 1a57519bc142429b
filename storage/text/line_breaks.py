"""Words a line's end broke at a hyphen, as abstracts copied from a PDF's columns have them
(``at-⏎tention``, ``mod-⏎els``: 89 in the real ICLR 2025 list), shown whole on screen, the
hyphen kept (``at-tention``), where the display form's spaces make them two (``at- tention``).

For the screen only (the paper pane): the stored abstract keeps its line breaks, and every
export writes the display form (``Paper.display_abstract``) or the source. An export is read
back as the same paper, and a paper's identity reads the hyphen before a line's end as a dash
(a sign of its own: ``storage.importing.identity``) and the hyphen inside ``at-tention`` as
no sign: the Markdown export joined so came back as a second paper. The search index reads
such a word whole by its own rule (``storage.search.text``).
"""

from __future__ import annotations

import re
from typing import Final

from storage.text.latex import to_unicode

#: A hyphen ending a word at a line's end, the next line going on with letters (spaces or
#: tabs around the line's end; a blank line between is a paragraph's end, not a broken word).
_BROKEN_AT_HYPHEN: Final = re.compile(r"(?<=[^\W_])([-\u2010])[ \t]*\r?\n[ \t]*(?=[^\W\d_])")


def shown_whole(text: str) -> str:
    """The display form of ``text`` (``to_unicode``), each word a line's end broke at its
    hyphen joined, the hyphen kept, where the next line begins with a lower-case letter
    (``at-⏎tention``: ``at-tention``). Before a capital (``Computer-⏎Aided``) or a digit
    (``Llama3-⏎70B``) the line's end stays a space: a name or a number may begin a line."""
    if "\n" in text:
        text = _BROKEN_AT_HYPHEN.sub(_joined, text)
    return to_unicode(text)


def _joined(found: re.Match[str]) -> str:
    return found.group(1) if found.string[found.end()].islower() else found.group()
