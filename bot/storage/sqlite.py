"""The SQLite driver (`SQLiteStorage`, the default: one bot process), on aiosqlite."""

from __future__ import annotations

import asyncio
import bisect
import copy
import dataclasses
import logging
import sqlite3  # for its exceptions and error codes only: every statement goes through aiosqlite
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    MutableMapping,
    Sequence,
)
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from contextvars import ContextVar
from typing import Any, TypeVar

import aiosqlite

from bot.storage.errors import StorageUnwritable, UnreadableGame
from bot.storage.interface import Connection
from bot.storage.locks import KeyedLocks
from bot.storage.migrations import SCHEMA_VERSION
from bot.storage.rows import (
    CLOCK_COLUMNS,
    ActionRow,
    ClockValues,
    ClockWrite,
    DatabaseRow,
    GameRow,
    NewAction,
    Preferences,
    SeatRow,
    decode_game,
    read_text,
    stored_text,
)
from bot.storage.sql import SQLStorage, _utcnow

log = logging.getLogger(__name__)

T = TypeVar("T")
V = TypeVar("V")


class _Sent:
    """A statement on its way to an aiosqlite connection's thread, not waited for yet.

    Its coroutine (aiosqlite's `execute`, `executemany`, ...) is run here up to its first wait,
    where aiosqlite has queued the statement for the connection's thread: it is on its way at
    once, in the order sent, and costs no task of its own. `finish` runs the coroutine to its
    end once the statement has run (`done`), keeping its result or its error; `check`, if
    given, then judges the result (a statement that must change so many rows)."""

    __slots__ = ("_steps", "_waiting", "check", "done", "value", "error")

    def __init__(
        self, statement: Awaitable[Any], check: Callable[[Any], None] | None = None
    ) -> None:
        self._steps = statement.__await__()
        self._waiting: object = None
        self.check = check
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None
        self._step()

    def _step(self) -> None:
        try:
            self._waiting = self._steps.send(None)
        except StopIteration as stop:
            self.done, self.value = True, stop.value
        except BaseException as exc:  # (the statement's error, kept for whoever waits)
            self.done, self.error = True, exc

    def waiting_for(self) -> asyncio.Future[Any] | None:
        """The future the statement's coroutine waits for (None: it may go on at once)."""
        return self._waiting if isinstance(self._waiting, asyncio.Future) else None

    def finish(self) -> None:
        """Run the coroutine on while what it waits for is done (to its end, if it is)."""
        while not self.done:
            waiting = self.waiting_for()
            if waiting is not None and not waiting.done():
                return
            self._step()
        if self.error is None and self.check is not None:
            try:
                self.check(self.value)
            except Exception as exc:
                self.error = exc
            self.check = None


