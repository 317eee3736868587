"""`/ps learn`: the tutorial, played privately (ephemeral messages) through the game's own turn
panel and notation; it ends with a summary, Start over and a short practice game against the
easier Cynthia (one revolution, six rounds, unrated, in the learner's language).

Each lesson's step shows its text, a picture ringing the spaces it talks about, and the turn
panel of its position; the engine checks the answer (`engine.tutorial.attempt`), and a wrong
one gets the reason and a second try. The learner's place is stored (`TutorialService`):
`/ps learn` again goes on where they stopped, and the screens' buttons keep working after a
restart. `/ps learn action:` answers by typing, as `/ps play` does in a game; `/ps learn
lesson:` (or the screens' lesson select) starts any lesson.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.discord.cogs import attach, detach
from bot.discord.cogs.lobby import THREADS
from bot.discord.cogs.play import suggestions
from bot.discord.learn_views import lesson_key, lesson_name, offers, outcome_line, screen
from bot.discord.places import app_server, server_only
from bot.discord.replies import (
    answering,
    edit_clicked,
    reader_language,
    require_channel_permissions,
    with_view,
)
from bot.discord.views import lobby_view
from bot.present import choices, embeds, i18n, pictures, texts
from bot.present import learn_texts as lt
from bot.services import refusals
from bot.services.base import UserError
from bot.services.tutorial import TutorialService
from bot.storage import GameOptions
from engine import tutorial
from engine.tutorial import Lesson, Outcome, Progress

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

LESSON_FILE = "lesson.png"
#: The lessons' pictures: the board large, read 360-550 px wide (what a seat has is in the
#: screen's words: its panel says the light, the lunar points and the animal).
LAYOUT = "phone"
Place = tuple[str, int]


def final_options() -> GameOptions:
    """The lobby options of the game that ends the tutorial (`tutorial.final_game_config`):
    its revolutions and Cynthia's difficulty."""
    config = tutorial.final_game_config()
    return {
        "revolutions": config.revolutions,
        "easier_no_final_collect": config.easier_no_final_collect,
        "easier_grow_plus_one": config.easier_grow_plus_one,
        "easier_two_small_start": config.easier_two_small_start,
        "harder_grow_minus_one": config.harder_grow_minus_one,
        "harder_score_trees": config.harder_score_trees,
    }


