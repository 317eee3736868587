"""The puzzles' figures (issue 58): the shipped puzzles re-checked, and a puzzle answer's time.

Run: ``.venv/bin/python bench/puzzle_figures.py [--players 100000] [--answers 300] [--jobs 1]
[--databases sqlite,postgres] [--skip-recheck]``. Prints

    puzzles: P pass (B base, E expansion) of N shipped, re-checked at 4x budget with fresh seeds S in T min
    puzzle answer: N players on sqlite: p99 A ms (median M ms; judged by lookup L, by simulation S)

`bench/daily_bench.py` imports the two functions:

- ``shipped_puzzles_recheck()``: every puzzle of ``data/puzzles.json`` checked again as
  ``engine.expert.puzzles.puzzle_check`` checks a new one (the best whole turn at least 2 points
  ahead of the second best at four times the quick budget, on two analyses), with two seeds
  drawn afresh for the run (never the generation's), and the best turn still the stored one;
  returns ``(passing, base, expansion)``.
- ``puzzle_answer_p99_ms(n_players, database_url)``: a database (SQLite in a temporary folder
  for None, else the URL's, migrated) with the shipped puzzles and ``n_players`` solvers with a
  puzzle rating and three answered puzzles each; then solvers answer a puzzle near their
  rating, and each answer's End turn is timed through ``PuzzleService.play``: the judge, the
  attempt's verdict with the solver's and the puzzle's new ratings in one transaction, and the
  next puzzle chosen near the new rating. A third of the answers are the best turn, a third End
  turn at once (judged by the losses stored), a third a turn no analysis simulated, judged by
  simulation at the quick budget (in a thread here; the bot runs it in the Expert's worker).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.services.puzzles import PuzzleService, Result, Screen, judge_in_thread  # noqa: E402
from bot.storage import SQLStorage  # noqa: E402
from bot.storage.databases import open_storage  # noqa: E402
from engine.expert.puzzles import Puzzle, puzzle_check, shipped_puzzles, turn_key  # noqa: E402

#: The solvers the answer bench seeds get ids from here up (none of Discord's, which are larger).
FIRST_USER = 1_000_000
#: Answered puzzles seeded per solver.
SEEDED_ANSWERS = 3


def _recheck(args: tuple[dict[str, Any], tuple[int, int]]) -> tuple[str, bool]:
    data, seeds = args
    puzzle = Puzzle.from_dict(data)
    state = puzzle.state
    checks = puzzle_check(state, seeds)
    ok = checks is not None and checks[0].turns[0].key == turn_key(state, puzzle.best)
    return puzzle.rules, ok


def shipped_puzzles_recheck(
    seeds: tuple[int, int] | None = None, jobs: int = 1
) -> tuple[int, int, int]:
    """Every shipped puzzle checked again with `seeds` (two drawn afresh unless told):
    ``(passing, base, expansion)``."""
    if seeds is None:
        rnd = random.SystemRandom()
        seeds = (rnd.randrange(10_000, 2**31), rnd.randrange(10_000, 2**31))
    shipped = shipped_puzzles()
    work = [(p.to_dict(), seeds) for p in shipped]
    t0 = time.monotonic()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_recheck, work, chunksize=4)
    else:
        results = [_recheck(w) for w in work]
    base = sum(ok for rules, ok in results if rules == "base")
    moon = sum(ok for rules, ok in results if rules == "moonlight")
    minutes = (time.monotonic() - t0) / 60
    print(
        f"puzzles: {base + moon} pass ({base} base, {moon} expansion) of {len(shipped)} shipped,"
        f" re-checked at 4x budget with fresh seeds {seeds} in {minutes:.1f} min",
        flush=True,
    )
    return base + moon, base, moon


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _seed(storage: SQLStorage, service: PuzzleService, n_players: int) -> list[int]:
    """The shipped puzzles, and `n_players` solvers with a rating and answered puzzles."""
    await service.ensure_shipped()
    ids = [int(r["id"]) for r in await _fetch(storage, "SELECT id FROM puzzles ORDER BY id")]
    rnd = random.Random(58)
    users = list(range(FIRST_USER, FIRST_USER + n_players))
    async with storage._transaction() as conn:
        await conn.execute("DELETE FROM puzzle_attempts WHERE user_id >= ?", (FIRST_USER,))
        await conn.execute("DELETE FROM puzzle_players WHERE user_id >= ?", (FIRST_USER,))
    now = "2026-01-01T00:00:00.000+00:00"
    players, attempts = [], []
    for user in users:
        mu = rnd.gauss(25.0, 4.0)
        sigma = rnd.uniform(2.0, 25 / 3)
        players.append((user, mu, sigma, mu - 3 * sigma, 2, 1, rnd.randrange(3), 2, now))
        for puzzle_id in rnd.sample(ids, SEEDED_ANSWERS):
            status = rnd.choice(("solved", "failed"))
            attempts.append((user, puzzle_id, '["end"]', status, 1.0, 1, now, now))
    async with storage._transaction() as conn:
        await conn.insert_rows(
            "puzzle_players",
            ("user_id", "mu", "sigma", "ordinal", "solved", "failed", "streak", "best_streak",
             "updated_at"),
            players,
        )  # fmt: skip
        await conn.insert_rows(
            "puzzle_attempts",
            ("user_id", "puzzle_id", "actions", "status", "loss", "rated", "created_at",
             "updated_at"),
            attempts,
        )  # fmt: skip
    return users


async def _fetch(storage: SQLStorage, sql: str) -> list[Any]:
    async with storage._reading() as conn:
        return await conn.fetch(sql)


def _novel_turn(screen: Screen) -> tuple[str, ...] | None:
    """A one-action turn the puzzle's analysis never simulated, if any."""
    state, known = screen.state, screen.puzzle.losses
    for action in engine.legal_actions(state):
        notation = str(action)
        if notation != "end" and turn_key(state, [notation]) not in known:
            after = engine.apply(state, action)
            if engine.turn_id(after) == engine.turn_id(state):
                return (notation,)
    return None


