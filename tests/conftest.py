"""Fixtures shared by the storage tests: every storage test runs on SQLite and on a real
PostgreSQL server (started once per session, `tests.pg_server`; marker `postgres`)."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SQLiteStorage, SQLStorage
from tests import durations
from tests.pg_server import PostgresServer, fresh_database

#: The databases every storage test runs on.
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.hookimpl(trylast=True)  # after the deselection by `-m`
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `-n N --dist worksteal` the slow tests first, spread over the workers
    (`tests.durations`); every worker collects, and orders alike."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers > 1 and config.getoption("dist", "no") == "worksteal":
        items[:] = durations.order(items, workers, durations.load_table())


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server for the whole session, on a temp dir and a loopback port."""
    server = PostgresServer().start()
    yield server
    server.stop()


Opener = Callable[..., Awaitable[SQLStorage]]


@pytest.fixture(params=DATABASES)
async def open_db(request, tmp_path: Path):
    """`await open_db(**options)` opens a storage on one fresh database of the parametrised
    kind (each call another connection to the same database); every one is closed after."""
    opened: list[SQLStorage] = []
    if request.param == "postgres":
        from bot.storage.postgres import PostgresStorage

        server = request.getfixturevalue("postgres_server")
        url: str | None = None

        async def open_one(**options: Any) -> SQLStorage:
            nonlocal url
            if url is None:  # the schema copied in, unless the test migrates step by step
                url = await fresh_database(server, migrated="migrate_to" not in options)
            opened.append(await PostgresStorage.open(url, **options))
            return opened[-1]
    else:
        path = str(tmp_path / "games.db")

        async def open_one(**options: Any) -> SQLStorage:
            opened.append(await SQLiteStorage.open(path, **options))
            return opened[-1]

    yield open_one
    for storage in opened:
        await storage.close()


@pytest.fixture
async def any_storage(open_db: Opener) -> SQLStorage:
    """A storage on a fresh database, SQLite or PostgreSQL."""
    return await open_db()
