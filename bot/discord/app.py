"""The bot: a `commands.Bot` subclass that wires storage, the game service, cogs and
persistent components together, syncs the slash commands and runs background upkeep."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, TypedDict

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.config import Settings, fixed_seed_from_env
from bot.discord import replies
from bot.discord.daily_views import DAILY_ITEMS
from bot.discord.learn_views import LEARN_ITEMS
from bot.discord.offered import offered_component, undeclared_choice
from bot.discord.pipeline import Pipeline
from bot.discord.places import ServerOnly, server_only, subcommand, usable_here
from bot.discord.publisher import Publisher, until_done
from bot.discord.puzzle_views import PUZZLE_ITEMS
from bot.discord.replies import ephemeral
from bot.discord.review_views import REVIEW_ITEMS
from bot.discord.views import PERSISTENT_ITEMS, unknown_component
from bot.present import i18n, pictures, texts
from bot.services import GameService, experts, refusals
from bot.services.clock import Clock, clock_from_env, stored_time
from bot.storage import Storage, UnreadableGame
from bot.storage.databases import open_storage

if TYPE_CHECKING:
    from bot.discord.cogs.board import Board
    from bot.discord.cogs.correspondence import CorrespondenceCog
    from bot.discord.cogs.daily import DailyCog
    from bot.discord.cogs.expert import ExpertCog
    from bot.discord.cogs.learn import Learn
    from bot.discord.cogs.lobby import Lobby
    from bot.discord.cogs.play import Play
    from bot.discord.cogs.players import Players
    from bot.discord.cogs.puzzles import Puzzles
    from bot.discord.cogs.web import WebCog

log = logging.getLogger(__name__)

#: The cogs, loaded by name in this order (`bot.discord.cogs.lobby` owns the `/ps` group: first).
EXTENSIONS = (
    "bot.discord.cogs.lobby",
    "bot.discord.cogs.play",
    "bot.discord.cogs.board",
    "bot.discord.cogs.correspondence",
    "bot.discord.cogs.expert",
    "bot.discord.cogs.players",
    "bot.discord.cogs.learn",
    "bot.discord.cogs.puzzles",
    "bot.discord.cogs.daily",
    "bot.discord.cogs.web",
)

#: Every persistent component: the games' and the tutorial's.
COMPONENTS = (*PERSISTENT_ITEMS, *LEARN_ITEMS, *REVIEW_ITEMS, *PUZZLE_ITEMS, *DAILY_ITEMS)

#: A lobby nobody touched for this long is closed and its channel freed.
LOBBY_MAX_AGE = timedelta(hours=24)
UPKEEP_EVERY_MINUTES = 30

#: At a shutdown (SIGTERM, Ctrl-C), the answers under way and the game messages they changed
#: get this long to land before the connection to Discord closes (systemd and Docker wait 10 s
#: before they kill).
SHUTDOWN_GRACE_S = 5.0


# The bot has no voice features: silence discord.py's warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


#: Fields of a command that Discord adds to what the bot sent (compared by `same_commands`).
ADDED_BY_DISCORD = frozenset({"id", "application_id", "version", "guild_id", "default_permission"})


def same_commands(
    ours: Sequence[Mapping[str, object]], theirs: Sequence[Mapping[str, object]]
) -> bool:
    """Whether the commands Discord has (`theirs`, as fetched) are the ones the bot would sync
    (`ours`, the payload of a sync): the same names, and in each the same fields, values and
    option order, a field that is absent counting as empty (None, false, [] or {}) and the
    fields Discord adds (`ADDED_BY_DISCORD`) left out. Any doubt reads as a difference: a
    needless sync costs one request, a missed one leaves the old commands."""
    by_name = {command.get("name"): command for command in theirs}
    if len(by_name) != len(ours) or set(by_name) != {c.get("name") for c in ours}:
        return False
    return all(_same_field(command, by_name[command.get("name")]) for command in ours)


def _same_field(ours: object, theirs: object) -> bool:
    if isinstance(ours, Mapping) and isinstance(theirs, Mapping):
        keys = (ours.keys() | theirs.keys()) - ADDED_BY_DISCORD
        return all(_same_field(ours.get(key), theirs.get(key)) for key in keys)
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(map(_same_field, ours, theirs))
    if ours in (None, False, [], {}) and theirs in (None, False, [], {}):
        return True
    if isinstance(ours, (int, str)) and isinstance(theirs, (int, str)):
        return ours == theirs or (type(ours) is not type(theirs) and str(ours) == str(theirs))
    return ours == theirs


class NotOffered(app_commands.CheckFailure):
    """A slash command option's value that is none of the choices the command declares (a
    modified client's: Discord's offers only those)."""


class CommandTree(app_commands.CommandTree):
    """The slash commands, each checked before it runs: a `/ps` subcommand used outside a
    server that added the bot works only if it is one of `places.ANYWHERE` (else `ServerOnly`
    is answered, and its autocomplete offers nothing); every option that declares choices holds
    one of them (`offered.undeclared_choice`), else `NotOffered` is answered."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        kind = interaction.type
        if kind is discord.InteractionType.autocomplete and not usable_here(interaction):
            await interaction.response.autocomplete([])
            return False
        if kind is discord.InteractionType.application_command:
            if not usable_here(interaction):
                raise ServerOnly(subcommand(interaction) or "")
            option = undeclared_choice(interaction)
            if option is not None:
                raise NotOffered(option)
        return True


