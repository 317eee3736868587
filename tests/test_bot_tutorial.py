"""The tutorial service of `/ps learn` (no Discord): a learner's progress stored and checked
against the screen clicked, and the screens `bot.discord.learn_views` draws from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.discord.learn_views import LearnButton, LearnSelect, outcome_line, screen
from bot.present import learn_texts as lt
from bot.services import refusals
from bot.services.base import UserError
from bot.services.tutorial import TutorialService, base_done, place
from bot.storage import SQLiteStorage
from engine import tutorial
from engine.tutorial import Progress

ANA = 7


@pytest.fixture
async def service(tmp_path: Path):
    store = await SQLiteStorage.open(str(tmp_path / "games.db"))
    yield TutorialService(store)
    await store.close()


async def stored(service: TutorialService) -> dict | None:
    text = await service.storage.tutorial_progress(ANA)
    return None if text is None else json.loads(text)


SETUP, SHADOWS, LIGHT = 0, 1, 2  # the first lessons' indexes


async def test_a_wrong_answer_then_the_right_one_is_stored_and_goes_on(service) -> None:
    assert await service.progress(ANA) == (Progress(0, 0, 0), False)
    await service.begin(ANA, "shadows", ("setup", 0))
    outcome = await service.answer(ANA, "grow C2", ("shadows", 0))
    assert outcome.kind == "wrong"
    assert outcome.reason == "C2 is in the shadow of B2's medium tree this round."
    assert await stored(service) == {"version": 1, "lesson": "shadows", "step": 0, "tries": 1}
    outcome = await service.answer(ANA, "grow E4", ("shadows", 0))
    # the lesson's last step: straight on to the next lesson's first
    assert outcome.kind == "right" and outcome.progress == Progress(LIGHT, 0, 0)
    assert outcome.completed == tutorial.LESSONS[SHADOWS]
    assert await service.progress(ANA) == (Progress(LIGHT, 0, 0), False)


async def test_a_screen_of_another_step_or_no_action_is_refused_and_changes_nothing(
    service,
) -> None:
    await service.begin(ANA, "shadows", None)
    await service.answer(ANA, "grow E4", ("shadows", 0))
    before = await stored(service)
    for refused in (
        service.answer(ANA, "grow E4", ("shadows", 0)),  # the step is answered already
        service.answer(ANA, "grow D3", ("reach", 0)),  # a lesson not opened
        service.next_lesson(ANA, ("reach", 0)),
        service.next_lesson(ANA, ("light", 0)),  # no pause here: the lesson is not done
        service.may_play(ANA, ("light", 0)),  # the base game is not learnt yet
        service.begin(ANA, "moon", ("shadows", 0)),  # the lesson select of an older screen
    ):
        with pytest.raises(UserError) as error:
            await refused
        assert error.value.args[0] == refusals.STALE_STEP
    for key in ("nope", "done", ""):  # a forged lesson select value
        with pytest.raises(UserError) as error:
            await service.begin(ANA, key, ("light", 0))
        assert error.value.args[0] == refusals.NO_LESSON
    with pytest.raises(UserError) as error:  # not an action: the engine's words, no try spent
        await service.answer(ANA, "grow", None)
    assert "grow" in error.value.args[0]
    assert await stored(service) == before == {
        "version": 1, "lesson": "light", "step": 0, "tries": 0
    }  # fmt: skip


async def test_an_answer_at_the_pause_after_the_base_game_is_refused(service) -> None:
    pause = Progress(len(tutorial.BASE) - 1, 1, 0)
    await service.storage.set_tutorial_progress(ANA, pause.to_json())
    with pytest.raises(UserError) as error:  # typed between lessons
        await service.answer(ANA, "grow E4", None)
    assert error.value.args[0] == refusals.NO_STEP
    await service.may_play(ANA, ("ties", 1))
    assert await service.next_lesson(ANA, ("ties", 1)) == Progress(len(tutorial.BASE), 0, 0)


async def test_a_damaged_progress_starts_again_and_is_said(service) -> None:
    await service.storage.set_tutorial_progress(ANA, "not json")
    assert await service.progress(ANA) == (Progress(0, 0, 0), True)
    outcome = await service.answer(ANA, "place A1", ("setup", 0))
    assert outcome.progress == Progress(SHADOWS, 0, 0)
    assert await service.progress(ANA) == (Progress(SHADOWS, 0, 0), False)


def components(view) -> list[str]:
    return [item.item.custom_id for item in view.children]


def test_the_screens_offer_the_steps_panel_then_next_then_the_end() -> None:
    content, view = screen(Progress(SHADOWS, 0, 0))
    lesson = tutorial.BASE[SHADOWS]
    assert content.splitlines()[:2] == [
        "**Lesson 2 of 11: The sun and shadows**",
        lesson.steps[0].text,
    ]
    assert all(isinstance(item, LearnButton | LearnSelect) for item in view.children)
    assert "ps:lpick:shadows:0:act:1" in components(view)
    assert "ps:learn:shadows:0:play end" in components(view)
    assert components(view)[-1] == "ps:lpick:shadows:0:go:0"  # the lesson select
    # an answer that finished a lesson: said, and the next lesson's step follows
    content, _view = screen(Progress(LIGHT, 0, 0), completed=lesson)
    assert content.splitlines()[:2] == [
        "**Lesson done: The sun and shadows.**",
        "**Lesson 3 of 11: Light points**",
    ]
    last = len(tutorial.BASE) - 1
    assert not base_done(Progress(SHADOWS, 0, 0))
    content, view = screen(Progress(last, 1, 0))
    assert components(view) == [
        "ps:learn:ties:1:next", "ps:learn:ties:1:game", "ps:lpick:ties:1:go:0"
    ]  # fmt: skip
    assert lt.BASE_DONE in content and base_done(Progress(last, 1, 0))
    content, view = screen(Progress(len(tutorial.LESSONS), 0, 0))
    assert content == "\n".join([f"**{lt.ALL_DONE_TITLE}**", lt.SUMMARY, lt.ALL_DONE])
    assert components(view) == [
        "ps:learn:done:0:game", "ps:learn:done:0:again", "ps:lpick:done:0:go:0"
    ]  # fmt: skip
    (select,) = [item.item for item in view.children if isinstance(item, LearnSelect)]
    assert [o.value for o in select.options] == [lesson.key for lesson in tutorial.LESSONS]
    assert select.options[0].label == "1. Setting up"
    assert select.options[-1].label == "24. The moonstones \N{CRESCENT MOON}"


async def test_a_second_wrong_answer_shows_the_answer_and_goes_on(service) -> None:
    await service.begin(ANA, "shadows", None)
    await service.answer(ANA, "grow C2", ("shadows", 0))
    outcome = await service.answer(ANA, "buy seed", ("shadows", 0))
    assert (outcome.kind, outcome.answer) == ("shown", "grow E4")
    assert outcome.progress == Progress(LIGHT, 0, 0)
    said = outcome_line(outcome, "buy seed")
    assert said == (
        "\N{CROSS MARK} `buy seed`: Light your trees collect with this round's sun: 1 after "
        "buy seed, 2 after grow E4. The answer was `grow E4`."
    )
    assert await stored(service) == {"version": 1, "lesson": "light", "step": 0, "tries": 0}


async def test_start_over_goes_back_to_the_first_lesson(service) -> None:
    finished = Progress(len(tutorial.LESSONS), 0, 0)
    await service.storage.set_tutorial_progress(ANA, finished.to_json())
    with pytest.raises(UserError):
        await service.start_over(ANA, ("shadows", 0))
    await service.may_play(ANA, ("done", 0))
    assert await service.start_over(ANA, ("done", 0)) == Progress(0, 0, 0)
    assert await service.progress(ANA) == (Progress(0, 0, 0), False)


def reach(progress: Progress, notation: str) -> int:
    """Answer a step through its screens as a person would (a select offering the action, else
    the piece it acts from, else its kind's own screen); the interactions it took."""
    verb, source = notation.split()[0], notation.split()[1]
    menu = src = None
    for clicks in range(1, 4):
        _content, view = screen(progress, menu=menu, source=src)
        for item in view.children:
            if notation == "end" and item.item.custom_id.endswith(":play end"):
                return clicks
            values = [o.value for o in getattr(item.item, "options", [])]
            if notation in values:
                assert item.item.custom_id.split(":")[4] == "act"
                return clicks
            if f"{verb} {source}" in values:
                menu, src = verb, source
                break
        else:
            assert f"ps:learn:{place(progress)[0]}:{progress.step}:menu {verb}" in components(view)
            menu = verb
    raise AssertionError(f"{notation} is not offered")


def test_every_lessons_answer_is_offered_by_its_panel_in_one_or_two_choices() -> None:
    """Every step is answered through the game's panel, in one choice each but one (the
    interaction counts of the bench and the e2e test rely on it)."""
    two = []
    for index, lesson in enumerate(tutorial.LESSONS):
        for step_no, step in enumerate(lesson.steps):
            clicks = reach(Progress(index, step_no, 0), step.answers[0])
            assert clicks <= 2, (lesson.key, step.answers[0])
            if clicks == 2:
                two.append(lesson.key)
    assert two == ["lunar"]  # many actions: `use hunt 2` is on the screen of the abilities


def test_an_expansion_step_previews_the_next_photosynthesis_and_is_headed_as_such() -> None:
    index = [lesson.key for lesson in tutorial.LESSONS].index("moon")
    content, _view = screen(Progress(index, 0, 0))
    assert content.startswith("**Under the Moonlight, lesson 2 of 13: The moon and moonlight**")
    assert tutorial.LESSONS[index].steps[0].preview
