"""Opening the configured database: SQLite (`bot.storage.SQLiteStorage`, the default) or
PostgreSQL (`bot.storage.postgres.PostgresStorage`), from DATABASE_URL or DATABASE_PATH."""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import SQLiteStorage, SQLStorage, database_url
from bot.storage.postgres import PostgresStorage
from bot.storage.sql import _utcnow


async def open_storage(
    url: str | None = None, path: str | None = None, clock: Callable[[], str] = _utcnow
) -> SQLStorage:
    """Open the configured storage, migrated to the current schema: DATABASE_URL (`url`) when
    set, else the SQLite file DATABASE_PATH (`path`); its rows stamped by `clock` (ISO 8601,
    UTC: the bot's clock)."""
    dialect, where = database_url(url, path)
    if dialect == "postgres":
        return await PostgresStorage.open(where, clock=clock)
    return await SQLiteStorage.open(where, clock=clock)
