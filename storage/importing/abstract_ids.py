"""The ids of many abstracts, a batch at a time: on a large import, some by a second process.

An abstract's id (``storage.importing.identity``: its text made readable, folded, its numbers
and signs read, hashed) is most of what an import spends on a paper, about two thirds. For a large
import a second process (this module's ``serve``) works out some of the batches while this
one reads and cleans the next records, so that a machine's second core, when it is free,
takes a third or more off the import. This process hands the second one a batch only
while it has few waiting, and works the batch out itself otherwise: neither waits on the
other, and a busy machine loses next to nothing.

Measured (issue 19: each trick earns its place): ``Library.import_file`` of 100,000 papers,
three runs each alternated on this 2-core machine, 16.3 s with the second process and 19.0 s
without (14% of the import), for 1.3 s more CPU in all; kept. ``ProcessPoolExecutor`` would
do the same with less code, but its children import the caller's ``__main__`` again (see
below).

Which process works out a batch changes none of its ids (the same code makes them). When no
second process can be started, or it stops or stalls, this one works everything out itself.
The second process runs this module only, not through ``multiprocessing``: that would import
the caller's main script again in it, and a script without a ``__main__`` guard would run twice.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Generic, TypeGuard, TypeVar

from storage.importing.identity import abstract_identity, id_of_abstract

#: Abstracts in a batch: some 25 ms of work, a few hundred KB to send.
BATCH = 256
#: Batches handed to the second process and not yet back, at most: enough that it has work
#: while this one works a batch out itself.
_AHEAD = 4
#: Batches done here that wait behind one of the second process's, at most: past it, this
#: process waits for that one.
_MAX_WAITING = 16
#: A second process that answers no batch for this long is taken for stuck.
_STALLED_S = 60.0
#: How long a second process told to end has to end before it is killed.
_ENDING_S = 5.0
#: Longer than this, a message is not a batch (a batch of abstracts is a few MB at most).
_MAX_MESSAGE = 256 * 1024**2

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
    worker = _Worker.start() if second_process else None
    if worker is None:
        for batch in batches:
            yield batch, abstract_ids(abstracts(batch))
        return
    pipeline = _Pipeline(worker, abstracts)
    try:
        for batch in batches:
            pipeline.add(batch)
            yield from pipeline.ready()
        yield from pipeline.rest()
    finally:
        pipeline.stop()


@dataclass(slots=True)
class _Entry(Generic[Batch]):
    """A batch in the pipeline, and its ids once known (None: handed over, not back yet)."""

    batch: Batch
    ids: Ids | None = None


class _Pipeline(Generic[Batch]):
    """Batches in order, each with its ids, worked out here or by the worker."""

    def __init__(self, worker: _Worker, abstracts: Callable[[Batch], Sequence[str]]) -> None:
        self._worker: _Worker | None = worker
        self._abstracts = abstracts
        self._waiting: deque[_Entry[Batch]] = deque()
        self._handed: deque[_Entry[Batch]] = deque()  # the ones the worker answers, in turn

    def add(self, batch: Batch) -> None:
        """Start on ``batch``: hand it to the worker if it has few waiting, else do it here."""
        self._collect(block=False)
        entry = _Entry(batch)
        if self._worker is not None and len(self._handed) < _AHEAD:
            self._worker.send(list(self._abstracts(batch)))
            self._handed.append(entry)
        else:
            entry.ids = abstract_ids(self._abstracts(batch))
        self._waiting.append(entry)

    def ready(self) -> Iterator[tuple[Batch, Ids]]:
        """The batches done, in order (waiting for the first when too many wait)."""
        self._collect(block=False)
        while self._waiting and (
            self._waiting[0].ids is not None or len(self._waiting) > _MAX_WAITING
        ):
            yield self._first()

    def rest(self) -> Iterator[tuple[Batch, Ids]]:
        """Every batch still waiting, in order."""
        while self._waiting:
            yield self._first()

    def stop(self) -> None:
        """Let the worker go; the batches it did not answer are worked out here."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
        while self._handed:
            entry = self._handed.popleft()
            entry.ids = abstract_ids(self._abstracts(entry.batch))

    def _first(self) -> tuple[Batch, Ids]:
        while (ids := self._waiting[0].ids) is None:
            self._collect(block=True)
        return self._waiting.popleft().batch, ids

    def _collect(self, block: bool) -> None:
        """Give the worker's answers to the batches handed first, in turn; when it has none
        to give in ``block`` mode (it stopped, or stalled), work them out here."""
        while self._worker is not None and self._handed:
            try:
                ids = self._worker.receive(block)
            except queue.Empty:
                return
            entry = self._handed[0]
            if not _answers(ids, self._abstracts(entry.batch)):  # it stopped, or went wrong
                self.stop()
                return
            entry.ids = ids
            self._handed.popleft()
            block = False


