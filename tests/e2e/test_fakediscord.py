"""Self-tests of the loopback fake of Discord, driving ``tests/e2e/minibot.py`` in a subprocess."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import ClientSession

from tests.e2e import fakediscord
from tests.e2e.fakediscord import PNG_SIGNATURE, BotProcess, FakeDiscord, find_button

MINIBOT = "tests.e2e.minibot"


@pytest.fixture
async def minibot(fake: FakeDiscord, bot_process) -> BotProcess:
    """The minibot, connected and with its commands synced."""
    return await bot_process(MINIBOT)


# -- without a bot ---------------------------------------------------------------------------


async def test_urls_and_guild_defaults(fake: FakeDiscord) -> None:
    assert fake.api_base == f"http://127.0.0.1:{fake.port}/api/v10"
    assert fake.gateway_url == f"ws://127.0.0.1:{fake.port}/gateway/"
    alice = fake.add_user("alice")
    assert alice["username"] == "alice" and alice["id"] in fake.members
    mod = fake.add_user("mod", manage_channels=True)
    assert fake.permissions(mod) & (1 << 4)
    assert not fake.permissions(alice) & (1 << 4)
    games = fake.add_channel("games")
    assert fake.channels[games]["name"] == "games"
    assert fake.default_channel_id in fake.channels
    assert fake.last_message(games) is None and not fake.connected


# -- login, sync, slash commands -------------------------------------------------------------


async def test_ready_and_command_sync(fake: FakeDiscord, minibot: BotProcess) -> None:
    assert fake.connected and fake.identifies == 1
    mini = fake.guild_commands[fake.guild_id]["mini"]
    names = {o["name"] for o in mini["options"]}
    assert {"hello", "play", "slow", "board", "dm", "counter", "leak"} <= names
    assert mini["id"] and mini["application_id"] == fake.application_id
    assert fake.ready and minibot.running


async def test_slash_with_options_public_reply(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    games = fake.add_channel("games")
    it = await fake.slash(
        alice, "mini hello", options={"name": "Bob", "times": 2, "loud": True}, channel_id=games
    )
    await it.wait_response(timeout=10)
    assert it.content == "HELLO BOB! HELLO BOB!"
    assert not it.ephemeral
    assert fake.last_message(games) is it.response
    assert fake.last_message(games).author_id == fake.application_id
    assert [b["custom_id"] for b in it.response.buttons] == ["mini:wave"]
    assert [s["custom_id"] for s in it.response.selects] == ["mini:colour"]


async def test_slash_argument_checks(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    with pytest.raises(ValueError, match="requires"):
        await fake.slash(alice, "mini hello")
    with pytest.raises(LookupError, match="no option"):
        await fake.slash(alice, "mini hello", options={"name": "x", "nope": 1})
    with pytest.raises(LookupError, match="no subcommand"):
        await fake.slash(alice, "mini nope")
    with pytest.raises(ValueError, match="out of range"):
        await fake.slash(alice, "mini hello", options={"name": "x", "times": 9})


async def test_button_updates_message_in_place(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    it = await fake.slash(alice, "mini hello", options={"name": "Bob"})
    await it.wait_response()
    msg = fake.last_message()
    assert msg.edits == 0
    click = await fake.click(bob, msg, find_button(msg, label="Wave")["custom_id"])
    await click.wait_response()
    assert click.callback_type == 7
    assert click.response is msg
    assert msg.content == "Waved by bob" and msg.edits == 1
    assert fake.find_button(msg, label="Wave")["disabled"] is True
    assert fake.messages() == [msg]
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(alice, msg, "mini:wave")


async def test_select_and_ephemeral_reply(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini hello", options={"name": "Bob"})
    await it.wait_response()
    board = fake.last_message()
    picked = await fake.select(alice, board, "mini:colour", ["red", "blue"])
    await picked.wait_response()
    assert picked.ephemeral
    assert picked.content == "alice picked red, blue"
    assert fake.last_message() is board  # ephemeral replies stay out of the channel
    with pytest.raises(ValueError, match="not options"):
        await fake.select(alice, board, "mini:colour", ["purple"])


async def test_autocomplete(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    choices = await fake.autocomplete(
        alice, "mini play", focused="action", options={"action": "gr"}
    )
    assert choices == [{"name": "Grow", "value": "grow"}, {"name": "Grab", "value": "grab"}]
    everything = await fake.autocomplete(alice, "mini play", focused="action")
    assert [c["value"] for c in everything] == ["grow", "grab", "plant", "pass", "collect"]
    it = await fake.slash(alice, "mini play", options={"action": "grow", "amount": 3})
    await it.wait_response()
    assert it.ephemeral and it.content == "Playing grow x3"


async def test_deferred_edit_original_and_followups(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini slow", options={"mode": "edit"})
    await it.wait_response()
    await it.wait_followups(2)
    assert it.callback_type == 5
    assert [m.content for m in it.messages] == [
        "Done thinking",
        "A secret followup",
        "A public followup",
    ]
    assert [m.ephemeral for m in it.messages] == [False, True, False]
    assert not it.response.loading and it.response.edits == 1
    channel = [m.content for m in fake.messages()]
    assert channel == ["Done thinking", "A public followup"]


async def test_first_followup_replaces_thinking_message(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = fake.add_user("alice")
    mark = fake.mark()
    it = await fake.slash(alice, "mini slow", options={"mode": "followup", "hidden": True})
    await it.wait_response()
    assert it.ephemeral and it.content in (
        "First followup replaces thinking",
        "Edited after followup",
    )
    await fake.wait_until(lambda: it.response.edits == 2, 10, "the second edit")
    assert it.content == "Edited after followup"
    assert it.followups == [] and len(it.messages) == 1
    assert fake.messages() == []  # ephemeral: nothing in the channel
    assert fake.mark() > mark


async def test_channel_message_with_png_and_edit(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    games = fake.add_channel("games")
    it = await fake.slash(alice, "mini board", channel_id=games)
    await it.wait_response()
    assert it.ephemeral and it.content == "Posted the board"
    board = await fake.wait_for_message(games, lambda m: m.content == "Board v1")
    assert board.embeds[0]["title"] == "Board"
    assert board.embeds[0]["image"]["url"] == "attachment://board.png"
    [(name, data)] = board.attachments
    assert name == "board.png" and data.startswith(PNG_SIGNATURE)
    first_bytes = data

    mark = fake.mark()
    click = await fake.click(alice, board, "mini:refresh")
    await click.wait_callback()
    assert click.callback_type == 6
    edited = await fake.wait_for_message(games, lambda m: m.content == "Board v2", since=mark)
    assert edited is board and board.edits == 1
    [(name, data)] = board.attachments
    assert name == "board.png" and data.startswith(PNG_SIGNATURE) and data != first_bytes


async def test_dm(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini dm")
    await it.wait_response()
    assert it.ephemeral and it.content == "Check your DMs"
    dm = await fake.wait_for_dm(alice)
    assert dm.content == "Psst, a secret"
    assert [m.content for m in fake.dms(alice)] == ["Psst, a secret"]
    assert fake.messages() == []


async def test_user_option_and_late_member(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    carol = fake.add_user("carol")  # added while connected: GUILD_MEMBER_ADD
    it = await fake.slash(alice, "mini whois", options={"member": carol})
    await it.wait_response()
    assert it.content == f"carol has id {carol['id']}"


async def test_default_member_permissions(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    mod = fake.add_user("mod", manage_channels=True)
    with pytest.raises(PermissionError):
        await fake.slash(alice, "miniadmin")
    it = await fake.slash(mod, "miniadmin")
    await it.wait_response()
    assert it.ephemeral and it.content == "Admin ok"


async def test_invalid_message_is_rejected(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini toolong")
    await it.wait_response()
    assert it.content == "rejected 50035" and it.ephemeral
    # Discord's spec caps content at 2,000 characters: the body is rejected before the fake's
    # own checks, reported, and the test would fail at teardown (this one expects it).
    where = "POST /interactions/{interaction_id}/{interaction_token}/callback request "
    (violation,) = await fake.spec_report()
    assert violation.startswith(where + "$.data.content: 'xxx")
    assert violation.endswith("xxx' is too long")
    assert fake.rejected[0][0] == "Discord's spec: " + violation
    assert len(it.errors) == 1 and "400 50035: Invalid Form Body" in it.errors[0]
    fake.spec_violations.clear()


async def test_double_acknowledgement_is_an_error(fake: FakeDiscord, minibot: BotProcess) -> None:
    """A second callback for an already answered interaction gets 40060, as on Discord."""
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini hello", options={"name": "x"})
    await it.wait_response()
    from aiohttp import ClientSession

    async with ClientSession() as session:
        url = f"{fake.api_base}/interactions/{it.id}/{it.token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 40060


async def test_a_nonce_with_enforce_nonce_returns_the_message_already_made(
    fake: FakeDiscord,
) -> None:
    """Discord: with `enforce_nonce`, "the nonce will be checked for uniqueness in the past few
    minutes. If another message was created by the same author with the same nonce, that
    message will be returned and no new message will be created". Without `enforce_nonce`, or
    with another nonce, or once those minutes are past, a new message is made."""
    chan = fake.add_channel("notices")
    url = f"{fake.api_base}/channels/{chan}/messages"

    def age(seconds: float) -> None:  # the fake's memory of each nonce, made older
        for key, (message, when) in fake._nonces.items():
            fake._nonces[key] = (message, when - seconds)

    async def post(session: ClientSession, **payload) -> str:
        async with session.post(url, json={"content": "hi", **payload}) as response:
            assert response.status == 200
            return (await response.json())["id"]

    async with ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        first = await post(session, nonce="n1", enforce_nonce=True)
        assert await post(session, nonce="n1", enforce_nonce=True) == first
        other = await post(session, nonce="n2", enforce_nonce=True)
        loose = await post(session, nonce="n1")  # no enforce_nonce: a new message
        assert len({first, other, loose}) == 3
        age(fakediscord.NONCE_WINDOW_S - 1)
        assert await post(session, nonce="n1", enforce_nonce=True) == first
        age(2)  # the window is past: a new message
        fake.clock.advance(5)  # (a new window of the channel's 5 sends per 5 s)
        later = await post(session, nonce="n1", enforce_nonce=True)
    assert later not in (first, other, loose)
    assert [m.id for m in fake.messages(chan)] == [first, other, loose, later]


# -- robustness --------------------------------------------------------------------------------


async def test_guard_blocks_non_loopback(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini leak")
    await it.wait_response()
    assert it.content.startswith("blocked: ")
    assert any("example.com" in v for v in fake.violations)
    fake.violations.clear()  # expected here; the fixture would fail the test otherwise


async def test_persistent_button_survives_kill_and_restart(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = fake.add_user("alice")
    it = await fake.slash(alice, "mini counter")
    await it.wait_response()
    msg = it.response
    first = await fake.click(alice, msg, "mini:count:0")
    await first.wait_response()
    assert msg.content == "Count: 1"

    minibot.kill()
    assert await minibot.wait_exit() != 0
    await minibot.restart()
    await fake.wait_ready(timeout=30)
    assert fake.identifies == 2

    second = await fake.click(alice, msg, "mini:count:1")
    await second.wait_response()
    assert msg.content == "Count: 2" and msg.edits == 2
    assert fake.find_component(msg, custom_id_prefix="mini:count:")["label"] == "Count 2"
    assert await minibot.stop() == 0


async def test_reconnect_resumes_session(fake: FakeDiscord, minibot: BotProcess) -> None:
    alice = fake.add_user("alice")
    await fake.request_reconnect()
    await fake.wait_until(lambda: fake.resumes == 1 and fake.connected, 10, "a RESUME")
    it = await fake.slash(alice, "mini play", options={"action": "pass"})
    await it.wait_response()
    assert it.content == "Playing pass x1" and fake.identifies == 1


async def test_many_concurrent_interactions(fake: FakeDiscord, minibot: BotProcess) -> None:
    users = [fake.add_user(f"user{i}") for i in range(40)]
    interactions = [
        await fake.slash(u, "mini hello", options={"name": u["username"]}) for u in users
    ]
    await asyncio.gather(*(it.wait_response(timeout=30) for it in interactions))
    assert [it.content for it in interactions] == [f"Hello user{i}!" for i in range(40)]
    clicks = [
        await fake.click(u, it.response, "mini:wave")
        for u, it in zip(users, interactions, strict=True)
    ]
    await asyncio.gather(*(c.wait_response(timeout=30) for c in clicks))
    assert all(it.response.content == f"Waved by user{i}" for i, it in enumerate(interactions))
    assert len(fake.messages()) == 40


async def test_crash_is_reported_while_waiting(fake: FakeDiscord, tmp_path) -> None:
    bot = BotProcess(fake, tmp_path, module="tests.e2e.no_such_module")
    await bot.start()
    with pytest.raises(RuntimeError, match="exited with code 1"):
        await fake.wait_ready(timeout=30)
    assert "No module named" in bot.output()
