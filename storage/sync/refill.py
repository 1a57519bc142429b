"""The documents of papers a library lacks (papers.json lost, or put back from an older copy),
read again from the sync folder's logs: only the record that holds each paper's register."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import orjson

from storage.sync.folder import SyncFolder
from storage.sync.records import PAPER, Record, parse_record
from storage.sync.state import SyncState, register_of


def missing_here(state: SyncState, here: Collection[str], changed: Collection[str]) -> set[str]:
    """The papers the registers hold that the library lacks (``here``), but for those this
    sync's merge brings (``changed``) and those whose document was not found or not taken
    before (``SyncState.unavailable``) while their register holds the same."""
    unavailable = state.unavailable
    return {
        pid
        for pid, held in state.registers[PAPER].items()
        if held[2] is not None
        and pid not in here
        and pid not in changed
        and unavailable.get(pid) != held[2]
    }


def still_unavailable(
    state: SyncState,
    coming: Collection[str],
    unusable: Collection[str],
    here: Collection[str],
) -> dict[str, str]:
    """The papers to keep as not found or not taken (``SyncState.unavailable``): those kept
    so that a merge neither brings (``coming``) nor finds here, while their registers hold
    the same; and those whose records this merge could not take (``unusable``)."""
    registers = state.registers[PAPER]
    unavailable = {
        pid: digest
        for pid, digest in state.unavailable.items()
        if pid not in coming
        and pid not in here
        and (registers.get(pid) or [0, "", None])[2] == digest
    }
    for pid in unusable:
        held = registers.get(pid)
        if held is not None and held[2] is not None:
            unavailable[pid] = held[2]
    return unavailable


def documents_from_logs(
    place: SyncFolder, state: SyncState, wanted: set[str]
) -> dict[str, dict[str, Any]]:
    """The documents the registers hold for ``wanted`` papers, from every log read from
    its start (and from this device's records still to be written): only the record
    that holds each register."""
    registers = state.registers[PAPER]
    found: dict[str, dict[str, Any]] = {}

    def take(records: Iterable[Record]) -> None:
        for record in records:
            if record.kind != PAPER or record.paper not in wanted or record.value is None:
                continue
            held = registers.get(record.paper)
            if held is not None and register_of(record) == held[:3]:
                found[record.paper] = record.value

    take(records_of_rows(row for row in state.outbox if row[0] == PAPER))
    for log in place.log_files():
        cursor = None
        while len(found) < len(wanted):
            try:
                read = place.read(log, cursor, take)
            except OSError:
                break  # said when the log was read for its new records
            if not read.more or read.cursor == cursor:
                break  # read to its end, or to bytes that have not arrived yet
            cursor = read.cursor
    return found


def records_of_rows(rows: Iterable[list[Any]]) -> list[Record]:
    found = (parse_record(orjson.dumps(row)) for row in rows)
    return [record for record in found if record is not None]
