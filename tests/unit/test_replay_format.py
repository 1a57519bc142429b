"""The replay's ``FORMAT`` moves with what the readers give (``storage.importing.replay``).

An import that changed nothing is answered next time from ``imports.replay`` without reading
its files, under a key holding ``FORMAT``, bumped by hand when a reader changes what a file
gives. names4 changed the editors the RIS and EndNote readers give (a chapter's ``ED`` and
``A2`` both kept, an EndNote Book's ``%Y`` its editor and ``%E`` its series', EndNote XML's
book editors) without a bump: a library that had imported such a file twice was answered
"unchanged" from the kept report after the upgrade, and kept the wrong editors (an EndNote
Book's series editor as its editor) however often the file was imported again.

Each ``FORMAT`` is recorded here with the fingerprint of what the readers gave for these
records under it: a reader change that alters them fails here until ``FORMAT`` is bumped and
its fingerprint added.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson

from storage.importing.replay import FORMAT
from storage.sources.registry import read_source

RIS = """TY  - CHAP
AU  - Smith, John
TI  - Graph networks for tiny caches
T2  - Handbook of Caches
ED  - Editor, Alice
A2  - Second, Bob
A3  - Series, Carol
PY  - 2020
ER  - 

TY  - EDBOOK
AU  - Editor, Alice
TI  - Handbook of Caches
A2  - Series, Carol
A3  - Tertiary, Dan
PY  - 2020
ER  - 
"""
ENW = """%0 Book
%A Smith, John
%T Caches in practice
%E Series, Carol
%Y Editor, Alice
%D 2019

%0 Book
%A Smith, John
%T Caches in theory
%E Editor, Alice
%D 2018

%0 Edited Book
%A Editor, Alice
%T Handbook of Caches
%E Series, Carol
%Y Tertiary, Dan
%D 2020
"""
XML = """<?xml version="1.0" encoding="UTF-8"?>
<xml><records><record><ref-type name="Book">6</ref-type>
<contributors><authors><author>Smith, John</author></authors>
<secondary-authors><author>Series, Carol</author></secondary-authors>
<tertiary-authors><author>Editor, Alice</author></tertiary-authors></contributors>
<titles><title>Caches in practice</title></titles><dates><year>2019</year></dates>
</record></records></xml>
"""

#: The fingerprint of the records above as read under each ``FORMAT`` (4: before names4).
FINGERPRINTS = {4: "eda0c660c95c1fb3", 5: "843c005aa2c06e3d"}


def fingerprint(folder: Path) -> str:
    """What the readers give for the records above."""
    read = []
    for name, text in (("refs.ris", RIS), ("refs.enw", ENW), ("refs.xml", XML)):
        path = folder / name
        path.write_text(text, encoding="utf-8")
        read.append([orjson.loads(orjson.dumps(r)) for r in read_source(path).records])
    return hashlib.sha256(orjson.dumps(read, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def test_what_the_readers_give_has_its_own_replay_format(tmp_path: Path) -> None:
    found = fingerprint(tmp_path)
    assert FINGERPRINTS.get(FORMAT) == found, (
        f"the readers give other records than under FORMAT {FORMAT} ({found}): bump "
        "storage.importing.replay.FORMAT and add its fingerprint here"
    )
    assert list(FINGERPRINTS.values()).count(found) == 1
