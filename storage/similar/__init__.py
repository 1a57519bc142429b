"""Similar papers, a suggested Inbox order and topic clusters: tf-idf over titles and abstracts.

Everything is computed locally with numpy: no network, no model download.

- ``terms``: text to terms (folding, stop words, singulars, the byte table that cuts words);
- ``matrix``: the sparse tf-idf matrix (rows and postings) and its build;
- ``index``: ``SimilarityIndex``: neighbours (``similar``) and a suggested order (``suggest``);
- ``topics``: spherical k-means clusters and their labels;
- ``store``: the index on disk (``similar.index`` beside ``papers.json``), memory-mapped and
  reused only while it matches the papers it was built from (``similarity_for``).
"""

from __future__ import annotations

from storage.similar.index import Neighbour, SimilarityIndex, Suggestion
from storage.similar.topics import Topic

__all__ = ["Neighbour", "SimilarityIndex", "Suggestion", "Topic"]
