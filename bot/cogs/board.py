"""Looking at a game without playing: the next-sun preview, the game log and `/ps replay`.

Everything here answers privately and changes nothing, so it needs no game lock. Pictures are
drawn in a worker thread after the interaction is deferred.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
import render
from render.alt import alt_text
from translation import _

from .. import embeds, i18n, pictures, story, texts
from .. import expert_texts as xt
from ..replies import answering
from ..services import GameService
from ..services.base import UserError
from ..storage import GameRow
from . import attach, detach

if TYPE_CHECKING:
    from ..app import PhotosynthesisBot

log = logging.getLogger(__name__)

#: A game record is a few kilobytes; anything much larger is not one.
MAX_RECORD_BYTES = 256 * 1024
#: The replay animation shows at most this many frames (one per round, then the final one).
MAX_FRAMES = 40
ANIMATION_FILE = "replay.gif"


def record_file(game: GameRow, notations: list[str]) -> discord.File:
    """The game record (engine.Record text: config, seed, one move per line) as a file."""
    record = engine.Record(
        engine.Config.from_dict(game.config or {}),
        game.seed,
        notations,
        tuple(story.player_name(game, s.position) for s in game.seats),
    )
    return discord.File(
        io.BytesIO(record.to_text().encode()), filename=f"photosynthesis-{game.id}.txt"
    )


def hidden_by_the_seed(game: GameRow) -> list[str]:
    """What the record of this running game (its seed) would reveal of what the engine keeps
    from the players (`engine.hidden_information`: Cynthia's card order, the animals dealt,
    the face-down Baby Turtle tokens); nothing once it is over."""
    if game.status != "active" or game.config is None:
        return []
    hidden = engine.hidden_information(engine.Config.from_dict(game.config))
    return [what for key, what in hidden.items() if key != "rng"]


def _bad(reason: Any) -> UserError:
    return UserError(texts.REPLAY_BAD.format(reason=reason))


def read_record(data: bytes) -> tuple[engine.Record, list[Any]]:
    """Parse and replay a record; returns it with the states to animate (one per round and the
    last). Raises `UserError` with one sentence saying what is wrong (pure CPU: use a thread)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(_("it is not a text file")) from None
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line and not line.startswith("#")]
    if not lines:
        raise _bad(_("it is empty"))
    for number, line in lines[1:]:
        try:
            engine.parse_action(line)
        except Exception:  # engine.IllegalAction, or whatever odd text makes the engine raise
            raise _bad(
                _("line {number}, '{line}', is not a move", number=number, line=line[:40])
            ) from None
    try:
        record = engine.Record.from_text(text)
    except Exception:  # a file is anything: too deep (RecursionError), seed Infinity (Overflow)
        raise _bad(_("its first line is not the header with the config and the seed")) from None
    try:
        state = engine.new_game(record.config, record.seed)
    except ValueError as exc:
        raise _bad(exc.args[0] if exc.args else str(exc)) from None
    except Exception:  # whatever else the header's values make the engine raise
        raise _bad(_("its header does not describe a game")) from None
    frames = [state]
    for number, notation in enumerate(record.actions, 1):
        try:
            state = engine.apply(state, notation)
        except engine.IllegalAction as exc:
            reason = exc.args[0] if exc.args else str(exc)
            raise _bad(
                _(
                    "move {number}, '{notation}', is illegal ({reason})",
                    number=number,
                    notation=notation,
                    reason=reason,
                )
            ) from None
        except Exception:  # the engine's defect on an odd move, still the file's answer
            raise _bad(
                _("move {number}, '{notation}', cannot be played", number=number, notation=notation)
            ) from None
        if (state.phase, state.round) != (frames[-1].phase, frames[-1].round):
            frames.append(state)
    if frames[-1] is not state:
        frames.append(state)
    if len(frames) > MAX_FRAMES:
        step = -(-len(frames) // MAX_FRAMES)
        frames = [*frames[:-1:step], frames[-1]]
    return record, frames


def _replay_pictures(
    frames: list[Any], names: list[str], lang: str | None = None
) -> tuple[tuple[bytes, str], bytes]:
    final = pictures.board_picture(frames[-1], names=names, lang=lang)
    return final, render.animation(frames, names=names, lang=lang)


class Board(commands.Cog, name="Board"):
    """The game message's preview and log buttons, `/ps log` and `/ps replay`."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        """Attach `/ps replay` to the `/ps` group of the Lobby cog (loaded first)."""
        attach(self.bot, __name__, replay_command, board_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "replay", "board")

    async def on_board_command(self, interaction: discord.Interaction) -> None:
        """`/ps board`: the channel's game as text, privately (for a screen reader, or where
        the picture does not show): the position in words, then the board as a grid."""
        async with answering(interaction):
            game = await self.games.records.shown_game(interaction.channel_id or 0)
            if game is None or game.config is None:
                raise UserError(texts.NO_GAME_HERE)
            state = await self.games.core.state(game)
            names = xt.seat_names(game)
            words = await asyncio.to_thread(alt_text, state, names=names, lang=i18n.current())
            marks = ", ".join(f"{story.SEAT_MARKS[i]} {name}" for i, name in enumerate(names))
            grid = engine.text.board_text(state)
            board = texts.BOARD_TEXT.format(game=game.id, words=words, grid=grid, marks=marks)
            if state.config.moonstones or state.config.elder_tree:  # the grid's MS and EL
                board = i18n.tr(board) + " " + i18n.tr(texts.BOARD_TEXT_MOON)
            await interaction.response.send_message(i18n.tr(board), ephemeral=True)

    async def _started(self, game_id: int, channel_id: int | None) -> GameRow:
        """The started game a button of its message acts on (refused in another channel)."""
        game = await self.games.core.game_here(game_id, channel_id)
        if game is None:
            raise UserError(texts.GAME_GONE)
        if game.config is None:
            raise UserError(texts.NOT_STARTED)
        return game

    async def on_preview_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Next-sun preview: the board with the next sun's shadows, and each seat's light."""
        async with answering(interaction):
            game = await self._started(game_id, interaction.channel_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            if game.status != "active":
                raise UserError(texts.GAME_OVER)
            state = await self.games.core.state(game)
            sun = engine.next_photosynthesis_sun(state)
            if sun is None:  # the last round: the game ends before the sun moves again
                raise UserError(texts.NO_PHOTOSYNTHESIS_LEFT)
            gains = engine.light_for_sun(state, sun)
            lunar = [s.lunar_gain for s in render.model.view(state, preview_sun=sun).seats]
            viewer = next(
                (s.position for s in game.seats if s.user_id == interaction.user.id), None
            )
            picture = await pictures.picture(
                state,
                preview_sun=sun,
                viewer_seat=viewer,
                names=xt.seat_names(game),
                lang=i18n.current(),
                layout=pictures.GAME_LAYOUT,  # read on a phone; the gains are the embed's text
            )
            await interaction.followup.send(
                embed=embeds.preview_embed(game, state, sun, gains, lunar),
                file=pictures.as_file(picture, embeds.BOARD_FILE),
                ephemeral=True,
            )

    async def on_log_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Game log: the recent moves with Cynthia's reasons and the events, and the record."""
        async with answering(interaction):
            game = await self._started(game_id, interaction.channel_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.send_log(interaction, game)

    async def send_log(self, interaction: discord.Interaction, game: GameRow) -> None:
        """Send the log of `game` privately (the interaction is deferred or not yet answered).

        The record file carries the game's seed, from which the animals dealt and the face-down
        Baby Turtle tokens of Under the Moonlight follow: while such a game is played the
        record is kept back (it comes with the log once the game is over)."""
        history = await self.games.records.history(game)
        moves = [move for move, _ in history]
        state = await self.games.core.state(game)
        embed = embeds.log_embed(game, state, moves, events=[events for _, events in history])
        extra: dict[str, Any] = {}
        hidden = hidden_by_the_seed(game)
        if hidden:
            hidden_words = "; ".join(i18n.tr(what) for what in hidden)
            embed.set_footer(text=i18n.tr(texts.RECORD_HIDDEN.format(hidden=hidden_words)))
        else:
            extra["file"] = record_file(game, [m.notation for m in moves])
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, ephemeral=True, **extra)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True, **extra)

    async def on_replay_command(
        self, interaction: discord.Interaction, record: discord.Attachment
    ) -> None:
        """`/ps replay <file>`: the final position and an animation of a game record."""
        async with answering(interaction):
            if record.size > MAX_RECORD_BYTES:
                raise UserError(texts.REPLAY_BAD.format(reason=_("it is far too large")))
            await interaction.response.defer(ephemeral=True, thinking=True)
            data = await record.read()
            parsed, frames = await asyncio.to_thread(read_record, data)
            names = list(parsed.players) or _seat_names(parsed.config.seats)
            final, gif = await asyncio.to_thread(_replay_pictures, frames, names, i18n.current())
            await interaction.followup.send(
                embed=embeds.replay_embed(names, frames[-1], len(parsed.actions)),
                files=[
                    pictures.as_file(final, embeds.BOARD_FILE),
                    discord.File(
                        io.BytesIO(gif),
                        filename=ANIMATION_FILE,
                        description=i18n.tr(texts.ANIMATION_ALT),
                    ),
                ],
                ephemeral=True,
            )


def _seat_names(kinds: tuple[str, ...]) -> list[str]:
    """Names for the seats of a record (it keeps no user names)."""
    names, cynthias = [], 0
    for i, kind in enumerate(kinds):
        if kind == "cynthia":
            cynthias += 1
            names.append("Cynthia" if cynthias == 1 else "Cynthia 2")
        else:
            names.append(i18n.tr(_("Seat {n}", n=i + 1)))
    return names


@app_commands.command(name="replay", description=_("Replay a game record from /ps log"))
@app_commands.describe(record=_("The record file /ps log gave (photosynthesis-N.txt)"))
async def replay_command(
    interaction: discord.Interaction[PhotosynthesisBot], record: discord.Attachment
) -> None:
    await interaction.client.board.on_replay_command(interaction, record)


@app_commands.command(name="board", description=_("The game in this channel as text"))
async def board_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await interaction.client.board.on_board_command(interaction)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.board = Board(bot)
    await bot.add_cog(bot.board)
