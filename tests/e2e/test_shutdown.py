"""A graceful shutdown (SIGTERM, as systemd and Docker stop a service) in the middle of a click:
the click's answer and the game message it changed land before the connection to Discord
closes (`bot.discord.app.SHUTDOWN_GRACE_S`), the process exits 0 and logs no error. An answer that
cannot land within the grace is cut off, logged as such, and changes nothing."""

from __future__ import annotations

import asyncio
import json

from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeInteraction, FakeMessage
from tests.e2e.gameplay import action_log, next_turn, start_game, turn_owner
from tests.e2e.helpers import answered


async def told_to_stop(bot: BotProcess) -> asyncio.Task[int | None]:
    """SIGTERM the bot (`BotProcess.stop`, a task) and return once it says it shuts down."""
    stopping = asyncio.create_task(bot.stop())
    for _ in range(200):  # (at most 10 s)
        if "shutting down" in bot.output():
            return stopping
        await asyncio.sleep(0.05)
    raise TimeoutError(f"the bot did not begin to shut down:\n{bot.output_tail()}")


def log_levels(bot: BotProcess) -> list[str]:
    return [json.loads(line)["level"] for line in bot.output().splitlines() if line[:1] == "{"]


async def a_held_first_move(
    fake: FakeDiscord,
) -> tuple[dict, dict, str, FakeMessage, str, FakeInteraction]:
    """Alice and Bob's new game; Alice types her first move with `/ps play`, and its first
    answer is held on its way (until the test lets it go). Alice, Bob, the channel, the game
    message of her turn, the move and the interaction."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=0)
    assert turn_owner(msg) == alice["id"]
    offered = await fake.autocomplete(
        alice, "ps play", focused="action", options={"action": ""}, channel_id=chan
    )
    action = offered[0]["value"]
    typed = await fake.slash(alice, "ps play", options={"action": action}, channel_id=chan)
    typed.hold_callback()
    await fake.wait_until(lambda: typed.held, 10, "the typed command's answer")
    return alice, bob, chan, msg, action, typed


async def test_sigterm_while_a_click_is_answered_lets_it_and_its_game_message_land(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    _, bob, chan, msg, action, typed = await a_held_first_move(fake)
    stopping = await told_to_stop(bot)
    assert typed.gate is not None
    typed.gate.set()
    assert await stopping == 0
    await answered(typed)
    assert typed.ephemeral and typed.content.startswith(f"You played `{action}`.")
    assert [row[1] for row in action_log(bot)] == [action]
    # Bob's turn was posted before the bot disconnected.
    game_messages = [
        m
        for thread in fake.threads_of(chan)
        for m in fake.messages(thread)
        if m.embeds and int(m.id) > int(msg.id)
    ]
    assert [turn_owner(m) for m in game_messages] == [bob["id"]]
    assert "ERROR" not in log_levels(bot) and "Traceback" not in bot.output()
    assert fake.late_interactions == []


async def test_an_answer_held_past_the_grace_is_cut_off_and_changes_nothing(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob, chan, msg, action, typed = await a_held_first_move(fake)  # and never let go
    stopping = await told_to_stop(bot)
    assert await stopping == 0
    assert typed.callback_type is None and action_log(bot) == []
    assert "an answer cut off by the shutdown" in bot.output()
    assert "shutting down with answers under way" in bot.output()
    assert "ERROR" not in log_levels(bot) and "Traceback" not in bot.output()
    assert typed.gate is not None
    typed.gate.set()  # the request reaches the fake only now: its client is gone
    path = f"POST /api/v10/interactions/{typed.id}/{typed.token}/callback"
    await fake.wait_until(lambda: fake.hangups == [path], 10, "the held request's hang-up")
    assert typed.callback_type is None
    # Started again, the game waits for Alice's move as before, and takes it.
    await bot.start()
    await fake.wait_ready()
    again = await answered(
        await fake.slash(alice, "ps play", options={"action": action}, channel_id=chan)
    )
    assert again.content.startswith(f"You played `{action}`.")
    assert turn_owner(await next_turn(fake, chan, msg)) == bob["id"]
