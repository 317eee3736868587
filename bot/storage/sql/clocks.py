"""The SQL of the turn clocks."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.storage.rows import ClockValues, ClockWrite, DatabaseRow
from bot.storage.sql.base import SQLBase

log = logging.getLogger(__name__)


class ClockSQL(SQLBase):
    """The turn clocks of correspondence games (`bot.services.timers`)."""

    async def turn_clock(self, game_id: int) -> DatabaseRow | None:
        """The clock row of a game's current turn (`CLOCK_COLUMNS`), if planned."""
        async with self._reading_one() as conn:
            return await conn.fetchrow("SELECT * FROM turn_clocks WHERE game_id = ?", (game_id,))

    async def clocks_of_user(self, user_id: int) -> list[DatabaseRow]:
        """The clock rows of every turn a player holds now (in games still being played)."""
        async with self._reading_one() as conn:
            return await conn.fetch(
                "SELECT c.* FROM turn_clocks c JOIN games g ON g.id = c.game_id"
                " WHERE c.user_id = ? AND g.status = 'active' ORDER BY c.game_id",
                (user_id,),
            )

    async def write_turn_clock(
        self, clock: ClockValues, jobs: Sequence[tuple[str, float]], replaced_outcome: str
    ) -> None:
        """Store a turn's clock (values in `CLOCK_COLUMNS` order) and plan its jobs (kind,
        due_at) in one transaction: the unfired jobs of the game, and the fired ones whose
        outcome is `replaced_outcome`, are replaced; a job of the same turn and kind that
        already fired is kept."""
        write = ClockWrite(clock[0], clock, tuple(jobs), replaced_outcome)
        async with self._transaction() as conn:
            await self._write_clock(conn, write)

    async def clear_turn_clock(self, game_id: int) -> None:
        """Remove a game's clock and its unfired jobs."""
        async with self._transaction() as conn:
            await self._write_clock(conn, ClockWrite(game_id))

    async def set_turn_clock_version(self, game_id: int, version: int) -> None:
        """Mark a game's clock as up to date with the game's version (not waited for: a clock
        left behind by a crash is planned again at start, `bot.services.timers.TurnTimers.reconcile`)."""
        async with self._unawaited_transaction() as conn:
            await self._write_clock(conn, ClockWrite(game_id, version=version))

    async def clear_ended_clocks(self) -> None:
        """Remove the clocks and unfired jobs of every game no longer being played."""
        ended = "SELECT id FROM games WHERE status != 'active'"
        async with self._transaction() as conn:
            await conn.execute(f"DELETE FROM turn_clocks WHERE game_id IN ({ended})")
            await conn.execute(
                f"DELETE FROM timer_jobs WHERE fired_at IS NULL AND game_id IN ({ended})"
            )
