"""Forged component ids: whatever custom_id a client sends, the answer is one sentence, and a
game of another channel is refused (a hostile client may send any custom_id it likes)."""

from __future__ import annotations

from bot import texts
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_component
from tests.e2e.gameplay import action_log, start_game
from tests.e2e.test_lobby import answered

HUGE = "9" * 30


async def forge(fake: FakeDiscord, user: dict, message: FakeMessage, label: str, custom_id: str):
    """Click the button `label` of `message` as if its custom_id were `custom_id`."""
    find_component(message, label=label)["custom_id"] = custom_id
    return await answered(await fake.click(user, message, custom_id))


async def test_forged_component_ids_get_one_sentence(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, mallory = fake.add_user("alice"), fake.add_user("mallory")
    here, there = fake.add_channel("here"), fake.add_channel("there")
    await start_game(fake, there, alice, [], cynthias=1)  # game 1
    ours = await start_game(fake, here, mallory, [], cynthias=1)  # game 2
    cases = {
        f"ps:turn:{HUGE}:1": texts.UNKNOWN_COMPONENT,
        f"ps:log:1:{HUGE}": texts.UNKNOWN_COMPONENT,
        f"ps:panel:{HUGE}:1:end": texts.UNKNOWN_COMPONENT,
        "ps:bogus:2:1": texts.UNKNOWN_COMPONENT,
        "ps:turn:2": texts.UNKNOWN_COMPONENT,
        "ps:log:1:1": texts.OTHER_CHANNEL,
        "ps:sun:1:1": texts.OTHER_CHANNEL,
        "ps:turn:1:1": texts.OTHER_CHANNEL,
        "ps:panel:1:1:end": texts.OTHER_CHANNEL,
    }
    for custom_id, expected in cases.items():
        it = await forge(fake, mallory, ours, "Game log", custom_id)
        assert (custom_id, it.ephemeral, it.content) == (custom_id, True, expected)
    assert action_log(bot, 1) == []
    assert fake.late_interactions == []
