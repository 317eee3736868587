"""Playing: the game message, the "Take my turn" panel, `/ps play` with autocomplete.

Setup placements and turns go through the same path: a choice (panel or typed notation) becomes
`GameService.play`, which applies it with the engine, lets any Cynthia seats act, and commits;
then the player's panel is answered and the game message is brought up to date.
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from engine.text import completions
from translation import _

from .. import choices, embeds, i18n, pictures, story, texts
from ..games import GameService, TurnResult, UserError, seat_label
from ..locks import KeyedLocks
from ..replies import answering
from ..storage import GameRow, UnreadableGame
from ..views import game_view, panel, panel_offers
from . import attach, detach

if TYPE_CHECKING:
    from ..app import PhotosynthesisBot

log = logging.getLogger(__name__)

#: Seconds to wait before editing the public game message during a turn: the edits of a burst
#: of actions are coalesced into one, well within Discord's message edit rate limits.
EDIT_DELAY = 1.5
PREVIEW_FILE = "preview.png"
#: Discord's limits on autocomplete choices: how many, and the length of a name or value.
MAX_CHOICES = 25
MAX_CHOICE_LENGTH = 100
GAME_BUTTON = re.compile(r"^ps:(?:turn|sun|log):(?P<game>[0-9]+):(?P<version>[0-9]+)$")
#: Discord's limit on a thread name; a game thread archives after a week without messages.
THREAD_NAME_LIMIT = 100
THREAD_ARCHIVE_MINUTES = 10080
#: Discord's error code when a thread was already started from that message.
THREAD_ALREADY_MADE = 160004
#: After a restart, finished games updated this recently get their final message checked too.
RESYNC_FINISHED_WITHIN = timedelta(days=1)


def _legal(state: Any) -> list[str]:
    return [str(a) for a in engine.legal_actions(state)]


async def _panel(
    games: GameService, game: GameRow, state: Any, user_id: int, **kwargs: Any
) -> tuple[str, discord.ui.View]:
    """The turn panel with the player's legal choices (and Undo when possible)."""
    can_undo = await games.can_undo(game, state, user_id)
    legal = _legal(state)
    labels = choices.describe_all(state, legal)
    return panel(game, state, legal, can_undo=can_undo, labels=labels, **kwargs)