class _SQLiteConnection:
    """`Connection` over an aiosqlite connection: each statement goes to the connection's own
    thread, which runs them one after the other in the order they were sent (a query's rows
    come back with it: `execute_fetchall`, one round trip, not two).

    A statement `send` sends is not waited for (`_Sent`): the next statement waited for, or
    the write's end (`flush`), waits for it with its own, one round trip for all (the thread
    runs them in a row), and raises the first error of those sent (they ran all the same: the
    write is undone). A savepoint's statement waits for those sent before it, so that it is
    not run after one that failed. `waits` counts the round trips waited for."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn
        #: The statements sent and not yet waited for, in the order sent.
        self._sent: list[_Sent] = []
        #: How many times this connection waited for its thread (for tests and benches).
        self.waits = 0

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[DatabaseRow]:
        return list(await self._run(sql, self.raw.execute_fetchall(sql, tuple(params))))

    async def fetchrow(self, sql: str, params: Sequence[object] = ()) -> DatabaseRow | None:
        rows = await self._run(sql, self.raw.execute_fetchall(sql, tuple(params)))
        return next(iter(rows), None)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        cursor = await self._run(sql, self.raw.execute(sql, tuple(params)))
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self._run(sql, self.raw.executemany(sql, [tuple(r) for r in rows]))

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        marks = ", ".join("?" for _ in columns)
        await self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def send(self, sql: str, params: Sequence[object] = ()) -> None:
        self.put(sql, params)

    async def send_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self._sent.append(_Sent(self.raw.executemany(sql, [tuple(r) for r in rows])))

    async def send_changing(
        self, sql: str, params: Sequence[object], rows: int, error: Exception
    ) -> None:
        def check(cursor: aiosqlite.Cursor) -> None:
            if cursor.rowcount != rows:
                raise error

        self._sent.append(_Sent(self.raw.execute(sql, tuple(params)), check))

    def put(self, sql: str, params: Sequence[object] = ()) -> None:
        """`send`, for the driver itself (no coroutine of its own)."""
        self._sent.append(_Sent(self.raw.execute(sql, tuple(params))))

    async def _run(self, sql: str, statement: Awaitable[T]) -> T:
        """Run a statement: at once when nothing sent waits, else after the statements sent
        (in order), raising the first error among them."""
        if self._sent and sql.lstrip()[:8].upper().startswith(_SAVEPOINTS):
            try:
                await self.flush()
            except BaseException:
                _close(statement)
                raise
        if not self._sent:
            self.waits += 1
            return await statement
        sent = _Sent(statement)
        self._sent.append(sent)
        await self.flush()
        value: T = sent.value
        return value

    async def flush(self) -> None:
        """Wait for the statements sent (one round trip: the thread runs them in order, so the
        last one's answer comes after the others'); raise the first one's error."""
        if not self._sent:
            return
        self.waits += 1
        while True:
            for sent in self._sent:
                sent.finish()
            waiting = [s.waiting_for() for s in self._sent if not s.done]
            if not waiting:
                break
            last = waiting[-1]
            if last is None:
                await asyncio.sleep(0)
            else:  # (not cancelled with the waiter: the statements run anyway)
                await asyncio.wait([last])
        done, self._sent = self._sent, []
        for statement in done:
            if statement.error is not None:
                raise statement.error

    async def drain(self) -> None:
        """Wait for the statements sent, whatever their outcome (what undoes them follows)."""
        with suppress(Exception):
            await self.flush()


def _close(statement: Awaitable[Any]) -> None:
    """Close a statement's coroutine that will not be run (no warning that it never ran)."""
    close = getattr(statement, "close", None)
    if close is not None:
        close()


#: The statements that set, release or roll back to a savepoint, or end a transaction: they
#: run after the statements sent before them are known to have succeeded (`_SQLiteConnection`).
_SAVEPOINTS = ("SAVEPOIN", "RELEASE ", "ROLLBACK", "COMMIT", "BEGIN", "END")


class _OneStatement:
    """A `Connection` for one statement only (`SQLiteStorage._reading_one`)."""

    def __init__(self, conn: _SQLiteConnection) -> None:
        self._conn: _SQLiteConnection | None = conn

    def _take(self) -> _SQLiteConnection:
        conn, self._conn = self._conn, None
        if conn is None:
            raise RuntimeError("a read of one statement sent a second one: use _reading()")
        return conn

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[DatabaseRow]:
        return await self._take().fetch(sql, params)

    async def fetchrow(self, sql: str, params: Sequence[object] = ()) -> DatabaseRow | None:
        return await self._take().fetchrow(sql, params)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return await self._take().execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self._take().executemany(sql, rows)

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        await self._take().insert_rows(table, columns, rows)

    async def send(self, sql: str, params: Sequence[object] = ()) -> None:
        await self._take().execute(sql, params)

    async def send_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self._take().executemany(sql, rows)

    async def send_changing(
        self, sql: str, params: Sequence[object], rows: int, error: Exception
    ) -> None:
        if await self._take().execute(sql, params) != rows:
            raise error


#: Seconds a write waits for another connection's write lock (another process's, or a test's
#: second storage on the same file) before it fails with "database is locked".
BUSY_TIMEOUT = 5.0

#: The storages whose read transaction the running task (and the tasks it starts) is in: a
#: read within a read uses the same snapshot.
_READING: ContextVar[tuple[SQLiteStorage, ...]] = ContextVar("sqlite_reading", default=())


async def _connect(path: str, *, busy_ms: int = int(BUSY_TIMEOUT * 1000)) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode (transactions are explicit), rows by name."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
    except BaseException:
        await conn.close()
        raise
    return conn


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection holds the lock (worth a retry)."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY


