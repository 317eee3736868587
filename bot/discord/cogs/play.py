"""Playing: the game message, the "Take my turn" panel, `/ps play` with autocomplete.

Setup placements and turns go through the same path: a choice (panel or typed notation) becomes
`TurnService.play`, which applies it with the engine, lets any Cynthia seats act, and commits;
then the player's panel is answered and the game message is brought up to date.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.discord.cogs import attach, detach
from bot.discord.replies import answering, edit_clicked, with_view
from bot.discord.views import panel, panel_offers
from bot.present import choices, i18n, pictures, texts
from bot.services import GameService, refusals, seats
from bot.services.base import Turn, TurnResult, UserError
from bot.services.turns import TurnService
from bot.storage import GameRow
from engine import GameState
from engine.text import completions
from translation import _

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

log = logging.getLogger(__name__)

PREVIEW_FILE = "preview.png"
#: Discord's limits on autocomplete choices: how many, and the length of a name or value.
MAX_CHOICES = 25
MAX_CHOICE_LENGTH = 100
#: What `/ps play` takes for the panel's Undo (the last action of your turn taken back).
UNDO = "undo"


def _legal(state: GameState) -> list[str]:
    return [str(a) for a in engine.legal_actions(state)]


def _panel(
    turn: Turn, *, menu: str | None = None, source: str | None = None
) -> tuple[str, discord.ui.View]:
    """The turn panel with the player's legal choices (and Undo when possible), at `menu`
    (and its `source`) as `views.panel` takes them."""
    legal = _legal(turn.state)
    labels = choices.describe_all(turn.state, legal)
    return panel(
        turn.game,
        turn.state,
        legal,
        menu=menu,
        source=source,
        can_undo=turn.can_undo,
        labels=labels,
    )


class Play(commands.Cog, name="Play"):
    """Turns: the game message, the panel and typed actions."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def games(self) -> GameService:
        return self.bot.games

    @property
    def turns(self) -> TurnService:
        return self.bot.games.turns

    async def cog_load(self) -> None:
        """Attach `/ps play` to the `/ps` group of the Lobby cog (loaded first)."""
        attach(self.bot, __name__, play_command, log_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "play", "log")

    # --- the turn panel ---

    async def _fresh_panel(self, game: GameRow, user_id: int) -> discord.ui.View | None:
        try:
            turn = await self.turns.turn(game.id, user_id)
        except UserError:
            return None
        return _panel(turn)[1]

    async def on_turn_button(
        self, interaction: discord.Interaction[PhotosynthesisBot], game_id: int, version: int
    ) -> None:
        """ "Take my turn": the ephemeral panel with the current player's legal choices."""
        async with answering(interaction):
            turn = await self.turns.turn(
                game_id, interaction.user.id, channel_id=interaction.channel_id
            )
            content, view = _panel(turn)
            await interaction.response.send_message(content, view=view, ephemeral=True)

    async def on_panel_button(
        self,
        interaction: discord.Interaction[PhotosynthesisBot],
        game_id: int,
        version: int,
        key: str,
    ) -> None:
        """A panel button: open a kind of action, go back, or play (End turn)."""
        user_id, here = interaction.user.id, interaction.channel_id
        async with answering(interaction, lambda g: self._fresh_panel(g, user_id)):
            if key.startswith("play "):
                await interaction.response.defer()
                result = await self.turns.play(game_id, user_id, key[5:], version, channel_id=here)
                await self._answer_play(interaction, result)
                return
            if key == "undo":
                await interaction.response.defer()
                result = await self.turns.undo(game_id, user_id, version, channel_id=here)
                await self._answer_play(interaction, result, undone=True)
                return
            turn = await self.turns.turn(game_id, user_id, version, channel_id=here)
            menu = key[5:] if key.startswith("menu ") else None
            content, view = _panel(turn, menu=menu)
            await edit_clicked(interaction, content=content, view=view)

    async def on_panel_select(
        self,
        interaction: discord.Interaction[PhotosynthesisBot],
        game_id: int,
        version: int,
        kind: str,
        values: list[str],
    ) -> None:
        """A panel select: play the chosen action, or (`src`: "<verb> <space>") list the
        choices of a two-step kind from that piece (the plantings from a tree). The value must
        be one the panel offers at this version (`views.panel_offers`).

        The path of a click: the component (`bot.discord.views`) hands it here; `TurnService.play`
        reads the game once under its lock, applies the engine's rules and commits; the panel
        is answered from what it returned, and the publisher draws the game message from it."""
        user_id, here = interaction.user.id, interaction.channel_id
        async with answering(interaction, lambda g: self._fresh_panel(g, user_id)):
            if not values:
                raise UserError(texts.CHOOSE_ONE)
            if kind == "act":
                await interaction.response.defer()
                chosen = values[0]
                result = await self.turns.play(
                    game_id,
                    user_id,
                    chosen,
                    version,
                    channel_id=here,
                    offered=lambda legal: panel_offers(legal, kind, chosen),
                )
                await self._answer_play(interaction, result)
                return
            verb, _, source = values[0].partition(" ")
            turn = await self.turns.turn(game_id, user_id, version, channel_id=here)
            if not panel_offers(_legal(turn.state), kind, values[0]):
                raise UserError(refusals.NOT_OFFERED)
            content, view = _panel(turn, menu=verb, source=source or None)
            await edit_clicked(interaction, content=content, view=view)

    async def _answer_play(
        self, interaction: discord.Interaction, result: TurnResult, *, undone: bool = False
    ) -> None:
        """Answer the player, then update the game message. While it is still their turn the
        panel goes on, with a preview picture outlining the spaces just acted on.

        The interaction was deferred: a click gets its panel edited, `/ps play` a follow-up.
        """
        game, state = result.game, result.state
        if undone:
            played = i18n.tr(texts.UNDONE.format(notation=result.applied[0].notation))
            acted = [result.applied[0].notation]
        else:
            played = i18n.tr(texts.PLAYED.format(notation="`, `".join(result.notations)))
            acted = result.notations
        view: discord.ui.View | None = None
        files: list[discord.File] = []
        if not state.is_over and engine.turn_id(state) == result.previous_turn:
            content, view = _panel(Turn(game, state, result.can_undo))
            content = f"{played}\n{content}"
            picture = await pictures.picture(
                state,
                highlight=[space for n in acted for space in choices.spaces_of(n)],
                viewer_seat=state.current_seat,
                names=seats.seat_names(game),
                lang=i18n.current(),
                layout=pictures.PANEL_LAYOUT,  # read on a phone: the board and their own card
            )
            files.append(pictures.as_file(picture, PREVIEW_FILE))
        else:
            content = f"{played} {i18n.tr(texts.PANEL_DONE)}"
        if interaction.message is not None:  # a panel component: edit the panel
            await interaction.edit_original_response(content=content, view=view, attachments=files)
        else:
            await interaction.followup.send(content, files=files, ephemeral=True, **with_view(view))

    # --- /ps play ---

    async def on_play_command(self, interaction: discord.Interaction, action: str) -> None:
        """`/ps play <action>`: the typed form of the panel, pinned to the turn it was typed
        in: the turn is read before anything is awaited on Discord or the game's lock, and
        the action is refused if another turn is on by then (`TurnService.play`).
        `/ps play undo` takes back the last action of your turn (`on_undo_command`)."""
        if action.strip().casefold() == UNDO:
            await self.on_undo_command(interaction)
            return
        async with answering(interaction):
            game = await self.games.core.live_game(interaction.channel_id or 0)
            turn = await self.turns.current_turn(game) if game is not None else None
            await interaction.response.defer(ephemeral=True, thinking=True)
            if game is None:
                raise UserError(refusals.NO_GAME_HERE)
            result = await self.turns.play(
                game.id, interaction.user.id, action, turn=turn, typed_version=game.version
            )
            await self._answer_play(interaction, result)

    async def on_undo_command(self, interaction: discord.Interaction) -> None:
        """`/ps play undo` (the panel's Undo typed): take back the last action of your turn."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            game = await self.games.core.live_game(interaction.channel_id or 0)
            if game is None:
                raise UserError(refusals.NO_GAME_HERE)
            result = await self.turns.undo(game.id, interaction.user.id)
            await self._answer_play(interaction, result, undone=True)

    async def on_log_command(self, interaction: discord.Interaction) -> None:
        """`/ps log`: the recent moves (with Cynthia's reasons) and the full game record."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            game, _ = await self.games.records.game_for_log(interaction.channel_id or 0)
            await self.bot.board.send_log(interaction, game)

    async def autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal actions matching what the current player typed (nothing for others); with
        several actions (`buy seed; gr`), those that may follow the complete ones."""
        game = await self.games.core.live_game(interaction.channel_id or 0)
        if game is None or game.status != "active":
            return []
        try:
            turn = await self.turns.turn(game.id, interaction.user.id)
        except UserError:
            return []
        found = await asyncio.to_thread(suggestions, turn.state, current)
        if turn.can_undo and current.strip() and UNDO.startswith(current.strip().casefold()):
            found = [UNDO, *found][:MAX_CHOICES]
        return [app_commands.Choice(name=text, value=text) for text in found]


def suggestions(state: GameState, current: str) -> list[str]:
    """Autocomplete of `/ps play` (pure; run it in a thread): the engine's completions of what
    was typed (`engine.text.completions`), within Discord's limits: at most `MAX_CHOICES`, each
    at most `MAX_CHOICE_LENGTH` characters."""
    offered = completions(state, current)
    return [t for t in offered if len(t) <= MAX_CHOICE_LENGTH][:MAX_CHOICES]


@app_commands.command(name="play", description=_("Type an action, e.g. place A2, grow D4, end"))
@app_commands.describe(
    action=_(
        "place A2, buy seed, plant C3 E5, grow D4, end; Under the Moonlight: move C3, use hunt 2"
    )
)
async def play_command(interaction: discord.Interaction[PhotosynthesisBot], action: str) -> None:
    await interaction.client.play.on_play_command(interaction, action)


@app_commands.command(name="log", description=_("The moves of this channel's game, and its record"))
async def log_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await interaction.client.play.on_log_command(interaction)


@play_command.autocomplete("action")
async def _play_autocomplete(
    interaction: discord.Interaction[PhotosynthesisBot], current: str
) -> list[app_commands.Choice[str]]:
    return await interaction.client.play.autocomplete(interaction, current)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.play = Play(bot)
    await bot.add_cog(bot.play)
