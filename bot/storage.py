"""Persistent storage: games, seats, the action log, message ids, user preferences, turn clocks
and timer jobs. Every query of the bot lives here.

The action log is the source of truth: a started game is its engine config, its seed and one row
per applied action; `bot.games` rebuilds the state by replaying it. Snapshots are only a cache.

`Storage` is the async interface the rest of the bot uses. `SQLStorage` writes every query once
(with `?` placeholders) over a small driver interface; `SQLiteStorage` (sqlite3, the default:
WAL journal, foreign keys on) and `bot.storage_postgres.PostgresStorage` (asyncpg, for several
bot processes sharing one database) are the two drivers. Both migrate from one numbered list
(`MIGRATIONS`). `bot.databases.open_storage` picks one from the configuration (`database_url`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, get_args

import translation

from .locks import KeyedLocks

log = logging.getLogger(__name__)

#: A game's status: a lobby, then played (`active`), then over, abandoned or (a lobby) expired.
GameStatus = Literal["lobby", "active", "over", "abandoned", "expired"]
STATUSES: tuple[GameStatus, ...] = get_args(GameStatus)
LIVE_STATUSES: tuple[GameStatus, ...] = ("lobby", "active")
#: Who plays a seat: a person, Cynthia the automa, or the Expert (quick or strong).
SeatKind = Literal["human", "cynthia", "expert", "expert-strong"]
SEAT_KINDS: tuple[SeatKind, ...] = get_args(SeatKind)
#: The prefix of a `translation.Text` kept translatable in a text column (`stored_text`).
STORED_TEXT = "\x1etext:"


def stored_text(text: Any) -> str | None:
    """A text as the database keeps it: a `translation.Text` stays translatable (its template
    and parameters, as JSON after `STORED_TEXT`); a plain string as it is."""
    if text is None or not isinstance(text, translation.Text):
        return text
    return STORED_TEXT + json.dumps(translation.to_data(text), ensure_ascii=False)


def read_text(stored: str | None) -> Any:
    """A text `stored_text` kept: the `translation.Text` again (English when read as a string),
    or the plain string (rows written before texts were kept translatable)."""
    if stored is None or not stored.startswith(STORED_TEXT):
        return stored
    try:
        return translation.from_data(json.loads(stored[len(STORED_TEXT) :]))
    except (ValueError, TypeError, KeyError):
        return stored[len(STORED_TEXT) :]


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


class DamagedSnapshot(StorageError):
    """A stored state snapshot that does not read. Snapshots are a cache: it is dropped
    (`drop_snapshot`) and the state rebuilt from the action log."""


class DatabaseUrlError(StorageError, ValueError):
    """A DATABASE_URL this bot cannot use."""


class VersionConflict(StorageError):
    """The game changed since the caller read it (optimistic concurrency check failed)."""


@dataclass(frozen=True)
class SeatRow:
    """One seat: its position (join order in the lobby, seat index once started)."""

    position: int
    kind: SeatKind
    #: the name as stored (an Expert's and an autopilot's mark in English: the reader's
    #: language is the presentation's, `bot.expert_texts.shown_name`)
    user_id: int | None
    name: str


@dataclass(frozen=True)
class GameRow:
    """One game as stored."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    options: dict[str, Any]
    config: dict[str, Any] | None
    seed: int
    version: int
    created_at: str
    updated_at: str
    seats: tuple[SeatRow, ...] = field(default=())
    #: the language of the game's channel messages (`translation.LANGUAGES`)
    language: str = "en"

    @property
    def updated(self) -> datetime:
        """When the game last changed (a stored row whose time has no zone does not read)."""
        return datetime.fromisoformat(self.updated_at)

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


@dataclass(frozen=True)
class Job:
    """One scheduled job (`bot.scheduler`): `kind` for the seat `seat` in the turn `turn` of a
    game."""

    id: int
    game_id: int
    turn: str  # engine.turn_id
    kind: str
    seat: int
    user_id: int | None
    due_at: float
    fired_at: float | None = None
    outcome: str | None = None
    attempts: int = 0  # how many times its handler failed before

    @classmethod
    def from_row(cls, row: Any) -> Job:
        return cls(
            id=row["id"],
            game_id=row["game_id"],
            turn=row["turn"],
            kind=row["kind"],
            seat=row["seat"],
            user_id=row["user_id"],
            due_at=row["due_at"],
            fired_at=row["fired_at"],
            outcome=row["outcome"],
            attempts=row["attempts"],
        )


#: The columns of a turn clock (`bot.timers.TurnClock`), in the order `write_turn_clock` takes.
CLOCK_COLUMNS = (
    "game_id",
    "version",
    "turn",
    "seat",
    "user_id",
    "started_at",
    "paused_at",
    "paused_total",
)


@dataclass(frozen=True)
class ClockWrite:
    """A change to a game's turn clock and its jobs (`bot.timers`), written on its own or in
    the transaction of a play (`update_game(turn_clock=...)`): a new `clock` (values in
    `CLOCK_COLUMNS` order) with its `jobs` (kind, due_at), which replace the game's unfired
    jobs and the fired ones whose outcome is `replaced_outcome`; or only the clock's `version`
    (the same turn goes on); or neither: the clock and the unfired jobs go (no turn to time)."""

    game_id: int
    clock: tuple[Any, ...] | None = None
    jobs: tuple[tuple[str, float], ...] = ()
    replaced_outcome: str = ""
    version: int | None = None


