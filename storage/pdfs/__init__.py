"""PDFs of papers: where a paper's PDF is on the web, its local copy, downloading it.

- ``links``: ``pdf_url(paper)``, the PDF's address (OpenReview, arXiv, a list's ``pdf`` field);
- ``folder``: the folder of local copies (``HOME/pdfs`` unless ``[pdf] folder`` says), their
  names (``Title (id).pdf``), which papers have one, leftovers swept;
- ``download``: polite, checked, resumable downloads into that folder;
- ``web``: their HTTP (redirects, ``Retry-After``, ranges, codings, a server that cannot be
  reached);
- ``failures``: the links that failed for good (404, 410, no PDF), passed over next time;
- ``parts``: a download's part file, only ever a regular file of its own (never a link or a pipe);
- ``text``: a PDF read to text (pypdf), for ``storage.cache.pdf_text``.
"""

from __future__ import annotations

from storage.pdfs.folder import PdfFolder, pdf_name
from storage.pdfs.links import pdf_url

__all__ = ["PdfFolder", "pdf_name", "pdf_url"]
