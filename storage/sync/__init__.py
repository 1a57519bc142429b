"""Sync between machines: libraries merged through any folder a file-sync tool or git carries.

Each device appends its changes, as records, to its own logs in the folder and reads every
other device's (``folder``); records are last-writer-wins registers ordered by a hybrid logical
clock (``records``), so every device that has read the same records shows the same library
whatever order they arrived in; a note or tags another device replaced without seeing them are
kept with its by one record more (``both``). What changed here is found by comparing the
library's files with the registers (``local``); the merge is folded and planned (``merge``) and
written through the library's own locked, atomic transactions (``apply``); ``run`` holds one
sync together and ``status`` tells what the folder holds. The device's identity is ``device``;
what it remembers of a folder, ``state``.
"""

from storage.sync.device import Device
from storage.sync.folder import SyncError
from storage.sync.run import SyncReport, sync_library

__all__ = ["Device", "SyncError", "SyncReport", "sync_library"]
