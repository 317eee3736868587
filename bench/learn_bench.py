"""The whole tutorial played as learners play it, through the real bot and the loopback Discord
(issue 57).

    .venv/bin/python bench/learn_bench.py [--langs en,fr,he,nl]

In each language two learners play every lesson through `/ps learn` and the panel (selects and
buttons, as a person would): one answers every question right first time, the other gives one
wrong answer (a legal action the panel offers that does not answer it) at every question
first. Every screen is checked to be the step's, in the learner's language, and every answer's
line to be the engine's verdict. Counted, per learner, every interaction sent: `/ps learn`, each
select or button, "Next lesson" after the base game. At the end the summary and Start over are
checked; the learner right first time then starts the practice game against the easier
Cynthia and plays it to its end (the autopilot's actions, typed with `/ps play`), in the
learner's language: N is the rounds it took.

Prints, then the issue's line
`learn: L lessons (B base, E expansion), I interactions with every answer right, W with one
wrong answer each; languages 4; practice game N rounds`. Goals: B >= 9, E >= 6, W <= 60, N <= 6.
Asserts only what the learners see (a wrong screen stops the bench with the reason).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.present import learn_texts as lt  # noqa: E402
from engine import tutorial  # noqa: E402
from engine.players import AutopilotPlayer  # noqa: E402
from tests.e2e.fakediscord import BotProcess, FakeDiscord  # noqa: E402
from tests.e2e.gameplay import replay_log  # noqa: E402
from tests.e2e.helpers import answered, db_rows  # noqa: E402
from tests.e2e.learning import Learner, play_lessons  # noqa: E402
from translation import LANGUAGES  # noqa: E402


async def whole_tutorial(learner: Learner, wrong_first: bool) -> None:
    """Every lesson from the first, then the end: the summary, Start over, the lesson select."""
    await learner.speak()
    first = await learner.learn()
    screen = await play_lessons(
        learner, first.response, range(len(tutorial.LESSONS)), wrong_first=wrong_first
    )
    for text in (lt.ALL_DONE_TITLE, lt.SUMMARY, lt.ALL_DONE):
        assert learner.tr(text) in screen.content, screen.content
    ids = [b["custom_id"] for b in screen.buttons]
    assert {"ps:learn:done:0:again", "ps:learn:done:0:game"} <= set(ids), ids
    assert any(":go:" in s["custom_id"] for s in screen.selects), "the lesson select"


async def practice_game(fake: FakeDiscord, bot: BotProcess, learner: Learner) -> tuple[int, str]:
    """Start the practice game from the end screen and play it to its end; its rounds and
    the language its first message speaks."""
    screen = (await learner.learn()).response  # the end screen again
    before = {t for t in fake.threads_of(learner.chan)}
    await learner.click(screen, ":game")
    (thread,) = await fake.wait_until(
        lambda: [t for t in fake.threads_of(learner.chan) if t not in before], 30, "the thread"
    )
    (game_id, language, config), *_ = db_rows(
        bot, "SELECT id, language, config FROM games ORDER BY id DESC LIMIT 1"
    )
    autopilot = AutopilotPlayer()

    def learners_turn() -> engine.GameState | None:
        state = replay_log(bot, game_id)
        return state if state.is_over or state.current_seat == 0 else None

    while True:
        state = await fake.wait_until(learners_turn, 60, "the learner's turn")
        if state.is_over:
            break
        action = str(autopilot.step(state))
        options = {"action": action}
        await answered(
            await fake.slash(learner.user, "ps play", options=options, channel_id=thread)
        )
    final = replay_log(bot, game_id)
    assert engine.Config.from_dict(json.loads(config)) == tutorial.final_game_config()
    return final.round, language


async def run(args: argparse.Namespace) -> None:
    fake = FakeDiscord(check_spec=False)
    await fake.start()
    langs = args.langs.split(",")
    counts: dict[tuple[str, bool], int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(fake, tmp, env={"LOG_LEVEL": "WARNING"})
        try:
            await bot.start()
            await fake.wait_ready(timeout=60)
            chan = fake.add_channel("learning")
            start = time.monotonic()
            learners = {
                (lang, wrong): Learner(fake, lang, chan, f"{lang}{'wrong' if wrong else 'right'}")
                for lang in langs
                for wrong in (False, True)
            }
            for (lang, wrong), learner in learners.items():
                await whole_tutorial(learner, wrong)
                counts[lang, wrong] = learner.sent
                print(
                    f"{lang}: {'one wrong answer each' if wrong else 'every answer right'}: "
                    f"{learner.sent} interactions"
                )
            played = time.monotonic() - start
            rounds, language = await practice_game(fake, bot, learners[langs[-1], False])
            print(
                f"practice game: {rounds} rounds, in {language!r} "
                f"(the learner's: {langs[-1]!r}); tutorials played in {played:.0f} s"
            )
        except BaseException:
            print(bot.output()[-4000:])
            raise
        finally:
            await bot.stop()
            await fake.stop()
    base, expansion = len(tutorial.BASE), len(tutorial.EXPANSION)
    right = max(n for (lang, wrong), n in counts.items() if not wrong)
    wrong = max(n for (lang, w), n in counts.items() if w)
    print(
        f"learn: {base + expansion} lessons ({base} base, {expansion} expansion), {right} "
        f"interactions with every answer right, {wrong} with one wrong answer each; languages "
        f"{len({lang for lang, _w in counts})}; practice game {rounds} rounds"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--langs", default=",".join(LANGUAGES), help="the learners' languages")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
