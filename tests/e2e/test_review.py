"""The Expert's review through the loopback Discord (issue 47), in one bot start and a restart:
a finished game's message offers Review; a click starts the review, a bot killed during it
resumes it at its next start and posts it in the game's channel once; a later click answers
privately with the stored review, computed once.

The finished game is written into the bot's database before the bot starts (a game of Alice
against Cynthia, played by the autopilot); the start's resync posts its final message.
To keep the test short, while the bot is down after the kill the stored progress is moved on
to the last `LEFT` plies (as if the review had got that far): the bot reviews those after the
restart. The review's budget is scaled down and its priority left as it is
(`PS_EXPERT_BUDGET_SCALE`, `PS_REVIEW_NICE`, tests only); its decisions are checked against
the engine's review at the same budget."""

from __future__ import annotations

import json
from pathlib import Path

from bot.present import review_texts as rt
from bot.services.reviews import CHUNK_PLIES
from bot.storage import SQLiteStorage
from engine.expert.review import REVIEW_BUDGET_S, Decision, review_plies, worst
from tests.e2e.corr import wait_db
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.finished_game import CONFIG, SEED, write_finished_game
from tests.e2e.helpers import answered, db_rows

SCALE = 0.2
ENV = {"PS_EXPERT_BUDGET_SCALE": str(SCALE), "PS_REVIEW_NICE": "0"}
#: The plies the bot still reviews after the restart.
LEFT = CHUNK_PLIES
TITLE = "The Expert's review of game #1"


async def test_review_is_posted_once_after_a_restart_and_shown_again(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    notations = await write_finished_game(
        str(tmp_path / "bot.db"), int(fake.guild_id), int(chan), int(alice["id"])
    )
    bot = await bot_process(env=ENV)  # its start's resync posts the final message
    final = await fake.wait_for_message(
        chan, lambda m: any(b["label"] == "Review" for b in m.buttons), timeout=30
    )
    assert [b["label"] for b in final.buttons] == [
        "Details", "Game log", "Rematch", "Replay", "Review",
    ]  # fmt: skip

    it = await answered(await fake.click(alice, final, final.find_button(label="Review")))
    assert it.ephemeral and it.content == rt.REVIEW_STARTED
    again = await answered(await fake.click(alice, final, final.find_button(label="Review")))
    assert again.ephemeral and again.content == rt.REVIEW_UNDER_WAY

    # Killed during the review: the next start resumes it where it stopped (moved on here).
    bot.kill()
    await bot.wait_exit()
    progress = "SELECT next_ply, status, attempts, decisions FROM reviews WHERE game_id = 1"
    ((ply, status, attempts, stored),) = db_rows(bot, progress)
    assert status == "running" and attempts == 1 and ply < len(notations)
    resume_at = max(ply, len(notations) - LEFT)
    storage = await SQLiteStorage.open(str(bot.database_path))
    await storage.update_review(1, next_ply=resume_at)
    await storage.close()
    await bot.restart()
    await fake.wait_ready(timeout=30)

    def posted() -> list:
        return [m for m in fake.messages(chan) if m.embeds and m.embeds[0]["title"] == TITLE]

    await fake.wait_until(lambda: posted(), 60, "the review posted")
    await wait_db(lambda: db_rows(bot, "SELECT status FROM reviews") == [("posted",)], 30)
    (head,) = posted()
    person = fake.messages(chan)[fake.messages(chan).index(head) + 1]
    assert db_rows(bot, "SELECT attempts, next_ply, posted FROM reviews") == [
        (2, len(notations), 2)
    ]

    # What it says: the engine's review at the same budget, Alice's three costliest decisions.
    decisions = [Decision.from_dict(d) for d in json.loads(stored)] + review_plies(
        CONFIG, SEED, notations, [0], range(resume_at, len(notations)),
        budget_s=REVIEW_BUDGET_S * SCALE, review_seed=SEED,
    )  # fmt: skip
    three = worst(decisions, 0)
    assert three
    assert [e["title"] for e in person.embeds] == [
        f"Alice: {k}. Round {d.round}" for k, d in enumerate(three, 1)
    ]
    for embed, d in zip(person.embeds, three, strict=True):
        assert embed["description"].startswith(
            f"Round {d.round}: Alice played {d.played}; the Expert would have played {d.best}"
        )
    names = [name for name, _data in head.attachments + person.attachments]
    assert names == ["review-chart.png"] + [f"review-0-{k}.png" for k in range(1, len(three) + 1)]

    # A later click: the stored review, privately; nothing computed or posted again.
    shown = await answered(await fake.click(alice, final, final.find_button(label="Review")))
    # (Discord: the first follow-up after "thinking" replaces that answer.)
    (followup,) = await shown.wait_followups(1, timeout=40)
    private = [shown.response, followup]
    assert [m.embeds for m in private] == [head.embeds, person.embeds]
    assert all(m.ephemeral for m in private)
    assert len(posted()) == 1
    assert db_rows(bot, "SELECT attempts, status FROM reviews") == [(2, "posted")]
