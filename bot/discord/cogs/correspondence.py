"""Correspondence games on Discord: `/ps settings`, `/ps notify`, `/ps vacation`, `/ps leave`,
`/ps games`, and the scheduler that fires turn deadlines and reminders.

The decisions are `bot.services.correspondence`'s; this cog turns commands into its calls and its results
into messages. Loading the cog (in `setup_hook`) builds the clock (`bot.services.clock`), registers the
turn timers as the game service's turn planner and commit hook, and starts the scheduler
(`bot.services.scheduler`), which waits until the bot is ready, plans any turn a crash left unplanned,
and then fires due jobs.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs import SubCommand
from bot.discord.replies import answering, send_private
from bot.present import correspondence_texts as ct
from bot.present import i18n, texts
from bot.present.correspondence_texts import (
    FollowChoice,
    LeaveChoice,
    TimeoutChoice,
    TimerChoice,
    timer_options,
)
from bot.services.base import UserError
from bot.services.clock import install_poke_signal
from bot.services.correspondence import Correspondence
from bot.services.scheduler import SHARED_POLL, Job, JobStore, Scheduler
from bot.services.seats import mention, seat_label
from bot.storage import GameOptions, GameRow
from engine import GameState
from translation import Text, _

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

log = logging.getLogger(__name__)

COMMANDS = ("settings", "notify", "vacation", "leave", "games", "follow")
NO_PINGS = discord.AllowedMentions.none()
USER_PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True)
#: How long a reminder or turn DM waits for the game's newest message to land (one window of
#: Discord's per-channel send limit) before it links the game's thread instead.
LINK_WAIT_S = 5.0
#: How long a deadline's job waits for the game message showing the turn it played to land
#: before its outcome is recorded (`fire`): two windows of Discord's per-channel send limit.
DRAWN_WAIT_S = 10.0


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A Discord link to a message (or to the channel when there is none yet)."""
    where = f"{guild_id or '@me'}/{channel_id}"
    return f"https://discord.com/channels/{where}" + (f"/{message_id}" if message_id else "")


def job_nonce(job: Job, channel_id: int) -> str:
    """The nonce of what a timer job posts in a channel (a notice, a reminder, its DM).

    Posted with it, a message that was already made (the process died after posting it and
    before the job's outcome was stored) is handed back by Discord instead of a second one
    (`enforce_nonce`, within a few minutes). It names the job itself (its game, turn and kind:
    unique, `bot.services.timers`) and the channel, hashed into the 25 characters a nonce may have: an
    earlier job's identical text is never taken for this one's."""
    key = f"{job.game_id}:{job.turn}:{job.kind}:{channel_id}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


