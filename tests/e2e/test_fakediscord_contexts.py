"""Self-tests of the loopback fake's contexts and installs: a DM with the bot, a server where the
app is only installed by the user, a private channel of users, and the commands' registered
`contexts` and `integration_types`, driving ``tests/e2e/minibot.py`` (``MINIBOT_ANYWHERE=1``)."""

from __future__ import annotations

import pytest

from tests.e2e.fakediscord import (
    FLAG_EPHEMERAL,
    USER_INSTALL_FOLLOWUP_LIMIT,
    BotProcess,
    FakeDiscord,
    NotOffered,
    Perm,
)

MINIBOT = "tests.e2e.minibot"


@pytest.fixture
async def minibot(fake: FakeDiscord, bot_process) -> BotProcess:
    """The minibot with its global commands synced (`/anywhere`, `/serveronly`)."""
    bot = await bot_process(MINIBOT, env={"MINIBOT_ANYWHERE": "1"})
    await fake.wait_until(lambda: "serveronly" in fake.global_commands, 10, "the global sync")
    return bot


async def test_commands_keep_their_contexts_and_installs(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    anywhere, serveronly = fake.global_commands["anywhere"], fake.global_commands["serveronly"]
    assert (anywhere["contexts"], anywhere["integration_types"]) == ([0, 1, 2], [0, 1])
    assert (serveronly["contexts"], serveronly["integration_types"]) == ([0], [0])


async def test_a_dm_with_the_bot(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    dm = fake.bot_dm(alice)
    it = await fake.slash(alice, "anywhere where", channel_id=dm)
    await it.wait_response()
    assert (
        it.content
        == "context=dm_channel guild=None guild_install=False user_install=False send=False"
    )
    assert it.payload["context"] == 1 and it.payload["authorizing_integration_owners"] == {"0": "0"}
    assert it.payload["user"] == alice and "member" not in it.payload
    assert "guild_id" not in it.payload and int(it.payload["app_permissions"]) == Perm.BOT_DM
    assert fake.dms(alice) == [it.response]  # the public answer is a message of the DM
    posted = await fake.slash(alice, "anywhere post", channel_id=dm)  # the bot may post in a DM
    await posted.wait_response()
    assert posted.content == "posted"
    assert [m.content for m in fake.dms(alice)][-1] == "posted by the bot"
    with pytest.raises(NotOffered, match="context 1"):
        await fake.slash(alice, "serveronly", channel_id=dm)
    fake.install_for_user(alice)  # then both installs authorize it
    both = await fake.slash(alice, "anywhere where", channel_id=dm)
    await both.wait_response()
    assert both.payload["authorizing_integration_owners"] == {"0": "0", "1": alice["id"]}
    assert await fake.spec_report() == []


async def test_a_server_where_only_the_user_installed_the_app(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    elsewhere = fake.add_guild("Elsewhere", app_installed=False)
    chat = fake.add_channel("chat", guild_id=elsewhere)
    bob = fake.add_user("bob", guild_id=elsewhere)
    assert elsewhere not in fake.installed_guilds and fake.connected
    with pytest.raises(NotOffered, match="no install authorizes it"):
        await fake.slash(bob, "anywhere where", channel_id=chat)
    fake.install_for_user(bob)
    it = await fake.slash(bob, "anywhere where", channel_id=chat)
    await it.wait_response()
    assert it.content == (
        f"context=guild guild={elsewhere} guild_install=False user_install=True send=False"
    )
    assert it.payload["authorizing_integration_owners"] == {"1": bob["id"]}
    assert it.payload["member"]["user"] == bob and it.payload["guild_id"] == elsewhere
    assert int(it.payload["app_permissions"]) == Perm.INTERACTION_ONLY
    assert not it.ephemeral and fake.messages(chat) == [it.response]  # answers still show
    with pytest.raises(NotOffered, match="no install authorizes it"):
        await fake.slash(bob, "serveronly", channel_id=chat)

    # The bot's own calls to the channel fail as on Discord.
    posted = await fake.slash(bob, "anywhere post", channel_id=chat)
    await posted.wait_response()
    assert posted.content == "forbidden 403 50001" and fake.unreachable == [chat]
    assert fake.messages(chat) == [it.response]

    # At most five follow-ups for an interaction only the user's install authorizes.
    many = await fake.slash(bob, "anywhere many", channel_id=chat)
    await fake.wait_until(
        lambda: many.messages and many.content.startswith("sent"), 10, "the follow-ups"
    )
    assert many.content == f"sent {USER_INSTALL_FOLLOWUP_LIMIT}, refused [400]"


async def test_answers_are_private_where_external_apps_are_denied(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    elsewhere = fake.add_guild("Elsewhere", app_installed=False)
    chat = fake.add_channel("chat", guild_id=elsewhere)
    fake.channels[chat]["permission_overwrites"].append(
        {"id": elsewhere, "type": 0, "allow": "0", "deny": str(Perm.USE_EXTERNAL_APPS)}
    )
    bob = fake.add_user("bob", guild_id=elsewhere)
    fake.install_for_user(bob)
    it = await fake.slash(bob, "anywhere where", channel_id=chat)
    await it.wait_response()
    assert it.response.flags & FLAG_EPHEMERAL and fake.messages(chat) == []


async def test_a_private_channel_of_users(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    pair = fake.add_private_channel(alice, bob)
    group = fake.add_private_channel(alice, bob, carol)
    with pytest.raises(NotOffered, match="no install authorizes it"):
        await fake.slash(alice, "anywhere where", channel_id=pair)
    fake.install_for_user(alice)
    for channel in (pair, group):
        it = await fake.slash(alice, "anywhere where", channel_id=channel)
        await it.wait_response()
        assert it.content == (
            "context=private_channel guild=None guild_install=False user_install=True send=False"
        )
        assert it.payload["context"] == 2
        assert it.payload["channel"]["recipients"] == [u for u in (bob, carol) if u["id"] in {
            r["id"] for r in fake.channels[channel]["recipients"]}]  # fmt: skip
        assert fake.messages(channel) == [it.response]
    posted = await fake.slash(alice, "anywhere post", channel_id=pair)
    await posted.wait_response()
    assert posted.content == "forbidden 403 50001"
    with pytest.raises(NotOffered, match="context 2"):
        await fake.slash(alice, "serveronly", channel_id=pair)
    assert await fake.spec_report() == []


async def test_a_server_with_the_app_keeps_its_follow_ups(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = fake.add_user("alice")
    fake.install_for_user(alice)
    many = await fake.slash(alice, "anywhere many")
    await fake.wait_until(
        lambda: many.messages and many.content.startswith("sent"), 10, "the follow-ups"
    )
    assert many.content == "sent 6, refused []"
    assert many.payload["authorizing_integration_owners"] == {
        "0": fake.guild_id,
        "1": alice["id"],
    }
