"""The SQL of the Expert's reviews of finished games (`bot.services.reviews`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from bot.storage.rows import ReviewRow
from bot.storage.sql.base import SQLBase

if TYPE_CHECKING:
    from engine.expert.review import DecisionData

COLUMNS = "game_id, status, attempts, next_ply, decisions, posted, updated_at"


class ReviewSQL(SQLBase):
    """A review per finished game: started once, resumed after a restart, stored when done."""

    async def review(self, game_id: int) -> ReviewRow | None:
        """A game's review, or None when none was asked for."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                f"SELECT {COLUMNS} FROM reviews WHERE game_id = ?", (game_id,)
            )
        return None if row is None else ReviewRow.from_row(row)

    async def start_review(self, game_id: int) -> tuple[ReviewRow, bool]:
        """The game's review, made (status "running", first attempt) when there was none; and
        whether this call made it (two clicks at once make one)."""
        async with self._transaction() as conn:
            made = await conn.execute(
                "INSERT INTO reviews (game_id, status, updated_at) VALUES (?, 'running', ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (game_id, self._clock()),
            )
            row = await conn.fetchrow(
                f"SELECT {COLUMNS} FROM reviews WHERE game_id = ?", (game_id,)
            )
        assert row is not None
        return ReviewRow.from_row(row), made == 1

    async def update_review(
        self,
        game_id: int,
        *,
        status: str | None = None,
        attempts: int | None = None,
        next_ply: int | None = None,
        decisions: list[DecisionData] | None = None,
        posted: int | None = None,
    ) -> None:
        """Store a review's progress (only the fields given)."""
        fields: dict[str, object] = {
            "status": status,
            "attempts": attempts,
            "next_ply": next_ply,
            "decisions": None if decisions is None else json.dumps(decisions),
            "posted": posted,
        }
        given = {k: v for k, v in fields.items() if v is not None}
        sets = ", ".join(f"{k} = ?" for k in given)
        async with self._transaction() as conn:
            await conn.execute(
                f"UPDATE reviews SET {sets}, updated_at = ? WHERE game_id = ?",
                (*given.values(), self._clock(), game_id),
            )

    async def reviews_to_finish(self) -> list[ReviewRow]:
        """The reviews a restart left unfinished: running, or done and not all posted."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT {COLUMNS} FROM reviews WHERE status = 'running' OR status = 'done'"
                " ORDER BY game_id"
            )
        return [ReviewRow.from_row(row) for row in rows]
