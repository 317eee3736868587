"""`bot.workers`: a bot killed outright (SIGKILL) leaves no worker process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: A process owning a pool of two workers: it prints their pids and its forkserver's, then waits.
OWNER = """
import asyncio, json, os, sys
from multiprocessing import forkserver
from bot.workers import WorkerPool

async def main():
    pool = WorkerPool(2, warm=os.getpid)
    assert await pool.run(os.getpid) in pool.worker_pids()
    print(json.dumps({
        "workers": pool.worker_pids(),
        "forkserver": forkserver._forkserver._forkserver_pid,
    }), flush=True)
    sys.stdin.read()  # until killed

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Whether `pid` is a process that still runs (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_workers_and_the_forkserver_exit_when_their_owner_is_killed() -> None:
    with subprocess.Popen(  # its pipes closed when done
        [sys.executable, "-c", OWNER],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as owner:
        try:
            pids = json.loads(owner.stdout.readline())  # type: ignore[union-attr]
            children = [*pids["workers"], pids["forkserver"]]
            assert len(pids["workers"]) == 2
            assert all(_running(pid) for pid in children)
            owner.send_signal(signal.SIGKILL)
            assert owner.wait(timeout=10) == -signal.SIGKILL
            deadline = time.monotonic() + 10
            while any(_running(pid) for pid in children) and time.monotonic() < deadline:
                time.sleep(0.05)  # polling: they go as soon as they notice
            assert [pid for pid in children if _running(pid)] == []
        finally:
            if owner.poll() is None:
                owner.kill()
                owner.wait()
            for pid in locals().get("children", []):
                if _running(pid):
                    os.kill(pid, signal.SIGKILL)


async def test_the_experts_workers_run_below_the_bots_priority() -> None:
    """The Expert thinks at a lower priority than the bot answers clicks (issue 46: a click is
    answered within Discord's 3 s while a strong Expert thinks on a busy machine)."""
    from bot.services.experts import EXPERT_NICENESS, Experts

    experts = Experts(workers=1, scale=1.0)
    try:
        assert (
            await experts._pool.run(os.nice, 0) == os.nice(0) + EXPERT_NICENESS == os.nice(0) + 10
        )
    finally:
        experts.close()
