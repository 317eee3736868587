"""The SQL of the web companion (issue 59): the servers that turned it on and their links'
secrets, the versions of the games a page watches, and the names people played under."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.storage.sql.base import SQLBase


class WebSQL(SQLBase):
    """The servers whose games the site shows, and what its pages read besides the games."""

    async def web_secret(self, guild_id: int) -> str | None:
        """The secret a server's links are signed with; None: the site is off there."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT secret FROM web_servers WHERE guild_id = ?", (guild_id,)
            )
        return None if row is None else str(row["secret"])

    async def set_web_secret(self, guild_id: int, secret: str | None) -> None:
        """Turn the site on for a server with a new `secret` (a server already on keeps its
        own, so that its links go on working), or off (None: its links stop working)."""
        async with self._transaction() as conn:
            if secret is None:
                await conn.execute("DELETE FROM web_servers WHERE guild_id = ?", (guild_id,))
                return
            await conn.execute(
                "INSERT INTO web_servers (guild_id, secret, enabled_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, secret, self._clock()),
            )

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The stored version of each game of `game_ids` (read from the database itself: another
        process's plays included)."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT id, version FROM games WHERE id IN ({marks})", tuple(game_ids)
            )
        return {int(row["id"]): int(row["version"]) for row in rows}

    async def played_names(self, user_ids: Sequence[int], guild_id: int) -> dict[int, str]:
        """The name each person last played under in a server's games (a forgotten person has
        none: their seats keep no id)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT s.user_id, s.name FROM seats s JOIN games g ON g.id = s.game_id"
                f" WHERE g.guild_id = ? AND s.user_id IN ({marks}) ORDER BY s.game_id",
                (guild_id, *user_ids),
            )
        return {int(row["user_id"]): str(row["name"]) for row in rows}

    async def listen_games(
        self, changed: Callable[[int, int], None]
    ) -> Callable[[], Awaitable[None]] | None:
        """None: this driver announces no change (SQLite's readers poll `game_versions`)."""
        return None
