"""The SQL of the players remembered (issue 45): their results, ratings and histories, the
leaderboards, the hidden players, the rebuild of the ratings, the export's games, and the
forgetting of a person."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence

from bot.ratings import core as rc
from bot.ratings import identity as ri
from bot.ratings import seasons as rs
from bot.storage.interface import Connection
from bot.storage.rows import (
    FORMER_NAME,
    DatabaseRow,
    Finish,
    FinishedGame,
    GameRow,
    HistoryRow,
    RatingRow,
    ResultRow,
    StatRow,
)
from bot.storage.sql.daily import count_results, is_hidden
from bot.storage.sql.games import GameSQL
from bot.storage.sql.results import (
    COUNTED,
    HISTORY_COLUMNS,
    RATING_COLUMNS,
    SEASON_COLUMNS,
    history_row,
    rating_row,
    season_row,
)

log = logging.getLogger(__name__)

#: A leaderboard's rows: ranked identities only (not a forgotten seat's, not a hidden person's).
RANKED = (
    "scope = ? AND family = ? AND games >= ? AND identity NOT LIKE 'former:%'"
    " AND NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.identity = ratings.identity)"
)

#: How many ranked ratings are ahead of the rating `r` on its leaderboard (`RANKED`'s order).
AHEAD = (
    "SELECT COUNT(*) FROM ratings o WHERE o.scope = r.scope AND o.family = r.family"
    " AND o.games >= ? AND o.identity NOT LIKE 'former:%'"
    " AND NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.identity = o.identity)"
    " AND (o.ordinal > r.ordinal OR (o.ordinal = r.ordinal AND o.identity < r.identity))"
)


def _where_player(identity: str, guild_id: int | None) -> tuple[str, tuple[object, ...]]:
    if guild_id is None:
        return "identity = ?", (identity,)
    return "identity = ? AND guild_id = ?", (identity, guild_id)


def _rating(row: DatabaseRow) -> RatingRow:
    return RatingRow(
        row["scope"], row["family"], row["identity"], float(row["mu"]), float(row["sigma"]),
        row["games"],
    )  # fmt: skip


def _history(r: DatabaseRow) -> HistoryRow:
    return HistoryRow(
        r["scope"], r["family"], r["games"], r["game_id"], r["finished_at"], float(r["mu"]),
        float(r["sigma"]), r["place"],
    )  # fmt: skip


class PlayerSQL(GameSQL):
    """Results, ratings, leaderboards, privacy."""

    # --- a player's results ---

    async def player_stats(self, identity: str, guild_id: int | None) -> list[StatRow]:
        """A player's finished games (of one server, or of all) by rule family and seat
        count."""
        where, params = _where_player(identity, guild_id)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT family, seat_count, COUNT(*) AS played,"
                " SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS won,"
                " SUM(score) AS score_sum, MAX(score) AS best"
                f" FROM seat_results WHERE {where} GROUP BY family, seat_count"
                " ORDER BY family, seat_count",
                params,
            )
        return [
            StatRow(
                r["family"],
                r["seat_count"],
                int(r["played"]),
                int(r["won"]),
                int(r["score_sum"]),
                int(r["best"]),
            )  # fmt: skip
            for r in rows
        ]

    async def player_animals(self, identity: str, guild_id: int | None) -> list[tuple[str, int]]:
        """The animals a player played (Under the Moonlight) and how often, most often first."""
        where, params = _where_player(identity, guild_id)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT animal, COUNT(*) AS n FROM seat_results"
                f" WHERE {where} AND animal IS NOT NULL GROUP BY animal ORDER BY n DESC, animal",
                params,
            )
        return [(r["animal"], int(r["n"])) for r in rows]

    async def player_games(
        self, identity: str, guild_id: int | None, size: int, page: int = 0
    ) -> tuple[list[FinishedGame], int, int]:
        """A page of `size` of a player's finished games, newest first, in one read: the
        games, how many there are, and the page shown (from 0; past the end: the last)."""
        where, params = _where_player(identity, guild_id)
        async with self._reading() as conn:
            counted = await conn.fetchrow(
                f"SELECT COUNT(*) AS n FROM seat_results WHERE {where}", params
            )
            total = 0 if counted is None else int(counted["n"])
            page = max(0, min(page, (total - 1) // size if total else 0))
            ids = await conn.fetch(
                f"SELECT game_id FROM seat_results WHERE {where}"
                " ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?",
                (*params, size, page * size),
            )
            games = await self._finished(conn, [r["game_id"] for r in ids])
        return games, total, page

    async def finished_games(
        self, guild_id: int, since: str | None = None, until: str | None = None
    ) -> list[FinishedGame]:
        """Every finished game of a server, oldest first, with its log (the export); with
        `since` and `until` (ISO 8601 times, as stored) only those finished from `since` and
        before `until`."""
        async with self._reading() as conn:
            ids = await conn.fetch(*_finished_ids(guild_id, since, until))
            return await self._finished(conn, [r["game_id"] for r in ids], notations=True)

    async def finished_game_ids(
        self, guild_id: int, since: str | None = None, until: str | None = None
    ) -> list[int]:
        """The numbers of a server's finished games (`finished_games`' selection), in order."""
        async with self._reading_one() as conn:
            ids = await conn.fetch(*_finished_ids(guild_id, since, until))
        return [r["game_id"] for r in ids]

    async def finished_games_by_id(self, ids: Sequence[int]) -> list[FinishedGame]:
        """These finished games with their logs, in this order (a part of an export)."""
        async with self._reading() as conn:
            return await self._finished(conn, list(ids), notations=True)

    async def rating_changes(
        self, identity: str, scope: int, game_ids: Sequence[int]
    ) -> dict[int, tuple[HistoryRow, HistoryRow | None]]:
        """What each of these games did to an identity's rating in a scope: by game, its
        history point after the game and the one before (None: the game was its first)."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT h.*, p.mu AS before_mu, p.sigma AS before_sigma,"
                " p.game_id AS before_game, p.finished_at AS before_at, p.place AS before_place"
                " FROM rating_history h LEFT JOIN rating_history p ON p.identity = h.identity"
                " AND p.scope = h.scope AND p.family = h.family AND p.games = h.games - 1"
                f" WHERE h.identity = ? AND h.scope = ? AND h.game_id IN ({marks})",
                (identity, scope, *game_ids),
            )
        changes: dict[int, tuple[HistoryRow, HistoryRow | None]] = {}
        for r in rows:
            before = None
            if r["before_mu"] is not None:
                before = HistoryRow(
                    r["scope"], r["family"], r["games"] - 1, r["before_game"], r["before_at"],
                    float(r["before_mu"]), float(r["before_sigma"]), r["before_place"],
                )  # fmt: skip
            changes[r["game_id"]] = (_history(r), before)
        return changes

    async def head_to_head(
        self, identity: str, opponent: str | None, guild_id: int | None
    ) -> dict[str, tuple[int, int, int]]:
        """An identity's record in the games it shared with `opponent` (a person's identity),
        with Cynthia (any difficulty) and with the Expert (any budget): by ``"player"``,
        ``"cynthia"``, ``"expert"``, how many it finished above, below and level with the
        best placed seat of that opponent (in a server, or None: every server)."""
        where, params = _where_player(identity, guild_id)
        where = " AND ".join(f"a.{part}" for part in where.split(" AND "))
        group = (
            "CASE WHEN b.identity LIKE 'cynthia:%' THEN 'cynthia'"
            " WHEN b.identity LIKE 'expert:%' THEN 'expert' ELSE 'player' END"
        )
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT grp, SUM(CASE WHEN mine < best THEN 1 ELSE 0 END) AS won,"
                " SUM(CASE WHEN mine > best THEN 1 ELSE 0 END) AS lost,"
                " SUM(CASE WHEN mine = best THEN 1 ELSE 0 END) AS tied FROM ("
                f"SELECT a.game_id, MIN(a.place) AS mine, {group} AS grp, MIN(b.place) AS best"
                " FROM seat_results a JOIN seat_results b"
                " ON b.game_id = a.game_id AND b.identity <> a.identity"
                f" WHERE {where} AND (b.identity = ? OR b.identity LIKE 'cynthia:%'"
                " OR b.identity LIKE 'expert:%')"
                f" GROUP BY a.game_id, {group}) AS t GROUP BY grp",
                (*params, opponent or ""),
            )
        return {r["grp"]: (int(r["won"]), int(r["lost"]), int(r["tied"])) for r in rows}

    async def hidden_users(self, user_ids: Sequence[int]) -> set[int]:
        """Which of these people hid their profile."""
        if not user_ids:
            return set()
        marks = ", ".join("?" for _ in user_ids)
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT user_id FROM hidden_players WHERE user_id IN ({marks})", tuple(user_ids)
            )
        return {r["user_id"] for r in rows}

    async def _finished(
        self, conn: Connection, ids: Sequence[int], *, notations: bool = False
    ) -> list[FinishedGame]:
        """The finished games with these ids, in this order (a damaged one left out)."""
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        games = {
            g.id: g
            for g in await self._fetch_games(conn, f"id IN ({marks})", tuple(ids))
            if isinstance(g, GameRow)
        }
        results: dict[int, list[ResultRow]] = {i: [] for i in ids}
        for r in await conn.fetch(
            f"SELECT * FROM seat_results WHERE game_id IN ({marks}) ORDER BY game_id, position",
            tuple(ids),
        ):
            results[r["game_id"]].append(ResultRow.from_row(r))
        leavers: dict[int, dict[int, tuple[int, str]]] = {i: {} for i in ids}
        for r in await conn.fetch(
            f"SELECT game_id, position, user_id, name FROM seat_leavers WHERE game_id IN ({marks})",
            tuple(ids),
        ):
            leavers[r["game_id"]][r["position"]] = (r["user_id"], r["name"])
        threads = {
            r["game_id"]: r["channel_id"]
            for r in await conn.fetch(
                "SELECT game_id, channel_id FROM messages WHERE kind = 'thread'"
                f" AND game_id IN ({marks})",
                tuple(ids),
            )
        }
        moves: dict[int, list[str]] = {i: [] for i in ids}
        if notations:
            for r in await conn.fetch(
                f"SELECT game_id, notation FROM actions WHERE game_id IN ({marks})"
                " ORDER BY game_id, ply",
                tuple(ids),
            ):
                moves[r["game_id"]].append(r["notation"])
        return [
            FinishedGame(
                games[i],
                tuple(results[i]),
                leavers[i],
                threads.get(i),
                results[i][0].finished_at,
                tuple(moves[i]),
            )  # fmt: skip
            for i in ids
            if i in games and results[i]
        ]

    # --- ratings ---

    async def player_ratings(
        self, identity: str, scopes: Sequence[int], min_games: int, points: int
    ) -> list[tuple[RatingRow, int | None, list[HistoryRow]]]:
        """An identity's ratings in these scopes (each family), each with its rank on its
        leaderboard (None: not ranked) and its last `points` history points, oldest first: one
        read of three statements (a profile's)."""
        marks = ", ".join("?" for _ in scopes)
        async with self._reading() as conn:
            hidden = await conn.fetchrow(
                "SELECT 1 AS hidden FROM hidden_players WHERE identity = ?", (identity,)
            )
            rows = await conn.fetch(
                f"SELECT r.*, ({AHEAD}) AS ahead FROM ratings r"
                f" WHERE r.identity = ? AND r.scope IN ({marks}) ORDER BY r.scope, r.family",
                (min_games, identity, *scopes),
            )
            history: dict[tuple[int, str], list[HistoryRow]] = {
                (r["scope"], r["family"]): [] for r in rows
            }
            if rows:
                latest = " UNION ALL ".join(
                    f"SELECT * FROM (SELECT * FROM rating_history WHERE identity = ?"
                    f" AND scope = ? AND family = ? ORDER BY games DESC LIMIT ?) AS h{i}"
                    for i in range(len(rows))
                )
                params = [v for r in rows for v in (identity, r["scope"], r["family"], points)]
                for h in await conn.fetch(latest, params):
                    history[(h["scope"], h["family"])].append(_history(h))
        ranked = hidden is None and ri.is_ranked(identity)
        return [
            (
                _rating(r),
                1 + int(r["ahead"]) if ranked and r["games"] >= min_games else None,
                sorted(history[(r["scope"], r["family"])], key=lambda h: h.games),
            )
            for r in rows
        ]

    async def leaderboard(
        self, scope: int, family: str, min_games: int, size: int, page: int, reader: str | None
    ) -> tuple[list[RatingRow], int, int, tuple[int, RatingRow] | None]:
        """A page of `size` ranked ratings of a scope and family, best first (ordinal, then
        identity), in one read: its rows, how many are ranked, the page shown (counting from
        0; a page past the end is the last one), and the rank and rating of the `reader`
        identity (None: not ranked there)."""
        params = (scope, family, min_games)
        async with self._reading() as conn:
            counted = await conn.fetchrow(
                f"SELECT COUNT(*) AS n FROM ratings WHERE {RANKED}", params
            )
            total = 0 if counted is None else int(counted["n"])
            page = max(0, min(page, (total - 1) // size if total else 0))
            rows = await conn.fetch(
                f"SELECT * FROM ratings WHERE {RANKED} ORDER BY ordinal DESC, identity"
                " LIMIT ? OFFSET ?",
                (*params, size, page * size),
            )
            mine = None if reader is None else await self._rank(conn, *params, reader)
        return [_rating(r) for r in rows], total, page, mine

    async def _rank(
        self, conn: Connection, scope: int, family: str, min_games: int, identity: str
    ) -> tuple[int, RatingRow] | None:
        row = await conn.fetchrow(
            f"SELECT * FROM ratings WHERE {RANKED} AND identity = ?",
            (scope, family, min_games, identity),
        )
        if row is None:
            return None
        ahead = await conn.fetchrow(
            f"SELECT COUNT(*) AS n FROM ratings WHERE {RANKED}"
            " AND (ordinal > ? OR (ordinal = ? AND identity < ?))",
            (scope, family, min_games, row["ordinal"], row["ordinal"], identity),
        )
        return 1 + (0 if ahead is None else int(ahead["n"])), _rating(row)

    # --- the rebuild ---

    async def rated_results(self) -> list[rc.GameResult]:
        """Every recorded finished game as the ratings take it, in the order they are rated."""
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                "SELECT s.game_id, s.position, s.identity, s.guild_id, s.family, s.place,"
                " s.finished_at, g.config, g.options FROM seat_results s"
                " LEFT JOIN games g ON g.id = s.game_id"
                " ORDER BY s.finished_at, s.game_id, s.position"
            )
        # (the tutorial's practice game and the daily challenge are recorded, not rated)
        kinds = {(r["config"], r["options"]) for r in rows if r["config"]}
        rated = {k: rc.rated(json.loads(k[0]), json.loads(k[1] or "{}")) for k in kinds}
        rows = [r for r in rows if rated.get((r["config"], r["options"]), True)]
        results: list[rc.GameResult] = []
        game: int | None = None
        seats: list[rc.SeatResult] = []
        for i, r in enumerate(rows):
            seats.append(rc.SeatResult(r["identity"], r["place"]))
            if i + 1 == len(rows) or rows[i + 1]["game_id"] != r["game_id"]:
                game = r["game_id"]
                results.append(
                    rc.GameResult(game, r["finished_at"], r["guild_id"], r["family"], tuple(seats))
                )
                seats = []
        return results

    async def results_mark(self) -> tuple[int, str | None]:
        """How many games are recorded and the last finish: unchanged, no game ended."""
        async with self._reading_one() as conn:
            return await self._mark(conn)

    async def _mark(self, conn: Connection) -> tuple[int, str | None]:
        row = await conn.fetchrow(
            "SELECT COUNT(*) AS n, MAX(finished_at) AS last FROM games"
            " WHERE finished_at IS NOT NULL"
        )
        return (0, None) if row is None else (int(row["n"]), row["last"])

    async def replace_ratings(
        self,
        ratings: rc.Ratings,
        seasons: Mapping[rs.SeasonKey, rc.Rating],
        mark: tuple[int, str | None],
    ) -> bool:
        """Replace every rating and its history by `ratings`, and every season rating by
        `seasons` (a rebuild from the games of `mark`, `results_mark`); False, and nothing
        changed, when a game ended meanwhile. The final standings of the seasons that ended
        are kept as they were stored."""
        async with self._transaction() as conn:
            if self.ratings_lock:
                await conn.execute(self.ratings_lock)
            if await self._mark(conn) != mark:
                return False
            await conn.execute("DELETE FROM ratings")
            await conn.execute("DELETE FROM rating_history")
            await conn.execute("DELETE FROM season_ratings")
            await conn.insert_rows(
                "season_ratings",
                SEASON_COLUMNS,
                [
                    season_row(k.season, rc.RatingKey(k.scope, k.family, k.identity), r)
                    for k, r in seasons.items()
                ],
            )
            await conn.execute("DELETE FROM season_counts")
            await conn.execute(
                "INSERT INTO season_counts (season, scope, family, bucket, n)"
                " SELECT t.season, t.scope, t.family, t.bucket, COUNT(*) FROM season_ratings t"
                f" WHERE {COUNTED} GROUP BY t.season, t.scope, t.family, t.bucket",
                (rs.RANKED_FROM,),
            )
            await conn.insert_rows(
                "ratings", RATING_COLUMNS, [rating_row(k, r) for k, r in ratings.table.items()]
            )
            await conn.insert_rows(
                "rating_history",
                HISTORY_COLUMNS,
                [  # in the key order a profile reads them in (`player_ratings`)
                    history_row(k, p)
                    for k, points in sorted(
                        ratings.history.items(),
                        key=lambda kv: (kv[0].identity, kv[0].scope, kv[0].family),  # fmt: skip
                    )
                    for p in points
                ],
            )
        return True

    async def stored_ratings(self) -> dict[rc.RatingKey, rc.Rating]:
        """Every stored rating (for the rebuild's digest and the tests)."""
        async with self._reading_one() as conn:
            rows = await conn.fetch("SELECT scope, family, identity, mu, sigma, games FROM ratings")
        return {
            rc.RatingKey(r["scope"], r["family"], r["identity"]): rc.Rating(
                float(r["mu"]), float(r["sigma"]), r["games"]
            )
            for r in rows
        }

    async def unrecorded_games(self) -> list[GameRow]:
        """The finished games whose results are not kept (finished before they were)."""
        return await self._read_games("status = 'over' AND finished_at IS NULL", ())

    async def record_results(self, game_id: int, finish: Finish, finished_at: str) -> bool:
        """Keep the results of a game that finished before results were kept (not rated:
        the rebuild rates every game after); False when they are kept already (another
        process starting at the same time recorded them)."""
        async with self._transaction() as conn:
            if self.ratings_lock:
                await conn.execute(self.ratings_lock)
            row = await conn.fetchrow("SELECT finished_at FROM games WHERE id = ?", (game_id,))
            if row is None or row["finished_at"] is not None:
                return False
            await self._record_finish(conn, game_id, finish, finished_at=finished_at, rate=False)
        return True

    # --- privacy ---

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        """Hide a person from the leaderboards and others' view of their profile, or not (and
        count their season ratings on their boards, or not: `season_counts`)."""
        async with self._transaction() as conn:
            if self.ratings_lock:  # (a daily result kept meanwhile: one after the other)
                await conn.execute(self.ratings_lock)
            if not hidden:
                shown = await conn.execute(
                    "DELETE FROM hidden_players WHERE user_id = ?", (user_id,)
                )
                if shown == 1:  # back on the daily leaderboards and the season boards
                    await count_results(conn, user_id, 1)
                    await self._count_person(conn, ri.person(user_id), 1)
                return
            hid = await conn.execute(
                "INSERT INTO hidden_players (user_id, identity, since) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO NOTHING",
                (user_id, ri.person(user_id), self._clock()),
            )
            if hid == 1:  # off the daily leaderboards' and the season boards' counts
                await count_results(conn, user_id, -1)
                await self._count_person(conn, ri.person(user_id), -1)

    async def is_hidden(self, user_id: int) -> bool:
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                "SELECT 1 AS hidden FROM hidden_players WHERE user_id = ?", (user_id,)
            )
        return row is not None

    async def in_live_game(self, user_id: int) -> bool:
        """Whether a person holds a seat in a lobby or a game in play (`forget_user` refuses)."""
        async with self._reading_one() as conn:
            return await self._in_live_game(conn, user_id)

    async def _in_live_game(self, conn: Connection, user_id: int) -> bool:
        live = await conn.fetchrow(
            "SELECT 1 AS live FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'active')"
            # (a daily challenge being played does not hold one back: it is abandoned)
            " AND NOT EXISTS (SELECT 1 FROM daily_results d WHERE d.game_id = g.id)",
            (user_id,),
        )
        return live is not None

    async def forget_user(self, user_id: int) -> int | None:
        """Remove a person's id and name from every table: each seat of theirs becomes a former
        player's (`FORMER_NAME`, no user id; its result, and their ratings, a new nameless
        identity's: `identity.forgotten`), their actions, clocks and jobs lose their id, the
        games they hosted their host (0), their settings (language, notifications, followed and
        muted games, the tutorial's progress, their puzzle rating and attempts) and hidden flag
        go. The games stay complete
        (their logs are untouched). Returns how many games had a seat of theirs; None, and
        nothing changed, while they hold a seat in a lobby or a game in play."""
        async with self._transaction() as conn:
            if self.ratings_lock:  # (their daily results counted or not: one at a time)
                await conn.execute(self.ratings_lock)
            if await self._in_live_game(conn, user_id):
                return None
            hidden = await is_hidden(conn, user_id)
            seats = await conn.fetch(
                "SELECT game_id, position FROM seats WHERE user_id = ?"
                " UNION SELECT game_id, position FROM seat_leavers WHERE user_id = ?",
                (user_id, user_id),
            )
            person, nameless = ri.person(user_id), ri.forgotten()
            for seat in seats:
                game_id, position = seat["game_id"], seat["position"]
                await conn.execute(
                    "UPDATE seats SET user_id = NULL, name = ? WHERE game_id = ? AND position = ?",
                    (FORMER_NAME, game_id, position),
                )
                await conn.execute(
                    "UPDATE seat_results SET identity = ?, user_id = NULL"
                    " WHERE game_id = ? AND position = ?",
                    (nameless, game_id, position),
                )
            await conn.execute("DELETE FROM seat_leavers WHERE user_id = ?", (user_id,))
            # Any result still holding them (a seat they held twice cannot be; kept safe).
            await conn.execute(
                "UPDATE seat_results SET user_id = NULL WHERE user_id = ?", (user_id,)
            )
            for table in ("actions", "turn_clocks", "timer_jobs"):
                await conn.execute(
                    f"UPDATE {table} SET user_id = NULL WHERE user_id = ?", (user_id,)
                )
            await conn.execute("UPDATE games SET host_id = 0 WHERE host_id = ?", (user_id,))
            # Their season ratings leave their leaderboards' counts (a forgotten seat's is never
            # ranked; a hidden person's is not counted)...
            if not hidden:
                await self._count_person(conn, person, -1)
            # ...and their ratings become the nameless identity's: a rebuild gives the same
            # numbers.
            for table in ("ratings", "rating_history", "season_ratings"):
                await conn.execute(
                    f"UPDATE {table} SET identity = ? WHERE identity = ?", (nameless, person)
                )
            # Their final standings of the seasons that ended go.
            await conn.execute("DELETE FROM season_standings WHERE identity = ?", (person,))
            await conn.execute("DELETE FROM hidden_players WHERE user_id = ?", (user_id,))
            await conn.execute("DELETE FROM user_preferences WHERE user_id = ?", (user_id,))
            await conn.execute("DELETE FROM game_follows WHERE user_id = ?", (user_id,))
            await conn.execute("DELETE FROM tutorial_progress WHERE user_id = ?", (user_id,))
            await conn.execute("DELETE FROM puzzle_attempts WHERE user_id = ?", (user_id,))
            await conn.execute("DELETE FROM puzzle_players WHERE user_id = ?", (user_id,))
            if not hidden:  # off the daily leaderboards' counts (a hidden one is), then gone
                await count_results(conn, user_id, -1)
            await conn.execute("DELETE FROM daily_results WHERE user_id = ?", (user_id,))
            await conn.execute(
                "DELETE FROM language_settings WHERE scope = 'user' AND id = ?", (user_id,)
            )
        log.info("a person was forgotten", extra={"games": len(seats)})
        return len(seats)


def _finished_ids(
    guild_id: int, since: str | None, until: str | None
) -> tuple[str, tuple[object, ...]]:
    """The query of a server's finished games' numbers, in order (`finished_games`' selection:
    those finished from `since` and before `until`, when given), and its parameters."""
    where = "guild_id = ?"
    params: list[object] = [guild_id]
    if since is not None:
        where, params = where + " AND finished_at >= ?", [*params, since]
    if until is not None:
        where, params = where + " AND finished_at < ?", [*params, until]
    sql = f"SELECT DISTINCT game_id FROM seat_results WHERE {where} ORDER BY game_id"
    return sql, tuple(params)
