"""The SQL of the timer jobs."""

from __future__ import annotations

import logging

from bot.storage.rows import Job
from bot.storage.sql.base import SQLBase

log = logging.getLogger(__name__)


class JobSQL(SQLBase):
    """The timer jobs (`bot.services.scheduler`)."""

    async def claim_due_jobs(self, now: float, limit: int) -> list[Job]:
        """Claim up to `limit` jobs due at `now`, oldest first, in one statement: a job is
        claimed once, by one process (PostgreSQL: rows another process is claiming are
        skipped, not waited for)."""
        async with self._transaction() as conn:
            rows = await conn.fetch(
                "UPDATE timer_jobs SET fired_at = ?, claimed_by = ? WHERE id IN ("
                "SELECT id FROM timer_jobs WHERE fired_at IS NULL AND due_at <= ?"
                f" ORDER BY due_at, id LIMIT ?{self.skip_locked}) RETURNING *",
                (now, self.owner, now, limit),
            )
        return sorted((Job.from_row(r) for r in rows), key=lambda j: (j.due_at, j.id))

    async def finish_job(self, job_id: int, outcome: str) -> None:
        """Record what firing a claimed job did."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE timer_jobs SET outcome = ? WHERE id = ?", (outcome[:1000], job_id)
            )

    async def next_due(self) -> float | None:
        """The due time of the earliest unfired job, or None."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT MIN(due_at) AS due FROM timer_jobs WHERE fired_at IS NULL"
            )
        return None if row is None or row["due"] is None else float(row["due"])

    async def requeue_unfinished_jobs(self, pending: str) -> int:
        """Hand out again the jobs claimed by a process that is gone and never finished, and
        those with a notice still to post (outcome starting with `pending`)."""
        async with self._transaction() as conn:
            return await conn.execute(
                "UPDATE timer_jobs SET fired_at = NULL, claimed_by = NULL"
                " WHERE fired_at IS NOT NULL AND (outcome IS NULL OR substr(outcome, 1, ?) = ?)"
                f" AND {self.orphaned_claim}",
                (len(pending), pending),
            )

    async def prune_finished_jobs(self, pending: str) -> int:
        """Delete the jobs that can never matter again: fired, finished with no notice still
        to post, of a game no longer in its lobby or in play. Returns how many went."""
        async with self._transaction() as conn:
            return await conn.execute(
                "DELETE FROM timer_jobs WHERE fired_at IS NOT NULL AND outcome IS NOT NULL"
                " AND substr(outcome, 1, ?) != ?"
                " AND game_id IN (SELECT id FROM games WHERE status NOT IN ('lobby', 'active'))",
                (len(pending), pending),
            )

    async def retry_job(self, job_id: int, due_at: float) -> None:
        """Plan a job whose handler failed again, at `due_at`."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE timer_jobs SET fired_at = NULL, outcome = NULL, claimed_by = NULL,"
                " due_at = ?, attempts = attempts + 1 WHERE id = ?",
                (due_at, job_id),
            )

    async def timer_jobs(self, game_id: int | None = None) -> list[Job]:
        """Every job (of one game), in id order (for tests and inspection)."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        async with self._reading_one() as conn:
            rows = await conn.fetch(f"SELECT * FROM timer_jobs {where} ORDER BY id", params)
        return [Job.from_row(r) for r in rows]
