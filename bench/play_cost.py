"""What a play costs the bot's process in storage and services, without Discord.

    .venv/bin/python bench/play_cost.py [--games 20] [--plays 600] [--database sqlite]

Opens a fresh database (a SQLite file in a temporary directory), starts `--games` two-player
games through the game service with the bot's turn timers wired after each commit (the turn's
clock is written in the play's transaction, as in the bot), then plays `--plays` random legal
actions round-robin over the games, one at a time. Each play is timed twice: the play alone
(`TurnService.play`: the lock, the state, the engine, the commit with its clock), and the play
with the reads an answer makes after it (the log the game message's story tells, the turn's
deadline). Prints the median and mean wall time of each, and the process's CPU time (all its
threads) per play. Nothing else runs in the process, so wall time is what a play keeps the
event loop and the database's threads busy; it works on older checkouts too (`--tree DIR`
names another checkout to import the bot from).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=20)
parser.add_argument("--plays", type=int, default=600)
parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
args = parser.parse_args()
sys.path.insert(0, str(args.tree.resolve()))

import engine  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.services.clock import RealClock  # noqa: E402
from bot.services.timers import TurnTimers  # noqa: E402
from bot.storage.databases import open_storage  # noqa: E402


class Timers:
    """The part of the bot's after-commit pipeline that touches storage: the turn timers."""

    def __init__(self, timers: TurnTimers) -> None:
        self.timers = timers

    async def in_commit(self, game, state):
        return await self.timers.in_commit(game, state)

    async def on_commit(self, game, state) -> None:
        await self.timers.on_commit(game, state)

    async def on_end(self, game) -> None:
        await self.timers.on_end(game)


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(None, str(Path(tmp) / "bench.sqlite3"))
        try:
            service = GameService(storage, seed_source=lambda: 45)

            async def away(user_id: int) -> bool:
                return False

            timers = TurnTimers(storage, RealClock(), on_vacation=away)
            service.core.after = Timers(timers)
            rng = random.Random(7)
            games = []
            for i in range(args.games):
                host, guest = 1000 + 2 * i, 1001 + 2 * i
                game = await service.lobby.new_lobby(
                    guild_id=1, channel_id=500 + i, host_id=host, host_name="a", options={}
                )
                game = await service.lobby.join(game.id, game.version, guest, "b")
                result = await service.lobby.start(game.id, game.version, host)
                games.append([result.game, result.state])
            alone, answered = [], []
            cpu0 = time.process_time()
            for n in range(args.plays):
                entry = games[n % len(games)]
                game, state = entry
                if state.is_over:
                    continue
                legal = [str(a) for a in engine.legal_actions(state)]
                moves = [a for a in legal if a != "end"]
                action = (
                    "end"
                    if "end" in legal and (not moves or rng.random() < 0.3)
                    else (rng.choice(moves))
                )
                seat = game.seats[state.current_seat]
                t0 = time.perf_counter()
                result = await service.turns.play(game.id, seat.user_id, action)
                t1 = time.perf_counter()
                await service.records.log(result.game)
                await timers.deadline(result.game, result.state)
                t2 = time.perf_counter()
                alone.append(t1 - t0)
                answered.append(t2 - t0)
                entry[:] = [result.game, result.state]
            cpu = time.process_time() - cpu0
        finally:
            await storage.close()
    for name, values in (("play", alone), ("play and its answer's reads", answered)):
        print(
            f"{name:<28} median {statistics.median(values) * 1000:6.3f} ms"
            f"   mean {statistics.fmean(values) * 1000:6.3f} ms   (n={len(values)})"
        )
    print(f"CPU time of the process per play: {cpu / len(alone) * 1000:.3f} ms")


asyncio.run(main())
