"""`bench/ratings_bench.py` at a small N: the database figures' line, and the rebuild through
the database gives the in-memory rebuild's ratings (the same digest)."""

from __future__ import annotations

import re
from pathlib import Path

from bench.ratings_bench import bench_database, games
from bot.ratings import PARTS, digest, merged, rate
from bot.storage import SQLiteStorage


async def test_the_database_bench_prints_its_figures_and_rebuilds_as_the_core(
    tmp_path: Path, capsys
) -> None:
    storage = await SQLiteStorage.open(str(tmp_path / "bench.db"))
    try:
        line = await bench_database(storage, 300, 45, samples=5)
        stored = await storage.stored_ratings()
    finally:
        await storage.close()
    assert re.fullmatch(
        r"ratings: rebuild 300 games in \d+\.\d s; leaderboard p99 \d+\.\d ms,"
        r" profile p99 \d+\.\d ms, history p99 \d+\.\d ms at 300 games",
        line,
    )
    core = rate(games(300, 45))
    assert digest(stored) == digest(core.table)
    assert f"digest {digest(core.table)}" in capsys.readouterr().out


async def test_a_rebuild_in_parts_gives_the_whole_rebuilds_ratings(monkeypatch) -> None:
    """The global scope and the servers' scopes rated apart (in two processes) and merged are
    exactly the one rebuild: the same ratings, histories and count of games."""
    from bot.services import players

    results = list(games(1500, 7))
    whole = rate(results)
    assert merged([rate(results, part) for part in PARTS]) == whole
    monkeypatch.setattr(players, "PARALLEL_FROM", 1000)
    assert await players.rate_in_parts(results) == whole