class Storage(Protocol):
    """What the bot needs from a database. Every method is one atomic step."""

    #: Whether several bot processes may share this database (PostgreSQL).
    shared: bool

    async def close(self) -> None: ...

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The lock every change to one game runs under: an asyncio lock on SQLite (one
        process), a database lock on PostgreSQL (every process)."""
        ...

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

    async def games_of_user(self, guild_id: int, user_id: int, status: str) -> list[GameRow]: ...

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
        turn_clock: ClockWrite | None = None,
    ) -> GameRow: ...

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]: ...

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None: ...

    async def drop_snapshot(self, game_id: int) -> None: ...

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None: ...

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None: ...

    async def preferences(self, user_id: int) -> dict[str, Any]: ...

    async def set_preferences(self, user_id: int, preferences: dict[str, Any]) -> None: ...

    async def languages(
        self, user_id: int, guild_id: int | None
    ) -> tuple[str | None, str | None]: ...

    async def set_language(self, scope: str, id: int, language: str | None) -> None: ...

    # turn clocks (`bot.timers`)

    async def turn_clock(self, game_id: int) -> Mapping[str, Any] | None: ...

    async def clocks_of_user(self, user_id: int) -> list[Mapping[str, Any]]: ...

    async def write_turn_clock(
        self, clock: Sequence[Any], jobs: Sequence[tuple[str, float]], replaced_outcome: str
    ) -> None: ...

    async def clear_turn_clock(self, game_id: int) -> None: ...

    async def set_turn_clock_version(self, game_id: int, version: int) -> None: ...

    async def clear_ended_clocks(self) -> None: ...

    # timer jobs (`bot.scheduler`)

    async def claim_due_jobs(self, now: float, limit: int) -> list[Job]: ...

    async def finish_job(self, job_id: int, outcome: str) -> None: ...

    async def next_due(self) -> float | None: ...

    async def requeue_unfinished_jobs(self, pending: str) -> int: ...

    async def prune_finished_jobs(self, pending: str) -> int: ...

    async def retry_job(self, job_id: int, due_at: float) -> None: ...

    async def timer_jobs(self, game_id: int | None = None) -> list[Job]: ...


# --- schema -------------------------------------------------------------------------------------

#: The games of a channel: those opened in it, and the one whose thread it is (a game is played
#: in a thread started from its lobby message; its id is stored as the message kind "thread").
IN_CHANNEL = (
    "SELECT id FROM games WHERE channel_id = ?"
    " UNION SELECT game_id FROM messages WHERE kind = 'thread' AND channel_id = ?"
)

#: Column types per dialect, named in the migrations' DDL as {id}, {int} and {real}: Discord ids
#: need 64 bits (PostgreSQL's INTEGER has 32; SQLite's has up to 64).
DIALECT_TYPES = {
    "sqlite": {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "int": "INTEGER", "real": "REAL"},
    "postgres": {
        "id": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        "int": "BIGINT",
        "real": "DOUBLE PRECISION",
    },
}


@dataclass(frozen=True)
class Migration:
    """One step of the schema: DDL for both dialects (types as {id}, {int}, {real}) and
    statements for SQLite only (data written by the bot before PostgreSQL existed)."""

    both: tuple[str, ...]
    sqlite_only: tuple[str, ...] = ()
    postgres_only: tuple[str, ...] = ()

    def statements(self, dialect: str) -> tuple[str, ...]:
        types = DIALECT_TYPES[dialect]
        ddl = tuple(s.format(**types) for s in self.both)
        return ddl + (self.sqlite_only if dialect == "sqlite" else self.postgres_only)


#: The seat kinds: a person, Cynthia, the Expert quick or strong (`bot.experts`).
SEAT_KINDS_SQL = ", ".join(f"'{kind}'" for kind in SEAT_KINDS)

#: Forward migrations: MIGRATIONS[i] brings the schema from version i to version i + 1.
MIGRATIONS: tuple[Migration, ...] = (
    # 1: games, seats, the action log, message ids.
    Migration(
        (
            """CREATE TABLE games (
            id {id},
            guild_id {int},
            channel_id {int} NOT NULL,
            host_id {int} NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned', 'expired')),
            options TEXT NOT NULL,
            config TEXT,
            seed {int} NOT NULL,
            version {int} NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )""",
            """CREATE UNIQUE INDEX games_one_live_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'active')""",
            """CREATE TABLE seats (
            game_id {int} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            position {int} NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('human', 'cynthia')),
            user_id {int},
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, position)
        )""",
            """CREATE UNIQUE INDEX seats_one_per_user
            ON seats (game_id, user_id) WHERE user_id IS NOT NULL""",
            """CREATE TABLE actions (
            game_id {int} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            ply {int} NOT NULL CHECK (ply >= 1),
            notation TEXT NOT NULL,
            seat {int} NOT NULL,
            user_id {int},
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)
        )""",
            """CREATE TABLE messages (
            game_id {int} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            channel_id {int} NOT NULL,
            message_id {int} NOT NULL,
            PRIMARY KEY (game_id, kind)
        )""",
        )
    ),
    # 2: the automa's explanation of each of its actions; user preferences.
    Migration(
        (
            "ALTER TABLE actions ADD COLUMN explanation TEXT",
            """CREATE TABLE user_preferences (
            user_id {int} PRIMARY KEY,
            preferences TEXT NOT NULL DEFAULT '{{}}',
            updated_at TEXT NOT NULL
        )""",
        )
    ),
    # 3: a state snapshot per game, a cache that spares replaying the whole log.
    Migration(
        (
            """CREATE TABLE snapshots (
            game_id {int} PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            ply {int} NOT NULL,
            state TEXT NOT NULL
        )""",
        )
    ),
    # 4: turn timers (bot.timers): the clock of each game's current turn, and the scheduler's
    # jobs (deadlines and reminders), each tied to one turn and fired at most once.
    Migration(
        (
            """CREATE TABLE turn_clocks (
            game_id {int} PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            version {int} NOT NULL,
            turn TEXT NOT NULL,
            seat {int} NOT NULL,
            user_id {int},
            started_at {real} NOT NULL,
            paused_at {real},
            paused_total {real} NOT NULL DEFAULT 0
        )""",
            """CREATE TABLE timer_jobs (
            id {id},
            game_id {int} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            turn TEXT NOT NULL,
            kind TEXT NOT NULL,
            seat {int} NOT NULL,
            user_id {int},
            due_at {real} NOT NULL,
            fired_at {real},
            outcome TEXT,
            UNIQUE (game_id, turn, kind)
        )""",
            "CREATE INDEX timer_jobs_pending ON timer_jobs (due_at) WHERE fired_at IS NULL",
        )
    ),
    # 5: how many times a job's handler failed (bot.scheduler plans a failed deadline again).
    Migration(("ALTER TABLE timer_jobs ADD COLUMN attempts {int} NOT NULL DEFAULT 0",)),
    # 6: games that cannot be loaded, set aside with the reason (`UnreadableGame`).
    Migration(
        (
            """CREATE TABLE quarantined_games (
            game_id {int} PRIMARY KEY,
            reason TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        )
    ),
    # 7: a turn is stored as `engine.turn_id` ("play:3:1", "setup:2:0"), no longer the JSON list
    #    the bot used to build itself (["play", 3, null, 1], ["setup", 0, 2, 0]). Only SQLite
    #    databases can hold the old form.
    Migration(
        (),
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
    ),
    # 8: which process claimed a job (several processes share a PostgreSQL database: a job
    #    claimed by a process that died is handed out again, one still running keeps its own).
    Migration(("ALTER TABLE timer_jobs ADD COLUMN claimed_by {int}",)),
    # 9: languages (issue 16): each game's (its channel messages), and the settings of
    #    `/ps language`: a user's own language and a server's default.
    Migration(
        (
            "ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
            """CREATE TABLE language_settings (
            scope TEXT NOT NULL CHECK (scope IN ('user', 'guild')),
            id {int} NOT NULL,
            language TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (scope, id)
        )""",
        )
    ),
    # 10: the Expert's seats (`bot.experts`), kinds 'expert' (quick) and 'expert-strong'.
    #    SQLite cannot change a CHECK constraint in place: the table is rebuilt; PostgreSQL
    #    replaces the constraint.
    Migration(
        (),
        sqlite_only=(
            f"""CREATE TABLE seats_new (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ({SEAT_KINDS_SQL})),
            user_id INTEGER,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, position)
        )""",
            "INSERT INTO seats_new (game_id, position, kind, user_id, name)"
            " SELECT game_id, position, kind, user_id, name FROM seats",
            "DROP TABLE seats",
            "ALTER TABLE seats_new RENAME TO seats",
            """CREATE UNIQUE INDEX seats_one_per_user
            ON seats (game_id, user_id) WHERE user_id IS NOT NULL""",
        ),
        postgres_only=(
            "ALTER TABLE seats DROP CONSTRAINT seats_kind_check",
            f"ALTER TABLE seats ADD CONSTRAINT seats_kind_check CHECK (kind IN ({SEAT_KINDS_SQL}))",
        ),
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def database_url(url: str | None, path: str | None = None) -> tuple[str, str]:
    """`(dialect, where)` from DATABASE_URL (`sqlite:///path`, `postgresql://...`), else from
    DATABASE_PATH (a SQLite file). Raises `DatabaseUrlError` for any other scheme."""
    if not url:
        return "sqlite", path or DEFAULT_PATH
    if url.startswith("sqlite:///"):
        rest = url[len("sqlite:///") :]
        if not rest:
            raise DatabaseUrlError("DATABASE_URL sqlite:/// needs a file path after the slashes.")
        return "sqlite", rest
    if url.startswith(("postgresql://", "postgres://")):
        return "postgres", url
    if "://" not in url:  # perhaps libpq's `host=... password=...`: never repeated
        raise DatabaseUrlError("DATABASE_URL must start with sqlite:/// or postgresql://.")
    scheme = url.split("://", 1)[0]
    raise DatabaseUrlError(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme!r}."
    )


