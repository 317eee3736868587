"""`/ps learn` played as learners would through the loopback Discord: every base lesson, right
first time and with a wrong move first, in English and in Hebrew, counting the interactions;
a restart mid-tutorial resumes; a screen of an earlier step is refused in one sentence; the
tutorial ends with a real game against the easier Cynthia. One bot start (and one restart)."""

from __future__ import annotations

import asyncio
import json
from functools import cache

import pytest

import engine
from bot.discord.cogs.learn import LAYOUT, LESSON_FILE
from bot.present import learn_texts as lt
from bot.present import pictures
from bot.present.choices import spaces_of
from bot.services import refusals
from engine import tutorial
from engine.tutorial import Progress
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.gameplay import next_turn
from tests.e2e.helpers import answered, db_rows, refused
from translation import translate

#: The whole base tutorial must take at most this many interactions.
BASE_BUDGET = 60


class Learner:
    """A user playing the tutorial; counts every interaction they send."""

    def __init__(self, fake: FakeDiscord, lang: str, chan: str, name: str = "learner") -> None:
        self.fake, self.lang, self.chan = fake, lang, chan
        self.user = fake.add_user(name)
        self.name = name.capitalize()  # the fake's display name
        self.sent = 0

    def tr(self, text: str) -> str:
        return translate(text, self.lang)

    async def learn(self, action: str | None = None):
        self.sent += 1
        options = {} if action is None else {"action": action}
        it = await self.fake.slash(self.user, "ps learn", options=options, channel_id=self.chan)
        return await answered(it)

    async def click(self, message: FakeMessage, custom_id_end: str):
        self.sent += 1
        button = next(b for b in message.buttons if b["custom_id"].endswith(custom_id_end))
        return await answered(await self.fake.click(self.user, message, button))

    async def play(self, screen: FakeMessage, notation: str):
        """Answer through the panel as a person would: the select offering the action (after
        the piece it acts from, or its kind's own screen, when the first screen lists those),
        or the End turn button."""
        if notation == "end":
            return await self.click(screen, ":play end")
        verb, source = notation.split()[0], notation.split()[1]
        for _attempt in range(3):
            for select in screen.selects:
                values = [o["value"] for o in select["options"]]
                if notation in values:
                    self.sent += 1
                    it = await self.fake.select(self.user, screen, select, [notation])
                    return await answered(it)
                if f"{verb} {source}" in values:
                    self.sent += 1
                    await answered(
                        await self.fake.select(self.user, screen, select, [f"{verb} {source}"])
                    )
                    break
            else:
                await self.click(screen, f":menu {verb}")
        raise AssertionError(f"the panel does not offer {notation}: {screen.components}")


def offered(screen: FakeMessage) -> list[str]:
    """Every action the screen's panel offers at once (its selects' actions, End turn)."""
    values = [o["value"] for s in screen.selects if ":act:" in s["custom_id"] for o in s["options"]]
    ends = [b for b in screen.buttons if b["custom_id"].endswith(":play end")]
    return values + (["end"] if ends else [])


def wrong_move(step: tutorial.Step, screen: FakeMessage) -> str:
    """A legal action the panel offers that does not answer the step: of the answer's kind
    when there is one (its reason is the step's own), else any."""
    verb = step.answers[0].split()[0]
    wrong = [n for n in offered(screen) if n not in step.answers]
    return next((n for n in wrong if n.split()[0] == verb), wrong[0])


@cache
def _picture(name: str, lang: str, index: int, step_no: int, after: bool) -> bytes:
    step = tutorial.LESSONS[index].steps[step_no]
    state, kwargs = step.position(), {"marks": step.marks}
    if after:  # the position after the answer, its spaces outlined
        state = engine.apply(state, step.answers[0])
        kwargs = {"highlight": spaces_of(step.answers[0])}
    names = [name, lt.OPPONENT]
    return pictures.board_png(state, viewer_seat=0, names=names, lang=lang, layout=LAYOUT, **kwargs)


def picture(learner: Learner, index: int, step_no: int, *, after: bool = False) -> bytes:
    """The picture of a step (`after`: of the position its answer leads to)."""
    return _picture(learner.name, learner.lang, index, step_no, after)


