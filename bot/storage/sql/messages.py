"""The SQL of the message ids."""

from __future__ import annotations

import logging

from bot.storage.sql.base import SQLBase

log = logging.getLogger(__name__)


class MessageSQL(SQLBase):
    """The Discord ids of each game's messages and thread."""

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the id of a game's message of some kind ("lobby", "game")."""
        async with self._transaction() as conn:
            await conn.send(
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """`(channel_id, message_id)` of a game's message of some kind, or None."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?",
                (game_id, kind),
            )
        return None if row is None else (row["channel_id"], row["message_id"])
