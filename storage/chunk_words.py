"""A chunk's words numbered by the chunk, then by the whole build: what lets a second process
cut some chunks' words while this one cuts others' (the search index's and the similarity's
builds, ``storage.second_process``).

A chunk's words come as ``FoundWords``: its distinct words in the order met, and each word
as its place among those. ``storage.paper_words.RawWords`` gives them the build's numbers in
the order of the chunks: a new word gets the next number when it is first met, as in one pass
over every word in order, whichever process cut the chunk.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

#: A chunk's words: its distinct words (UTF-8) in the order met, and each word of the chunk
#: as its place among those (int32, native order).
FoundWords = tuple[list[bytes], bytes]


def numbered(words: Iterable[bytes]) -> FoundWords:
    """``words`` as ``FoundWords``: numbered in the order met."""
    seen: defaultdict[bytes, int] = defaultdict()
    seen.default_factory = seen.__len__
    places = np.fromiter(map(seen.__getitem__, words), dtype=np.int32)
    found = list(seen)
    # its factory is its own method: a cycle that would keep a chunk's words (MBs) until a
    # collector pass, which a build process runs without (``children.without_collector``)
    seen.default_factory = None
    return found, places.tobytes()


def count_of(found: object, mark: bytes) -> int | None:
    """How many times ``mark`` is among the words of ``found``, if it can be ``FoundWords``
    (a second process's answer: a list of words, whole int32 places among them); else None."""
    if not (isinstance(found, tuple) and len(found) == 2):
        return None
    words, places = found
    if not (isinstance(words, list) and isinstance(places, bytes) and len(places) % 4 == 0):
        return None
    if not set(map(type, words)) <= {bytes}:  # C all through: a chunk has 30,000 words
        return None
    numbers = np.frombuffer(places, dtype=np.int32)
    if len(numbers) and (int(numbers.min()) < 0 or int(numbers.max()) >= len(words)):
        return None
    if mark not in words:
        return 0
    return int(np.count_nonzero(numbers == words.index(mark)))
