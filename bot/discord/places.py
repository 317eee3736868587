"""Where an interaction comes from: a server that added the bot (its guild install), or anywhere
else a player uses the app: a DM with the bot, a private channel, a server where only the player
installed the app for themselves (Discord's user install). Outside a server that added the bot,
the bot can post nothing in the channel and has no server to scope a game to: only the
subcommands of `ANYWHERE` answer there, each privately or as the interaction's own answer; every
other one is refused in one sentence (`ServerOnly`, answered by the command tree)."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.present import texts
from translation import Text

#: The `/ps` subcommands that work wherever the player is: the daily challenge, the puzzles, the
#: tutorial, the profile and the leaderboards (across servers), and the reader's own things (the
#: rules, the replay of a record or of their own games, their language, forgetting them, help).
#: Games between people (a lobby, a game's commands, the server's settings) stay in servers.
ANYWHERE = (
    "daily",
    "puzzle",
    "learn",
    "profile",
    "leaderboard",
    "replay",
    "rules",
    "language",
    "forget",
    "help",
)


def app_server(interaction: discord.Interaction) -> int | None:
    """The server the interaction comes from when the bot is installed there (its guild install
    authorized it: the bot is a member and may post), else None: a DM with the bot, a private
    channel, or a server where only the user installed the app (discord.py still gives such an
    interaction a `guild_id` and a stand-in `guild`: neither says the bot is there)."""
    guild_id = interaction.guild_id
    return guild_id if guild_id is not None and interaction.is_guild_integration() else None


def subcommand(interaction: discord.Interaction) -> str | None:
    """The `/ps` subcommand an application command (or its autocomplete) names, as sent."""
    data: Mapping[str, object] = interaction.data or {}
    options = data.get("options")
    if data.get("name") != "ps" or not isinstance(options, list) or not options:
        return None
    first = options[0]
    name = first.get("name") if isinstance(first, Mapping) else None
    return name if isinstance(name, str) else None


def usable_here(interaction: discord.Interaction) -> bool:
    """Whether a `/ps` subcommand (or its autocomplete) answers where it was used."""
    return app_server(interaction) is not None or subcommand(interaction) in ANYWHERE


class ServerOnly(app_commands.CheckFailure):
    """A `/ps` subcommand used outside a server that added the bot that works only in one (its
    name is the exception's argument)."""


def anywhere(ps: object) -> list[str]:
    """The subcommands of the `/ps` group `ps` that work wherever the player is, as registered
    ("/ps learn"), in the order of `ANYWHERE`."""
    names = {c.name for c in ps.commands} if isinstance(ps, app_commands.Group) else set()
    return [f"/ps {name}" for name in ANYWHERE if name in names]


def server_only(command: str, ps: object) -> Text:
    """The refusal of `command` (a subcommand's or a button's name) outside a server that added
    the bot: where it works, how to add the bot, what works here (`anywhere(ps)`)."""
    return texts.SERVER_ONLY.format(command=command, commands=texts.and_list(anywhere(ps)))
