"""The words of `/ps puzzle` (issue 58): the puzzle's screen, the verdict, the rating, the
leaderboard."""

from __future__ import annotations

from collections.abc import Sequence

from translation import _

PUZZLE_DESCRIBE = _("A puzzle: find the best whole turn of a position from a real game")
SHOW_DESCRIBE = _("The next puzzle (default), the puzzle of the day, or the puzzle leaderboard")
SHOW_NEXT = _("next puzzle")
SHOW_DAILY = _("puzzle of the day")
SHOW_LEADERBOARD = _("leaderboard")
HEADING = _("Puzzle {number}")
HEADING_DAILY = _("Puzzle of the day, {day}: puzzle {number}")
RULES_BASE = _("base game")
RULES_MOONLIGHT = _("Under the Moonlight")
TASK = _(
    "Find the best whole turn for your seat, round {round} of {rounds}. Play it with the panel, "
    "action by action; End turn gives your answer. A turn the Expert scores within half a point "
    "of its best is right."
)
SO_FAR = _("Your turn so far: {turn}")
RATING_LINE = _("Your puzzle rating: {rating} \N{MIDDLE DOT} streak: {streak}")
RIGHT = _("Right! Your turn `{turn}` is as good as the Expert's best.")
RIGHT_OTHER = _("Right! Your turn `{turn}` is within half a point of the Expert's best, `{best}`.")
WRONG = _("Not the best: your turn `{turn}` gives away {loss} points.")
BEST = _(
    "The best turn: `{best}`. The Expert expects it to end the game {margin} points ahead of the "
    "best other seat, at least {gap} points more than any other turn it found."
)
NOTHING = _("(nothing: end the turn)")
RATED = _("Puzzle rating: {rating} ({change}); streak: {streak}, best {best}.")
UNRATED = _("You answered this puzzle before: here is that answer again (rated once).")
NEXT_PUZZLE = _("Next puzzle")
UNDO = _("Undo")
ALL_DONE = _("You have tried every puzzle there is: new ones come from finished games.")
LEADERBOARD_TITLE = _("Puzzle leaderboard")
LEADERBOARD_EMPTY = _("Nobody has a puzzle rating yet: `/ps puzzle` gives you one.")
LEADERBOARD_ROW = _("{rank}. {name}: {rating} ({solved} solved, best streak {best})")
YOUR_RANK = _("You: {rank}. with {rating}.")
NOT_RANKED = _("You are not ranked: solve a puzzle (or show your profile again) to be.")
OPPONENT = _("Opponent")
HELP_PUZZLE = _(
    "a puzzle, privately: a position from a real game where one whole turn is clearly best; "
    "play your answer with the turn panel and End turn. Your puzzle rating, your streak, and "
    "the next puzzle near your rating; `show:` the puzzle of the day (the same for everyone) or "
    "the puzzle leaderboard"
)


def turn_words(turn: Sequence[str]) -> str:
    """A turn as its notations joined (`grow D4, buy seed`); "" for none."""
    return ", ".join(turn)