def shows_step(learner: Learner, screen: FakeMessage, index: int, step_no: int) -> None:
    """The screen shows the step: its lesson's heading, its text and task, its picture (the
    position with the step's spaces ringed), a panel on the step."""
    lesson = tutorial.LESSONS[index]
    step = lesson.steps[step_no]
    heading = lt.LESSON_HEADING.format(n=index + 1, total=len(tutorial.BASE), title=lesson.title)
    assert learner.tr(heading) in screen.content
    assert learner.tr(step.text) in screen.content
    assert learner.tr(lt.ASK.format(ask=step.ask)) in screen.content
    ((name, png),) = screen.attachments
    assert name == LESSON_FILE and png == picture(learner, index, step_no)
    assert all(f":{lesson.key}:{step_no}:" in c["custom_id"] for c in screen.selects)


async def play_base(learner: Learner, screen: FakeMessage, *, wrong_first: bool) -> FakeMessage:
    """Play every base lesson from its first step on `screen`; returns the last screen (the
    base game's lessons done)."""
    for index, lesson in enumerate(tutorial.BASE):
        if index > 0:
            it = await learner.click(screen, ":next")
            assert it.response is screen
        for step_no, step in enumerate(lesson.steps):
            shows_step(learner, screen, index, step_no)
            if wrong_first:
                wrong = wrong_move(step, screen)
                it = await learner.play(screen, wrong)
                reason = tutorial.attempt(Progress(index, step_no, 0), wrong).reason
                assert reason is not None
                said = lt.WRONG.format(notation=wrong, reason=reason)
                assert screen.content.startswith("\N{CROSS MARK} " + learner.tr(said)), (
                    screen.content
                )
                shows_step(learner, screen, index, step_no)  # a second try on the same step
            it = await learner.play(screen, step.answers[0])
            assert it.response is screen
            right = lt.RIGHT.format(notation=step.answers[0])
            assert screen.content.startswith("\N{WHITE HEAVY CHECK MARK} " + learner.tr(right))
        done = lt.LESSON_DONE.format(title=lesson.title)
        assert f"**{learner.tr(done)}**" in screen.content
        ((name, png),) = screen.attachments  # the position after the answer, outlined
        assert png == picture(learner, index, len(lesson.steps) - 1, after=True)
    assert learner.tr(lt.BASE_DONE) in screen.content
    return screen


def stored(bot, learner: Learner) -> dict:
    (row,) = db_rows(
        bot, "SELECT progress FROM tutorial_progress WHERE user_id = ?", (learner.user["id"],)
    )
    return json.loads(row[0])


