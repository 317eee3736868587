"""Issue 13, item 3: a bot killed right after `/ps new` saved the lobby but before its message
went out left a lobby nobody could see, while `/ps new` answered "already has a game". At start,
lobbies are redrawn just as games are."""

from __future__ import annotations

import sqlite3

from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage
from tests.e2e.helpers import click, db_rows, new_lobby, seat_rows

NEW_GAME = "Photosynthesis \N{EM DASH} new game"


def is_lobby(message: FakeMessage) -> bool:
    return any(e.get("title") == NEW_GAME for e in message.embeds)


async def restart(fake: FakeDiscord, bot: BotProcess, sql: str = "") -> None:
    bot.kill()
    await bot.wait_exit()
    if sql:
        conn = sqlite3.connect(bot.database_path)
        conn.execute(sql)
        conn.commit()
        conn.close()
    await bot.start()
    await fake.wait_ready()


async def test_a_lobby_whose_message_never_went_out_is_drawn_at_start(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    first = await new_lobby(fake, alice, chan)
    first.deleted = True  # as if the bot died before sending it: nobody sees it
    await restart(fake, bot, "DELETE FROM messages WHERE kind = 'lobby'")

    lobby = await fake.wait_for_message(chan, lambda m: is_lobby(m) and m.id != first.id)
    assert f"<@{alice['id']}>" in lobby.embeds[0]["description"]
    (stored,) = db_rows(bot, "SELECT message_id FROM messages WHERE kind = 'lobby'")
    assert str(stored[0]) == str(lobby.id)
    joined = await click(fake, bob, lobby, "Join")  # the redrawn lobby works
    assert [row[2] for row in seat_rows(bot)] == [int(alice["id"]), int(bob["id"])]
    assert joined.response is not None

    # A lobby whose message is there is redrawn in place: no second message.
    await restart(fake, bot)
    assert [m.id for m in fake.messages(chan) if is_lobby(m)] == [lobby.id]
    # The slash commands were synced at the first start only: at each restart the bot found
    # them as they are (one GET each) and sent no sync.
    gets = [r for r in fake.requests if r[0] == "GET" and r[1].endswith("/commands")]
    assert fake.command_syncs == 1 and len(gets) == 3
