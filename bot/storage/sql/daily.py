"""The SQL of the daily challenge (`bot.services.daily`): the deployment's secret, each
person's attempt a day, its result, and the day's leaderboards with a reader's rank.

A hidden player (`hidden_players`) is never on a leaderboard: the best rows skip them, and a
rank counts the rows ahead of the reader from the index, less the hidden players among them
(few: read from their own table)."""

from __future__ import annotations

from bot.storage.interface import Connection
from bot.storage.rows import DailyRow, DatabaseRow
from bot.storage.sql.base import SQLBase

DAILY_COLUMNS = "day, user_id, game_id, guild_id, started_at, finished_at, margin, won, rounds"
#: The rows of a day's leaderboard: across servers (no guild) or in one server.
_SCORED = "day = ? AND margin IS NOT NULL"
_NOT_HIDDEN = "NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.user_id = d.user_id)"


def _daily(row: DatabaseRow) -> DailyRow:
    won = row["won"]
    return DailyRow(
        day=int(row["day"]),
        user_id=int(row["user_id"]),
        game_id=None if row["game_id"] is None else int(row["game_id"]),
        guild_id=None if row["guild_id"] is None else int(row["guild_id"]),
        started_at=str(row["started_at"]),
        finished_at=row["finished_at"],
        margin=None if row["margin"] is None else int(row["margin"]),
        won=None if won is None else bool(won),
        rounds=row["rounds"],
    )


def _where(guild_id: int | None) -> tuple[str, tuple[object, ...]]:
    if guild_id is None:
        return _SCORED, ()
    return _SCORED + " AND guild_id = ?", (guild_id,)


class DailySQL(SQLBase):
    """The daily challenge's rows."""

    async def bot_secret(self, name: str, made: str) -> str:
        """The deployment's secret called `name`: `made` the first time it is asked for (kept
        from then on; when several processes ask at once, the first one stored wins)."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_secrets (name, value, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                (name, made, self._clock()),
            )
            row = await conn.fetchrow("SELECT value FROM bot_secrets WHERE name = ?", (name,))
        assert row is not None
        return str(row["value"])

    async def claim_daily(
        self, day: int, user_id: int, guild_id: int | None, started_at: str
    ) -> tuple[DailyRow, bool]:
        """A person's attempt at a day: the stored one, or a new one claimed now (no game yet:
        `set_daily_game`); and whether this call claimed it. Two claims at once make one."""
        async with self._transaction() as conn:
            made = await conn.execute(
                f"INSERT INTO daily_results ({DAILY_COLUMNS})"
                " VALUES (?, ?, NULL, ?, ?, NULL, NULL, NULL, NULL)"
                " ON CONFLICT (day, user_id) DO NOTHING",
                (day, user_id, guild_id, started_at),
            )
            row = await self._daily_row(conn, day, user_id)
        assert row is not None
        return row, made == 1

    async def set_daily_game(self, day: int, user_id: int, game_id: int) -> None:
        """The game of a claimed attempt."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE daily_results SET game_id = ? WHERE day = ? AND user_id = ?",
                (game_id, day, user_id),
            )

    async def daily_row(self, day: int, user_id: int) -> DailyRow | None:
        """A person's attempt at a day, if any."""
        async with self._reading_one() as conn:
            return await self._daily_row(conn, day, user_id)

    async def _daily_row(self, conn: Connection, day: int, user_id: int) -> DailyRow | None:
        row = await conn.fetchrow(
            f"SELECT {DAILY_COLUMNS} FROM daily_results WHERE day = ? AND user_id = ?",
            (day, user_id),
        )
        return None if row is None else _daily(row)

    async def daily_rows(self, user_id: int, since: int) -> list[DailyRow]:
        """A person's attempts from day `since` on, the latest first."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT {DAILY_COLUMNS} FROM daily_results WHERE user_id = ? AND day >= ?"
                " ORDER BY day DESC",
                (user_id, since),
            )
        return [_daily(r) for r in rows]

    async def finish_daily(
        self, day: int, user_id: int, margin: int, won: bool, rounds: str, finished_at: str
    ) -> bool:
        """Keep an attempt's result, once: False (nothing changed) when it has one already."""
        async with self._transaction() as conn:
            changed = await conn.execute(
                "UPDATE daily_results SET margin = ?, won = ?, rounds = ?, finished_at = ?"
                " WHERE day = ? AND user_id = ? AND margin IS NULL",
                (margin, int(won), rounds, finished_at, day, user_id),
            )
        return changed == 1

    async def daily_leaderboard(
        self, day: int, guild_id: int | None, size: int, reader: int | None
    ) -> tuple[list[DailyRow], int, tuple[int, DailyRow] | None]:
        """A day's best `size` results (across servers, or of the attempts started in one
        server), best margin first (then the user id), with how many are ranked and the
        `reader`'s rank and row (None: no result that day, or hidden). Hidden players are on
        none of it."""
        where, extra = _where(guild_id)
        params = (day, *extra)
        async with self._reading() as conn:
            rows = await conn.fetch(
                f"SELECT {DAILY_COLUMNS} FROM daily_results d WHERE {where} AND {_NOT_HIDDEN}"
                " ORDER BY margin DESC, user_id LIMIT ?",
                (*params, size),
            )
            counted = await conn.fetchrow(
                f"SELECT COUNT(*) AS n FROM daily_results WHERE {where}", params
            )
            hidden = await conn.fetch(
                "SELECT d.margin FROM hidden_players h JOIN daily_results d"
                f" ON d.user_id = h.user_id WHERE {where.replace('day', 'd.day', 1)}",
                params,
            )
            total = (0 if counted is None else int(counted["n"])) - len(hidden)
            mine: tuple[int, DailyRow] | None = None
            own = None if reader is None else await self._daily_row(conn, day, reader)
            if (
                own is not None
                and own.margin is not None
                and (guild_id is None or own.guild_id == guild_id)
                and not await self._hidden(conn, own.user_id)
            ):
                ahead = await conn.fetchrow(
                    f"SELECT COUNT(*) AS n FROM daily_results WHERE {where} AND margin > ?",
                    (*params, own.margin),
                )
                hidden_ahead = sum(1 for h in hidden if int(h["margin"]) > own.margin)
                rank = 1 + (0 if ahead is None else int(ahead["n"])) - hidden_ahead
                mine = (rank, own)
        return [_daily(r) for r in rows], total, mine

    async def _hidden(self, conn: Connection, user_id: int) -> bool:
        row = await conn.fetchrow(
            "SELECT 1 AS hidden FROM hidden_players WHERE user_id = ?", (user_id,)
        )
        return row is not None

    async def live_daily_games(self, user_id: int) -> list[int]:
        """The games of a person's daily attempts still being played."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT d.game_id FROM daily_results d JOIN games g ON g.id = d.game_id"
                " WHERE d.user_id = ? AND g.status = 'active'",
                (user_id,),
            )
        return [int(r["game_id"]) for r in rows]
