"""The web companion (issue 59): a small read-only site for the servers that turn it on (`/ps
web on`), with live games, replays, reviews, profiles and leaderboards.

A presentation edge like `bot.discord`: it reads the services and `bot.present`, and never
discord.py. It runs in the bot's process when WEB_PORT is set (`bot.__main__`), or in its own
(`python -m bot.web`; several behind a proxy on PostgreSQL). `site` is the server and its
routes, `pages` the HTML, `static` the stylesheet and the script.
"""

from __future__ import annotations

from bot.config import WebSettings
from bot.services import GameService
from bot.web.site import Site


async def start_site(games: GameService, settings: WebSettings) -> Site:
    """Start the site over the services of a process (storage open); `Site.stop` stops it."""
    site = Site(games, settings)
    await site.start()
    return site


__all__ = ["Site", "start_site"]
