"""`python -m bot`: run the bot with settings from the environment and `.env`."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from dotenv import find_dotenv, load_dotenv

from bot.config import ConfigError, Settings, load_settings
from bot.logs import configure_logging
from bot.present import texts
from bot.storage import StorageUnwritable

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    """Run until disconnected or until SIGTERM/SIGINT asks for a graceful shutdown."""
    from bot.discord.app import create_bot

    bot = create_bot(settings)
    web = settings.web
    if web is not None and not web.separate:  # the web companion, in this process (issue 59)
        from bot.web import start_site

        async def start_web() -> None:
            site = await start_site(bot.games, web)
            bot.when_closing.append(site.stop)

        bot.when_set_up.append(start_web)
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()

    def stop(signame: str) -> None:
        log.info("signal received, closing", extra={"signal": signame})
        closing.add(loop.create_task(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop, sig.name)
    async with bot:
        await bot.start(settings.token)
    # `start` returns once disconnected: the close goes on to its end (storage, workers); a
    # second signal meanwhile adds a task to `closing`, which is awaited too
    while closing:
        task = closing.pop()
        try:
            await task
        except Exception:
            log.exception("closing failed")


def main() -> int:
    """Entry point (`python -m bot`, `make run`, the `photosynthesis-bot` script)."""
    load_dotenv(find_dotenv(usecwd=True))  # ./.env; variables already set win
    try:
        settings = load_settings()
    except ConfigError as exc:
        if "DISCORD_TOKEN" in str(exc):
            print(texts.NO_TOKEN, file=sys.stderr)
        else:
            print(f"Configuration error: {exc} See .env.example.", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, secrets=[settings.token])
    log.info("starting", extra={"settings": repr(settings)})
    import discord  # after the settings check, so the no-token guidance is instant

    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        log.error("login failed: check DISCORD_TOKEN")
        return 1
    except StorageUnwritable as exc:
        log.error("cannot start: %s", exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
