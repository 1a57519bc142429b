"""``python -m benchmarks._run HEAD COMMAND…``: run a command, report its time and rusage.

Spawned by the benchmark for each command it times, so that the command is forked from this
small process: on Linux a child's peak RSS (``ru_maxrss``) starts at its parent's at the fork,
and the benchmark itself holds hundreds of MB. Reads the command's output (only ``HEAD``
lines when ``HEAD`` > 0, then closes the pipe, as ``| head`` does) and writes one JSON line on
its standard output: seconds from spawn to exit, CPU seconds (user + system, the command's
children included), peak RSS in bytes, exit code, and the end of the command's stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    head, command = int(argv[0]), argv[1:]
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    assert proc.stdout is not None and proc.stderr is not None
    if head <= 0:
        proc.stdout.read()
    else:
        for _ in range(head):
            if not proc.stdout.readline():
                break
    proc.stdout.close()
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    report = {
        "seconds": seconds,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak": usage.ru_maxrss * 1024,
        "code": os.waitstatus_to_exitcode(status),
        "errors": errors.decode("utf-8", "replace")[-500:],
    }
    sys.stdout.write(json.dumps(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
