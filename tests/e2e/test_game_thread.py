"""Each game is played in a thread of its own, started from its lobby message (issue 14: a
quiet channel); the thread is found again after a crash instead of made twice."""

from __future__ import annotations

from bot.present import correspondence_texts as ct
from bot.present import texts
from bot.services import refusals
from tests.e2e.corr import wait_db
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import next_turn, start_game, turn_owner
from tests.e2e.helpers import answered, crash_and_restart, db_rows, mention, refused, write_db


async def test_play_in_the_thread_and_type_in_either_place(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=0)
    (thread,) = fake.threads_of(chan)
    lobby = fake.messages(chan)[0]
    assert thread == lobby.id and msg.channel_id == thread
    assert fake.channels[thread]["parent_id"] == chan
    stored = "SELECT kind, channel_id, message_id FROM messages ORDER BY kind"
    await wait_db(lambda: len(db_rows(bot, stored)) == 3, what="the message ids stored")
    assert db_rows(bot, stored) == [
        ("game", int(thread), int(msg.id)),
        ("lobby", int(chan), int(lobby.id)),
        ("thread", int(thread), int(thread)),
    ]
    users = {alice["id"]: alice, bob["id"]: bob}
    # A setup placement typed in the thread, the next one typed in the channel.
    for where in (thread, chan):
        user = users[turn_owner(msg)]
        it = await answered(
            await fake.slash(user, "ps play", options={"action": "place A1" if where == thread
                             else "place G4"}, channel_id=where)
        )  # fmt: skip
        assert it.ephemeral and it.content.startswith("You played `place "), it.content
        msg = await next_turn(fake, chan, msg)
        assert (
            msg.channel_id == thread
            and msg.content == f"{mention(users[turn_owner(msg)])}, it is your turn."
        )
    # The game as text, privately, in the thread or the channel (what the alt text says too).
    it = await answered(await fake.slash(bob, "ps status", {"words": True}, channel_id=thread))
    assert it.ephemeral and it.content.startswith(
        "**Game #1 as text.** Photosynthesis board during setup."
    )
    assert "\n```\n      A a1  .1  .1  .1 \n" in it.content
    assert "Letters are the seats (a Alice, b Bob)" in it.content
    assert msg.files[0].description.split(" Outlined: ")[0] in it.content
    # A new game is opened in the channel, not in a game's thread.
    await refused(await fake.slash(alice, "ps new", channel_id=thread), texts.NEW_IN_THREAD)
    await refused(await fake.slash(alice, "ps new", channel_id=chan), refusals.CHANNEL_BUSY)
    assert fake.messages(chan) == [lobby]
    # Issue 44, `/ps follow`: Carol, a spectator, follows the game (in the channel), Bob mutes
    # it (in the thread); each is answered privately. The next turn messages ping Carol, named
    # on a small line, and no longer Bob; back to the default, Bob is pinged again.
    carol = fake.add_user("carol")
    for user, mode, said, where in (
        (carol, "follow", ct.FOLLOW_ON, chan),
        (bob, "mute", ct.FOLLOW_MUTED, thread),
    ):
        it = await answered(
            await fake.slash(user, "ps follow", options={"mode": mode}, channel_id=where)
        )
        assert it.ephemeral and it.content == said.format(game=1)
    seen = {}
    for space in ("D7", "G1"):
        await play_typed(fake, users[turn_owner(msg)], thread, f"place {space}")
        msg = await next_turn(fake, chan, msg)
        owner = users[turn_owner(msg)]
        assert msg.content == f"{mention(owner)}, it is your turn.\n-# {mention(carol)}"
        seen[owner["username"]] = msg.pinged
    assert seen == {"alice": [alice["id"], carol["id"]], "bob": [carol["id"]]}
    it = await answered(
        await fake.slash(bob, "ps follow", options={"mode": "default"}, channel_id=thread)
    )
    assert it.ephemeral and it.content == ct.FOLLOW_DEFAULT.format(game=1)
    assert db_rows(bot, "SELECT game_id, user_id, mode FROM game_follows") == [
        (1, int(carol["id"]), "follow")
    ]
    assert fake.messages(chan) == [lobby]


async def play_typed(fake: FakeDiscord, user: dict, where: str, action: str) -> None:
    it = await answered(
        await fake.slash(user, "ps play", options={"action": action}, channel_id=where)
    )
    assert it.ephemeral and it.content.startswith("You played"), it.content


async def test_a_thread_made_just_before_a_crash_is_found_again(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    first = await start_game(fake, chan, alice, [bob], cynthias=0)
    (thread,) = fake.threads_of(chan)
    # The process died after Discord made the thread, before its id and the game message's
    # were stored: at the restart the game message is posted again, in the same thread, with
    # the same nonce: Discord answers with the message already made, which is kept (not
    # doubled).
    bot.kill()
    await bot.wait_exit()
    write_db(bot, "DELETE FROM messages WHERE kind IN ('thread', 'game')")
    await bot.start()
    await fake.wait_ready()
    stored = "SELECT kind, channel_id, message_id FROM messages WHERE kind IN ('game', 'thread')"
    assert await wait_db(lambda: len(db_rows(bot, stored)) == 2, what="the ids stored again")
    assert sorted(db_rows(bot, stored)) == [
        ("game", int(thread), int(first.id)),
        ("thread", int(thread), int(thread)),
    ]
    assert fake.threads_of(chan) == [thread]
    assert [m.id for m in fake.messages(thread) if m.content == first.content] == [first.id]
    await crash_and_restart(fake, bot)
    assert fake.threads_of(chan) == [thread]
