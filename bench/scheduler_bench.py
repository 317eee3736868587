"""Correspondence figures: the scheduler's idle cost with 500 waiting games, the time to fire
100 due deadlines, and the autopilot's win rate against a random legal player.

Run: ``.venv/bin/python bench/scheduler_bench.py [--window SECONDS] [--skip-autopilot]``.

The bot runs in its own process against the loopback fake of Discord (``tests/e2e``); the games
(and their game messages) are created through the service layer on its database before it
starts.

1. Idle: 500 started games, each waiting on a 24 h turn timer (real clock). The bot's process
   CPU time (user + system, from /proc) is measured over a window once it is ready, and compared
   with the same bot holding no game.
2. Firing: 100 games with a 1 h timer on the test clock; their reminders are let fire first,
   then the clock is moved past the deadlines and the bot poked: the time until all 100 deadlines
   have fired (each ends a turn: the autopilot places the tree, the game message is redrawn,
   the channel told).
3. ``bench/autopilot_bench.py`` (200 two-seat games against a uniformly random legal player).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.services.clock import FileClock, RealClock  # noqa: E402
from tests.e2e.corr import HOUR, TestClock, create_timed_games  # noqa: E402
from tests.e2e.fakediscord import BotProcess, FakeDiscord  # noqa: E402
from tests.e2e.helpers import db_rows  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def start_bot(fake: FakeDiscord, tmp: Path, env: dict[str, str]) -> BotProcess:
    bot = BotProcess(fake, tmp, env=env)
    await bot.start()
    await fake.wait_ready(timeout=120)
    while "scheduler started" not in bot.output():
        await asyncio.sleep(0.05)
    return bot


async def idle_cost(window: float, games: int) -> tuple[float, float]:
    """Bot CPU seconds used over an idle window while `games` games wait on 24 h timers, and
    the window's length."""
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(check_spec=False)  # a bench: no spec checks competing for the CPU
        await fake.start()
        try:
            channels = [fake.add_channel(f"g{i}") for i in range(games)]
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            await create_timed_games(
                fake, Path(tmp) / "bot.db", RealClock(), channels, 24, alice, bob
            )
            bot = await start_bot(fake, Path(tmp), {})
            await asyncio.sleep(2)  # let start-up work (resync of game messages) settle
            assert bot.process is not None
            before, t = cpu_seconds(bot.process.pid), time.monotonic()
            await asyncio.sleep(window)
            used, elapsed = cpu_seconds(bot.process.pid) - before, time.monotonic() - t
            await bot.stop()
            return used, elapsed
        finally:
            await fake.stop()


async def firing_time(games: int) -> tuple[float, int]:
    """Seconds from the poke until `games` due deadlines have fired; and how many fired."""
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(check_spec=False)  # a bench: no spec checks competing for the CPU
        await fake.start()
        try:
            clock = TestClock(Path(tmp))
            channels = [fake.add_channel(f"g{i}") for i in range(games)]
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            path, fake_clock = Path(tmp) / "bot.db", FileClock(clock.path)
            await create_timed_games(fake, path, fake_clock, channels, 1, alice, bob)
            bot = await start_bot(fake, Path(tmp), clock.env)
            done = "SELECT COUNT(*) FROM timer_jobs WHERE outcome IS NOT NULL AND kind = ?"
            clock.advance(0.95 * HOUR, bot)  # the reminders first
            while db_rows(bot, done, ("reminder-90",))[0][0] < games:
                await asyncio.sleep(0.01)
            t = time.perf_counter()
            clock.advance(0.05 * HOUR, bot)
            while db_rows(bot, done, ("deadline",))[0][0] < games:
                await asyncio.sleep(0.01)
            elapsed = time.perf_counter() - t
            fired = db_rows(bot, done, ("deadline",))[0][0]
            await bot.stop()
            return elapsed, fired
        finally:
            await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=float, default=30.0, help="idle window in seconds")
    parser.add_argument("--skip-autopilot", action="store_true")
    args = parser.parse_args()

    tick = 1 / os.sysconf("SC_CLK_TCK")
    for games in (500, 0):
        used, elapsed = asyncio.run(idle_cost(args.window, games))
        print(
            f"idle bot with {games} games waiting on 24 h timers: {used * 60 / elapsed:.3f} CPU s"
            f" per minute ({used:.2f} s over {elapsed:.0f} s; /proc resolution {tick:.2f} s)"
        )
    elapsed, fired = asyncio.run(firing_time(100))
    print(
        f"time to fire 100 due deadlines: {elapsed:.2f} s ({fired} fired; each ends a turn with "
        f"the autopilot's placement, redraws the game message and posts a notice)"
    )
    if not args.skip_autopilot:
        subprocess.run([sys.executable, str(ROOT / "bench" / "autopilot_bench.py")], check=True)


if __name__ == "__main__":
    main()
