"""Files derived from the library's files: made again when missing, stale or damaged, so that
deleting any of them is always safe (see ARCHITECTURE.md)."""
