"""Looking at a game without playing: the next-sun preview, the game log and the replay viewer
(`/ps replay` of a record file or a finished game, and the Replay button).

Everything here answers privately and changes nothing, so it needs no game lock. Pictures are
drawn in a worker thread after the interaction is deferred.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
import render
from bot.discord.cogs import attach, detach
from bot.discord.places import app_server
from bot.discord.replies import Sent, answering, send_private
from bot.discord.views import replay_view
from bot.present import embeds, i18n, pictures, replays, story, texts
from bot.services import GameService, export, refusals, seats
from bot.services.base import UserError
from bot.services.records import record_game, record_log
from bot.storage import GameRow
from engine import GameState
from render.alt import alt_text
from translation import Text, _, _n, join

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

log = logging.getLogger(__name__)

#: A game record is a few kilobytes; anything much larger is not one.
MAX_RECORD_BYTES = 256 * 1024
#: An export of a server's games (`/ps export`) holds many records.
MAX_EXPORT_BYTES = 8 * 1024 * 1024
#: The record file a replay viewer of a file carries (its buttons read it again).
RECORD_FILE = "record.txt"
#: The largest game number `/ps replay` takes (Discord's integers are exact up to 2**53).
MAX_GAME_ID = 2**53 - 1


def record_file(game: GameRow, notations: list[str]) -> discord.File:
    """The game record (engine.Record text: config, seed, one move per line) as a file."""
    record = engine.Record(
        engine.Config.from_dict(game.config or {}),
        game.seed,
        notations,
        tuple(seats.player_name(game, s.position) for s in game.seats),
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


def _bad(reason: str) -> UserError:
    return UserError(texts.REPLAY_BAD.format(reason=reason))


def read_record(data: bytes) -> tuple[engine.Record, list[GameState]]:
    """Parse and replay a record; returns it with its states (the start, then one after each
    action). Raises `UserError` with one sentence saying what is wrong (pure CPU: use a
    thread)."""
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
        frames.append(state)
    return record, frames


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def _is_jsonl_export(text: str) -> bool:
    """Whether a file is a JSON lines export (`bot.services.export`): its first line is an object with a
    ``format`` (a record's first line is an object with a ``config``)."""
    try:
        first = json.loads(_first_line(text))
    except (ValueError, RecursionError):
        return False
    return isinstance(first, dict) and "format" in first


def export_record(data: bytes, game_id: int | None) -> tuple[bytes, Text | None]:
    """The record to replay in a file: the file itself when it is a record; for an export of
    `/ps export` (JSON lines or CSV), the record of its game numbered `game_id` (default the
    first), with a sentence saying which game of the file it is. Raises `UserError` with one
    sentence when the file is an export without that game, or a damaged one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(_("it is not a text file")) from None
    if _first_line(text).startswith(export.COLUMNS[0] + ","):  # a CSV export's header
        try:
            games = [(g.game_id, g.record) for g in export.read_csv(text)]
        except export.ExportError:
            raise _bad(_("it is a damaged CSV export")) from None
    elif _is_jsonl_export(text):
        games = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                game = export.read_jsonl(line)[0]
            except export.ExportError:
                raise _bad(_("line {number} of the export is damaged", number=number)) from None
            games.append((game.game_id, game.record))
    else:
        return data, None
    if not games:
        raise _bad(_("it is an export without games"))
    chosen = next((g for g in games if g[0] == game_id), None) if game_id else games[0]
    if chosen is None:
        raise _bad(_("the export has no game #{game}", game=game_id))
    which = _n(
        "Game #{game} of an export of {n} game.",
        "Game #{game} of an export of {n} games (the option `game` chooses another).",
        len(games),
        game=str(chosen[0]),  # a string: isolated in a right-to-left sentence
    )
    return chosen[1].to_text().encode(), which


def file_replay(data: bytes) -> replays.Replay:
    """The replay of a record file (`read_record`; the seats named as the record names them,
    else "Seat 1"... in the language of the moment). Pure CPU: use a thread."""
    record, states = read_record(data)
    shown = list(record.players) or _seat_names(record.config.seats)
    game = record_game(record, shown)
    return replays.replay(game, record_log(states, record.actions), states)


class Board(commands.Cog, name="Board"):
    """The game message's preview and log buttons, `/ps log` and `/ps replay`."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        #: the replays of finished games and of record files, and their pictures
        self.replays = replays.ReplayCache.new()

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        """Attach `/ps replay` to the `/ps` group of the Lobby cog (loaded first)."""
        attach(self.bot, __name__, replay_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "replay")

    async def on_board_command(self, interaction: discord.Interaction) -> None:
        """`/ps status words:True`: the channel's game as text, privately (for a screen reader, or where
        the picture does not show): the position in words, then the board as a grid."""
        async with answering(interaction):
            game = await self.games.records.shown_game(interaction.channel_id or 0)
            if game is None or game.config is None:
                raise UserError(refusals.NO_GAME_HERE)
            state = await self.games.core.state(game)
            names = seats.seat_names(game)
            words = await asyncio.to_thread(alt_text, state, names=names, lang=i18n.current())
            marks = join([join([story.SEAT_MARKS[i], name]) for i, name in enumerate(names)], ", ")
            grid = engine.text.board_text(state)
            board = i18n.tr(
                texts.BOARD_TEXT.format(game=game.id, words=words, grid=grid, marks=marks)
            )
            if state.config.moonstones or state.config.elder_tree:  # the grid's MS and EL
                board += " " + i18n.tr(texts.BOARD_TEXT_MOON)
            await interaction.response.send_message(board, ephemeral=True)

    async def _started(self, game_id: int, channel_id: int | None) -> GameRow:
        """The started game a button of its message acts on (refused in another channel)."""
        game = await self.games.core.game_here(game_id, channel_id)
        if game is None:
            raise UserError(refusals.GAME_GONE)
        if game.config is None:
            raise UserError(refusals.NOT_STARTED)
        return game

    async def on_preview_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Next-sun preview: the board with the next sun's shadows, and each seat's light."""
        async with answering(interaction):
            game = await self._started(game_id, interaction.channel_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            if game.status != "active":
                raise UserError(refusals.GAME_OVER)
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
                names=seats.seat_names(game),
                lang=i18n.current(),
                layout=pictures.GAME_LAYOUT,  # read on a phone; the gains are the embed's text
            )
            await interaction.followup.send(
                embed=embeds.preview_embed(game, state, sun, gains, lunar),
                file=pictures.as_file(picture, embeds.BOARD_FILE),
                ephemeral=True,
            )

    async def on_details_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Details: what each seat has (available area, store, tokens, animal and abilities)
        and the story since the player to play last played with every reason, privately, in
        the reader's language."""
        async with answering(interaction):
            game = await self._started(game_id, interaction.channel_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            state = await self.games.core.state(game)
            embed = await self.bot.publisher.details(game, state)
            await send_private(interaction, embed=embed)

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
        answer: Sent = {"embed": embed}
        hidden = hidden_by_the_seed(game)
        if hidden:
            hidden_words = i18n.tr(join(list(hidden), texts.SEMICOLON))
            embed.set_footer(text=i18n.tr(texts.RECORD_HIDDEN.format(hidden=hidden_words)))
        else:
            answer["file"] = record_file(game, [m.notation for m in moves])
        await send_private(interaction, **answer)

    async def on_replay_command(
        self,
        interaction: discord.Interaction,
        record: discord.Attachment | None,
        game_id: int | None,
    ) -> None:
        """`/ps replay <file> [game]` or `/ps replay game:<id>`: the private replay viewer of a
        record, of one game of an export (`/ps export`, the game numbered `game`, else its
        first), or of a finished game of this server."""
        async with answering(interaction):
            if record is None:
                if game_id is None:
                    raise UserError(texts.REPLAY_WHICH)
                await self.open_replay(interaction, game_id)
                return
            if record.size > MAX_EXPORT_BYTES:
                raise UserError(texts.REPLAY_BAD.format(reason=_("it is far too large")))
            await interaction.response.defer(ephemeral=True, thinking=True)
            data, which = await asyncio.to_thread(export_record, await record.read(), game_id)
            if len(data) > MAX_RECORD_BYTES:
                raise UserError(texts.REPLAY_BAD.format(reason=_("it is far too large")))
            replay = await asyncio.to_thread(file_replay, data)
            embed, picture, view = await self._viewer(replay, "f", None, 0)
            sent = await interaction.followup.send(
                content=discord.utils.MISSING if which is None else i18n.tr(which),
                embed=embed,
                files=[discord.File(io.BytesIO(data), filename=RECORD_FILE), picture],
                view=view,
                ephemeral=True,
                wait=True,
            )
            # the viewer's buttons find the replay by the record the viewer carries
            for carried in sent.attachments:
                if carried.filename == RECORD_FILE:
                    self.replays.replays.put(_file_key(carried), replay)

    async def on_replay_open(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Replay button of a finished game: the viewer, privately, at the start."""
        async with answering(interaction):
            await self.open_replay(interaction, game_id)

    async def open_replay(self, interaction: discord.Interaction, game_id: int) -> None:
        """Send the viewer of a finished game of this server (`RecordService.finished_game`)
        privately, at the start (inside `answering`)."""
        records = self.games.records
        reader = interaction.user.id
        game = await records.finished_game(game_id, app_server(interaction), reader)
        await interaction.response.defer(ephemeral=True, thinking=True)
        replay = await self._replay(game)
        embed, picture, view = await self._viewer(replay, f"g{game.id}", f"g{game.id}", 0)
        await interaction.followup.send(embed=embed, file=picture, view=view, ephemeral=True)

    async def on_replay_step(
        self,
        interaction: discord.Interaction,
        source: str,
        step: int,
        move: str,
        values: list[str] | None = None,
    ) -> None:
        """A button or the select of the viewer: the step it leads to, in place. The source
        and the step shown come from the custom_id (a restart forgets nothing): a finished
        game of this server, or the record file the viewer's message carries."""
        async with answering(interaction):
            records = self.games.records
            kept: list[discord.Attachment] = []
            if source.startswith("g"):
                game_id, reader = int(source[1:]), interaction.user.id
                game = await records.finished_game(game_id, app_server(interaction), reader)
                key = source
                await interaction.response.defer()
                replay = await self._replay(game)
            else:
                message = interaction.message
                attached = message.attachments if message is not None else []
                files = [a for a in attached if a.filename == RECORD_FILE]
                if not files:
                    raise UserError(texts.REPLAY_FILE_GONE)
                kept = files[:1]
                key = _file_key(kept[0])
                await interaction.response.defer()
                found = self.replays.replays.get(key)
                if found is None:
                    found = self.replays.replays.put(key, await self._read_again(kept[0]))
                replay = found
            if step > replay.last:
                raise UserError(texts.REPLAY_NO_STEP)
            if move == "go":
                to = int(values[0]) if values and values[0].isdigit() else None
            else:
                to = replay.target(move, step)
            if to is None or not 0 <= to <= replay.last:
                raise UserError(texts.REPLAY_NO_STEP)
            embed, picture, view = await self._viewer(replay, source, key, to)
            await interaction.edit_original_response(
                embed=embed, attachments=[*kept, picture], view=view
            )

    async def _replay(self, game: GameRow) -> replays.Replay:
        """The replay of a finished game (`RecordService.finished_game`), kept for the next
        steps."""
        key = f"g{game.id}"
        kept = self.replays.replays.get(key)
        if kept is None:
            kept = self.replays.replays.put(
                key, await self.games.records.replay(game, replays.replay)
            )
        return kept

    async def _read_again(self, attachment: discord.Attachment) -> replays.Replay:
        """The replay of the record file a viewer's message carries (after a restart, or once
        the cache let it go)."""
        try:
            data = await attachment.read()
            return await asyncio.to_thread(file_replay, data)
        except (discord.HTTPException, UserError):
            raise UserError(texts.REPLAY_FILE_GONE) from None

    async def _viewer(
        self, replay: replays.Replay, source: str, key: str | None, step: int
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        """The viewer at `step`: its embed, its picture (drawn once for the replay's `key`, the
        step and the language: `ReplayCache`; a file's first picture, before its viewer has a
        key, drawn without) and its components."""
        lang = i18n.current()
        cache = self.replays.pictures
        picture = None if key is None else cache.get((key, step, lang))
        if picture is None:
            picture = await pictures.picture(
                replay.states[step],
                highlight=replay.changed(step),
                names=seats.seat_names(replay.game),
                lang=lang,
                layout=pictures.GAME_LAYOUT,  # read on a phone; the seats' facts are fields
            )
            if key is not None:
                cache.put((key, step, lang), picture)
        if source.startswith("g"):
            title = texts.REPLAY_GAME_TITLE.format(id=replay.game.id)
        else:
            title = texts.REPLAY_FILE_TITLE
        embed = embeds.replay_embed(title, replay, step)
        web_url = None
        if source.startswith("g") and self.bot.settings.web is not None:
            path = await self.games.web.game_path(replay.game)
            web_url = await self.bot.web_url(_at(path, f"/replay#s{step}"))
        view = replay_view(source, step, replay.last, replay.rounds(), web_url)
        return embed, pictures.as_file(picture, embeds.BOARD_FILE), view


async def _at(path: str | None, rest: str) -> str | None:
    """A web page's path followed by `rest` (None: no page)."""
    return None if path is None else path + rest


def _file_key(record: discord.Attachment) -> str:
    """The cache key of the replay of the record file a viewer carries (its seats' names,
    when the record has none, are in the reader's language)."""
    return f"f{record.id}:{i18n.current()}"


def _seat_names(kinds: tuple[str, ...]) -> list[str]:
    """Names for the seats of a record (it keeps no user names)."""
    names, cynthias = [], 0
    for i, kind in enumerate(kinds):
        if kind == "cynthia":
            cynthias += 1
            names.append(i18n.tr(seats.cynthia_seat(cynthias)))
        else:
            names.append(i18n.tr(_("Seat {n}", n=i + 1)))
    return names


@app_commands.command(name="replay", description=_("Replay a finished game move by move"))
@app_commands.describe(
    record=_("The record file /ps log gave (photosynthesis-N.txt), or an export of /ps export"),
    game=_("A finished game of this server by its number, or the game of an export to replay"),
)
async def replay_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    record: discord.Attachment | None = None,
    game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
) -> None:
    await interaction.client.board.on_replay_command(interaction, record, game)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.board = Board(bot)
    await bot.add_cog(bot.board)