def _answers(ids: object, abstracts: Sequence[str]) -> TypeGuard[Ids]:
    """Whether ``ids`` can be the ids of ``abstracts`` (one each, text or None)."""
    return (
        isinstance(ids, list)
        and len(ids) == len(abstracts)
        and all(i is None or isinstance(i, str) for i in ids)
    )


class _Worker:
    """The second process answering batches in order, fed and read by threads (a batch is
    larger than what a pipe holds: writing it must not hold this process up)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        threading.Thread(target=self._feed, name="abstract ids out", daemon=True).start()
        threading.Thread(target=self._read, name="abstract ids in", daemon=True).start()

    @classmethod
    def start(cls) -> _Worker | None:
        """The second process, started; None where there is no second core or no way to run
        one (the caller then works everything out itself)."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        if (cores or os.cpu_count() or 1) < 2 or not sys.executable:
            return None
        root = str(Path(__file__).resolve().parents[1])  # where this ``storage`` is
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _SERVE, root],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except (OSError, ValueError):
            return None
        return cls(process)

    def send(self, abstracts: list[str]) -> None:
        """Hand over a batch (its answer comes back in turn from ``receive``)."""
        self._outbox.put(marshal.dumps(abstracts))

    def receive(self, block: bool) -> object:
        """The answer to the next batch handed (for the caller to check); None when the
        worker stopped; ``queue.Empty`` when none is back (at once, or, in ``block`` mode,
        after ``_STALLED_S``: it is stuck)."""
        try:
            return self._inbox.get(block, _STALLED_S)
        except queue.Empty:
            if block:
                return None
            raise

    def stop(self) -> None:
        """End the worker: its input closes (it ends there), or it is killed when stuck."""
        self._outbox.put(None)
        try:
            self._process.wait(timeout=_ENDING_S)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _feed(self) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        with contextlib.suppress(OSError, ValueError):  # the worker is gone: its reader says so
            while (payload := self._outbox.get()) is not None:
                stdin.write(len(payload).to_bytes(4, "big") + payload)
                stdin.flush()
        with contextlib.suppress(OSError):
            stdin.close()

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            while (message := _message(stdout)) is not None:
                self._inbox.put(marshal.loads(message))
        self._inbox.put(None)


def _message(stream: IO[bytes]) -> bytes | None:
    """The next length-prefixed message of ``stream``; None at its end (or a cut one, or one
    too long to be a batch: not a message of ours)."""
    head = stream.read(4)
    if len(head) < 4:
        return None
    size = int.from_bytes(head, "big")
    if size > _MAX_MESSAGE:
        return None
    body = stream.read(size)
    return body if len(body) == size else None


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """The second process: answer each batch of abstracts with their ids, until input ends."""
    while (message := _message(stdin)) is not None:
        answer = marshal.dumps(abstract_ids(marshal.loads(message)))
        stdout.write(len(answer).to_bytes(4, "big") + answer)
        stdout.flush()


#: The second process's program: this module's ``serve``, from the same folder as this one.
_SERVE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from storage.importing.abstract_ids import serve; serve(sys.stdin.buffer, sys.stdout.buffer)"
)