DEFAULT_PATH = "./photosynthesis.db"


class Connection(Protocol):
    """What `SQLStorage` needs of a driver's connection (`?` placeholders, rows by name)."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Any | None: ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


class SQLStorage:
    """Every query of `Storage`, written once over a driver (`_reading`, `_transaction`).

    A driver subclass sets `dialect`, `integrity_errors` (the exceptions of a broken
    constraint), `skip_locked` (appended to the claim of due jobs) and `orphaned_claim` (the
    condition that a claimed job's process is gone), and implements `lock`.
    """

    dialect = "sqlite"
    shared = False
    integrity_errors: tuple[type[BaseException], ...] = ()
    skip_locked = ""
    #: A claimed job whose process is gone (SQLite: one process, so at start every claim is).
    orphaned_claim = "1 = 1"
    #: The id this process claims jobs with (`claimed_by`; None on SQLite).
    owner: int | None = None

    def __init__(self, clock: Callable[[], str] = _utcnow) -> None:
        self._clock = clock

    # --- the driver ---

    def _reading(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    def _unawaited_transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write nothing depends on being durable at once (a driver may return before its
        commit); by default a plain transaction."""
        return self._transaction()

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction (`?` placeholders), for migrations and tests."""
        return self._transaction()

    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads (`?` placeholders), for tests."""
        return self._reading()

    async def _stored_version(self, conn: Connection) -> int:
        raise NotImplementedError

    async def _set_stored_version(self, conn: Connection, version: int) -> None:
        raise NotImplementedError

    # --- migrations ---

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        async with self._reading() as conn:
            return await self._stored_version(conn)

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Apply the forward migrations up to `target`, each in its own transaction."""
        if not 0 <= target <= SCHEMA_VERSION:
            raise ValueError(f"unknown schema version {target}")
        while True:
            async with self._transaction() as conn:
                current = await self._stored_version(conn)
                if current > SCHEMA_VERSION:
                    raise StorageError(
                        f"the database has schema version {current},"
                        f" newer than this bot ({SCHEMA_VERSION})"
                    )
                if current >= target:
                    return current
                for statement in MIGRATIONS[current].statements(self.dialect):
                    await conn.execute(statement)
                await self._set_stored_version(conn, current + 1)

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
        language: str = "en",
    ) -> GameRow:
        """Create a lobby with the host in the first seat. Raises `ChannelBusy`."""
        now = self._clock()
        try:
            async with self._transaction() as conn:
                row = await conn.fetchrow(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, options, seed,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, 0, ?, ?)"
                    " RETURNING id",
                    (guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
                )
                assert row is not None
                game_id = row["id"]
                if language != "en":  # (the column's default: a schema before 9 has none)
                    await conn.execute(
                        "UPDATE games SET language = ? WHERE id = ?", (language, game_id)
                    )
                await conn.execute(
                    "INSERT INTO seats (game_id, position, kind, user_id, name)"
                    " VALUES (?, 0, 'human', ?, ?)",
                    (game_id, host_id, host_name),
                )
                (game,) = await self._fetch_games(conn, "id = ?", (game_id,))
        except self.integrity_errors as exc:
            raise ChannelBusy(str(exc)) from exc
        if isinstance(game, UnreadableGame):
            raise game
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
        """One game; a damaged one is quarantined before it is raised."""
        games = await self._read_games(where, params, one=True)
        return games[0] if games else None

    async def _read_games(
        self, where: str, params: Sequence[Any], *, one: bool = False
    ) -> list[GameRow]:
        """The games matching `where`, oldest first, in two queries (games, then all their
        seats). A damaged one is quarantined; when `one` game was asked for it is raised,
        else the others are still served."""
        async with self._reading() as conn:
            found = await self._fetch_games(conn, where, params)
        unreadable = [g for g in found if isinstance(g, UnreadableGame)]
        for exc in unreadable:
            await self.quarantine(exc.game_id, exc.reason)
        if one and unreadable:
            raise unreadable[0]
        return [g for g in found if isinstance(g, GameRow)]

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """Every game whose status is one of `statuses`, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        return await self._read_games(f"status IN ({marks})", statuses)

    async def games_of_user(self, guild_id: int, user_id: int, status: str) -> list[GameRow]:
        """The games of a server with this status in which the user holds a seat, oldest
        first."""
        return await self._read_games(
            "guild_id = ? AND status = ? AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (guild_id, status, user_id),
        )

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set a game that cannot be loaded aside: marked with its reason (once) and logged."""
        async with self._transaction() as conn:
            added = await conn.execute(
                "INSERT INTO quarantined_games (game_id, reason, at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (game_id, reason, _utcnow()),
            )
        if added:
            log.error("game %d quarantined: %s", game_id, reason, extra={"game_id": game_id})

    async def quarantined(self) -> dict[int, str]:
        """The quarantined games and why each cannot be loaded."""
        async with self._reading() as conn:
            rows = await conn.fetch("SELECT game_id, reason FROM quarantined_games")
        return {row["game_id"]: row["reason"] for row in rows}

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
        turn_clock: ClockWrite | None = None,
    ) -> GameRow:
        """Apply one change atomically and bump the game's version.

        `truncate_after` removes the logged actions with a greater ply (an undo) before
        `actions` are appended. `job_outcome` (job id, outcome) records, in the same
        transaction, what a timer job did (a deadline's turn and its pending notice: never one
        without the other). `turn_clock` plans the turn the change leads to, in the same
        transaction too (a turn is never committed without its clock and deadline).

        Raises `VersionConflict` when the stored version is not `expected_version`.
        """
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        now = self._clock()
        sets, params = ["version = version + 1", "updated_at = ?"], [now]
        for column, value in (
            ("options", None if options is None else json.dumps(options)),
            ("config", None if config is None else json.dumps(config)),
            ("status", status),
            ("host_id", host_id),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        async with self._transaction() as conn:
            changed = await conn.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game_id, expected_version),
            )
            if changed != 1:
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
                        (
                            game_id,
                            a.ply,
                            a.notation,
                            a.seat,
                            a.user_id,
                            stored_text(a.explanation),
                            now,
                        )
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
            if turn_clock is not None:
                await self._write_clock(conn, turn_clock)
            (game,) = await self._fetch_games(conn, "id = ?", (game_id,))
        if isinstance(game, UnreadableGame):
            raise game
        return game

    async def _fetch_games(
        self, conn: Connection, where: str, params: Sequence[Any]
    ) -> list[GameRow | UnreadableGame]:
        """The games matching `where` with their seats, in two queries; a row that does not
        read comes back as its `UnreadableGame`."""
        rows = await conn.fetch(f"SELECT * FROM games WHERE {where} ORDER BY id", tuple(params))
        if not rows:
            return []
        seats: dict[int, list[SeatRow]] = {row["id"]: [] for row in rows}
        marks = ", ".join("?" for _ in seats)
        for r in await conn.fetch(
            "SELECT game_id, position, kind, user_id, name FROM seats"
            f" WHERE game_id IN ({marks}) ORDER BY game_id, position",
            tuple(seats),
        ):
            seats[r["game_id"]].append(SeatRow(r["position"], r["kind"], r["user_id"], r["name"]))
        return [_game_row(row, tuple(seats[row["id"]])) for row in rows]

    # --- the action log ---

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]:
        """The logged actions of a game with ply > `after_ply`, in order."""
        async with self._reading() as conn:
            rows = await conn.fetch(
                "SELECT ply, notation, seat, user_id, explanation, created_at FROM actions"
                " WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, after_ply),
            )
        return [
            ActionRow(
                r["ply"],
                r["notation"],
                r["seat"],
                r["user_id"],
                read_text(r["explanation"]),  # Cynthia's reason, translatable again
                r["created_at"],
            )
            for r in rows
        ]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The cached state snapshot of a game as `(ply, state dict)`, or None. Raises
        `DamagedSnapshot` when the stored one is not a JSON object."""
        async with self._reading() as conn:
            row = await conn.fetchrow(
                "SELECT ply, state FROM snapshots WHERE game_id = ?", (game_id,)
            )
        if row is None:
            return None
        try:
            state = json.loads(row["state"])
        except (TypeError, ValueError) as exc:
            raise DamagedSnapshot(f"not JSON ({exc})") from None
        if not isinstance(state, dict):
            raise DamagedSnapshot("not a JSON object")
        return row["ply"], state

    async def drop_snapshot(self, game_id: int) -> None:
        """Forget a game's cached snapshot (the next change of the game stores a fresh one)."""
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))

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
        async with self._reading() as conn:
            row = await conn.fetchrow(
                "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?",
                (game_id, kind),
            )
        return None if row is None else (row["channel_id"], row["message_id"])

    # --- user preferences ---

    async def preferences(self, user_id: int) -> dict[str, Any]:
        """A user's stored preferences (empty when none)."""
        async with self._reading() as conn:
            row = await conn.fetchrow(
                "SELECT preferences FROM user_preferences WHERE user_id = ?", (user_id,)
            )
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

    # --- languages (`/ps language`) ---

    async def languages(self, user_id: int, guild_id: int | None) -> tuple[str | None, str | None]:
        """A user's own language and the server's default (None where not set), in one query."""
        async with self._reading() as conn:
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

    # --- turn clocks (bot.timers) ---

    async def turn_clock(self, game_id: int) -> Mapping[str, Any] | None:
        """The clock row of a game's current turn (`CLOCK_COLUMNS`), if planned."""
        async with self._reading() as conn:
            return await conn.fetchrow("SELECT * FROM turn_clocks WHERE game_id = ?", (game_id,))

    async def clocks_of_user(self, user_id: int) -> list[Mapping[str, Any]]:
        """The clock rows of every turn a player holds now (in games still being played)."""
        async with self._reading() as conn:
            return await conn.fetch(
                "SELECT c.* FROM turn_clocks c JOIN games g ON g.id = c.game_id"
                " WHERE c.user_id = ? AND g.status = 'active' ORDER BY c.game_id",
                (user_id,),
            )

    async def write_turn_clock(
        self, clock: Sequence[Any], jobs: Sequence[tuple[str, float]], replaced_outcome: str
    ) -> None:
        """Store a turn's clock (values in `CLOCK_COLUMNS` order) and plan its jobs (kind,
        due_at) in one transaction: the unfired jobs of the game, and the fired ones whose
        outcome is `replaced_outcome`, are replaced; a job of the same turn and kind that
        already fired is kept."""
        write = ClockWrite(clock[0], tuple(clock), tuple(jobs), replaced_outcome)
        async with self._transaction() as conn:
            await self._write_clock(conn, write)

    async def clear_turn_clock(self, game_id: int) -> None:
        """Remove a game's clock and its unfired jobs."""
        async with self._transaction() as conn:
            await self._write_clock(conn, ClockWrite(game_id))

    async def _write_clock(self, conn: Connection, write: ClockWrite) -> None:
        """Write a `ClockWrite` in the transaction of `conn`."""
        game_id = write.game_id
        if write.clock is None and write.version is not None:
            await conn.execute(
                "UPDATE turn_clocks SET version = ? WHERE game_id = ?", (write.version, game_id)
            )
            return
        if write.clock is None:
            await conn.execute("DELETE FROM turn_clocks WHERE game_id = ?", (game_id,))
            await conn.execute(
                "DELETE FROM timer_jobs WHERE game_id = ? AND fired_at IS NULL", (game_id,)
            )
            return
        row = dict(zip(CLOCK_COLUMNS, write.clock, strict=True))
        columns = ", ".join(CLOCK_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in CLOCK_COLUMNS[1:])
        await conn.execute(
            f"INSERT INTO turn_clocks ({columns}) VALUES ({', '.join('?' for _ in row)})"
            f" ON CONFLICT (game_id) DO UPDATE SET {updates}",
            tuple(row.values()),
        )
        await conn.execute(
            "DELETE FROM timer_jobs WHERE game_id = ? AND (fired_at IS NULL OR outcome = ?)",
            (game_id, write.replaced_outcome),
        )
        await conn.executemany(
            "INSERT INTO timer_jobs (game_id, turn, kind, seat, user_id, due_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, turn, kind) DO NOTHING",
            [
                (game_id, row["turn"], kind, row["seat"], row["user_id"], due)
                for kind, due in write.jobs
            ],
        )

    async def set_turn_clock_version(self, game_id: int, version: int) -> None:
        """Mark a game's clock as up to date with the game's version (not waited for: a clock
        left behind by a crash is planned again at start, `bot.timers.TurnTimers.reconcile`)."""
        async with self._unawaited_transaction() as conn:
            await conn.execute(
                "UPDATE turn_clocks SET version = ? WHERE game_id = ?", (version, game_id)
            )

    async def clear_ended_clocks(self) -> None:
        """Remove the clocks and unfired jobs of every game no longer being played."""
        ended = "SELECT id FROM games WHERE status != 'active'"
        async with self._transaction() as conn:
            await conn.execute(f"DELETE FROM turn_clocks WHERE game_id IN ({ended})")
            await conn.execute(
                f"DELETE FROM timer_jobs WHERE fired_at IS NULL AND game_id IN ({ended})"
            )

    # --- timer jobs (bot.scheduler) ---

    async def claim_due_jobs(self, now: float, limit: int) -> list[Job]:
        """Claim up to `limit` jobs due at `now`, oldest first, in one statement: a job is
        claimed once, by one process (PostgreSQL: rows another process is claiming are
        skipped, not waited for)."""
        async with self._transaction() as conn:
            rows = await conn.fetch(
                "UPDATE timer_jobs SET fired_at = ?, claimed_by = ? WHERE id IN ("
                "SELECT id FROM timer_jobs WHERE fired_at IS NULL AND due_at <= ?"
                f" ORDER BY due_at, id LIMIT ?{self.skip_locked}) RETURNING *",
                (now, self.owner, now, limit),
            )
        return sorted((Job.from_row(r) for r in rows), key=lambda j: (j.due_at, j.id))

    async def finish_job(self, job_id: int, outcome: str) -> None:
        """Record what firing a claimed job did."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE timer_jobs SET outcome = ? WHERE id = ?", (outcome[:1000], job_id)
            )

    async def next_due(self) -> float | None:
        """The due time of the earliest unfired job, or None."""
        async with self._reading() as conn:
            row = await conn.fetchrow(
                "SELECT MIN(due_at) AS due FROM timer_jobs WHERE fired_at IS NULL"
            )
        return None if row is None or row["due"] is None else float(row["due"])

    async def requeue_unfinished_jobs(self, pending: str) -> int:
        """Hand out again the jobs claimed by a process that is gone and never finished, and
        those with a notice still to post (outcome starting with `pending`)."""
        async with self._transaction() as conn:
            return await conn.execute(
                "UPDATE timer_jobs SET fired_at = NULL, claimed_by = NULL"
                " WHERE fired_at IS NOT NULL AND (outcome IS NULL OR substr(outcome, 1, ?) = ?)"
                f" AND {self.orphaned_claim}",
                (len(pending), pending),
            )

    async def prune_finished_jobs(self, pending: str) -> int:
        """Delete the jobs that can never matter again: fired, finished with no notice still
        to post, of a game no longer in its lobby or in play. Returns how many went."""
        async with self._transaction() as conn:
            return await conn.execute(
                "DELETE FROM timer_jobs WHERE fired_at IS NOT NULL AND outcome IS NOT NULL"
                " AND substr(outcome, 1, ?) != ?"
                " AND game_id IN (SELECT id FROM games WHERE status NOT IN ('lobby', 'active'))",
                (len(pending), pending),
            )

    async def retry_job(self, job_id: int, due_at: float) -> None:
        """Plan a job whose handler failed again, at `due_at`."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE timer_jobs SET fired_at = NULL, outcome = NULL, claimed_by = NULL,"
                " due_at = ?, attempts = attempts + 1 WHERE id = ?",
                (due_at, job_id),
            )

    async def timer_jobs(self, game_id: int | None = None) -> list[Job]:
        """Every job (of one game), in id order (for tests and inspection)."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        async with self._reading() as conn:
            rows = await conn.fetch(f"SELECT * FROM timer_jobs {where} ORDER BY id", params)
        return [Job.from_row(r) for r in rows]


def _aware_time(text: Any) -> datetime | None:
    """An ISO 8601 time with its time zone (as `_utcnow` writes), or None for anything else
    (a time without its zone, as SQLite's `datetime('now')` writes, an empty string, a word)."""
    try:
        time = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return time if time.tzinfo is not None else None


def _game_row(row: Any, seats: tuple[SeatRow, ...]) -> GameRow | UnreadableGame:
    """The game of a `games` row and its seat rows, or the `UnreadableGame` of a damaged one:
    each field the bot relies on is checked here, so that a damaged row is quarantined where it
    is read, never found out later by whatever uses it first."""
    try:
        options = json.loads(row["options"])
        config = json.loads(row["config"]) if row["config"] is not None else None
    except (TypeError, ValueError) as exc:
        return UnreadableGame(row["id"], f"its stored row does not read ({exc})")
    if not isinstance(options, dict) or not isinstance(config, dict | None):
        return UnreadableGame(row["id"], "its stored options or config are not objects")
    damage = _damage(row, seats, config)
    if damage is not None:
        return UnreadableGame(row["id"], damage)
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
        language=row["language"] if "language" in row.keys() else "en",  # noqa: SIM118 (a Row)
    )


