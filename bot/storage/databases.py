"""Opening the configured database: SQLite (`bot.storage.SQLiteStorage`, the default) or
PostgreSQL (`bot.storage.postgres.PostgresStorage`), from DATABASE_URL or DATABASE_PATH."""

from __future__ import annotations

from bot.storage import SQLiteStorage, SQLStorage, database_url
from bot.storage.postgres import PostgresStorage


async def open_storage(url: str | None = None, path: str | None = None) -> SQLStorage:
    """Open the configured storage, migrated to the current schema: DATABASE_URL (`url`) when
    set, else the SQLite file DATABASE_PATH (`path`)."""
    dialect, where = database_url(url, path)
    if dialect == "postgres":
        return await PostgresStorage.open(where)
    return await SQLiteStorage.open(where)
