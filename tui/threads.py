"""The threads of the app's thread workers: daemons that never keep the process alive.

Textual runs a thread worker (``@work(thread=True)``: the search box's search, the saved
searches, the index, similar papers, topics, an import, copying, opening the browser) with
``loop.run_in_executor(None, …)``: on the event loop's default executor, a
``ThreadPoolExecutor``, whose threads Python waits for when the loop closes
(``asyncio.run`` ends with ``shutdown_default_executor``) and again when the interpreter
exits. A search still running a huge query (a saved search of 1.6 MB: minutes) then kept the
process alive at 100% CPU long after ``q``. ``DaemonThreads`` is the app's default executor
instead: the same reuse of a few threads, but daemon threads, and a ``shutdown`` that waits
for none of them. What such a thread does needs no ending: it only reads, or writes through
the library's atomic transactions, which a process ending at any moment leaves whole.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

# The Textual code this module relies on (a thread worker runs on the loop's default
# executor) is listed, pinned and guarded in tui/upstream.py.

#: As ``ThreadPoolExecutor``'s default: enough for a few slow tasks at once; more wait.
MAX_THREADS = min(32, (os.cpu_count() or 1) + 4)

_Task = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class DaemonThreads(ThreadPoolExecutor):
    """An executor whose threads are daemons and whose ``shutdown`` waits for none.

    (A ``ThreadPoolExecutor`` by type only, as asyncio wants its default executor to be: every
    method that starts, feeds or stops threads is this class's own.)
    """

    def __init__(self, name: str = "papers-worker", max_threads: int = MAX_THREADS) -> None:
        super().__init__(max_threads, thread_name_prefix=name)  # (starts no thread)
        self._name = name
        self._max = max_threads
        self._tasks: queue.SimpleQueue[_Task] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._started: list[threading.Thread] = []
        self._shut = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            future: Future[T] = Future()
            self._tasks.put((future, fn, args, kwargs))
            if not self._idle.acquire(blocking=False) and len(self._started) < self._max:
                thread = threading.Thread(
                    target=self._work, name=f"{self._name}-{len(self._started)}", daemon=True
                )
                self._started.append(thread)
                thread.start()
            return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more tasks; tasks running go on as daemons (``wait`` is not honoured: a
        process that ends does not wait for them), tasks not started never start."""
        with self._lock:
            self._shut = True
        while True:
            try:
                future, *_ = self._tasks.get_nowait()
            except queue.Empty:
                break
            future.cancel()

    def _work(self) -> None:
        while True:
            future, fn, args, kwargs = self._tasks.get()
            if future.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits it
                    if not self._shut:  # else its loop is closed: nobody awaits it any more
                        future.set_exception(exc)
                else:
                    if not self._shut:
                        future.set_result(result)
            del future, fn, args, kwargs
            self._idle.release()

    @property
    def threads(self) -> list[threading.Thread]:
        """The threads started so far (each lives as long as the process)."""
        return list(self._started)