def _damage(row: Any, seats: tuple[SeatRow, ...], config: dict[str, Any] | None) -> str | None:
    """What is wrong with a games row whose options and config read, or None."""
    for column in ("seed", "version"):
        if type(row[column]) is not int:  # SQLite stores any value in an INTEGER column
            return f"its stored {column} is not a whole number ({str(row[column])[:40]!r})"
    if row["version"] < 0:
        return f"its stored version is negative ({row['version']})"
    if _aware_time(row["updated_at"]) is None:
        shown = str(row["updated_at"])[:40]
        return f"its stored updated_at is not a time with its time zone ({shown!r})"
    if config is not None:  # started: one seat row per player of its engine config
        players = config.get("seats")
        if not isinstance(players, list):
            return "its stored config has no seats"
        if [seat.position for seat in seats] != list(range(len(players))):
            return f"its {len(seats)} stored seats do not match its {len(players)} players"
    return None


class _SQLiteConnection:
    """`Connection` over a sqlite3 connection: a statement runs at once, in the caller's thread
    (the event loop's). On this small local database a statement takes microseconds; handing
    each one to a worker thread (as aiosqlite does) cost far more under load: a round trip per
    statement through the GIL, all of them queued behind one lock."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.raw.execute(sql, tuple(params)).fetchall()

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        return self.raw.execute(sql, tuple(params)).fetchone()

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.raw.execute(sql, tuple(params)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.raw.executemany(sql, [tuple(r) for r in rows])


#: Seconds a write waits for another connection's write lock (another process's, or a test's
#: second storage on the same file) before it fails with "database is locked".
BUSY_TIMEOUT = 5.0


def _connect(path: str, *, busy_ms: int = int(BUSY_TIMEOUT * 1000)) -> sqlite3.Connection:
    """A sqlite3 connection in autocommit mode (transactions are explicit), rows by name,
    usable from the commit thread too (never from two threads at once: `SQLiteStorage`)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
    return conn


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection holds the lock (worth a retry)."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY


