"""The bot on the SQLite driver it had before aiosqlite (issue 55), for a side-by-side figure.

    python tests/e2e/launcher.py ... --module bench.sqlite3_bot

(`bench/bot_latency.py --driver sqlite3` runs it.) Until ad9360e the bot reached SQLite with
the standard library's `sqlite3` on the event loop's thread: each statement ran at once, in
microseconds, and only COMMIT (SQLite's fsync) went to a thread of its own. Since then it goes
through aiosqlite (`bot.storage.sqlite`), where every statement is a round trip to the
connection's thread. To compare the two drivers and nothing else, this module runs this tree's
bot with its aiosqlite connections replaced by `LoopConnection`, which offers the part of
aiosqlite's API the storage uses and runs it as the old driver did: every statement on the
loop's thread, COMMIT on a thread of its own. Everything else (the rows kept in memory, the
group commit, the reader connection) is this tree's. A bench tool, never the product: the
product's SQLite statements go through aiosqlite only (pyproject.toml's import contracts).
"""

from __future__ import annotations

import asyncio
import runpy
import sqlite3
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any


class LoopConnection:
    """A sqlite3 connection behind aiosqlite's `Connection` API (the part `SQLiteStorage`
    uses): statements run when awaited (at their first step: `_Sent` sends them at once),
    on the loop's thread; COMMIT on the connection's commit thread. `SQLiteStorage` never
    sends a statement on a connection while its COMMIT runs (it holds the write lock)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.raw = conn
        self._committer = ThreadPoolExecutor(1, thread_name_prefix="sqlite3-commit")

    @property
    def row_factory(self) -> Any:
        return self.raw.row_factory

    @row_factory.setter
    def row_factory(self, factory: Any) -> None:
        self.raw.row_factory = factory

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    async def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        if sql.strip().upper() == "COMMIT":
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._committer, self.raw.execute, sql)
        return self.raw.execute(sql, tuple(params))

    async def execute_fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        return self.raw.execute(sql, tuple(params)).fetchall()

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> sqlite3.Cursor:
        return self.raw.executemany(sql, rows)

    async def close(self) -> None:
        self._committer.shutdown(wait=True)
        self.raw.close()


async def connect(path: str, *, busy_ms: int = 5000) -> LoopConnection:
    """`bot.storage.sqlite._connect`, on the old driver."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
    return LoopConnection(conn)


def main() -> None:
    from bot.storage import sqlite

    sqlite._connect = connect  # type: ignore[assignment]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
