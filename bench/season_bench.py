"""Seasons at scale (issue 58): a season's leaderboard, its final standings and a profile with N
players in the season.

    .venv/bin/python bench/season_bench.py [--players 100000] [--databases sqlite,postgres]

The running season's ratings are generated, deterministically from ``--seed``, as a season's
games leave them (`season_ratings`, which each game's end updates): every player rated in the
global scope and in the scope of their server (one of 5), in the base game, and a third of them
in Under the Moonlight too; 1 to 40 games each (a fifth under the 5 a rank needs); 1% of them
hid their profile, 1% are forgotten seats (never ranked). Then, with `PlayerService` on SQLite
and on PostgreSQL (a server started for the bench from the test suite's `tests.pg_server`):

- the running season's leaderboard (`/ps leaderboard`'s default: a page, its count and the
  reader's own rank), of a random scope, family, page (of the first 3) and reader;
- the season closed (the clock past its end): the final standings stored once, every rating of
  the season with its rank (`Storage.close_season`), its time;
- that season's final standings as `/ps leaderboard season: last season` reads them;
- a profile (`/ps profile`: the all-time figures, this season's ratings and ranks, the past
  seasons' final ranks).

Prints one line per database:

    season: N players; leaderboard p99 L ms, final standings p99 F ms, profile p99 P ms;
    closed in C s (R ranked) [sqlite]

Goal: L <= 50 at N = 100,000 on the 2-core machine, as the daily board's (issue 58).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ratings import GLOBAL  # noqa: E402
from bot.ratings import seasons as rs  # noqa: E402
from bot.ratings.core import Family, Rating, Ratings  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.storage import SQLiteStorage, SQLStorage  # noqa: E402

SERVERS = (1001, 1002, 1003, 1004, 1005)
SEASON = "2026Q4"
#: A moment in the season, and one after it (the next season).
DURING = datetime(2026, 11, 15, tzinfo=UTC).timestamp()
AFTER = datetime(2027, 1, 1, 0, 1, tzinfo=UTC).timestamp()
FIRST_USER = 10**17


def season_ratings(n: int, seed: int) -> tuple[dict[rs.SeasonKey, Rating], list[int]]:
    """The season's ratings of `n` players and the players who hid their profile."""
    rng = random.Random(seed)
    table: dict[rs.SeasonKey, Rating] = {}
    hidden = []
    for index in range(n):
        user = FIRST_USER + index
        who = f"former:{index:016x}" if rng.random() < 0.01 else f"user:{user}"
        if who.startswith("user:") and rng.random() < 0.01:
            hidden.append(user)
        server = rng.choice(SERVERS)
        families: tuple[Family, ...] = ("base", "moonlight") if rng.random() < 1 / 3 else ("base",)
        for family in families:
            games = rng.randint(1, 40)
            rating = Rating(rng.gauss(25.0, 4.0), max(0.8, 25 / 3 * (0.93**games)), games)
            for scope in (server, GLOBAL):
                table[rs.SeasonKey(SEASON, scope, family, who)] = rating
    return table, hidden


async def fill(storage: SQLStorage, n: int, seed: int) -> list[int]:
    """The season's ratings written as a rebuild writes them (`Storage.replace_ratings`: the
    rows and their boards' counts), and the hidden players; the people."""
    table, hidden = season_ratings(n, seed)
    async with storage.transaction() as conn:  # (hidden first: the counts leave them out)
        await conn.insert_rows(
            "hidden_players",
            ("user_id", "identity", "since"),
            [(user, f"user:{user}", "2026-11-01T00:00:00.000+00:00") for user in hidden],
        )
    assert await storage.replace_ratings(Ratings(), table, await storage.results_mark())
    async with storage.transaction() as conn:
        await conn.execute("ANALYZE")  # (as `bench/ratings_bench.py`: the planner's statistics)
    return sorted({int(k.identity[5:]) for k in table if k.identity.startswith("user:")})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def bench_database(storage: SQLStorage, n: int, seed: int, samples: int) -> str:
    """Fill `storage` with a season of `n` players; time its boards, its close, a profile."""
    people = await fill(storage, n, seed)
    now = [DURING]
    players = GameService(storage, clock=lambda: now[0]).players
    assert players.current_season() == SEASON
    rng = random.Random(seed)

    async def timed(board_season: str) -> float:
        scope = rng.choice((GLOBAL, *SERVERS))
        family: Family = rng.choice(("base", "moonlight"))
        t = time.perf_counter()
        await players.leaderboard(family, scope, rng.randrange(3), rng.choice(people), board_season)
        return time.perf_counter() - t

    running = [await timed(SEASON) for _ in range(samples)]
    now[0] = AFTER
    t = time.perf_counter()
    closed = await players.close_ended_seasons()
    closing = time.perf_counter() - t
    assert closed == [SEASON], closed
    (ranked,) = [
        r["ranked"]
        for r in await _fetch(storage, "SELECT ranked FROM season_closings WHERE season = ?")
    ]
    final = [await timed(rs.preceding(players.current_season())) for _ in range(samples)]
    profiles = []
    for _ in range(samples):
        t = time.perf_counter()
        whose = rng.choice(people)
        await players.profile(rng.choice((None, *SERVERS)), whose, whose)
        profiles.append(time.perf_counter() - t)
    return (
        f"season: {n} players; leaderboard p99 {percentile(running, 0.99) * 1000:.1f} ms,"
        f" final standings p99 {percentile(final, 0.99) * 1000:.1f} ms, profile p99"
        f" {percentile(profiles, 0.99) * 1000:.1f} ms; closed in {closing:.1f} s"
        f" ({ranked} ranked) [{storage.dialect}]"
    )


async def _fetch(storage: SQLStorage, sql: str) -> list[dict[str, object]]:
    async with storage.reading() as conn:
        return [dict(r) for r in await conn.fetch(sql, (SEASON,))]


async def bench_one(name: str, tmp: str, n: int, seed: int, samples: int) -> str:
    if name == "sqlite":
        storage: SQLStorage = await SQLiteStorage.open(str(Path(tmp) / "bench.db"))
        try:
            return await bench_database(storage, n, seed, samples)
        finally:
            await storage.close()
    from bot.storage.postgres import PostgresStorage
    from tests.pg_server import PostgresServer, fresh_database

    server = PostgresServer().start()
    try:
        storage = await PostgresStorage.open(await fresh_database(server))
        try:
            return await bench_database(storage, n, seed, samples)
        finally:
            await storage.close()
    finally:
        server.stop()


async def bench(n: int, seed: int, databases: list[str], samples: int) -> list[str]:
    lines = []
    for name in databases:
        with tempfile.TemporaryDirectory() as tmp:
            lines.append(await bench_one(name, tmp, n, seed, samples))
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=58)
    parser.add_argument("--samples", type=int, default=300, help="boards and profiles of each")
    parser.add_argument("--databases", default="sqlite,postgres")
    args = parser.parse_args()
    databases = [d for d in args.databases.split(",") if d]
    asyncio.run(bench(args.players, args.seed, databases, args.samples))


if __name__ == "__main__":
    main()
