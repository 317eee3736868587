"""Ratings at scale (issue 45): the rebuild of every rating from N finished games.

    .venv/bin/python bench/ratings_bench.py [--games 100000] [--seed 45]

The games are generated, deterministically from ``--seed``: 2-4 seats each, about 200 people
spread over 5 servers (each person plays on one or two servers), Cynthia at each difficulty and
the Expert at each budget taking some seats, a quarter of the games with Under the Moonlight, a
few abandoned (they are not rated), ties now and then; finish times one minute apart.

Prints, for the core (the ratings computed from the games in memory, `bot.ratings.rate`):

    ratings: rebuild N games in S s (core; C s of CPU; ...)

then, for SQLite and for PostgreSQL (a server started for the bench from the test suite's
`tests.pg_server`; `--databases sqlite` for SQLite only), a database filled with the same games
(their rows, seats and results as a game's end stores them), the rebuild the bot's
`python -m bot.ratings rebuild` runs (`PlayerService.rebuild`: read, rate, write every rating
and its history), then the leaderboard's, the profile's and the history's latency
(`PlayerService`):

    ratings: rebuild N games in S s; leaderboard p99 L ms, profile p99 P ms,
    history p99 H ms at N games (one line)

(the profile: what `/ps profile` reads, the profile and its head-to-head records; the history:
a page of `/ps history` with each game's rating change.) Goals at N = 100,000 on the 2-core
machine: S <= 60, L, P and H <= 50. The machine is shared: the
CPU time this process used (C) says what the rebuild costs when the wall time is stretched.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.ratings import GLOBAL, GameResult, SeatResult, digest, identity, rate  # noqa: E402
from bot.ratings.core import Family  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.storage import SQLiteStorage, SQLStorage  # noqa: E402
from bot.storage.sql.results import RESULT_COLUMNS  # noqa: E402

SERVERS = (1001, 1002, 1003, 1004, 1005)
PEOPLE = 200
#: The bots' identities: Cynthia at a few difficulties (named and mixed), the Expert's budgets.
BOTS = (
    identity.cynthia({}),
    identity.cynthia({"easier_no_final_collect": True, "easier_grow_plus_one": True,
                      "easier_two_small_start": True}),
    identity.cynthia({"harder_grow_minus_one": True, "harder_score_trees": True}),
    identity.cynthia({"harder_score_trees": True}),
    identity.expert("expert"),
    identity.expert("expert-strong"),
)  # fmt: skip
START = datetime(2026, 1, 1, tzinfo=UTC)


def games(n: int, seed: int = 45) -> Iterator[GameResult]:
    """``n`` generated games (the same ones for the same ``n`` and ``seed``), oldest first."""
    rng = random.Random(seed)
    # Each person plays on a home server, and a third of them on a second one too.
    homes = {
        user: rng.sample(SERVERS, 2 if rng.random() < 1 / 3 else 1)
        for user in range(10**17, 10**17 + PEOPLE)
    }
    regulars = {server: [u for u, h in homes.items() if server in h] for server in SERVERS}
    skill = {user: rng.gauss(0, 1) for user in homes}
    for game_id in range(1, n + 1):
        server = rng.choice(SERVERS)
        n_seats = rng.choice((2, 2, 3, 3, 3, 4, 4))
        n_bots = rng.choice((0, 0, 0, 1, 1, 2)) if n_seats > 2 else rng.choice((0, 1, 1))
        n_people = max(1, n_seats - n_bots)
        people = rng.sample(regulars[server], n_people)
        seats = [identity.person(u) for u in people]
        seats += [rng.choice(BOTS) for _ in range(n_seats - n_people)]
        rng.shuffle(seats)
        # Scores: skill plus luck; equal scores (ties) happen with 2-point steps.
        strength = [skill.get(int(s.split(":")[1]), 0.5) if s.startswith("user:") else 0.8
                    for s in seats]  # fmt: skip
        scores = [2 * round(8 * (x + rng.gauss(0, 1))) for x in strength]
        places = [1 + sum(other > mine for other in scores) for mine in scores]
        family: Family = "moonlight" if rng.random() < 0.25 else "base"
        yield GameResult(
            game_id=game_id,
            finished_at=(START + timedelta(minutes=game_id)).isoformat(),
            server_id=server,
            family=family,
            seats=tuple(SeatResult(who, place) for who, place in zip(seats, places)),
            status="abandoned" if rng.random() < 0.03 else "over",
        )


def bench_core(n: int, seed: int) -> float:
    """The rebuild from games in memory: seconds."""
    results = list(games(n, seed))
    began, cpu = time.perf_counter(), time.process_time()
    ratings = rate(results)
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    print(
        f"ratings: rebuild {n} games in {took:.1f} s (core; {cpu:.1f} s of CPU; "
        f"{ratings.games} rated, {len(ratings.table)} ratings, digest {digest(ratings.table)})"
    )
    return took


GAME_COLUMNS = (
    "id", "guild_id", "channel_id", "host_id", "status", "options", "config", "seed",
    "version", "created_at", "updated_at", "language", "finished_at",
)  # fmt: skip
SEAT_COLUMNS = ("game_id", "position", "kind", "user_id", "name")
KINDS = {"cynthia": "cynthia", "expert:quick": "expert", "expert:strong": "expert-strong"}


def _kind(who: str) -> str:
    return "human" if who.startswith("user:") else KINDS.get(who, "cynthia")


async def fill(storage: SQLStorage, results: list[GameResult]) -> None:
    """Store the generated games as finished games are stored (abandoned ones without
    results), in chunks."""
    configs: dict[tuple[tuple[str, ...], str], str] = {}
    for start in range(0, len(results), 5000):
        games, seats, rows = [], [], []
        for r in results[start : start + 5000]:
            kinds = tuple(engine_kind(_kind(s.identity)) for s in r.seats)
            config = configs.get((kinds, r.family))
            if config is None:
                moon = r.family == "moonlight"
                config = json.dumps(engine.Config(seats=kinds, moon_animals=moon).to_dict())
                configs[(kinds, r.family)] = config
            over = r.status == "over"
            users = [identity.user_id_of(s.identity) for s in r.seats]
            host = next(u for u in users if u is not None)
            games.append(
                (r.game_id, r.server_id, r.game_id, host, r.status, "{}", config, r.game_id, 1,
                 r.finished_at, r.finished_at, "en", r.finished_at if over else None)
            )  # fmt: skip
            for position, (seat, user) in enumerate(zip(r.seats, users)):
                seats.append((r.game_id, position, _kind(seat.identity), user, seat.identity))
                if over:
                    score = 60 - 10 * seat.place
                    rows.append(
                        (r.game_id, position, seat.identity, user, r.server_id, r.family,
                         len(r.seats), seat.place, score, json.dumps({"tokens": score}),
                         "owl" if r.family == "moonlight" else None, 0, r.finished_at)
                    )  # fmt: skip
        async with storage.transaction() as conn:
            await conn.insert_rows("games", GAME_COLUMNS, games)
            await conn.insert_rows("seats", SEAT_COLUMNS, seats)
            await conn.insert_rows("seat_results", RESULT_COLUMNS, rows)
    if storage.dialect == "postgres":
        async with storage.transaction() as conn:
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
            )
            await conn.execute("ANALYZE")


def engine_kind(kind: str) -> str:
    return "cynthia" if kind == "cynthia" else "human"


def _cpu() -> float:
    """The CPU seconds of this process and of its finished child processes (the rebuild's
    parts)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def bench_database(storage: SQLStorage, n: int, seed: int, samples: int) -> str:
    """Fill `storage` with `n` games, rebuild, time the leaderboard and the profile."""
    results = list(games(n, seed))
    await fill(storage, results)
    players = GameService(storage).players
    began, cpu = time.perf_counter(), _cpu()
    rebuilt = await players.rebuild()
    took, cpu = time.perf_counter() - began, _cpu() - cpu
    rng = random.Random(seed)
    people = sorted({u for r in results for s in r.seats
                     if (u := identity.user_id_of(s.identity)) is not None})  # fmt: skip
    boards, profiles, histories = [], [], []
    for _ in range(samples):
        scope = rng.choice((GLOBAL, *SERVERS))
        family: Family = rng.choice(("base", "moonlight"))
        reader = rng.choice(people)
        t = time.perf_counter()
        await players.leaderboard(family, scope, rng.randrange(3), reader)
        boards.append(time.perf_counter() - t)
        t = time.perf_counter()
        # what `/ps profile` reads: the profile and its head-to-head records (of another's)
        where, whose = rng.choice((None, *SERVERS)), rng.choice(people)
        await players.profile(where, whose, reader)
        await players.head_to_head(where, whose, reader)
        profiles.append(time.perf_counter() - t)
        t = time.perf_counter()
        await players.history(reader, rng.choice((None, *SERVERS)), rng.randrange(3), reader)
        histories.append(time.perf_counter() - t)
    print(
        f"    ({storage.dialect}: rebuild {cpu:.1f} s of CPU in this process and its parts';"
        f" {rebuilt.games} rated, {rebuilt.ratings} ratings, digest {rebuilt.digest};"
        f" {samples} leaderboards and profiles)"
    )
    return (
        f"ratings: rebuild {n} games in {took:.1f} s; leaderboard p99"
        f" {percentile(boards, 0.99) * 1000:.1f} ms, profile p99"
        f" {percentile(profiles, 0.99) * 1000:.1f} ms, history p99"
        f" {percentile(histories, 0.99) * 1000:.1f} ms at {n} games"
    )


async def bench_databases(n: int, seed: int, databases: list[str], samples: int) -> list[str]:
    """The figures of each database (printed as they come)."""
    lines = []
    for name in databases:
        with tempfile.TemporaryDirectory() as tmp:
            lines.append(await _bench_one(name, tmp, n, seed, samples))
        print(lines[-1], flush=True)
    return lines


async def _bench_one(name: str, tmp: str, n: int, seed: int, samples: int) -> str:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--samples", type=int, default=300, help="leaderboards and profiles")
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--no-core", action="store_true", help="skip the in-memory rebuild")
    args = parser.parse_args()
    if not args.no_core:
        bench_core(args.games, args.seed)
    databases = [d for d in args.databases.split(",") if d]
    asyncio.run(bench_databases(args.games, args.seed, databases, args.samples))


if __name__ == "__main__":
    main()
