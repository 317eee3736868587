"""Puzzles (`/ps puzzle`, issue 58): find the best whole turn of a position.

A solver gets a puzzle near their puzzle rating (`next_puzzle`), or the day's puzzle (the same for
everyone that day: `daily`), and answers with a whole turn played action by action with the
game's panel (`play`, `undo`); End turn submits it (`submit`). The Expert judges the answer
(`engine.expert.puzzles.judge`): a turn its analysis simulated by the stored loss, any other by
simulating it in the Expert's workers. Within `RIGHT_WITHIN` points of the best is right. The
first attempt at a puzzle is rated (`bot.ratings.puzzles`: the solver and the puzzle, as a game
of two) and moves the streak of puzzles solved in a row; the attempt, the solver's rating and
the puzzle's are written in one transaction, only while the attempt is still open with the turn
the solver saw (a replayed or forged click changes nothing).

Each attempt belongs to one person: a click names the attempt and the turn's length it was
drawn for, and is refused unless the attempt is the clicker's own (`Interaction.user`), open and
at that point (`PuzzleRefusal`).

The shipped puzzles (`data/puzzles.json`) are stored at the start (`ensure_shipped`); new ones
are found in finished games by a low-priority background job (`mine`), a few positions at a
time in the Expert's workers.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import engine
from bot.ratings.core import ordinal
from bot.ratings.puzzles import PuzzleRating, rate_attempt
from bot.services import refusals
from bot.services.base import UserError
from bot.storage import PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow, Storage
from engine import GameState
from engine.expert.puzzles import (
    RIGHT_WITHIN,
    Puzzle,
    is_puzzle_position,
    position_key,
    shipped_puzzles,
    turn_key,
)

log = logging.getLogger(__name__)

#: When the shipped puzzles count as stored: before any day, so every day's puzzle may be one.
SHIPPED_AT = "2000-01-01T00:00:00.000+00:00"
#: The puzzle leaderboard's length.
LEADERBOARD_SIZE = 10
#: The positions of finished games the background job checks in one run (`mine`): each is a
#: quick analysis (about 0.1 s of CPU), and the few that show a gap two checks at four times
#: the budget (about 2 s), in a worker at low priority.
MINE_POSITIONS = 8
#: The seeds of the two checks of a puzzle found in a finished game.
MINE_SEEDS = (101, 102)

#: Judges an answer no analysis simulated: (the puzzle as a dict, the answer) -> loss.
Judge = Callable[[dict[str, Any], Sequence[str]], Awaitable[float]]


async def judge_in_thread(puzzle: dict[str, Any], answer: Sequence[str]) -> float:
    """`Judge` in a thread of this process (tests and benches; the bot judges in a worker)."""
    return await asyncio.to_thread(lambda: Puzzle.from_dict(puzzle).judge(answer).loss)


@dataclass(frozen=True)
class Screen:
    """What a solver sees of an attempt being played: the attempt, its puzzle, the position
    after the actions played so far, and the solver's rating row (None: never rated)."""

    attempt: PuzzleAttemptRow
    row: PuzzleRow
    puzzle: Puzzle
    state: GameState
    player: PuzzlePlayerRow | None

    @property
    def legal(self) -> list[str]:
        """The actions the panel offers: the legal ones of the turn being answered."""
        return [str(a) for a in engine.legal_actions(self.state)]


@dataclass(frozen=True)
class Result:
    """A judged answer: the attempt closed, its puzzle, whether it was right, the loss, the
    solver's rating shown before and their row after, whether this answer was rated (False: an
    answer given before, shown again), and the next puzzle near the rating (None: every puzzle
    was attempted)."""

    attempt: PuzzleAttemptRow
    row: PuzzleRow
    puzzle: Puzzle
    answer: tuple[str, ...]
    solved: bool
    loss: float
    before: float
    after: PuzzlePlayerRow
    rated: bool
    next: PuzzleRow | None


def today_of(now: datetime) -> date:
    return now.astimezone(UTC).date()


