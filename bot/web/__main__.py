"""`python -m bot.web`: the web companion in a process of its own, over the bot's database
(DATABASE_URL or DATABASE_PATH), listening on WEB_PORT. Several may run behind a proxy on
PostgreSQL; each learns of the plays of every bot process from the database's notifications
(on SQLite, by reading the watched games' versions every 0.1 s)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

from dotenv import find_dotenv, load_dotenv

from bot.config import DEFAULT_DATABASE_PATH, ConfigError, WebSettings, load_web_settings
from bot.logs import configure_logging
from bot.services import GameService
from bot.storage import SQLiteStorage, StorageUnwritable
from bot.storage.databases import open_storage
from bot.web import start_site

log = logging.getLogger("bot.web")


async def serve(settings: WebSettings, database_url: str | None, database_path: str) -> None:
    """Serve until SIGTERM or SIGINT."""
    storage = await open_storage(database_url, database_path)
    if isinstance(storage, SQLiteStorage):  # the bot's process writes it: read every row anew
        storage.another_writes = True
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        site = await start_site(GameService(storage), settings)
        try:
            await stop.wait()
        finally:
            await site.stop()
    finally:
        await storage.close()


def main() -> int:
    load_dotenv(find_dotenv(usecwd=True))
    try:
        settings = load_web_settings()
    except ConfigError as exc:
        print(f"Configuration error: {exc} See .env.example.", file=sys.stderr)
        return 2
    if settings is None:
        print("Configuration error: WEB_PORT is not set. See .env.example.", file=sys.stderr)
        return 2
    configure_logging((os.environ.get("LOG_LEVEL", "").strip() or "INFO").upper(), secrets=[])
    database_url = os.environ.get("DATABASE_URL", "").strip() or None
    database_path = os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH
    try:
        asyncio.run(serve(settings, database_url, database_path))
    except StorageUnwritable as exc:
        log.error("cannot start: %s", exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
