"""The bots' seats and the Expert's help: Cynthia's turns after a crash, a turn played out when
its timer ran out (the autopilot), the Expert's seats, and `/ps hint`.

The Expert thinks in a worker process (`bot.services.experts`) without holding the game's lock; its turn
is committed whole under the lock if the game is still where it thought about it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import engine
from bot.services import experts, refusals
from bot.services.base import Applied, TurnResult, UserError
from bot.services.core import GameCore
from bot.services.experts import QUICK, Experts, expert_seed, is_expert, seat_to_play
from bot.services.plays import apply_turn, run_automa
from bot.services.seats import AUTOPILOT_USER_ID
from bot.services.turns import TurnService
from bot.storage import GameRow
from engine import Action, GameState

log = logging.getLogger(__name__)

AUTOPILOT_NOTE = "autopilot"
#: How many times an Expert's turn is thought again when its game changed meanwhile.
EXPERT_RETRIES = 3


class BotService:
    """Turns no person clicks: Cynthia's, the autopilot's, the Expert's; and hints."""

    def __init__(self, core: GameCore, turns: TurnService, experts: Experts | None = None) -> None:
        self.core = core
        self.storage = core.storage
        self.turns = turns
        #: The Expert's decisions (its seats, the autopilot, hints), in worker processes.
        self.experts = experts if experts is not None else _shared_experts()

    async def resume_automa(self, game_id: int) -> TurnResult | None:
        """Let Cynthia act if it is her turn (after a crash between two commits); else None."""
        async with self.core.lock(game_id):
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active":
                return None
            state, ply = await self.core.state_and_ply(game)
            new_state, applied = await asyncio.to_thread(run_automa, state, ply + 1)
            if not applied:
                return None
            stored = await self.core.commit_play(
                game, new_state, applied, status="over" if new_state.is_over else None
            )
            self.core.before.pop(game.id, None)
            return TurnResult(stored, new_state, tuple(applied), engine.turn_id(state), played=0)

    async def play_automatically(
        self,
        game_id: int,
        turn: str,
        *,
        autopilot: bool,
        job_outcome: Callable[[Sequence[Applied]], tuple[int, str]] | None = None,
    ) -> TurnResult | None:
        """Finish the turn `turn` (an `engine.turn_id`) for its seat, through the same path as a
        player's actions: the autopilot plays it (`autopilot`), or it ends as it is (`end`;
        a decision that cannot be ended, such as a setup placement, is the autopilot's).
        Actions are logged with `AUTOPILOT_USER_ID`. None when that turn is no longer being
        played (already played, game over or ended): a deadline for it is void.
        `job_outcome(the seat's actions)` gives the timer job's (id, outcome) to record with
        the turn, in the same commit."""
        async with self.core.lock(game_id):
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active":
                return None
            state, ply = await self.core.state_and_ply(game)
            if state.is_over or engine.turn_id(state) != turn:
                return None
            actions = await self._expert_turn(game, state, QUICK, end_only=not autopilot)
            new_state, applied = await asyncio.to_thread(
                apply_turn, state, actions, ply + 1, AUTOPILOT_USER_ID, AUTOPILOT_NOTE
            )
            played = len(applied)
            outcome = job_outcome(applied[:played]) if job_outcome is not None else None
            new_state, automa = await asyncio.to_thread(run_automa, new_state, ply + 1 + played)
            applied.extend(automa)
            stored = await self.core.commit_play(
                game,
                new_state,
                applied,
                status="over" if new_state.is_over else None,
                job_outcome=outcome,
            )
            self.core.before.pop(game.id, None)
            if new_state.is_over:
                self.core.forget_state(game.id)
            return TurnResult(stored, new_state, tuple(applied), engine.turn_id(state), played)

    async def _expert_turn(
        self, game: GameRow, state: GameState, kind: str, *, end_only: bool = False
    ) -> list[Action]:
        """The Expert's actions for the current seat's turn, thought in a worker process (the
        one-ply autopilot's if the Expert fails: a game never stalls on it)."""
        try:
            return await self.experts.turn(state, kind, expert_seed(game.seed), end_only=end_only)
        except Exception:
            log.exception("the Expert failed; the autopilot plays", extra={"game_id": game.id})
            return await asyncio.to_thread(experts.autopilot_turn, state, end_only)

    async def expert_to_play(self, game_id: int) -> bool:
        """Whether the game is being played and its current seat is an Expert's."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status != "active" or game.config is None:
            return False
        state = await self.core.state(game)
        return not state.is_over and is_expert(game.seats[seat_to_play(state)].kind)

    async def play_expert(self, game_id: int) -> TurnResult | None:
        """Let an Expert seat play its turn if it is its turn (else None), then any Cynthia.

        The Expert thinks in a worker process without holding the game's lock (other clicks
        on the game are answered meanwhile: they are refused, it is not their turn); its turn
        is then applied and committed whole under the lock, if the game is still at the
        position it thought about (else it thinks again). Its actions are logged with no user
        and its reason, like Cynthia's. A bot stopped while it thinks has committed nothing:
        the turn is played again, the same (`expert_seed`), when it restarts."""
        for _ in range(EXPERT_RETRIES):
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "active" or game.config is None:
                return None
            state, ply = await self.core.state_and_ply(game)
            if state.is_over or not is_expert(game.seats[seat_to_play(state)].kind):
                return None
            kind, turn = game.seats[seat_to_play(state)].kind, engine.turn_id(state)
            actions = await self._expert_turn(game, state, kind)
            async with self.core.lock(game_id):
                game = await self.storage.get_game(game_id)
                if game is None or game.status != "active":
                    return None
                now, now_ply = await self.core.state_and_ply(game)
                if (
                    now_ply != ply
                    or now.is_over
                    or engine.turn_id(now) != turn
                    or game.seats[seat_to_play(now)].kind != kind
                ):
                    continue  # the game moved on meanwhile (another process played this turn)
                new_state, applied = await asyncio.to_thread(
                    apply_turn, now, actions, ply + 1, None, None
                )
                played = len(applied)
                new_state, automa = await asyncio.to_thread(run_automa, new_state, ply + 1 + played)
                applied.extend(automa)
                stored = await self.core.commit_play(
                    game, new_state, applied, status="over" if new_state.is_over else None
                )
                if new_state.is_over:
                    self.core.forget_state(game.id)
                log.info("the Expert played", extra={"game_id": game.id, "actions": played})
                return TurnResult(stored, new_state, tuple(applied), turn, played)
        return None

    async def hint_position(self, channel_id: int, user_id: int) -> tuple[GameRow, GameState]:
        """The channel's game and its state, when `user_id` may have a hint now (`hint`).
        Refusals: no game here, hints off in this game, not started, not a player, not your
        turn."""
        game = await self.storage.live_game(channel_id)
        if game is None:
            raise UserError(refusals.NO_GAME_HERE)
        if not game.options.get("hints"):
            raise UserError(refusals.HINTS_OFF)
        if game.status != "active":
            raise UserError(refusals.NOT_STARTED)
        return game, await self.turns.check_turn(game, user_id)

    async def hint(self, game: GameRow, state: GameState) -> Action:
        """The Expert's suggestion (at the quick budget) for the player to play in `state`,
        thought in a worker process; it is not played. Its search sees only what that player
        sees (`engine.expert`: what is hidden is drawn afresh)."""
        return await self.experts.decide(state, QUICK, expert_seed(game.seed))


class ExpertDriver:
    """Plays the Expert's seats: once a commit leaves a game on an Expert's turn (`wants`), a
    driver task of that game's plays its turns (`BotService.play_expert`) while they come, one
    driver a game. Each turn it commits goes through what follows a commit like any other
    (`AfterCommit`: the game message, the next turn's timers, and this driver again when the
    next seat is an Expert's too)."""

    def __init__(self, bots: BotService) -> None:
        self.bots = bots
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # asked to drive while its driver was running

    @staticmethod
    def wants(game: GameRow, state: GameState) -> bool:
        """Whether the game as committed waits for an Expert's turn."""
        if game.status != "active" or state.is_over or state.current_seat is None:
            return False
        return is_expert(game.seats[state.current_seat].kind)

    def driving(self, game_id: int) -> bool:
        """Whether the game has a driver running."""
        running = self._drivers.get(game_id)
        return running is not None and not running.done()

    def drive(self, game_id: int) -> None:
        """Let the game's Expert seats play (one driver task per game)."""
        if self.driving(game_id):
            self._again.add(game_id)
            return
        self._drivers[game_id] = asyncio.create_task(self._drive(game_id))

    async def _drive(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                result = await self.bots.play_expert(game_id)
                if result is None and game_id not in self._again:
                    return
        except Exception:
            log.exception("the Expert could not play", extra={"game_id": game_id})
        finally:
            if self._drivers.get(game_id) is asyncio.current_task():
                del self._drivers[game_id]

    def stop(self) -> None:
        """Cancel every driver (the bot is closing: a turn not committed is played again, the
        same way, at the next start: the Expert is seeded from the game)."""
        for task in self._drivers.values():
            task.cancel()


def _shared_experts() -> Experts:
    return experts.shared()
