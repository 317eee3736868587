"""The tutorial of `/ps learn`: each learner's place in `engine.tutorial`'s lessons, stored per
user. A click answers the step it was drawn for (the lesson's key and the step in its
custom_id): a click on a screen of an earlier step is refused, and nothing changes."""

from __future__ import annotations

import logging

from bot.services import refusals
from bot.services.base import UserError
from bot.storage import Storage
from bot.storage.locks import KeyedLocks
from engine import tutorial
from engine.tutorial import Outcome, Progress

log = logging.getLogger(__name__)

#: How a screen names the learner's place when every lesson is done (its custom_id's lesson).
DONE_KEY = "done"


def place(progress: Progress) -> tuple[str, int]:
    """The lesson's key and the step a screen of this progress is drawn for."""
    lesson = progress.current
    return (DONE_KEY, 0) if lesson is None else (lesson.key, progress.step)


class TutorialService:
    """Each learner's progress: read, answered, moved on, started over."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._locks = KeyedLocks()

    async def progress(self, user_id: int) -> tuple[Progress, bool]:
        """Where a learner is, and whether what was stored was damaged (they start again)."""
        stored = await self.storage.tutorial_progress(user_id)
        try:
            return tutorial.resume(stored), False
        except ValueError:
            log.warning("damaged tutorial progress", extra={"user_id": user_id})
            return tutorial.start(), True

    async def _save(self, user_id: int, progress: Progress) -> None:
        await self.storage.set_tutorial_progress(user_id, progress.to_json())

    async def at(self, user_id: int, at: tuple[str, int] | None) -> Progress:
        """The learner's progress, checked to be at `at` (the screen clicked; None: typed)."""
        progress, _damaged = await self.progress(user_id)
        if at is not None and place(progress) != at:
            raise UserError(refusals.STALE_STEP)
        return progress

    async def answer(self, user_id: int, notation: str, at: tuple[str, int] | None) -> Outcome:
        """The learner answers the step they are at (`at`: the one the clicked screen shows)
        with an action in the game's notation. Not an action, or no step to answer: the
        engine's sentence, and nothing is stored."""
        async with self._locks.hold(user_id):
            progress = await self.at(user_id, at)
            if progress.current_step is None:
                raise UserError(refusals.NO_STEP)
            outcome = tutorial.attempt(progress, notation)
            if outcome.kind == "invalid":
                raise UserError(outcome.reason or refusals.NO_STEP)
            await self._save(user_id, outcome.progress)
            return outcome

    async def next_lesson(self, user_id: int, at: tuple[str, int]) -> Progress:
        """After a lesson is done: the first step of the next one."""
        async with self._locks.hold(user_id):
            progress = await self.at(user_id, at)
            if not progress.lesson_done:
                raise UserError(refusals.STALE_STEP)
            progress = tutorial.next_lesson(progress)
            await self._save(user_id, progress)
            return progress

    async def start_over(self, user_id: int, at: tuple[str, int]) -> Progress:
        """Every lesson again, from the first."""
        async with self._locks.hold(user_id):
            await self.at(user_id, at)
            progress = tutorial.start()
            await self._save(user_id, progress)
            return progress

    async def begin(self, user_id: int, key: str, at: tuple[str, int] | None) -> Progress:
        """Any lesson, at any time: its first step (`at`: the screen whose lesson select was
        used; None: `/ps learn lesson:`). A key that names no lesson is refused."""
        keys = [lesson.key for lesson in tutorial.LESSONS]
        if key not in keys:
            raise UserError(refusals.NO_LESSON)
        async with self._locks.hold(user_id):
            await self.at(user_id, at)
            progress = tutorial.begin(keys.index(key))
            await self._save(user_id, progress)
            return progress

    async def may_play(self, user_id: int, at: tuple[str, int]) -> None:
        """The game against Cynthia is offered once the base game's lessons are done."""
        progress = await self.at(user_id, at)
        if not base_done(progress):
            raise UserError(refusals.STALE_STEP)


def base_done(progress: Progress) -> bool:
    """Whether the base game's lessons are all done (the game against Cynthia is offered)."""
    last_base = len(tutorial.BASE) - 1
    return (
        progress.finished
        or (progress.lesson >= last_base and progress.lesson_done)
        or (progress.lesson > last_base)
    )
