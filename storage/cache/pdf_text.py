"""``pdf-text.cache``: the text of the local PDFs, for ``pdf:WORD`` searches (derived, safe to
delete).

One entry per paper with a local copy (``storage.pdfs.folder``): the copy's name, size,
modification time and a digest of its bytes (what the text was made from), its page count,
and its text (``storage.pdfs.text``) or why it could not be read. An entry is believed while
the copy's size and time are those it names; when they differ its digest is compared (a
copied HOME, whose times changed, keeps its texts), and only a copy that differs is read
again. The file is written whole through a temporary file and a rename
(``storage.cache.derived``), and checked before it is believed: a damaged or older-format
file is simply made again, and an entry that holds other than what ``read`` writes (a page
count that is a string, negative or past any PDF's, under a checksum that holds: a crafted
file, a faulty version's) is no entry: its copy is read again.

Reading PDFs is slow Python (pypdf, ~15 ms a page): ``extract_elsewhere`` does it in a child
process (``python -m storage.cache.pdf_text HOME FOLDER``), which saves what it has read
every few papers, so that the app's keys do not share the interpreter with it, and a child
killed midway loses little.

Search folds the texts once (``storage.text.normalize.fold``) and indexes their words (each
word → the papers that have it), then looks for the words in a row, each whole but the last, a
prefix (it may still be being typed), as ``title:`` does with a phrase, in the papers that
have them all; a match gives its page and line, which the paper pane shows. Over 100 PDFs a
query takes ~7 ms (p50), where folding every text per query took ~130 ms
(``python -m benchmarks.pdfs``); the index costs the first ``pdf:`` query of a session ~1 s.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import os
import re
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeGuard

import orjson

from storage.cache.derived import write_derived
from storage.files.atomic import read_regular
from storage.text.normalize import fold

TEXT_FILE: Final = "pdf-text.cache"
#: Bumped by hand when what an entry holds, or how text is read, changes.
FORMAT: Final = 1
_MAGIC: Final = f"papers-tui pdf-text {FORMAT}\n".encode()
#: The child saves what it has read after this many papers (and at its end).
SAVE_EVERY: Final = 5
#: One PDF may take this long to read; a slower one is given up (a hostile file).
READ_LIMIT_S: Final = 60
#: More pages than a PDF under the download cap could have (a page takes ~100 bytes at least):
#: a count past it is no count.
MAX_PAGE_COUNT: Final = 1_000_000
#: A word of the folded texts (letters and digits), as the search splits its query.
_WORDS: Final = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class PdfMatch:
    """Where a search's words are in a paper's PDF: the page (1-based) and the line."""

    page: int
    line: str


def digest_of(path: Path) -> str:
    """A digest of a file's bytes (what its text was made from)."""
    hasher = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()


