"""The SQL of the action log and the snapshots."""

from __future__ import annotations

import json
import logging

from bot.storage.errors import DamagedSnapshot
from bot.storage.rows import ActionRow, read_text
from bot.storage.sql.base import SQLBase

log = logging.getLogger(__name__)


class LogSQL(SQLBase):
    """The action log and the snapshot of its last state."""

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]:
        """The logged actions of a game with ply > `after_ply`, in order."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT ply, notation, seat, user_id, explanation, created_at FROM actions"
                " WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, after_ply),
            )
        return [
            ActionRow(
                r["ply"],
                r["notation"],
                r["seat"],
                r["user_id"],
                read_text(r["explanation"]),  # Cynthia's reason, translatable again
                r["created_at"],
            )
            for r in rows
        ]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, object]] | None:
        """The cached state snapshot of a game as `(ply, state dict)`, or None. Raises
        `DamagedSnapshot` when the stored one is not a JSON object."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT ply, state FROM snapshots WHERE game_id = ?", (game_id,)
            )
        if row is None:
            return None
        try:
            state = json.loads(row["state"])
        except (TypeError, ValueError) as exc:
            raise DamagedSnapshot(f"not JSON ({exc})") from None
        if not isinstance(state, dict):
            raise DamagedSnapshot("not a JSON object")
        return row["ply"], state

    async def drop_snapshot(self, game_id: int) -> None:
        """Forget a game's cached snapshot (the next change of the game stores a fresh one)."""
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
