"""What BibTeX entries lend one another: a ``crossref`` parent its fields to the entries naming
it (DBLP's ``@proceedings`` its booktitle, publisher and year to its papers; its ``title`` is
their ``booktitle``), biblatex's ``@xdata`` entries theirs to every entry naming them in its
``xdata``. A parent is no paper but a container, except in a ``crossref`` cycle, whose entries
are papers lending nothing, named in one line. So are, in one line for them all, the entries
whose ``crossref`` names an entry the file does not hold and that lack a venue or a year of
their own (a chapter copied out of a JabRef library without its book): they come without what
their parent would have lent them. DBLP's entries name their volume too, but hold its booktitle
and year themselves: nothing is said of them.

Keys are looked up as BibTeX looks them up: as written, else in any letter case. Linear in the
entries: every entry names at most one parent, and chains are followed ``_CROSSREF_DEPTH`` deep.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

__all__ = ["Entry", "Lending", "lending"]

#: How deep ``crossref`` chains are followed (BibTeX itself follows one).
_CROSSREF_DEPTH: Final = 4
#: The ``@xdata`` entries an entry takes fields from, at most (its keys, theirs in turn).
_XDATA_MAX: Final = 8
#: Entries of a cycle, or keys, named in a warning, at most.
_NAMED: Final = 5
#: A parent's fields that are its own, not its children's: the volume's link, DOI and
#: identity (DBLP's ``@proceedings`` url is the volume's page; a paper with its own DOI and
#: no url took it), as are BibDesk's links and Mendeley's arXiv id; a subtitle is the title's.
_NOT_INHERITED: Final = frozenset(
    {"crossref", "ids", "url", "doi", "biburl", "bibsource", "timestamp", "eprint", "arxivid"}
    | {"remote-url", "subtitle"}
)


class Entry(Protocol):
    """An entry as ``storage.sources.bibtex`` reads it: its key, type, fields (names in lower
    case, macros resolved), its record's number and how a message names it."""

    key: str
    kind: str
    number: int
    fields: dict[str, str]

    @property
    def label(self) -> str: ...


@dataclass(slots=True)
class Lending:
    """Who lends to whom in a file's entries: each entry's ``crossref`` parent (its index, or
    None), the entries on a cycle, the containers (no papers), and what is said of them."""

    parents: list[int | None]
    on_cycle: set[int] = field(default_factory=set)
    containers: set[int] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)

    def fields_of(self, entries: Sequence[Entry], index: int) -> dict[str, str]:
        """An entry's fields with what its ``crossref`` parents give (what a cycle would lend
        is not taken)."""
        if index in self.on_cycle:
            return entries[index].fields
        return _inherit(entries, self.parents, index)


def lending(entries: Sequence[Entry], source: str) -> Lending:
    """Who lends to whom (see the module); each entry's ``xdata`` fields are taken into its
    own here."""
    find = _finder(entries)
    for index, entry in enumerate(entries):
        if entry.fields.get("xdata"):
            _with_xdata(entries, find, index)
    lent = Lending(parents=[find(entry.fields.get("crossref", "")) for entry in entries])
    for cycle in _cycles(lent.parents):
        lent.on_cycle.update(cycle)
        keys = [entries[i].key or "(no key)" for i in cycle]
        shown = " → ".join([*keys[:_NAMED], keys[0]] if len(keys) <= _NAMED else keys[:_NAMED])
        more = "" if len(keys) <= _NAMED else f" → … ({len(keys):,} entries)"
        lent.warnings.append(
            f"{source}: crossref cycle {shown}{more}: read as papers, each without the fields "
            "the cycle would lend it"
        )
    lent.containers = {p for p in lent.parents if p is not None} - lent.on_cycle
    lent.containers.update(i for i, entry in enumerate(entries) if entry.kind == "xdata")
    orphans = [
        (i, lacking)
        for i, entry in enumerate(entries)
        if lent.parents[i] is None
        and i not in lent.containers
        and entry.fields.get("crossref", "").strip()
        and (lacking := _lacking(entry.fields))
    ]
    if orphans:
        lent.warnings.append(_orphans(entries, orphans, source))
    return lent


#: The fields that name where an entry appeared, one of which a ``crossref`` parent lends.
_VENUES: Final = ("booktitle", "journal", "journaltitle", "eventtitle", "maintitle", "series")


