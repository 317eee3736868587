"""The Expert's review of a finished game (issue 47).

For each person at the table the review finds the three turns that cost them the most by the
Expert's search, each beside the Expert's own turn from the same position, the facts their reasons
are told with, the person's game-long flaws and the points given away per turn
(`engine.expert.review`). It is computed once per game, ply range by ply range
(`CHUNK_PLIES`), each in one of the Expert's worker processes at low priority and one at a time
(`bot.services.experts.Experts.review`), so the other games' clicks and the Expert's seats go on at full
speed. Its progress is stored after each range (`reviews` table): a bot restarted during a review
resumes it where it stopped, once (`MAX_ATTEMPTS`); the finished review is stored and shown
again without being computed again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import engine
from bot.services import refusals
from bot.services.base import UserError
from bot.services.core import GameCore
from bot.services.experts import Experts
from bot.services.refusals import (
    NOT_OFFERED,
    REVIEW_FAILED,
    REVIEW_NOT_OVER,
    REVIEW_NOT_READY,
    TRY_NO_TURN,
)
from bot.storage import GameRow, ReviewRow
from engine.config import Config
from engine.expert.review import (
    REVIEW_BUDGET_S,
    Decision,
    Pattern,
    current,
    patterns,
    per_turn,
    unseen_redrawn,
    worst,
)
from engine.state import GameState

log = logging.getLogger(__name__)

#: The plies one review job covers: about 10 decisions, a second or two of a worker.
CHUNK_PLIES = 12
#: A review's runs at most: the first, and one after a restart.
MAX_ATTEMPTS = 2
#: The costliest decisions shown per person.
SHOWN = 3


@dataclass(frozen=True)
class PersonReview:
    """A person's part of a review: their seat, costliest turns (costliest first), the points
    they gave away per turn on average (None: no turn reviewed) and their game's flaws."""

    seat: int
    decisions: tuple[Decision, ...]
    per_turn: float | None = None
    turns: int = 0
    patterns: tuple[Pattern, ...] = ()


class ReviewService:
    """Asking for a review, computing (or resuming) it, and what it says."""

    def __init__(self, core: GameCore, experts: Experts) -> None:
        self.core = core
        self.storage = core.storage
        self.experts = experts

    async def ask(self, game_id: int, channel_id: int | None) -> tuple[GameRow, ReviewRow, bool]:
        """The review of a finished game of the click's channel, made ("running") when nobody
        asked before; and whether this click made it (then the caller runs it: `run`)."""
        game = await self.core.game_here(game_id, channel_id)
        if game is None:
            raise UserError(refusals.GAME_GONE)
        if game.status != "over" or game.config is None:
            raise UserError(REVIEW_NOT_OVER)
        review, made = await self.storage.start_review(game.id)
        if review.status == "failed":
            raise UserError(REVIEW_FAILED)
        if review.status in ("done", "posted") and not current(review.decisions):
            # A review of an earlier kind (one action a decision): computed again, turn by turn.
            await self.storage.update_review(
                game.id, status="running", next_ply=0, decisions=[], posted=0, attempts=1
            )
            fresh = await self.storage.review(game.id)
            assert fresh is not None
            return game, fresh, True
        return game, review, made

    async def to_finish(self) -> list[ReviewRow]:
        """At start: the reviews a restart interrupted (running, or done and not all posted)."""
        return await self.storage.reviews_to_finish()

    async def resume(self, review: ReviewRow) -> bool:
        """Whether an interrupted review (`to_finish`) goes on: a running one is resumed once
        more (its attempts counted here) or given up ("failed", logged) after `MAX_ATTEMPTS`
        runs; a done one has messages left to post."""
        if review.status != "running":
            return True
        if review.attempts >= MAX_ATTEMPTS:
            await self.storage.update_review(review.game_id, status="failed")
            log.error("a review was interrupted twice", extra={"game_id": review.game_id})
            return False
        await self.storage.update_review(review.game_id, attempts=review.attempts + 1)
        return True

    async def run(self, game_id: int) -> ReviewRow:
        """Compute a running review to its end from where it stopped, storing its progress
        after each range of plies; a failure marks it "failed" (logged) and raises."""
        game = await self.core.get_game(game_id)
        review = await self.storage.review(game_id)
        if game is None or game.config is None or review is None:
            raise UserError(REVIEW_FAILED)
        if review.status != "running":
            return review
        try:
            notations = [row.notation for row in await self.storage.actions(game_id)]
            persons = [seat.position for seat in game.seats if seat.kind == "human"]
            budget = REVIEW_BUDGET_S * self.experts.scale
            decisions = list(review.decisions)
            ply = review.next_ply
            while ply < len(notations):
                stop = min(len(notations), ply + CHUNK_PLIES)
                decisions += await self.experts.review(
                    game.config, game.seed, notations, persons, range(ply, stop), budget
                )
                ply = stop
                await self.storage.update_review(game_id, next_ply=ply, decisions=decisions)
            await self.storage.update_review(game_id, status="done")
        except BrokenProcessPool:
            raise  # the workers stopped with the bot: resumed at the next start
        except Exception:
            log.exception("could not review a game", extra={"game_id": game_id})
            await self.storage.update_review(game_id, status="failed")
            raise
        done = await self.storage.review(game_id)
        assert done is not None
        return done


