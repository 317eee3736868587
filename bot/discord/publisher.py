"""The publisher of a game's channel messages: the one place that draws and posts them.

Every cog that changed a game (a turn played, the Expert's move, a timer run out, settings
changed, a player left) hands the game to `Publisher.publish`; lobby messages are redrawn by
`redraw_lobby`, and a game that ended early loses its buttons through `close_messages`. The bot
holds one publisher (`PhotosynthesisBot.publisher`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Final

import aiohttp
import discord

import engine
from bot.discord.replies import with_view
from bot.discord.views import game_view, lobby_view
from bot.present import embeds, i18n, pictures, story, texts
from bot.services import refusals, seats
from bot.services.base import daily_of
from bot.services.seats import seat_label
from bot.storage import GameRow, UnreadableGame
from engine import GameState

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot
    from bot.services import GameService

log = logging.getLogger(__name__)

#: Seconds to wait before editing the public game message during a turn: the edits of a burst
#: of actions are coalesced into one, well within Discord's message edit rate limits.
EDIT_DELAY = 1.5
#: A game message that did not land (Discord's 5xx, a dropped connection) is tried again after
#: this pause, doubled each time up to `RETRY_MAX_S`, until it lands or a newer one is wanted.
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 8.0
#: How often `landed` looks again whether a new turn's post is still on its way.
LANDED_POLL_S = 0.05
GAME_BUTTON = re.compile(r"^ps:(?:turn|sun|log|more):(?P<game>[0-9]+):(?P<version>[0-9]+)$")
#: Discord's limit on a thread name; a game thread archives after a week without messages.
THREAD_NAME_LIMIT = 100
THREAD_ARCHIVE_MINUTES: Final = 10080
#: Discord's error code when a thread was already started from that message.
THREAD_ALREADY_MADE = 160004
#: After a restart, finished games updated this recently get their final message checked too.
RESYNC_FINISHED_WITHIN = timedelta(days=1)


def final_content(game: GameRow, state: GameState) -> str:
    """The last game message's line: who won (congratulated, unless the autopilot holds a
    winning seat for a player who left)."""
    seats = [game.seats[w] for w in engine.winners(state)]
    names = texts.and_list([seat_label(seat) for seat in seats])
    left = any(seat.kind == "human" and seat.user_id is None for seat in seats)
    line = texts.GAME_OVER_WON if left else texts.GAME_OVER_WINNERS
    return i18n.tr(line.format(winners=names))


def thread_name(game_id: int, names: Sequence[str]) -> str:
    """A game thread's name (in the current language): every player named, the longest names
    cut ("Bartholomew…" as "Bartho…") only as much as Discord's `THREAD_NAME_LIMIT` needs."""

    def made(cut: int | None) -> str:
        shown = [n if cut is None or len(n) <= cut else n[: cut - 1] + "\N{HORIZONTAL ELLIPSIS}"
                 for n in names]  # fmt: skip
        return i18n.tr(texts.THREAD_NAME.format(id=game_id, names=", ".join(shown)))

    longest = max((len(n) for n in names), default=0)
    for cut in (None, *range(longest - 1, 1, -1)):
        name = made(cut)
        if len(name) <= THREAD_NAME_LIMIT:
            return name
    return made(2)[:THREAD_NAME_LIMIT]


def pinged(
    content: str | None, named: Sequence[int], modes: dict[int, str]
) -> tuple[str | None, discord.AllowedMentions]:
    """A new game message's line and whom it pings (`/ps follow`): the people it `named` (the
    player to play, or the winners) unless they muted the game, and each follower, named on a
    small line of their own."""
    followers = [user for user, mode in sorted(modes.items()) if mode == "follow"]
    followers = [user for user in followers if user not in named]
    if followers:
        line = "-# " + " ".join(f"<@{user}>" for user in followers)
        content = f"{content}\n{line}" if content else line
    users = [u for u in (*named, *followers) if modes.get(u) != "mute"]
    return content, discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in users]
    )


