"""The Expert's review of a finished game (issue 47).

For each person at the table the review finds the three decisions that cost them the most by the
Expert's search (`engine.expert.review`). It is computed once per game, ply range by ply range
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

from bot.services import refusals
from bot.services.base import UserError
from bot.services.core import GameCore
from bot.services.experts import Experts
from bot.services.refusals import REVIEW_FAILED, REVIEW_NOT_OVER
from bot.storage import GameRow, ReviewRow
from engine.expert.review import REVIEW_BUDGET_S, Decision, worst

log = logging.getLogger(__name__)

#: The plies one review job covers: about 10 decisions, a second or two of a worker.
CHUNK_PLIES = 12
#: A review's runs at most: the first, and one after a restart.
MAX_ATTEMPTS = 2
#: The costliest decisions shown per person.
SHOWN = 3


@dataclass(frozen=True)
class PersonReview:
    """A person's part of a review: their seat and costliest decisions (costliest first)."""

    seat: int
    decisions: tuple[Decision, ...]


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


def people(game: GameRow, review: ReviewRow) -> list[PersonReview]:
    """Each person's costliest decisions (`SHOWN`), in seat order."""
    decisions = [Decision.from_dict(d) for d in review.decisions]
    return [
        PersonReview(seat.position, tuple(worst(decisions, seat.position, SHOWN)))
        for seat in game.seats
        if seat.kind == "human"
    ]


def shown_decisions(parts: Sequence[PersonReview]) -> list[Decision]:
    """Every decision a review shows, in the order of its messages."""
    return [d for part in parts for d in part.decisions]
