"""The scheduler: fires each due job (a turn deadline or a reminder) exactly once.

Jobs live in the database (`timer_jobs`, schema version 4), so they survive restarts; the
scheduler holds nothing but a wake-up event. It claims each due job in a transaction
(``UPDATE ... SET fired_at = ? WHERE id = ? AND fired_at IS NULL``: a job is claimed once, by one
scheduler), hands it to the handler, and stores the handler's outcome. Then it sleeps until the
next due time, or until poked because a job was added (`poke`). After downtime the first pass
claims everything that came due meanwhile, oldest first.

Several processes may share one PostgreSQL database: each claims due jobs with ``FOR UPDATE
SKIP LOCKED`` under its own process id, hands out again only the unfinished jobs of processes
that are gone (at start and at every pass), and wakes at least every `SHARED_POLL` seconds.

Besides the jobs, the scheduler runs its chores (`Chore`): work due at times of its own, not
tied to a game, such as storing the final standings of a season that ended
(`PlayerService.season_chore`). Each runs at the loop's first pass (catching up after downtime),
then at the time it names; a poke wakes the loop for them too (the test clock moved). A chore
stores its work once however often it runs, and in whichever process runs it first.

Each job is tied to one turn of one game (`bot.services.timers`): the handler checks that the turn is still
being played, so a job whose turn is over does nothing (outcome ``void``). That makes every job
safe to run again:

- a job claimed but never finished (the process died in between) is handed out again at the
  next start (`requeue_unfinished`). A deadline whose turn was played meanwhile is void; a
  reminder is sent if its turn is still on and its deadline still ahead (else ``void`` or
  ``moot``). A crash after sending a reminder and before its outcome was stored sends it
  again with the same nonce (`bot.discord.cogs.correspondence.job_nonce`): Discord hands back the
  message it made (within a few minutes) instead of a second one.
- a deadline whose handler raised is planned again (`JobStore.retry`) after `RETRY_BACKOFF`
  seconds, doubling each time, at most `MAX_ATTEMPTS` times in all; then its outcome stays
  ``error: ...`` (logged as an error). A reminder that failed is not sent again.
- a job whose handler already did its work but has a notice left to post (outcome starting
  with `PENDING`, stored by the handler before posting it) is handed out again at the next
  start too, and the handler then only posts the notice, with the job's own nonce: posted
  once, however alike the notices of other jobs are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.services.clock import Clock
from bot.storage import Job, Storage

__all__ = ["Job", "JobStore", "Scheduler"]

log = logging.getLogger(__name__)

#: Kinds of job planned again when their handler fails (idempotent by turn).
RETRIED_KINDS = ("deadline",)
#: A failed job is planned again this many seconds later, doubled at each further failure...
RETRY_BACKOFF = 60.0
#: ...until it has been run this many times in all.
MAX_ATTEMPTS = 5
#: The outcome prefix of a job whose work is done but whose notice is not posted yet.
PENDING = "pending notice: "
#: Pause after an unexpected error in the loop itself (not in a handler).
ERROR_BACKOFF = 5.0
#: With several processes on one database (PostgreSQL), the longest sleep between passes: a job
#: planned by another process, or left by one that died, is picked up within this time.
SHARED_POLL = 30.0


class JobStore:
    """The scheduler's view of the timer jobs (`Storage`'s job queries)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def claim_due(self, now: float, limit: int = 100) -> list[Job]:
        """Claim up to `limit` jobs due at `now`, oldest first, in one transaction."""
        return await self.storage.claim_due_jobs(now, limit)

    async def finish(self, job_id: int, outcome: str) -> None:
        """Record what firing a claimed job did."""
        await self.storage.finish_job(job_id, outcome)

    async def next_due(self) -> float | None:
        """The due time of the earliest unfired job, or None."""
        return await self.storage.next_due()

    async def requeue_unfinished(self) -> int:
        """Hand out again the jobs claimed (by a process now gone) but never finished, and
        those with a notice still to post (a crash in between; see the module docstring)."""
        return await self.storage.requeue_unfinished_jobs(PENDING)

    async def prune_finished(self) -> int:
        """Delete the jobs that can never matter again (see `Storage.prune_finished_jobs`)."""
        return await self.storage.prune_finished_jobs(PENDING)

    async def retry(self, job_id: int, due_at: float) -> None:
        """Plan a job whose handler failed again, at `due_at`."""
        await self.storage.retry_job(job_id, due_at)

    async def jobs(self, game_id: int | None = None) -> list[Job]:
        """Every job (of one game), in id order (for tests and inspection)."""
        return await self.storage.timer_jobs(game_id)


Handler = Callable[[Job], Awaitable[str]]
#: Work the scheduler runs at times of its own, not a job of a game (the end of a season:
#: `PlayerService.season_chore`): it returns when to run it again (UNIX time; None: never).
#: It must be safe to run again and in several processes at once (each stores its work once).
Chore = Callable[[], Awaitable[float | None]]