class SQLiteStorage(SQLStorage):
    """`Storage` on a SQLite file (one bot process), through aiosqlite.

    Each aiosqlite connection runs its statements on a thread of its own, so the event loop
    goes on while one runs, COMMIT included (SQLite's fsync of the journal: milliseconds, more
    on a busy disk). Each time the loop waits for that thread is a round trip, which on a
    loaded machine waits for the thread to be scheduled and for the loop's other work: so a
    write waits twice (its statements, sent together and waited for once; its COMMIT), and
    what an answer reads of a live game is kept in memory as committed (`_effect`). Writes go
    through one connection, one at a time (an asyncio lock), and are grouped: the writes that
    come while a COMMIT is under way are made in one SQLite transaction (each in a savepoint
    of its own, so a failed one is undone alone) and committed together, one fsync for all (a
    group commit). A write still returns only once it is durable. Reads go through a second
    connection, each read (even of several statements) one consistent snapshot of what is
    committed, and never wait for a write: SQLite's WAL journal lets a reader see the last
    commit while the next one is written. Reads take turns on their connection (an asyncio
    lock of their own). The game locks are asyncio locks.
    """

    dialect = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(
        self,
        conn: aiosqlite.Connection,
        clock: Callable[[], str] = _utcnow,
        *,
        reader: aiosqlite.Connection | None = None,
    ) -> None:
        """`conn` writes (and reads, unless a separate `reader` connection to the same file is
        given: then reads never wait for writes and commits are grouped)."""
        super().__init__(clock)
        conn.row_factory = sqlite3.Row
        self._conn = conn
        self._reader = reader if reader is not None else conn
        self._reader.row_factory = sqlite3.Row
        self._wrapped = _SQLiteConnection(conn)
        self._read_wrapped = _SQLiteConnection(self._reader)
        self._grouped = self._reader is not conn
        self._lock = asyncio.Lock()  # the writing connection
        self._read_lock = asyncio.Lock()  # the reading connection (with a reader of its own)
        self._game_locks = KeyedLocks()
        #: The writes made in the open SQLite transaction, each waiting for its COMMIT with
        #: what its commit changes in what is kept (`_effect`).
        self._batch: list[tuple[asyncio.Future[None], list[Callable[[], None]]]] | None = None
        #: What the write under way changes in what is kept, once committed; and what the
        #: COMMIT under way does (`_finish`).
        self._effects: list[Callable[[], None]] = []
        self._committing: list[Callable[[], None]] = []
        self._savepoints = 0  # (each write's savepoint has a name of its own)
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
        #: Another process writes this database (the bot, for `python -m bot.web`): no row is
        #: kept as it was read, every read reads the file.
        self.another_writes = False
        self._messages: dict[int, dict[str, tuple[int, int] | None]] = {}
        #: Message ids whose commit is under way (`set_message`), read back at once.
        self._unsettled: dict[tuple[int, str], tuple[int, int]] = {}
        #: The settings read on every answer, as last committed (one process writes them,
        #: through this object; a write of them forgets what was kept): a user's preferences,
        #: a user's and a server's languages, a live game's follow modes.
        self._preferences: dict[int, Preferences] = {}
        self._languages: dict[tuple[int, int | None], tuple[str | None, str | None]] = {}
        self._follows: dict[int, dict[int, str]] = {}
        #: A live game's turn clock (None: it has none) and its log (at most `KEPT_LOGS`
        #: games'), as last committed: what every answer reads, kept as its commit writes it.
        self._clocks: dict[int, _Row | None] = {}
        self._logs: dict[int, list[ActionRow]] = {}
        #: The live game each channel (or game thread) was last found to hold (`live_game`):
        #: one while it stays live and kept; a game's thread that changes forgets them all.
        self._channels: dict[int, int] = {}

    @property
    def round_trips(self) -> int:
        """How many times this storage waited for one of its connections' threads (for tests
        and benches)."""
        if not self._grouped:
            return self._wrapped.waits
        return self._wrapped.waits + self._read_wrapped.waits

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        migrate_to: int = SCHEMA_VERSION,
        clock: Callable[[], str] = _utcnow,
    ) -> SQLiteStorage:
        """Open (creating if needed) the database at `path` and migrate it to `migrate_to`."""
        conn = await _connect(path)
        reader = None
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            if path not in ("", ":memory:"):  # a second connection would be another database
                reader = await _connect(path)
        except BaseException:
            await conn.close()
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
                    await _settled(self._conn.execute("ROLLBACK"))
        except sqlite3.OperationalError as exc:
            raise StorageUnwritable(f"database {where} is not writable: {exc}") from exc

    async def close(self) -> None:
        """Close the connections (after committing the writes under way), to the end even if
        the caller is cancelled meanwhile (an aiosqlite connection left open keeps its thread,
        and the interpreter waits for it at exit)."""
        await _settled(self._close())

    async def _close(self) -> None:
        async with self._lock:
            if self._batch is not None:
                await self._commit_batch_locked()
            if self._grouped:
                async with self._read_lock:
                    await self._reader.close()
            await self._conn.close()

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's asyncio lock (one process uses a SQLite database)."""
        return self._game_locks.hold(game_id)

    # --- what this process wrote last, kept (reads of a live game cost no statement) ---

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A write transaction for migrations and tests: it may change anything, so what is
        kept (games, message ids, settings) is forgotten, before and after it."""
        self._forget_all()
        try:
            async with self._transaction() as conn:
                yield conn
        finally:
            self._forget_all()

    def _forget_all(self) -> None:
        for kept in (self._games, self._messages, self._preferences, self._languages):
            kept.clear()
        self._follows.clear()
        self._clocks.clear()
        self._logs.clear()
        self._channels.clear()

    def _keep(self, game: GameRow) -> GameRow:
        """Keep a committed row of a live game (unless a newer one is kept); a game that ended
        is forgotten, with its message ids."""
        if self.another_writes:
            return game
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
        self._follows.pop(game_id, None)
        self._clocks.pop(game_id, None)
        self._logs.pop(game_id, None)

    # (the settings: a copy is served, as a caller may change what it is given)

    async def preferences(self, user_id: int) -> Preferences:
        kept = self._preferences.get(user_id)
        if kept is None:
            commits = self.commits
            kept = await super().preferences(user_id)
            if self.commits == commits:  # (see `_read_games`)
                self._preferences[_bounded(self._preferences, user_id)] = copy.deepcopy(kept)
                return kept
        return copy.deepcopy(kept)

    async def set_preferences(
        self, user_id: int, preferences: Preferences, turn_clocks: Sequence[ClockWrite] = ()
    ) -> None:
        try:
            await super().set_preferences(user_id, preferences, turn_clocks)
        finally:
            self._preferences.pop(user_id, None)

    async def languages(self, user_id: int, guild_id: int | None) -> tuple[str | None, str | None]:
        key = (user_id, guild_id)
        kept = self._languages.get(key)
        if kept is None:
            commits = self.commits
            kept = await super().languages(user_id, guild_id)
            if self.commits == commits:
                self._languages[_bounded(self._languages, key)] = kept
        return kept

    async def set_language(self, scope: str, id: int, language: str | None) -> None:
        try:
            await super().set_language(scope, id, language)
        finally:
            self._languages.clear()  # (a server's language is every member's default)

    async def follow_modes(self, game_id: int) -> dict[int, str]:
        kept = self._follows.get(game_id)
        if kept is None:
            commits = self.commits
            kept = await super().follow_modes(game_id)
            if self.commits == commits and game_id in self._games:  # (a live game's only)
                self._follows[game_id] = dict(kept)
                return kept
        return dict(kept)

    async def set_follow_mode(self, game_id: int, user_id: int, mode: str | None) -> None:
        try:
            await super().set_follow_mode(game_id, user_id, mode)
        finally:
            self._follows.pop(game_id, None)

    async def forget_user(self, user_id: int) -> int | None:
        try:
            return await super().forget_user(user_id)
        finally:
            self._forget_all()

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None (as this process last committed it)."""
        kept = self._games.get(game_id)
        return kept if kept is not None else await super().get_game(game_id)

    async def _read_games(
        self, where: str, params: Sequence[object], *, one: bool = False
    ) -> list[GameRow]:
        """`SQLStorage._read_games` in one statement (its own snapshot: no read transaction),
        the rows this process wrote last taken as kept: when every game found is kept at the
        version found, the kept rows are served."""
        commits = self.commits
        async with self._reading_one() as conn:
            found = await self._fetch_games(conn, where, params)
        kept = [self._games.get(g.id) for g in found if isinstance(g, GameRow)]
        if len(kept) == len(found) and all(
            k is not None and k.version == g.version
            for k, g in zip(kept, found)
            if isinstance(g, GameRow)
        ):
            return [k for k in kept if k is not None]
        games = await self._served(found, one=one)
        if self.commits != commits:  # read before a commit done meanwhile: maybe older than it
            return games
        return [self._keep(g) for g in games]

    async def _fetch_games(
        self, conn: Connection, where: str, params: Sequence[object]
    ) -> list[GameRow | UnreadableGame]:
        """`SQLStorage._fetch_games` in one statement (the games joined to their seats): one
        round trip to the connection's thread, not two."""
        rows = await conn.fetch(_games_with_seats(where), tuple(params))
        return [decode_game(row, seats) for row, seats in _grouped_by_game(rows)]

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or in play in this channel, or in this game thread, or None:
        the one found there last, while it is live and kept (a channel holds one live game:
        its own, or the thread's; no other can be added while it is live), else read."""
        game_id = self._channels.get(channel_id)
        kept = None if game_id is None else self._games.get(game_id)
        if kept is not None:
            return kept
        commits = self.commits
        game = await super().live_game(channel_id)
        if game is not None and self.commits == commits and game.id in self._games:
            self._channels[_bounded(self._channels, channel_id)] = game.id
        return game

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
            if kind == "thread":  # (a channel's game may be found through a thread no longer)
                self._channels.clear()

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

    # --- reads ---

    @asynccontextmanager
    async def _reading_one(self) -> AsyncIterator[Connection]:
        """The reading connection for a read of one statement: outside a transaction, a
        statement reads one committed state by itself, so it needs no BEGIN and COMMIT (one
        round trip, not three). A second statement is refused (it might see a later state)."""
        if not self._grouped or self in _READING.get():
            async with self._reading() as conn:
                yield conn
            return
        async with self._read_lock:
            yield _OneStatement(self._read_wrapped)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        """The reading connection, in a read transaction: the statements of one read see one
        committed state, even while the next commit is being written."""
        if not self._grouped:  # one connection: never while a write is under way
            async with self._lock:
                yield self._wrapped
            return
        if self in _READING.get():  # a read within a read: the same snapshot
            yield self._read_wrapped
            return
        async with self._read_lock:
            token = _READING.set((*_READING.get(), self))
            try:
                # (sent: it goes with the read's first statement; a cancelled statement
                # still runs, and the COMMIT below comes after it)
                self._read_wrapped.put("BEGIN")
                yield self._read_wrapped
            finally:
                _READING.reset(token)
                await self._end_read()

    async def _end_read(self) -> None:
        """End the read transaction, after whatever was sent before (the connection's thread
        takes them in order: once sent, the COMMIT runs even if this task is cancelled)."""
        try:
            await self._read_wrapped.execute("COMMIT")
        except sqlite3.OperationalError:
            if self._reader.in_transaction:  # never left in one: later reads would be old
                await self._reader.execute("ROLLBACK")
                raise
            # no transaction to end: its BEGIN failed, and says why

    # --- writes ---

    def _unawaited_transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write that joins the next group commit without waiting for it (a failed commit
        is logged)."""
        return self._transaction(wait=False)

    @asynccontextmanager
    async def _transaction(self, *, wait: bool = True) -> AsyncIterator[Connection]:
        """One write: its statements in the open SQLite transaction (begun here if none is),
        in a savepoint of their own, then, the lock released for the next writes, wait for the
        COMMIT that makes it durable (`_commit_batch`; its error, if it fails, is this write's;
        unless not `wait`).

        A write waits for the connection's thread once for its statements, however many:
        what opens it (BEGIN IMMEDIATE, its SAVEPOINT) and the statements whose results nothing
        needs (`Connection.send`) are sent without waiting, and the first statement waited for,
        or the write's end, waits for them all (`_SQLiteConnection.flush`); then once for its
        COMMIT, shared with the writes committed with it. A failed write is undone by rolling
        back to its own savepoint, or the whole transaction when it is the first write in it.
        A statement sent is run by the connection's thread even if the writer is cancelled:
        what undoes a write comes after it. What a write changes in what is kept (`_effect`)
        changes as its COMMIT succeeds."""
        async with self._lock:
            savepoint = self._open_write()
            try:
                yield self._wrapped
                await self._wrapped.flush()  # (the statements sent, and not waited for yet)
            except BaseException:
                self._effects = []
                await _settled(self._undo_write(savepoint))
                raise
            if not self._grouped:  # one connection for all: a plain transaction, committed now
                self._batch, self._committing, self._effects = None, self._effects, []
                await _settled(self._finish())
                return
            done = self._end_write()
        if wait:
            await done
        else:
            done.add_done_callback(_log_failed_commit)

    def _open_write(self) -> str | None:
        """Send what opens a write: BEGIN IMMEDIATE for the first write of a transaction, then
        a savepoint of the write's own. Should the BEGIN fail, the savepoint begins a
        transaction all the same, so that no statement of the write is ever committed on its
        own before the write's end finds the BEGIN's error. The savepoint's name, for a write
        joining others; None for the first (its undo ends the transaction)."""
        first = self._batch is None
        if first:
            self._wrapped.put("BEGIN IMMEDIATE")  # (another process's write: SQLite waits)
            self._batch = []
        self._savepoints += 1
        name = f"write{self._savepoints}"
        self._wrapped.put(f"SAVEPOINT {name}")
        return None if first else name

    async def _undo_write(self, savepoint: str | None) -> None:
        await self._wrapped.drain()
        if savepoint is not None:  # other writes are in the transaction: undo this one only
            await self._conn.execute(f"ROLLBACK TO {savepoint}")
        else:  # the first write: nothing else to commit, end the SQLite transaction
            self._batch = None
            await self._rollback_if_begun()

    def _effect(self, effect: Callable[[], None]) -> None:
        """Change what is kept once the write under way is committed (call within a write)."""
        self._effects.append(effect)

    def _end_write(self) -> asyncio.Future[None]:
        """Add the write to the transaction's batch and plan the COMMIT it waits for."""
        assert self._batch is not None
        done = asyncio.get_running_loop().create_future()
        self._batch.append((done, self._effects))
        self._effects = []
        if not self._commit_planned:
            self._commit_planned = True
            task = asyncio.create_task(self._commit_batch())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return done

    async def _begin(self) -> None:
        """BEGIN IMMEDIATE (take the write lock; SQLite waits for another connection's write,
        up to `BUSY_TIMEOUT`). If the caller is cancelled meanwhile, what the BEGIN began is
        rolled back."""
        try:
            await self._wrapped.execute("BEGIN IMMEDIATE")
        except asyncio.CancelledError:  # the BEGIN runs all the same: end its transaction
            await _settled(self._rollback_if_begun())
            raise

    async def _rollback_if_begun(self) -> None:
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if self._conn.in_transaction:
                raise

    async def _commit_batch(self) -> None:
        """COMMIT the open SQLite transaction once the writes already waiting for the lock
        have joined it (the lock is fair: they come first)."""
        async with self._lock:
            self._commit_planned = False
            if self._batch is not None:
                await self._commit_batch_locked()

    async def _commit_batch_locked(self) -> None:
        batch, self._batch = self._batch or [], None
        self._committing = [effect for _, effects in batch for effect in effects]
        commit = asyncio.ensure_future(self._finish())
        cancelled = await _through_cancel(commit)  # no statement may run while COMMIT does
        failed = asyncio.CancelledError() if commit.cancelled() else commit.exception()
        for done, _ in batch:
            if done.done():  # its writer was cancelled meanwhile
                continue
            if failed is None:
                done.set_result(None)
            else:
                done.set_exception(failed)
        if cancelled:
            raise asyncio.CancelledError

    async def _finish(self) -> None:
        """COMMIT (retried while another connection holds the lock, up to `BUSY_TIMEOUT`); a
        failed commit is rolled back. Once committed, what the writes in it change in what
        is kept changes (`_committing`), before anything else runs."""
        effects, self._committing = self._committing, []
        deadline = time.monotonic() + BUSY_TIMEOUT
        try:
            while True:
                try:
                    await self._wrapped.execute("COMMIT")
                    break
                except sqlite3.OperationalError as exc:
                    if not _busy(exc) or time.monotonic() > deadline:
                        raise
                await asyncio.sleep(0.002)
        except BaseException:
            if self._conn.in_transaction:
                await self._conn.execute("ROLLBACK")
            raise
        self.commits += 1
        for effect in effects:
            try:
                effect()
            except Exception:  # (our bug) what is kept may be wrong: forget it all
                log.exception("what a commit changes in what is kept")
                self._forget_all()
                break

    # --- what is kept of the live games: their turn clocks and logs ---

    async def turn_clock(self, game_id: int) -> DatabaseRow | None:
        """The clock row of a game's current turn, if planned (a live game's as kept)."""
        if game_id in self._clocks:
            return self._clocks[game_id]
        commits = self.commits
        row = await super().turn_clock(game_id)
        if self.commits == commits and game_id in self._games:  # (see `_read_games`)
            kept = None if row is None else _Row(CLOCK_COLUMNS, (row[c] for c in CLOCK_COLUMNS))
            self._clocks[game_id] = kept
        return row

    async def _write_clock(self, conn: Connection, write: ClockWrite) -> None:
        await super()._write_clock(conn, write)
        self._effect(lambda: self._clock_written(write))

    def _clock_written(self, write: ClockWrite) -> None:
        """Keep a live game's clock as `write` committed it (`SQLBase._write_clock`)."""
        game_id = write.game_id
        if game_id not in self._games:
            self._clocks.pop(game_id, None)
        elif write.clock is not None:
            self._clocks[game_id] = _Row(CLOCK_COLUMNS, _stored_clock(write.clock))
        elif write.version is None:
            self._clocks[game_id] = None
        elif self._clocks.get(game_id) is not None:  # (no row: the UPDATE changes none)
            kept = self._clocks[game_id]
            assert kept is not None
            self._clocks[game_id] = kept.but(version=write.version)

    async def clear_ended_clocks(self) -> None:
        try:
            await super().clear_ended_clocks()
        finally:
            self._clocks.clear()

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]:
        """The logged actions of a game with ply > `after_ply`, in order (a live game's from
        its log as kept: read whole the first time)."""
        kept = self._logs.get(game_id)
        if kept is None:
            if game_id not in self._games:
                return await super().actions(game_id, after_ply)
            commits = self.commits
            kept = await super().actions(game_id)
            if self.commits == commits and game_id in self._games:  # (see `_read_games`)
                self._logs[_bounded(self._logs, game_id, KEPT_LOGS)] = kept
        return kept[bisect.bisect_right(kept, after_ply, key=_ply) :]

    def _logged(
        self,
        game_id: int,
        truncate_after: int | None,
        actions: Sequence[NewAction],
        at: str,
    ) -> None:
        """A write under way changes a game's log: a kept one changes as it commits (even one
        kept after this write began: a read of the log made before its commit)."""
        added = sorted(
            (
                ActionRow(a.ply, a.notation, a.seat, a.user_id, _as_read(a.explanation), at)
                for a in actions
            ),
            key=_ply,
        )

        def logged() -> None:
            kept = self._logs.get(game_id)
            if kept is None:
                return
            last = truncate_after if truncate_after is not None else kept[-1].ply if kept else 0
            if added:  # (a read since the commit may hold them already)
                last = min(last, added[0].ply - 1)
            self._logs[game_id] = [*kept[: bisect.bisect_right(kept, last, key=_ply)], *added]

        self._effect(logged)

    async def _game_after_update(
        self,
        conn: Connection,
        game_id: int,
        expected_version: int,
        updated_at: str,
        *,
        reread: bool,
    ) -> GameRow | UnreadableGame:
        """The row a play commits, from the one kept at the version it changed (only its
        version and time change): no statement. Another change is read back. The row is kept
        as the COMMIT succeeds, even if its writer is cancelled meanwhile (else the row kept
        would stay older than the one stored)."""
        kept = self._games.get(game_id)
        if reread or kept is None or kept.version != expected_version:
            game = await super()._game_after_update(
                conn, game_id, expected_version, updated_at, reread=reread
            )
        else:
            game = dataclasses.replace(kept, version=expected_version + 1, updated_at=updated_at)
        if isinstance(game, GameRow):
            changed = game

            def keep() -> None:
                self._keep(changed)

            self._effect(keep)
        return game


