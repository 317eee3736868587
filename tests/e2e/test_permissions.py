"""Issue 13, item 14: without Attach Files or Embed Links, `/ps new` succeeded and the game
message then failed silently. `/ps new` and the start check the bot's permissions in the channel
and say in one sentence what is missing; the fake enforces them as Discord does (403, 50013)."""

from __future__ import annotations

from aiohttp import ClientSession

from bot.present import texts
from tests.e2e.fakediscord import FakeDiscord, Perm
from tests.e2e.helpers import add_bot, answered, click, game_rows, new_lobby


def missing(names: str, several: bool) -> str:
    sentence = texts.MISSING_PERMISSIONS_MANY if several else texts.MISSING_PERMISSIONS
    return sentence.format(names=names)


async def test_new_and_start_say_which_permissions_are_missing(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice = fake.add_user("alice")
    bare = fake.add_channel("no-files")
    fake.deny_bot(bare, Perm.ATTACH_FILES | Perm.EMBED_LINKS)
    it = await answered(await fake.slash(alice, "ps new", channel_id=bare))
    assert it.ephemeral
    assert it.content == missing("Embed Links and Attach Files", several=True)
    assert game_rows(bot) == []  # nothing was created

    # Permissions taken away between the lobby and the start: the start says so.
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    await add_bot(fake, alice, lobby)
    fake.deny_bot(chan, Perm.ATTACH_FILES)
    it = await click(fake, alice, lobby, "Start")
    assert it.ephemeral and it.content == missing("Attach Files", several=False)
    assert [row[1] for row in game_rows(bot)] == ["lobby"]


async def test_the_fake_refuses_a_message_the_bot_may_not_send(fake: FakeDiscord) -> None:
    chan = fake.add_channel("quiet")
    fake.deny_bot(chan, Perm.EMBED_LINKS)
    assert fake.channel_permissions(fake.application_id, chan) & Perm.EMBED_LINKS == 0
    assert fake.channel_permissions(fake.application_id, chan) & Perm.SEND_MESSAGES
    url = f"{fake.api_base}/channels/{chan}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}
    async with ClientSession(headers=auth) as session:
        async with session.post(url, json={"embeds": [{"title": "board"}]}) as response:
            body = await response.json()
            assert (response.status, body["code"]) == (403, 50013)
            assert body["message"] == "Missing Permissions"
        async with session.post(url, json={"content": "hi"}) as response:
            assert response.status == 200
