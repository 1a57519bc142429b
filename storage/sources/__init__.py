"""Readers: the files papers come from, read into source records, and those records made papers.

- ``registry``: every format read, declared once (``READERS``), and the reader picked for a file;
- ``records``: what every reader shares (the ``Reader`` entry, ``SourceRecord``, ``Fit``);
- ``plain_text``, ``json_lists``, ``csv_lists``, ``bibtex``, ``ris``, ``csl_json``,
  ``arxiv_email``, ``library_files``: one module per format;
- ``limits``: how much an import reads (regular files, a size cap);
- ``fields``, ``links``, ``venues``: what a record holds beyond title and abstract, its links,
  and the venue its list or source names;
- ``authors``: authors' names as the library keeps them, and split again for the exports;
- ``papers``: source records made ``Paper``s (ids, links, titles, venues, catalog facts);
- ``titles``: a short title derived for a paper that comes with an abstract only.
"""