class Scheduler:
    """Runs `handler(job)` once for each job as it comes due; see the module docstring.

    `concurrency` jobs run at a time (each game has its own lock in the service layer).
    """

    def __init__(
        self,
        store: JobStore,
        clock: Clock,
        handler: Handler,
        *,
        batch: int = 100,
        concurrency: int = 8,
        poll: float | None = None,
        chores: Sequence[Chore] = (),
    ) -> None:
        """`poll`: the longest sleep between passes, for a database shared by several processes
        (`SHARED_POLL`); each pass then also hands out again the unfinished jobs of processes
        that died. None: one process plans every job itself and is poked. `chores` run at the
        loop's first pass, then whenever the time each named comes (a failed one: again after
        `ERROR_BACKOFF`)."""
        self.chores = list(chores)
        #: When each chore runs next (None: never again).
        self._chores_due: list[float | None] = [0.0 for _ in self.chores]
        self.store = store
        self.clock = clock
        self.handler = handler
        self.batch = batch
        self.poll = poll
        self._wake = asyncio.Event()
        self._limit = asyncio.Semaphore(concurrency)
        self._task: asyncio.Task[None] | None = None
        self.fired = 0  # jobs handed to the handler since start
        self.passes = 0  # claim passes since start (how often the loop woke)

    def poke(self) -> None:
        """Wake the loop: a job was added or time moved (the test clock)."""
        self._wake.set()

    def start(self, before: Callable[[], Awaitable[None]] | None = None) -> None:
        """Start the loop as a task; `before` is awaited first (e.g. until the bot is ready)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(before))

    async def stop(self) -> None:
        """Cancel the loop and wait for it (a job being fired is cancelled with it)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_due(self) -> int:
        """One pass: claim every job due now and fire them. Returns how many were claimed."""
        self.passes += 1
        jobs = await self.store.claim_due(self.clock.now(), self.batch)
        if jobs:
            await asyncio.gather(*(self._fire(job) for job in jobs))
        return len(jobs)

    async def _fire(self, job: Job) -> None:
        async with self._limit:
            try:
                outcome = await self.handler(job)
            except Exception as exc:
                extra = {"job_id": job.id, "game_id": job.game_id, "attempts": job.attempts + 1}
                outcome = f"error: {type(exc).__name__}"
                if job.kind in RETRIED_KINDS and job.attempts + 1 < MAX_ATTEMPTS:
                    log.exception("job failed, planned again", extra=extra)
                    self.fired += 1
                    due = self.clock.now() + RETRY_BACKOFF * 2**job.attempts
                    await self.store.retry(job.id, due)
                    return
                log.exception("job failed", extra=extra)
            self.fired += 1
            await self.store.finish(job.id, outcome)
            log.info(
                "job fired",
                extra={
                    "job_id": job.id,
                    "game_id": job.game_id,
                    "kind": job.kind,
                    "outcome": outcome,
                },
            )

    async def run_chores(self) -> float | None:
        """Run the chores whose time has come; the earliest time one runs next (None: none)."""
        for index, chore in enumerate(self.chores):
            due = self._chores_due[index]
            if due is None or due > self.clock.now():
                continue
            try:
                self._chores_due[index] = await chore()
            except Exception:
                log.exception("scheduler chore failed", extra={"chore": index})
                self._chores_due[index] = self.clock.now() + ERROR_BACKOFF
        return min((d for d in self._chores_due if d is not None), default=None)

    async def _run(self, before: Callable[[], Awaitable[None]] | None) -> None:
        if before is not None:
            await before()
        requeued = await self.store.requeue_unfinished()
        if requeued:
            log.warning("deadlines handed out again after a crash", extra={"count": requeued})
        log.info("finished timer jobs pruned", extra={"count": await self.store.prune_finished()})
        while True:
            self._wake.clear()  # before reading: a poke from now on is not lost
            try:
                if self.poll is not None and await self.store.requeue_unfinished():
                    log.warning("jobs of a process that died handed out again")
                # A read first: a pass with nothing due (a poke for a job due later) claims
                # nothing, and so takes no write (on SQLite, one writer: plays wait behind it).
                chores_due = await self.run_chores()
                next_due = await self.store.next_due()
                if next_due is not None and next_due <= self.clock.now() and await self.run_due():
                    continue
                if chores_due is not None:
                    next_due = chores_due if next_due is None else min(next_due, chores_due)
            except Exception:
                log.exception("scheduler pass failed")
                await asyncio.sleep(ERROR_BACKOFF)
                continue
            if self.poll is not None:
                limit = self.clock.now() + self.poll
                next_due = limit if next_due is None else min(next_due, limit)
            await self.clock.sleep_until(next_due, self._wake)
