"""Correspondence games, the service side (no Discord): settings, leaving a running game,
vacation, turn notifications, the list of a player's games, and what a fired job does.

Every change runs under the game's lock (`GameCore.lock`) and plans the turn again in the same
transaction (`TurnTimers.for_change`), so the scheduler never sees a half-made change.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace

import engine
from bot.services import GameService, refusals
from bot.services.base import Applied, TurnResult, UserError, normalize_options
from bot.services.clock import Clock
from bot.services.scheduler import PENDING, Job
from bot.services.seats import AUTOPILOT_SEAT
from bot.services.timers import DEADLINE, POSTPONED, TURN_DM, TurnTimers
from bot.storage import GameOptions, GameRow, SeatRow
from engine import GameState

log = logging.getLogger(__name__)

#: At most this many games' locks are held at once when a vacation pauses or resumes their turns.
VACATION_BATCH = 8


@dataclass(frozen=True)
class Left:
    """What `/ps leave` did: `ended` the game, or handed the seat to the autopilot."""

    game: GameRow
    seat: SeatRow
    ended: bool
    new_host: int | None = None  # the host left: their powers passed to this person


@dataclass(frozen=True)
class Fired:
    """What a fired job did: its `outcome` (stored with the job) and what to tell players."""

    outcome: str
    game: GameRow | None = None
    result: TurnResult | None = None  # a deadline that played a turn
    deadline: float | None = None  # a reminder to send
    notice_only: bool = False  # a deadline played before a crash: only its notice is left
    dm_to: int | None = None  # a turn's DM to send to this player


class Correspondence:
    """See the module docstring."""

    def __init__(self, games: GameService, clock: Clock) -> None:
        self.games = games
        self.clock = clock
        self.timers = TurnTimers(games.storage, clock, on_vacation=self.on_vacation)

    # --- preferences ---

    async def wants_dm(self, user_id: int) -> bool:
        """Whether the player asked for a DM when it is their turn (`/ps notify on`)."""
        return bool((await self.games.storage.preferences(user_id)).get("notify"))

    async def set_notify(self, user_id: int, on: bool) -> None:
        prefs = await self.games.storage.preferences(user_id)
        if on:
            prefs["notify"] = True
        else:
            prefs.pop("notify", None)
        await self.games.storage.set_preferences(user_id, prefs)

    async def on_vacation(self, user_id: int) -> bool:
        """Whether the player is away (`/ps vacation on`): their turn timers are paused."""
        return (await self.games.storage.preferences(user_id)).get("vacation_since") is not None

    async def set_vacation(self, user_id: int, on: bool) -> list[int]:
        """Go away or come back; returns the games whose current turn (the player's) was
        paused or resumed."""
        if on == await self.on_vacation(user_id):
            return []
        prefs = await self.games.storage.preferences(user_id)
        if on:
            prefs["vacation_since"] = self.clock.now()
        else:
            prefs.pop("vacation_since", None)
        changed = sorted({clock.game_id for clock in await self.timers.clocks_of_user(user_id)})
        # The preference and the clocks it pauses or resumes in one commit, under those games'
        # locks (taken in id order); a player with more games commits them in batches (each
        # writes the same preference again): never more locks at once than `VACATION_BATCH`.
        for start in range(0, max(len(changed), 1), VACATION_BATCH):
            async with AsyncExitStack() as locks:
                writes = []
                for game_id in changed[start : start + VACATION_BATCH]:
                    await locks.enter_async_context(self.games.core.lock(game_id))
                    game = await self.games.core.get_game(game_id)
                    if game is not None and game.config is not None:
                        state = await self.games.core.state(game)
                        writes.append(await self.timers.for_change(game, state, away=on))
                clocks = [write for write in writes if write is not None]
                await self.games.storage.set_preferences(user_id, prefs, clocks)
            self.timers.committed(*clocks)
        log.info("vacation", extra={"user_id": user_id, "on": on, "games": changed})
        return changed

    # --- muting or following one game ---

    async def set_follow(self, channel_id: int, user_id: int, mode: str | None) -> GameRow:
        """Mute (`mode` "mute": no pings, no DMs) or follow ("follow": its turn messages ping
        them) the channel's game for one person, anyone, or go back to the default (None)."""
        game = await self._live(channel_id)
        await self.games.storage.set_follow_mode(game.id, user_id, mode)
        log.info("follow mode", extra={"game_id": game.id, "user_id": user_id, "mode": mode})
        return game

    async def muted(self, game_id: int, user_id: int) -> bool:
        """Whether the person muted the game (`set_follow`)."""
        return (await self.games.storage.follow_modes(game_id)).get(user_id) == "mute"

    # --- settings ---

    async def _live(self, channel_id: int) -> GameRow:
        game = await self.games.core.live_game(channel_id)
        if game is None:
            raise UserError(refusals.NO_GAME_HERE)
        return game

    async def update_settings(self, channel_id: int, user_id: int, changes: GameOptions) -> GameRow:
        """Change the correspondence options of the channel's game (host only, in the lobby
        or in play; without `changes`, anyone gets the game). A new timer restarts the
        current turn's clock."""
        game = await self._live(channel_id)
        async with self.games.core.lock(game.id):
            fresh = await self.games.core.get_game(game.id)
            if fresh is None or not fresh.is_live:
                raise UserError(refusals.NO_GAME_HERE)
            game = fresh
            if not changes:  # anyone may look
                return game
            if user_id != game.host_id:
                raise UserError(refusals.HOST_ONLY_SETTINGS.format(host=f"<@{game.host_id}>"))
            merged = normalize_options({**game.options, **changes})
            clock = None
            if game.status == "active":  # the turn's clock, in the same commit
                restart = merged["turn_timer"] != game.options.get("turn_timer")
                after = replace(game, version=game.version + 1, options=merged)
                state = await self.games.core.state(game)
                clock = await self.timers.for_change(after, state, restart=restart)
            stored = await self.games.storage.update_game(
                game.id, game.version, options=merged, turn_clock=clock
            )
            self.timers.committed(clock)
        return stored

    # --- leaving a running game ---

    async def leave(self, channel_id: int, user_id: int) -> Left:
        """Leave the channel's running game: the autopilot takes the seat, or the game ends
        (the host's `on_leave` option; it also ends when no other person is left)."""
        game = await self._live(channel_id)
        async with self.games.core.lock(game.id):
            fresh = await self.games.core.get_game(game.id)
            if fresh is None or fresh.status != "active":
                raise UserError(refusals.NO_GAME_HERE)
            game = fresh
            seat = next((s for s in game.seats if s.user_id == user_id), None)
            if seat is None:
                raise UserError(refusals.NOT_A_PLAYER)
            others = [s for s in game.seats if s.user_id not in (None, user_id)]
            state = await self.games.core.state(game)  # (seats and status do not change it)
            if game.options.get("on_leave") == "end" or not others:
                after = replace(game, version=game.version + 1, status="abandoned")
                clock = await self.timers.for_change(after, state)  # the clock goes with it
                stored = await self.games.storage.update_game(
                    game.id, game.version, status="abandoned", turn_clock=clock
                )
                log.info("player left, game ended", extra={"game_id": game.id})
                return Left(stored, seat, ended=True)
            name = AUTOPILOT_SEAT.format(name=seat.name)
            seats = [
                SeatRow(s.position, s.kind, None, name) if s.user_id == user_id else s
                for s in game.seats
            ]
            new_host = None
            if user_id == game.host_id:  # the host's powers pass to the next person seated
                count = len(game.seats)
                following = [game.seats[(seat.position + i) % count] for i in range(1, count)]
                new_host = next(s.user_id for s in following if s in others)
            after = replace(
                game,
                version=game.version + 1,
                seats=tuple(seats),
                host_id=game.host_id if new_host is None else new_host,
            )
            clock = await self.timers.for_change(after, state)  # the autopilot's turn, at once
            stored = await self.games.storage.update_game(
                game.id, game.version, seats=seats, host_id=new_host, turn_clock=clock
            )
            self.timers.committed(clock)
            log.info(
                "player left, autopilot seated", extra={"game_id": game.id, "new_host": new_host}
            )
            return Left(stored, seat, ended=False, new_host=new_host)

    # --- the list of a player's games ---

    async def my_games(self, guild_id: int, user_id: int) -> list[tuple[GameRow, GameState]]:
        """The player's active games in a server, with their states, oldest first."""
        games = await self.games.storage.games_of_user(guild_id, user_id, "active")
        return [(game, await self.games.core.state(game)) for game in games]

    # --- fired jobs ---

    async def fire(self, job: Job) -> Fired:
        """Decide what a due job does (`bot.services.scheduler` handler, without the messages)."""
        game = await self.games.core.get_game(job.game_id)
        if job.outcome is not None and job.outcome.startswith(PENDING):
            # Its turn was played out before a crash, its notice not posted: post it now.
            return Fired(job.outcome[len(PENDING) :], game, notice_only=game is not None)
        if game is None or game.status != "active":
            return Fired("void")
        if job.kind == DEADLINE:
            return await self._deadline(game, job)
        if job.kind == TURN_DM:
            return await self._turn_dm(game, job)
        return await self._reminder(game, job)

    async def _turn_dm(self, game: GameRow, job: Job) -> Fired:
        """The DM of a turn that has waited for its player: "void" when the turn is over,
        "acted" when they played some of it meanwhile, "off" when they want no DMs (or muted
        the game); else
        "sent" (with the turn's deadline, if any)."""
        state = await self.games.core.state(game)
        if state.is_over or engine.turn_id(state) != job.turn:
            return Fired("void", game)
        user_id = game.seats[job.seat].user_id
        if user_id is None:
            return Fired("void", game)
        if not job.turn.startswith("setup") and await self._acted(game, job.seat, user_id):
            return Fired("acted", game)
        if not await self.wants_dm(user_id) or await self.muted(game.id, user_id):
            return Fired("off", game)
        _, deadline = await self.timers.deadline(game, state)
        return Fired("sent", game, deadline=deadline, dm_to=user_id)

    async def _acted(self, game: GameRow, seat: int, user_id: int) -> bool:
        """Whether the player has played some of the turn their seat is playing now: the log's
        last actions of that seat since its last `end` (in play: a setup turn is one action)."""
        for row in reversed(await self.games.core.storage.actions(game.id)):
            if row.seat != seat or row.notation == "end":
                return False
            if row.user_id == user_id:
                return True
        return False

    async def _deadline(self, game: GameRow, job: Job) -> Fired:
        seat = game.seats[job.seat]
        if seat.user_id is not None and await self.on_vacation(seat.user_id):
            return Fired(POSTPONED, game)
        autopilot = seat.user_id is None or game.options.get("on_timeout") == "autopilot"
        how = "autopilot" if autopilot else "ended"
        before = await self.games.core.state(game)

        def outcome(played: Sequence[Applied]) -> str:
            """What the channel's notice says was played: each action as every seat may know it
            (an animal kept for the player is in hand after the turn as before: `animal ?`)."""
            seen = engine.observed_actions(before, None, [(a.seat, a.notation) for a in played])
            return f"{how}: {'; '.join(seen)}"

        # The turn and its pending "Time ran out" notice are one commit: never one without
        # the other (a crash right after posts the notice at the next start).
        result = await self.games.bots.play_automatically(
            game.id,
            job.turn,
            autopilot=autopilot,
            job_outcome=lambda played: (job.id, PENDING + outcome(played)),
        )
        if result is None:
            return Fired("void", game)
        return Fired(outcome(result.applied[: result.played]), result.game, result)

    async def _reminder(self, game: GameRow, job: Job) -> Fired:
        state = await self.games.core.state(game)
        if state.is_over or engine.turn_id(state) != job.turn:
            return Fired("void", game)
        _, deadline = await self.timers.deadline(game, state)
        if deadline is None:
            return Fired("void", game)
        if self.clock.now() >= deadline:  # caught up after downtime: the deadline is due too
            return Fired("moot", game)
        return Fired("sent", game, deadline=deadline)
