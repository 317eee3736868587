"""The base of the SQL: the driver interface the queries are written over, the migrations
runner, and the write of a turn clock that a game's commit shares with the clocks' own SQL."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime

from bot.storage.errors import StorageError
from bot.storage.interface import Connection
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.storage.rows import CLOCK_COLUMNS, ClockWrite, GameRow

log = logging.getLogger(__name__)


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class SQLBase:
    """The driver interface every query is written over (`_reading`, `_reading_one`,
    `_transaction`), and the migrations.

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

    def _reading_one(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for a read of one statement (which sees one committed state by itself:
        a driver may spare it the read transaction); by default `_reading`."""
        return self._reading()

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The lock every change to one game runs under (the driver's)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the driver's connections."""
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    def _keep(self, game: GameRow) -> GameRow:
        """A game's row as a write just committed it (created or changed), returned; a driver
        may keep it (SQLite keeps the live games': `SQLiteStorage._keep`)."""
        return game

    def _forget(self, game_id: int) -> None:
        """A game whose changed row does not read: a driver forgets what it kept of it."""

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

    async def _write_clock(self, conn: Connection, write: ClockWrite) -> None:
        """Write a `ClockWrite` in the transaction of `conn` (its statements sent: nothing
        waits for their results)."""
        game_id = write.game_id
        if write.clock is None and write.version is not None:
            await conn.send(
                "UPDATE turn_clocks SET version = ? WHERE game_id = ?", (write.version, game_id)
            )
            return
        if write.clock is None:
            await conn.send("DELETE FROM turn_clocks WHERE game_id = ?", (game_id,))
            await conn.send(
                "DELETE FROM timer_jobs WHERE game_id = ? AND fired_at IS NULL", (game_id,)
            )
            return
        row = dict(zip(CLOCK_COLUMNS, write.clock, strict=True))
        columns = ", ".join(CLOCK_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in CLOCK_COLUMNS[1:])
        await conn.send(
            f"INSERT INTO turn_clocks ({columns}) VALUES ({', '.join('?' for _ in row)})"
            f" ON CONFLICT (game_id) DO UPDATE SET {updates}",
            tuple(row.values()),
        )
        await conn.send(
            "DELETE FROM timer_jobs WHERE game_id = ? AND (fired_at IS NULL OR outcome = ?)",
            (game_id, write.replaced_outcome),
        )
        await conn.send_many(
            "INSERT INTO timer_jobs (game_id, turn, kind, seat, user_id, due_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, turn, kind) DO NOTHING",
            [
                (game_id, row["turn"], kind, row["seat"], row["user_id"], due)
                for kind, due in write.jobs
            ],
        )
