"""Derived files are named by what ``papers.json`` holds: a copied HOME keeps them, and a
changed ``papers.json`` (however it changed) is never answered from a stale one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import Library
from storage.cache.content_key import KEY_FILE, papers_version, read_record
from storage.cache.papers_cache import PAPERS_CACHE_FILE
from storage.cache.search_index import INDEX_FILE, index_for, load_index
from storage.cache.similar_index import SIMILAR_FILE, load_similarity, similarity_for
from storage.files.atomic import file_content

REPO = Path(__file__).resolve().parents[2]
DERIVED = (PAPERS_CACHE_FILE, INDEX_FILE, SIMILAR_FILE)


def derive_all(home: Path) -> None:
    """Make every derived file of the library as it is (the cache, both indexes)."""
    loaded = Library(home).loaded_papers()
    index_for(home, loaded.sequence(), loaded.content)
    similarity_for(home, loaded.sequence(), loaded.content)


def inodes(home: Path) -> dict[str, int]:
    """The inode of each derived file: a file made again is a new one (written and renamed)."""
    return {name: (home / name).stat().st_ino for name in DERIVED if (home / name).exists()}


def titles(home: Path) -> list[str]:
    return [p.title for p in Library(home).papers()]


@pytest.fixture
def derived_home(seeded_home: Path) -> Path:
    derive_all(seeded_home)
    assert set(inodes(seeded_home)) == set(DERIVED)
    return seeded_home


@pytest.mark.parametrize(
    "copy",
    [shutil.copy, shutil.copy2],
    ids=["cp -r (new inodes and times)", "rsync -a (new inodes, times kept)"],
)
def test_a_copied_home_reuses_every_derived_file(
    derived_home: Path, tmp_path: Path, copy: Callable[[str, str], object]
) -> None:
    copied = tmp_path / "copied"
    shutil.copytree(derived_home, copied, copy_function=copy)
    before = inodes(copied)
    loaded = Library(copied).loaded_papers()
    assert loaded.from_cache  # papers.cache of the original, read as it is
    assert load_index(copied / INDEX_FILE, loaded.content, loaded.sequence()) is not None
    assert load_similarity(copied / SIMILAR_FILE, loaded.content, loaded.sequence()) is not None
    derive_all(copied)
    assert inodes(copied) == before  # nothing made again
    # the copy's papers.json is hashed once: its record names the copy, not the original
    record = read_record(copied / KEY_FILE)
    assert record is not None and record[0].inode == (copied / "papers.json").stat().st_ino
    assert titles(copied) == titles(derived_home)


def test_a_touched_papers_json_keeps_its_derived_files(derived_home: Path) -> None:
    before = inodes(derived_home)
    os.utime(derived_home / "papers.json")  # a new time, the same bytes
    assert Library(derived_home).loaded_papers().from_cache
    derive_all(derived_home)
    assert inodes(derived_home) == before


def same_size_edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in the middle of the file by ``new`` (as long), in place."""
    assert len(old.encode()) == len(new.encode())
    data = path.read_bytes()
    at = data.index(old.encode(), len(data) // 3)
    with path.open("r+b") as handle:  # in place: the same inode
        handle.seek(at)
        handle.write(new.encode())


def test_a_same_size_edit_in_the_middle_is_never_answered_stale(derived_home: Path) -> None:
    path = derived_home / "papers.json"
    shown = titles(derived_home)
    victim = next(t for t in shown[len(shown) // 2 :] if len(t) > 12)
    changed = victim[:-3] + "Qzx"
    same_size_edit(path, victim, changed)
    assert path.stat().st_size == len(path.read_bytes())
    assert changed in titles(derived_home)
    loaded = Library(derived_home).loaded_papers()
    assert not load_index(derived_home / INDEX_FILE, loaded.content, loaded.sequence())
    assert index_for(derived_home, loaded.sequence(), loaded.content).search("qzx")


def test_an_edit_that_puts_the_time_back_is_caught_by_the_change_time(
    derived_home: Path,
) -> None:
    """A program that rewrites the file in place and sets its modification time back (as a
    careless restore tool may) leaves inode, size and time alone; the change time moves."""
    path = derived_home / "papers.json"
    Library(derived_home).loaded_papers()  # the record names this very stamp
    st = path.stat()
    victim = next(t for t in titles(derived_home)[20:] if len(t) > 12)
    same_size_edit(path, victim, victim[:-3] + "Qzx")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = path.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        st.st_ino,
        st.st_size,
        st.st_mtime_ns,
    )
    assert victim[:-3] + "Qzx" in titles(derived_home)


@pytest.fixture
def extra(tmp_path: Path) -> Path:
    """A list of one paper about quokkas."""
    path = tmp_path / "more.txt"
    path.write_text(
        "More\n\nWe study quokka optimisation in depth and propose a method that solves it "
        "well; experiments on many benchmarks show large gains over strong baselines.\n",
        encoding="utf-8",
    )
    return path


def test_an_import_by_another_process_is_seen(derived_home: Path, extra: Path) -> None:
    library = Library(derived_home)
    assert len(library) == 38  # this process knows the old version
    script = "import sys, storage; storage.Library(sys.argv[1]).import_file(sys.argv[2])"
    subprocess.run(
        [sys.executable, "-c", script, str(derived_home), str(extra)],
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert len(library) == 39
    loaded = library.loaded_papers()
    assert index_for(derived_home, loaded.sequence(), loaded.content).search("quokka")


def test_an_older_papers_json_put_back_gets_its_own_papers(
    derived_home: Path, tmp_path: Path
) -> None:
    """A backup put back in place (the same inode, its old time and maybe its old size):
    the derived files of the newer version are not believed."""
    path = derived_home / "papers.json"
    old = tmp_path / "papers.json.old"
    shutil.copy2(path, old)
    old_titles = titles(derived_home)
    Library(derived_home).remove([Library(derived_home).papers()[3].id])
    derive_all(derived_home)
    assert len(titles(derived_home)) == 37
    shutil.copy2(old, path)  # over the file: written in place, its time set back
    assert titles(derived_home) == old_titles
    loaded = Library(derived_home).loaded_papers()
    assert len(index_for(derived_home, loaded.sequence(), loaded.content)) == 38


def test_a_damaged_or_foreign_record_costs_only_a_hash(derived_home: Path) -> None:
    loaded = Library(derived_home).loaded_papers()
    for junk in (b"", b"papers-tui papers.key 1\n1 2 3 4 5 xyz\n", b"\x00" * 600):
        (derived_home / KEY_FILE).write_bytes(junk)
        found = papers_version(Library(derived_home).papers_file, derived_home)
        assert found is not None and found[0][1] == loaded.content and not found[1]
        assert Library(derived_home).loaded_papers().from_cache
    (derived_home / KEY_FILE).unlink()
    assert Library(derived_home).loaded_papers().from_cache
    content = file_content(derived_home / "papers.json")
    assert content is not None and read_record(derived_home / KEY_FILE) == content


def test_the_writer_records_what_it_wrote_without_reading_it_again(
    seeded_home: Path, extra: Path
) -> None:
    library = Library(seeded_home)
    library.import_file(extra)
    known = library.papers_file.known_content()
    assert known is not None and known == file_content(seeded_home / "papers.json")
    assert read_record(seeded_home / KEY_FILE) == known
