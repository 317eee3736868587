"""The tutorial's core: lessons on real positions (``lessons``) and a pure lesson runner.

A learner's progress is ``(lesson, step, tries)``: the lesson's index in ``LESSONS`` (its key is
stored with it), the step inside it and the wrong tries at that step. The runner never changes
a progress; it returns a new one::

    progress = start()
    outcome = attempt(progress, "grow E4")   # right: the next step; wrong: the reason, try again
    progress = outcome.progress              # after a second wrong try the answer is shown
    progress = next_lesson(progress)         # at the pause after the base game's lessons
    progress = begin(LESSONS.index(lesson))  # any lesson, at any time
    text = progress.to_json()                # stored per learner; resume(text) goes on

A step is right when the action is worth as much as the best one (``Step.answers``: the engine
plays every legal action and compares what it leads to). The last step of a lesson leads
straight to the next lesson's first, except after the base game's last lesson, where the
learner may stop (``lesson_done``: the next lesson or a game). After the last lesson
(``progress.finished``) come a summary, Start over, and a short game against the easier
Cynthia: ``final_game_config()``, one revolution (six rounds).

Interactions: each attempt is one, and the ``next`` after the base game is one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from translation import _

from ..actions import IllegalAction, parse_action, reason_of
from ..config import CYNTHIA_DIFFICULTY, Config
from ..game import check
from ..state import GameState
from .lessons import BASE, EXPANSION, LESSONS, Lesson, Step, caster, why_worth_less

__all__ = [
    "BASE",
    "EXPANSION",
    "LESSONS",
    "TRIES",
    "Lesson",
    "Outcome",
    "Progress",
    "Step",
    "attempt",
    "begin",
    "caster",
    "final_game_config",
    "next_lesson",
    "resume",
    "start",
]

#: Wrong tries before the answer is shown.
TRIES = 2
#: The version of the stored progress.
VERSION = 1


@dataclass(frozen=True)
class Progress:
    """Where a learner is (see the module docstring)."""

    lesson: int = 0
    step: int = 0
    tries: int = 0

    @property
    def finished(self) -> bool:
        """Every lesson is done: the short game against Cynthia is next."""
        return self.lesson >= len(LESSONS)

    @property
    def current(self) -> Lesson | None:
        return None if self.finished else LESSONS[self.lesson]

    @property
    def lesson_done(self) -> bool:
        """The lesson's steps are done; ``next_lesson`` goes on."""
        lesson = self.current
        return lesson is not None and self.step >= len(lesson.steps)

    @property
    def current_step(self) -> Step | None:
        lesson = self.current
        if lesson is None or self.step >= len(lesson.steps):
            return None
        return lesson.steps[self.step]

    def position(self) -> GameState | None:
        """The position the current step shows (None between lessons and at the end)."""
        step = self.current_step
        return None if step is None else step.position()

    def to_json(self) -> str:
        key = "" if self.finished else LESSONS[self.lesson].key
        return json.dumps(
            {
                "version": VERSION,
                "lesson": key,
                "step": self.step,
                "tries": self.tries,
            },
            sort_keys=True,
        )


@dataclass(frozen=True)
class Outcome:
    """What an attempt gives: ``right``, ``wrong`` (``reason``, try again), ``shown`` (a second
    wrong try: ``reason`` and the ``answer``, and the step counts as done) or ``invalid`` (not
    an action, or no step to answer: ``reason``; it costs no try). ``progress`` is the new one;
    ``completed`` is the lesson the answer finished (None: the lesson goes on)."""

    kind: str
    progress: Progress
    reason: str | None = None
    answer: str | None = None
    completed: Lesson | None = None

    @property
    def lesson_done(self) -> bool:
        return self.completed is not None


def start() -> Progress:
    """A new learner's progress: the first step of the first lesson."""
    return Progress()


