"""What names the version of ``papers.json`` a derived file was made from: its content.

A derived file (``papers.cache``, ``search.index``, ``similar.index``) names the
``FileContent`` of the ``papers.json`` it was made from (its size and SHA-256), not its
signature (inode, size, modification time): a copied HOME (``cp -r``, rsync, a backup put
back) has new inodes and times but the same contents, and starts as fast as the original,
no derived file made again; a changed ``papers.json`` (an edit of the same size included) has
another content, so no derived file of an older version is ever believed.

Hashing 180 MB takes ~0.3 s, too long for every ``papers list``. The content of each version
is therefore recorded in ``papers.key`` beside it, with that version's signature: when
``papers.json`` still has that signature, its content is the one recorded (the signature is
the fast path, as it was the whole key before); otherwise (a copy, a ``touch``, an edit by
another program, an older file put back) the file is hashed once and the record made anew.
The stamp is the signature and the inode's change time, which a program that rewrites the file
in place and puts its modification time back cannot set back. The process that writes
``papers.json`` hashes it as it writes (``PapersFile.known_content``), so its own next read
costs nothing either. ``papers.key`` is derived data too: deleting it
costs one hash.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Final

from storage.cache.derived import write_derived
from storage.files.atomic import FileContent, FileStamp, file_content, open_regular, stamp
from storage.files.papers_file import PapersFile

KEY_FILE: Final = "papers.key"
_MAGIC: Final = b"papers-tui papers.key 1\n"
#: Longer than any record: a file larger than this is not one.
_MAX_BYTES: Final = 512

#: A version of ``papers.json``: its stamp (where it is, now) and its content (what it holds).
Version = tuple[FileStamp, FileContent]


def papers_version(papers_file: PapersFile, home: Path) -> tuple[Version, bool] | None:
    """The signature and content of ``papers.json`` as it is now (None: there is none), and
    whether ``papers.key`` says so already (else the caller records it once the file
    proved readable: a damaged file is not recorded).

    ``OSError`` when it exists but cannot be read.
    """
    now = stamp(papers_file.path)
    if now is None:
        return None
    recorded = read_record(home / KEY_FILE)
    if recorded is not None and recorded[0] == now:
        return recorded, True
    known = papers_file.known_content()
    found = known if known is not None and known[0] == now else file_content(papers_file.path)
    return None if found is None else (found, False)


def record(home: Path, version: Version) -> None:
    """Remember the content of ``papers.json`` of this signature (best effort)."""
    if read_record(home / KEY_FILE) == version:
        return
    at, content = version
    if at.ctime_ns < 0:
        return  # a stamp that no file on disk has
    line = f"{at.inode} {at.size} {at.mtime_ns} {at.ctime_ns} {content.size} {content.sha256}\n"
    write_derived(home / KEY_FILE, [_MAGIC, line.encode("ascii")])


def read_record(path: Path) -> Version | None:
    """The signature and content ``papers.key`` records, if it is whole and ours."""
    with contextlib.suppress(OSError), open_regular(path) as handle:
        data = handle.read(_MAX_BYTES + 1)
        if len(data) > _MAX_BYTES or not data.startswith(_MAGIC) or not data.endswith(b"\n"):
            return None
        fields = data[len(_MAGIC) : -1].split(b" ")
        if len(fields) != 6 or not all(f.isdigit() for f in fields[:5]):
            return None
        digest = fields[5].decode("ascii", "replace")
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            return None
        inode, size, mtime, ctime, content_size = map(int, fields[:5])
        if size != content_size:
            return None
        return FileStamp(inode, size, mtime, ctime), FileContent(content_size, digest)
    return None
