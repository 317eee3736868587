"""Turn timers for correspondence games: the clock of each game's current turn and its jobs.

When a turn starts, the game's `turn_clocks` row records the turn (`engine.turn_id`), the seat,
its player and the start time, and the turn's jobs are written with it (`timer_jobs`, fired by
`bot.services.scheduler`), in the very transaction of the play that started the turn
(`AfterCommit.in_commit`): a turn is never committed without its deadline, so a process that
dies right after a commit leaves nothing for another to plan, and the turn's clock runs from its
start whichever process is up:

- with a turn timer of T hours: a ``deadline`` at start + T, and reminders (``reminder-50``,
  ``reminder-90``) at half time and when a tenth of the time is left;
- for a seat whose player left the game (the autopilot holds it): a ``deadline`` due at once, so
  the autopilot plays that turn straight away, through the scheduler;
- no timer: no deadline and no reminders;
- for a person's turn, whatever the timer: a ``turn-dm`` `TURN_DM_AFTER` seconds after it starts,
  which DMs the player (if they asked for DMs) when they have not acted in the turn by then: a
  turn that comes back to them at once and is played at once sends no DM.

Vacation pauses the clock of every turn the player holds: while away their turns have no jobs;
back home, the time away is added to the turn (``paused_total``) and the jobs are planned again,
so the deadline moves by exactly the time away. A turn that starts while its player is away
starts paused.

The jobs of a turn are unique per kind (``UNIQUE (game_id, turn, kind)``): planning again (a new
timer setting, vacation, a player leaving) replaces the unfired jobs and never repeats one that
already fired.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import engine
from bot.services import GameService
from bot.services.clock import Clock
from bot.storage import (
    ClockValues,
    ClockWrite,
    DatabaseRow,
    GameRow,
    Storage,
    UnreadableGame,
)
from engine import GameState

log = logging.getLogger(__name__)

HOUR = 3600.0
#: Reminders: (kind, fraction of the timer elapsed when it is sent).
REMINDERS = (("reminder-50", 0.5), ("reminder-90", 0.9))
DEADLINE = "deadline"
#: The job that DMs a player their turn when it has waited for them, and after how long.
TURN_DM = "turn-dm"
TURN_DM_AFTER = 300.0
#: The outcome a deadline gets when its player is away (planned again on their return).
POSTPONED = "postponed"


@dataclass(frozen=True)
class TurnClock:
    """The clock of a game's current turn."""

    game_id: int
    version: int
    turn: str  # engine.turn_id
    seat: int
    user_id: int | None
    started_at: float
    paused_at: float | None
    paused_total: float

    def values(self) -> ClockValues:
        """The clock as storage writes it (`CLOCK_COLUMNS` order)."""
        return (
            self.game_id,
            self.version,
            self.turn,
            self.seat,
            self.user_id,
            self.started_at,
            self.paused_at,
            self.paused_total,
        )

    def deadline(self, hours: int) -> float | None:
        """When the turn ends with a timer of `hours` (None: no timer, or paused)."""
        if not hours or self.paused_at is not None:
            return None
        return self.started_at + self.paused_total + hours * HOUR

    @classmethod
    def from_row(cls, row: DatabaseRow) -> TurnClock:
        return cls(
            game_id=row["game_id"],
            version=row["version"],
            turn=row["turn"],
            seat=row["seat"],
            user_id=row["user_id"],
            started_at=row["started_at"],
            paused_at=row["paused_at"],
            paused_total=row["paused_total"],
        )


def timer_hours(game: GameRow) -> int:
    """The game's turn timer in hours (0 = off)."""
    return int(game.options.get("turn_timer") or 0)


def planned_jobs(game: GameRow, clock: TurnClock, now: float) -> list[tuple[str, float]]:
    """The `(kind, due_at)` jobs of a turn (see the module docstring). Reminders already past
    when planning (a shortened timer) are left out; a past deadline is due at once."""
    seat = game.seats[clock.seat]
    if seat.kind != "human":
        return []
    if seat.user_id is None:  # the player left: the autopilot plays at once
        return [(DEADLINE, clock.started_at)]
    jobs = []
    if clock.paused_at is None:
        nudge = clock.started_at + clock.paused_total + TURN_DM_AFTER
        if nudge > now:  # (planned again later in the turn: its time has passed, not again)
            jobs.append((TURN_DM, nudge))
    deadline = clock.deadline(timer_hours(game))
    if deadline is None:
        return jobs
    span = timer_hours(game) * HOUR
    jobs.append((DEADLINE, deadline))
    for kind, fraction in REMINDERS:
        due = deadline - (1 - fraction) * span
        if due > now:
            jobs.append((kind, due))
    return jobs


