"""`/ps learn` played as learners would through the loopback Discord: the whole tutorial, right
first time in English and with a wrong answer at every question in Hebrew, counting the
interactions; the end (a summary, Start over, the lesson select); an answer as good as the
asked one accepted; a restart mid-tutorial resumes; a screen of an earlier step and forged
buttons are refused in one sentence; the tutorial ends with a real six-round practice game
against the easier Cynthia, in the learner's language and unrated. One bot start (and one
restart)."""

from __future__ import annotations

import json
from functools import cache

import pytest

import engine
from bot.discord.cogs.learn import LAYOUT, LESSON_FILE
from bot.present import learn_texts as lt
from bot.present import pictures
from bot.present.embeds import PRACTICE_LINE
from bot.present.i18n import speaking, tr
from bot.services import refusals
from engine import tutorial
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.helpers import answered, db_rows, refused
from tests.e2e.learning import (
    RIGHT_MARK,
    Learner,
    play_lessons,
    shows_step_words,
    wrong_move,
)
from translation import translate

#: The whole tutorial must take at most this many interactions, with one wrong answer at
#: every question (the issue's limit).
BUDGET = 60
QUESTIONS = sum(len(lesson.steps) for lesson in tutorial.LESSONS)
END = [lesson.key for lesson in tutorial.LESSONS].index("end")


@cache
def _picture(name: str, lang: str, index: int, step_no: int) -> bytes:
    step = tutorial.LESSONS[index].steps[step_no]
    state = step.position()
    preview = engine.next_photosynthesis_sun(state) if step.preview else None
    return pictures.board_png(
        state,
        viewer_seat=0,
        names=[name, lt.OPPONENT],
        lang=lang,
        layout=LAYOUT,
        marks=step.marks,
        preview_sun=preview,
    )


def shows_step(learner: Learner, screen: FakeMessage, index: int, step_no: int) -> None:
    """The step's words (`shows_step_words`) and its picture: the position, its spaces ringed."""
    shows_step_words(learner, screen, index, step_no)
    ((name, png),) = screen.attachments
    assert name == LESSON_FILE and png == _picture(learner.name, learner.lang, index, step_no)


def stored(bot, learner: Learner) -> dict:
    (row,) = db_rows(
        bot, "SELECT progress FROM tutorial_progress WHERE user_id = ?", (learner.user["id"],)
    )
    return json.loads(row[0])


def the_end(learner: Learner, screen: FakeMessage) -> None:
    """The end screen: the summary, Play, Start over and the lesson select."""
    for text in (lt.ALL_DONE_TITLE, lt.SUMMARY, lt.ALL_DONE):
        assert learner.tr(text) in screen.content
    assert [b["custom_id"] for b in screen.buttons] == [
        "ps:learn:done:0:game",
        "ps:learn:done:0:again",
    ]
    (select,) = screen.selects
    assert select["custom_id"] == "ps:lpick:done:0:go:0"
    assert [o["value"] for o in select["options"]] == [x.key for x in tutorial.LESSONS]