class _Row:
    """A row kept in memory as a query returns it: its columns by name or by position."""

    __slots__ = ("_columns", "_values")

    def __init__(self, columns: Sequence[str], values: Iterable[object]) -> None:
        self._columns = tuple(columns)
        self._values = tuple(values)

    def __getitem__(self, column: str | int, /) -> Any:
        return self._values[column if isinstance(column, int) else self._columns.index(column)]

    def keys(self) -> list[str]:
        return list(self._columns)

    def but(self, **changes: object) -> _Row:
        """This row with some columns changed."""
        values = [changes.get(c, v) for c, v in zip(self._columns, self._values, strict=True)]
        return _Row(self._columns, values)


def _stored_clock(values: ClockValues) -> tuple[object, ...]:
    """A clock's values as SQLite gives them back (its REAL columns as floats)."""
    game_id, version, turn, seat, user_id, started, paused, total = values
    return (
        game_id,
        version,
        turn,
        seat,
        user_id,
        float(started),
        None if paused is None else float(paused),
        float(total),
    )


def _as_read(explanation: str | None) -> str | None:
    """An action's explanation as the log reads it back (`LogSQL.actions`)."""
    return read_text(stored_text(explanation))


def _ply(action: ActionRow) -> int:
    return action.ply


#: How many users' (or pairs') settings are kept at most: past that, the oldest are forgotten.
KEPT_SETTINGS = 10_000