class TurnTimers:
    """Plans turn clocks and their jobs (see the module docstring)."""

    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        *,
        on_vacation: Callable[[int], Awaitable[bool]],
        poke: Callable[[], None] = lambda: None,
    ) -> None:
        """`on_vacation(user_id)` is an awaitable that says whether a player is away; `poke`
        wakes the scheduler after jobs were written."""
        self.storage = storage
        self.clock = clock
        self.on_vacation = on_vacation
        self.poke = poke
        #: game id -> (the version `in_commit` planned, whether jobs were written)
        self._in_commit: dict[int, tuple[int, bool]] = {}

    # --- reading ---

    async def turn_clock(self, game_id: int) -> TurnClock | None:
        """The clock of a game's current turn, if planned."""
        row = await self.storage.turn_clock(game_id)
        return None if row is None else TurnClock.from_row(row)

    async def clocks_of_user(self, user_id: int) -> list[TurnClock]:
        """The clocks of every turn a player holds now (in games still being played)."""
        return [TurnClock.from_row(r) for r in await self.storage.clocks_of_user(user_id)]

    async def deadline(
        self, game: GameRow, state: GameState
    ) -> tuple[TurnClock | None, float | None]:
        """The current turn's clock and deadline (None when there is none or it is paused)."""
        clock = await self.turn_clock(game.id)
        if clock is None or state.is_over or clock.turn != engine.turn_id(state):
            return None, None
        return clock, clock.deadline(timer_hours(game))

    # --- planning ---

    async def in_commit(self, game: GameRow, state: GameState) -> ClockWrite | None:
        """`AfterCommit.in_commit`: the clock write a play commits with it, for `game` as
        it will be stored (its new version) and its new `state` (call under the game's lock)."""
        _, write = await self._planned(game, state)
        jobs = write is not None and bool(write.jobs)
        self._in_commit[game.id] = (game.version, jobs)
        return write

    async def for_change(
        self, game: GameRow, state: GameState, *, restart: bool = False, away: bool | None = None
    ) -> ClockWrite | None:
        """The clock write a change commits with it: of the game itself (its settings, its
        seats, its status: `game` as it will be stored), or of its player's vacation (`away`,
        as it will be stored); `plan(force=True)` (call under the game's lock; then
        `committed`)."""
        return (await self._planned(game, state, force=True, restart=restart, away=away))[1]

    def committed(self, *writes: ClockWrite | None) -> None:
        """Wake the scheduler for the jobs a change committed (`for_change`)."""
        if any(write is not None and write.jobs for write in writes):
            self.poke()

    async def on_commit(self, game: GameRow, state: GameState) -> None:
        """`AfterCommit.on_commit`: wake the scheduler for the jobs the commit planned, or
        plan the turn now if it was not planned in the commit (no planner, or it failed)."""
        planned = self._in_commit.pop(game.id, None)
        if planned is not None and planned[0] == game.version:
            if planned[1]:
                self.poke()
            return
        await self.plan(game, state)

    async def on_end(self, game: GameRow) -> None:
        """`AfterCommit.on_end` (abandoned, expired): the game's clock and unfired jobs go."""
        await self._write(ClockWrite(game.id))

    async def plan(
        self, game: GameRow, state: GameState, *, force: bool = False, restart: bool = False
    ) -> TurnClock | None:
        """Bring the game's turn clock and jobs up to date with `state` (call under the game's
        lock). The same turn keeps its clock unless `force` (settings, seat or vacation
        changed: the jobs are planned again on the same clock) or `restart` (a new timer:
        the turn's clock starts again now)."""
        clock, write = await self._planned(game, state, force=force, restart=restart)
        if write is not None:
            await self._write(write)
        return clock

    async def _write(self, write: ClockWrite) -> None:
        if write.clock is not None:
            await self.storage.write_turn_clock(write.clock, write.jobs, write.replaced_outcome)
            if write.jobs:
                self.poke()
        elif write.version is not None:
            await self.storage.set_turn_clock_version(write.game_id, write.version)
        else:
            await self.storage.clear_turn_clock(write.game_id)

    async def _planned(
        self,
        game: GameRow,
        state: GameState,
        *,
        force: bool = False,
        restart: bool = False,
        away: bool | None = None,
    ) -> tuple[TurnClock | None, ClockWrite | None]:
        """The turn's clock (`plan`) and what to write for it (None: nothing); `away`: whether
        its player is on vacation, when the caller is about to store it (else it is read)."""
        now = self.clock.now()
        if game.status != "active" or state.is_over or state.current_seat is None:
            return None, ClockWrite(game.id)
        key, seat = engine.turn_id(state), game.seats[state.current_seat]
        old = await self.turn_clock(game.id)
        same = old is not None and old.turn == key
        if same and not force and old is not None and old.user_id == seat.user_id:
            if old.version == game.version:
                return old, None
            return old, ClockWrite(game.id, version=game.version)
        if away is None:
            away = seat.user_id is not None and bool(await self.on_vacation(seat.user_id))
        if same and old is not None and not restart:
            started, paused_at, total = old.started_at, old.paused_at, old.paused_total
            if paused_at is not None and not away:  # back home: the time away is added
                total, paused_at = total + (now - paused_at), None
            elif paused_at is None and away:
                paused_at = now
        else:
            started, paused_at, total = now, (now if away else None), 0.0
        clock = TurnClock(
            game.id, game.version, key, seat.position, seat.user_id, started, paused_at, total
        )
        jobs = tuple(planned_jobs(game, clock, now))
        return clock, ClockWrite(game.id, clock.values(), jobs, POSTPONED)

    async def reconcile(self, games: GameService) -> int:
        """At start: plan every active game whose clock is missing or older than the game (a
        crash between a change planned after its commit, such as a setting or a seat, and its
        planning; or a play whose planner failed), and clear the clocks and unfired jobs left
        to games that ended without them. Returns how many were planned."""
        await self.storage.clear_ended_clocks()
        planned = 0
        for game in await games.storage.games_with_status("active"):
            clock = await self.turn_clock(game.id)
            if clock is not None and clock.version == game.version:
                continue
            try:
                async with games.core.lock(game.id):
                    fresh = await games.core.get_game(game.id)
                    if fresh is None or fresh.config is None:
                        continue
                    await self.plan(fresh, await games.core.state(fresh))
            except UnreadableGame:
                continue  # quarantined and logged; the others' clocks still run
            planned += 1
        return planned
