"""A learner playing `/ps learn` through the loopback Discord, as a person would: the panel's
selects and buttons, every interaction counted (used by tests/e2e/test_learn.py and
bench/learn_bench.py)."""

from __future__ import annotations

from bot.present import learn_texts as lt
from engine import tutorial
from engine.tutorial import Progress
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.helpers import answered
from translation import translate

RIGHT_MARK = "\N{WHITE HEAVY CHECK MARK} "
WRONG_MARK = "\N{CROSS MARK} "


class Learner:
    """A user playing the tutorial; counts every interaction they send."""

    def __init__(self, fake: FakeDiscord, lang: str, chan: str, name: str = "learner") -> None:
        self.fake, self.lang, self.chan = fake, lang, chan
        self.user = fake.add_user(name)
        self.name = name.capitalize()  # the fake's display name
        self.sent = 0

    def tr(self, text: str) -> str:
        return translate(text, self.lang)

    async def speak(self) -> None:
        """Set the learner's language (`/ps language`; not counted: not the tutorial's)."""
        if self.lang != "en":
            it = await self.fake.slash(
                self.user, "ps language", options={"language": self.lang}, channel_id=self.chan
            )
            await answered(it)

    async def learn(self, action: str | None = None, lesson: str | None = None):
        self.sent += 1
        options = {} if action is None else {"action": action}
        if lesson is not None:
            options["lesson"] = lesson
        it = await self.fake.slash(self.user, "ps learn", options=options, channel_id=self.chan)
        return await answered(it)

    async def click(self, message: FakeMessage, custom_id_end: str):
        self.sent += 1
        button = next(b for b in message.buttons if b["custom_id"].endswith(custom_id_end))
        return await answered(await self.fake.click(self.user, message, button))

    async def choose(self, message: FakeMessage, kind: str, value: str):
        """Choose `value` in the screen's select of `kind` (`go`: the lesson select)."""
        self.sent += 1
        select = next(s for s in message.selects if f":{kind}:" in s["custom_id"])
        return await answered(await self.fake.select(self.user, message, select, [value]))

    async def play(self, screen: FakeMessage, notation: str):
        """Answer through the panel as a person would: the select offering the action (after
        the piece it acts from, or its kind's own screen, when the first screen lists those),
        or the End turn button."""
        if notation == "end":
            return await self.click(screen, ":play end")
        verb, source = notation.split()[0], notation.split()[1]
        for _attempt in range(3):
            for select in screen.selects:
                if ":go:" in select["custom_id"]:
                    continue
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


def heading(index: int) -> str:
    """The heading of the lesson at `index` (English; the screen says it translated)."""
    lesson = tutorial.LESSONS[index]
    base = len(tutorial.BASE)
    if lesson.expansion:
        return lt.EXPANSION_HEADING.format(
            n=index - base + 1, total=len(tutorial.EXPANSION), title=lesson.title
        )
    return lt.LESSON_HEADING.format(n=index + 1, total=base, title=lesson.title)


def shows_step_words(learner: Learner, screen: FakeMessage, index: int, step_no: int) -> None:
    """The screen shows the step in the learner's language: its lesson's heading, its text
    and task, and a panel on the step."""
    lesson = tutorial.LESSONS[index]
    step = lesson.steps[step_no]
    assert learner.tr(heading(index)) in screen.content, screen.content
    assert learner.tr(step.text) in screen.content
    assert learner.tr(lt.ASK.format(ask=step.ask)) in screen.content
    panel = [c for c in screen.selects if ":go:" not in c["custom_id"]]
    assert all(f":{lesson.key}:{step_no}:" in c["custom_id"] for c in panel)


async def play_lessons(
    learner: Learner,
    screen: FakeMessage,
    lessons: range,
    *,
    wrong_first: bool,
    shows=shows_step_words,
) -> FakeMessage:
    """Play the lessons at `lessons` (indexes in `tutorial.LESSONS`, from the first step of the
    first one on `screen`), each question answered right, or with one wrong answer first;
    after the base game's last lesson, Next lesson. Checks every answer's line and that a
    finished lesson says so. Returns the screen (the same message, edited)."""
    for index in lessons:
        lesson = tutorial.LESSONS[index]
        for step_no, step in enumerate(lesson.steps):
            shows(learner, screen, index, step_no)
            if wrong_first:
                wrong = wrong_move(step, screen)
                await learner.play(screen, wrong)
                reason = tutorial.attempt(Progress(index, step_no, 0), wrong).reason
                assert reason is not None
                said = lt.WRONG.format(notation=wrong, reason=reason)
                assert screen.content.startswith(WRONG_MARK + learner.tr(said)), screen.content
                shows(learner, screen, index, step_no)  # a second try on the same step
            it = await learner.play(screen, step.answers[0])
            assert it.response is screen, it.content
            right = lt.RIGHT.format(notation=step.answers[0])
            assert screen.content.startswith(RIGHT_MARK + learner.tr(right)), screen.content
        done = lt.LESSON_DONE.format(title=lesson.title)
        assert f"**{learner.tr(done)}**" in screen.content
        if index == len(tutorial.BASE) - 1 and index + 1 in lessons:
            assert learner.tr(lt.BASE_DONE) in screen.content
            await learner.click(screen, ":next")
    return screen
