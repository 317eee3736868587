"""The SQL of the seasons (issue 58): each quarter's leaderboard, a player's season ratings,
and the final standings kept once a season ends (`bot.ratings.seasons`).

The season ratings (`season_ratings`) are updated with each game's end
(`ResultSQL._rate_season`) and replaced by a rebuild (`PlayerSQL.replace_ratings`). When a
season has ended, `close_season` stores its final standings (`season_standings`) in the
transaction that records it closed (`season_closings`, one row per season): whoever closes it
first (the scheduler of any process, or a read that needs them), the standings are stored once.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ratings import core as rc
from bot.ratings import seasons as rs
from bot.storage.interface import Connection
from bot.storage.rows import DatabaseRow, RatingRow, StandingRow
from bot.storage.sql.results import ResultSQL, may_rank

#: Not a hidden person's rating (`hidden_players`), of the table aliased `t`.
VISIBLE = "NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.identity = t.identity)"
#: A season leaderboard's rows (`season_ratings` as `t`) before the hidden people are taken
#: off: enough games, not a forgotten seat (`bot.storage.sql.results.may_rank`).
ELIGIBLE = (
    "t.season = ? AND t.scope = ? AND t.family = ? AND t.games >= ?"
    " AND t.identity NOT LIKE 'former:%'"
)
#: A season leaderboard's rows: ranked identities only, as on the all-time board
#: (`bot.storage.sql.players.RANKED`).
RANKED = f"{ELIGIBLE} AND {VISIBLE}"
#: A closed season's final standings (`season_standings` as `t`) shown: ranked, not hidden now.
STANDING = f"t.season = ? AND t.scope = ? AND t.family = ? AND t.rank IS NOT NULL AND {VISIBLE}"


def _rating(row: DatabaseRow) -> RatingRow:
    return RatingRow(
        row["scope"], row["family"], row["identity"], float(row["mu"]), float(row["sigma"]),
        row["games"],
    )  # fmt: skip


def _standing(row: DatabaseRow) -> StandingRow:
    return StandingRow(
        row["season"], row["scope"], row["family"], row["identity"], row["rank"],
        float(row["mu"]), float(row["sigma"]), row["games"],
    )  # fmt: skip


def _page(total: int, size: int, page: int) -> int:
    return max(0, min(page, (total - 1) // size if total else 0))


class SeasonSQL(ResultSQL):
    """Season leaderboards, a player's seasons, closing a season."""

    # --- the leaderboards ---

    async def season_leaderboard(
        self, season: str, scope: int, family: str, size: int, page: int, reader: str | None
    ) -> tuple[list[RatingRow], int, int, tuple[int, RatingRow] | None]:
        """A page of a season's leaderboard while it runs (`PlayerSQL.leaderboard`'s answer, of
        the season's ratings; ranked from `bot.ratings.seasons.RANKED_FROM` games), in one read.

        Nothing is counted over every player: the board's size is the sum of its buckets'
        counts (`season_counts`, which leave out the hidden people), the reader's rank the
        counts of the buckets above theirs and a count within their bucket."""
        board = (season, scope, family)
        async with self._reading() as conn:
            mine = None
            if reader is not None:
                row = await conn.fetchrow(
                    f"SELECT * FROM season_ratings t WHERE {RANKED} AND t.identity = ?",
                    (*board, rs.RANKED_FROM, reader),
                )
                mine = None if row is None else _rating(row)
            counted = await conn.fetchrow(
                "SELECT SUM(n) AS n FROM season_counts WHERE season = ? AND scope = ?"
                " AND family = ?",
                board,
            )
            total = int((counted and counted["n"]) or 0)
            page = _page(total, size, page)
            rows = await conn.fetch(
                f"SELECT * FROM season_ratings t WHERE {RANKED}"
                " ORDER BY t.bucket DESC, t.ordinal DESC, t.identity LIMIT ? OFFSET ?",
                (*board, rs.RANKED_FROM, size, page * size),
            )
            rank = None if mine is None else (await self._season_rank(conn, board, mine), mine)
        return [_rating(r) for r in rows], total, page, rank

    async def _season_rank(
        self, conn: Connection, board: tuple[str, int, str], mine: RatingRow
    ) -> int:
        """The rank of a ranked rating on its season's board: 1 + those ahead of it (a higher
        rating, or the same and an identity sorting first), the hidden ones left out."""
        ordinal, identity = mine.ordinal, mine.identity
        bucket = rs.bucket(ordinal)
        above = await conn.fetchrow(
            "SELECT SUM(n) AS n FROM season_counts WHERE season = ? AND scope = ?"
            " AND family = ? AND bucket > ?",
            (*board, bucket),
        )
        within = await conn.fetchrow(
            f"SELECT COUNT(*) AS n FROM season_ratings t WHERE {RANKED} AND t.bucket = ?"
            " AND (t.ordinal > ? OR (t.ordinal = ? AND t.identity < ?))",
            (*board, rs.RANKED_FROM, bucket, ordinal, ordinal, identity),
        )
        return 1 + int((above and above["n"]) or 0) + int((within and within["n"]) or 0)

    async def season_standings(
        self, season: str, scope: int, family: str, size: int, page: int, reader: str | None
    ) -> tuple[list[StandingRow], int, int, StandingRow | None]:
        """A page of a closed season's final standings, in one read: its ranks
        ``page * size + 1`` to ``(page + 1) * size`` (a person hidden since is left out; the
        others keep their ranks), how many were ranked, the page shown (past the end: the
        last), and the reader's own standing (None: not ranked, or hidden)."""
        board = (season, scope, family)
        async with self._reading() as conn:
            counted = await conn.fetchrow(
                "SELECT MAX(rank) AS n FROM season_standings WHERE season = ? AND scope = ?"
                " AND family = ? AND rank IS NOT NULL",
                board,
            )
            total = int((counted and counted["n"]) or 0)
            page = _page(total, size, page)
            rows = await conn.fetch(
                f"SELECT * FROM season_standings t WHERE {STANDING} AND t.rank > ?"
                " AND t.rank <= ? ORDER BY t.rank",
                (*board, page * size, (page + 1) * size),
            )
            mine = None
            if reader is not None:
                row = await conn.fetchrow(
                    f"SELECT * FROM season_standings t WHERE {STANDING} AND t.identity = ?",
                    (*board, reader),
                )
                mine = None if row is None else _standing(row)
        return [_standing(r) for r in rows], total, page, mine

    # --- a player's seasons ---

    async def player_season(
        self, identity: str, season: str, scopes: Sequence[int]
    ) -> list[tuple[RatingRow, int | None]]:
        """An identity's ratings of a running season in these scopes (each family), each with
        its rank on that season's leaderboard (None: not ranked)."""
        marks = ", ".join("?" for _ in scopes)
        async with self._reading() as conn:
            hidden = await conn.fetchrow(
                "SELECT 1 AS hidden FROM hidden_players WHERE identity = ?", (identity,)
            )
            rows = [
                _rating(r)
                for r in await conn.fetch(
                    f"SELECT * FROM season_ratings WHERE identity = ? AND season = ?"
                    f" AND scope IN ({marks}) ORDER BY scope, family",
                    (identity, season, *scopes),
                )
            ]
            ranked = []
            for row in rows:
                rank = None
                if hidden is None and may_rank(identity, row.games):
                    rank = await self._season_rank(conn, (season, row.scope, row.family), row)
                ranked.append((row, rank))
        return ranked

    async def player_standings(
        self, identity: str, scopes: Sequence[int], limit: int
    ) -> list[StandingRow]:
        """An identity's final standings in the seasons that ended, in these scopes, newest
        season first (at most `limit` rows)."""
        marks = ", ".join("?" for _ in scopes)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT * FROM season_standings WHERE identity = ? AND scope IN ({marks})"
                " ORDER BY season DESC, scope, family LIMIT ?",
                (identity, *scopes, limit),
            )
        return [_standing(r) for r in rows]

    # --- closing a season ---

    async def closed_seasons(self) -> list[str]:
        """The seasons whose final standings are stored, oldest first."""
        async with self._reading_one() as conn:
            rows = await conn.fetch("SELECT season FROM season_closings ORDER BY season")
        return [r["season"] for r in rows]

    async def seasons_to_close(self, current: str) -> list[str]:
        """The seasons before `current` with ratings whose standings are not stored yet."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT season FROM season_ratings WHERE season < ? AND season NOT IN"
                " (SELECT season FROM season_closings) ORDER BY season",
                (current,),
            )
        return [r["season"] for r in rows]

    async def close_season(self, season: str) -> int | None:
        """Store a season's final standings, once: every rating of the season with its rank on
        its leaderboard (by scope and family; ranked as the boards rank, others None), in the
        transaction that records the season closed. How many were ranked; None when the season
        was closed already (by another process, or before a restart)."""
        async with self._transaction() as conn:
            if self.ratings_lock:
                await conn.execute(self.ratings_lock)
            if await conn.fetchrow(
                "SELECT 1 AS closed FROM season_closings WHERE season = ?", (season,)
            ):
                return None
            ranked = await self._store_standings(conn, season)
            await conn.execute(
                "INSERT INTO season_closings (season, closed_at, ranked) VALUES (?, ?, ?)",
                (season, self._clock(), ranked),
            )
        if self.dialect == "postgres":  # the planner's statistics of the rows just written
            async with self._transaction() as conn:
                await conn.execute("ANALYZE season_standings")
        return ranked

    async def _store_standings(self, conn: Connection, season: str) -> int:
        ranked_row = f"t.games >= ? AND t.identity NOT LIKE 'former:%' AND {VISIBLE}"
        columns = "season, scope, family, identity, rank, mu, sigma, games, ordinal"
        await conn.execute(
            f"INSERT INTO season_standings ({columns})"
            " SELECT t.season, t.scope, t.family, t.identity, ROW_NUMBER() OVER ("
            " PARTITION BY t.scope, t.family ORDER BY t.bucket DESC, t.ordinal DESC, t.identity),"
            " t.mu, t.sigma, t.games, t.ordinal"
            f" FROM season_ratings t WHERE t.season = ? AND {ranked_row}",
            (season, rs.RANKED_FROM),
        )
        counted = await conn.fetchrow(
            "SELECT COUNT(*) AS n FROM season_standings WHERE season = ?", (season,)
        )
        await conn.execute(
            f"INSERT INTO season_standings ({columns})"
            " SELECT t.season, t.scope, t.family, t.identity, NULL, t.mu, t.sigma, t.games,"
            f" t.ordinal FROM season_ratings t WHERE t.season = ? AND NOT ({ranked_row})",
            (season, rs.RANKED_FROM),
        )
        return 0 if counted is None else int(counted["n"])

    async def stored_season_ratings(self) -> dict[rs.SeasonKey, rc.Rating]:
        """Every stored season rating (for the rebuild's checks and the tests)."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT season, scope, family, identity, mu, sigma, games FROM season_ratings"
            )
        return {
            rs.SeasonKey(r["season"], r["scope"], r["family"], r["identity"]): rc.Rating(
                float(r["mu"]), float(r["sigma"]), r["games"]
            )
            for r in rows
        }
