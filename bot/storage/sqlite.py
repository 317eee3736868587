"""The SQLite driver (`SQLiteStorage`, the default: one bot process)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from bot.storage.errors import StorageUnwritable
from bot.storage.interface import Connection
from bot.storage.locks import KeyedLocks
from bot.storage.migrations import SCHEMA_VERSION
from bot.storage.rows import DatabaseRow, GameRow
from bot.storage.sql import SQLStorage, _utcnow

log = logging.getLogger(__name__)


class _SQLiteConnection:
    """`Connection` over a sqlite3 connection: a statement runs at once, in the caller's thread
    (the event loop's). On this small local database a statement takes microseconds; handing
    each one to a worker thread (as aiosqlite does) cost far more under load: a round trip per
    statement through the GIL, all of them queued behind one lock."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[DatabaseRow]:
        rows: list[DatabaseRow] = self.raw.execute(sql, tuple(params)).fetchall()
        return rows

    async def fetchrow(self, sql: str, params: Sequence[object] = ()) -> DatabaseRow | None:
        row: sqlite3.Row | None = self.raw.execute(sql, tuple(params)).fetchone()
        return row

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return self.raw.execute(sql, tuple(params)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self.raw.executemany(sql, [tuple(r) for r in rows])

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        marks = ", ".join("?" for _ in columns)
        self.raw.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


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
        #: The live games (lobby or in play) as last committed, and their message ids
        #: (`message`): one process writes a SQLite database, all through this object, so what
        #: it wrote last is what is stored. A game that ends is forgotten once its end is
        #: committed (its row, and its message ids, are read again if it is asked for): what is
        #: kept serves the games being played, not every game ever played.
        self._games: dict[int, GameRow] = {}
        self._messages: dict[int, dict[str, tuple[int, int] | None]] = {}
        #: Message ids whose commit is under way (`set_message`), read back at once.
        self._unsettled: dict[tuple[int, str], tuple[int, int]] = {}

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

    # --- what this process wrote last, kept (reads of a live game cost no statement) ---

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction for migrations and tests: it may change anything, so the kept
        games and message ids are forgotten."""
        self._games.clear()
        self._messages.clear()
        return self._transaction()

    def _keep(self, game: GameRow) -> GameRow:
        """Keep a committed row of a live game (unless a newer one is kept); a game that ended
        is forgotten, with its message ids."""
        kept = self._games.get(game.id)
        if kept is not None and kept.version > game.version:
            return game
        if game.is_live:
            self._games[game.id] = game
        else:
            self._forget(game.id)
        return game

    def _forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._messages.pop(game_id, None)

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None (as this process last committed it)."""
        kept = self._games.get(game_id)
        return kept if kept is not None else await super().get_game(game_id)

    async def _read_games(
        self, where: str, params: Sequence[object], *, one: bool = False
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
        commits = self.commits
        games = await super()._read_games(where, params, one=one)
        if self.commits != commits:  # read before a commit done meanwhile: maybe older than it
            return games
        return [self._keep(g) for g in games]

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember a message id; read back at once, even while its commit is under way (the
        message exists on Discord already: a read that comes after it, say a link to it, finds
        it as when reads waited for the writes before them). Forgotten if the commit fails."""
        key, ids = (game_id, kind), (channel_id, message_id)
        self._unsettled[key] = ids
        try:
            await super().set_message(game_id, kind, channel_id, message_id)
            if game_id in self._games:  # kept for a live game only
                self._messages.setdefault(game_id, {})[kind] = ids
        finally:
            if self._unsettled.get(key) == ids:  # (not a later write's, still under way)
                del self._unsettled[key]

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """`(channel_id, message_id)` of a game's message of some kind, or None."""
        key = (game_id, kind)
        if key in self._unsettled:
            return self._unsettled[key]
        kept = self._messages.get(game_id, {})
        if kind in kept:
            return kept[kind]
        commits = self.commits
        found = await super().message(game_id, kind)
        if game_id in self._games and self.commits == commits:  # (see `_read_games`)
            self._messages.setdefault(game_id, {})[kind] = found
        return found

    async def _stored_version(self, conn: Connection) -> int:
        row = await conn.fetchrow("PRAGMA user_version")
        return int(row[0]) if row is not None else 0

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


async def _through_cancel(future: asyncio.Future[None]) -> bool:
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