#: How many live games' logs are kept at most: past that, the oldest kept are forgotten (read
#: again when asked for).
KEPT_LOGS = 1_000


def _bounded(kept: MutableMapping[T, V], key: T, most: int = KEPT_SETTINGS) -> T:
    """`key`, for an entry about to be added to `kept`, the oldest entry dropped if it holds
    `most` already."""
    if len(kept) >= most:
        del kept[next(iter(kept))]
    return key


def _games_with_seats(where: str) -> str:
    """The games matching `where`, oldest first, each with its seats in order (one row a seat,
    one row with NULL seat columns for a game without seats)."""
    return (
        "SELECT g.*, s.position AS seat_position, s.kind AS seat_kind,"
        " s.user_id AS seat_user_id, s.name AS seat_name"
        f" FROM (SELECT * FROM games WHERE {where}) AS g"
        " LEFT JOIN seats AS s ON s.game_id = g.id ORDER BY g.id, s.position"
    )


def _grouped_by_game(rows: Iterable[DatabaseRow]) -> list[tuple[DatabaseRow, tuple[SeatRow, ...]]]:
    """The rows of `_games_with_seats`: each game's row and its seats."""
    games: dict[int, tuple[DatabaseRow, list[SeatRow]]] = {}
    for row in rows:
        _, seats = games.setdefault(row["id"], (row, []))
        if row["seat_position"] is not None:
            seats.append(
                SeatRow(
                    row["seat_position"], row["seat_kind"], row["seat_user_id"], row["seat_name"]
                )
            )
    return [(row, tuple(seats)) for row, seats in games.values()]


def _log_failed_commit(done: asyncio.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("a write nobody waited for was not committed: %s", done.exception())


async def _settled(step: Awaitable[T], undo: Callable[[], Awaitable[None]] | None = None) -> T:
    """Await `step` to its end even if the waiting task is cancelled meanwhile; then, if it
    was, run `undo` (when `step` succeeded) and raise `CancelledError`."""
    task = asyncio.ensure_future(step)
    if await _through_cancel(task):
        if undo is not None and not task.cancelled() and task.exception() is None:
            await _through_cancel(asyncio.ensure_future(undo()))
        raise asyncio.CancelledError
    return task.result()


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
