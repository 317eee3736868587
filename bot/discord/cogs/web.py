"""`/ps web on|off` (Manage Server): show this server's games and players on the web companion
(issue 59), or take them off. The site itself is `bot.web`; the links are `bot.services.web`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs import attach, detach
from bot.discord.replies import answering
from bot.present import web_texts as wt
from bot.present.i18n import tr
from bot.services import GameService
from bot.services.base import UserError

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

STATE_CHOICES = [
    app_commands.Choice(name=wt.WEB_ON_CHOICE, value="on"),
    app_commands.Choice(name=wt.WEB_OFF_CHOICE, value="off"),
]


class WebCog(commands.Cog, name="Web"):
    """The web companion's switch."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        attach(self.bot, __name__, web_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "web")

    async def on_web(self, interaction: discord.Interaction, state: str) -> None:
        async with answering(interaction):
            permissions = interaction.permissions
            if interaction.guild_id is None:
                raise UserError(wt.WEB_GUILD_ONLY)
            if not (permissions and permissions.manage_guild):
                raise UserError(wt.WEB_FORBIDDEN)
            if self.bot.settings.web is None:
                raise UserError(wt.WEB_NOT_RUNNING)
            if state == "on":
                await self.games.web.turn_on(interaction.guild_id)
                url = await self.bot.web_url(self.games.web.board_path(interaction.guild_id))
                said = wt.WEB_ON.format(url=url or "")
            else:
                await self.games.web.turn_off(interaction.guild_id)
                said = wt.WEB_OFF
            await interaction.response.send_message(tr(said), ephemeral=True)


@app_commands.command(name="web", description=wt.WEB_DESCRIPTION)
@app_commands.describe(state=wt.WEB_STATE)
@app_commands.choices(state=STATE_CHOICES)
@app_commands.default_permissions(manage_guild=True)
async def web_command(
    interaction: discord.Interaction[PhotosynthesisBot], state: app_commands.Choice[str]
) -> None:
    await interaction.client.web.on_web(interaction, state.value)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.web = WebCog(bot)
    await bot.add_cog(bot.web)