class CorrespondenceCog(commands.Cog, name="Correspondence"):
    """Turn timers, reminders, notifications, leaving and vacations."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        self.clock = bot.clock
        self.service = Correspondence(bot.games, self.clock)
        self.scheduler = Scheduler(
            JobStore(bot.storage),
            self.clock,
            self.fire,
            poll=SHARED_POLL if bot.storage.shared else None,
            chores=(bot.games.players.season_chore,),  # the seasons' ends
        )
        self.service.timers.poke = self.scheduler.poke

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("ps")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load bot.discord.cogs.lobby before bot.discord.cogs.correspondence")
        ours: tuple[SubCommand, ...] = (
            settings_command, notify_command, vacation_command, leave_command, games_command,
            follow_command,
        )  # fmt: skip
        for command in ours:
            group.add_command(command)
        install_poke_signal(self.clock, self.scheduler.poke)
        self.scheduler.start(before=self._before_scheduler)

    async def cog_unload(self) -> None:
        await self.scheduler.stop()
        group = self.bot.tree.get_command("ps")
        if isinstance(group, app_commands.Group):
            for name in COMMANDS:
                group.remove_command(name)

    async def _before_scheduler(self) -> None:
        await self.bot.wait_until_ready()
        planned = await self.service.timers.reconcile(self.bot.games)
        log.info("scheduler started", extra={"replanned": planned, "fake_clock": self.clock.fake})

    # --- helpers ---

    async def _link(self, game: GameRow, *, wait: float = LINK_WAIT_S) -> str:
        """A link to the game's message, once the newest has landed (waiting up to `wait`
        seconds); while it is still on its way, to the game's thread, which opens at its newest
        message."""
        landed = await self.bot.publisher.landed(game.id, wait)
        stored = await self.bot.storage.message(game.id, "game")
        if stored is None or not landed:
            return jump_link(game.guild_id, await self.bot.games.core.game_channel(game))
        return jump_link(game.guild_id, stored[0], stored[1])

    async def _publish(self, game_id: int) -> None:
        await self.bot.publisher.publish_latest(game_id)

    async def _say(
        self,
        channel_id: int,
        content: str,
        job: Job,
        pings: discord.AllowedMentions = NO_PINGS,
    ) -> None:
        """Post what `job` has to say in a channel, once (`job_nonce`): a game's notices go
        where its message does, `Publisher.game_thread` (the thread made now if a crash came
        before it was: a restart's first redraw may not have made it yet)."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.send(content, allowed_mentions=pings, nonce=job_nonce(job, channel_id))
        except discord.HTTPException:
            log.warning("could not post a notice", extra={"channel_id": channel_id})

    async def _dm(self, user_id: int, content: str, job: Job | None = None) -> None:
        """DM a player (what `job` has to say: once, `job_nonce`)."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            if job is None:
                await channel.send(content)
            else:
                await channel.send(content, nonce=job_nonce(job, channel.id))
        except discord.HTTPException:
            log.info("could not send a DM", extra={"user_id": user_id})

    async def timer_note(self, game: GameRow, state: GameState) -> tuple[str, str] | None:
        """The "Turn timer" field of the game message: the deadline, or the pause."""
        clock, deadline = await self.service.timers.deadline(game, state)
        if clock is None or clock.user_id is None:
            return None
        if clock.paused_at is not None and game.options.get("turn_timer"):
            paused = ct.TIMER_PAUSED.format(player=mention(clock.user_id))
            return i18n.tr(ct.TIMER_FIELD), i18n.tr(paused)
        if deadline is None:
            return None
        timeout = ct.TIMEOUT_LABEL.get(game.options.get("on_timeout", "end"), "")
        note = ct.TIMER_NOTE.format(deadline=int(deadline), timeout=timeout)
        return i18n.tr(ct.TIMER_FIELD), i18n.tr(note)

    # --- the scheduler's handler ---

    async def fire(self, job: Job) -> str:
        """Fire one due job: play out a turn whose time ran out, or send a reminder.

        A turn played out is committed together with its pending "Time ran out" notice (the
        job's outcome), so a crash before the notice is posted posts it at the next start
        (`bot.services.scheduler`). The outcome is recorded once the game message showing that
        turn has landed (or `DRAWN_WAIT_S` passed): a process that dies before leaves the job
        to be handed out again, and its second run posts the notice and redraws the message.
        (The game may be of another process's shard, fired through REST: that process learns
        nothing of the turn, and this one's restart redraws only its own games' messages.)
        Every post carries the job's own nonce (`job_nonce`): a notice or reminder
        posted just before a crash, its outcome not yet recorded, is handed back by Discord
        when posted again instead of being made twice, and a notice is never taken for an
        earlier one with the same text. Each is posted exactly once; only a bot that died
        between posting and recording and stayed down longer than Discord remembers a nonce
        could post one twice (never none). The turn played out is published after its notice
        (`Publisher.holding`)."""
        async with self.bot.publisher.holding():
            fired = await self.service.fire(job)
            game = fired.game
            played = fired.result is not None or fired.notice_only
            if played and game is not None:
                user_id = job.user_id if fired.notice_only else game.seats[job.seat].user_id
                how, _, notation = fired.outcome.partition(": ")
                if user_id is not None:
                    line = ct.TIMED_OUT_AUTOPILOT if how == "autopilot" else ct.TIMED_OUT_ENDED
                    with i18n.speaking(game.language):  # a channel notice: the game's language
                        content = i18n.tr(
                            line.format(player=mention(user_id), notation=i18n.notation(notation))
                        )
                    await self._say(await self.bot.publisher.game_thread(game), content, job)
                if fired.notice_only:  # played before a crash: the message may not show it yet
                    await self._publish(game.id)
        if played and game is not None:  # (published now: `holding` has ended)
            await self.bot.publisher.landed(game.id, DRAWN_WAIT_S)
            await self.scheduler.store.finish(job.id, fired.outcome)
            return fired.outcome
        if fired.dm_to is not None and game is not None:
            await self._turn_dm(game, fired.dm_to, fired.deadline, job)
        elif fired.outcome == "sent" and game is not None and fired.deadline is not None:
            user_id = game.seats[job.seat].user_id
            if user_id is None:
                return "void"
            reminder = ct.REMINDER.format(
                player=mention(user_id),
                game=game.id,
                deadline=int(fired.deadline),
                timeout=ct.TIMEOUT_LABEL.get(game.options.get("on_timeout", "end"), ""),
                link=await self._link(game),
            )
            with i18n.speaking(game.language):  # in the channel: the game's language
                content = i18n.tr(reminder)
            muted = await self.service.muted(game.id, user_id)
            pings = NO_PINGS if muted else USER_PINGS
            await self._say(await self.bot.publisher.game_thread(game), content, job, pings)
            if not muted and await self.service.wants_dm(user_id):
                mine, _server = await self.bot.storage.languages(user_id, game.guild_id)
                with i18n.speaking(mine or game.language):  # a DM: their own language
                    await self._dm(user_id, i18n.tr(reminder), job)
        return fired.outcome

    async def _turn_dm(self, game: GameRow, user_id: int, deadline: float | None, job: Job) -> None:
        """DM a player the turn that has waited for them (`bot.services.timers.TURN_DM`), with a link
        to its game message."""
        suffix = ct.TURN_DM_DEADLINE.format(deadline=int(deadline)) if deadline else ""
        link = await self._link(game)
        mine, _server = await self.bot.storage.languages(user_id, game.guild_id)
        with i18n.speaking(mine or game.language):  # a DM: their language, else the game's
            dm = i18n.tr(ct.TURN_DM.format(game=game.id, deadline=suffix, link=link))
        await self._dm(user_id, dm, job)

    # --- commands ---

    async def on_settings(self, interaction: discord.Interaction, changes: GameOptions) -> None:
        async with answering(interaction):
            game = await self.service.update_settings(
                interaction.channel_id or 0, interaction.user.id, changes
            )
            if not changes:
                await interaction.response.send_message(
                    i18n.tr(ct.settings_line(game.options)), ephemeral=True
                )
                return
            said = ct.SETTINGS_CHANGED.format(
                user=interaction.user.mention, settings=ct.settings_line(game.options)
            )
            await interaction.response.send_message(i18n.tr(said), ephemeral=True)
            with i18n.speaking(game.language):  # told in its thread: the game's language
                await self.bot.publisher.announce(game, i18n.tr(said))
            if game.status == "lobby":
                await self.bot.publisher.redraw_lobby(game)
            else:
                await self._publish(game.id)

    async def on_notify(self, interaction: discord.Interaction, on: bool) -> None:
        async with answering(interaction):
            await self.service.set_notify(interaction.user.id, on)
            await interaction.response.send_message(
                i18n.tr(ct.NOTIFY_ON if on else ct.NOTIFY_OFF), ephemeral=True
            )

    async def on_vacation(self, interaction: discord.Interaction, on: bool) -> None:
        async with answering(interaction):
            if on == await self.service.on_vacation(interaction.user.id):
                raise UserError(ct.VACATION_ALREADY_ON if on else ct.VACATION_ALREADY_OFF)
            changed = await self.service.set_vacation(interaction.user.id, on)
            sentence = (
                ct.VACATION_ON.format(games=texts.plural(len(changed), "turn"))
                if on
                else ct.VACATION_OFF
            )
            await interaction.response.send_message(i18n.tr(sentence), ephemeral=True)
            for game_id in changed:
                await self._publish(game_id)

    async def on_leave(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            channel_id, user = interaction.channel_id or 0, interaction.user
            game = await self.bot.games.core.live_game(channel_id)
            if game is not None and game.status == "lobby":
                game = await self.bot.games.lobby.leave(game.id, None, user.id)
                await interaction.response.send_message(i18n.tr(ct.LEFT_LOBBY), ephemeral=True)
                await self.bot.publisher.redraw_lobby(game)
                return
            left = await self.service.leave(channel_id, user.id)
            # The one who left reads it to them; the others, in the thread, of them.
            yours = ct.YOU_LEFT_ENDED if left.ended else ct.YOU_LEFT_AUTOPILOT
            theirs = ct.LEFT_ENDED if left.ended else ct.LEFT_AUTOPILOT

            def said(sentence: Text) -> str:
                text = i18n.tr(sentence.format(user=user.mention))
                if left.new_host is not None:
                    text += " " + i18n.tr(ct.NEW_HOST.format(host=mention(left.new_host)))
                return text

            await interaction.response.send_message(said(yours), ephemeral=True)
            with i18n.speaking(left.game.language):  # told in its thread: the game's language
                await self.bot.publisher.announce(left.game, said(theirs))
            if left.ended:
                await self.bot.publisher.close_messages(left.game)
            else:
                await self._publish(left.game.id)

    async def on_follow(self, interaction: discord.Interaction, mode: str | None) -> None:
        async with answering(interaction):
            game = await self.service.set_follow(
                interaction.channel_id or 0, interaction.user.id, mode
            )
            said = {"mute": ct.FOLLOW_MUTED, "follow": ct.FOLLOW_ON}.get(
                mode or "", ct.FOLLOW_DEFAULT
            )
            await interaction.response.send_message(
                i18n.tr(said.format(game=game.id)), ephemeral=True
            )

    async def on_games(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            user_id = interaction.user.id
            found = await self.service.my_games(interaction.guild_id or 0, user_id)
            if not found:
                raise UserError(ct.NO_GAMES)
            publisher = self.bot.publisher
            if not all([await publisher.landed(game.id, 0) for game, _ in found]):
                # A new turn's message is on its way (Discord's rate limit): wait for its link.
                await interaction.response.defer(ephemeral=True, thinking=True)
            lines = []
            for game, state in found:
                current = game.seats[state.current_seat] if state.current_seat is not None else None
                if current is not None and current.user_id == user_id:
                    turn = ct.YOUR_TURN
                else:
                    turn = ct.THEIR_TURN.format(player=seat_label(current) if current else "-")
                _, deadline = await self.service.timers.deadline(game, state)
                suffix = ct.DEADLINE_SUFFIX.format(deadline=int(deadline)) if deadline else ""
                lines.append(
                    ct.GAMES_LINE.format(
                        game=game.id,
                        channel=game.channel_id,
                        turn=turn,
                        deadline=suffix,
                        link=await self._link(game),
                    )
                )
            description = "\n".join(i18n.tr(line) for line in lines)[:4000]
            embed = discord.Embed(title=i18n.tr(ct.GAMES_TITLE), description=description)
            await send_private(interaction, embed=embed)


def _cog(interaction: discord.Interaction[PhotosynthesisBot]) -> CorrespondenceCog:
    return interaction.client.correspondence


@app_commands.command(name="settings", description=_("Turn timer and leaving rules (host)"))
@app_commands.describe(
    turn_timer=_("Time per turn (off, 1h, 12h, 24h, 72h)"),
    on_timeout=_("When the timer runs out: end the turn, or let the autopilot play it"),
    on_leave=_("When a player leaves a running game: the autopilot takes the seat, or it ends"),
)
async def settings_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    turn_timer: TimerChoice | None = None,
    on_timeout: TimeoutChoice | None = None,
    on_leave: LeaveChoice | None = None,
) -> None:
    await _cog(interaction).on_settings(
        interaction, timer_options(turn_timer, on_timeout, on_leave)
    )


@app_commands.command(name="notify", description=_("A direct message when it is your turn"))
async def notify_command(
    interaction: discord.Interaction[PhotosynthesisBot], mode: Literal["on", "off"]
) -> None:
    await _cog(interaction).on_notify(interaction, mode == "on")


@app_commands.command(name="vacation", description=_("Pause your turn timers while you are away"))
async def vacation_command(
    interaction: discord.Interaction[PhotosynthesisBot], mode: Literal["on", "off"]
) -> None:
    await _cog(interaction).on_vacation(interaction, mode == "on")


@app_commands.command(name="leave", description=_("Leave the lobby or the running game here"))
async def leave_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await _cog(interaction).on_leave(interaction)


@app_commands.command(
    name="follow", description=_("This game: mute it (no pings, no DMs) or follow it (pings)")
)
async def follow_command(
    interaction: discord.Interaction[PhotosynthesisBot], mode: FollowChoice
) -> None:
    await _cog(interaction).on_follow(interaction, ct.FOLLOW_CHOICES[mode])


@app_commands.command(name="games", description=_("Your games in progress in this server"))
async def games_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await _cog(interaction).on_games(interaction)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.correspondence = CorrespondenceCog(bot)
    await bot.add_cog(bot.correspondence)
