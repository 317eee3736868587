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
from bot.storage.sql.results import ResultSQL

#: Not a hidden person's rating (`hidden_players`), of the table aliased `t`.
VISIBLE = "NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.identity = t.identity)"
#: A season leaderboard's rows (`season_ratings` as `t`) before the hidden people are taken
#: off: enough games, not a forgotten seat (all read from the board's index).
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
        self,
        season: str,
        scope: int,
        family: str,
        min_games: int,
        size: int,
        page: int,
        reader: str | None,
    ) -> tuple[list[RatingRow], int, int, tuple[int, RatingRow] | None]:
        """A page of a season's leaderboard while it runs (`PlayerSQL.leaderboard`'s answer, of
        the season's ratings), in one read.

        Counted from the board's index alone (`season_ratings_board` holds every column the
        count reads): how many are ranked and how many are ahead of the reader, in one pass;
        then the few hidden people's ratings are taken off (`hidden_players` joined to the
        board by its key), rather than a look-up of each rating in `hidden_players`."""
        params = (season, scope, family, min_games)
        async with self._reading() as conn:
            mine = None
            if reader is not None:
                row = await conn.fetchrow(
                    f"SELECT * FROM season_ratings t WHERE {RANKED} AND t.identity = ?",
                    (*params, reader),
                )
                mine = None if row is None else _rating(row)
            key = (mine.ordinal, mine.identity) if mine is not None else (0.0, "")
            counted = await conn.fetchrow(
                "SELECT COUNT(*) AS n, SUM(CASE WHEN t.ordinal > ? OR (t.ordinal = ?"
                " AND t.identity < ?) THEN 1 ELSE 0 END) AS ahead FROM season_ratings t"
                f" WHERE {ELIGIBLE}",
                (key[0], key[0], key[1], *params),
            )
            hidden = await conn.fetch(
                "SELECT t.identity, t.ordinal FROM hidden_players h JOIN season_ratings t"
                " ON t.season = ? AND t.scope = ? AND t.family = ? AND t.identity = h.identity"
                " WHERE t.games >= ?",
                params,
            )
            total = 0 if counted is None else int(counted["n"]) - len(hidden)
            page = _page(total, size, page)
            rows = await conn.fetch(
                f"SELECT * FROM season_ratings t WHERE {RANKED}"
                " ORDER BY t.ordinal DESC, t.identity LIMIT ? OFFSET ?",
                (*params, size, page * size),
            )
        ranked = None
        if mine is not None and counted is not None:
            ahead = int(counted["ahead"] or 0) - sum(
                1 for h in hidden if (-float(h["ordinal"]), h["identity"]) < (-key[0], key[1])
            )
            ranked = (1 + ahead, mine)
        return [_rating(r) for r in rows], total, page, ranked

    async def season_standings(
        self, season: str, scope: int, family: str, size: int, page: int, reader: str | None
    ) -> tuple[list[StandingRow], int, int, StandingRow | None]:
        """A page of a closed season's final standings, by rank (a person hidden since is left
        out; the others keep their ranks), in one read: its rows, how many are shown, the page
        shown, and the reader's own (None: not ranked, or hidden). Counted from the ranks'
        index, the hidden people's standings taken off."""
        params = (season, scope, family)
        async with self._reading() as conn:
            counted = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM season_standings t WHERE t.season = ? AND t.scope = ?"
                " AND t.family = ? AND t.rank IS NOT NULL",
                params,
            )
            hidden = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM hidden_players h JOIN season_standings t"
                " ON t.season = ? AND t.scope = ? AND t.family = ? AND t.identity = h.identity"
                " WHERE t.rank IS NOT NULL",
                params,
            )
            total = sum(int(c["n"]) * sign for c, sign in ((counted, 1), (hidden, -1)) if c)
            page = _page(total, size, page)
            rows = await conn.fetch(
                f"SELECT * FROM season_standings t WHERE {STANDING} ORDER BY t.rank"
                " LIMIT ? OFFSET ?",
                (*params, size, page * size),
            )
            mine = None
            if reader is not None:
                row = await conn.fetchrow(
                    f"SELECT * FROM season_standings t WHERE {STANDING} AND t.identity = ?",
                    (*params, reader),
                )
                mine = None if row is None else _standing(row)
        return [_standing(r) for r in rows], total, page, mine

    # --- a player's seasons ---

    async def player_season(
        self, identity: str, season: str, scopes: Sequence[int], min_games: int
    ) -> list[tuple[RatingRow, int | None]]:
        """An identity's ratings of a running season in these scopes (each family), each with
        its rank on that season's leaderboard (None: not ranked)."""
        marks = ", ".join("?" for _ in scopes)
        ahead = (
            "SELECT COUNT(*) FROM season_ratings t WHERE t.season = r.season"
            " AND t.scope = r.scope AND t.family = r.family AND t.games >= ?"
            f" AND t.identity NOT LIKE 'former:%' AND {VISIBLE}"
            " AND (t.ordinal > r.ordinal OR (t.ordinal = r.ordinal AND t.identity < r.identity))"
        )
        async with self._reading() as conn:
            hidden = await conn.fetchrow(
                "SELECT 1 AS hidden FROM hidden_players WHERE identity = ?", (identity,)
            )
            rows = await conn.fetch(
                f"SELECT r.*, ({ahead}) AS ahead FROM season_ratings r WHERE r.identity = ?"
                f" AND r.season = ? AND r.scope IN ({marks}) ORDER BY r.scope, r.family",
                (min_games, identity, season, *scopes),
            )
        ranked = hidden is None and not identity.startswith("former:")
        return [
            (_rating(r), 1 + int(r["ahead"]) if ranked and r["games"] >= min_games else None)
            for r in rows
        ]

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

    async def close_season(self, season: str, min_games: int) -> int | None:
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
            ranked = await self._store_standings(conn, season, min_games)
            await conn.execute(
                "INSERT INTO season_closings (season, closed_at, ranked) VALUES (?, ?, ?)",
                (season, self._clock(), ranked),
            )
        return ranked

    async def _store_standings(self, conn: Connection, season: str, min_games: int) -> int:
        ranked_row = f"t.games >= ? AND t.identity NOT LIKE 'former:%' AND {VISIBLE}"
        columns = "season, scope, family, identity, rank, mu, sigma, games, ordinal"
        await conn.execute(
            f"INSERT INTO season_standings ({columns})"
            " SELECT t.season, t.scope, t.family, t.identity, ROW_NUMBER() OVER ("
            " PARTITION BY t.scope, t.family ORDER BY t.ordinal DESC, t.identity),"
            " t.mu, t.sigma, t.games, t.ordinal"
            f" FROM season_ratings t WHERE t.season = ? AND {ranked_row}",
            (season, min_games),
        )
        counted = await conn.fetchrow(
            "SELECT COUNT(*) AS n FROM season_standings WHERE season = ?", (season,)
        )
        await conn.execute(
            f"INSERT INTO season_standings ({columns})"
            " SELECT t.season, t.scope, t.family, t.identity, NULL, t.mu, t.sigma, t.games,"
            f" t.ordinal FROM season_ratings t WHERE t.season = ? AND NOT ({ranked_row})",
            (season, min_games),
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
