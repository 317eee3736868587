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
_NOT_HIDDEN = "NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.user_id = d.user_id)"


def daily_row(row: DatabaseRow) -> DailyRow:
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


#: The scope of `daily_counts` across every server (a server's scope is its id).
ALL_SERVERS = 0


async def is_hidden(conn: Connection, user_id: int) -> bool:
    """Whether a person's profile is hidden (`hidden_players`)."""
    row = await conn.fetchrow(
        "SELECT 1 AS hidden FROM hidden_players WHERE user_id = ?", (user_id,)
    )
    return row is not None


async def count_results(conn: Connection, user_id: int, change: int) -> None:
    """Count every finished result of a person on the daily leaderboards (`change` 1: their
    profile is shown again), or take them off (-1: hidden, or forgotten)."""
    for row in await conn.fetch(
        f"SELECT {DAILY_COLUMNS} FROM daily_results WHERE user_id = ? AND margin IS NOT NULL",
        (user_id,),
    ):
        await count_result(conn, daily_row(row), change)


async def count_result(conn: Connection, row: DailyRow, change: int) -> None:
    """Count a visible finished result on its day's leaderboards (`change` 1), or take it off
    (-1): every server's, and its server's when it started in one."""
    scopes = [ALL_SERVERS] if row.guild_id is None else [ALL_SERVERS, row.guild_id]
    for scope in scopes:
        await conn.execute(
            "INSERT INTO daily_counts (day, scope, margin, players) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (day, scope, margin)"
            " DO UPDATE SET players = daily_counts.players + excluded.players",
            (row.day, scope, row.margin, change),
        )


class DailySQL(SQLBase):
    """The daily challenge's rows."""

    #: The ratings' lock (`ResultSQL.ratings_lock`, a driver's): it also orders a daily result
    #: kept and a profile hidden, so that the counts hold exactly the visible results.
    ratings_lock = ""

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
        return None if row is None else daily_row(row)

    async def daily_rows(self, user_id: int, since: int) -> list[DailyRow]:
        """A person's attempts from day `since` on, the latest first."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT {DAILY_COLUMNS} FROM daily_results WHERE user_id = ? AND day >= ?"
                " ORDER BY day DESC",
                (user_id, since),
            )
        return [daily_row(r) for r in rows]

    async def finish_daily(
        self, day: int, user_id: int, margin: int, won: bool, rounds: str, finished_at: str
    ) -> bool:
        """Keep an attempt's result, once, and count it on its day's leaderboards: False
        (nothing changed) when it has one already."""
        async with self._transaction() as conn:
            if self.ratings_lock:  # (a profile hidden meanwhile: one after the other)
                await conn.execute(self.ratings_lock)
            changed = await conn.execute(
                "UPDATE daily_results SET margin = ?, won = ?, rounds = ?, finished_at = ?"
                " WHERE day = ? AND user_id = ? AND margin IS NULL",
                (margin, int(won), rounds, finished_at, day, user_id),
            )
            if changed != 1:
                return False
            row = await self._daily_row(conn, day, user_id)
            assert row is not None
            if not await is_hidden(conn, user_id):
                await count_result(conn, row, 1)
        return True

    async def daily_leaderboard(
        self, day: int, guild_id: int | None, size: int, reader: int | None
    ) -> tuple[list[DailyRow], int, tuple[int, DailyRow] | None]:
        """A day's best `size` results (across servers, or of the attempts started in one
        server), best margin first (then the user id), with how many are ranked and the
        `reader`'s rank and row (None: no result that day there, or hidden). Hidden players
        are on none of it: the best rows skip them, and the counts (`daily_counts`) hold only
        the visible results. Two statements, whatever the day's size."""
        scope = ALL_SERVERS if guild_id is None else guild_id
        here, here_params = ("", ()) if guild_id is None else (" AND d.guild_id = ?", (guild_id,))
        own_columns = ", ".join(f"o.{c}" for c in DAILY_COLUMNS.split(", "))
        who = -1 if reader is None else reader
        async with self._reading() as conn:
            rows = await conn.fetch(
                f"SELECT {DAILY_COLUMNS} FROM daily_results d WHERE day = ?"
                f" AND margin IS NOT NULL{here} AND {_NOT_HIDDEN}"
                " ORDER BY margin DESC, user_id LIMIT ?",
                (day, *here_params, size),
            )
            counted = await conn.fetchrow(
                f"SELECT {own_columns},"
                " (SELECT SUM(players) FROM daily_counts WHERE day = ? AND scope = ?) AS total,"
                " (SELECT SUM(players) FROM daily_counts c WHERE c.day = ? AND c.scope = ?"
                " AND c.margin > o.margin) AS ahead,"
                " CASE WHEN EXISTS (SELECT 1 FROM hidden_players WHERE user_id = ?)"
                " THEN 1 ELSE 0 END AS reader_hidden"
                " FROM (SELECT 1 AS one) r"
                " LEFT JOIN daily_results o ON o.day = ? AND o.user_id = ?",
                (day, scope, day, scope, who, day, who),
            )
        assert counted is not None
        total = int(counted["total"] or 0)
        ranked: tuple[int, DailyRow] | None = None
        if counted["day"] is not None and counted["margin"] is not None:
            own = daily_row(counted)
            if (guild_id is None or own.guild_id == guild_id) and not counted["reader_hidden"]:
                ranked = (1 + int(counted["ahead"] or 0), own)
        return [daily_row(r) for r in rows], total, ranked

    async def live_daily_games(self, user_id: int) -> list[int]:
        """The games of a person's daily attempts still being played."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT d.game_id FROM daily_results d JOIN games g ON g.id = d.game_id"
                " WHERE d.user_id = ? AND g.status = 'active'",
                (user_id,),
            )
        return [int(r["game_id"]) for r in rows]