def bot_to_play(game: GameRow, state: GameState) -> bool:
    """Whether the seat to play is played by no person (an Expert's, or the autopilot's for a
    player who left): its turn gets no game message of its own."""
    if state.is_over or state.current_seat is None:
        return False
    return game.seats[state.current_seat].user_id is None


def version_shown(message: discord.Message) -> int | None:
    """The game version a game message was drawn for (from its buttons' custom_ids)."""
    for row in message.components:
        for item in getattr(row, "children", ()):
            match = GAME_BUTTON.match(getattr(item, "custom_id", None) or "")
            if match:
                return int(match["version"])
    return None


def _worth_retrying(exc: Exception) -> bool:
    """Whether a request that failed may land if tried again: Discord's 5xx, a rate limit that
    discord.py gave up waiting out (429), a dropped connection or a timeout; not a 4xx."""
    if isinstance(exc, discord.HTTPException):
        return isinstance(exc, discord.DiscordServerError) or exc.status == 429
    return True


async def until_done(
    running: Callable[[], set[asyncio.Task[object]]], deadline: float
) -> set[asyncio.Task[object]]:
    """Wait until the tasks `running()` names (asked again after each wait: new ones may have
    started) are done, or until the loop's `deadline`; the tasks still running then."""
    loop = asyncio.get_running_loop()
    while (tasks := running()) and (left := deadline - loop.time()) > 0:
        await asyncio.wait(tasks, timeout=left)
    return running()


@dataclass
class _Hold:
    """The games published inside `Publisher.holding`, in order."""

    wanted: list[tuple[GameRow, GameState | None]] = field(default_factory=list)
    open: bool = True


_HOLD: ContextVar[_Hold | None] = ContextVar("publisher_hold", default=None)


