"""SQLite and PostgreSQL side by side (issue 15), on a throwaway PostgreSQL server.

    .venv/bin/python bench/postgres_bench.py [--games 50] [--processes 2] [--jobs 5000]
        [--skip-bot] [--skip-service] [--skip-scheduler]

1. Click-to-answer through the loopback fake of Discord (`bench/bot_latency.py`'s players:
   each action a panel click or a `/ps play`, timed until the answer carrying the new picture):
   `--games` concurrent games on SQLite (one bot process), on PostgreSQL (one process), then
   `--processes` bot processes x `--games` games each on one PostgreSQL: the processes run one
   shard each (SHARD_COUNT, SHARD_IDS), the fake has a guild on each shard and each process's
   games are in its shard's guild, all played at once.
2. The game service alone, `--games` games per process playing the first legal move as fast as
   they can: one process on SQLite, one on PostgreSQL, two processes on one PostgreSQL (each
   its own games); the time of each `TurnService.play`, median and p99.
3. The scheduler with `--jobs` games, one deadline each, all due: the time until every one
   fired, that each fired exactly once (one scheduler on SQLite; two on one PostgreSQL, as two
   processes would), and the CPU this process then uses while idle for `IDLE` seconds (the
   real clock; on PostgreSQL that includes a poll).

Prints figures, asserts only that no deadline fired twice or was missed. Needs Debian's
postgresql (`make test` installs it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.bot_latency import Game, percentile  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.services.base import UserError  # noqa: E402
from bot.services.clock import RealClock  # noqa: E402
from bot.services.scheduler import Job, JobStore, Scheduler  # noqa: E402
from bot.storage import SQLiteStorage, SQLStorage  # noqa: E402
from bot.storage.postgres import PostgresStorage  # noqa: E402
from tests.e2e.fakediscord import BotProcess, FakeDiscord, shard_of  # noqa: E402
from tests.pg_server import PostgresServer, fresh_database  # noqa: E402

#: Seconds the idle scheduler is watched (longer than SHARED_POLL: a poll is in it).
IDLE = 35.0


def figures(name: str, values: list[float]) -> str:
    return (
        f"    {name:<34} median {statistics.median(values) * 1000:7.1f} ms"
        f"   p99 {percentile(values, 0.99) * 1000:7.1f} ms   (n={len(values)})"
    )


def ms(name: str, values: list[float]) -> str:
    return (
        f"    {name:<22} median {statistics.median(values) * 1000:6.0f} ms"
        f"   p99 {percentile(values, 0.99) * 1000:6.0f} ms   max {max(values) * 1000:6.0f} ms"
        f"   (n={len(values)})"
    )


async def click_to_answer(processes: int, games: int, env: dict[str, str], label: str) -> None:
    """`processes` bot processes (one shard each when more than one) with `games` games each,
    all played at once through one fake Discord by `bench.bot_latency.Game`'s players."""
    args = argparse.Namespace(actions=12, per_turn=3, think=1.0)
    fake = FakeDiscord(check_spec=False)  # a bench: no spec checks competing for the CPU
    await fake.start()
    guilds = [fake.guild_id]
    env = {"LOG_LEVEL": "WARNING", **env}
    if processes > 1:  # a guild on each shard; commands synced globally, for every guild
        home = shard_of(fake.guild_id, processes)
        guilds = [
            fake.guild_id if k == home else fake.add_guild(f"shard {k}", shard=(k, processes))
            for k in range(processes)
        ]
        env.update({"SHARD_COUNT": str(processes), "DEV_GUILD_ID": ""})
    with tempfile.TemporaryDirectory() as tmp:
        bots = [
            BotProcess(
                fake,
                Path(tmp) / f"bot{k}",
                env={**env, "SHARD_IDS": str(k)} if processes > 1 else env,
            )
            for k in range(processes)
        ]
        try:
            await asyncio.gather(*(bot.start() for bot in bots))
            await asyncio.gather(*(bot.wait_ready(timeout=180) for bot in bots))
            rng = random.Random(games)
            tables = [
                [
                    Game(fake, k * games + i, random.Random(rng.random()), args, guilds[k])
                    for i in range(games)
                ]
                for k in range(processes)
            ]
            everyone = [g for table in tables for g in table]
            starts = await asyncio.gather(*(g.start() for g in everyone))
            t0 = time.monotonic()
            await asyncio.gather(*(g.run(s) for g, s in zip(everyone, starts, strict=True)))
            elapsed = time.monotonic() - t0
        finally:
            for bot in bots:
                await bot.stop()
            await fake.stop()
    both = [x for g in everyone for x in g.latencies + g.typed_latencies]
    print(
        f"  {label}: {len(both)} actions in {elapsed:.1f} s ({len(both) / elapsed:.1f} actions/s),"
        f" load average {os.getloadavg()[0]:.1f}"
    )
    print(ms("panel click", [x for g in everyone for x in g.latencies]))
    print(ms("/ps play", [x for g in everyone for x in g.typed_latencies]))
    print(ms("all", both))
    if processes > 1:
        for k, table in enumerate(tables):
            print(ms(f"all, shard {k}'s games", [x for g in table for x in g.latencies]
                     + [x for g in table for x in g.typed_latencies]))  # fmt: skip
    if fake.late_interactions:
        print(f"    {len(fake.late_interactions)} interaction(s) acknowledged after 3 s")


async def bot_latency(server: PostgresServer, games: int, processes: int) -> None:
    print(f"1. click to answer through the fake Discord, {games} concurrent games a process")
    await click_to_answer(1, games, {}, "SQLite, 1 process")
    url = await fresh_database(server)
    await click_to_answer(1, games, {"DATABASE_URL": url}, "PostgreSQL, 1 process")
    url = await fresh_database(server)
    label = f"PostgreSQL, {processes} processes x {games} games"
    await click_to_answer(processes, games, {"DATABASE_URL": url}, label)