async def _update(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the message a component belongs to, whether or not the click was deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


def _final_content(game: GameRow, state: Any) -> str:
    """The last game message's line: who won."""
    winners = [seat_label(game.seats[w]) for w in engine.winners(state)]
    return i18n.tr(texts.GAME_OVER_WINNERS.format(winners=texts.and_list(winners)))


def _version_shown(message: discord.Message) -> int | None:
    """The game version a game message was drawn for (from its buttons' custom_ids)."""
    for row in message.components:
        for item in getattr(row, "children", ()):
            match = GAME_BUTTON.match(getattr(item, "custom_id", None) or "")
            if match:
                return int(match["version"])
    return None


class Play(commands.Cog, name="Play"):
    """Turns: the game message, the panel and typed actions."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        self._publish_locks = KeyedLocks()  # an entry only while a redraw holds or waits
        #: game id -> (game message id, `engine.turn_id` of the turn it shows)
        self._shown: dict[int, tuple[int, tuple[Any, ...]]] = {}
        #: game id -> the pending (delayed) edit of its game message
        self._pending: dict[int, asyncio.Task[None]] = {}

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        """Attach `/ps play` to the `/ps` group of the Lobby cog (loaded first)."""
        attach(self.bot, __name__, play_command, undo_command, log_command)
        await self.resync()

    async def cog_unload(self) -> None:
        detach(self.bot, "play", "undo", "log")

    # --- the game message ---

    async def game_message_parts(
        self, game: GameRow, state: Any = None, *, background: bool = True
    ) -> tuple[discord.Embed, discord.File, discord.ui.View | None]:
        """Embed, board picture and view of a started game, in the language of the moment (the
        game's for its channel message, the reader's for a private copy). The channel's picture
        is drawn in the `background` (nobody waits on it: the players' answers are drawn first);
        a private copy someone waits for asks `background=False`."""
        if state is None:
            state = await self.games.state(game)
        turns = await self.games.story(game, state)
        picture = await pictures.picture(
            state,
            highlight=story.changed_spaces(turns),
            names=[s.name for s in game.seats],
            lang=i18n.current(),
            background=background,
        )
        file = pictures.as_file(picture, embeds.BOARD_FILE)
        notes = await self.games.notes(game, state)
        told = (story.story_title(game, state), story.lines_of(game, turns))
        return embeds.game_embed(game, state, notes=notes, story=told), file, game_view(game, state)

    async def publish(self, game_id: int) -> None:
        """Bring the channel's game message up to date.

        When the turn passes (or the game ends) a new message is posted at once, mentioning the
        next player, and the old one loses its buttons. During one turn the message is edited
        in place, `EDIT_DELAY` seconds after the first change (later changes ride along).
        """
        try:
            game = await self.games.get_game(game_id)
            if game is None or game.config is None:
                return
            with i18n.speaking(game.language):  # a channel message: the game's language
                state = await self.games.state(game)
                shown = self._shown.get(game_id)
                if shown is not None and shown[1] == engine.turn_id(state) and not state.is_over:
                    if game_id not in self._pending:  # (the task keeps the game's language)
                        self._pending[game_id] = asyncio.create_task(self._delayed_edit(game_id))
                    return
                pending = self._pending.pop(game_id, None)
                if pending is not None:
                    pending.cancel()
                await self._publish(game_id)
        except UnreadableGame:
            return  # quarantined and logged where it was found
        except Exception:  # the move is committed; a failed redraw must not read as a refusal
            log.exception("could not update the game message", extra={"game_id": game_id})

    async def _delayed_edit(self, game_id: int) -> None:
        await asyncio.sleep(EDIT_DELAY)
        self._pending.pop(game_id, None)  # from here on a new change schedules a new edit
        try:
            await self._publish(game_id)
        except Exception:
            log.exception("could not edit the game message", extra={"game_id": game_id})

    async def _publish(self, game_id: int) -> None:
        async with self._publish_locks.hold(game_id):
            game = await self.games.get_game(game_id)
            if game is None or game.config is None or game.status not in ("active", "over"):
                return
            state = await self.games.state(game)
            embed, file, view = await self.game_message_parts(game, state)
            content = _final_content(game, state) if state.is_over else None
            if not state.is_over and state.current_seat is not None:
                current = game.seats[state.current_seat]
                if current.user_id is not None:
                    content = i18n.tr(texts.YOUR_TURN_MENTION.format(user=f"<@{current.user_id}>"))
            channel = self.bot.get_partial_messageable(await self.game_thread(game))
            stored = await self.bot.storage.message(game_id, "game")
            shown = self._shown.get(game_id)
            if (
                stored is not None
                and shown == (stored[1], engine.turn_id(state))
                and not state.is_over
            ):
                message = channel.get_partial_message(stored[1])
                await message.edit(content=content, embed=embed, attachments=[file], view=view)
                return
            if stored is not None:
                try:
                    await channel.get_partial_message(stored[1]).edit(view=None)
                except discord.HTTPException:
                    log.info("old game message not editable", extra={"game_id": game_id})
            message = await channel.send(content=content, embed=embed, file=file, view=view)
            await self.bot.storage.set_message(game_id, "game", channel.id, message.id)
            if state.is_over:
                await self._announce_result(game, state, content)
            if state.is_over:  # its last message: nothing more is edited in place
                self._shown.pop(game_id, None)
            else:
                self._shown[game_id] = (message.id, engine.turn_id(state))
            self.bot.dispatch("ps_turn_message", game, state, message)  # e.g. DM the player

    async def game_thread(self, game: GameRow) -> int:
        """The thread a game is played in (its running messages stay out of the channel),
        started from its lobby message the first time; the channel itself when the lobby
        message is unknown or the thread cannot be made.

        A thread started from a message has that message's id, so a thread made just before a
        crash (its id not yet stored) is found again rather than made twice."""
        stored = await self.bot.storage.message(game.id, "thread")
        if stored is not None:
            return stored[0]
        lobby = await self.bot.storage.message(game.id, "lobby")
        if lobby is None:
            return game.channel_id
        with i18n.speaking(game.language):
            names = ", ".join(i18n.tr(s.name) for s in game.seats)
            name = i18n.tr(texts.THREAD_NAME.format(id=game.id, names=names))[:THREAD_NAME_LIMIT]
        try:
            data = await self.bot.http.start_thread_with_message(
                lobby[0], lobby[1], name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            thread_id = int(data["id"])
        except discord.HTTPException as exc:
            if exc.code != THREAD_ALREADY_MADE:
                log.warning("could not start the game's thread", extra={"game_id": game.id})
                return game.channel_id
            thread_id = lobby[1]
        await self.bot.storage.set_message(game.id, "thread", thread_id, thread_id)
        return thread_id

    async def _announce_result(self, game: GameRow, state: Any, content: str | None) -> None:
        """The end of a game in its channel too (once: the channel's second and last message of
        the game, after the lobby): the winners, the final scores and the picture."""
        if await self.bot.storage.message(game.id, "result") is not None:
            return
        thread = await self.bot.storage.message(game.id, "thread")
        if thread is None:
            return  # the game was played in the channel: its final message is already there
        lobby = await self.bot.storage.message(game.id, "lobby")
        if lobby is not None:  # its title says the game is over
            try:
                partial = self.bot.get_partial_messageable(lobby[0]).get_partial_message(lobby[1])
                await partial.edit(embed=embeds.lobby_embed(game), view=None)
            except discord.HTTPException:
                log.info("could not edit the lobby message", extra={"game_id": game.id})
        embed, file, view = await self.game_message_parts(game, state)
        channel = self.bot.get_partial_messageable(game.channel_id)
        # The nonce makes Discord return the message already made instead of a second one when
        # the process died after posting it and before storing its id (within a few minutes).
        message = await channel.send(
            content=content, embed=embed, file=file, view=view, nonce=f"result:{game.id}"
        )
        await self.bot.storage.set_message(game.id, "result", game.channel_id, message.id)

    async def resync(self) -> None:
        """Bring game messages up to date after a restart (from `cog_load`: logged in, not yet
        connected to the gateway, so no click can race with it).

        The action log is the truth; a message may lag behind it when the process died between
        a commit and the redraw (or before a delayed edit). A message drawn for the stored
        version is adopted as it is; any other is replaced by a fresh one. (A message posted
        just before a crash, before its id was stored, keeps working buttons: they act on the
        game by id.)
        """
        now = datetime.now(UTC)
        for game in await self.bot.storage.games_with_status("active", "over"):
            if game.status == "over" and now - game.updated > RESYNC_FINISHED_WITHIN:
                continue
            if not self.bot.serves(game.guild_id):  # another process's shard
                continue
            try:
                stored = await self.bot.storage.message(game.id, "game")
                if stored is not None:
                    channel = self.bot.get_partial_messageable(stored[0])
                    try:
                        message = await channel.fetch_message(stored[1])
                    except discord.NotFound:
                        message = None
                    if message is not None and _version_shown(message) == game.version:
                        state = await self.games.state(game)
                        self._shown[game.id] = (message.id, engine.turn_id(state))
                        if state.is_over:  # died between the last game message and the result
                            with i18n.speaking(game.language):
                                final = _final_content(game, state)
                                await self._announce_result(game, state, final)
                        continue
                log.info("redrawing a game message after a restart", extra={"game_id": game.id})
                await self.publish(game.id)
            except UnreadableGame:
                continue  # quarantined and logged; every other game is still served
            except Exception:
                log.exception("could not resync a game message", extra={"game_id": game.id})

    # --- the turn panel ---

    async def _fresh_panel(self, game: GameRow, user_id: int) -> discord.ui.View | None:
        try:
            game, state = await self.games.turn(game.id, user_id)
        except UserError:
            return None
        return (await _panel(self.games, game, state, user_id))[1]

    async def on_turn_button(
        self, interaction: discord.Interaction, game_id: int, version: int
    ) -> None:
        """ "Take my turn": the ephemeral panel with the current player's legal choices."""
        async with answering(interaction):
            game, state = await self.games.turn(game_id, interaction.user.id)
            content, view = await _panel(self.games, game, state, interaction.user.id)
            await interaction.response.send_message(content, view=view, ephemeral=True)

    async def on_panel_button(
        self, interaction: discord.Interaction, game_id: int, version: int, key: str
    ) -> None:
        """A panel button: open a kind of action, go back, or play (End turn)."""
        user_id = interaction.user.id
        async with answering(interaction, lambda g: self._fresh_panel(g, user_id)):
            if key.startswith("play "):
                await interaction.response.defer()
                result = await self.games.play(game_id, user_id, key[5:], version)
                await self._answer_play(interaction, result)
                return
            if key == "undo":
                await interaction.response.defer()
                result = await self.games.undo(game_id, user_id, version)
                await self._answer_play(interaction, result, undone=True)
                return
            game, state = await self.games.turn(game_id, user_id, version)
            menu = key[5:] if key.startswith("menu ") else None
            content, view = await _panel(self.games, game, state, user_id, menu=menu)
            await _update(interaction, content=content, view=view)

    async def _check_offered(
        self, game_id: int, user_id: int, version: int, kind: str, value: str
    ) -> tuple[GameRow, Any]:
        """The game and its state at the panel's `version`, its player's turn; refused when the
        panel does not offer `value` in a select of `kind` (a forged value: a chain of actions,
        a piece to act from that no action has)."""
        game, state = await self.games.turn(game_id, user_id, version)
        if not panel_offers(_legal(state), kind, value):
            raise UserError(texts.NOT_OFFERED)
        return game, state

    async def on_panel_select(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        kind: str,
        values: list[str],
    ) -> None:
        """A panel select: play the chosen action, or (`src`: "<verb> <space>") list the
        choices of a two-step kind from that piece (the plantings from a tree). The value must
        be one the panel offers at this version (`views.panel_offers`)."""
        user_id = interaction.user.id
        async with answering(interaction, lambda g: self._fresh_panel(g, user_id)):
            if not values:
                raise UserError(texts.CHOOSE_ONE)
            if kind == "act":
                await interaction.response.defer()
                await self._check_offered(game_id, user_id, version, kind, values[0])
                result = await self.games.play(game_id, user_id, values[0], version)
                await self._answer_play(interaction, result)
                return
            game, state = await self._check_offered(game_id, user_id, version, kind, values[0])
            verb, _, source = values[0].partition(" ")
            content, view = await _panel(
                self.games, game, state, user_id, menu=verb, source=source or None
            )
            await _update(interaction, content=content, view=view)

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
            content, view = await _panel(self.games, game, state, interaction.user.id)
            content = f"{played}\n{content}"
            picture = await pictures.picture(
                state,
                highlight=[space for n in acted for space in choices.spaces_of(n)],
                viewer_seat=state.current_seat,
                names=[s.name for s in game.seats],
                lang=i18n.current(),
            )
            files.append(pictures.as_file(picture, PREVIEW_FILE))
        else:
            content = f"{played} {i18n.tr(texts.PANEL_DONE)}"
        if interaction.message is not None:  # a panel component: edit the panel
            await interaction.edit_original_response(content=content, view=view, attachments=files)
        else:
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            await interaction.followup.send(content, files=files, ephemeral=True, **extra)
        await self.publish(game.id)

    # --- /ps play ---

    async def on_play_command(self, interaction: discord.Interaction, action: str) -> None:
        """`/ps play <action>`: the typed form of the panel, pinned to the turn it was typed
        in: the turn is read before anything is awaited on Discord or the game's lock, and
        the action is refused if another turn is on by then (`GameService.play`)."""
        async with answering(interaction):
            game = await self.games.live_game(interaction.channel_id or 0)
            turn = await self.games.current_turn(game.id) if game is not None else None
            await interaction.response.defer(ephemeral=True, thinking=True)
            if game is None:
                raise UserError(texts.NO_GAME_HERE)
            result = await self.games.play(
                game.id, interaction.user.id, action, turn=turn, typed_version=game.version
            )
            await self._answer_play(interaction, result)

    async def on_undo_command(self, interaction: discord.Interaction) -> None:
        """`/ps undo`: take back the last action of your turn."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            game = await self.games.live_game(interaction.channel_id or 0)
            if game is None:
                raise UserError(texts.NO_GAME_HERE)
            result = await self.games.undo(game.id, interaction.user.id)
            await self._answer_play(interaction, result, undone=True)

    async def on_log_command(self, interaction: discord.Interaction) -> None:
        """`/ps log`: the recent moves (with Cynthia's reasons) and the full game record."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            game, _ = await self.games.game_for_log(interaction.channel_id or 0)
            await self.bot.get_cog("Board").send_log(interaction, game)  # type: ignore[union-attr]  # cog always loaded

    async def autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal actions matching what the current player typed (nothing for others); with
        several actions (`buy seed; gr`), those that may follow the complete ones."""
        game = await self.games.live_game(interaction.channel_id or 0)
        if game is None or game.status != "active":
            return []
        try:
            _, state = await self.games.turn(game.id, interaction.user.id)
        except UserError:
            return []
        found = await asyncio.to_thread(suggestions, state, current)
        return [app_commands.Choice(name=text, value=text) for text in found]


def suggestions(state: Any, current: str) -> list[str]:
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
async def play_command(interaction: discord.Interaction, action: str) -> None:
    cog = interaction.client.get_cog("Play")  # type: ignore[union-attr]  # cog always loaded
    await cog.on_play_command(interaction, action)


@app_commands.command(name="undo", description=_("Take back your last action of this turn"))
async def undo_command(interaction: discord.Interaction) -> None:
    cog = interaction.client.get_cog("Play")  # type: ignore[union-attr]  # cog always loaded
    await cog.on_undo_command(interaction)


@app_commands.command(name="log", description=_("The moves of this channel's game, and its record"))
async def log_command(interaction: discord.Interaction) -> None:
    cog = interaction.client.get_cog("Play")  # type: ignore[union-attr]  # cog always loaded
    await cog.on_log_command(interaction)


@play_command.autocomplete("action")
async def _play_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    cog = interaction.client.get_cog("Play")  # type: ignore[union-attr]  # cog always loaded
    return await cog.autocomplete(interaction, current)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Play(bot))
