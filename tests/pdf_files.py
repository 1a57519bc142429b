"""Real PDF files for the tests and benchmarks: paper-like documents made with fpdf2.

``paper_pdf`` writes a paper as conference papers look: a title, authors, an abstract, then
numbered sections of body text in two columns, 10-point type, with a TrueType font embedded
(subset, with its ToUnicode map, as LaTeX's PDFs carry), page after page. The body text is
the words given (real abstracts, recombined) so that extractors have real words to find.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Sequence
from pathlib import Path

#: A TrueType font Debian ships (fonts-dejavu-core); without it the PDF core font is used.
_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
)

#: Sentences for a body when no real text is given.
_FILLER = (
    "We study how sampling schedules change the quality of diffusion models at scale.",
    "Our method reduces the number of function evaluations while keeping sample fidelity.",
    "Experiments on image and text benchmarks show consistent gains over strong baselines.",
    "The analysis relates the error of the solver to the curvature of the learned field.",
    "We release code and checkpoints to make the results easy to reproduce.",
    "Ablations confirm that each component contributes to the final performance.",
)


def _font(pdf: object) -> str:
    for path in _FONTS:
        if path.is_file():
            pdf.add_font("Body", "", str(path))  # type: ignore[attr-defined]
            return "Body"
    return "Helvetica"


def paper_pdf(
    path: Path,
    title: str,
    pages: int,
    sentences: Sequence[str] = (),
    *,
    seed: int = 0,
    marker: str = "",
    written: list[str] | None = None,
) -> Path:
    """Write a paper of ``pages`` pages to ``path`` (returns it). ``marker``: a sentence put on
    the last page, for a test to find; ``written``: receives every line written (what an
    extractor should find)."""
    from fpdf import FPDF

    rng = random.Random(seed)
    pool = list(sentences) or list(_FILLER)
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_compression(True)
    family = _font(pdf)
    safe = family != "Helvetica"

    def text(value: str) -> str:
        return value if safe else value.encode("latin-1", "replace").decode("latin-1")

    margin, gap = 54.0, 18.0
    column = (612 - 2 * margin - gap) / 2
    line = 12.0
    #: Characters a column's line holds at 10 points (the text is wrapped here, once: fpdf2's
    #: own wrapping measures every word, ten times slower).
    chars = 44
    for page in range(pages):
        pdf.add_page()
        y = margin
        if page == 0:
            pdf.set_font(family, size=16)
            pdf.set_xy(margin, y)
            pdf.cell(612 - 2 * margin, 20, text(title[:70]), align="C")
            pdf.set_font(family, size=10)
            pdf.set_xy(margin, y + 24)
            pdf.cell(612 - 2 * margin, line, "Anonymous authors · Paper under review", align="C")
            y += 48
        pdf.set_font(family, size=10)
        rows = int((792 - 54 - y) // line)
        for col in range(2):
            x = margin + col * (column + gap)
            lines: list[str] = []
            if page > 0 and page % 3 == 0 and col == 0:
                lines.append(f"{page // 3 + 1} Method")
            if marker and page == pages - 1 and col == 1:
                lines.extend(textwrap.wrap(marker, chars))
            while len(lines) < rows:
                lines.extend(textwrap.wrap(" ".join(rng.choice(pool) for _ in range(6)), chars))
            for i, row in enumerate(lines[:rows]):
                pdf.set_xy(x, y + i * line)
                pdf.cell(column, line, text(row))
                if written is not None:
                    written.append(text(row))
        pdf.set_xy(margin, 792 - 36)
        pdf.cell(612 - 2 * margin, line, str(page + 1), align="C")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path
