"""`/ps puzzle`: puzzles, played privately (ephemeral messages) through the game's own turn panel.

`/ps puzzle` shows the solver's puzzle (the one they are answering, else a new one near their
puzzle rating), `show:daily` the day's puzzle (the same for everyone), `show:leaderboard` the
best solvers. A screen shows the position as the solver's seat sees it (the panel's picture,
`pictures.PANEL_LAYOUT`, drawn for that seat) and the turn panel; the answer is the actions
played until End turn, which the Expert judges (`PuzzleService`). The verdict shows the best
turn, its reason and its picture, the rating's change and the streak, and Next puzzle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.discord.cogs import attach, detach
from bot.discord.puzzle_views import screen, verdict
from bot.discord.replies import answering, edit_clicked
from bot.discord.views import panel_offers
from bot.present import choices, i18n, pictures, texts
from bot.present import puzzle_texts as pz
from bot.services import refusals
from bot.services.base import UserError
from bot.services.puzzles import PuzzleService, Result, Screen
from translation import Number

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

PUZZLE_FILE = "puzzle.png"


class Puzzles(commands.Cog, name="Puzzles"):
    """The puzzles' screens."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def service(self) -> PuzzleService:
        return self.bot.games.puzzles

    async def cog_load(self) -> None:
        attach(self.bot, __name__, puzzle_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "puzzle")

    # --- the pictures ---

    async def picture(
        self, interaction: discord.Interaction, shown: Screen | Result
    ) -> list[discord.File]:
        """The position as the solver's seat sees it: while answering, the position reached
        so far; on a verdict, the position the best turn reaches, its spaces outlined."""
        puzzle = shown.puzzle
        seat = puzzle.seat
        names = [i18n.tr(pz.OPPONENT)] * puzzle.state.n_seats
        names[seat] = interaction.user.display_name
        if isinstance(shown, Screen):
            state, highlight = shown.state, []
        else:
            state = puzzle.state
            for notation in puzzle.best:
                state = engine.apply(state, notation)
            highlight = [s for n in puzzle.best for s in choices.spaces_of(n)]
        drawing: pictures.Drawing = {
            "viewer_seat": seat,
            "names": names,
            "lang": i18n.current(),
            "layout": pictures.PANEL_LAYOUT,
            "highlight": highlight,
        }
        drawn = await pictures.picture(state, **drawing)
        return [pictures.as_file(drawn, PUZZLE_FILE)]

    def _message(self, shown: Screen | Result) -> tuple[str, discord.ui.View]:
        return screen(shown) if isinstance(shown, Screen) else verdict(shown)

    # --- /ps puzzle ---

    async def on_puzzle_command(self, interaction: discord.Interaction, show: str) -> None:
        """`/ps puzzle`: the solver's puzzle, the day's, or the leaderboard."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            if show == "leaderboard":
                content = await self._leaderboard(interaction.user.id)
                await interaction.followup.send(content, ephemeral=True)
                return
            shown = await self.service.start(interaction.user.id, daily=show == "daily")
            content, view = self._message(shown)
            files = await self.picture(interaction, shown)
            await interaction.followup.send(content, files=files, view=view, ephemeral=True)

    async def _leaderboard(self, reader: int) -> str:
        rows, mine = await self.service.leaderboard(reader)
        lines = [f"**{i18n.tr(pz.LEADERBOARD_TITLE)}**"]
        for rank, row in enumerate(rows, 1):
            line = pz.LEADERBOARD_ROW.format(
                rank=i18n.isolate(str(rank)),
                name=i18n.isolate(f"<@{row.user_id}>"),
                rating=Number(row.ordinal, 1),
                solved=Number(row.solved, 0),
                best=Number(row.best_streak, 0),
            )
            lines.append(i18n.tr(line))
        if not rows:
            lines.append(i18n.tr(pz.LEADERBOARD_EMPTY))
        if mine is not None:
            rank, me = mine
            said = pz.YOUR_RANK.format(rank=rank, rating=Number(me.ordinal, 1))
            lines.append(i18n.tr(said))
        else:
            lines.append(i18n.tr(pz.NOT_RANKED))
        return "\n".join(lines)

    # --- the screens' components ---

    async def on_button(
        self, interaction: discord.Interaction[PhotosynthesisBot], attempt: int, ply: int, key: str
    ) -> None:
        """A button of a puzzle's panel: play (End turn), undo, open a kind of action, back."""
        user_id = interaction.user.id
        async with answering(interaction):
            if key.startswith("play "):
                await self._play(interaction, attempt, ply, key[5:])
                return
            if key == "undo":
                await interaction.response.defer()
                shown = await self.service.undo(user_id, attempt, ply)
                await self._show(interaction, shown)
                return
            if key != "back" and not key.startswith("menu "):
                raise UserError(refusals.NOT_OFFERED)
            current = await self.service.at(user_id, attempt, ply)
            menu = key[5:] if key.startswith("menu ") else None
            content, view = screen(current, menu=menu)
            await edit_clicked(interaction, content=content, view=view)

    async def on_select(
        self,
        interaction: discord.Interaction[PhotosynthesisBot],
        attempt: int,
        ply: int,
        kind: str,
        values: list[str],
    ) -> None:
        """A select of a puzzle's panel: play the chosen action, or (`src`) list the choices
        from the chosen piece. The value must be one the panel offers."""
        async with answering(interaction):
            if not values:
                raise UserError(texts.CHOOSE_ONE)
            current = await self.service.at(interaction.user.id, attempt, ply)
            if not panel_offers(current.legal, kind, values[0]):
                raise UserError(refusals.NOT_OFFERED)
            if kind == "act":
                await self._play(interaction, attempt, ply, values[0])
                return
            verb, _, source = values[0].partition(" ")
            content, view = screen(current, menu=verb, source=source)
            await edit_clicked(interaction, content=content, view=view)

    async def on_next(
        self, interaction: discord.Interaction[PhotosynthesisBot], puzzle: int
    ) -> None:
        """Next puzzle: the puzzle the verdict named, for the one clicking."""
        async with answering(interaction):
            await interaction.response.defer()
            shown = await self.service.begin(interaction.user.id, puzzle)
            await self._show(interaction, shown)

    async def _play(
        self, interaction: discord.Interaction, attempt: int, ply: int, notation: str
    ) -> None:
        await interaction.response.defer()
        shown = await self.service.play(interaction.user.id, attempt, ply, notation)
        await self._show(interaction, shown)

    async def _show(self, interaction: discord.Interaction, shown: Screen | Result) -> None:
        content, view = self._message(shown)
        files = await self.picture(interaction, shown)
        await edit_clicked(interaction, content=content, view=view, attachments=files)


@app_commands.command(name="puzzle", description=pz.PUZZLE_DESCRIBE)
@app_commands.describe(show=pz.SHOW_DESCRIBE)
@app_commands.choices(
    show=[
        app_commands.Choice(name=pz.SHOW_NEXT, value="next"),
        app_commands.Choice(name=pz.SHOW_DAILY, value="daily"),
        app_commands.Choice(name=pz.SHOW_LEADERBOARD, value="leaderboard"),
    ]
)
async def puzzle_command(
    interaction: discord.Interaction[PhotosynthesisBot], show: str = "next"
) -> None:
    await interaction.client.puzzles.on_puzzle_command(interaction, show)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.puzzles = Puzzles(bot)
    await bot.add_cog(bot.puzzles)
