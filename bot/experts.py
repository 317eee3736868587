"""The Expert at the table: its seats, its hints and the autopilot, decided off the event loop.

The Expert (`engine.expert`) searches for each decision for a fixed number of simulations, which
takes about its budget of CPU time: far too long for the event loop. Its decisions are made in
a pool of worker processes of their own (`bot.workers.WorkerPool`, the same machinery as the
pictures'), so a game whose Expert thinks never delays another game's clicks, nor a picture.

Seat kinds (stored in the `seats` table): ``expert`` (quick, 0.25 s a decision) and
``expert-strong`` (2 s), the names of the terminal game's seats (`engine.play`). For the engine
an Expert seat is a human seat (`engine_kind`) that the Expert plays.

Determinism: the Expert is seeded from the game (`expert_seed`), so the same position always
gets the same decision; a bot restarted while an Expert was thinking plays that turn again, the
same way, once (a turn is committed whole).

`EXPERT_WORKERS` (environment) sets the number of worker processes (default one per core, at
most 2; 0 decides in a thread of the bot's process). `PS_EXPERT_BUDGET_SCALE` (tests only, like
`PS_TEST_SEED`) multiplies every budget, so that end-to-end games against the Expert are quick
(or, above 1, so that a test can act while the Expert surely still thinks); the bot logs a
warning when it is set. Never set it in production.
"""

from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Mapping
from typing import Any, Literal

import engine
from engine import GameState
from engine.expert import Expert
from engine.players import AutopilotPlayer, ExpertPlayer, play_until, turn_over

from .config import ConfigError
from .workers import ProcessWide, WorkerPool, workers_from_env

log = logging.getLogger(__name__)

#: The Expert's seat kinds and their budget per decision, in seconds.
EXPERT_BUDGETS: dict[str, float] = {"expert": Expert.QUICK_S, "expert-strong": Expert.STRONG_S}
#: The autopilot of correspondence games and `/ps hint` are the Expert at the quick budget.
QUICK = "expert"
#: The bots a host may seat, in the order the lobby offers them.
BOT_KINDS = ("cynthia", *EXPERT_BUDGETS)
BUDGET_SCALE_ENV = "PS_EXPERT_BUDGET_SCALE"
#: The largest `PS_EXPERT_BUDGET_SCALE`: a strong decision of 40 s.
MAX_BUDGET_SCALE = 20
WORKERS_ENV = "EXPERT_WORKERS"
#: How far below the bot's priority the Expert's worker processes run (`os.nice`).
EXPERT_NICENESS = 10
#: The automa never needs this many decisions in a turn; the cap only guards against a bug.
MAX_TURN_STEPS = 2000


def is_expert(kind: str) -> bool:
    """Whether a seat of this kind is played by the Expert."""
    return kind in EXPERT_BUDGETS


def seat_to_play(state: GameState) -> int:
    """The seat whose turn it is, in a game being played (it has one until the game is over)."""
    if state.current_seat is None:
        raise ValueError("no seat is to play: the game is over")
    return state.current_seat


def engine_kind(kind: str) -> Literal["human", "cynthia"]:
    """The seat kind for `engine.Config`: an Expert seat is a human seat the Expert plays."""
    if is_expert(kind) or kind == "human":
        return "human"
    if kind == "cynthia":
        return "cynthia"
    raise ValueError(f"unknown seat kind {kind!r}")


def expert_seed(game_seed: int) -> int:
    """The Expert's seed in a game: from the game, so that a replayed turn is the same."""
    return game_seed


def budget_scale_from_env(env: Mapping[str, str] | None = None) -> float:
    """`PS_EXPERT_BUDGET_SCALE` (tests only), else 1."""
    value = (os.environ if env is None else env).get(BUDGET_SCALE_ENV, "").strip()
    if not value:
        return 1.0
    try:
        scale = float(value)
    except ValueError:
        scale = 0.0
    if not 0 < scale <= MAX_BUDGET_SCALE:
        raise ConfigError(
            f"{BUDGET_SCALE_ENV} must be a number above 0 and at most {MAX_BUDGET_SCALE}, "
            f"not {value!r}."
        )
    return scale


