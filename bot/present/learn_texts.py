"""The words of `/ps learn` (the lessons' own words are the engine's: `engine.tutorial`)."""

from __future__ import annotations

from translation import _

LEARN_DESCRIBE = _("Learn to play: short lessons on the board, then a game against Cynthia")
ACTION_DESCRIBE = _("Answer the lesson by typing an action, as with /ps play (grow D4, end)")
LESSON_HEADING = _("Lesson {n} of {total}: {title}")
EXPANSION_HEADING = _("Under the Moonlight, lesson {n} of {total}: {title}")
ASK = _("Your task: {ask}")
RIGHT = _("Right: `{notation}`.")
WRONG = _("`{notation}`: {reason} Try again.")
SHOWN = _("`{notation}`: {reason} The answer was `{answer}`.")
LESSON_DONE = _("Lesson done: {title}.")
BASE_DONE = _(
    "You know the base game. Play a short game against the easier Cynthia, or go on with the "
    "lessons of Under the Moonlight."
)
ALL_DONE = _(
    "Every lesson is done. Play a short game against the easier Cynthia to put it all to use."
)
DAMAGED = _("Your stored tutorial progress was damaged: the tutorial starts again.")
NEXT_LESSON = _("Next lesson")
PLAY_CYNTHIA = _("Play against Cynthia")
START_OVER = _("Start over")
OPPONENT = _("Opponent")
GAME_STARTED = _("Your game against the easier Cynthia has started in <#{channel}>. Good luck!")
RULES_LINE = _("New to the game? `/ps learn` teaches it step by step on the board.")
HELP_LEARN = _(
    "the tutorial, privately: short lessons on the board answered with the turn panel or typed "
    "(`/ps learn action:`), then a game against the easier Cynthia; it goes on where you stopped"
)