async def _answers(
    storage: SQLStorage, n_players: int, answers: int
) -> tuple[list[float], dict[str, int]]:
    service = PuzzleService(storage, judge=judge_in_thread)
    t0 = time.monotonic()
    users = await _seed(storage, service, n_players)
    print(f"    seeded {n_players} solvers in {time.monotonic() - t0:.0f} s", flush=True)
    rnd = random.Random(59)
    times: list[float] = []
    kinds = {"lookup": 0, "simulation": 0}
    for k in range(answers):
        user = rnd.choice(users)
        screen = await service.start(user)
        assert isinstance(screen, Screen)
        kind = k % 3
        turn: tuple[str, ...] = ()
        if kind == 0:
            turn = screen.puzzle.best
        elif kind == 2:
            turn = _novel_turn(screen) or ()
        for ply, notation in enumerate(turn):
            shown = await service.play(user, screen.attempt.id, ply, notation)
            assert isinstance(shown, Screen)
        simulated = turn_key(screen.state, turn) not in screen.puzzle.losses
        kinds["simulation" if simulated else "lookup"] += 1
        t = time.perf_counter()
        result = await service.play(user, screen.attempt.id, len(turn), "end")
        times.append(time.perf_counter() - t)
        assert isinstance(result, Result)
    return times, kinds


async def _answer_p99(n_players: int, database_url: str | None, answers: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        if database_url is None:
            storage = await open_storage(None, str(Path(tmp) / "bench.db"))
            name = "sqlite"
        else:
            storage = await open_storage(database_url)
            name = storage.dialect
        try:
            times, kinds = await _answers(storage, n_players, answers)
        finally:
            await storage.close()
    p99 = percentile(times, 0.99) * 1000
    print(
        f"puzzle answer: {n_players} players on {name}: p99 {p99:.1f} ms"
        f" (median {statistics.median(times) * 1000:.1f} ms; judged by lookup {kinds['lookup']},"
        f" by simulation {kinds['simulation']})",
        flush=True,
    )
    return p99


def puzzle_answer_p99_ms(n_players: int, database_url: str | None, answers: int = 300) -> float:
    """The p99 of a puzzle answer's End turn, in ms, with `n_players` solvers seeded (see the
    module docstring); `database_url` None: SQLite in a temporary folder."""
    return asyncio.run(_answer_p99(n_players, database_url, answers))


def _postgres_url() -> tuple[Any, str]:
    from tests.pg_server import PostgresServer, fresh_database

    server = PostgresServer().start()
    return server, asyncio.run(fresh_database(server))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=100_000)
    p.add_argument("--answers", type=int, default=300)
    p.add_argument("--jobs", type=int, default=1, help="processes of the re-check")
    p.add_argument("--databases", default="sqlite,postgres")
    p.add_argument("--skip-recheck", action="store_true")
    args = p.parse_args()
    if not args.skip_recheck:
        shipped_puzzles_recheck(jobs=args.jobs)
    for name in [d for d in args.databases.split(",") if d]:
        if name == "sqlite":
            puzzle_answer_p99_ms(args.players, None, args.answers)
            continue
        server, url = _postgres_url()
        try:
            puzzle_answer_p99_ms(args.players, url, args.answers)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
