"""The daily challenge's and the puzzles' figures (issue 58):

    .venv/bin/python bench/daily_bench.py [--players 100000] [--readers 2000] [--postgres]

prints, for SQLite (and with `--postgres` for PostgreSQL too, on a server of its own as
`bench/postgres_bench.py` starts one):

    daily: P puzzles (B base, E expansion), each best by >= 2 points at 4x budget; N players: daily leaderboard p99 L ms, puzzle answer p99 A ms

N and L are the daily challenge's: N players' results of one day (and as many of the day
before, the table as it is after two days) are written into a fresh database, a few hundred of
them with a hidden profile, spread over 300 servers; then `--readers` readers, each a random
player, ask for the day's leaderboard as `/ps daily` shows it to them: the ten best margins of
their server and their own rank there, then the same across servers
(`Storage.daily_leaderboard`, twice per reader); L is the p99 of those reads. On PostgreSQL the
table is analysed after the load (`VACUUM ANALYZE`, as autovacuum does on a live database).

P, B, E and A are the puzzles' (`bench/puzzle_figures.py`: the shipped puzzles re-checked at four
times the Expert's budget, and the answer to a puzzle timed with N players); without that
module they print as 0 and n/a.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import SQLiteStorage, SQLStorage  # noqa: E402

#: The day the results are for (any day: the leaderboard reads one day).
DAY = 331
SERVERS = 300
HIDDEN = 300
SIZE = 10


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def seed(storage: SQLStorage, players: int, rng: random.Random) -> None:
    """`players` results of DAY and of the day before, and the hidden profiles."""
    rows = []
    for day in (DAY - 1, DAY):
        for user in range(1, players + 1):
            margin = int(rng.gauss(-5, 15))
            rows.append(
                (
                    day, 10**15 + user, None, 1000 + user % SERVERS,
                    "2026-11-27T01:00:00+00:00", "2026-11-27T01:30:00+00:00",
                    margin, int(margin > 0), "+=-" * 6,
                )
            )  # fmt: skip
    hidden = rng.sample(range(1, players + 1), HIDDEN)
    gone = {10**15 + u for u in hidden}
    shown = [r for r in rows if r[1] not in gone]
    counts = Counter((r[0], scope, r[6]) for r in shown for scope in (0, r[3]))
    async with storage.transaction() as conn:
        for start in range(0, len(rows), 20000):
            await conn.executemany(
                "INSERT INTO daily_results (day, user_id, game_id, guild_id, started_at,"
                " finished_at, margin, won, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows[start : start + 20000],
            )
        await conn.executemany(
            "INSERT INTO daily_counts (day, scope, margin, players) VALUES (?, ?, ?, ?)",
            [(*key, n) for key, n in counts.items()],
        )
        await conn.executemany(
            "INSERT INTO hidden_players (user_id, identity, since) VALUES (?, ?, ?)",
            [(10**15 + u, f"p:{10**15 + u}", "2026-11-27") for u in hidden],
        )


async def leaderboard_p99(storage: SQLStorage, players: int, readers: int) -> float:
    """The p99 (ms) of a reader's leaderboard reads: their server's, then every server's."""
    rng = random.Random(7)
    times: list[float] = []
    for _ in range(readers):
        user = rng.randint(1, players)
        reader, guild = 10**15 + user, 1000 + user % SERVERS
        for scope in (guild, None):
            start = time.perf_counter()
            rows, total, mine = await storage.daily_leaderboard(DAY, scope, SIZE, reader)
            times.append(time.perf_counter() - start)
            assert len(rows) == SIZE and total > 0
    print(
        f"    leaderboard reads: median {statistics.median(times) * 1000:.1f} ms,"
        f" p99 {percentile(times, 0.99) * 1000:.1f} ms (n={len(times)})"
    )
    return percentile(times, 0.99) * 1000


def puzzle_module() -> ModuleType | None:
    """`bench/puzzle_figures.py` when the puzzles are there."""
    try:
        return importlib.import_module("bench.puzzle_figures")
    except ModuleNotFoundError:
        return None


def line(
    puzzles: tuple[int, int, int] | None, players: int, board_ms: float, answer_ms: float | None
) -> str:
    total, base, expansion = puzzles or (0, 0, 0)
    answer = "n/a" if answer_ms is None else f"{answer_ms:.0f} ms"
    return (
        f"daily: {total} puzzles ({base} base, {expansion} expansion), each best by >= 2 points"
        f" at 4x budget; {players:,} players: daily leaderboard p99 {board_ms:.1f} ms,"
        f" puzzle answer p99 {answer}"
    )


async def one_database(
    name: str,
    storage: SQLStorage,
    url: str | None,
    args: argparse.Namespace,
    puzzles: tuple[int, int, int] | None,
    figures: ModuleType | None,
    analyse: str | None = None,
) -> None:
    print(f"{name}:")
    start = time.perf_counter()
    await seed(storage, args.players, random.Random(1))
    if analyse is not None:
        async with storage.reading() as conn:
            await conn.execute(analyse)
    print(f"    {2 * args.players:,} results written in {time.perf_counter() - start:.1f} s")
    board = await leaderboard_p99(storage, args.players, args.readers)
    answer = (  # (its own event loop: in a thread, beside this one)
        None
        if figures is None
        else await asyncio.to_thread(figures.puzzle_answer_p99_ms, args.players, url)
    )
    print(line(puzzles, args.players, board, answer))


async def main(args: argparse.Namespace) -> None:
    figures = puzzle_module()
    puzzles = None if figures is None else figures.shipped_puzzles_recheck()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "daily.db"
        sqlite = await SQLiteStorage.open(str(path))
        try:
            await one_database("SQLite", sqlite, None, args, puzzles, figures)
        finally:
            await sqlite.close()
    if not args.postgres:
        return
    from bot.storage.postgres import PostgresStorage
    from tests.pg_server import PostgresServer, fresh_database

    server = PostgresServer().start()
    try:
        url = await fresh_database(server)
        postgres = await PostgresStorage.open(url)
        try:
            await one_database(
                "PostgreSQL", postgres, url, args, puzzles, figures,
                analyse="VACUUM ANALYZE daily_results",
            )  # fmt: skip
        finally:
            await postgres.close()
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="the daily challenge's and puzzles' figures")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--readers", type=int, default=2000)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too")
    asyncio.run(main(parser.parse_args()))
