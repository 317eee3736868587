"""Puzzle ratings (issue 58): each attempt is a game of two between the solver and the puzzle.

openskill's Plackett-Luce model, as the game ratings (`bot.ratings.core.MODEL`): a solved puzzle
is a win of the solver over the puzzle, a failed one a win of the puzzle, and both ratings move,
as lichess moves a puzzle's Glicko-2 rating with every attempt. Why openskill rather than
Glicko-2 (docs/puzzles.md#the-puzzle-rating): one model and one scale for every rating of the
bot (a player reads their puzzle rating beside their game ratings), no new dependency, and a
player's uncertainty (sigma) shrinks with their attempts as Glicko-2's deviation does. Glicko-2's
rating periods and volatility serve a site where the same players come back for years; a
puzzle attempt here is rated at once.

The rating shown is the same ordinal as the game ratings', mu - 3 sigma; puzzles are chosen by
mu, the best guess of the strength (a newcomer's ordinal is 0 whatever their mu).
"""

from __future__ import annotations

from typing import NamedTuple

from bot.ratings.core import MODEL, START_MU, START_SIGMA, ordinal


class PuzzleRating(NamedTuple):
    """A solver's or a puzzle's rating: openskill's mean and uncertainty."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def rate_attempt(
    solver: PuzzleRating, puzzle: PuzzleRating, solved: bool
) -> tuple[PuzzleRating, PuzzleRating]:
    """The solver's and the puzzle's ratings after one attempt (`solved` or failed)."""
    a = MODEL.rating(mu=solver.mu, sigma=solver.sigma)
    b = MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)
    ranks = [1.0, 2.0] if solved else [2.0, 1.0]
    [[a2], [b2]] = MODEL.rate([[a], [b]], ranks=ranks)
    return PuzzleRating(a2.mu, a2.sigma), PuzzleRating(b2.mu, b2.sigma)