class PdfTexts:
    """The texts of a HOME's local PDFs, as last read (see the module)."""

    def __init__(self, path: Path, entries: dict[str, dict[str, Any]]) -> None:
        self.path = path
        self.entries = entries
        self._folded: dict[str, str] | None = None
        self._words: tuple[dict[str, set[str]], list[str]] | None = None
        self._lock = threading.Lock()
        self._answers: dict[str, dict[str, PdfMatch]] = {}
        #: Set when ``stale`` renewed entries whose copy only moved or was touched.
        self.renewed = False
        #: Whether the last ``save`` was written (True until one is tried).
        self.saved = True

    @classmethod
    def open(cls, home: Path) -> PdfTexts:
        """The texts saved in ``home`` (none when there is no file, or it is damaged)."""
        path = home / TEXT_FILE
        return cls(path, _load(path))

    def __len__(self) -> int:
        return sum(1 for entry in self.entries.values() if "text" in entry)

    def unreadable(self) -> int:
        """How many PDFs have no text to give (encrypted, damaged): searches miss them."""
        return sum(1 for entry in self.entries.values() if "error" in entry)

    def __contains__(self, paper_id: object) -> bool:
        entry = self.entries.get(paper_id) if isinstance(paper_id, str) else None
        return entry is not None and "text" in entry

    def pages(self) -> dict[str, int]:
        """Paper id → its PDF's page count, for the PDFs read."""
        return {pid: int(e["pages"]) for pid, e in self.entries.items() if e.get("pages")}

    def problem(self, paper_id: str) -> str:
        """Why the paper's PDF could not be read ("" when it was, or was not tried)."""
        return str(self.entries.get(paper_id, {}).get("error", ""))

    # -- what is out of date ------------------------------------------------------------
    def stale(self, copies: Mapping[str, Path]) -> list[str]:
        """The papers whose local copy has no text yet, or another text than it had (their
        entries are renewed where only the copy's name or time changed)."""
        todo = []
        for pid, path in sorted(copies.items()):
            entry = self.entries.get(pid)
            try:
                stat = path.stat()
            except OSError:
                continue
            if entry is not None and entry.get("size") == stat.st_size:
                if entry.get("mtime_ns") == stat.st_mtime_ns and entry.get("name") == path.name:
                    continue
                with contextlib.suppress(OSError):
                    if entry.get("digest") == digest_of(path):
                        entry.update(name=path.name, mtime_ns=stat.st_mtime_ns)
                        self.renewed = True
                        continue
            todo.append(pid)
        return todo

    def forget_missing(self, copies: Mapping[str, Path]) -> bool:
        """Drop the entries of papers with no local copy now; True when some went."""
        gone = [pid for pid in self.entries if pid not in copies]
        for pid in gone:
            del self.entries[pid]
        if gone:
            self._changed()
        return bool(gone)

    def read(self, paper_id: str, path: Path) -> None:
        """Read one copy's text into its entry (or why it cannot be read)."""
        from storage.pdfs.text import PdfTextError, read_pdf_text

        stat = path.stat()
        entry: dict[str, Any] = {
            "name": path.name,
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            "digest": digest_of(path),
        }
        try:
            with _time_limit(READ_LIMIT_S):
                text, pages = read_pdf_text(path)
            entry["text"] = text
            if _is_count(pages, MAX_PAGE_COUNT):  # (a hostile PDF's /Count is any number)
                entry["pages"] = pages
        except PdfTextError as exc:
            entry["error"] = str(exc)
        except TimeoutError:
            entry["error"] = f"unreadable (more than {READ_LIMIT_S} s to read)"
        self.entries[paper_id] = entry
        self._changed()

    def save(self) -> bool:
        """Write the texts (best effort); False when the file could not be written (also
        kept in ``saved``)."""
        body = zlib.compress(orjson.dumps(self.entries), 1)
        check = zlib.crc32(body).to_bytes(4, "big")
        self.saved = write_derived(self.path, [_MAGIC, len(body).to_bytes(8, "big"), check, body])
        return self.saved

    def _changed(self) -> None:
        with self._lock:
            self._folded = None
            self._words = None
            self._answers.clear()

    # -- searching ----------------------------------------------------------------------
    def _texts(self) -> dict[str, str]:
        with self._lock:
            if self._folded is None:
                self._folded = {
                    pid: fold(entry["text"])
                    for pid, entry in self.entries.items()
                    if isinstance(entry.get("text"), str)
                }
                self._words = None
            return self._folded

    def _word_index(self) -> tuple[dict[str, set[str]], list[str]]:
        """Each word of the folded texts → the papers that have it, and the words sorted (a
        prefix is a range of them). Made once (~0.5 s for 100 papers' 4 MB, off the screen's
        thread, with the texts); a search then reads only the papers that have its words."""
        texts = self._texts()
        with self._lock:
            if self._words is None:
                papers: dict[str, set[str]] = {}
                for pid, text in texts.items():
                    for word in set(_WORDS.findall(text)):
                        papers.setdefault(word, set()).add(pid)
                self._words = (papers, sorted(papers))
            return self._words

    def _having(self, words: list[str]) -> set[str]:
        """The papers that have every word (the last as a prefix)."""
        papers, vocabulary = self._word_index()
        found: set[str] | None = None
        for word in words[:-1]:
            having = papers.get(word, set())
            found = set(having) if found is None else found & having
        last = words[-1]
        start = bisect.bisect_left(vocabulary, last)
        prefixed: set[str] = set()
        for word in itertools.islice(vocabulary, start, None):
            if not word.startswith(last):
                break
            prefixed |= papers[word]
        return prefixed if found is None else found & prefixed

    def search(self, value: str) -> dict[str, PdfMatch]:
        """The papers whose PDF has the words of ``value`` (folded) in a row, the last as a
        prefix, and where the first such place is. Answers are remembered per value (typing
        on costs nothing)."""
        words = [w for w in _WORDS.findall(fold(value)) if w]
        key = " ".join(words)
        with self._lock:
            found = self._answers.get(key)
        if found is not None:
            return found
        found = {}
        if words:
            texts = self._texts()
            pattern = re.compile(r"[\W_]+".join(re.escape(w) for w in words))
            for pid in sorted(self._having(words)):
                where = _first_word_match(pattern, texts[pid])
                if where >= 0:
                    found[pid] = self._where(pid, texts[pid], where)
        with self._lock:
            if len(self._answers) > 32:
                self._answers.clear()
            self._answers[key] = found
        return found

    def papers_with(self, value: str) -> set[str]:
        """The ids of the papers whose PDF has ``value`` (``PdfTextSearch``)."""
        return set(self.search(value))

    def has_texts(self) -> bool:
        """Whether any PDF has a text to search (``PdfTextSearch``)."""
        return any("text" in entry for entry in self.entries.values())

    def _where(self, pid: str, folded: str, at: int) -> PdfMatch:
        """The page and the line (as the PDF has it, not folded) of a match at ``at``: the
        folded text has the page breaks and line breaks of the original, so the line is
        found by counting them (no split of the whole text)."""
        page_start = folded.rfind("\f", 0, at) + 1
        page = folded.count("\f", 0, page_start) + 1
        row = folded.count("\n", page_start, at)
        original = str(self.entries[pid]["text"])
        start = 0
        for _ in range(page - 1):
            start = original.find("\f", start) + 1
        for _ in range(row):
            start = original.find("\n", start) + 1
        end = len(original)
        for stop in (original.find("\n", start), original.find("\f", start)):
            if stop >= 0:
                end = min(end, stop)
        return PdfMatch(page, " ".join(original[start:end].split())[:300])


