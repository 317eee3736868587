"""`bot.__main__.run`: a graceful shutdown awaits every close a signal asked for."""

from __future__ import annotations

import asyncio
import os
import signal
from types import TracebackType

import pytest

import bot.__main__ as entry
from bot.config import load_settings


class TwiceSignalledBot:
    """A bot whose first close is interrupted by a second signal (SIGINT after SIGTERM)."""

    def __init__(self) -> None:
        self.disconnected = asyncio.Event()
        self.closes = 0

    async def __aenter__(self) -> TwiceSignalledBot:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    async def start(self, token: str) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        await self.disconnected.wait()

    async def close(self) -> None:
        self.closes += 1
        self.disconnected.set()
        if self.closes == 1:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(5):  # the signal's handler runs while this close is awaited
                await asyncio.sleep(0)


async def test_a_second_signal_while_closing_is_awaited_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = TwiceSignalledBot()
    monkeypatch.setattr("bot.discord.app.create_bot", lambda settings: bot)
    loop = asyncio.get_running_loop()
    try:
        await entry.run(load_settings({"DISCORD_TOKEN": "x" * 20}))
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    assert bot.closes == 2