def _lacking(fields: dict[str, str]) -> list[str]:
    """What an entry lacks that a ``crossref`` parent would lend it: its venue, its year."""
    dated = fields.get("year", "").strip() or fields.get("date", "").strip()
    placed = any(fields.get(name, "").strip() for name in _VENUES)
    return [name for name, lacks in (("venue", not placed), ("year", not dated)) if lacks]


def _orphans(entries: Sequence[Entry], orphans: list[tuple[int, list[str]]], source: str) -> str:
    """The one line for the entries whose ``crossref`` names no entry of the file: the first
    of them, how many, the keys they name and what they come without."""
    first = entries[orphans[0][0]]
    named = (" ".join(entries[i].fields["crossref"].split()) for i, _ in orphans)
    keys = list(dict.fromkeys(k if len(k) <= 60 else k[:60] + "…" for k in named))
    more = f" and {len(keys) - _NAMED:,} more" if len(keys) > _NAMED else ""
    shown = ", ".join(keys[:_NAMED]) + more
    lacking = {name for _, names in orphans for name in names}
    without = " and ".join(n for n in ("venue", "year") if n in lacking)
    if len(orphans) == 1:
        return (
            f"{source}: record {first.number}: {first.label} names a crossref the file does "
            f"not hold ({shown}): imported without the {without} it would lend"
        )
    return (
        f"{source}: {len(orphans):,} entries name a crossref the file does not hold ({shown}; "
        f"the first, record {first.number}: {first.label}): imported without the {without} "
        "it would lend them"
    )


def _finder(entries: Sequence[Entry]) -> Callable[[str], int | None]:
    """The index of the entry a key names: the key as written, else in any letter case (as
    BibTeX looks it up); None for none."""
    exact: dict[str, int] = {}
    folded: dict[str, int] = {}
    for i, entry in enumerate(entries):
        exact.setdefault(entry.key, i)
        folded.setdefault(entry.key.casefold(), i)

    def find(name: str) -> int | None:
        name = name.strip()
        return exact.get(name, folded.get(name.casefold())) if name else None

    return find


def _with_xdata(entries: Sequence[Entry], find: Callable[[str], int | None], index: int) -> None:
    """Entry ``index`` with the fields of the ``@xdata`` entries its ``xdata`` names (biblatex's
    data written once for many entries: a proceedings' booktitle, publisher and year) as its
    own: its own fields first, then those of the first key's entry, and of the ones theirs
    name in turn."""
    fields = entries[index].fields
    pending = [k for k in fields.get("xdata", "").split(",") if k.strip()][:_XDATA_MAX]
    seen = {index}
    while pending and len(seen) <= _XDATA_MAX:
        source = find(pending.pop(0))
        if source is None or source in seen:
            continue
        seen.add(source)
        for name, value in entries[source].fields.items():
            if name not in ("xdata", "crossref", "ids"):
                fields.setdefault(name, value)
        pending.extend(k for k in entries[source].fields.get("xdata", "").split(",") if k.strip())
        del pending[_XDATA_MAX:]


def _cycles(parents: list[int | None]) -> list[list[int]]:
    """The ``crossref`` cycles among the entries (their indexes), in linear time: every entry
    names at most one parent, so each walk ends at a root, a walk already done, or a cycle."""
    state = [0] * len(parents)  # 0 not seen, 1 on the current walk, 2 done
    cycles: list[list[int]] = []
    for start in range(len(parents)):
        walk: list[int] = []
        node: int | None = start
        while node is not None and state[node] == 0:
            state[node] = 1
            walk.append(node)
            node = parents[node]
        if node is not None and state[node] == 1:
            cycles.append(walk[walk.index(node) :])
        for seen in walk:
            state[seen] = 2
    return cycles


def _inherit(entries: Sequence[Entry], parents: list[int | None], index: int) -> dict[str, str]:
    """An entry's fields with what its ``crossref`` parents give (a parent's ``title`` is
    the ``booktitle`` of its children)."""
    fields = dict(entries[index].fields)
    seen = {index}
    parent = parents[index]
    for _ in range(_CROSSREF_DEPTH):
        if parent is None or parent in seen:
            break
        seen.add(parent)
        for name, value in entries[parent].fields.items():
            if name == "title":
                fields.setdefault("booktitle", value)
            elif name not in _NOT_INHERITED and not name.startswith("bdsk-url-"):
                fields.setdefault(name, value)
        parent = parents[parent]
    return fields
