"""Issue 13, item 11: a typed command sent three times at once applied three times (three
seeds bought). It carries the game's version when it arrived: copies of one command sent at
the same moment apply once, and the same command typed again after the answer plays again."""

from __future__ import annotations

from bot.services import refusals
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import action_log, next_turn, start_game, turn_owner
from tests.e2e.helpers import answered


async def test_three_identical_commands_at_once_apply_once(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [], cynthias=1)
    while msg.embeds[0]["description"].startswith("Setup"):
        assert turn_owner(msg) == alice["id"]
        choices = await fake.autocomplete(
            alice, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        await answered(
            await fake.slash(alice, "ps play", {"action": choices[0]["value"]}, channel_id=chan)
        )
        msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == alice["id"]
    before = [row[1] for row in action_log(bot)]

    sent = [
        await fake.slash(alice, "ps play", {"action": "buy seed"}, channel_id=chan)
        for _ in range(3)
    ]
    answers = [(await answered(it)).content for it in sent]
    assert [row[1] for row in action_log(bot)] == [*before, "buy seed"]
    repeated = refusals.ALREADY_APPLIED.format(action="buy seed")
    assert answers.count(repeated) == 2
    (played,) = [a for a in answers if a != repeated]
    assert played.startswith("You played `buy seed`")
    assert all(it.ephemeral for it in sent)

    # Typed again once the answer is there: a second seed, as the player meant.
    again = await answered(
        await fake.slash(alice, "ps play", {"action": "buy seed"}, channel_id=chan)
    )
    assert again.content.startswith("You played `buy seed`")
    assert [row[1] for row in action_log(bot)] == [*before, "buy seed", "buy seed"]
