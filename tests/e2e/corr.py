"""Helpers for the correspondence e2e tests: the controllable clock, reads of the timers, a
two-player game and the notices in the games' threads.

`TestClock` writes the fake UNIX time to a file the bot reads (``PS_FAKE_CLOCK_FILE``) and pokes
the bot process with SIGUSR1 so its scheduler looks at the new time (see `bot.services.clock`).
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.services import GameService
from bot.services.clock import Clock
from bot.services.correspondence import Correspondence
from bot.services.scheduler import PENDING
from bot.services.timers import TURN_DM
from bot.storage import SQLiteStorage
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage
from tests.e2e.helpers import click, db_rows, is_game_message, new_lobby

T0 = 1_900_000_000.0
HOUR = 3600.0
AUTOPILOT = 0  # the user id logged for the autopilot's actions
HOURGLASS = "\N{HOURGLASS WITH FLOWING SAND}"
ALARM = "\N{ALARM CLOCK}"


class TestClock:
    """The fake time of the bot processes of one test."""

    __test__ = False  # not a test class

    def __init__(self, tmp_path: Path, start: float = T0) -> None:
        self.path = tmp_path / "clock.txt"
        self.now = start
        self._write()

    @property
    def env(self) -> dict[str, str]:
        return {"PS_FAKE_CLOCK_FILE": str(self.path)}

    def _write(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(repr(self.now))
        os.replace(tmp, self.path)  # the bot never reads a half-written file

    def set(self, now: float, bot: BotProcess | None = None) -> None:
        """Move the time (and poke the running bot)."""
        self.now = now
        self._write()
        if bot is not None and bot.running:
            assert bot.process is not None
            os.kill(bot.process.pid, signal.SIGUSR1)

    def advance(self, seconds: float, bot: BotProcess | None = None) -> None:
        self.set(self.now + seconds, bot)


def jobs(bot: BotProcess, game_id: int = 1, *, dms: bool = False) -> list[tuple]:
    """(kind, due_at, fired_at, outcome) of a game's timer jobs, in id order: the deadlines and
    reminders (with the turns' DMs, `bot.services.timers.TURN_DM`, when `dms`)."""
    rows = db_rows(
        bot,
        "SELECT kind, due_at, fired_at, outcome FROM timer_jobs WHERE game_id = ? ORDER BY id",
        (game_id,),
    )
    return [row for row in rows if dms or row[0] != TURN_DM]


def pending(bot: BotProcess, game_id: int = 1, *, dms: bool = False) -> dict[str, float]:
    return {k: due for k, due, fired, _ in jobs(bot, game_id, dms=dms) if fired is None}


def finished(bot: BotProcess, game_id: int = 1, *, dms: bool = False) -> list[tuple[str, str]]:
    """(kind, outcome) of the jobs done (not those whose notice is still being posted)."""
    return [
        (k, outcome)
        for k, _, fired, outcome in jobs(bot, game_id, dms=dms)
        if outcome is not None and not outcome.startswith(PENDING)
    ]


def in_threads(fake: FakeDiscord, chan: str) -> list[FakeMessage]:
    """The messages of the games' threads of a channel (where their notices go), oldest first."""
    return [m for thread in fake.threads_of(chan) for m in fake.messages(thread)]


async def two_player_game(fake: FakeDiscord, chan: str, alice, bob, **options) -> FakeMessage:
    lobby = await new_lobby(fake, alice, chan, **options)
    await click(fake, bob, lobby, "Join")
    await click(fake, alice, lobby, "Start")
    return await fake.wait_for_message(chan, is_game_message())


def rel(t: float) -> str:
    """A Discord relative timestamp."""
    return f"<t:{int(t)}:R>"


def timer_field(message: FakeMessage) -> str | None:
    for embed in message.embeds:
        for f in embed.get("fields", []):
            if f["name"] == "Turn timer":
                return f["value"]
    return None


async def wait_db(predicate: Callable[[], Any], timeout: float = 10, what: str = "") -> Any:
    """Wait until `predicate()` (a read of the bot's database) is truthy; the fake's
    `wait_until` only re-checks on Discord traffic, and an outcome is stored after it."""
    deadline = time.monotonic() + timeout
    while not (result := predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what or predicate}")
        await asyncio.sleep(0.02)
    return result


async def create_timed_games(
    fake: FakeDiscord, path: Path, clock: Clock, channels: list[str], hours: int, host, guest
) -> None:
    """Started 2-seat games (host to place first) with a turn timer of `hours`, one per channel,
    created through the service layer (turns planned on `clock`) on the database at `path`
    before the bot starts; each with a game message, as if the bot had been running (its
    restart adopts them instead of drawing 500 new ones)."""
    storage = await SQLiteStorage.open(str(path))
    try:
        games = GameService(storage)
        service = Correspondence(games, clock)
        games.core.after = service.timers
        host_id, guest_id = int(host["id"]), int(guest["id"])
        for chan in channels:
            game = await games.lobby.new_lobby(
                guild_id=int(fake.guild_id), channel_id=int(chan), host_id=host_id,
                host_name=host["username"], options={"turn_timer": hours},
            )  # fmt: skip
            await games.lobby.join(game.id, None, guest_id, guest["username"])
            started = (await games.lobby.start(game.id, None, host_id)).game
            button = {"type": 2, "style": 1, "label": "Take my turn",
                      "custom_id": f"ps:turn:{game.id}:{started.version}"}  # fmt: skip
            payload = {"content": f"<@{host_id}>, it is your turn.",
                       "components": [{"type": 1, "components": [button]}]}  # fmt: skip
            message = fake._new_message(chan, payload, {})
            fake._publish(message)
            await storage.set_message(game.id, "game", int(chan), int(message.id))
    finally:
        await storage.close()