@pytest.mark.long
async def test_the_whole_tutorial_its_end_start_over_and_the_practice_game(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    chan = fake.add_channel("learning")
    everything = range(len(tutorial.LESSONS))

    async def learn_everything(learner: Learner, wrong_first: bool) -> FakeMessage:
        await learner.speak()
        learner.sent = 0
        first = await learner.learn()
        assert first.ephemeral
        shows = shows_step if learner.lang == "en" else shows_step_words
        screen = await play_lessons(
            learner, first.response, everything, wrong_first=wrong_first, shows=shows
        )
        # /ps learn, an answer per question (two with a wrong one first; `use hunt 2` is on
        # the screen of the abilities: one more), Next after the base game
        expected = 1 + QUESTIONS * (2 if wrong_first else 1) + 1 + 1
        assert learner.sent == expected
        assert expected <= BUDGET
        the_end(learner, screen)
        assert stored(bot, learner) == {"version": 1, "lesson": "", "step": 0, "tries": 0}
        return screen

    ana, dov = Learner(fake, "en", chan, "ana"), Learner(fake, "he", chan, "dov")
    await learn_everything(ana, wrong_first=False)  # alone first: the drawing workers start
    screen = await learn_everything(dov, wrong_first=True)

    # The end stays the end: /ps learn shows it again.
    again = (await dov.learn()).response
    the_end(dov, again)

    # Start over: the first lesson, from the end screen.
    it = await dov.click(screen, ":again")
    assert it.response is screen
    shows_step_words(dov, screen, 0, 0)
    assert stored(bot, dov) == {"version": 1, "lesson": "setup", "step": 0, "tries": 0}
    await refused(  # the end screen shown before is out of date now
        await fake.click(dov.user, again, again.buttons[1]["custom_id"]),
        translate(refusals.STALE_STEP, "he"),
    )

    # Any lesson at any time: the lesson select, and /ps learn lesson:.
    await dov.choose(screen, "go", "end")
    shows_step_words(dov, screen, END, 0)
    offered = await fake.autocomplete(
        dov.user, "ps learn", focused="lesson", options={"lesson": "צב"}, channel_id=chan
    )
    assert [c["value"] for c in offered] == ["turtle", "babies"]  # titles in the reader's words
    moved = (await dov.learn(lesson="turtle")).response
    shows_step_words(dov, moved, tutorial.LESSONS.index(tutorial.EXPANSION[9]), 0)
    await refused(
        await fake.slash(dov.user, "ps learn", options={"lesson": "nope"}, channel_id=chan),
        translate(refusals.NO_LESSON, "he"),
    )

    # An answer as good as the asked one: on the last turn, buying a seed and then collecting
    # scores the 19 that collecting first does; the engine accepts it.
    ana_screen = (await ana.learn(lesson="end")).response
    shows_step(ana, ana_screen, END, 0)
    assert tutorial.LESSONS[END].steps[0].answers[0] == "collect D4"
    it = await ana.play(ana_screen, "buy seed")
    assert it.response is ana_screen
    assert ana_screen.content.startswith(RIGHT_MARK + lt.RIGHT.format(notation="buy seed"))
    shows_step(ana, ana_screen, END + 1, 0)  # the next lesson: ties

    # Another learner stops in the second lesson, and the bot restarts.
    eve = Learner(fake, "en", chan, "eve")
    first = (await eve.learn()).response
    await eve.play(first, tutorial.LESSONS[0].steps[0].answers[0])
    shows_step(eve, first, 1, 0)
    bot.kill()
    await bot.wait_exit()
    await bot.start()
    await fake.wait_ready()

    # /ps learn goes on where they stopped; the screen from before the restart still works.
    again = (await eve.learn()).response
    shows_step(eve, again, 1, 0)
    typed = await fake.autocomplete(
        eve.user, "ps learn", focused="action", options={"action": "gro"}, channel_id=chan
    )
    assert [c["value"] for c in typed] == ["grow C2", "grow E4"]  # the step's legal actions
    wrong = wrong_move(tutorial.LESSONS[1].steps[0], first)
    await eve.play(first, wrong)
    assert first.content.startswith("\N{CROSS MARK} ")
    assert stored(bot, eve)["tries"] == 1
    await eve.play(first, tutorial.LESSONS[1].steps[0].answers[0])
    assert stored(bot, eve) == {"version": 1, "lesson": "light", "step": 0, "tries": 0}

    # The screen of an earlier step: one sentence, nothing changes.
    select = again.selects[0]
    it = await fake.select(eve.user, again, select, [select["options"][0]["value"]])
    await refused(it, refusals.STALE_STEP)

    # Forged tutorial components: one sentence each, and nothing changes.
    forged = {
        "ps:learn:reach:0:next": refusals.STALE_STEP,  # a lesson not reached
        "ps:learn:zzz:0:next": refusals.STALE_STEP,  # no such lesson
        "ps:learn:light:0:game": refusals.STALE_STEP,  # the game before the base game is learnt
        "ps:learn:light:0:next": refusals.STALE_STEP,  # no pause here
    }
    for custom_id, sentence in forged.items():
        first.buttons[0]["custom_id"] = custom_id
        it = await answered(await fake.click(eve.user, first, custom_id))
        assert (custom_id, it.ephemeral, it.content) == (custom_id, True, sentence)
    go = next(s for s in first.selects if ":go:" in s["custom_id"])
    go["options"].append({"label": "forged", "value": "nope"})
    it = await answered(await fake.select(eve.user, first, go, ["nope"]))
    assert (it.ephemeral, it.content) == (True, refusals.NOT_OFFERED)
    assert stored(bot, eve) == {"version": 1, "lesson": "light", "step": 0, "tries": 0}

    # Typed answers, as with /ps play: to the pause after the base game.
    for lesson in tutorial.BASE[2:]:
        for step in lesson.steps:
            shown = await eve.learn(step.answers[0])
            assert shown.content.startswith(RIGHT_MARK)
    assert eve.tr(lt.BASE_DONE) in shown.content

    # The practice game against the easier Cynthia, from the Hebrew learner's end screen: in
    # a thread of its own as any game, in Hebrew, six rounds, unrated and said so.
    ending = (await dov.learn(lesson="moonstones")).response
    await dov.play(ending, tutorial.EXPANSION[-1].steps[0].answers[0])
    the_end(dov, ending)
    it = await dov.click(ending, ":game")
    (thread,) = await fake.wait_until(lambda: fake.threads_of(chan), 30, "the game's thread")
    with speaking("he"):  # (the bot's words: a mention is no isolated number)
        assert it.content == tr(lt.GAME_STARTED.format(channel=int(thread)))
    ((config, language),) = db_rows(bot, "SELECT config, language FROM games WHERE id = 1")
    config = engine.Config.from_dict(json.loads(config))
    assert config == tutorial.final_game_config() and config.last_round == 6
    assert language == "he"
    lobby = fake.messages(chan)[-1]
    practice = translate(PRACTICE_LINE.format(rounds=6), "he")
    assert practice in json.dumps(lobby.embeds, ensure_ascii=False)
    mention = f"<@{dov.user['id']}>"  # the learner's first turn (setup), said in Hebrew
    message = await fake.wait_for_message(thread, lambda m: mention in m.content)
    assert any("\u05d0" <= c <= "\u05ea" for c in message.content), message.content
    assert fake.late_interactions == []  # every click answered within Discord's 3 seconds
