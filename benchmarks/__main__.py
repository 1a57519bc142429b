"""``python -m benchmarks [--quick]``: every performance figure of the project, part by part.

Each part measures the naive approach beside ours in the same run and prints ratios, since
these machines are noisy. Parts run in their own interpreter so that one's memory and caches
do not colour the next.
"""

from __future__ import annotations

import subprocess
import sys
import time

PARTS = (
    "github_links", "derived_titles", "storage", "search", "phrases", "similar", "interchange",
    "real_shapes", "hostile_readers", "import_speed", "app", "cli", "sync", "fetch", "glass",
    "pdfs", "lock", "busy_app", "qualifiers", "sync_hostile", "sync_faults", "builds", "exports",
)  # fmt: skip


def main(argv: list[str]) -> int:
    quick = ["--quick"] if "--quick" in argv else []
    only = [a for a in argv if not a.startswith("-")]
    failed = []
    for part in only or PARTS:
        print(f"\n=== benchmarks.{part} {' '.join(quick)}".rstrip(), flush=True)
        start = time.perf_counter()
        args = quick if part not in ("github_links", "derived_titles", "hostile_readers") else []
        code = subprocess.call([sys.executable, "-m", f"benchmarks.{part}", *args])
        print(f"--- {part}: exit {code}, {time.perf_counter() - start:.0f} s", flush=True)
        if code:
            failed.append(part)
    if failed:
        print(f"\nparts that failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