class Publisher:
    """Draws and posts the game message (and the lobby and result messages) of every game."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        #: game id -> (game message id, `engine.turn_id` of the turn it shows)
        self._shown: dict[int, tuple[int, str]] = {}
        #: game id -> the newest position asked for and not yet drawn (latest wins)
        self._wanted: dict[int, tuple[GameRow, GameState]] = {}
        #: game id -> its worker, drawing its wanted positions one at a time
        self._workers: dict[int, asyncio.Task[None]] = {}
        #: game id -> the edit of its message in flight, and what tells its worker to stop
        #: waiting for it when a new turn comes (`_dropped`)
        self._editing: dict[int, asyncio.Task[discord.Message]] = {}
        self._dropping: dict[int, asyncio.Future[None]] = {}
        #: message id -> an edit of an old turn the worker stopped waiting for, left to land:
        #: never cancelled, as discord.py's request must not be (`_dropped`); the message's
        #: buttons come off after it (`_strip_all`)
        self._left: dict[int, asyncio.Task[discord.Message]] = {}
        #: game id -> set when a new turn cuts the worker's wait before an edit short
        self._woken: dict[int, asyncio.Event] = {}
        #: game id -> old game messages whose buttons are still to be taken off, and the task
        #: doing it
        self._to_strip: dict[int, list[tuple[int, int]]] = {}
        self._strippers: dict[int, asyncio.Task[None]] = {}
        #: game id -> the version its messages were last drawn (or closed) for: one number per
        #: game this process drew, so that a redraw that waited never goes back in time
        self._drawn: dict[int, int] = {}
        #: the games whose worker is posting a new turn's message (`landed`)
        self._posting: set[int] = set()
        #: set by `stop` at shutdown: no new work starts
        self._stopped = False
        #: game id -> the states of the actions its message told last (`_story`)
        self._told: dict[int, dict[int, tuple[int, GameState]]] = {}

    @property
    def games(self) -> GameService:
        return self.bot.games

    # --- the game message ---

    async def game_message_parts(
        self, game: GameRow, state: GameState | None = None, *, background: bool = True
    ) -> tuple[discord.Embed, discord.File, discord.ui.View | None]:
        """Embed, board picture and view of a started game, in the language of the moment (the
        game's for its channel message, the reader's for a private copy). The channel's picture
        is drawn in the `background` (nobody waits on it: the players' answers are drawn first);
        a private copy someone waits for asks `background=False`."""
        if state is None:
            state = await self.games.core.state(game)
        turns = await self._story(game, state)
        picture = await pictures.picture(
            state,
            highlight=story.changed_spaces(turns),
            names=seats.seat_names(game),
            lang=i18n.current(),
            layout=pictures.GAME_LAYOUT,
            background=background,
        )
        file = pictures.as_file(picture, embeds.BOARD_FILE)
        note = await self.bot.correspondence.timer_note(game, state)
        notes = [] if note is None else [note]
        glance = (story.story_title(game, state), turns)
        embed = embeds.game_embed(game, state, notes=notes, glance=glance)
        web_url = None
        if self.bot.settings.web is not None:
            web_url = await self.bot.web_url(self.games.web.game_path(game))
        return embed, file, game_view(game, state, web_url)

    async def details(self, game: GameRow, state: GameState) -> discord.Embed:
        """The game message's Details (in the language of the moment: the reader's): what each
        seat has and the story since the player to play last played, with every reason."""
        turns = await self._story(game, state)
        told = (story.story_title(game, state), story.lines_of(game, turns))
        return embeds.details_embed(game, state, told)

    async def _story(self, game: GameRow, state: GameState) -> list[story.Turn[story.Move]]:
        """The turns the game message tells (`story.tell`): since the player to play last
        finished a turn, with their events and the spaces they changed. The states of the
        actions told are kept while the game is played, so that the next telling replays only
        what came since."""
        rows = await self.games.records.log(game)
        if not rows:
            return []
        keep: dict[int, tuple[int, GameState]] = {}
        turns = await asyncio.to_thread(
            story.tell, game, state, rows, self._told.get(game.id), keep
        )
        if game.status == "active" and not state.is_over:
            self._told[game.id] = keep
        else:
            self._told.pop(game.id, None)
        return turns

    @contextlib.asynccontextmanager
    async def holding(self) -> AsyncIterator[None]:
        """Inside the block (a click being answered: `replies.answering`; a timed-out turn whose
        notice is posted first), `publish` only notes the games asked for; they are published
        when it ends, so that the answer or the notice comes before the game message (and its
        picture does not take a worker from the answer's). Tasks started inside the block see
        it too while it lasts."""
        hold = _Hold()
        token = _HOLD.set(hold)
        try:
            yield
        finally:
            _HOLD.reset(token)
            hold.open = False
            for game, state in hold.wanted:
                await self._publish_now(game, state)

    async def publish(self, game: GameRow, state: GameState | None = None) -> None:
        """What follows every commit (`bot.discord.pipeline`), and a change that was no play
        (settings, a seat left): bring the channel's game message up to date; inside `holding`,
        once it ends. A daily challenge has no channel message (`/ps daily` answers privately)."""
        if daily_of(game) is not None:
            return
        hold = _HOLD.get()
        if hold is not None and hold.open:
            hold.wanted.append((game, state))
            return
        await self._publish_now(game, state)

    async def _publish_now(self, game: GameRow, state: GameState | None = None) -> None:
        """Bring the channel's game message up to date with `game` as just stored (and its
        `state`, when the caller has it): what a click's service returned, passed along, not
        read again.

        The message is drawn by the game's own worker (`_work`) and this returns at once: the
        game's newest position is kept (a later call replaces an earlier one not yet drawn),
        so that under Discord's rate limits the newest position wins and nothing waits behind
        a stale picture. When the turn passes to a person (or the game ends) a new message is
        posted, mentioning the next player, and the old one loses its buttons (`_strip`, on its
        own); an edit of the old turn still waiting for its rate limit is not waited for (it
        lands by itself, before the strip: `_dropped`). During one
        turn the message is edited in place, `EDIT_DELAY` seconds after the first change (later
        changes ride along); so is it when a bot's turn begins (`bot_to_play`): a bot's turn
        gets no message of its own, the next person's message tells it. A post or edit that
        fails on Discord's side (5xx, a dropped connection) is retried until it lands or a
        newer position replaces it; a post carries a nonce (`enforce_nonce`), so a retried post
        that had landed is not doubled.
        """
        try:
            if game.config is None:
                return
            with i18n.speaking(game.language):
                if state is None:
                    state = await self.games.core.state(game)
            wanted = self._wanted.get(game.id)
            if wanted is None or game.version >= wanted[0].version:
                self._wanted[game.id] = (game, state)
            if self._new_turn(game.id, state):
                dropping = self._dropping.get(game.id)
                if dropping is not None and not dropping.done():  # an edit of the old turn
                    dropping.set_result(None)  # (waiting on its bucket): post without it
                woken = self._woken.get(game.id)
                if woken is not None:  # a delayed edit: post the new turn now instead
                    woken.set()
            worker = self._workers.get(game.id)
            if (worker is None or worker.done()) and not self._stopped:
                self._workers[game.id] = asyncio.create_task(self._work(game.id))
        except UnreadableGame:
            return  # quarantined and logged where it was found
        except Exception:  # the move is committed; a failed redraw must not read as a refusal
            log.exception("could not update the game message", extra={"game_id": game.id})

    async def publish_latest(self, game_id: int) -> None:
        """`publish` the game as stored now (for a caller that holds only its id)."""
        try:
            game = await self.games.core.get_game(game_id)
        except UnreadableGame:
            return  # quarantined and logged where it was found
        except Exception:
            log.exception("could not read a game to publish", extra={"game_id": game_id})
            return
        if game is not None:
            await self.publish(game)

    async def stop(self, deadline: float | None = None) -> None:
        """At shutdown, before the connection to Discord closes: let the games' posts, edits and
        button strips under way finish until the loop's `deadline`, then cancel what is left and
        wait until it has stopped (left running, each would fail on the closed session and log
        it as our error). Nothing is lost: every action is stored, and the next start's `resync`
        redraws a game message that was not brought up to date. Work asked for after the
        cancelling is not started."""
        if deadline is not None:
            await until_done(self._running, deadline)
        self._stopped = True
        left_over = [*self._running(), *self._editing.values(), *self._left.values()]
        if left_over:
            log.info(
                "shutdown: game messages left to the next start", extra={"count": len(left_over)}
            )
        for task in left_over:
            task.cancel()
        await asyncio.gather(*left_over, return_exceptions=True)

    def _running(self) -> set[asyncio.Task[object]]:
        """The games' workers and button strips not yet done."""
        return {t for t in (*self._workers.values(), *self._strippers.values()) if not t.done()}

    async def settled(self, game_id: int) -> None:
        """Wait until the game's worker has drawn everything asked of it (tests, shutdown)."""
        while (worker := self._workers.get(game_id)) is not None and not worker.done():
            await asyncio.wait({worker})

    async def landed(self, game_id: int, timeout: float) -> bool:
        """Whether the game's message shows its newest turn, waiting up to `timeout` seconds
        while a new turn's post is on its way (it may wait for Discord's rate limit)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._post_pending(game_id):
            left = deadline - loop.time()
            worker = self._workers.get(game_id)
            if left <= 0 or worker is None:
                return False
            await asyncio.wait({worker}, timeout=min(left, LANDED_POLL_S))
        return True

    def _post_pending(self, game_id: int) -> bool:
        """Whether a new turn is being posted, or waits for the game's worker to post it."""
        wanted = self._wanted.get(game_id)
        return game_id in self._posting or (
            wanted is not None and self._new_turn(game_id, wanted[1])
        )

    def _new_turn(self, game_id: int, state: GameState) -> bool:
        """Whether `state` needs a new game message (not an edit of the one shown)."""
        shown = self._shown.get(game_id)
        return shown is None or shown[1] != engine.turn_id(state) or state.is_over

    async def _work(self, game_id: int) -> None:
        """Draw the game's newest wanted position until none is left (one worker per game)."""
        try:
            while (wanted := self._wanted.pop(game_id, None)) is not None:
                game, state = wanted
                if not self._new_turn(game_id, state):
                    # During a turn: wait a little (a new turn cuts it short), then edit once
                    # with whatever came since.
                    woken = self._woken[game_id] = asyncio.Event()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(woken.wait(), EDIT_DELAY)
                    self._woken.pop(game_id, None)
                    game, state = self._wanted.pop(game_id, (game, state))
                if self._new_turn(game_id, state):
                    self._posting.add(game_id)
                try:
                    await self._until_landed(game, state)
                except UnreadableGame:
                    return  # quarantined and logged where it was found
                except Exception:
                    log.exception("could not update the game message", extra={"game_id": game_id})
                finally:
                    self._posting.discard(game_id)
        finally:
            if self._workers.get(game_id) is asyncio.current_task():
                del self._workers[game_id]

    async def _until_landed(self, game: GameRow, state: GameState) -> None:
        """Draw `game` (post or edit); on Discord's failure (5xx, a dropped connection) try
        again after a pause, until it lands or a newer position is wanted (drawn next)."""
        pause = RETRY_FIRST_S
        while True:
            try:
                await self._publish(game, state)
                return
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as exc:
                if not _worth_retrying(exc):
                    raise
                log.warning("the game message did not land: retrying", extra={"game_id": game.id})
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX_S)
            if game.id in self._wanted:
                return  # a newer position is drawn instead

    async def _publish(self, game: GameRow, state: GameState | None = None) -> None:
        if game.version < self._drawn.get(game.id, 0):
            # A later version was drawn (or the game closed) while this one waited: draw the
            # game as stored now, never an older position over a newer one.
            fresh = await self.games.core.get_game(game.id)
            if fresh is None:
                return
            game, state = fresh, None
        if game.config is None or game.status not in ("active", "over"):
            return
        with i18n.speaking(game.language):  # a channel message: the game's language
            if state is None:
                state = await self.games.core.state(game)
            game_id = game.id
            embed, file, view = await self.game_message_parts(game, state)
            said: str | None
            if state.is_over:  # the winners are named, and pinged
                said = final_content(game, state)
                named = [game.seats[w].user_id for w in engine.winners(state)]
            else:  # the person to play (none for a bot)
                seat = None if state.current_seat is None else game.seats[state.current_seat]
                named = [None if seat is None else seat.user_id]
                said = (
                    None
                    if named[0] is None
                    else i18n.tr(texts.YOUR_TURN_MENTION.format(user=f"<@{named[0]}>"))
                )
            modes = await self.bot.storage.follow_modes(game_id)
            content, pings = pinged(said, [u for u in named if u is not None], modes)
            channel = self.bot.get_partial_messageable(await self.game_thread(game))
            stored = await self.bot.storage.message(game_id, "game")
            shown = self._shown.get(game_id)
            turn = engine.turn_id(state)
            if (
                stored is not None
                and not state.is_over
                and (shown == (stored[1], turn) or bot_to_play(game, state))
            ):
                # The same turn goes on, or a bot's turn (the Expert, the autopilot) begins:
                # no message of its own, the last one is brought up to date in place and the
                # next person's message tells what the bot did.
                message = channel.get_partial_message(stored[1])
                edit = asyncio.create_task(
                    message.edit(content=content, embed=embed, attachments=[file], view=view)
                )
                dropping = asyncio.get_running_loop().create_future()
                self._editing[game_id], self._dropping[game_id] = edit, dropping
                try:
                    await asyncio.wait({edit, dropping}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    if self._editing.get(game_id) is edit:
                        del self._editing[game_id], self._dropping[game_id]
                if not edit.done():  # a new turn is posted instead: this one lands on its own
                    self._dropped(game_id, stored[1], edit)
                    return
                edit.result()
                self._drawn[game_id] = max(game.version, self._drawn.get(game_id, 0))
                self._shown[game_id] = (stored[1], turn)
                return
            # The nonce makes Discord return the message already made instead of a second one
            # when a post is retried (a 5xx after it landed, a restart before its id was kept).
            message = await channel.send(
                content=content,
                embed=embed,
                file=file,
                allowed_mentions=pings,
                nonce=f"g{game_id}.{game.version}",
                **with_view(view),
            )
            self._drawn[game_id] = max(game.version, self._drawn.get(game_id, 0))
            await self.bot.storage.set_message(game_id, "game", channel.id, message.id)
            if stored is not None and stored[1] != message.id:
                self._strip(game_id, stored)
            if state.is_over:
                await self._announce_result(game, state, said)
            if state.is_over:  # its last message: nothing more is edited in place
                self._shown.pop(game_id, None)
            else:
                self._shown[game_id] = (message.id, engine.turn_id(state))

    def _dropped(self, game_id: int, message_id: int, edit: asyncio.Task[discord.Message]) -> None:
        """Leave an edit of an old turn to land by itself, not waited for (its message's buttons
        come off after it). It is not cancelled: discord.py's request, cancelled while it sleeps
        off Discord's global rate limit, never lifts its global lock, and every later request of
        the process would wait for it for ever (the same bug as DisnakeDev/disnake#1585)."""
        self._left[message_id] = edit

        def landed(task: asyncio.Task[discord.Message]) -> None:
            if self._left.get(message_id) is task:
                del self._left[message_id]
            if not task.cancelled() and task.exception() is not None:
                log.info("an old turn's edit did not land", extra={"game_id": game_id})

        edit.add_done_callback(landed)

    def _strip(self, game_id: int, message: tuple[int, int]) -> None:
        """Take the buttons off an old game message, beside the game's worker (the next turn's
        post never waits for this edit's rate limit)."""
        self._to_strip.setdefault(game_id, []).append(message)
        stripper = self._strippers.get(game_id)
        if (stripper is None or stripper.done()) and not self._stopped:
            self._strippers[game_id] = asyncio.create_task(self._strip_all(game_id))

    async def _strip_all(self, game_id: int) -> None:
        try:
            while self._to_strip.get(game_id):
                channel_id, message_id = self._to_strip[game_id].pop(0)
                left = self._left.get(message_id)
                if left is not None:  # an old turn's edit, left to land: the strip comes after
                    await asyncio.wait({left})
                message = self.bot.get_partial_messageable(channel_id).get_partial_message(
                    message_id
                )
                pause = RETRY_FIRST_S
                while True:
                    try:
                        await message.edit(view=None)
                        break
                    except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as e:
                        if not _worth_retrying(e):
                            log.info("old game message not editable", extra={"game_id": game_id})
                            break
                        await asyncio.sleep(pause)
                        pause = min(pause * 2, RETRY_MAX_S)
        finally:
            self._to_strip.pop(game_id, None)
            if self._strippers.get(game_id) is asyncio.current_task():
                del self._strippers[game_id]

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
            name = thread_name(game.id, [i18n.tr(name) for name in seats.seat_names(game)])
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

    async def announce(self, game: GameRow, content: str) -> bool:
        """Tell a game's players something about it (a setting changed, a player left, the game
        abandoned) in its thread, pinging no one; False, and nothing posted, when the game has
        no thread (a lobby): the channel keeps only its lobby and result messages."""
        thread = await self.bot.storage.message(game.id, "thread")
        if thread is None:
            return False
        try:
            await self.bot.get_partial_messageable(thread[0]).send(
                content, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.warning("could not post in the game's thread", extra={"game_id": game.id})
            return False
        return True

    async def _announce_result(self, game: GameRow, state: GameState, content: str | None) -> None:
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
            content=content, embed=embed, file=file, nonce=f"result:{game.id}", **with_view(view)
        )
        await self.bot.storage.set_message(game.id, "result", game.channel_id, message.id)

    async def resync(self) -> None:
        """Bring game messages up to date after a restart (from `Play.cog_load`: logged in, not
        yet connected to the gateway, so no click can race with it).

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
            if not self.bot.serves(game.guild_id) or daily_of(game) is not None:
                continue  # another process's shard; a daily challenge (no channel message)
            try:
                await self.games.core.checked(game)
                stored = await self.bot.storage.message(game.id, "game")
                if stored is not None:
                    channel = self.bot.get_partial_messageable(stored[0])
                    try:
                        message = await channel.fetch_message(stored[1])
                    except discord.NotFound:
                        message = None
                    if message is not None and version_shown(message) == game.version:
                        state = await self.games.core.state(game)
                        self._shown[game.id] = (message.id, engine.turn_id(state))
                        if state.is_over:  # died between the last game message and the result
                            with i18n.speaking(game.language):
                                final = final_content(game, state)
                                await self._announce_result(game, state, final)
                        continue
                log.info("redrawing a game message after a restart", extra={"game_id": game.id})
                await self.publish(game)
            except UnreadableGame:
                continue  # quarantined and logged; every other game is still served
            except Exception:
                log.exception("could not resync a game message", extra={"game_id": game.id})

    # --- the lobby message, and the end of a game without a winner ---

    async def redraw_lobby(self, game: GameRow) -> None:
        """Redraw a game's public lobby message as stored (nothing when it has none)."""
        stored = await self.bot.storage.message(game.id, "lobby")
        if stored is None:
            return
        message = self.bot.get_partial_messageable(stored[0]).get_partial_message(stored[1])
        with i18n.speaking(game.language):
            embed, view = embeds.lobby_embed(game), lobby_view(game)
        try:
            await message.edit(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("could not redraw the lobby", extra={"game_id": game.id})

    async def _abandoned_picture(self, game: GameRow, state: GameState) -> discord.File:
        """The game message's picture of an abandoned game (nobody to play, in words too)."""
        picture = await pictures.picture(
            state,
            names=seats.seat_names(game),
            lang=i18n.current(),
            layout=pictures.GAME_LAYOUT,
            abandoned=True,
        )
        return pictures.as_file(picture, embeds.BOARD_FILE)

    async def close_messages(self, game: GameRow) -> None:
        """Take the buttons off an ended game's lobby and game messages (and drop the states
        its story kept: nothing more is told of it)."""
        self._drawn[game.id] = max(game.version, self._drawn.get(game.id, 0))
        self._told.pop(game.id, None)
        with i18n.speaking(game.language):
            for kind in ("lobby", "game"):
                stored = await self.bot.storage.message(game.id, kind)
                if stored is None:
                    continue
                channel_id, message_id = stored
                channel = self.bot.get_partial_messageable(channel_id)
                message = channel.get_partial_message(message_id)
                try:
                    if kind == "lobby":
                        await message.edit(embed=embeds.lobby_embed(game), view=None)
                    else:  # no turn, no timer: the embed and the picture say the game was abandoned
                        state = (
                            await self.games.core.state(game) if game.config is not None else None
                        )
                        embed = embeds.ended_embed(game, state)
                        content = i18n.tr(refusals.GAME_ABANDONED)
                        picture = (
                            None if state is None else await self._abandoned_picture(game, state)
                        )
                        files = [] if picture is None else [picture]
                        await message.edit(
                            content=content, embed=embed, view=None, attachments=files
                        )
                except discord.HTTPException:
                    log.warning(
                        "could not edit a message", extra={"game_id": game.id, "kind": kind}
                    )