def day_pick(day: date) -> int:
    """The index the day's puzzle is picked by (the same for everyone on that day)."""
    return int.from_bytes(hashlib.sha256(f"puzzle-of-the-day:{day}".encode()).digest()[:8], "big")


def new_player(user_id: int) -> PuzzlePlayerRow:
    start = PuzzleRating()
    return PuzzlePlayerRow(user_id, start.mu, start.sigma, start.ordinal, 0, 0, 0, 0)


def rated_player(before: PuzzlePlayerRow, rating: PuzzleRating, solved: bool) -> PuzzlePlayerRow:
    """A solver's row after a rated attempt: the new rating, the counts and the streaks."""
    streak = before.streak + 1 if solved else 0
    return PuzzlePlayerRow(
        before.user_id,
        rating.mu,
        rating.sigma,
        ordinal(rating.mu, rating.sigma),
        before.solved + int(solved),
        before.failed + int(not solved),
        streak,
        max(before.best_streak, streak),
    )


class PuzzleService:
    """Puzzles: chosen, played, judged, rated; found in finished games."""

    def __init__(
        self,
        storage: Storage,
        judge: Judge = judge_in_thread,
        finder: Callable[..., Awaitable[dict[str, Any] | None]] | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.storage = storage
        self.judge = judge
        self.finder = finder
        self.now = now
        self._puzzles: dict[int, Puzzle] = {}

    # --- the puzzles ---

    async def ensure_shipped(self, puzzles: Sequence[Puzzle] | None = None) -> int:
        """Store the shipped puzzles not stored yet (`data/puzzles.json`, or `puzzles`);
        returns how many were new."""
        if puzzles is None:
            puzzles = await asyncio.to_thread(shipped_puzzles)
        have = await self.storage.puzzle_keys()
        new = [p for p in puzzles if p.key not in have]
        if not new:
            return 0
        start = PuzzleRating()
        rows = [(p.key, p.rules, p.source, json.dumps(p.to_dict())) for p in new]
        return await self.storage.add_puzzles(rows, start.mu, start.sigma, SHIPPED_AT)

    def puzzle_of(self, row: PuzzleRow) -> Puzzle:
        """A stored puzzle's record (read once per process; a damaged one is our bug)."""
        puzzle = self._puzzles.get(row.id)
        if puzzle is None:
            puzzle = Puzzle.from_dict(json.loads(row.data))
            self._puzzles[row.id] = puzzle
        return puzzle

    # --- an attempt ---

    async def start(self, user_id: int, *, daily: bool = False) -> Screen | Result:
        """`/ps puzzle`: the solver's open attempt (they go on where they stopped), else a new
        one at the puzzle nearest their rating; with `daily`, the day's puzzle (their attempt
        at it, as it stands)."""
        player = await self.storage.puzzle_player(user_id)
        if daily:
            day = today_of(self.now())
            start_of_day = datetime(day.year, day.month, day.day, tzinfo=UTC).isoformat()
            row = await self.storage.puzzle_of_day(start_of_day, day_pick(day))
            if row is None:
                raise UserError(refusals.NO_PUZZLE)
            attempt = await self.storage.start_puzzle_attempt(user_id, row.id, day.isoformat())
            return await self._shown(attempt, row, player)
        open_ = await self.storage.open_puzzle_attempt(user_id)
        if open_ is not None:
            row = await self.storage.puzzle(open_.puzzle_id)
            if row is not None:
                return self._screen(open_, row, player)
        mu = (player or new_player(user_id)).mu
        found = await self.storage.puzzle_near(user_id, mu)
        if found is None:
            raise UserError(refusals.ALL_PUZZLES_DONE)
        attempt = await self.storage.start_puzzle_attempt(user_id, found.id, None)
        return self._screen(attempt, found, player)

    async def begin(self, user_id: int, puzzle_id: int) -> Screen | Result:
        """The solver's attempt at the puzzle `puzzle_id` (Next puzzle on a result: the one it
        named), as it stands or new (answered already: its verdict again)."""
        row = await self.storage.puzzle(puzzle_id)
        if row is None:
            raise UserError(refusals.NO_PUZZLE)
        attempt = await self.storage.start_puzzle_attempt(user_id, row.id, None)
        return await self._shown(attempt, row, await self.storage.puzzle_player(user_id))

    async def _shown(
        self, attempt: PuzzleAttemptRow, row: PuzzleRow, player: PuzzlePlayerRow | None
    ) -> Screen | Result:
        """An attempt's screen while it is open, else its verdict again (unrated)."""
        if attempt.status == "open" or attempt.loss is None:
            return self._screen(attempt, row, player)
        now = player or new_player(attempt.user_id)
        following = await self.storage.puzzle_near(attempt.user_id, now.mu)
        turn = tuple(a for a in attempt.actions if a != "end")
        return Result(
            attempt, row, self.puzzle_of(row), turn, attempt.status == "solved", attempt.loss,
            now.ordinal, now, False, following,
        )  # fmt: skip

    def _screen(
        self, attempt: PuzzleAttemptRow, row: PuzzleRow, player: PuzzlePlayerRow | None
    ) -> Screen:
        puzzle = self.puzzle_of(row)
        state = puzzle.state
        for notation in attempt.actions:
            state = engine.apply(state, notation)
        return Screen(attempt, row, puzzle, state, player)

    async def at(self, user_id: int, attempt_id: int, ply: int) -> Screen:
        """The attempt a click names, checked: the clicker's own (never another's: a forged
        custom_id), still open, and at the `ply`-th action the clicked screen was drawn for."""
        found = await self.storage.puzzle_attempt_with(attempt_id)
        if found is None or found[0].user_id != user_id:
            raise UserError(refusals.NOT_YOUR_PUZZLE)
        attempt, row, player = found
        if attempt.status != "open":
            raise UserError(refusals.PUZZLE_ANSWERED)
        if len(attempt.actions) != ply:
            raise UserError(refusals.STALE_PUZZLE)
        return self._screen(attempt, row, player)

    async def play(self, user_id: int, attempt_id: int, ply: int, notation: str) -> Screen | Result:
        """One action of the answer (from the screen drawn at `ply` actions): the next screen,
        or, for End turn (or an action that ends the turn by itself), the judged answer."""
        screen = await self.at(user_id, attempt_id, ply)
        if notation not in screen.legal:
            raise UserError(refusals.NOT_OFFERED)
        after = engine.apply(screen.state, notation)
        actions = (*screen.attempt.actions, notation)
        ends = notation == "end" or engine.turn_id(after) != engine.turn_id(screen.state)
        if ends or after.is_over:
            return await self._submit(screen, actions)
        if not await self.storage.set_puzzle_actions(attempt_id, screen.attempt.actions, actions):
            raise UserError(refusals.STALE_PUZZLE)
        attempt = await self.storage.puzzle_attempt(attempt_id)
        assert attempt is not None
        return Screen(attempt, screen.row, screen.puzzle, after, screen.player)

    async def undo(self, user_id: int, attempt_id: int, ply: int) -> Screen:
        """Take back the answer's last action (the panel offers Undo after one)."""
        screen = await self.at(user_id, attempt_id, ply)
        if not screen.attempt.actions:
            raise UserError(refusals.NOT_OFFERED)
        actions = screen.attempt.actions[:-1]
        if not await self.storage.set_puzzle_actions(attempt_id, screen.attempt.actions, actions):
            raise UserError(refusals.STALE_PUZZLE)
        return await self.at(user_id, attempt_id, len(actions))

    async def _submit(self, screen: Screen, actions: tuple[str, ...]) -> Result:
        """Judge the whole turn `actions`, rate the first attempt, and choose the next puzzle."""
        puzzle = screen.puzzle
        turn = tuple(a for a in actions if a != "end")
        # the position the turn reached (before its End turn: the screen's), named as stored
        key = position_key(screen.state) if actions[-1] == "end" else turn_key(puzzle.state, turn)
        key_loss = puzzle.losses.get(key)
        loss = key_loss if key_loss is not None else await self.judge(puzzle.to_dict(), turn)
        solved = loss <= RIGHT_WITHIN
        attempt = screen.attempt
        before = screen.player
        after: PuzzlePlayerRow | None = None
        rated_puzzle: tuple[float, float] | None = None
        if attempt.rated:
            base = before or new_player(attempt.user_id)
            mine, theirs = rate_attempt(
                PuzzleRating(base.mu, base.sigma),
                PuzzleRating(screen.row.mu, screen.row.sigma),
                solved,
            )
            after = rated_player(base, mine, solved)
            rated_puzzle = (theirs.mu, theirs.sigma)
        if not await self.storage.finish_puzzle_attempt(
            attempt, actions, solved, loss, after, rated_puzzle
        ):
            raise UserError(refusals.STALE_PUZZLE)
        closed = PuzzleAttemptRow(
            attempt.id, attempt.user_id, attempt.puzzle_id, attempt.day, actions,
            "solved" if solved else "failed", loss, attempt.rated,
        )  # fmt: skip
        shown = before or new_player(attempt.user_id)
        now = after or shown
        following = await self.storage.puzzle_near(attempt.user_id, now.mu)
        return Result(
            closed, screen.row, puzzle, turn, solved, loss, shown.ordinal, now, after is not None,
            following,
        )  # fmt: skip

    async def leaderboard(
        self, reader: int
    ) -> tuple[list[PuzzlePlayerRow], tuple[int, PuzzlePlayerRow] | None]:
        """The best solvers by puzzle rating (hidden players left out) and the reader's rank."""
        return await self.storage.puzzle_leaderboard(LEADERBOARD_SIZE, reader)

    # --- new puzzles from finished games (the background job) ---

    async def mine(self, positions: int = MINE_POSITIONS) -> int:
        """Check up to `positions` turn starts of finished games for puzzles, the oldest game
        first, where the last run stopped; store the puzzles found. Returns how many."""
        if self.finder is None:
            return 0
        found = 0
        left = positions
        while left > 0:
            source = await self.storage.next_puzzle_source()
            if source is None:
                break
            game_id, next_ply = source
            game = await self.storage.get_game(game_id)
            if game is None or game.config is None:
                await self.storage.puzzle_source_progress(game_id, 0, True)
                continue
            notations = [row.notation for row in await self.storage.actions(game_id)]
            plies = await asyncio.to_thread(
                _turn_start_plies, game.config, game.seed, notations, next_ply
            )
            for ply in plies:
                if left == 0:
                    break
                left -= 1
                data = await self.finder(
                    game.config, game.seed, notations, ply, f"game:{game_id}", MINE_SEEDS
                )
                if data is not None:
                    puzzle = Puzzle.from_dict(data)
                    start = PuzzleRating()
                    row = (puzzle.key, puzzle.rules, puzzle.source, json.dumps(data))
                    found += await self.storage.add_puzzles([row], start.mu, start.sigma, None)
                await self.storage.puzzle_source_progress(game_id, ply + 1, False)
            else:
                await self.storage.puzzle_source_progress(game_id, len(notations), True)
        if found:
            log.info("puzzles found in finished games", extra={"count": found})
        return found


def _turn_start_plies(
    config: engine.ConfigDict, seed: int, notations: Sequence[str], first: int
) -> list[int]:
    """The plies from `first` on where a person's turn with a choice begins in a game."""
    state = engine.new_game(engine.Config.from_dict(config), seed)
    out: list[int] = []
    last = None
    for ply, notation in enumerate(notations):
        if ply >= first and is_puzzle_position(state) and engine.turn_id(state) != last:
            out.append(ply)
        last = engine.turn_id(state)
        state = engine.apply(state, notation)
    return out


async def finished_game_records(
    url: str,
) -> list[tuple[int, engine.Config, int, list[str]]]:
    """Every finished game of the database at `url`, as `(id, config, seed, notations)`
    (`bench/make_puzzles.py --database`)."""
    from bot.storage.databases import open_storage

    storage = await open_storage(url)
    try:
        out = []
        for game in await storage.games_with_status("over"):
            if game.config is None:
                continue
            notations = [row.notation for row in await storage.actions(game.id)]
            out.append((game.id, engine.Config.from_dict(game.config), game.seed, notations))
        return out
    finally:
        await storage.close()