class LazyPdfTexts:
    """``PdfTexts`` of a HOME read on the first search that asks (``PdfTextSearch``): a
    command whose query has no ``pdf:`` never reads them."""

    def __init__(self, home: Path, copies: Callable[[], Collection[str]] | None = None) -> None:
        self.home = home
        self._texts: PdfTexts | None = None
        #: The papers with a local copy now (asked for once, with the texts): a copy deleted
        #: since its text was read is not searched (its text stays until ``forget_missing``).
        self._copies = copies
        self._present: Collection[str] | None = None

    def papers_with(self, value: str) -> set[str]:
        found = self._opened().papers_with(value)
        if self._copies is None:
            return found
        if self._present is None:
            self._present = set(self._copies())
        return {pid for pid in found if pid in self._present}

    def has_texts(self) -> bool:
        return self._opened().has_texts()

    def _opened(self) -> PdfTexts:
        if self._texts is None:
            self._texts = PdfTexts.open(self.home)
        return self._texts


def _first_word_match(pattern: re.Pattern[str], text: str) -> int:
    """Where ``pattern`` first matches at the start of a word (-1: nowhere)."""
    for match in pattern.finditer(text):
        start = match.start()
        if start == 0 or not text[start - 1].isalnum():
            return start
    return -1


def _load(path: Path) -> dict[str, dict[str, Any]]:
    try:
        raw = read_regular(path)
    except OSError:
        return {}
    if not raw.startswith(_MAGIC):
        return {}
    head = len(_MAGIC)
    size = int.from_bytes(raw[head : head + 8], "big")
    check, body = raw[head + 8 : head + 12], raw[head + 12 :]
    if len(body) != size or zlib.crc32(body).to_bytes(4, "big") != check:
        return {}
    try:
        entries = orjson.loads(zlib.decompress(body))
    except (zlib.error, orjson.JSONDecodeError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return {str(pid): entry for pid, entry in entries.items() if _sound(entry)}


def _sound(entry: object) -> bool:
    """Whether ``entry`` holds what ``read`` writes, each value of its kind: a checksum says
    the file is as written, not that what was written is true (a page count of ``"12"``
    ended ``papers queue sort length`` with a ValueError, one of -3 put its paper first)."""
    if not isinstance(entry, dict):
        return False
    stamped = _is_count(entry.get("size")) and _is_int(entry.get("mtime_ns"))
    named = isinstance(entry.get("name"), str) and isinstance(entry.get("digest"), str)
    if not (stamped and named):
        return False
    if "error" in entry:
        return isinstance(entry["error"], str) and "text" not in entry
    pages = entry.get("pages", 0)
    return isinstance(entry.get("text"), str) and _is_count(pages, MAX_PAGE_COUNT)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)  # (True is an int)


