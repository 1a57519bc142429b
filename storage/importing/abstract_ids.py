"""The ids of many abstracts, a batch at a time: on a large import, some by a second process.

An abstract's id (``storage.importing.identity``: its text made readable, folded, its numbers
and signs read, hashed) is most of what an import spends on a paper, about two thirds. For a
large import a second process (``storage.second_process``, running ``abstract_ids``) works out
some of the batches while this one reads and cleans the next records, so that a machine's
second core, when it is free, takes a third or more off the import. This process hands the
second one a batch only while it has few waiting, and works the batch out itself otherwise:
neither waits on the other, and a busy machine loses next to nothing.

Measured (issue 19: each trick earns its place): ``Library.import_file`` of 100,000 papers,
three runs each alternated on this 2-core machine, 16.3 s with the second process and 19.0 s
without (14% of the import), for 1.3 s more CPU in all; kept. ``ProcessPoolExecutor`` would
do the same with less code, but its children import the caller's ``__main__`` again (see
``storage.second_process``).

The pipeline is ``storage.second_process``'s (the index builds use it too): which process
works out a batch changes none of its ids, and when no second process can be started, or it
stops or stalls, this one works everything out itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from storage.importing.identity import abstract_identity, id_of_abstract

#: Abstracts in a batch: some 25 ms of work, a few hundred KB to send.
BATCH = 256

Batch = TypeVar("Batch")
Ids = list[str | None]


def abstract_ids(abstracts: Iterable[str]) -> Ids:
    """``id_of_abstract`` of each abstract's identity; None where there is none (no abstract,
    or a placeholder: the paper is then known by its title)."""
    found: Ids = []
    for abstract in abstracts:
        identity = abstract_identity(abstract)
        found.append(None if identity is None else id_of_abstract(identity))
    return found


def with_ids(
    batches: Iterable[Batch],
    abstracts: Callable[[Batch], Sequence[str]],
    *,
    second_process: bool,
) -> Iterator[tuple[Batch, Ids]]:
    """Each batch with the ids of its ``abstracts``, in order: worked out here, or, with
    ``second_process``, some of them by a process started for the purpose (see the module)."""
    from storage.second_process import Work, in_order

    work: Work[Batch, Ids] = Work(
        f"{__name__}:abstract_ids",
        abstract_ids,
        lambda batch: list(abstracts(batch)),
        _answers,
    )
    return in_order(batches, work, second_process=second_process)


def _answers(ids: object, abstracts: object) -> bool:
    """Whether ``ids`` can be the ids of ``abstracts`` (one each, text or None)."""
    return (
        isinstance(ids, list)
        and isinstance(abstracts, list)
        and len(ids) == len(abstracts)
        and all(i is None or isinstance(i, str) for i in ids)
    )