def _why_wrong(step: Step, state: GameState, notation: str) -> str:
    """Why an action (well formed) does not answer the step: the engine's refusal, else the
    step's own reason, else what the step's measure says of it against the best answer (the
    light, the tokens, the score... after each), else the step's request."""
    action = parse_action(notation)
    refusal = check(state, action)
    if refusal is not None:
        return refusal
    if step.explain is not None and (reason := step.explain(state, action)) is not None:
        return reason
    if (reason := why_worth_less(step, state, action)) is not None:
        return reason
    return _(
        "{action} is allowed here, but not what this step asks: {ask}",
        action=str(action),
        ask=step.ask,
    )


def attempt(progress: Progress, notation: str) -> Outcome:
    """The learner answers the current step with ``notation`` (the game's notation)."""
    step = progress.current_step
    if step is None:
        if progress.finished:
            return Outcome("invalid", progress, _("Every lesson is done."))
        return Outcome("invalid", progress, _("This lesson is done: go on to the next one."))
    try:
        action = parse_action(notation)
    except IllegalAction as error:
        return Outcome("invalid", progress, reason_of(error))
    lesson = LESSONS[progress.lesson]
    done = lesson if progress.step + 1 == len(lesson.steps) else None
    if str(action) in step.answers:
        return Outcome("right", _advance(progress), completed=done)
    reason = _why_wrong(step, step.position(), str(action))
    if progress.tries + 1 >= TRIES:
        return Outcome("shown", _advance(progress), reason, step.answers[0], done)
    return Outcome("wrong", replace(progress, tries=progress.tries + 1), reason)


def _advance(progress: Progress) -> Progress:
    """The next step; after a lesson's last, the next lesson's first (or the end), except after
    the base game's last lesson: there the learner chooses (``lesson_done``)."""
    step = progress.step + 1
    if step < len(LESSONS[progress.lesson].steps) or progress.lesson == len(BASE) - 1:
        return Progress(progress.lesson, step, 0)
    return Progress(progress.lesson + 1, 0, 0)


def next_lesson(progress: Progress) -> Progress:
    """After a lesson is done: the first step of the next one (unchanged otherwise)."""
    if not progress.lesson_done:
        return progress
    return Progress(progress.lesson + 1, 0, 0)


def begin(index: int) -> Progress:
    """The first step of the lesson at ``index`` in ``LESSONS`` (any lesson, at any time)."""
    if not 0 <= index < len(LESSONS):
        raise ValueError(_("There is no such lesson."))
    return Progress(index, 0, 0)


def resume(stored: str | None) -> Progress:
    """The progress stored by ``Progress.to_json`` (None: a new learner). A lesson is found by
    its key, so that lessons added or reordered later keep a learner's place; a step beyond
    the lesson's end resumes at its end. Raises ``ValueError`` with a sentence for a stored
    text that is not a progress."""
    if stored is None:
        return start()
    damaged = _("The stored tutorial progress is damaged.")
    try:
        data = json.loads(stored)
        key, step, tries = data["lesson"], int(data["step"]), int(data["tries"])
    except (ValueError, TypeError, KeyError):
        raise ValueError(damaged) from None
    if data.get("version") != VERSION or step < 0 or tries < 0 or not isinstance(key, str):
        raise ValueError(damaged)
    if key == "":
        return Progress(len(LESSONS), 0, 0)
    keys = [lesson.key for lesson in LESSONS]
    if key not in keys:
        raise ValueError(damaged)
    index = keys.index(key)
    steps = len(LESSONS[index].steps)
    if step >= steps:
        return Progress(index, steps, 0)
    return Progress(index, step, min(tries, TRIES - 1))


def final_game_config() -> Config:
    """The short game that ends the tutorial: the learner against the easier Cynthia, one
    revolution of the sun (six rounds; docs/rules-data.md#the-short-game)."""
    return Config(seats=("human", "cynthia"), revolutions=1, **CYNTHIA_DIFFICULTY["easier"])
