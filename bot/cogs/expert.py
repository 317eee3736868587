"""The Expert on Discord: its seats play by themselves, and `/ps hint`.

An Expert seat plays as soon as it is its turn: after every committed play (a commit hook of
the game service) a game whose current seat is an Expert's gets a driver task, which lets the
Expert think in a worker process (`bot.experts`), commits its turn (`BotService.play_expert`)
and brings the game message up to date, until the turn is no Expert's. The click that made it
the Expert's turn is answered at once; nothing waits for the Expert but its own game. When the
bot starts, every game left on an Expert's turn (a bot stopped while it thought) is driven again,
and so is, every `RESUME_EVERY_MINUTES`, any game a driver left on an Expert's turn (a failure).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from engine import GameState

from .. import expert_texts as xt
from ..experts import is_expert
from ..i18n import tr
from ..replies import answering
from ..services import GameService
from ..storage import GameRow, UnreadableGame
from . import attach, detach

if TYPE_CHECKING:
    from ..app import PhotosynthesisBot

log = logging.getLogger(__name__)

RESUME_EVERY_MINUTES = 30


class ExpertCog(commands.Cog, name="Expert"):
    """The Expert's seats and hints."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        #: game id -> the task playing its Expert turns
        self._drivers: dict[int, asyncio.Task[None]] = {}
        #: games whose Expert turn came while their driver was finishing: it goes on
        self._again: set[int] = set()

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        attach(self.bot, __name__, hint_command)
        self.games.core.commit_hooks.append(self.on_commit)
        self.resume.start()

    async def cog_unload(self) -> None:
        detach(self.bot, "hint")
        self.games.core.commit_hooks = [
            h for h in self.games.core.commit_hooks if h != self.on_commit
        ]
        self.resume.cancel()
        for task in self._drivers.values():
            task.cancel()

    # --- the Expert's seats ---

    async def on_commit(self, game: GameRow, state: GameState) -> None:
        """Commit hook: drive the game when its current seat is an Expert's."""
        if game.status != "active" or state.is_over or state.current_seat is None:
            return
        if is_expert(game.seats[state.current_seat].kind):
            self.drive(game.id)

    def drive(self, game_id: int) -> None:
        """Let the game's Expert seats play (one driver task per game)."""
        running = self._drivers.get(game_id)
        if running is not None and not running.done():
            self._again.add(game_id)
            return
        self._drivers[game_id] = asyncio.create_task(self._drive(game_id))

    async def _drive(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                result = await self.games.bots.play_expert(game_id)
                if result is not None:
                    await self.bot.publisher.publish(result.game, result.state)
                elif game_id not in self._again:
                    return
        except Exception:
            log.exception("the Expert could not play", extra={"game_id": game_id})
        finally:
            if self._drivers.get(game_id) is asyncio.current_task():
                del self._drivers[game_id]

    @tasks.loop(minutes=RESUME_EVERY_MINUTES)
    async def resume(self) -> None:
        """Drive every game of this process left on an Expert's turn with no driver (at start:
        a bot stopped while the Expert thought). One game's failure is logged, the others go
        on; a failed run is logged and the loop runs again next time."""
        try:
            games = await self.bot.storage.games_with_status("active")
        except Exception:
            log.exception("could not list the games to resume the Expert in")
            return
        for game in games:
            if not self.bot.serves(game.guild_id) or game.id in self._drivers:
                continue  # another process's shard, or being driven
            try:
                if await self.games.bots.expert_to_play(game.id):
                    log.info("the Expert resumes", extra={"game_id": game.id})
                    self.drive(game.id)
            except UnreadableGame:
                continue  # quarantined and logged where it was found
            except Exception:
                log.exception("could not resume an Expert", extra={"game_id": game.id})

    @resume.before_loop
    async def _before_resume(self) -> None:
        await self.bot.wait_until_ready()

    # --- /ps hint ---

    async def on_hint(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            game, state = await self.games.bots.hint_position(
                interaction.channel_id or 0, interaction.user.id
            )
            await interaction.response.defer(ephemeral=True, thinking=True)
            action = await self.games.bots.hint(game, state)
            await interaction.followup.send(
                tr(xt.HINT.format(explanation=action.explanation or str(action))), ephemeral=True
            )


@app_commands.command(name="hint", description=xt.HINT_DESCRIPTION)
async def hint_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await interaction.client.expert.on_hint(interaction)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.expert = ExpertCog(bot)
    await bot.add_cog(bot.expert)
