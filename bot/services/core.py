"""The core the game services share: storage, each game's lock, the engine state rebuilt from
the action log (kept while the game's version stands), and the commit of a play with what follows
it (`AfterCommit`).

Every change to a game runs under that game's lock, reads the game once there (`open_game`:
the click's channel, the game's status and the version the click was drawn for are checked),
applies the engine's rules, commits (`commit_play`), and only then returns, so the cog answers
the interaction after the change is durable.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import ParamSpec, Protocol, TypeVar

import engine
from bot.services import refusals
from bot.services.base import (
    Applied,
    StaleComponent,
    UserError,
    daily_of,
    day_at,
    is_stored_id,
    status_error,
)
from bot.services.plays import finish_of, replay
from bot.storage import (
    ClockWrite,
    DamagedSnapshot,
    GameOptions,
    GameRow,
    GameStatus,
    SeatRow,
    Storage,
    UnreadableGame,
)
from engine import ConfigDict, GameState

log = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")


class AfterCommit(Protocol):
    """What follows a change to a game, in one place: the app wires one (`bot.discord.pipeline`);
    without it (a test, a bench, a command-line tool) nothing follows. Each step is awaited
    under the game's lock; a step's failure is logged and never undoes the commit."""

    async def in_commit(self, game: GameRow, state: GameState) -> ClockWrite | None:
        """In a play's own transaction, with the game as it will be stored (its next version):
        the clock of the turn it starts, committed with it."""
        ...

    async def on_commit(self, game: GameRow, state: GameState) -> None:
        """After a play's commit (or an undo's), with the stored game and its new state."""
        ...

    async def on_end(self, game: GameRow) -> None:
        """After a game or lobby ended without a play (abandoned, expired)."""
        ...


def seat_damage(game: GameRow) -> str | None:
    """What is wrong with a game's stored seats (a user id that is not a number, say written
    into the database by hand), or None."""
    for seat in game.seats:
        if seat.user_id is not None and type(seat.user_id) is not int:
            shown = str(seat.user_id)[:40]
            return f"its stored seat {seat.position} has a user_id that is not a number ({shown!r})"
    return None


class NothingAfter:
    """`AfterCommit` that does nothing: the services on their own."""

    async def in_commit(self, game: GameRow, state: GameState) -> ClockWrite | None:
        return None

    async def on_commit(self, game: GameRow, state: GameState) -> None:
        return None

    async def on_end(self, game: GameRow) -> None:
        return None


class GameCore:
    """Storage, locks, states and commits: what every game service holds (one per process)."""

    def __init__(self, storage: Storage, *, seed_source: Callable[[], int] | None = None) -> None:
        self.storage = storage
        self._states: dict[int, tuple[int, int, GameState]] = {}  # id -> (version, ply, state)
        #: game id -> {ply: the state before it} for the player's single actions of the turn
        #: being played: what `TurnService.undo` goes back to without replaying the log.
        self.before: dict[int, dict[int, GameState]] = {}
        sysrand = random.SystemRandom()
        self.seed_source = seed_source or (lambda: sysrand.randrange(2**31))
        #: What follows a commit (`AfterCommit`), set once by the app.
        self.after: AfterCommit = NothingAfter()
        #: The time (UNIX seconds) the daily challenge's days run on: the app sets its clock's.
        self.now: Callable[[], float] = time.time

    def daily_closed(self, game: GameRow) -> bool:
        """Whether a daily challenge's game may not be shown outside `/ps daily` yet: while it
        is played, and until its day is over (its replay would tell the day's challenge)."""
        day = daily_of(game)
        return day is not None and (game.status == "active" or day >= day_at(self.now()))

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The lock every change to this game runs under (`async with service.lock(id):`)."""
        return self.storage.lock(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id (None: no such game, an id out of range too: `is_stored_id`); a
        damaged one is set aside (`checked`)."""
        if not is_stored_id(game_id):
            return None
        return await self.checked(await self.storage.get_game(game_id))

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or in play in a channel, if any (`checked`)."""
        return await self.checked(await self.storage.live_game(channel_id))

    async def checked(self, game: GameRow | None) -> GameRow | None:
        """`game` as read, unless a seat row of it is damaged (storage checks the games row,
        not yet its seats): then it is set aside like any damaged game, `UnreadableGame`."""
        damage = None if game is None else seat_damage(game)
        if game is None or damage is None:
            return game
        await self.storage.quarantine(game.id, damage)
        raise UnreadableGame(game.id, damage)

    async def game_channel(self, game: GameRow) -> int:
        """Where a game's running messages go: its thread once it has one, else its channel."""
        thread = await self.storage.message(game.id, "thread")
        return thread[0] if thread is not None else game.channel_id

    async def belongs_here(self, game: GameRow, channel_id: int | None) -> bool:
        """Whether an interaction in `channel_id` may act on `game`: its channel or its thread."""
        return channel_id == game.channel_id or channel_id == await self.game_channel(game)

    async def game_here(self, game_id: int, channel_id: int | None) -> GameRow | None:
        """A game by id for a click in `channel_id` (None: not from a channel): a game of another
        channel is refused (a forged custom_id); None when there is no such game."""
        game = await self.get_game(game_id)
        if game is not None and channel_id is not None and daily_of(game) is not None:
            # A daily challenge has no channel: its replay and review once its day is over.
            if self.daily_closed(game):
                raise UserError(refusals.DAILY_CLOSED)
            return game
        here = game is None or channel_id is None or await self.belongs_here(game, channel_id)
        if not here:
            raise UserError(refusals.OTHER_CHANNEL)
        return game

    async def open_game(
        self,
        game_id: int,
        version: int | None,
        *,
        not_status: GameStatus,
        refusal: str,
        channel_id: int | None = None,
    ) -> GameRow:
        """The game, read once under its lock: of the click's `channel_id` (when given), still
        open and not in status `not_status` (refused with `refusal`), at `version` (None: any
        version)."""
        game = await self.game_here(game_id, channel_id)
        if game is None:
            raise UserError(refusals.GAME_GONE)
        error = status_error(game)
        if error is not None:
            raise error
        if game.status == not_status:
            raise UserError(refusal)
        if version is not None and version != game.version:
            raise StaleComponent(game)
        return game

    async def state(self, game: GameRow) -> GameState:
        """The engine state of a started game, from the cache or rebuilt from the log."""
        return (await self.state_and_ply(game))[0]

    async def state_and_ply(self, game: GameRow) -> tuple[GameState, int]:
        """The engine state of a started game and the ply of its last logged action."""
        if game.config is None:
            raise UserError(refusals.NOT_STARTED)
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[2], cached[1]
        start, after = await self._snapshot(game)
        rows = await self.storage.actions(game.id, after_ply=after)
        state = await self.replaying(
            game, replay, game.config, game.seed, [r.notation for r in rows], start
        )
        ply = rows[-1].ply if rows else after
        self.keep_state(game, ply, state)
        return state, ply

    async def _snapshot(self, game: GameRow) -> tuple[GameState | None, int]:
        """The cached state of a game to replay its log from and its ply, or `(None, 0)`. A
        snapshot is only a cache: one that does not read (not JSON, or not a state this engine
        reads) is dropped, logged this once, and the whole log replayed; the game's next change
        stores a fresh one."""
        try:
            snap = await self.storage.snapshot(game.id)
            if snap is None:
                return None, 0
            try:
                return engine.GameState.from_dict(snap[1]), snap[0]
            except Exception as exc:
                raise DamagedSnapshot(f"not a state ({type(exc).__name__})") from None
        except DamagedSnapshot as exc:
            log.warning("snapshot dropped, replaying the log: %s", exc, extra={"game_id": game.id})
            await self.storage.drop_snapshot(game.id)
            return None, 0

    async def replaying(
        self, game: GameRow, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """`function(*args, **kwargs)`, a replay of a stored game's log (pure CPU: in a thread). When it
        fails the stored game itself is damaged (its log or its seed): it is set aside,
        `UnreadableGame`."""
        try:
            return await asyncio.to_thread(function, *args, **kwargs)
        except Exception as exc:
            reason = f"its action log no longer replays ({type(exc).__name__})"
            await self.storage.quarantine(game.id, reason)
            raise UnreadableGame(game.id, reason) from None

    async def commit_play(
        self,
        game: GameRow,
        state: GameState,
        applied: Sequence[Applied],
        *,
        last_ply: int | None = None,
        seats: Sequence[SeatRow] | None = None,
        options: GameOptions | None = None,
        config: ConfigDict | None = None,
        status: GameStatus | None = None,
        host_id: int | None = None,
        job_outcome: tuple[int, str] | None = None,
    ) -> GameRow:
        """Append `applied` to the log with a snapshot of `state` and bump the version, in one
        transaction with the clock of the turn it leads to (`after.in_commit`); then run what
        follows the commit (`after.on_commit`). The changes given (not None) to the game's row
        are committed with it (`Storage.update_game`), and so is a timer job's outcome. Call
        under the game's lock."""
        if last_ply is None:
            last_ply = applied[-1].ply if applied else 0
        after = dataclasses.replace(  # the row as it will be stored
            game,
            version=game.version + 1,
            seats=game.seats if seats is None else tuple(seats),
            options=game.options if options is None else options,
            config=game.config if config is None else config,
            status=game.status if status is None else status,
            host_id=game.host_id if host_id is None else host_id,
        )
        try:
            turn_clock = await self.after.in_commit(after, state)
        except Exception:  # the play goes on; what follows its commit plans the turn after it
            log.exception("planning the turn failed", extra={"game_id": game.id})
            turn_clock = None
        # A game that ends keeps its result and updates the ratings in its last commit.
        finish = finish_of(state) if status == "over" else None
        stored = await self.storage.update_game(
            game.id,
            game.version,
            seats=seats,
            options=options,
            config=config,
            status=status,
            host_id=host_id,
            actions=applied,
            snapshot=(last_ply, state.to_dict()),
            job_outcome=job_outcome,
            turn_clock=turn_clock,
            finish=finish,
        )
        self.keep_state(stored, last_ply, state)
        await self.committed(stored, state)
        return stored

    async def committed(self, game: GameRow, state: GameState) -> None:
        """Run what follows a commit (`AfterCommit.on_commit`; call under the game's lock)."""
        try:
            await self.after.on_commit(game, state)
        except Exception:  # the play is committed; a failure after it must not undo it
            log.exception("after a commit", extra={"game_id": game.id})

    async def ended(self, game: GameRow) -> None:
        """Run what follows a game's end without a play (`AfterCommit.on_end`; call under its
        lock)."""
        try:
            await self.after.on_end(game)
        except Exception:  # the game has ended; a failure after it must not undo that
            log.exception("after a game ended", extra={"game_id": game.id})

    def keep_state(self, game: GameRow, ply: int, state: GameState) -> None:
        """Keep `state` as the game's at its stored version (its last logged action: `ply`)."""
        self._states[game.id] = (game.version, ply, state)

    def forget(self, game_id: int) -> None:
        """Drop what is kept of a game that ended (its state and undo points)."""
        self._states.pop(game_id, None)
        self.before.pop(game_id, None)

    def forget_state(self, game_id: int) -> None:
        """Drop a game's kept state (it is over: nothing reads it often any more)."""
        self._states.pop(game_id, None)
