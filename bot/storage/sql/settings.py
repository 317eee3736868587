"""The SQL of preferences and language settings."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from bot.storage.rows import ClockWrite, Preferences
from bot.storage.sql.base import SQLBase

log = logging.getLogger(__name__)


class SettingsSQL(SQLBase):
    """The players' preferences and the players' and servers' languages."""

    async def preferences(self, user_id: int) -> Preferences:
        """A user's stored preferences (empty when none)."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT preferences FROM user_preferences WHERE user_id = ?", (user_id,)
            )
        return {} if row is None else json.loads(row["preferences"])

    async def set_preferences(
        self, user_id: int, preferences: Preferences, turn_clocks: Sequence[ClockWrite] = ()
    ) -> None:
        """Replace a user's preferences, and write the `turn_clocks` they change (vacation) in
        the same transaction."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_preferences (user_id, preferences, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET preferences = excluded.preferences,"
                " updated_at = excluded.updated_at",
                (user_id, json.dumps(preferences), self._clock()),
            )
            for write in turn_clocks:
                await self._write_clock(conn, write)

    async def languages(self, user_id: int, guild_id: int | None) -> tuple[str | None, str | None]:
        """A user's own language and the server's default (None where not set), in one query."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT scope, language FROM language_settings"
                " WHERE (scope = 'user' AND id = ?) OR (scope = 'guild' AND id = ?)",
                (user_id, guild_id if guild_id is not None else -1),
            )
        found = {row["scope"]: row["language"] for row in rows}
        return found.get("user"), found.get("guild")

    async def set_language(self, scope: str, id: int, language: str | None) -> None:
        """Set a user's (`scope` "user") or a server's ("guild") language; None clears it."""
        async with self._transaction() as conn:
            if language is None:
                await conn.execute(
                    "DELETE FROM language_settings WHERE scope = ? AND id = ?", (scope, id)
                )
                return
            await conn.execute(
                "INSERT INTO language_settings (scope, id, language, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (scope, id) DO UPDATE SET"
                " language = excluded.language, updated_at = excluded.updated_at",
                (scope, id, language, self._clock()),
            )

    async def follow_modes(self, game_id: int) -> dict[int, str]:
        """Who chose what for a game (`/ps follow`): user id -> 'mute' or 'follow'."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT user_id, mode FROM game_follows WHERE game_id = ?", (game_id,)
            )
        return {row["user_id"]: row["mode"] for row in rows}

    async def set_follow_mode(self, game_id: int, user_id: int, mode: str | None) -> None:
        """Store a person's choice for a game, 'mute' or 'follow'; None: as by default."""
        async with self._transaction() as conn:
            if mode is None:
                await conn.execute(
                    "DELETE FROM game_follows WHERE game_id = ? AND user_id = ?",
                    (game_id, user_id),
                )
                return
            await conn.execute(
                "INSERT INTO game_follows (game_id, user_id, mode, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET mode = excluded.mode,"
                " updated_at = excluded.updated_at",
                (game_id, user_id, mode, self._clock()),
            )
