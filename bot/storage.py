"""Persistent storage: games, seats, the action log, message ids, user preferences.

The action log is the source of truth: a started game is its engine config, its seed and one row
per applied action; `bot.games` rebuilds the state by replaying it. Snapshots are only a cache.

`Storage` is the small async interface the rest of the bot uses; `SQLiteStorage` implements it
with aiosqlite (WAL journal, foreign keys on, a schema version with forward migrations). A
PostgreSQL module would implement the same protocol.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import aiosqlite

log = logging.getLogger(__name__)

LIVE_STATUSES = ("lobby", "active")
STATUSES = ("lobby", "active", "over", "abandoned", "expired")


class StorageError(Exception):
    """Base class of the storage errors the service layer handles."""


class StorageUnwritable(StorageError):
    """The database can be read but not written (read-only file, directory or mount)."""


class ChannelBusy(StorageError):
    """The channel already holds a game in the lobby or in play."""


class UnreadableGame(StorageError):
    """A stored game that cannot be loaded: its row is damaged (for example `options` that is
    not JSON) or its action log no longer replays. It is quarantined (`quarantine`): the rest
    of the bot goes on, and its channel is told when someone uses it."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be loaded: {reason}")
        self.game_id = game_id
        self.reason = reason


class VersionConflict(StorageError):
    """The game changed since the caller read it (optimistic concurrency check failed)."""


@dataclass(frozen=True)
class SeatRow:
    """One seat: its position (join order in the lobby, seat index once started)."""

    position: int
    kind: str  # "human" or "cynthia"
    user_id: int | None
    name: str