class _EndsTurn:
    """Ends the turn where it may; a decision that must be made (setup) is the Expert's."""

    def __init__(self, expert: Any) -> None:
        self.expert = expert

    def step(self, state: GameState) -> Any:
        ends = [a for a in engine.legal_actions(state) if a.verb == "end"]
        return ends[0] if ends else self.expert.step(state)


def play_turn(state: GameState, budget_s: float, seed: int, end_only: bool = False) -> list[Any]:
    """The Expert's actions for the current seat's whole turn (each with its explanation);
    with `end_only`, the turn ends as it is where it can. Pure CPU: run it in a worker."""
    seat = seat_to_play(state)
    player: Any = ExpertPlayer(budget_s, seed)
    if end_only:
        player = _EndsTurn(player)
    _, actions = play_until(state, {seat: player}, turn_over(state), max_steps=MAX_TURN_STEPS)
    return actions


def autopilot_turn(state: GameState, end_only: bool = False) -> list[Any]:
    """The same turn by the one-ply autopilot (`engine.autopilot`): the fallback when the
    Expert fails."""
    seat = seat_to_play(state)
    player: Any = AutopilotPlayer()
    if end_only:
        player = _EndsTurn(player)
    _, actions = play_until(state, {seat: player}, turn_over(state), max_steps=MAX_TURN_STEPS)
    return actions


def _turn_job(state_bytes: bytes, budget_s: float, seed: int, end_only: bool) -> list[Any]:
    """In a worker: `play_turn` of the pickled position."""
    return play_turn(pickle.loads(state_bytes), budget_s, seed, end_only)


def _decide_job(state_bytes: bytes, budget_s: float, seed: int) -> Any:
    """In a worker: the Expert's next decision in the pickled position."""
    return engine.expert_action(pickle.loads(state_bytes), budget_s=budget_s, seed=seed)


class Experts:
    """The Expert's decisions, made in worker processes."""

    def __init__(self, workers: int | None = None, scale: float | None = None) -> None:
        self.workers = workers_from_env(WORKERS_ENV) if workers is None else workers
        self.scale = budget_scale_from_env() if scale is None else scale
        if self.scale != 1.0:
            log.warning(
                "EXPERT BUDGET SCALED (tests only): every decision is weaker",
                extra={"scale": self.scale},
            )
        # Below the bot's priority: an Expert thinking never delays a click's answer (it thinks
        # a fixed number of simulations, so it decides the same, only later on a busy machine).
        self._pool = WorkerPool(
            self.workers, preload=["engine", "bot.experts"], niceness=EXPERT_NICENESS
        )

    def budget(self, kind: str) -> float:
        """The budget per decision of an Expert seat kind, in seconds (scaled in tests)."""
        return EXPERT_BUDGETS[kind] * self.scale

    async def turn(
        self, state: GameState, kind: str, seed: int, *, end_only: bool = False
    ) -> list[Any]:
        """The Expert's actions for the current seat's turn (`play_turn`), in a worker."""
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        return await self._pool.run(_turn_job, data, self.budget(kind), seed, end_only)

    async def decide(self, state: GameState, kind: str, seed: int) -> Any:
        """The Expert's next decision for the current seat, in a worker (a hint)."""
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        return await self._pool.run(_decide_job, data, self.budget(kind), seed)

    def worker_pids(self) -> list[int]:
        return self._pool.worker_pids()

    def close(self) -> None:
        """Stop the workers at once: a decision under way is dropped (nothing of a turn is
        stored before it is decided whole; the next start plays it again)."""
        self._pool.close(terminate=True)


_process_wide = ProcessWide(Experts)


def shared() -> Experts:
    """The process-wide Experts (made on first use)."""
    return _process_wide.get()


def shutdown() -> None:
    """Stop the process-wide Experts' workers (the bot calls this when it closes)."""
    _process_wide.shutdown()
