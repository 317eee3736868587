"""The `/ps` command group and the lobby: new, the lobby buttons, status, abandon, rules, help.

Each handler translates the interaction into one `GameService` call and the result into a
message; refusals come back as `UserError` and are answered by `replies.answering`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.discord import places, replies
from bot.discord.places import app_server
from bot.discord.replies import (
    DEFER_AFTER_S,
    Sent,
    answering,
    require_channel_permissions,
    with_view,
)
from bot.discord.views import abandon_view, lobby_view, options_from_values
from bot.present import embeds, i18n, pictures, texts
from bot.present import expert_texts as xt
from bot.present.correspondence_texts import LeaveChoice, TimeoutChoice, TimerChoice, timer_options
from bot.present.learn_texts import RULES_LINE
from bot.services import GameService, refusals, seats
from bot.services.base import UserError
from bot.services.experts import BOT_KINDS, FORMER_BOT_KINDS
from bot.storage import GameOptions, GameRow, SeatKind
from bot.storage.locks import KeyedLocks
from translation import LANGUAGES, _

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

log = logging.getLogger(__name__)


def _can_manage(interaction: discord.Interaction) -> bool:
    """Whether the user may end any game in the channel (Manage Channels)."""
    permissions = interaction.permissions
    return bool(permissions and permissions.manage_channels)


#: A game's lobby opens in a channel; its game is then played in a thread of its own.
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)

RulesTopic = Literal["base", "moonlight", "animals", "cynthia", "expert"]
#: `/ps new language:` and `/ps language`: each language by its own name.
LANGUAGE_CHOICES = [
    app_commands.Choice(name=f"{i18n.LANGUAGE_NAMES[lang]} ({lang})", value=lang)
    for lang in LANGUAGES
]
SETTING_CHOICES = [
    *LANGUAGE_CHOICES,
    app_commands.Choice(name=_("automatic (Discord's language)"), value="auto"),
]


#: The picture each rules topic shows (None: no picture).
RULES_PICTURES = pictures.RULES_PICTURES


class Lobby(commands.Cog, name="Lobby"):
    """Creating, joining, starting and ending games."""

    #: Installed to a server or to a user's account, and offered in servers, in a DM with the bot
    #: and in private channels; outside a server that added the bot only the subcommands of
    #: `places.ANYWHERE` answer (the command tree refuses the others).
    ps = app_commands.Group(
        name="ps",
        description=_("Play Photosynthesis in this channel"),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        #: game id -> the lock lobby redraws go out under (in order, each with the latest)
        self._redraws = KeyedLocks()
        self._rules_png: dict[tuple[str, str], tuple[bytes, str]] = {}

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def fresh_view(self, game: GameRow) -> discord.ui.View | None:
        """The current lobby buttons, offered with an "out of date" refusal."""
        return lobby_view(game)

    async def cog_load(self) -> None:
        await self.resync()

    async def resync(self) -> None:
        """Redraw every open lobby after a restart, as `Publisher.resync` does for games (logged in,
        not yet connected to the gateway, so no click races with it).

        A lobby is saved before its message is sent, so a bot killed in between left a lobby
        that nobody could see or join while `/ps new` answered "already has a game": such a
        lobby (or one whose message was deleted) gets a fresh message; a lobby whose message is
        there is redrawn as stored.
        """
        for game in await self.bot.storage.games_with_status("lobby"):
            if not self.bot.serves(game.guild_id):  # another process's shard
                continue
            try:
                with i18n.speaking(game.language):
                    embed, view = embeds.lobby_embed(game), lobby_view(game)
                stored = await self.bot.storage.message(game.id, "lobby")
                if stored is not None:
                    try:
                        message = self.bot.get_partial_messageable(stored[0])
                        await message.get_partial_message(stored[1]).edit(embed=embed, view=view)
                        continue
                    except discord.NotFound:
                        pass
                channel = self.bot.get_partial_messageable(game.channel_id)
                sent = await channel.send(embed=embed, **with_view(view))
                await self.bot.storage.set_message(game.id, "lobby", game.channel_id, sent.id)
                log.info("lobby message redrawn after a restart", extra={"game_id": game.id})
            except Exception:
                log.exception("could not resync a lobby", extra={"game_id": game.id})

    # --- /ps new ---

    @ps.command(name="new", description=_("Open a Photosynthesis lobby in this channel"))
    @app_commands.describe(
        revolutions=_("3 revolutions (18 rounds), or 4 for the advanced variant"),
        shadow_rule=_("Advanced: no planting from, or growing of, a shadowed piece"),
        random_seats=_("Seat players in random order instead of join order"),
        moon_animals=_("Under the Moonlight: each person plays an animal with lunar abilities"),
        elder_tree=_("Under the Moonlight: the Great Elder Tree"),
        moonstones=_("Under the Moonlight: moonstones"),
        easier_no_final_collect=_("Cynthia easier: no free collect after the last round"),
        easier_grow_plus_one=_("Cynthia easier: growing costs her one more"),
        easier_two_small_start=_("Cynthia easier: she starts with two small trees"),
        harder_grow_minus_one=_("Cynthia harder: growing costs her one less"),
        harder_score_trees=_("Cynthia harder: she scores 1/2/3 per tree left at the end"),
        turn_timer=_("Correspondence: time per turn (off, 1h, 12h, 24h, 72h)"),
        on_timeout=_("When the turn timer runs out: end the turn, or the autopilot plays it"),
        on_leave=_("When a player leaves a running game: the autopilot takes the seat, or it ends"),
        language=_("The game's language in the channel (default: the server's)"),
        hints=xt.HINTS_DESCRIBE,
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        revolutions: Literal[3, 4] = 3,
        shadow_rule: bool = False,
        random_seats: bool = False,
        moon_animals: bool = False,
        elder_tree: bool = False,
        moonstones: bool = False,
        easier_no_final_collect: bool = False,
        easier_grow_plus_one: bool = False,
        easier_two_small_start: bool = False,
        harder_grow_minus_one: bool = False,
        harder_score_trees: bool = False,
        turn_timer: TimerChoice = "off",
        on_timeout: TimeoutChoice = "end turn",
        on_leave: LeaveChoice = "autopilot",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        async with answering(interaction, defer_after=DEFER_AFTER_S) as deferral:
            if interaction.channel_id is None:
                raise UserError(texts.GUILD_ONLY)
            if getattr(interaction.channel, "type", None) in THREADS:
                raise UserError(texts.NEW_IN_THREAD)
            require_channel_permissions(interaction)
            options: GameOptions = {
                "revolutions": revolutions,
                "shadow_rule": shadow_rule,
                "random_seats": random_seats,
                "moon_animals": moon_animals,
                "elder_tree": elder_tree,
                "moonstones": moonstones,
                "easier_no_final_collect": easier_no_final_collect,
                "easier_grow_plus_one": easier_grow_plus_one,
                "easier_two_small_start": easier_two_small_start,
                "harder_grow_minus_one": harder_grow_minus_one,
                "harder_score_trees": harder_score_trees,
            }
            try:
                engine.Config(
                    seats=("human", "cynthia"),
                    revolutions=revolutions,
                    shadow_rule=shadow_rule,
                    moon_animals=moon_animals,
                    elder_tree=elder_tree,
                    moonstones=moonstones,
                    easier_no_final_collect=easier_no_final_collect,
                    easier_grow_plus_one=easier_grow_plus_one,
                    easier_two_small_start=easier_two_small_start,
                    harder_grow_minus_one=harder_grow_minus_one,
                    harder_score_trees=harder_score_trees,
                )
            except ValueError as exc:
                raise UserError(exc.args[0] if exc.args else str(exc)) from None
            options.update(timer_options(turn_timer, on_timeout, on_leave))
            options["hints"] = hints
            if language is None:  # the server's: its admin's choice, else its Discord locale
                _mine, server = await self.bot.storage.languages(
                    interaction.user.id, interaction.guild_id
                )
                language = i18n.choose_language(None, None, server) if server else None
                language = language or i18n.choose_language(None, interaction.guild_locale)
            game = await self.games.lobby.new_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=options,
                language=language,
            )
            with i18n.speaking(game.language):  # the lobby is a channel message
                embed, view = embeds.lobby_embed(game), lobby_view(game)
            message_id: int | None
            if deferral is not None and await deferral.settle():  # a slow start: deferred
                sent = await interaction.followup.send(embed=embed, wait=True, **with_view(view))
                message_id = sent.id
            else:
                response = await interaction.response.send_message(embed=embed, **with_view(view))
                message_id = response.message_id
            if message_id is not None:
                await self.bot.storage.set_message(
                    game.id, "lobby", interaction.channel_id, message_id
                )

    # --- lobby components ---

    async def on_lobby_button(
        self, interaction: discord.Interaction, action: str, game_id: int, version: int
    ) -> None:
        """Join / Leave / Remove bot / Start (Add Cynthia / Remove Cynthia: older messages)."""
        user, lobby, here = interaction.user, self.games.lobby, interaction.channel_id
        async with answering(interaction, self.fresh_view):
            if action == "start":
                require_channel_permissions(interaction)
                result = await lobby.start(game_id, version, user.id, channel_id=here)
                await self._show_lobby(interaction, result.game)
                return
            if action == "join":
                name = user.display_name
                game = await lobby.join(game_id, version, user.id, name, channel_id=here)
            elif action == "leave":
                game = await lobby.leave(game_id, version, user.id, channel_id=here)
            elif action == "rembot":
                game = await lobby.remove_bot(game_id, version, user.id, channel_id=here)
            elif action == "addcyn":
                game = await lobby.add_cynthia(game_id, version, user.id, channel_id=here)
            else:
                game = await lobby.remove_cynthia(game_id, version, user.id, channel_id=here)
            await self._show_lobby(interaction, game)

    async def on_add_bot(
        self, interaction: discord.Interaction, game_id: int, version: int, values: list[str]
    ) -> None:
        """The host chose a bot in the "Add bot" select: Cynthia, or the Expert."""
        async with answering(interaction, self.fresh_view):
            kind = values[0] if values else ""
            kind = FORMER_BOT_KINDS.get(kind, kind)  # an older lobby message's strong Expert
            if kind not in BOT_KINDS:  # a forged choice
                raise UserError(texts.UNKNOWN_COMPONENT)
            seat_kind = cast("SeatKind", kind)  # one of BOT_KINDS, checked above
            game = await self.games.lobby.add_bot(
                game_id, version, interaction.user.id, seat_kind, channel_id=interaction.channel_id
            )
            await self._show_lobby(interaction, game)

    async def _show_lobby(self, interaction: discord.Interaction, game: GameRow) -> None:
        """Answer a lobby click by redrawing the clicked message; when that was a private copy
        (from `/ps status` or an "out of date" refusal), redraw the public lobby message too.
        After clicks at the same moment (several Join) the answers go out one at a time, each
        drawn from the lobby as stored then, so the last one drawn shows the latest seats."""
        async with self._redraws.hold(game.id):
            game = await self.games.core.get_game(game.id) or game
            with i18n.speaking(game.language):  # the lobby message speaks the game's language
                embed, view = embeds.lobby_embed(game), lobby_view(game)
                public_view = lobby_view(game)
            await interaction.response.edit_message(embed=embed, view=view)
            stored = await self.bot.storage.message(game.id, "lobby")
            clicked = interaction.message.id if interaction.message is not None else None
            if stored is not None and stored[1] != clicked:
                channel = self.bot.get_partial_messageable(stored[0])
                try:
                    public = channel.get_partial_message(stored[1])
                    await public.edit(embed=embed, view=public_view)
                except discord.HTTPException:
                    log.warning("could not redraw the lobby", extra={"game_id": game.id})

    async def on_options(
        self, interaction: discord.Interaction, game_id: int, version: int, values: list[str]
    ) -> None:
        """The host changed the options select."""
        async with answering(interaction, self.fresh_view):
            game = await self.games.lobby.set_options(
                game_id,
                version,
                interaction.user.id,
                options_from_values(values),
                channel_id=interaction.channel_id,
            )
            await self._show_lobby(interaction, game)

    # --- /ps status, /ps abandon ---

    @ps.command(name="status", description=_("Show the game in this channel"))
    @app_commands.describe(
        words=_("The game as text instead: the position in words and the board as a grid")
    )
    async def status(self, interaction: discord.Interaction, words: bool = False) -> None:
        if words:  # the game as text, for a screen reader or where the picture does not show
            await self.bot.board.on_board_command(interaction)
            return
        async with answering(interaction):
            game = await self.games.records.shown_game(interaction.channel_id or 0)
            if game is None:
                raise UserError(refusals.NO_GAME_HERE)
            if game.status == "abandoned":
                await interaction.response.defer(ephemeral=True, thinking=True)
                state = await self.games.core.state(game)  # a started game: it has a config
                picture = await pictures.picture(
                    state,
                    names=seats.seat_names(game),
                    lang=i18n.current(),
                    layout=pictures.GAME_LAYOUT,
                    abandoned=True,  # nobody to play, in the picture and its alt text
                )
                file = pictures.as_file(picture, embeds.BOARD_FILE)
                embed = embeds.ended_embed(game, state)
                await interaction.followup.send(embed=embed, file=file, ephemeral=True)
                return
            if game.status == "lobby":
                await interaction.response.send_message(
                    embed=embeds.lobby_embed(game), ephemeral=True, **with_view(lobby_view(game))
                )
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            embed, file, view = await self.bot.publisher.game_message_parts(game, background=False)
            await interaction.followup.send(
                embed=embed, file=file, ephemeral=True, **with_view(view)
            )

    @ps.command(name="abandon", description=_("End the game in this channel (host or moderators)"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        """Ask first: one command must not end a game for everyone by mistake."""
        async with answering(interaction):
            game = await self.games.endings.may_abandon(
                interaction.channel_id or 0, interaction.user.id, _can_manage(interaction)
            )
            await interaction.response.send_message(
                i18n.tr(texts.ABANDON_CONFIRM.format(game=game.id)),
                view=abandon_view(game.id),
                ephemeral=True,
            )

    async def on_abandon_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Abandon the game": end it, tell the channel, take the buttons off its messages."""
        async with answering(interaction):
            game = await self.games.endings.abandon_game(
                game_id,
                interaction.user.id,
                _can_manage(interaction),
                channel_id=interaction.channel_id,
            )
            await interaction.response.edit_message(
                content=i18n.tr(texts.ABANDONED.format(user=interaction.user.mention)), view=None
            )
            with i18n.speaking(game.language):  # in its thread (a lobby has none: nowhere)
                announced = i18n.tr(texts.ABANDONED.format(user=interaction.user.mention))
            await self.bot.publisher.announce(game, announced)
            await self.bot.publisher.close_messages(game)

    async def on_keep(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Keep playing": nothing changes."""
        async with answering(interaction):
            await self.games.core.game_here(game_id, interaction.channel_id)
            await interaction.response.edit_message(content=i18n.tr(texts.ABANDON_KEPT), view=None)

    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Rematch": a new lobby in the game's channel, same seats and options."""
        async with answering(interaction):
            game = await self.games.lobby.rematch(
                game_id, interaction.user.id, channel_id=interaction.channel_id
            )
            channel = self.bot.get_partial_messageable(game.channel_id)
            with i18n.speaking(game.language):
                embed, view = embeds.lobby_embed(game), lobby_view(game)
            sent = await channel.send(embed=embed, **with_view(view))
            await self.bot.storage.set_message(game.id, "lobby", game.channel_id, sent.id)
            await interaction.response.send_message(
                i18n.tr(texts.REMATCH_OPEN.format(channel=game.channel_id)), ephemeral=True
            )

    # --- /ps rules, /ps help ---

    @ps.command(name="rules", description=_("A short illustrated summary of the rules"))
    @app_commands.describe(
        topic=_(
            "base game (default), Under the Moonlight, its animals, Cynthia the automa or the Expert"
        )
    )
    async def rules(self, interaction: discord.Interaction, topic: RulesTopic = "base") -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            draw = RULES_PICTURES.get(topic)
            file: discord.File | None = None
            if draw is not None:
                key = (topic, i18n.current())
                if key not in self._rules_png:
                    self._rules_png[key] = await asyncio.to_thread(draw, i18n.current())
                file = pictures.as_file(self._rules_png[key], embeds.BOARD_FILE)
            answer: Sent = {"content": i18n.tr(RULES_LINE), "embed": embeds.rules_embed(topic)}
            if file is not None:
                answer["file"] = file
            await interaction.followup.send(ephemeral=True, **answer)

    @ps.command(name="language", description=_("Your language, or (Manage Server) the server's"))
    @app_commands.describe(
        language=_("The language of my private answers to you; automatic: your Discord language"),
        server=_("Manage Server: the server's language (new games, and those who chose none)"),
    )
    @app_commands.choices(language=SETTING_CHOICES, server=SETTING_CHOICES)
    async def language(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        server: str | None = None,
    ) -> None:
        """Set (or, without options, show) the reader's and the server's language; the answer
        speaks the language just chosen."""
        async with answering(interaction):
            storage = self.bot.storage
            guild_id = app_server(interaction)  # (a server without the bot has no setting)
            if server is not None:
                permissions = interaction.permissions
                if guild_id is None or not (permissions and permissions.manage_guild):
                    raise UserError(texts.SERVER_LANGUAGE_FORBIDDEN)
            said: list[str] = []
            if language is not None:
                chosen = None if language == "auto" else language
                await storage.set_language("user", interaction.user.id, chosen)
                i18n.use(await replies.reader_language(interaction))
                said.append(texts.LANGUAGE_SET if chosen else texts.LANGUAGE_AUTOMATIC)
            if server is not None and guild_id is not None:
                chosen = None if server == "auto" else server
                await storage.set_language("guild", guild_id, chosen)
                i18n.use(await replies.reader_language(interaction))
                if chosen:
                    with i18n.speaking(chosen):
                        said.append(texts.SERVER_LANGUAGE_SET)
                        said[-1] = i18n.tr(said[-1])
                else:
                    said.append(texts.SERVER_LANGUAGE_AUTOMATIC)
            if not said:
                mine, guild = await storage.languages(interaction.user.id, guild_id)
                mine_name = i18n.LANGUAGE_NAMES.get(mine or "", texts.LANGUAGE_NONE)
                said.append(
                    texts.LANGUAGE_SHOWN.format(
                        mine=mine_name,
                        server=i18n.LANGUAGE_NAMES.get(guild or "", texts.LANGUAGE_NONE),
                    )
                    if guild_id is not None
                    else texts.LANGUAGE_SHOWN_MINE.format(mine=mine_name)
                )
            content = " ".join(i18n.tr(sentence) for sentence in said)
            await interaction.response.send_message(content, ephemeral=True)

    @ps.command(name="help", description=_("How to play Photosynthesis with this bot"))
    async def help(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            anywhere = places.anywhere(self.bot.tree.get_command("ps"))
            await interaction.response.send_message(
                embed=embeds.help_embed(anywhere), ephemeral=True
            )


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.lobby = Lobby(bot)
    await bot.add_cog(bot.lobby)