@pytest.mark.long
async def test_the_tutorial_played_in_english_and_hebrew_resumed_after_a_restart(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    chan = fake.add_channel("learning")
    base_steps = sum(len(lesson.steps) for lesson in tutorial.BASE)

    started = asyncio.Event()

    async def learn_the_base_game(learner: Learner, wrong_first: bool) -> Learner:
        first = await learner.learn()
        started.set()
        assert first.ephemeral
        await play_base(learner, first.response, wrong_first=wrong_first)
        # /ps learn, an answer per step (two with a wrong move first), Next between lessons
        expected = 1 + base_steps * (2 if wrong_first else 1) + len(tutorial.BASE) - 1
        assert learner.sent == expected <= BASE_BUDGET
        assert stored(bot, learner) == {
            "version": 1,
            "lesson": tutorial.BASE[-1].key,
            "step": len(tutorial.BASE[-1].steps),
            "tries": 0,
        }
        return learner

    # Four learners: right first time and with a wrong move first, in both languages; the
    # first alone until its first screen (the bot's first picture starts its drawing workers),
    # then the four at once.
    learners = [
        (Learner(fake, lang, chan), wrong) for lang in ("en", "he") for wrong in (False, True)
    ]
    for learner, _wrong in learners[2:]:
        it = await fake.slash(
            learner.user, "ps language", options={"language": "he"}, channel_id=chan
        )
        await answered(it)

    async def after_the_first(learner: Learner, wrong_first: bool) -> Learner:
        await started.wait()
        return await learn_the_base_game(learner, wrong_first)

    await asyncio.gather(
        learn_the_base_game(*learners[0]), *(after_the_first(*pair) for pair in learners[1:])
    )
    learner = learners[-1][0]

    # The rules point to the tutorial.
    rules = await answered(await fake.slash(learner.user, "ps rules", channel_id=chan))
    assert rules.content == translate(lt.RULES_LINE, "he")
    helped = await answered(await fake.slash(learner.user, "ps help", channel_id=chan))
    (learn,) = [f for f in helped.embeds[0]["fields"] if f["name"] == "/ps learn"]
    assert learn == {
        "name": "/ps learn",
        "value": translate(lt.HELP_LEARN, "he"),
        "inline": False,
    }

    # Another learner stops after a lesson and a half, and the bot restarts.
    learner = Learner(fake, "en", chan, "ana")
    first = (await learner.learn()).response
    await learner.play(first, tutorial.BASE[0].steps[0].answers[0])
    await learner.click(first, ":next")
    shows_step(learner, first, 1, 0)

    bot.kill()
    await bot.wait_exit()
    await bot.start()
    await fake.wait_ready()

    # /ps learn goes on where they stopped; the screen from before the restart still works.
    again = (await learner.learn()).response
    shows_step(learner, again, 1, 0)
    offered_typed = await fake.autocomplete(
        learner.user, "ps learn", focused="action", options={"action": "gro"}, channel_id=chan
    )
    assert [c["value"] for c in offered_typed] == ["grow D3"]  # the step's legal actions
    wrong = wrong_move(tutorial.BASE[1].steps[0], first)
    await learner.play(first, wrong)
    assert first.content.startswith("\N{CROSS MARK} ")
    assert stored(bot, learner)["tries"] == 1
    await learner.play(first, tutorial.BASE[1].steps[0].answers[0])
    assert stored(bot, learner)["step"] == 1

    # The screen of an earlier step: one sentence, nothing changes.
    select = again.selects[0]
    it = await fake.select(learner.user, again, select, [select["options"][0]["value"]])
    await refused(it, refusals.STALE_STEP)
    assert stored(bot, learner) == {"version": 1, "lesson": "light", "step": 1, "tries": 0}

    # Forged tutorial buttons: one sentence each, and nothing changes.
    forged = {
        "ps:learn:reach:0:next": refusals.STALE_STEP,  # a lesson not reached
        "ps:learn:zzz:0:next": refusals.STALE_STEP,  # no such lesson
        "ps:learn:light:1:game": refusals.STALE_STEP,  # the game before the base game is learnt
        "ps:learn:light:1:play grow D3": refusals.NO_STEP,  # an answer between lessons
    }
    for custom_id, sentence in forged.items():
        again.buttons[0]["custom_id"] = custom_id
        it = await answered(await fake.click(learner.user, again, custom_id))
        assert (custom_id, it.ephemeral, it.content) == (custom_id, True, sentence)
    assert stored(bot, learner) == {"version": 1, "lesson": "light", "step": 1, "tries": 0}

    # Typed answers, as with /ps play: the rest of the base game.
    screen = first
    for lesson in tutorial.BASE[2:]:
        await learner.click(screen, ":next")
        for step in lesson.steps:
            shown = await learner.learn(step.answers[0])
            assert shown.content.startswith("\N{WHITE HEAVY CHECK MARK} ")
        screen = shown.response

    # The game against the easier Cynthia, in a thread of its own as any game.
    it = await learner.click(screen, ":game")
    # (the game's thread is made when its first message is posted, beside the answer)
    (thread,) = await fake.wait_until(lambda: fake.threads_of(chan), 30, "the game's thread")
    assert it.content == lt.GAME_STARTED.format(channel=thread)
    (config,) = db_rows(bot, "SELECT config FROM games WHERE id = 1")
    assert engine.Config.from_dict(json.loads(config[0])) == tutorial.final_game_config()
    message = await next_turn(fake, thread)
    assert message.content == f"<@{learner.user['id']}>, it is your turn."
    assert fake.late_interactions == []  # every click answered within Discord's 3 seconds
