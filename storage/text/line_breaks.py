"""Words a line's end broke at a hyphen, as abstracts copied from a PDF's columns have them
(``at-⏎tention``, ``Computer-⏎Aided``, ``Llama3-⏎70B``: 93 in the real ICLR 2025 list), read
whole, the hyphen kept (``at-tention``, ``Computer-Aided``, ``Llama3-70B``), where the display
form's spaces make them two (``at- tention``).

One rule (``joined_at_hyphens``) for the screen (the paper pane: ``shown_whole``) and the
search index (``storage.search.text``), so that the word the pane shows is the word a search
finds. Not for exports: the stored abstract keeps its line breaks, and every export writes the
display form (``Paper.display_abstract``) or the source. An export is read back as the same
paper, and a paper's identity (``storage.importing.identity``) reads the hyphen before a line's
end as a dash (a sign of its own: the line's end is no letter) and the hyphen inside
``at-tention`` or ``Computer-Aided`` as no sign (it joins two letters): a Markdown export joined
so came back as a second paper.
"""

from __future__ import annotations

import re
from typing import Final

from storage.text.latex import to_unicode

#: A hyphen ending a word (a letter or a digit before it) at a line's end, the next line going
#: on with a letter or a digit (spaces or tabs around the line's end; a blank line between is a
#: paragraph's end, not a broken word). The pattern opens with the hyphen, the one character a
#: match starts with, so that the engine skips from one hyphen to the next in C: the real
#: list's abstracts eight times over (29,624) in 0.04 s, against 0.27 s with the look-behind
#: first, and 0.11 s for the index's former test of four line ends before the look-behind.
_BROKEN_AT_HYPHEN: Final = re.compile(r"([-\u2010])(?<=[^\W_][-\u2010])[ \t]*\r?\n[ \t]*(?=[^\W_])")


def joined_at_hyphens(text: str) -> str:
    """``text`` with each word a line's end broke at its hyphen joined up again, the hyphen
    kept: ``at-⏎tention`` is ``at-tention``, ``Computer-⏎Aided`` ``Computer-Aided``,
    ``Llama3-⏎70B`` ``Llama3-70B``. (Whether the hyphen is the word's own, ``large-⏎scale``,
    or the line's, ``mod-⏎els``, no rule tells: it stays.)"""
    if "\n" not in text:
        return text
    return _BROKEN_AT_HYPHEN.sub(r"\1", text)


def shown_whole(text: str) -> str:
    """The display form of ``text`` (``to_unicode``), each word a line's end broke at its
    hyphen joined (``joined_at_hyphens``): ``Computer-⏎Aided`` is shown ``Computer-Aided``,
    not ``Computer- Aided``."""
    return to_unicode(joined_at_hyphens(text))
