"""Cogs, one per concern, loaded by name (`bot.discord.app.EXTENSIONS`): each is a thin translator of
an interaction into one service call. `bot.discord.cogs.lobby` owns the `/ps` group; it loads first."""

from __future__ import annotations

from typing import Any

from discord import app_commands


def attach(bot: Any, cog: str, *subcommands: app_commands.Command) -> None:
    """Add a cog's subcommands to the `/ps` group, which `bot.discord.cogs.lobby` owns (loaded first)."""
    group = bot.tree.get_command("ps")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"load bot.discord.cogs.lobby before {cog}")
    for command in subcommands:
        group.add_command(command)


def detach(bot: Any, *names: str) -> None:
    """Take a cog's subcommands off the `/ps` group again (when the cog unloads)."""
    group = bot.tree.get_command("ps")
    if isinstance(group, app_commands.Group):
        for name in names:
            group.remove_command(name)
