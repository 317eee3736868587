"""The SQL of the tutorial: each learner's progress in `/ps learn`."""

from __future__ import annotations

from bot.storage.sql.base import SQLBase


class TutorialSQL(SQLBase):
    """A learner's progress, stored as the text `engine.tutorial.Progress.to_json` makes."""

    async def tutorial_progress(self, user_id: int) -> str | None:
        """A learner's stored progress (None: they never started)."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT progress FROM tutorial_progress WHERE user_id = ?", (user_id,)
            )
        return None if row is None else str(row["progress"])

    async def set_tutorial_progress(self, user_id: int, progress: str) -> None:
        """Store a learner's progress (replacing what was stored)."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO tutorial_progress (user_id, progress, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET progress = excluded.progress,"
                " updated_at = excluded.updated_at",
                (user_id, progress, self._clock()),
            )
