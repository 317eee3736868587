"""The Expert at the table: its seats, its hints and the autopilot, decided off the event loop.

The Expert (`engine.expert`) searches for each decision for a fixed number of simulations, which
takes about its budget of CPU time: far too long for the event loop. Its decisions are made in
a pool of worker processes of their own (`bot.workers.WorkerPool`, the same machinery as the
pictures'), so a game whose Expert thinks never delays another game's clicks, nor a picture.

Seat kinds (stored in the `seats` table): ``expert`` (0.25 s a decision), the one a host
seats, and ``expert-strong`` (2 s), which the lobby no longer offers (it played no stronger:
docs/expert.md); the finished games it played keep it. The names of the terminal game's seats
(`engine.play`). For the engine
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

import asyncio
import contextlib
import functools
import logging
import os
import pickle
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

import engine
from bot.config import ConfigError
from bot.workers import ProcessWide, WorkerPool, workers_from_env
from engine import Action, ConfigDict, GameState
from engine.expert import Expert
from engine.players import AutopilotPlayer, ExpertPlayer, Player, play_until, turn_over

if TYPE_CHECKING:
    from engine.expert.review import DecisionData

log = logging.getLogger(__name__)

#: The Expert's seat kinds and their budget per decision, in seconds.
EXPERT_BUDGETS: dict[str, float] = {"expert": Expert.QUICK_S, "expert-strong": Expert.STRONG_S}
#: The autopilot of correspondence games and `/ps hint` are the Expert at the quick budget.
QUICK = "expert"
#: The bots a host may seat, in the order the lobby offers them: one Expert (issue 56: the
#: strong one played no stronger, docs/expert.md, and thought eight times longer). A stored
#: ``expert-strong`` seat is a finished game's (migration 15 made the others ``expert``).
BOT_KINDS = ("cynthia", QUICK)
#: A bot the lobby once offered, as the one it offers now: a lobby message drawn before issue
#: 56 still offers the strong Expert, and choosing it seats the Expert.
FORMER_BOT_KINDS = {"expert-strong": QUICK}
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

    def __init__(self, expert: Player) -> None:
        self.expert = expert

    def step(self, state: GameState) -> Action:
        ends = [a for a in engine.legal_actions(state) if a.verb == "end"]
        return ends[0] if ends else self.expert.step(state)


def play_turn(state: GameState, budget_s: float, seed: int, end_only: bool = False) -> list[Action]:
    """The Expert's actions for the current seat's whole turn (each with its explanation);
    with `end_only`, the turn ends as it is where it can. Pure CPU: run it in a worker."""
    seat = seat_to_play(state)
    player: Player = ExpertPlayer(budget_s, seed)
    if end_only:
        player = _EndsTurn(player)
    _, actions = play_until(state, {seat: player}, turn_over(state), max_steps=MAX_TURN_STEPS)
    return actions


def autopilot_turn(state: GameState, end_only: bool = False) -> list[Action]:
    """The same turn by the one-ply autopilot (`engine.autopilot`): the fallback when the
    Expert fails."""
    seat = seat_to_play(state)
    player: Player = AutopilotPlayer()
    if end_only:
        player = _EndsTurn(player)
    _, actions = play_until(state, {seat: player}, turn_over(state), max_steps=MAX_TURN_STEPS)
    return actions


def _turn_job(state_bytes: bytes, budget_s: float, seed: int, end_only: bool) -> list[Action]:
    """In a worker: `play_turn` of the pickled position."""
    return play_turn(pickle.loads(state_bytes), budget_s, seed, end_only)


def _decide_job(state_bytes: bytes, budget_s: float, seed: int) -> Action:
    """In a worker: the Expert's next decision in the pickled position."""
    return engine.expert_action(pickle.loads(state_bytes), budget_s=budget_s, seed=seed)


T = TypeVar("T")
P = ParamSpec("P")
#: The nice value of a review's thread in a worker (`niced`): the review yields the cores to
#: the bot's process, its pictures and the Expert's seats, which run at the usual priority.
REVIEW_NICE = 15
#: `PS_REVIEW_NICE` (tests only, like `PS_EXPERT_BUDGET_SCALE`): another nice value for the
#: reviews, so that an end-to-end test's review is not starved by a busy test machine.
REVIEW_NICE_ENV = "PS_REVIEW_NICE"


