"""Memory after many games (issue 13, item 12): plays N whole games through the bot's game
service on a fresh SQLite database (no Discord: the per-game dictionaries live in the
service and are what could grow), each a person against Cynthia, the person's turns ended at
once through the timeout path (`play_automatically`), and prints the process's memory and the
size of every per-game table after every quarter.

Run: ``.venv/bin/python bench/memory_bench.py [--games 2000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.storage import SQLiteStorage  # noqa: E402

HOST = 1


def rss_mb() -> float:
    """Peak resident memory of this process, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def tables(games: GameService) -> dict[str, int]:
    """The per-game in-memory tables of the service and their sizes."""
    return {
        "states": len(games.core._states),
        "last_typed": len(games.turns._last_typed),
        "locks": len(getattr(games.storage, "_game_locks", ())),
    }


async def play_one(games: GameService, index: int) -> None:
    game = await games.lobby.new_lobby(
        guild_id=1, channel_id=10_000 + index, host_id=HOST, host_name="host", options={}
    )
    game = await games.lobby.add_cynthia(game.id, None, HOST)
    result = await games.lobby.start(game.id, None, HOST)
    state = result.state
    while not state.is_over:
        result = await games.bots.play_automatically(
            game.id, engine.turn_id(state), autopilot=False
        )
        assert result is not None
        state = result.state


async def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SQLiteStorage.open(str(Path(tmp) / "bench.db"))
        games = GameService(storage)
        tracemalloc.start()
        start = time.perf_counter()
        try:
            for i in range(n):
                await play_one(games, i)
                if (i + 1) % max(1, n // 4) == 0:
                    current, _ = tracemalloc.get_traced_memory()
                    print(
                        f"after {i + 1:5d} games: traced {current / 2**20:6.1f} MB, "
                        f"peak RSS {rss_mb():6.1f} MB, tables {tables(games)}, "
                        f"{time.perf_counter() - start:6.1f} s"
                    )
        finally:
            await storage.close()
    current, _ = tracemalloc.get_traced_memory()
    print(
        f"memory: {n} games, traced {current / 2**20:.1f} MB at the end, peak RSS {rss_mb():.1f} MB"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    asyncio.run(main(parser.parse_args().games))
