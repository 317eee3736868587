"""Cogs, one per concern, loaded by name (`bot.discord.app.EXTENSIONS`): each is a thin translator of
an interaction into one service call. `bot.discord.cogs.lobby` owns the `/ps` group; it loads first."""

from __future__ import annotations

from typing import Never, TypeAlias

from discord import app_commands
from discord.ext import commands

#: A cog's subcommand of `/ps`: a command function of a module, bound to no group or cog when it
#: is made (discord.py then types its binding `Never`), whatever its parameters.
SubCommand: TypeAlias = app_commands.Command[Never, ..., None]


def attach(bot: commands.Bot, cog: str, *subcommands: SubCommand) -> None:
    """Add a cog's subcommands to the `/ps` group, which `bot.discord.cogs.lobby` owns (loaded first)."""
    group = bot.tree.get_command("ps")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"load bot.discord.cogs.lobby before {cog}")
    for command in subcommands:
        group.add_command(command)


def detach(bot: commands.Bot, *names: str) -> None:
    """Take a cog's subcommands off the `/ps` group again (when the cog unloads)."""
    group = bot.tree.get_command("ps")
    if isinstance(group, app_commands.Group):
        for name in names:
            group.remove_command(name)