def review_nice(env: Mapping[str, str] | None = None) -> int:
    """The reviews' nice value: `PS_REVIEW_NICE` (tests only, 0 to 19), else `REVIEW_NICE`."""
    value = (os.environ if env is None else env).get(REVIEW_NICE_ENV, "").strip()
    if not value:
        return REVIEW_NICE
    if not value.isdigit() or int(value) > 19:
        raise ConfigError(f"{REVIEW_NICE_ENV} must be a whole number from 0 to 19, not {value!r}.")
    return int(value)


def niced(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`function(*args, **kwargs)` in a thread of lower priority (`review_nice`; Linux sets a nice value
    per thread, and a thread may lower its own priority, never raise it back: so the work runs
    in a thread of its own and the worker itself keeps its priority for the next job)."""
    returned: list[T] = []
    raised: list[BaseException] = []
    nice = review_nice()

    def run() -> None:
        with contextlib.suppress(AttributeError, OSError):  # elsewhere: the same, unniced
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
        try:
            returned.append(function(*args, **kwargs))
        except BaseException as exc:  # handed to the caller as it is
            raised.append(exc)

    thread = threading.Thread(target=run, name="review", daemon=True)
    thread.start()
    thread.join()
    if raised:
        raise raised[0]
    return returned[0]


def _review_job(
    config: ConfigDict, seed: int, notations: Sequence[str], persons: Sequence[int],
    start: int, stop: int, budget_s: float,
) -> list[DecisionData]:  # fmt: skip
    """In a worker, at low priority: the decisions of `persons` among plies `start` to `stop`
    reviewed (`engine.expert.review.review_plies`), as dicts."""
    from engine.expert.review import review_plies

    decisions = niced(
        review_plies, engine.Config.from_dict(config), seed, notations, persons,
        range(start, stop), budget_s=budget_s, review_seed=seed,
    )  # fmt: skip
    return [d.to_dict() for d in decisions]


def _compare_job(
    state_bytes: bytes, turns: Sequence[Sequence[str]], budget_s: float, seed: int
) -> list[float]:
    """In a worker: what each turn gives away from the pickled position
    (`engine.expert.review.compare_turns`)."""
    from engine.expert.review import compare_turns

    losses, _plans = compare_turns(pickle.loads(state_bytes), turns, budget_s, seed)
    return losses


def _review_pictures_job(
    config: ConfigDict, seed: int, notations: Sequence[str], shown: Sequence[DecisionData],
    names: Sequence[str], lang: str | None, width: int, lost: Sequence[Sequence[float]],
) -> tuple[list[tuple[bytes, str]], tuple[bytes, str]]:  # fmt: skip
    """In a worker, at low priority: the pictures of a review (`render.review`): one per
    decision `shown` (the board with both turns marked, with its alt text) and the chart
    (`lost`: the points each seat gave away per round)."""
    return niced(_review_pictures, config, seed, notations, shown, names, lang, width, lost)


def _review_pictures(
    config: ConfigDict, seed: int, notations: Sequence[str], shown: Sequence[DecisionData],
    names: Sequence[str], lang: str | None, width: int, lost: Sequence[Sequence[float]],
) -> tuple[list[tuple[bytes, str]], tuple[bytes, str]]:  # fmt: skip
    from engine.expert.review import progress
    from render.draw import drawn_png
    from render.review import decision_alt, decision_picture, progress_alt, progress_chart

    cfg = engine.Config.from_dict(config)
    plies = sorted({int(d["ply"]) for d in shown})
    before: dict[int, GameState] = {}
    state = engine.new_game(cfg, seed)
    for ply, notation in enumerate(notations):
        if ply in plies:
            before[ply] = state
        state = engine.apply(state, notation)
    pictures = []
    marks = []
    for number, d in enumerate(shown, 1):
        at, played, best = before[int(d["ply"])], list(d["played"]), list(d["best"])
        png = drawn_png(
            functools.partial(decision_picture, at, played, best, names=names, lang=lang,
                              width=width)
        )  # fmt: skip
        name = names[int(d["seat"])]
        pictures.append((png, decision_alt(at, played, best, name, lang)))
        marks.append((number, int(d["round"]), int(d["seat"])))
    points = progress(cfg, seed, notations)
    chart = drawn_png(
        functools.partial(progress_chart, points, names, lang, width, marks=marks, lost=lost)
    )
    return pictures, (chart, progress_alt(points, names, lang))


def _judge_job(puzzle: dict[str, Any], answer: Sequence[str]) -> float:
    """In a worker: the loss of an answer to a puzzle the analysis never simulated
    (`engine.expert.puzzles.Puzzle.judge`: the answer simulated at the quick budget)."""
    from engine.expert.puzzles import Puzzle

    return Puzzle.from_dict(puzzle).judge(answer).loss


def _puzzle_job(
    config: ConfigDict,
    seed: int,
    notations: Sequence[str],
    ply: int,
    source: str,
    seeds: Sequence[int],
) -> dict[str, Any] | None:
    """In a worker, at low priority: the puzzle the position after `ply` actions of a game
    makes (`engine.expert.puzzles.make_puzzle`, with a quick check first: `quick_gap`), as a
    dict, or None."""
    return niced(_make_puzzle, config, seed, notations, ply, source, seeds)


def _make_puzzle(
    config: ConfigDict,
    seed: int,
    notations: Sequence[str],
    ply: int,
    source: str,
    seeds: Sequence[int],
) -> dict[str, Any] | None:
    from engine.expert.puzzles import PREFILTER_GAP, QUICK_BUDGET_S, analyse, make_puzzle

    state = engine.replay(engine.Config.from_dict(config), seed, list(notations[:ply]))
    if analyse(state, QUICK_BUDGET_S, 0).gap < PREFILTER_GAP:
        return None
    puzzle = make_puzzle(state, source, seeds)
    return None if puzzle is None else puzzle.to_dict()


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
            self.workers, preload=["engine", "bot.services.experts"], niceness=EXPERT_NICENESS
        )
        #: One review job at a time (`review`), made on first use (in the event loop).
        self._review_lock: asyncio.Lock | None = None

    def budget(self, kind: str) -> float:
        """The budget per decision of an Expert seat kind, in seconds (scaled in tests)."""
        return EXPERT_BUDGETS[kind] * self.scale

    async def turn(
        self, state: GameState, kind: str, seed: int, *, end_only: bool = False
    ) -> list[Action]:
        """The Expert's actions for the current seat's turn (`play_turn`), in a worker."""
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        return await self._pool.run(_turn_job, data, self.budget(kind), seed, end_only)

    async def decide(self, state: GameState, kind: str, seed: int) -> Action:
        """The Expert's next decision for the current seat, in a worker (a hint)."""
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        return await self._pool.run(_decide_job, data, self.budget(kind), seed)

    async def review(
        self,
        config: ConfigDict,
        seed: int,
        notations: Sequence[str],
        persons: Sequence[int],
        plies: range,
        budget_s: float,
    ) -> list[DecisionData]:
        """Some plies of a finished game reviewed (`_review_job`) in a worker, one review job
        at a time in the whole process: the other worker stays free for the Expert's seats."""
        async with self._review_turn():
            return await self._pool.run(
                _review_job, config, seed, list(notations), list(persons), plies.start,
                plies.stop, budget_s,
            )  # fmt: skip

    async def review_pictures(
        self,
        config: ConfigDict,
        seed: int,
        notations: Sequence[str],
        shown: Sequence[DecisionData],
        names: Sequence[str],
        lang: str | None,
        width: int,
        lost: Sequence[Sequence[float]] = (),
    ) -> tuple[list[tuple[bytes, str]], tuple[bytes, str]]:
        """A review's pictures (`_review_pictures_job`), in a worker."""
        async with self._review_turn():
            return await self._pool.run(
                _review_pictures_job, config, seed, list(notations), list(shown), list(names),
                lang, width, [list(row) for row in lost],
            )  # fmt: skip

    async def compare(
        self, state: GameState, turns: Sequence[Sequence[str]], budget_s: float, seed: int
    ) -> tuple[float, float, float]:
        """What three turns from `state` give away, on the same simulations (`_compare_job`),
        in a worker (Try again: a person waits for it, so it is no review job)."""
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        new, played, best = await self._pool.run(
            _compare_job, data, [list(t) for t in turns], budget_s, seed
        )
        return new, played, best

    async def judge_puzzle(self, puzzle: dict[str, Any], answer: Sequence[str]) -> float:
        """The loss of an answer the puzzle's analysis never simulated (`_judge_job`), in a
        worker (a solver waits for it: no review job)."""
        return await self._pool.run(_judge_job, puzzle, list(answer))

    async def find_puzzle(
        self, config: ConfigDict, seed: int, notations: Sequence[str], ply: int, source: str,
        seeds: Sequence[int],
    ) -> dict[str, Any] | None:  # fmt: skip
        """The puzzle a finished game's position makes (`_puzzle_job`), in a worker at low
        priority, one such job at a time with the reviews."""
        async with self._review_turn():
            return await self._pool.run(
                _puzzle_job, config, seed, list(notations), ply, source, list(seeds)
            )

    def _review_turn(self) -> asyncio.Lock:
        if self._review_lock is None:
            self._review_lock = asyncio.Lock()
        return self._review_lock

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
