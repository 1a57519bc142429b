"""Batches worked out in order, some of them by a second process: a machine's second core.

The slow parts of an import and of the index builds are Python code run over every paper
(the ids of abstracts; the words of titles and abstracts). For a large run, a second process
(this module's ``serve``, running one named function) works out some of the batches while
this one works out others: this process hands the second one a batch only while it has few
waiting, and works the batch out itself otherwise, so that neither waits on the other and a
busy machine (or one with a single core) loses next to nothing.

Which process works out a batch changes nothing in its answer: both run the same function.
When no second process can be started, or it stops, answers something that is not an answer,
or stalls, this one works everything out itself. The second process runs this module only,
not through ``multiprocessing``: that would import the caller's main script again in it, and
a script without a ``__main__`` guard would run twice. Messages are ``marshal``'s: the
batches and answers are plain values (text, bytes, numbers, lists).
"""

from __future__ import annotations

import contextlib
import importlib
import marshal
import os
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

#: Batches handed to the second process and not yet back, at most: enough that it has work
#: while this one works a batch out itself.
AHEAD = 4
#: Batches done here that wait behind one of the second process's, at most: past it, this
#: process waits for that one.
MAX_WAITING = 16
#: A second process that answers no batch for this long is taken for stuck.
STALLED_S = 60.0
#: How long a second process told to end has to end before it is killed.
ENDING_S = 5.0
#: Longer than this, a message is not a batch (a batch is a few MB at most).
MAX_MESSAGE = 256 * 1024**2

Batch = TypeVar("Batch")
Answer = TypeVar("Answer")


@dataclass(frozen=True, slots=True)
class Work(Generic[Batch, Answer]):
    """What to do with each batch: ``function`` (``module:name``, the same function as
    ``here``) applied to ``inputs(batch)``; ``answers(found, given)`` says whether what came
    back can be the answer to ``given`` (else the second process is let go)."""

    function: str
    here: Callable[[Any], Answer]
    inputs: Callable[[Batch], Any]
    answers: Callable[[object, Any], bool]


def in_order(
    batches: Iterable[Batch], work: Work[Batch, Answer], *, second_process: bool
) -> Iterator[tuple[Batch, Answer]]:
    """Each batch with its answer, in order: worked out here, or, with ``second_process``,
    some of them by a process started for the purpose (see the module)."""
    worker = Worker.start(work.function) if second_process else None
    if worker is None:
        for batch in batches:
            yield batch, work.here(work.inputs(batch))
        return
    pipeline = _Pipeline(worker, work)
    try:
        for batch in batches:
            pipeline.add(batch)
            yield from pipeline.ready()
        yield from pipeline.rest()
    finally:
        pipeline.stop()


def has_second_core() -> bool:
    """Whether this process may run on two cores or more."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return (cores or os.cpu_count() or 1) >= 2


_MISSING: Any = object()


@dataclass(slots=True)
class _Entry(Generic[Batch, Answer]):
    """A batch in the pipeline, and its answer once known (``_MISSING``: handed over, not
    back yet)."""

    batch: Batch
    answer: Answer = _MISSING


class _Pipeline(Generic[Batch, Answer]):
    """Batches in order, each with its answer, worked out here or by the worker."""

    def __init__(self, worker: Worker, work: Work[Batch, Answer]) -> None:
        self._worker: Worker | None = worker
        self._work = work
        self._waiting: deque[_Entry[Batch, Answer]] = deque()
        self._handed: deque[_Entry[Batch, Answer]] = deque()  # the worker answers in turn

    def add(self, batch: Batch) -> None:
        """Start on ``batch``: hand it to the worker if it has few waiting, else do it here."""
        self._collect(block=False)
        entry: _Entry[Batch, Answer] = _Entry(batch)
        if self._worker is not None and len(self._handed) < AHEAD:
            self._worker.send(self._work.inputs(batch))
            self._handed.append(entry)
        else:
            entry.answer = self._work.here(self._work.inputs(batch))
        self._waiting.append(entry)

    def ready(self) -> Iterator[tuple[Batch, Answer]]:
        """The batches done, in order (waiting for the first when too many wait)."""
        self._collect(block=False)
        while self._waiting and (
            self._waiting[0].answer is not _MISSING or len(self._waiting) > MAX_WAITING
        ):
            yield self._first()

    def rest(self) -> Iterator[tuple[Batch, Answer]]:
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
            entry.answer = self._work.here(self._work.inputs(entry.batch))

    def _first(self) -> tuple[Batch, Answer]:
        while (answer := self._waiting[0].answer) is _MISSING:
            self._collect(block=True)
        return self._waiting.popleft().batch, answer

    def _collect(self, block: bool) -> None:
        """Give the worker's answers to the batches handed first, in turn; when it has none
        to give in ``block`` mode (it stopped, or stalled), work them out here."""
        while self._worker is not None and self._handed:
            try:
                answer = self._worker.receive(block)
            except queue.Empty:
                return
            entry = self._handed[0]
            if answer is None or not self._work.answers(answer, self._work.inputs(entry.batch)):
                self.stop()  # it stopped, or went wrong
                return
            entry.answer = answer  # type: ignore[assignment]  # checked by ``answers``
            self._handed.popleft()
            block = False


#: The second process's program: this module's ``serve`` of a function, from the same
#: folder as this module.
PROGRAM = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from storage.second_process import serve; "
    "serve(sys.argv[2], sys.stdin.buffer, sys.stdout.buffer)"
)


class Worker:
    """The second process answering batches in order, fed and read by threads (a batch is
    larger than what a pipe holds: writing it must not hold this process up)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        threading.Thread(target=self._feed, name="second process out", daemon=True).start()
        threading.Thread(target=self._read, name="second process in", daemon=True).start()

    @classmethod
    def start(cls, function: str, program: str | None = None) -> Worker | None:
        """The second process serving ``function`` (``module:name``), started; None where
        there is no second core or no way to run one (the caller then works everything out
        itself). ``program``: another program in its place (``PROGRAM`` by default)."""
        if not has_second_core() or not sys.executable:
            return None
        root = str(Path(__file__).resolve().parents[1])  # where this ``storage`` is
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", program or PROGRAM, root, function],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except (OSError, ValueError):
            return None
        return cls(process)

    def send(self, batch: Any) -> None:
        """Hand over a batch (its answer comes back in turn from ``receive``)."""
        self._outbox.put(marshal.dumps(batch))

    def receive(self, block: bool) -> object:
        """The answer to the next batch handed (for the caller to check); None when the
        worker stopped; ``queue.Empty`` when none is back (at once, or, in ``block`` mode,
        after ``STALLED_S``: it is stuck)."""
        try:
            return self._inbox.get(block, STALLED_S)
        except queue.Empty:
            if block:
                return None
            raise

    def stop(self) -> None:
        """End the worker: its input closes (it ends there), or it is killed when stuck."""
        self._outbox.put(None)
        try:
            self._process.wait(timeout=ENDING_S)
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
    if size > MAX_MESSAGE:
        return None
    body = stream.read(size)
    return body if len(body) == size else None


def serve(function: str, stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """The second process: answer each batch with ``function`` (``module:name``) of it,
    until input ends (without the cyclic collector: ``children.without_collector``)."""
    from storage.cache.children import without_collector

    without_collector()
    module, _, name = function.partition(":")
    work = getattr(importlib.import_module(module), name)
    while (message := _message(stdin)) is not None:
        answer = marshal.dumps(work(marshal.loads(message)))
        stdout.write(len(answer).to_bytes(4, "big") + answer)
        stdout.flush()
