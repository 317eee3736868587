"""`Storage` on PostgreSQL (asyncpg): one database shared by several bot processes.

Every query is `bot.storage.SQLStorage`'s; this module is the driver:

- a pool of connections for the queries, and one for the game locks (a game lock holds a
  connection while a change is computed; with one pool, as many holders as connections would
  wait forever for a connection to query with);
- the game lock is a session advisory lock (`pg_advisory_lock`) on the game's id, taken by one
  coroutine per game and process at a time (an asyncio lock in front of it): two processes
  never change one game at once, and a killed process's locks go with its connections;
- each process holds an advisory lock on its own random id (`owner`) for as long as it runs,
  and claims jobs with that id: `requeue_unfinished_jobs` hands out again only the jobs whose
  process no longer holds its lock (it died), never those another live process is firing;
- due jobs are claimed with `FOR UPDATE SKIP LOCKED`: two schedulers never wait on, nor take,
  the same job.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import asyncpg

from bot.storage.interface import Connection
from bot.storage.locks import KeyedLocks
from bot.storage.migrations import SCHEMA_VERSION
from bot.storage.rows import DatabaseRow
from bot.storage.sql import SQLStorage, _utcnow

#: Advisory lock name spaces (the first key of `pg_advisory_lock(int, int)`).
GAME_LOCKS = 0x5053  # "PS": one lock per game id
PROCESS_LOCKS = 0x5050  # one lock per running process (`owner`)
#: The lock of the rating updates (`ResultSQL.ratings_lock`), held until the transaction ends.
RATINGS_LOCK = (0x5052, 45)
#: Serialises the migrations of processes starting together.
MIGRATION_LOCK = (0x5053, 0)

_PLACEHOLDER = re.compile(r"\?")


def _numbered(sql: str) -> str:
    """`?` placeholders as asyncpg's `$1, $2, ...` (no query of ours has a `?` in a literal)."""
    count = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


def _affected(status: str) -> int:
    """The row count of a command status ("UPDATE 3", "INSERT 0 1", "DELETE 0")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresConnection:
    """`Connection` over an asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[DatabaseRow]:
        rows: list[DatabaseRow] = list(await self.raw.fetch(_numbered(sql), *params))
        return rows

    async def fetchrow(self, sql: str, params: Sequence[object] = ()) -> DatabaseRow | None:
        row: DatabaseRow | None = await self.raw.fetchrow(_numbered(sql), *params)
        return row

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return _affected(await self.raw.execute(_numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        records = [tuple(r) for r in rows]
        if records:
            await self.raw.executemany(_numbered(sql), records)

    async def send(self, sql: str, params: Sequence[object] = ()) -> None:
        await self.execute(sql, params)

    async def send_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self.executemany(sql, rows)

    async def send_changing(
        self, sql: str, params: Sequence[object], rows: int, error: Exception
    ) -> None:
        if await self.execute(sql, params) != rows:
            raise error

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        if rows:
            await self.raw.copy_records_to_table(
                table, columns=list(columns), records=[tuple(r) for r in rows]
            )


class PostgresStorage(SQLStorage):
    """`Storage` on a PostgreSQL database (see the module docstring)."""

    dialect = "postgres"
    shared = True
    integrity_errors = (asyncpg.IntegrityConstraintViolationError,)
    skip_locked = " FOR UPDATE SKIP LOCKED"
    ratings_lock = f"SELECT pg_advisory_xact_lock({RATINGS_LOCK[0]}, {RATINGS_LOCK[1]})"
    orphaned_claim = (
        "(claimed_by IS NULL OR claimed_by NOT IN (SELECT objid::bigint FROM pg_locks"
        f" WHERE locktype = 'advisory' AND classid = {PROCESS_LOCKS} AND objsubid = 2"
        " AND granted))"
    )

    def __init__(
        self,
        pool: asyncpg.Pool,
        lock_pool: asyncpg.Pool,
        owner_conn: asyncpg.Connection,
        owner: int,
        clock: Callable[[], str] = _utcnow,
    ) -> None:
        super().__init__(clock)
        self._pool = pool
        self._lock_pool = lock_pool
        self._owner_conn = owner_conn
        self.owner = owner
        self._game_locks = KeyedLocks()
        #: the database's address, for a listening connection of its own (`listen_games`)
        self._url: str | None = None

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrate_to: int = SCHEMA_VERSION,
        clock: Callable[[], str] = _utcnow,
        pool_size: int = 10,
        lock_pool_size: int = 20,
    ) -> PostgresStorage:
        """Connect to the database at `url` and migrate it to `migrate_to`."""
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        lock_pool = owner_conn = None
        try:
            lock_pool = await asyncpg.create_pool(url, min_size=0, max_size=lock_pool_size)
            owner_conn = await asyncpg.connect(url)
            owner = await _take_owner_id(owner_conn)
            storage = cls(pool, lock_pool, owner_conn, owner, clock)
            storage._url = url
            async with pool.acquire() as conn:
                await conn.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
                try:
                    await storage.migrate(migrate_to)
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
        except BaseException:
            for closing in (pool, lock_pool, owner_conn):
                if closing is not None:
                    await closing.close()
            raise
        return storage

    async def close(self) -> None:
        """Close every connection (this process's locks go with them)."""
        await self._pool.close()
        await self._lock_pool.close()
        await self._owner_conn.close()

    @asynccontextmanager
    async def _game_lock(self, game_id: int) -> AsyncIterator[None]:
        async with self._game_locks.hold(game_id), self._lock_pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", GAME_LOCKS, game_id)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1, $2)", GAME_LOCKS, game_id)

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's lock across every process (see the module docstring)."""
        return self._game_lock(game_id)

    async def listen_games(
        self, changed: Callable[[int, int], None]
    ) -> Callable[[], Awaitable[None]] | None:
        """Call `changed(game_id, version)` for every change of a game's version committed by
        any process (the trigger of migration 18 notifies `ps_games`), on a connection of its
        own; returns the coroutine function that stops listening."""
        conn = await asyncpg.connect(self._url) if self._url else None
        if conn is None:
            return None

        def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            game_id, _, version = payload.partition(" ")
            if game_id.isdigit() and version.isdigit():
                changed(int(game_id), int(version))

        await conn.add_listener("ps_games", heard)

        async def stop() -> None:
            await conn.close()

        return stop

    async def _stored_version(self, conn: Connection) -> int:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        row = await conn.fetchrow("SELECT version FROM schema_version")
        return 0 if row is None else int(row["version"])

    async def _set_stored_version(self, conn: Connection, version: int) -> None:
        await conn.execute("DELETE FROM schema_version")
        await conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as conn:
            yield _PostgresConnection(conn)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield _PostgresConnection(conn)


async def _take_owner_id(conn: asyncpg.Connection) -> int:
    """A random process id nobody else holds, locked on `conn` for as long as it is open."""
    while True:
        owner = secrets.randbelow(2**31 - 1) + 1
        if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", PROCESS_LOCKS, owner):
            return owner