async def play_games(storage: SQLStorage, games: int, plies: int, first_channel: int) -> list:
    """`games` games of two people, each played `plies` moves at once; the play times."""
    service = GameService(storage, seed_source=lambda: 3)
    ids = []
    for i in range(games):
        lobby = await service.lobby.new_lobby(
            guild_id=1, channel_id=first_channel + i, host_id=1, host_name="a", options={}
        )
        await service.lobby.join(lobby.id, None, 2, "b")
        ids.append((await service.lobby.start(lobby.id, None, 1)).game.id)
    times: list[float] = []

    async def one(game_id: int) -> None:
        for _ in range(plies):
            game = await service.core.get_game(game_id)
            state = await service.core.state(game)
            if state.is_over:
                return
            user = game.seats[state.current_seat].user_id
            t = time.perf_counter()
            try:
                await service.turns.play(game_id, user, str(engine.legal_actions(state)[0]))
            except UserError:
                continue
            times.append(time.perf_counter() - t)

    await asyncio.gather(*(one(g) for g in ids))
    return times


def _play_in_process(url: str, games: int, plies: int, first_channel: int, out) -> None:
    async def run() -> list[float]:
        storage = await PostgresStorage.open(url)
        try:
            return await play_games(storage, games, plies, first_channel)
        finally:
            await storage.close()

    out.put(asyncio.run(run()))


async def service_latency(server: PostgresServer, games: int, plies: int = 12) -> None:
    import multiprocessing

    print(f"2. TurnService.play, {games} games per process played at once, {plies} moves each")
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SQLiteStorage.open(str(Path(tmp) / "b.db"))
        print(figures("SQLite, 1 process", await play_games(storage, games, plies, 1000)))
        await storage.close()
    storage = await PostgresStorage.open(await fresh_database(server))
    print(figures("PostgreSQL, 1 process", await play_games(storage, games, plies, 1000)))
    await storage.close()
    url = await fresh_database(server)
    await (await PostgresStorage.open(url)).close()  # migrate once
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_play_in_process, args=(url, games, plies, 1000 * (k + 1), out))
        for k in range(2)
    ]
    for p in procs:
        p.start()
    times = [t for _ in procs for t in out.get()]
    for p in procs:
        p.join()
    print(figures(f"PostgreSQL, 2 processes x {games}", times))


async def scheduler_run(storages: list[SQLStorage], jobs: int, label: str) -> None:
    first = storages[0]
    now = time.time()
    for i in range(jobs):
        game = await first.create_game(
            guild_id=1, channel_id=10_000 + i, host_id=1, host_name="a", options={}, seed=1
        )
        clock_row = (game.id, game.version, "play:1:0", 0, 1, now - 10, None, 0.0)
        await first.write_turn_clock(clock_row, [("deadline", now - 1 - i % 7)], "postponed")
    fired: Counter[int] = Counter()
    done = asyncio.Event()

    async def handler(job: Job) -> str:
        fired[job.id] += 1
        if len(fired) == jobs:
            done.set()
        return "done"

    poll = 30.0 if first.shared else None
    schedulers = [Scheduler(JobStore(s), RealClock(), handler, poll=poll) for s in storages]
    t = time.perf_counter()
    for s in schedulers:
        s.start()
    await asyncio.wait_for(done.wait(), 600)
    elapsed = time.perf_counter() - t
    await asyncio.sleep(0.5)  # let the last outcomes be stored
    cpu = time.process_time()
    await asyncio.sleep(IDLE)
    idle = time.process_time() - cpu
    for s in schedulers:
        await s.stop()
    stored = await JobStore(first).jobs()
    twice = sum(1 for n in fired.values() if n > 1)
    missed = sum(1 for j in stored if j.fired_at is None or j.outcome != "done")
    print(
        f"    {label:<34} {jobs} deadlines fired in {elapsed:5.2f} s, twice: {twice},"
        f" missed: {missed}, idle CPU {idle / IDLE * 100:.3f} % over {IDLE:.0f} s"
    )
    assert twice == 0 and missed == 0 and len(fired) == jobs


async def scheduler_bench(server: PostgresServer, jobs: int) -> None:
    print(f"3. the scheduler with {jobs} games, every deadline due")
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SQLiteStorage.open(str(Path(tmp) / "s.db"))
        await scheduler_run([storage], jobs, "SQLite, 1 scheduler")
        await storage.close()
    url = await fresh_database(server)
    storages = [await PostgresStorage.open(url), await PostgresStorage.open(url)]
    await scheduler_run(storages, jobs, "PostgreSQL, 2 schedulers")
    for s in storages:
        await s.close()


async def main(args) -> None:
    server = PostgresServer().start()
    try:
        print(f"(cores: {os.cpu_count()}; figures are noisy on a shared machine)")
        if not args.skip_bot:
            await bot_latency(server, args.games, args.processes)
        if not args.skip_service:
            await service_latency(server, args.games)
        if not args.skip_scheduler:
            await scheduler_bench(server, args.jobs)
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="SQLite and PostgreSQL side by side")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--processes", type=int, default=2, help="bot processes in part 1")
    parser.add_argument("--jobs", type=int, default=5000)
    parser.add_argument("--skip-bot", action="store_true", help="leave out the Discord part")
    parser.add_argument("--skip-service", action="store_true", help="leave out part 2")
    parser.add_argument("--skip-scheduler", action="store_true", help="leave out part 3")
    asyncio.run(main(parser.parse_args()))