class Shards(TypedDict, total=False):
    """The shards this process runs (discord.py's keyword arguments; none: every guild)."""

    shard_count: int
    shard_ids: list[int]


class PhotosynthesisBot(commands.Bot):
    """The Photosynthesis bot. Needs no privileged intents: only slash commands and
    components, answered through interactions and channel messages."""

    storage: Storage
    games: GameService
    clock: Clock
    #: The cogs, each set by its extension's `setup`: components and commands reach their
    #: handlers through these typed attributes (no cog looked up by name).
    lobby: Lobby
    play: Play
    board: Board
    correspondence: CorrespondenceCog
    expert: ExpertCog
    players: Players
    learn: Learn
    puzzles: Puzzles
    daily: DailyCog
    web: WebCog

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        shards: Shards = {}
        if settings.shard_count is not None:
            shards = {
                "shard_count": settings.shard_count,
                "shard_ids": list(settings.shard_ids or ()),
            }
        # discord.py types Bot's options without shard_ids, which Bot passes on along the MRO:
        # to AutoShardedBot, that takes them (`ShardedPhotosynthesisBot`, the only bot given some)
        super().__init__(  # type: ignore[misc]  # discord.py's Bot options omit shard_ids
            **shards,
            command_prefix=commands.when_mentioned,
            tree_cls=CommandTree,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        #: The one publisher of the games' channel messages, which every cog calls.
        self.publisher = Publisher(self)
        #: The interactions being answered (`replies.answering`), finished before a shutdown.
        self.answers_under_way: set[asyncio.Task[object]] = set()
        #: What starts with the bot once its services are set up (the web companion, when
        #: WEB_PORT is set: `bot.__main__`), and what stops before its storage closes.
        self.when_set_up: list[Callable[[], Awaitable[None]]] = []
        self.when_closing: list[Callable[[], Awaitable[None]]] = []

    async def web_url(self, path: Awaitable[str | None]) -> str | None:
        """The address of a page of the web companion (`path`: a `bot.services.web` link's),
        or None when it is off: not running here (no WEB_PORT), or not on in that server."""
        web = self.settings.web
        found = await path
        return None if web is None or found is None else web.url + found

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of a guild, `(guild_id >> 22) % SHARD_COUNT`
        (always without shards). Start-up redraws and upkeep leave the others' games alone."""
        count = self.settings.shard_count
        if count is None or guild_id is None:
            return True
        return (guild_id >> 22) % count in (self.settings.shard_ids or range(count))

    async def setup_hook(self) -> None:
        """Open storage, load the cogs, register the persistent components, sync the
        commands and start the background upkeep (runs once, before connecting)."""
        pictures.drawer()  # a malformed PICTURE_WORKERS stops the start, not the first picture
        #: The time of this process: the turn timers' and the seasons' (a test's file clock,
        #: `bot.services.clock`), with which the storage stamps its rows.
        self.clock = clock_from_env()
        self.storage = await open_storage(
            self.settings.database_url, self.settings.database_path, stored_time(self.clock)
        )
        seed = fixed_seed_from_env()
        if seed is not None:
            log.warning(
                "FIXED GAME SEED IN USE (tests only): every game gets it", extra={"seed": seed}
            )
        self.games = GameService(
            self.storage,
            seed_source=None if seed is None else lambda: seed,
            clock=self.clock.now,
        )
        await self.games.daily.secret()  # made at the deployment's first start, then kept
        rebuilt = await self.games.players.catch_up()  # games finished before results were kept
        if rebuilt is not None:
            log.info(
                "ratings rebuilt", extra={"games": rebuilt.games, "recorded": rebuilt.recorded}
            )
        added = await self.games.puzzles.ensure_shipped()  # the shipped puzzles, once
        if added:
            log.info("shipped puzzles stored", extra={"count": added})
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # What follows every commit, in order, in one place (`bot.discord.pipeline`).
        self.games.core.after = Pipeline(
            self.correspondence.service.timers, self.publisher, self.games.driver
        )
        await self.publisher.resync()  # the game messages a stop left behind their games
        self.add_dynamic_items(*COMPONENTS)
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(i18n.CommandTranslator())
        await self.sync_commands()
        self.upkeep.start()
        for start in self.when_set_up:
            await start()
        log.info("setup done", extra={"database": self.storage.dialect})

    async def sync_commands(self) -> None:
        """Sync the slash commands: to the development guild when DEV_GUILD_ID is set
        (instant), otherwise globally; only when Discord's differ from ours (`same_commands`):
        a restart with the same commands sends no sync, whose limits are shared by every
        process of the application."""
        guild = None
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        assert self.application_id is not None and translator is not None  # (set up above)
        ours = [  # what `tree.sync` would send
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree._get_all_commands(guild=guild)
        ]
        if guild is None:
            theirs = await self.http.get_global_commands(self.application_id)
        else:
            theirs = await self.http.get_guild_commands(self.application_id, guild.id)
        where = {"guild_id": guild.id} if guild is not None else {}
        if same_commands(ours, theirs):
            log.info("commands unchanged: not synced", extra={"count": len(ours), **where})
            return
        synced = await self.tree.sync(guild=guild)
        log.info("commands synced", extra={"count": len(synced), **where})

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component none of ours answers to (a forged or unknown custom_id), or one the
        message clicked does not carry (discord.py drops such a click unanswered), gets one
        sentence; the bot's own components are answered by their `DynamicItem`."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if unknown_component(custom_id, COMPONENTS):
            sentence = texts.UNKNOWN_COMPONENT
        elif offered_component(interaction) is None:
            sentence = refusals.NOT_OFFERED
        else:
            return
        with contextlib.suppress(discord.HTTPException):
            i18n.use(await replies.reader_language(interaction))
            await ephemeral(interaction, sentence)

    async def _finish_answers(self, deadline: float) -> None:
        """Wait until no interaction is being answered, or until the loop's `deadline`."""
        me = asyncio.current_task()
        left = await until_done(lambda: self.answers_under_way - {me}, deadline)
        if left:
            log.warning("shutting down with answers under way", extra={"count": len(left)})

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Errors outside the handlers' own guard (checks, argument conversion): log them and
        answer with one private sentence, never a traceback."""
        if isinstance(error, app_commands.NoPrivateMessage):
            sentence = texts.GUILD_ONLY
        elif isinstance(error, ServerOnly):
            sentence = server_only(f"/ps {error.args[0]}", self.tree.get_command("ps"))
        elif isinstance(error, NotOffered):
            sentence = refusals.NOT_OFFERED
            log.info("an undeclared choice refused", extra={"option": error.args[0]})
        else:
            sentence = texts.INTERNAL_ERROR
            log.error("command failed", exc_info=error, extra={"user_id": interaction.user.id})
        with contextlib.suppress(Exception):
            i18n.use(await replies.reader_language(interaction))
        with contextlib.suppress(discord.HTTPException):
            await ephemeral(interaction, sentence)

    async def on_ready(self) -> None:
        log.info("ready", extra={"user": str(self.user), "guilds": len(self.guilds)})

    @tasks.loop(minutes=UPKEEP_EVERY_MINUTES)
    async def upkeep(self) -> None:
        """Close idle lobbies; let Cynthia finish any turn a crash interrupted. Survives any
        exception: one game's failure is logged and the others are served; a failed run is
        logged and the loop runs again next time (a stopped loop would stop these for all)."""
        try:
            await self._expire_lobbies()
        except Exception:
            log.exception("upkeep: lobby expiry failed")
        try:
            await self._resume_automa()
        except Exception:
            log.exception("upkeep: resuming Cynthia failed")
        try:
            await self._mine_puzzles()
        except Exception:
            log.exception("upkeep: finding puzzles in finished games failed")

    async def _mine_puzzles(self) -> None:
        """Search a few positions of finished games for puzzles (`PuzzleService.mine`: low
        priority and bounded, in the Expert's workers), from the upkeep's second run on (a
        start stays quick), in one process of several (the one running shard 0: two never
        check the same positions)."""
        ids = self.settings.shard_ids
        mines = self.settings.shard_count is None or ids is None or 0 in ids
        if mines and self.upkeep.current_loop > 0:
            await self.games.puzzles.mine()

    async def _expire_lobbies(self) -> None:
        for game in await self.games.endings.expire_lobbies(LOBBY_MAX_AGE):
            log.info("lobby expired", extra={"game_id": game.id})
            try:
                await self.publisher.close_messages(game)
            except Exception:
                log.exception("upkeep: closing an expired lobby failed", extra={"game_id": game.id})

    async def _resume_automa(self) -> None:
        for game in await self.storage.games_with_status("active"):
            if not self.serves(game.guild_id):  # another process's shard
                continue
            try:
                result = await self.games.bots.resume_automa(game.id)
                if result is not None:
                    log.info("automa resumed", extra={"game_id": game.id})
            except UnreadableGame:
                continue  # quarantined and logged once; every other game is still served
            except Exception:
                log.exception("upkeep: resuming Cynthia failed", extra={"game_id": game.id})

    @upkeep.before_loop
    async def _before_upkeep(self) -> None:
        await self.wait_until_ready()

    @upkeep.error
    async def _upkeep_error(self, error: BaseException) -> None:
        log.error("upkeep failed", exc_info=error)

    async def close(self) -> None:
        """Stop the upkeep; let the answers under way and the game messages they changed land
        (`SHUTDOWN_GRACE_S` at most: then the game messages left are cancelled, and an answer
        still under way is cut off by the disconnection; every action is stored, and the next
        start redraws what was not shown); disconnect, then close storage."""
        log.info("shutting down")
        self.upkeep.cancel()
        deadline = asyncio.get_running_loop().time() + SHUTDOWN_GRACE_S
        await self._finish_answers(deadline)
        await self.publisher.stop(deadline)
        await super().close()
        for stop in self.when_closing:
            try:
                await stop()
            except Exception:
                log.exception("closing failed")
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()
        await asyncio.to_thread(pictures.shutdown)
        await asyncio.to_thread(experts.shutdown)


class ShardedPhotosynthesisBot(PhotosynthesisBot, commands.AutoShardedBot):
    """The bot running the shards SHARD_IDS of SHARD_COUNT (discord.py's sharded client): one of
    several processes sharing a PostgreSQL database. Each guild's events reach the process
    running its shard `(guild_id >> 22) % SHARD_COUNT`."""


def create_bot(settings: Settings) -> PhotosynthesisBot:
    """The bot for these settings: sharded when SHARD_COUNT is set."""
    if settings.shard_count is None:
        return PhotosynthesisBot(settings)
    return ShardedPhotosynthesisBot(settings)
