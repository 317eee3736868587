"""Persistent storage: games, seats, the action log, message ids, user preferences, turn clocks
and timer jobs. Every query of the bot lives here.

The action log is the source of truth: a started game is its engine config, its seed and one row
per applied action; `bot.services` rebuild the state by replaying it. Snapshots are only a cache.

`Storage` is the async interface the rest of the bot uses. `SQLStorage` writes every query once
(with `?` placeholders) over a small driver interface; `SQLiteStorage` (aiosqlite, the default:
WAL journal, foreign keys on) and `bot.storage.postgres.PostgresStorage` (asyncpg, for several
bot processes sharing one database) are the two drivers. Both migrate from one numbered list
(`MIGRATIONS`). `bot.storage.databases.open_storage` picks one from the configuration (`database_url`).

The package: `rows` (the row types, statuses and seat kinds), `errors`, `interface` (the
`Storage` protocol and a driver's `Connection`), `migrations`, `url`, `sql` (the queries, one
module per concern, over the driver interface of `sql.base`), and the drivers `sqlite` and
`postgres` (imported on demand: it needs asyncpg).
"""

from __future__ import annotations

from bot.storage.errors import (
    ChannelBusy,
    DamagedSnapshot,
    DatabaseUrlError,
    StorageError,
    StorageUnwritable,
    UnreadableGame,
    VersionConflict,
)
from bot.storage.interface import Connection, Storage
from bot.storage.migrations import (
    DIALECT_TYPES,
    MIGRATIONS,
    SCHEMA_VERSION,
    SEAT_KINDS_SQL,
    Migration,
)
from bot.storage.rows import (
    CLOCK_COLUMNS,
    FORMER_NAME,
    LIVE_STATUSES,
    SEAT_KINDS,
    STATUSES,
    STORED_TEXT,
    ActionRow,
    ClockValues,
    ClockWrite,
    DailyRow,
    DatabaseRow,
    Finish,
    FinishedGame,
    FinishedSeat,
    GameOptions,
    GameRow,
    GameStatus,
    HistoryRow,
    Job,
    NewAction,
    OnLeave,
    OnTimeout,
    Preferences,
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRow,
    RatingRow,
    ResultRow,
    ReviewRow,
    SeatKind,
    SeatRow,
    StandingRow,
    StatRow,
    read_text,
    stored_text,
)
from bot.storage.sql import SQLStorage
from bot.storage.sqlite import SQLiteStorage
from bot.storage.url import DEFAULT_PATH, database_url

__all__ = [
    "FORMER_NAME",
    "Finish",
    "FinishedGame",
    "FinishedSeat",
    "HistoryRow",
    "RatingRow",
    "StandingRow",
    "ResultRow",
    "StatRow",
    "ActionRow",
    "CLOCK_COLUMNS",
    "ChannelBusy",
    "ClockValues",
    "ClockWrite",
    "DailyRow",
    "DatabaseRow",
    "Connection",
    "DEFAULT_PATH",
    "DIALECT_TYPES",
    "DamagedSnapshot",
    "DatabaseUrlError",
    "GameOptions",
    "GameRow",
    "GameStatus",
    "ReviewRow",
    "Job",
    "LIVE_STATUSES",
    "MIGRATIONS",
    "Migration",
    "NewAction",
    "OnLeave",
    "OnTimeout",
    "Preferences",
    "PuzzleAttemptRow",
    "PuzzlePlayerRow",
    "PuzzleRow",
    "SCHEMA_VERSION",
    "SEAT_KINDS",
    "SEAT_KINDS_SQL",
    "SQLStorage",
    "SQLiteStorage",
    "STATUSES",
    "STORED_TEXT",
    "SeatKind",
    "SeatRow",
    "Storage",
    "StorageError",
    "StorageUnwritable",
    "UnreadableGame",
    "VersionConflict",
    "database_url",
    "read_text",
    "stored_text",
]