class SQLiteStorage(SQLStorage):
    """`Storage` on a SQLite file (one bot process).

    Statements run on the event loop's thread, each in microseconds. Only COMMIT (SQLite's
    fsync of the journal: milliseconds, more on a busy disk) runs on a thread of its own, so
    the loop goes on meanwhile, and it is shared: the writes that come while a commit is under
    way are made in one SQLite transaction (each in a savepoint of its own, so a failed one
    leaves the others intact) and committed together, one fsync for all (a group commit). A
    write still returns only once it is durable. Writes go through one connection, one at a
    time (an asyncio lock); reads go through a second connection, each read (even of several
    statements) one consistent snapshot of what is committed, and never wait for a write:
    SQLite's WAL journal lets a reader see the last commit while the next one is written. The
    game locks are asyncio locks.
    """

    dialect = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(
        self,
        conn: sqlite3.Connection,
        clock: Callable[[], str] = _utcnow,
        *,
        reader: sqlite3.Connection | None = None,
    ) -> None:
        """`conn` writes (and reads, unless a separate `reader` connection to the same file is
        given: then commits run on a thread of their own and are grouped)."""
        super().__init__(clock)
        self._conn = conn
        self._reader = reader if reader is not None else conn
        self._wrapped = _SQLiteConnection(conn)
        self._read_wrapped = _SQLiteConnection(self._reader)
        self._lock = asyncio.Lock()
        self._game_locks = KeyedLocks()
        self._committer = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-commit")
            if self._reader is not conn
            else None
        )
        #: The writes made in the open SQLite transaction, each waiting for its COMMIT.
        self._batch: list[asyncio.Future[None]] | None = None
        self._commit_planned = False
        self._tasks: set[asyncio.Task[None]] = set()  # the planned commits (kept referenced)
        #: How many COMMITs were made (a group commit counts once), for tests and benches.
        self.commits = 0
        #: The games as last committed, and the message ids (`message`): one process writes a
        #: SQLite database, all through this object, so what it wrote last is what is stored.
        self._games: dict[int, GameRow] = {}
        self._messages: dict[tuple[int, str], tuple[int, int] | None] = {}

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        migrate_to: int = SCHEMA_VERSION,
        clock: Callable[[], str] = _utcnow,
    ) -> SQLiteStorage:
        """Open (creating if needed) the database at `path` and migrate it to `migrate_to`."""
        conn = _connect(path, busy_ms=0)  # the loop never blocks on a lock: `_begin` retries
        reader = None
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA foreign_keys = ON")
            if path not in ("", ":memory:"):  # a second connection would be another database
                reader = _connect(path)
        except BaseException:
            conn.close()
            raise
        storage = cls(conn, clock, reader=reader)
        try:
            await storage.migrate(migrate_to)
            await storage.check_writable(path)
        except BaseException:
            await storage.close()
            raise
        return storage

    async def check_writable(self, where: str) -> None:
        """Raise `StorageUnwritable` unless a write goes through: SQLite opens a read-only file
        without complaint, and a migrated database needs no write at start, so without this
        probe the first player's click would be the first write to fail. The probe rewrites
        the schema version inside a transaction it rolls back."""
        try:
            async with self._lock:
                await self._begin()
                try:
                    version = await self._stored_version(self._wrapped)
                    await self._set_stored_version(self._wrapped, version)
                finally:
                    self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            raise StorageUnwritable(f"database {where} is not writable: {exc}") from exc

    async def close(self) -> None:
        """Close the connections (after committing the writes under way)."""
        async with self._lock:
            if self._batch is not None:
                await self._commit_batch_locked()
            if self._committer is not None:
                self._committer.shutdown(wait=True)
            if self._reader is not self._conn:
                self._reader.close()
            self._conn.close()

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's asyncio lock (one process uses a SQLite database)."""
        return self._game_locks.hold(game_id)

    # --- what this process wrote last, kept (reads of a game cost no statement) ---

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction for migrations and tests: it may change anything, so the kept
        games and message ids are forgotten."""
        self._games.clear()
        self._messages.clear()
        return self._transaction()

    def _keep(self, game: GameRow) -> GameRow:
        kept = self._games.get(game.id)
        if kept is None or kept.version <= game.version:
            self._games[game.id] = game
        return game

    async def create_game(self, **kwargs: Any) -> GameRow:
        return self._keep(await super().create_game(**kwargs))

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None (as this process last committed it)."""
        kept = self._games.get(game_id)
        return kept if kept is not None else await super().get_game(game_id)

    async def _read_games(
        self, where: str, params: Sequence[Any], *, one: bool = False
    ) -> list[GameRow]:
        """`SQLStorage._read_games`, the rows this process wrote last taken as kept: only the
        ids and versions are read when every game found is kept at that version."""
        async with self._reading() as conn:
            found = await conn.fetch(
                f"SELECT id, version FROM games WHERE {where} ORDER BY id", tuple(params)
            )
        kept = [self._games.get(row["id"]) for row in found]
        if all(k is not None and k.version == row["version"] for k, row in zip(kept, found)):
            return [k for k in kept if k is not None]
        return [self._keep(g) for g in await super()._read_games(where, params, one=one)]

    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> GameRow:
        try:
            return self._keep(await super().update_game(game_id, expected_version, **changes))
        except UnreadableGame:
            self._games.pop(game_id, None)
            raise

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember a message id; read back at once, even while its commit is under way (the
        message exists on Discord already: a read that comes after it, say a link to it, finds
        it as when reads waited for the writes before them). Forgotten if the commit fails."""
        key = (game_id, kind)
        self._messages[key] = (channel_id, message_id)
        try:
            await super().set_message(game_id, kind, channel_id, message_id)
        except BaseException:
            self._messages.pop(key, None)
            raise

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """`(channel_id, message_id)` of a game's message of some kind, or None."""
        key = (game_id, kind)
        if key not in self._messages:
            self._messages[key] = await super().message(game_id, kind)
        return self._messages[key]

    async def _stored_version(self, conn: Connection) -> int:
        row = await conn.fetchrow("PRAGMA user_version")
        return int(row[0])

    async def _set_stored_version(self, conn: Connection, version: int) -> None:
        await conn.execute(f"PRAGMA user_version = {int(version)}")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        """The reading connection, in a read transaction: the statements of one read see one
        committed state, even while a commit is being written on the commit thread."""
        if self._reader is self._conn:  # one connection: never while a write is under way
            async with self._lock:
                yield self._wrapped
            return
        if self._reader.in_transaction:  # a read within a read: the same snapshot
            yield self._read_wrapped
            return
        self._reader.execute("BEGIN")
        try:
            yield self._read_wrapped
        finally:
            try:
                self._reader.execute("COMMIT")
            finally:  # never left in a read transaction: later reads would see an old state
                if self._reader.in_transaction:
                    self._reader.execute("ROLLBACK")

    def _unawaited_transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write that joins the next group commit without waiting for it (a failed commit
        is logged)."""
        return self._transaction(wait=False)

    @asynccontextmanager
    async def _transaction(self, *, wait: bool = True) -> AsyncIterator[Connection]:
        """One write: its statements in a savepoint of the open SQLite transaction (begun
        here if none is), then, the lock released for the next writes, wait for the COMMIT
        that makes it durable (`_commit_batch`; its error, if it fails, is this write's;
        unless not `wait`)."""
        async with self._lock:
            if self._committer is None:  # one connection for all: a plain transaction
                await self._begin()
                try:
                    yield self._wrapped
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._finish()
                return
            if self._batch is None:
                await self._begin()
                self._batch = []
            self._conn.execute("SAVEPOINT write")
            try:
                yield self._wrapped
            except BaseException:
                self._conn.execute("ROLLBACK TO write")
                self._conn.execute("RELEASE write")
                if not self._batch:  # nothing else to commit: end the SQLite transaction
                    self._conn.execute("ROLLBACK")
                    self._batch = None
                raise
            self._conn.execute("RELEASE write")
            done = asyncio.get_running_loop().create_future()
            self._batch.append(done)
            if not self._commit_planned:
                self._commit_planned = True
                task = asyncio.create_task(self._commit_batch())
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        if wait:
            await done
        else:
            done.add_done_callback(_log_failed_commit)

    async def _begin(self) -> None:
        """BEGIN IMMEDIATE (take the write lock), waiting for another connection's write
        without blocking the loop (up to `BUSY_TIMEOUT`)."""
        deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT
        while True:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or asyncio.get_running_loop().time() > deadline:
                    raise
            await asyncio.sleep(0.002)

    async def _commit_batch(self) -> None:
        """COMMIT the open SQLite transaction once the writes already waiting for the lock
        have joined it (the lock is fair: they come first)."""
        async with self._lock:
            self._commit_planned = False
            if self._batch is not None:
                await self._commit_batch_locked()

    async def _commit_batch_locked(self) -> None:
        batch, self._batch = self._batch or [], None
        assert self._committer is not None
        commit = asyncio.get_running_loop().run_in_executor(self._committer, self._finish)
        cancelled = await _through_cancel(commit)  # no statement may run while COMMIT does
        failed = asyncio.CancelledError() if commit.cancelled() else commit.exception()
        for done in batch:
            if done.done():  # its writer was cancelled meanwhile
                continue
            if failed is None:
                done.set_result(None)
            else:
                done.set_exception(failed)
        if cancelled:
            raise asyncio.CancelledError

    def _finish(self) -> None:
        """COMMIT (retried while another connection holds the lock, up to `BUSY_TIMEOUT`); a
        failed commit is rolled back."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        try:
            while True:
                try:
                    self._conn.execute("COMMIT")
                    break
                except sqlite3.OperationalError as exc:
                    if not _busy(exc) or time.monotonic() > deadline:
                        raise
                time.sleep(0.002)
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise
        self.commits += 1


def _log_failed_commit(done: asyncio.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("a write nobody waited for was not committed: %s", done.exception())


async def _through_cancel(future: asyncio.Future[Any]) -> bool:
    """Wait for `future` to be done even if the waiting task is cancelled meanwhile; whether
    it was (the caller raises `CancelledError` when it is safe to)."""
    cancelled = False
    while not future.done():
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            cancelled = True
        except Exception:
            break  # the future's own failure: the caller reads it
    return cancelled
