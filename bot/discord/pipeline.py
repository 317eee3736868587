"""What follows a commit, in one place: the app wires one `Pipeline` into the game services
(`GameCore.after`) when it starts, and nothing else adds to it.

A play (a click, a typed action, Cynthia's turns after it, the autopilot, the Expert) is
committed by `GameCore.commit_play`, under the game's lock; then, in this order:

1. **In the play's own transaction**, the turn timers give the clock and the deadline of the turn
   it starts (`TurnTimers.in_commit`), so a turn is never stored without its deadline.
2. **After the commit**:
   1. the turn timers wake the scheduler for the jobs just written, or plan the turn now if
      planning it in the commit failed (`TurnTimers.on_commit`);
   2. the publisher redraws the game's channel message (`Publisher.publish`: queued, and drawn
      once the click that made the play has been answered: `Publisher.holding`);
   3. the bot seats' driver: when the turn is an Expert's, its driver plays it
      (`ExpertDriver.drive`, a task of its own; each turn it commits comes back here). Cynthia
      needs none: her turns are played in the very commit of the play before them
      (`plays.run_automa`). The autopilot plays a turn when its deadline fires (step 1's job).

An undo is committed the same way, without step 1 (its turn goes on). A game or lobby that ends
without a play (abandoned, expired) goes to `on_end`: the turn timers drop its clock and jobs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.services.bots import ExpertDriver
from bot.services.timers import TurnTimers
from bot.storage import ClockWrite, GameRow
from engine import GameState

if TYPE_CHECKING:
    from bot.discord.publisher import Publisher

log = logging.getLogger(__name__)


class Pipeline:
    """`AfterCommit` of the bot: the turn timers, the publisher, the Expert's driver."""

    def __init__(self, timers: TurnTimers, publisher: Publisher, driver: ExpertDriver) -> None:
        self.timers = timers
        self.publisher = publisher
        self.driver = driver

    async def in_commit(self, game: GameRow, state: GameState) -> ClockWrite | None:
        return await self.timers.in_commit(game, state)

    async def on_commit(self, game: GameRow, state: GameState) -> None:
        """The steps after a commit, each on its own: one's failure is logged, the next runs."""
        await _step(self.timers.on_commit, game, state)
        await _step(self.publisher.publish, game, state)
        await _step(self._drive, game, state)

    async def _drive(self, game: GameRow, state: GameState) -> None:
        if self.driver.wants(game, state):
            self.driver.drive(game.id)

    async def on_end(self, game: GameRow) -> None:
        await self.timers.on_end(game)


async def _step(
    step: Callable[[GameRow, GameState], Awaitable[None]], game: GameRow, state: GameState
) -> None:
    try:
        await step(game, state)
    except Exception:  # the play is committed: a step's failure must not undo it or the others
        log.exception("after a commit", extra={"game_id": game.id, "step": step.__name__})