def _is_count(value: object, most: float = float("inf")) -> bool:
    """Whether ``value`` is a whole number from 0 to ``most``."""
    return _is_int(value) and 0 <= value <= most


@contextlib.contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    """Raise ``TimeoutError`` in the block after ``seconds`` (the main thread of a Unix
    process only; elsewhere no limit)."""
    import signal

    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError

    before = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def update_texts(
    home: Path,
    copies: Mapping[str, Path],
    progress: Callable[[int, int], None] = lambda done, total: None,
    cancelled: Callable[[], bool] = lambda: False,
    *,
    forget: bool = True,
) -> PdfTexts:
    """Read the texts of the copies that have none yet (in this process), saving as it goes;
    returns the texts (``PdfTexts.saved`` says whether the last save was written). With
    ``forget``, ``copies`` are all the library's (its PDF folder's): the texts of papers not
    among them go; without, they are some more (a download into another folder)."""
    texts = PdfTexts.open(home)
    changed = texts.forget_missing(copies) if forget else False
    todo = texts.stale(copies)
    for done, pid in enumerate(todo, start=1):
        if cancelled():
            break
        with contextlib.suppress(OSError):  # gone meanwhile: next time
            texts.read(pid, copies[pid])
            changed = True
        progress(done, len(todo))
        if done % SAVE_EVERY == 0:
            texts.save()
    if changed or todo or texts.renewed:
        texts.save()
    return texts


def extract_elsewhere(
    home: Path,
    folder: Path,
    progress: Callable[[int, int], None] = lambda done, total: None,
    cancelled: Callable[[], bool] = lambda: False,
) -> bool:
    """``update_texts`` of the PDFs in ``folder`` in a child process (the interpreter stays
    the app's); ``progress(done, total)`` as it goes. True when it finished."""
    from storage.cache import children

    child = children.start(
        "storage.cache.pdf_text", [str(home), str(folder)], stdout=subprocess.PIPE
    )
    if child is None:
        return False
    assert child.stdout is not None
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.1):
            if cancelled():
                child.kill()
                return

    watcher = threading.Thread(target=watch, name="pdf-text-watch", daemon=True)
    watcher.start()
    try:
        for raw in child.stdout:
            parts = raw.split()
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                progress(int(parts[0]), int(parts[1]))
    finally:
        code = child.wait()
        stop.set()
    return code == 0


def _main(argv: list[str]) -> int:
    """``python -m storage.cache.pdf_text HOME FOLDER``: what ``extract_elsewhere`` runs;
    prints ``DONE TOTAL`` after each PDF."""
    from storage.pdfs.folder import PdfFolder

    home, folder = Path(argv[0]), Path(argv[1])
    with contextlib.suppress(AttributeError, OSError):  # behind the app that waits for it
        os.nice(10)

    def say(done: int, total: int) -> None:
        sys.stdout.write(f"{done} {total}\n")
        sys.stdout.flush()

    update_texts(home, PdfFolder(folder).copies(), say)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
