"""The SQL of a game's result written with its end: the seats' results and the ratings they
change (`bot.ratings`), in the transaction that records the end.

The ratings are updated in the order the games finish: `finished_at` is given under the
ratings' lock (a database lock on PostgreSQL, where several processes may end games at once;
SQLite's writes are one at a time already), later than every finish before it, so that the
live updates rate the games in exactly the order `python -m bot.ratings rebuild` sorts them
(`bot.ratings.GameResult.order`): the rebuild gives the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from bot.ratings import core as rc
from bot.ratings import identity as ri
from bot.storage.interface import Connection
from bot.storage.rows import Finish, FinishedSeat
from bot.storage.sql.base import SQLBase

#: The columns of `seat_results`, in the order the inserts give them.
RESULT_COLUMNS = (
    "game_id",
    "position",
    "identity",
    "user_id",
    "guild_id",
    "family",
    "seat_count",
    "place",
    "score",
    "parts",
    "animal",
    "left_game",
    "finished_at",
)
RATING_COLUMNS = ("scope", "family", "identity", "mu", "sigma", "games", "ordinal")
HISTORY_COLUMNS = (
    "identity",
    "scope",
    "family",
    "games",
    "game_id",
    "finished_at",
    "mu",
    "sigma",
    "place",
)


def later_than(last: str | None, now: str) -> str:
    """`now`, or (when the clock says no later than the last finish) the last finish plus a
    millisecond: finish times strictly increase in the order the games are rated."""
    if last is None or now > last:
        return now
    return (datetime.fromisoformat(last) + timedelta(milliseconds=1)).isoformat(
        timespec="milliseconds"
    )


def rating_row(key: rc.RatingKey, rating: rc.Rating) -> tuple[object, ...]:
    """A `ratings` row (`RATING_COLUMNS`)."""
    return (key.scope, key.family, key.identity, rating.mu, rating.sigma, rating.games,
            rating.ordinal)  # fmt: skip


def history_row(key: rc.RatingKey, point: rc.HistoryPoint) -> tuple[object, ...]:
    """A `rating_history` row (`HISTORY_COLUMNS`)."""
    r = point.rating
    return (key.identity, key.scope, key.family, r.games, point.game_id, point.finished_at,
            r.mu, r.sigma, point.place)  # fmt: skip


class ResultSQL(SQLBase):
    """Writes a finished game's results and its rating changes (`_record_finish`)."""

    #: Serialises the rating updates of every process (PostgreSQL); SQLite writes one at a time.
    ratings_lock = ""

    async def _record_finish(
        self,
        conn: Connection,
        game_id: int,
        finish: Finish,
        *,
        finished_at: str | None = None,
        rate: bool = True,
    ) -> str:
        """Record a finished game's results (and, when `rate`, update the ratings) in the
        transaction of `conn`; returns its finish time (given: a game finished before results
        were kept; else now, under the ratings' lock)."""
        if self.ratings_lock:
            await conn.execute(self.ratings_lock)
        game = await conn.fetchrow(
            "SELECT guild_id, config, options FROM games WHERE id = ?", (game_id,)
        )
        if game is None or game["config"] is None:
            raise ValueError(f"game {game_id} was not started")
        config = json.loads(game["config"])
        if finished_at is None:
            last = await conn.fetchrow(
                "SELECT MAX(finished_at) AS last FROM games WHERE finished_at IS NOT NULL"
            )
            finished_at = later_than(None if last is None else last["last"], self._clock())
        await conn.execute("UPDATE games SET finished_at = ? WHERE id = ?", (finished_at, game_id))
        seats = await conn.fetch(
            "SELECT position, kind, user_id FROM seats WHERE game_id = ? ORDER BY position",
            (game_id,),
        )
        leavers = {
            r["position"]: r["user_id"]
            for r in await conn.fetch(
                "SELECT position, user_id FROM seat_leavers WHERE game_id = ?", (game_id,)
            )
        }
        by_position: Mapping[int, FinishedSeat] = {s.position: s for s in finish.seats}
        if sorted(by_position) != [s["position"] for s in seats]:
            raise ValueError(f"game {game_id}: one result per seat")
        family = rc.family_of(config)
        rows: list[tuple[object, ...]] = []
        places: list[rc.SeatResult] = []
        for seat in seats:
            position = seat["position"]
            user_id = seat["user_id"]
            left = user_id is None and position in leavers
            if left:
                user_id = leavers[position]
            who = ri.seat_identity(seat["kind"], user_id, config, game_id, position)
            done = by_position[position]
            rows.append(
                (
                    game_id,
                    position,
                    who,
                    user_id,
                    game["guild_id"],
                    family,
                    len(seats),
                    done.place,
                    done.score,
                    json.dumps(done.parts, sort_keys=True),
                    done.animal,
                    int(left),
                    finished_at,
                )  # fmt: skip
            )
            places.append(rc.SeatResult(who, done.place))
        await conn.executemany(
            f"INSERT INTO seat_results ({', '.join(RESULT_COLUMNS)})"
            f" VALUES ({', '.join('?' for _ in RESULT_COLUMNS)})",
            rows,
        )
        # (the tutorial's practice game and the daily challenge are not rated)
        if rate and rc.rated(config, json.loads(game["options"])):
            result = rc.GameResult(game_id, finished_at, game["guild_id"], family, tuple(places))
            await self._rate(conn, result)
        return finished_at

    async def _rate(self, conn: Connection, result: rc.GameResult) -> None:
        """Update the ratings a game changes (read under the ratings' lock)."""
        current: dict[rc.RatingKey, rc.Rating] = {}
        for key in rc.keys_of(result):
            row = await conn.fetchrow(
                "SELECT mu, sigma, games FROM ratings WHERE scope = ? AND family = ?"
                " AND identity = ?",
                key,
            )
            if row is not None:
                current[key] = rc.Rating(float(row["mu"]), float(row["sigma"]), row["games"])
        changes = rc.rate_game(lambda key: current.get(key, rc.NEW), result)
        await self._write_changes(conn, result, changes)

    async def _write_changes(
        self, conn: Connection, result: rc.GameResult, changes: Sequence[rc.Change]
    ) -> None:
        updates = ", ".join(f"{c} = excluded.{c}" for c in RATING_COLUMNS[3:])
        await conn.executemany(
            f"INSERT INTO ratings ({', '.join(RATING_COLUMNS)})"
            f" VALUES ({', '.join('?' for _ in RATING_COLUMNS)})"
            f" ON CONFLICT (scope, family, identity) DO UPDATE SET {updates}",
            [rating_row(c.key, c.after) for c in changes],
        )
        await conn.executemany(
            f"INSERT INTO rating_history ({', '.join(HISTORY_COLUMNS)})"
            f" VALUES ({', '.join('?' for _ in HISTORY_COLUMNS)})",
            [
                history_row(
                    c.key, rc.HistoryPoint(result.game_id, result.finished_at, c.after, c.place)
                )  # fmt: skip
                for c in changes
            ],
        )
