"""`bench/season_bench.py` at a small N: its line, and a season board read from its buckets'
counts gives the ranks, sizes and pages of the board sorted in full here."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bench.season_bench import DURING, SEASON, bench_database, fill, season_ratings
from bot.ratings import seasons as rs
from bot.services import GameService
from bot.storage import SQLiteStorage


async def test_the_season_bench_prints_its_figures(tmp_path: Path) -> None:
    storage = await SQLiteStorage.open(str(tmp_path / "bench.db"))
    try:
        line = await bench_database(storage, 300, 58, samples=5)
    finally:
        await storage.close()
    assert re.fullmatch(
        r"season: 300 players; leaderboard p99 \d+\.\d ms, final standings p99 \d+\.\d ms,"
        r" profile p99 \d+\.\d ms; closed in \d+\.\d s \(\d+ ranked\) \[sqlite\]",
        line,
    )


async def test_a_season_board_from_its_counts_is_the_board_sorted_in_full(any_storage) -> None:
    people = await fill(any_storage, 1500, 9)
    table, hidden = season_ratings(1500, 9)
    players = GameService(any_storage, clock=lambda: DURING).players
    rng = random.Random(3)
    for scope, family in ((0, "base"), (1003, "base"), (0, "moonlight")):
        board = sorted(
            (
                (-rating.ordinal, key.identity)
                for key, rating in table.items()
                if (key.season, key.scope, key.family) == (SEASON, scope, family)
                and rating.games >= rs.RANKED_FROM
                and key.identity.startswith("user:")
                and int(key.identity[5:]) not in hidden
            )
        )
        ranks = {who: rank for rank, (_o, who) in enumerate(board, 1)}
        for reader in rng.sample(people, 40) + hidden[:3]:
            page = rng.randrange(4)
            shown = await players.leaderboard(family, scope, page, reader, SEASON)
            assert shown.total == len(board)
            assert [e.identity for e in shown.entries] == [
                who for _o, who in board[shown.page * 10 : shown.page * 10 + 10]
            ]
            assert [e.rank for e in shown.entries] == list(
                range(shown.page * 10 + 1, shown.page * 10 + 1 + len(shown.entries))
            )
            expected = ranks.get(f"user:{reader}")
            assert (None if shown.reader is None else shown.reader.rank) == expected