@dataclass(frozen=True)
class Try:
    """A reviewed turn played again (Try again): the ``decision``, the position it began in
    (``start``, the face-down tokens drawn afresh: what its player could know), the position
    reached (``state``) by the actions ``tried`` so far, and whether that turn is over."""

    game: GameRow
    decision: Decision
    start: GameState
    state: GameState
    tried: tuple[str, ...]

    @property
    def over(self) -> bool:
        return engine.turn_id(self.state) != engine.turn_id(self.start)


def legal(state: GameState) -> list[str]:
    """The legal actions of a try's position, in the order its path indexes them."""
    return [] if state.is_over else [str(a) for a in engine.legal_actions(state)]


class Retries:
    """Try again: a reviewed turn played once more, privately, and the Expert's comparison."""

    def __init__(self, core: GameCore, experts: Experts) -> None:
        self.core = core
        self.storage = core.storage
        self.experts = experts

    async def at(self, game_id: int, channel_id: int | None, ply: int, path: Sequence[int]) -> Try:
        """The try of the turn reviewed at `ply` after the actions of `path` (indexes among the
        legal actions, `legal`); refused when the game, its review or the turn is not there."""
        game = await self.core.game_here(game_id, channel_id)
        if game is None:
            raise UserError(refusals.GAME_GONE)
        if game.status != "over" or game.config is None:
            raise UserError(REVIEW_NOT_OVER)
        review = await self.storage.review(game.id)
        if review is None or review.status not in ("done", "posted"):
            raise UserError(REVIEW_NOT_READY)
        decision = find(review, ply)
        if decision is None or not current(review.decisions):
            raise UserError(TRY_NO_TURN)
        notations = [row.notation for row in await self.storage.actions(game.id)]
        config = Config.from_dict(game.config)
        start = unseen_redrawn(engine.replay(config, game.seed, notations[:ply]), game.seed)
        state, tried = start, []
        for index in path:
            now = legal(state)
            if engine.turn_id(state) != engine.turn_id(start) or not 0 <= index < len(now):
                raise UserError(NOT_OFFERED)
            tried.append(now[index])
            state = engine.apply(state, now[index])
        return Try(game, decision, start, state, tuple(tried))

    async def compare(self, attempt: Try) -> tuple[float, float, float]:
        """What the tried turn, the turn played and the Expert's turn give away (points of
        final margin, on the same simulations), in a worker."""
        turns = [list(attempt.tried), list(attempt.decision.played), list(attempt.decision.best)]
        budget = REVIEW_BUDGET_S * self.experts.scale
        new, played, best = await self.experts.compare(
            attempt.start, turns, budget, attempt.game.seed
        )
        return new, played, best


def people(game: GameRow, review: ReviewRow, notations: Sequence[str]) -> list[PersonReview]:
    """Each person's costliest turns (`SHOWN`), points given away per turn and game-long
    flaws (`notations`: the game's actions), in seat order."""
    assert game.config is not None
    config = Config.from_dict(game.config)
    decisions = [Decision.from_dict(d) for d in review.decisions]
    return [
        PersonReview(
            seat.position,
            tuple(worst(decisions, seat.position, SHOWN)),
            per_turn(decisions, seat.position),
            sum(1 for d in decisions if d.seat == seat.position),
            tuple(patterns(config, game.seed, notations, seat.position)),
        )
        for seat in game.seats
        if seat.kind == "human"
    ]


def lost_per_round(game: GameRow, review: ReviewRow, rounds: int) -> list[list[float]]:
    """Per round (from round 1), the points each seat gave away in its turns of that round."""
    out = [[0.0] * len(game.seats) for _ in range(rounds)]
    for data in review.decisions:
        d = Decision.from_dict(data)
        if 1 <= d.round <= rounds and d.seat < len(game.seats):
            out[d.round - 1][d.seat] += d.loss
    return out


def find(review: ReviewRow, ply: int) -> Decision | None:
    """The reviewed turn that begins at `ply`, if any."""
    for data in review.decisions:
        if int(data["ply"]) == ply:
            return Decision.from_dict(data)
    return None


def shown_decisions(parts: Sequence[PersonReview]) -> list[Decision]:
    """Every decision a review shows, in the order of its messages."""
    return [d for part in parts for d in part.decisions]
