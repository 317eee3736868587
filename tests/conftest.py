"""Fixtures shared by the storage tests: every storage test runs on SQLite and on a real
PostgreSQL server (started once per session, `tests.pg_server`; marker `postgres`)."""

from __future__ import annotations

import compileall
import importlib.util
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SQLiteStorage, SQLStorage
from tests.pg_server import PostgresServer, fresh_database

#: The helper modules the tests import (never from another test module:
#: tests/test_test_setup.py), whose asserts pytest rewrites like a test module's, so that a
#: failed check in a helper shows its values too. Registered before any test module imports them.
ASSERTING_HELPERS = (
    "tests.e2e.corr",
    "tests.e2e.gameplay",
    "tests.e2e.helpers",
    "tests.golden_helpers",
    "tests.play_helpers",
)
pytest.register_assert_rewrite(*ASSERTING_HELPERS)

#: The databases every storage test runs on.
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


ROOT = Path(__file__).resolve().parent.parent
#: The sources every bot process (tests/e2e) and its worker processes import.
PACKAGES = ("bot", "engine", "render", "translation", "tests")


def pytest_configure(config: pytest.Config) -> None:
    """Compile the project's sources to bytecode once, before the workers start: every e2e test
    starts bot processes (each with its own picture and Expert workers), which are told not to
    write bytecode (`BotProcess.env`), nor does any process where PYTHONDONTWRITEBYTECODE is
    set; without the files each of them compiled every module it imports again (importing the
    bot took 1.1 s of CPU instead of 0.8 s). Only what changed is compiled again; the test
    modules are left to pytest's assertion rewriting."""
    if not hasattr(config, "workerinput"):  # the xdist controller, or a run without xdist
        for package in PACKAGES:
            compileall.compile_dir(ROOT / package, quiet=1, rx=re.compile(r"/test_[^/]*\.py$"))
        _rewrite_test_modules(config)


def _rewrite_test_modules(config: pytest.Config) -> None:
    """Rewrite the asserts of the test modules (and of `ASSERTING_HELPERS`) once, into the files pytest keeps them in, so that
    each xdist worker loads them instead of rewriting all of them again (about 5 s of CPU per
    worker; the workers start at once, so none of them finds the files another wrote). The
    same for the plugins' own modules, which pytest rewrites too (`_plugin_sources`: 1.2 s of
    CPU in every pytest process where PYTHONDONTWRITEBYTECODE is set, since pytest then keeps
    none of them). Done with pytest's own rewriting functions (private ones: if they change,
    each worker rewrites for itself as before, only slower)."""
    try:
        from _pytest.assertion import rewrite

        state = config.stash.get(rewrite.assertstate_key, None)
        if state is None:  # --assert=plain
            return
        helpers = {ROOT.joinpath(*name.split(".")).with_suffix(".py") for name in ASSERTING_HELPERS}
        tests = [
            source
            for source in sorted((ROOT / "tests").rglob("*.py"))
            if source.name.startswith(("test_", "conftest.")) or source in helpers
        ]
        for source in [*tests, *_plugin_sources(config)]:
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc) is not None:
                continue
            if rewrite.try_makedirs(pyc.parent):
                try:
                    source_hash, code = rewrite._rewrite_test(source, config)
                except (SyntaxError, ValueError, OSError):  # left to pytest to report
                    continue
                rewrite._write_pyc(state, code, source_hash, pyc)
    except (AttributeError, ImportError, TypeError):
        return


def _plugin_sources(config: pytest.Config) -> list[Path]:
    """The source files of the installed plugins that pytest rewrites (every module of the
    distribution of a plugin it loads by its entry point: hypothesis, xdist, pytest-asyncio,
    pytest-timeout)."""
    names = getattr(config.pluginmanager.rewrite_hook, "_must_rewrite", ())  # (a private set)
    sources: list[Path] = []
    for name in sorted(names):
        if name.partition(".")[0] in PACKAGES:  # ours: the test modules and helpers above
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        if spec.submodule_search_locations:
            for folder in spec.submodule_search_locations:
                sources += sorted(Path(folder).rglob("*.py"))
        elif spec.origin.endswith(".py"):
            sources.append(Path(spec.origin))
    return sources


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``long`` tests (whole games, half a minute or more each) run first: with
    ``--dist load`` the workers take them one by one before the short tests, so that no worker is
    left with a long test while the others have finished (`make test`)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


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
