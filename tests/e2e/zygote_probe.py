"""Run by the launcher in ``tests/e2e/test_zygote.py``: print, as one JSON line, what a process
started for a bot has (its ids, directory, environment, open files), then exit with
``PROBE_EXIT``, or raise with ``PROBE_RAISE``, or wait to be killed with ``PROBE_WAIT``."""

from __future__ import annotations

import json
import os
import sys
import time


def facts() -> dict[str, object]:
    fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    return {
        "pid": os.getpid(),
        "pgid": os.getpgid(0),
        "sid": os.getsid(0),
        "cwd": os.getcwd(),
        "environ": dict(os.environ),
        "argv": sys.argv,
        "fds": [fd for fd in fds if os.path.exists(f"/proc/self/fd/{fd}")],  # (not listdir's own)
        "stdin": os.readlink("/proc/self/fd/0"),
        "stdout_is_stderr": os.path.samestat(os.fstat(1), os.fstat(2)),
        "threads": len(os.listdir("/proc/self/task")),
    }


if __name__ == "__main__":
    print(json.dumps(facts()))
    if os.environ.get("PROBE_RAISE"):
        raise RuntimeError(os.environ["PROBE_RAISE"])
    if os.environ.get("PROBE_WAIT"):
        print("waiting", flush=True)
        time.sleep(600)
    sys.exit(int(os.environ.get("PROBE_EXIT", "0")))
