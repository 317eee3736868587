"""A small pool of worker processes for CPU work the event loop must not do itself.

The board pictures (`bot.present.pictures`) and the Expert's decisions (`bot.services.experts`) are pure Python
that holds the GIL: in a thread of the bot's process they would stall the event loop, so each
runs in a pool of its own worker processes and the event loop only waits for the answer.

A `WorkerPool` is started on first use (a forkserver that has imported `preload`, each worker
then running `warm` before its first real job), replaced when a worker dies (the job is then
run again in the new pool), and stopped by `close`. With no workers (0), or once closed, a job
runs in a thread of the bot's own process instead.

A bot killed outright (SIGKILL, the OOM killer) cannot stop its workers, and they would wait for
jobs forever: every worker watches the process that owns its pool (`_watch_owner`, a pidfd, else
polling) and exits by itself as soon as that process is gone. The forkserver exits by itself when
its owner is gone (multiprocessing's own "alive" pipe reaches its end).
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Generic, Protocol, TypeVar, TypeVarTuple

from bot.config import ConfigError

T = TypeVar("T")
Args = TypeVarTuple("Args")


class Closable(Protocol):
    """What `ProcessWide` makes: an object with resources to release (`close`)."""

    def close(self) -> None: ...


C = TypeVar("C", bound=Closable)


def workers_from_env(variable: str, env: dict[str, str] | None = None) -> int:
    """The number of workers `variable` asks for, else one per core (at most 2)."""
    value = (os.environ if env is None else env).get(variable, "").strip()
    if not value:
        return min(2, os.cpu_count() or 1)
    if not value.isdigit():
        raise ConfigError(f"{variable} must be a whole number (0 or more), not {value!r}.")
    return int(value)


#: How often a worker checks its owner where a pidfd cannot tell it (seconds).
OWNER_POLL_S = 0.5


def _watch_owner(owner: int, niceness: int = 0) -> None:
    """In a worker, first thing: exit as soon as the process `owner` (the bot) is gone; run
    `niceness` steps below the bot's priority."""
    if niceness:
        os.nice(niceness)
    threading.Thread(target=_exit_with, args=(owner,), name="owner-watch", daemon=True).start()


def _exit_with(owner: int) -> None:
    try:
        pidfd = os.pidfd_open(owner)  # Linux 5.3+: readable once the process has exited
    except (AttributeError, OSError):  # another system, or `owner` is already gone
        pidfd = None
    if pidfd is not None:
        select.select([pidfd], [], [])
    else:
        while _alive(owner):
            time.sleep(OWNER_POLL_S)
    os._exit(0)  # the owner is gone: nobody will ever send a job or read an answer


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user: alive
        return True
    return True


class WorkerPool:
    """Runs picklable functions in worker processes (see the module docstring)."""

    def __init__(
        self,
        workers: int,
        *,
        preload: Sequence[str] = (),
        warm: Callable[[], object] | None = None,
        niceness: int = 0,
    ) -> None:
        """`niceness`: the workers' lower priority (`os.nice`), for long work that must never
        take the CPU from the bot's event loop (the Expert's thinking, on a busy machine)."""
        self.workers = workers
        self.niceness = niceness
        self.preload = list(preload)
        self.warm = warm
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _executor(self) -> Executor | None:
        with self._lock:
            if self._closed or self.workers <= 0:
                return None
            if self._pool is None:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(self.preload)
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=ctx,
                    initializer=_watch_owner,
                    initargs=(os.getpid(), self.niceness),
                )
                if self.warm is not None:
                    for _ in range(self.workers):
                        self._pool.submit(self.warm)
            return self._pool

    def _replace(self, broken: Executor) -> None:
        """Drop a pool whose worker died (the next job starts a new one)."""
        with self._lock:
            if self._pool is not broken:
                return
            self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def run(self, function: Callable[[*Args], T], *args: *Args) -> T:
        """`function(*args)` in a worker (once more in a fresh pool if a worker died meanwhile;
        in a thread when there are no workers)."""
        for _ in range(2):
            # Starting a pool, and a job that starts a worker, wait for the forkserver to fork
            # (seconds on a busy machine, the first time): never in the event loop.
            pool = await asyncio.to_thread(self._executor)
            if pool is None:
                break
            try:
                future = await asyncio.to_thread(functools.partial(pool.submit, function, *args))
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                if self._closed:  # terminated by `close`: the job is dropped, not redone
                    raise
                self._replace(pool)
        return await asyncio.to_thread(function, *args)

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none before the first job)."""
        with self._lock:
            pool = self._pool
        return sorted(pool._processes or {}) if pool is not None else []

    def close(self, *, terminate: bool = False) -> None:
        """Stop the workers after the jobs under way, or at once (`terminate`: the jobs under
        way are lost); later jobs run in a thread."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is None:
            return
        if terminate:
            for process in list((pool._processes or {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


class ProcessWide(Generic[C]):
    """One object for the whole process (the drawer, the Experts): made on first use by `make`,
    closed and forgotten by `shutdown` (the bot calls it when it closes; a later use makes a new
    one)."""

    def __init__(self, make: Callable[[], C]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._current: C | None = None

    def get(self) -> C:
        with self._lock:
            if self._current is None:
                self._current = self._make()
            return self._current

    def shutdown(self) -> None:
        with self._lock:
            current, self._current = self._current, None
        if current is not None:
            current.close()
