"""`python -m bot.ratings rebuild`: recompute every rating from the stored games.

Reads the database the bot uses (DATABASE_URL, else the SQLite file DATABASE_PATH, from the
environment and `.env` as `python -m bot` does; `--database` overrides both), records first the
results of games finished before results were kept (replaying them), rates every finished game
in the order they finished (`bot.ratings.rate`: the same games give the same ratings, on SQLite
and on PostgreSQL, and the same as the updates the bot made at each game's end), replaces the
stored ratings and their history, and prints what it did with the ratings' digest:

    ratings: rebuilt from 1234 games (0 recorded first): 987 ratings, digest 0123456789abcdef

Safe while the bot runs: a game that ends during the rebuild makes it start again.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

from dotenv import find_dotenv, load_dotenv


async def rebuild(url: str | None, path: str | None) -> str:
    """Rebuild the ratings of the database at `url` (or the SQLite file `path`); the line
    printed."""
    from bot.services import GameService
    from bot.storage.databases import open_storage

    began = time.perf_counter()
    storage = await open_storage(url, path)
    try:
        done = await GameService(storage).players.rebuild()
    finally:
        await storage.close()
    return (
        f"ratings: rebuilt from {done.games} games ({done.recorded} recorded first):"
        f" {done.ratings} ratings, digest {done.digest} ({time.perf_counter() - began:.1f} s)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ratings", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("rebuild", help="recompute every rating from the stored games")
    build.add_argument("--database", help="a database URL or a SQLite file (default: as the bot)")
    args = parser.parse_args(argv)
    load_dotenv(find_dotenv(usecwd=True))
    url = os.environ.get("DATABASE_URL", "").strip() or None
    path = os.environ.get("DATABASE_PATH", "").strip() or None
    if args.database:
        if "://" in args.database:
            url = args.database
        else:
            url, path = None, args.database
    from bot.storage import DatabaseUrlError

    try:
        print(asyncio.run(rebuild(url, path)))
    except DatabaseUrlError as exc:
        print(f"ratings: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
