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
ALL_DONE_TITLE = _("Every lesson is done: you have learnt the whole game.")
SUMMARY = _(
    "In short: each player sets up two small trees on the outer ring. Each round the sun moves "
    "one corner on, every tree in the light gives light points, and the players take their "
    "turns from the first-player token: buy, plant, grow and collect, each space once a turn. "
    "After the last round the tokens score, with 1 point for every 3 light points; a tie goes "
    "to the most seeds and trees on the board. Under the Moonlight adds the animals and their "
    "lunar points, the Great Elder Tree and the moonstones."
)
ALL_DONE = _(
    "Play a short practice game against the easier Cynthia (six rounds, unrated), go back to "
    "any lesson, or start over."
)
CHOOSE_LESSON = _("Go to a lesson")
LESSON_OPTION = _("The lesson to start, any at any time (the first step of that lesson)")
DAMAGED = _("Your stored tutorial progress was damaged: the tutorial starts again.")
NEXT_LESSON = _("Next lesson")
PLAY_CYNTHIA = _("Play against Cynthia")
START_OVER = _("Start over")
OPPONENT = _("Opponent")
GAME_STARTED = _(
    "Your practice game against the easier Cynthia (six rounds, unrated) has started in "
    "<#{channel}>. Good luck!"
)
RULES_LINE = _("New to the game? `/ps learn` teaches it step by step on the board.")
HELP_LEARN = _(
    "the tutorial, privately: short lessons on the board (the base game, then Under the "
    "Moonlight) answered with the turn panel or typed (`/ps learn action:`); it goes on where "
    "you stopped, `/ps learn lesson:` or the lesson select starts any lesson, and at the end "
    "come a summary, Start over and a six-round practice game against the easier Cynthia "
    "(unrated)"
)