class Learn(commands.Cog, name="Learn"):
    """The tutorial's screens and the game that ends it."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def tutorial(self) -> TutorialService:
        return self.bot.games.tutorial

    async def cog_load(self) -> None:
        attach(self.bot, __name__, learn_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "learn")

    # --- the picture ---

    async def picture(
        self,
        interaction: discord.Interaction,
        progress: Progress,
        played: str | None = None,
        completed: Lesson | None = None,
    ) -> list[discord.File]:
        """The picture of a screen: a step's position with the spaces it talks about ringed;
        at the pause after the base game and at the end, the last position of the lesson just
        done (`completed`) after the action `played` (outlined)."""
        step = progress.current_step
        names = [interaction.user.display_name, lt.OPPONENT]
        drawing: pictures.Drawing = {
            "viewer_seat": 0,
            "names": names,
            "lang": i18n.current(),
            "layout": LAYOUT,
        }
        last = completed or progress.current
        if step is not None:
            state = step.position()
            drawing["marks"] = step.marks
            if step.preview:
                drawing["preview_sun"] = engine.next_photosynthesis_sun(state)
        elif last is not None and played is not None:
            state = engine.apply(last.steps[-1].position(), played)
            drawing["highlight"] = choices.spaces_of(played)
        else:
            return []
        drawn = await pictures.picture(state, **drawing)
        return [pictures.as_file(drawn, LESSON_FILE)]

    async def _answered(
        self, interaction: discord.Interaction, outcome: Outcome, notation: str
    ) -> tuple[str, discord.ui.View, list[discord.File] | None]:
        """The screen after an answer: the same step again after a wrong one (its picture
        kept: None), else the next step (of the next lesson, when the answer finished one),
        the pause after the base game or the end, with its picture."""
        said = outcome_line(outcome, notation)
        content, view = screen(outcome.progress, said=said, completed=outcome.completed)
        if outcome.kind == "wrong":
            return content, view, None
        played = notation if outcome.kind == "right" else outcome.answer
        files = await self.picture(interaction, outcome.progress, played, outcome.completed)
        return content, view, files

    # --- /ps learn ---

    async def on_learn_command(
        self, interaction: discord.Interaction, action: str | None, lesson: str | None = None
    ) -> None:
        """`/ps learn`: the learner's place (a new learner: the first lesson); with `action`,
        the answer to the step they are at, typed in the game's notation; with `lesson`, that
        lesson's first step."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            files: list[discord.File] | None
            if lesson is not None:
                progress = await self.tutorial.begin(interaction.user.id, lesson, None)
                content, view = screen(progress)
                files = await self.picture(interaction, progress)
            elif action is not None:
                outcome = await self.tutorial.answer(interaction.user.id, action, None)
                content, view, files = await self._answered(interaction, outcome, action)
                if files is None:  # a new message: the step's picture again
                    files = await self.picture(interaction, outcome.progress)
            else:
                progress, damaged = await self.tutorial.progress(interaction.user.id)
                content, view = screen(progress, said=i18n.tr(lt.DAMAGED) if damaged else None)
                files = await self.picture(interaction, progress)
            await interaction.followup.send(content, files=files, view=view, ephemeral=True)

    async def autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The legal actions of the learner's step matching what they typed."""
        progress, _damaged = await self.tutorial.progress(interaction.user.id)
        step = progress.current_step
        if step is None:
            return []
        found = await asyncio.to_thread(suggestions, step.position(), current)
        return [app_commands.Choice(name=text, value=text) for text in found]

    async def lessons_offered(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The lessons whose title (in the reader's language) or key holds what they typed."""
        typed = current.casefold().strip()
        found = []
        with i18n.speaking(await reader_language(interaction)):
            for lesson in tutorial.LESSONS:
                title = lesson_name(lesson)
                if typed in title.casefold() or typed in lesson.key:
                    found.append(app_commands.Choice(name=title[:100], value=lesson.key))
        return found[:25]

    # --- the screens' components ---

    async def on_button(
        self, interaction: discord.Interaction[PhotosynthesisBot], at: Place, key: str
    ) -> None:
        """A button of a screen: play (End turn), open a kind of action, go back, the next
        lesson, start over, or the game against Cynthia."""
        user_id = interaction.user.id
        async with answering(interaction):
            if key.startswith("play "):
                await self._answer(interaction, key[5:], at)
                return
            if key == "game":
                await self._final_game(interaction, at)
                return
            if key in ("next", "again"):
                await interaction.response.defer()
                if key == "next":
                    progress = await self.tutorial.next_lesson(user_id, at)
                else:
                    progress = await self.tutorial.start_over(user_id, at)
                content, view = screen(progress)
                files = await self.picture(interaction, progress)
                await edit_clicked(interaction, content=content, view=view, attachments=files)
                return
            progress = await self.tutorial.at(user_id, at)
            menu = key[5:] if key.startswith("menu ") else None
            content, view = screen(progress, menu=menu)
            await edit_clicked(interaction, content=content, view=view)

    async def on_select(
        self,
        interaction: discord.Interaction[PhotosynthesisBot],
        at: Place,
        kind: str,
        values: list[str],
    ) -> None:
        """A select of a step's panel: answer with the chosen action, or (`src`) list the
        choices from the chosen piece. The value must be one the panel offers."""
        async with answering(interaction):
            if not values:
                raise UserError(texts.CHOOSE_ONE)
            progress = await self.tutorial.at(interaction.user.id, at)
            if kind != "go" and not offers(progress, kind, values[0]):
                raise UserError(refusals.NOT_OFFERED)
            if kind == "go":
                key = lesson_key(values[0])
                if key is None:
                    raise UserError(refusals.NOT_OFFERED)
                await interaction.response.defer()
                progress = await self.tutorial.begin(interaction.user.id, key, at)
                content, view = screen(progress)
                files = await self.picture(interaction, progress)
                await edit_clicked(interaction, content=content, view=view, attachments=files)
                return
            if kind == "act":
                await self._answer(interaction, values[0], at)
                return
            verb, _, source = values[0].partition(" ")
            content, view = screen(progress, menu=verb, source=source)
            await edit_clicked(interaction, content=content, view=view)

    async def _answer(self, interaction: discord.Interaction, notation: str, at: Place) -> None:
        outcome = await self.tutorial.answer(interaction.user.id, notation, at)
        if outcome.kind == "wrong":  # the same step: its picture stays
            content, view, _files = await self._answered(interaction, outcome, notation)
            await edit_clicked(interaction, content=content, view=view)
            return
        await interaction.response.defer()
        content, view, files = await self._answered(interaction, outcome, notation)
        await edit_clicked(interaction, content=content, view=view, attachments=files or [])

    # --- the game against Cynthia ---

    async def _final_game(self, interaction: discord.Interaction, at: Place) -> None:
        """Start the short game against the easier Cynthia in this channel, as `/ps new` and
        Start would: its lobby message in the channel, the game in a thread of its own."""
        await self.tutorial.may_play(interaction.user.id, at)
        if app_server(interaction) is None:  # a DM, or a server without the bot: no table
            raise UserError(server_only(lt.PLAY_CYNTHIA, self.bot.tree.get_command("ps")))
        if interaction.channel_id is None:
            raise UserError(texts.GUILD_ONLY)
        if getattr(interaction.channel, "type", None) in THREADS:
            raise UserError(texts.NEW_IN_THREAD)
        require_channel_permissions(interaction)
        await interaction.response.defer()
        lobby, user, channel_id = self.bot.games.lobby, interaction.user, interaction.channel_id
        game = await lobby.new_lobby(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            host_id=user.id,
            host_name=user.display_name,
            options=final_options(),
            language=i18n.current(),  # the learner's: the game is theirs
        )
        await lobby.add_cynthia(game.id, None, user.id, channel_id=channel_id)
        result = await lobby.start(game.id, None, user.id, channel_id=channel_id)
        with i18n.speaking(result.game.language):  # a channel message
            embed, view = embeds.lobby_embed(result.game), lobby_view(result.game)
        channel = self.bot.get_partial_messageable(channel_id)
        sent = await channel.send(embed=embed, **with_view(view))
        await self.bot.storage.set_message(game.id, "lobby", channel_id, sent.id)
        # the game's thread first (the start's game message is drawn after this answer)
        where = await self.bot.publisher.game_thread(result.game)
        await edit_clicked(
            interaction, content=i18n.tr(lt.GAME_STARTED.format(channel=where)), view=None
        )


@app_commands.command(name="learn", description=lt.LEARN_DESCRIBE)
@app_commands.describe(action=lt.ACTION_DESCRIBE, lesson=lt.LESSON_OPTION)
async def learn_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    action: str | None = None,
    lesson: str | None = None,
) -> None:
    await interaction.client.learn.on_learn_command(interaction, action, lesson)


@learn_command.autocomplete("lesson")
async def _lesson_autocomplete(
    interaction: discord.Interaction[PhotosynthesisBot], current: str
) -> list[app_commands.Choice[str]]:
    return await interaction.client.learn.lessons_offered(interaction, current)


@learn_command.autocomplete("action")
async def _learn_autocomplete(
    interaction: discord.Interaction[PhotosynthesisBot], current: str
) -> list[app_commands.Choice[str]]:
    return await interaction.client.learn.autocomplete(interaction, current)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.learn = Learn(bot)
    await bot.add_cog(bot.learn)