@dataclass(frozen=True)
class GameRow:
    """One game as stored."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    config: dict[str, Any] | None
    seed: int
    version: int
    created_at: str
    updated_at: str
    seats: tuple[SeatRow, ...] = field(default=())

    @property
    def is_live(self) -> bool:
        """Whether the game still occupies its channel (lobby or in play)."""
        return self.status in LIVE_STATUSES


@dataclass(frozen=True)
class NewAction:
    """An action to append to the log."""

    ply: int
    notation: str
    seat: int
    user_id: int | None
    explanation: str | None = None


@dataclass(frozen=True)
class ActionRow:
    """One applied action as stored (ply counts from 1)."""

    ply: int
    notation: str
    seat: int
    user_id: int | None
    explanation: str | None
    created_at: str


class Storage(Protocol):
    """What the bot needs from a database. Every method is one atomic step."""

    async def close(self) -> None: ...

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
    ) -> GameRow: ...

    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def live_game(self, channel_id: int) -> GameRow | None: ...

    async def latest_started_game(self, channel_id: int) -> GameRow | None: ...

    async def games_with_status(self, *statuses: str) -> list[GameRow]: ...

    async def quarantine(self, game_id: int, reason: str) -> None: ...

    async def quarantined(self) -> dict[int, str]: ...

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        seats: Sequence[SeatRow] | None = None,
        options: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
        status: str | None = None,
        host_id: int | None = None,
        actions: Sequence[NewAction] = (),
        truncate_after: int | None = None,
        snapshot: tuple[int, dict[str, Any]] | None = None,
        job_outcome: tuple[int, str] | None = None,
    ) -> GameRow: ...

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]: ...

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None: ...

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None: ...

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None: ...

    async def preferences(self, user_id: int) -> dict[str, Any]: ...

    async def set_preferences(self, user_id: int, preferences: dict[str, Any]) -> None: ...


# --- schema -------------------------------------------------------------------------------------

#: The games of a channel: those opened in it, and the one whose thread it is (a game is played
#: in a thread started from its lobby message; its id is stored as the message kind "thread").
IN_CHANNEL = (
    "SELECT id FROM games WHERE channel_id = ?"
    " UNION SELECT game_id FROM messages WHERE kind = 'thread' AND channel_id = ?"
)

#: Forward migrations: MIGRATIONS[i] brings the schema from version i to version i + 1.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: games, seats, the action log, message ids.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned', 'expired')),
            options TEXT NOT NULL,
            config TEXT,
            seed INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )""",
        """CREATE UNIQUE INDEX games_one_live_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'active')""",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('human', 'cynthia')),
            user_id INTEGER,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, position)
        )""",
        """CREATE UNIQUE INDEX seats_one_per_user
            ON seats (game_id, user_id) WHERE user_id IS NOT NULL""",
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            ply INTEGER NOT NULL CHECK (ply >= 1),
            notation TEXT NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)
        )""",
        """CREATE TABLE messages (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            channel_id INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            PRIMARY KEY (game_id, kind)
        )""",
    ),
    # 2: the automa's explanation of each of its actions; user preferences.
    (
        "ALTER TABLE actions ADD COLUMN explanation TEXT",
        """CREATE TABLE user_preferences (
            user_id INTEGER PRIMARY KEY,
            preferences TEXT NOT NULL DEFAULT '{}',
            updated_at TEXT NOT NULL
        )""",
    ),
    # 3: a state snapshot per game, a cache that spares replaying the whole log.
    (
        """CREATE TABLE snapshots (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            ply INTEGER NOT NULL,
            state TEXT NOT NULL
        )""",
    ),
    # 4: turn timers (bot.timers): the clock of each game's current turn, and the scheduler's
    # jobs (deadlines and reminders), each tied to one turn and fired at most once.
    (
        """CREATE TABLE turn_clocks (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            turn TEXT NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            started_at REAL NOT NULL,
            paused_at REAL,
            paused_total REAL NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE timer_jobs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            turn TEXT NOT NULL,
            kind TEXT NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            due_at REAL NOT NULL,
            fired_at REAL,
            outcome TEXT,
            UNIQUE (game_id, turn, kind)
        )""",
        "CREATE INDEX timer_jobs_pending ON timer_jobs (due_at) WHERE fired_at IS NULL",
    ),
    # 5: how many times a job's handler failed (bot.scheduler plans a failed deadline again).
    ("ALTER TABLE timer_jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",),
    # 6: games that cannot be loaded, set aside with the reason (`UnreadableGame`).
    (
        """CREATE TABLE quarantined_games (
            game_id INTEGER PRIMARY KEY,
            reason TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
    ),  # 7: a turn is stored as `engine.turn_id` ("play:3:1", "setup:2:0"), no longer the JSON list
    #    the bot used to build itself (["play", 3, null, 1], ["setup", 0, 2, 0]).
    tuple(
        f"""UPDATE {table} SET turn = CASE json_extract(turn, '$[0]')
            WHEN 'setup' THEN 'setup:' || json_extract(turn, '$[2]') || ':'
                || json_extract(turn, '$[3]')
            ELSE json_extract(turn, '$[0]') || ':' || json_extract(turn, '$[1]') || ':'
                || json_extract(turn, '$[3]')
            END
        WHERE json_valid(turn) AND json_type(turn) = 'array'"""
        for table in ("turn_clocks", "timer_jobs")
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class SQLiteStorage:
    """`Storage` on one aiosqlite connection.

    aiosqlite runs every statement on one worker thread; an asyncio lock keeps one coroutine's
    transaction from interleaving with another's.
    """

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], str] = _utcnow) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._clock = clock

    # --- life cycle ---

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        migrate_to: int = SCHEMA_VERSION,
        clock: Callable[[], str] = _utcnow,
    ) -> SQLiteStorage:
        """Open (creating if needed) the database at `path` and migrate it to `migrate_to`."""
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        storage = cls(conn, clock)
        try:
            await storage.migrate(migrate_to)
            await storage.check_writable(path)
        except BaseException:
            await conn.close()
            raise
        return storage

    async def check_writable(self, where: str) -> None:
        """Raise `StorageUnwritable` unless a write goes through: SQLite opens a read-only file
        without complaint, and a migrated database needs no write at start, so without this
        probe the first player's click would be the first write to fail. The probe rewrites
        the schema version inside a transaction it rolls back."""
        try:
            async with self._lock:
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    version = await self.schema_version()
                    await self._conn.execute(f"PRAGMA user_version = {version}")
                finally:
                    await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            raise StorageUnwritable(f"database {where} is not writable: {exc}") from exc

    async def close(self) -> None:
        """Close the connection."""
        await self._conn.close()

    async def schema_version(self) -> int:
        """The schema version of the open database (`PRAGMA user_version`)."""
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Apply the forward migrations up to `target`, each in its own transaction."""
        if not 0 <= target <= SCHEMA_VERSION:
            raise ValueError(f"unknown schema version {target}")
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(
                f"the database has schema version {current}, newer than this bot ({SCHEMA_VERSION})"
            )
        async with self._lock:
            for version in range(current, target):
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[version]:
                        await self._conn.execute(statement)
                    await self._conn.execute(f"PRAGMA user_version = {version + 1}")
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise
                await self._conn.execute("COMMIT")
        return await self.schema_version()

    def transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """A write transaction on the shared connection, for companion stores that keep their
        own tables in this database (`bot.timers`)."""
        return self._transaction()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The shared connection for reads, under the storage lock (companion stores)."""
        async with self._lock:
            yield self._conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    # --- games ---

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
    ) -> GameRow:
        """Create a lobby with the host in the first seat. Raises `ChannelBusy`."""
        now = self._clock()
        try:
            async with self._transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, options, seed,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, 0, ?, ?)",
                    (guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
                )
                game_id = cur.lastrowid
                await conn.execute(
                    "INSERT INTO seats (game_id, position, kind, user_id, name)"
                    " VALUES (?, 0, 'human', ?, ?)",
                    (game_id, host_id, host_name),
                )
                game = await self._fetch_game(conn, "id = ?", (game_id,))
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy(str(exc)) from exc
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        return await self._read_game("id = ?", (game_id,))

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or in play in this channel, or in this game thread, or None."""
        return await self._read_game(
            f"id IN ({IN_CHANNEL}) AND status IN ('lobby', 'active')", (channel_id, channel_id)
        )

    async def latest_started_game(self, channel_id: int) -> GameRow | None:
        """The most recent game of a channel (or the game of a game thread) that got past its
        lobby, or None."""
        return await self._read_game(
            f"id = (SELECT MAX(id) FROM games WHERE id IN ({IN_CHANNEL}) AND config IS NOT NULL)",
            (channel_id, channel_id),
        )

    async def _read_game(self, where: str, params: Sequence[Any]) -> GameRow | None:
        """One game (see `_fetch_game`); a damaged one is quarantined before it is raised."""
        try:
            async with self._lock:
                return await self._fetch_game(self._conn, where, params)
        except UnreadableGame as exc:
            await self.quarantine(exc.game_id, exc.reason)
            raise

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """Every game whose status is one of `statuses`, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        async with self._lock:
            async with self._conn.execute(
                f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", statuses
            ) as cur:
                ids = [row["id"] for row in await cur.fetchall()]
            games, unreadable = [], []
            for i in ids:
                try:
                    games.append(await self._fetch_game(self._conn, "id = ?", (i,)))
                except UnreadableGame as exc:
                    unreadable.append(exc)
        for exc in unreadable:  # the others are still served
            await self.quarantine(exc.game_id, exc.reason)
        return [g for g in games if g is not None]

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set a game that cannot be loaded aside: marked with its reason (once) and logged."""
        async with self._lock:
            cur = await self._conn.execute(
                "INSERT OR IGNORE INTO quarantined_games (game_id, reason, at) VALUES (?, ?, ?)",
                (game_id, reason, _utcnow()),
            )
            await self._conn.commit()
        if cur.rowcount:
            log.error("game %d quarantined: %s", game_id, reason, extra={"game_id": game_id})

    async def quarantined(self) -> dict[int, str]:
        """The quarantined games and why each cannot be loaded."""
        sql = "SELECT game_id, reason FROM quarantined_games"
        async with self._lock, self._conn.execute(sql) as cur:
            return {row["game_id"]: row["reason"] for row in await cur.fetchall()}

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        seats: Sequence[SeatRow] | None = None,
        options: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
        status: str | None = None,
        host_id: int | None = None,
        actions: Sequence[NewAction] = (),
        truncate_after: int | None = None,
        snapshot: tuple[int, dict[str, Any]] | None = None,
        job_outcome: tuple[int, str] | None = None,
    ) -> GameRow:
        """Apply one change atomically and bump the game's version.

        `truncate_after` removes the logged actions with a greater ply (an undo) before
        `actions` are appended. `job_outcome` (job id, outcome) records, in the same
        transaction, what a timer job did (a deadline's turn and its pending notice: never one
        without the other).

        Raises `VersionConflict` when the stored version is not `expected_version`.
        """
        now = self._clock()
        async with self._transaction() as conn:
            sets, params = ["version = version + 1", "updated_at = ?"], [now]
            if options is not None:
                sets.append("options = ?")
                params.append(json.dumps(options))
            if config is not None:
                sets.append("config = ?")
                params.append(json.dumps(config))
            if status is not None:
                if status not in STATUSES:
                    raise ValueError(f"unknown status {status!r}")
                sets.append("status = ?")
                params.append(status)
            if host_id is not None:
                sets.append("host_id = ?")
                params.append(host_id)
            cur = await conn.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not at version {expected_version}")
            if seats is not None:
                await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                await conn.executemany(
                    "INSERT INTO seats (game_id, position, kind, user_id, name)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(game_id, s.position, s.kind, s.user_id, s.name) for s in seats],
                )
            if truncate_after is not None:
                await conn.execute(
                    "DELETE FROM actions WHERE game_id = ? AND ply > ?", (game_id, truncate_after)
                )
            if actions:
                await conn.executemany(
                    "INSERT INTO actions (game_id, ply, notation, seat, user_id, explanation,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (game_id, a.ply, a.notation, a.seat, a.user_id, a.explanation, now)
                        for a in actions
                    ],
                )
            if snapshot is not None:
                ply, state = snapshot
                await conn.execute(
                    "INSERT INTO snapshots (game_id, ply, state) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, state = excluded.state",
                    (game_id, ply, json.dumps(state)),
                )
            if job_outcome is not None:
                job_id, outcome = job_outcome
                await conn.execute(
                    "UPDATE timer_jobs SET outcome = ? WHERE id = ?", (outcome[:1000], job_id)
                )
            game = await self._fetch_game(conn, "id = ?", (game_id,))
        assert game is not None
        return game

    async def _fetch_game(
        self, conn: aiosqlite.Connection, where: str, params: Iterable[Any]
    ) -> GameRow | None:
        async with conn.execute(f"SELECT * FROM games WHERE {where}", tuple(params)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with conn.execute(
            "SELECT position, kind, user_id, name FROM seats WHERE game_id = ? ORDER BY position",
            (row["id"],),
        ) as cur:
            seats = tuple(
                SeatRow(r["position"], r["kind"], r["user_id"], r["name"])
                for r in await cur.fetchall()
            )
        try:
            options = json.loads(row["options"])
            config = json.loads(row["config"]) if row["config"] is not None else None
        except (TypeError, ValueError) as exc:
            raise UnreadableGame(row["id"], f"its stored row does not read ({exc})") from None
        if not isinstance(options, dict) or not isinstance(config, dict | None):
            raise UnreadableGame(row["id"], "its stored options or config are not objects")
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            status=row["status"],
            options=options,
            config=config,
            seed=row["seed"],
            version=row["version"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            seats=seats,
        )

    # --- the action log ---

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]:
        """The logged actions of a game with ply > `after_ply`, in order."""
        async with (
            self._lock,
            self._conn.execute(
                "SELECT ply, notation, seat, user_id, explanation, created_at FROM actions"
                " WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, after_ply),
            ) as cur,
        ):
            rows = await cur.fetchall()
        return [
            ActionRow(
                r["ply"], r["notation"], r["seat"], r["user_id"], r["explanation"], r["created_at"]
            )
            for r in rows
        ]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The cached state snapshot of a game as `(ply, state dict)`, or None."""
        async with (
            self._lock,
            self._conn.execute(
                "SELECT ply, state FROM snapshots WHERE game_id = ?", (game_id,)
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else (row["ply"], json.loads(row["state"]))

    # --- messages ---

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the id of a game's message of some kind ("lobby", "game")."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """`(channel_id, message_id)` of a game's message of some kind, or None."""
        async with (
            self._lock,
            self._conn.execute(
                "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?",
                (game_id, kind),
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else (row["channel_id"], row["message_id"])

    # --- user preferences ---

    async def preferences(self, user_id: int) -> dict[str, Any]:
        """A user's stored preferences (empty when none)."""
        async with (
            self._lock,
            self._conn.execute(
                "SELECT preferences FROM user_preferences WHERE user_id = ?", (user_id,)
            ) as cur,
        ):
            row = await cur.fetchone()
        return {} if row is None else json.loads(row["preferences"])

    async def set_preferences(self, user_id: int, preferences: dict[str, Any]) -> None:
        """Replace a user's preferences."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_preferences (user_id, preferences, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET preferences = excluded.preferences,"
                " updated_at = excluded.updated_at",
                (user_id, json.dumps(preferences), self._clock()),
            )


async def open_storage(path: str) -> Storage:
    """Open the configured storage (SQLite at `path`), migrated to the current schema."""
    return await SQLiteStorage.open(path)
