"""Issue 13, item 1: a game that cannot be loaded (a damaged games row, or an action log that no
longer replays) no longer stops the bot. It is quarantined: logged and marked, its channel is
told in one sentence when someone uses it, and every other game is still served."""

from __future__ import annotations

import sqlite3

from bot import texts
from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.e2e.gameplay import start_game, turn_owner
from tests.e2e.test_lobby import answered, click, db_rows


def db_write(bot: BotProcess, sql: str, params: tuple = ()) -> None:
    conn = sqlite3.connect(bot.database_path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


async def test_damaged_games_are_set_aside_and_the_others_are_served(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    users = {u["id"]: u for u in (alice, bob, carol)}
    damaged_row, broken_log, healthy = (fake.add_channel(n) for n in ("one", "two", "three"))
    await start_game(fake, damaged_row, alice, [], cynthias=1)  # game 1
    await start_game(fake, broken_log, bob, [], cynthias=1)  # game 2
    msg = await start_game(fake, healthy, carol, [alice], cynthias=0)  # game 3

    bot.kill()
    await bot.wait_exit()
    db_write(bot, "UPDATE games SET options = '{not json' WHERE id = 1")
    (last,) = db_rows(bot, "SELECT COALESCE(MAX(ply), 0) FROM actions WHERE game_id = 2")[0]
    db_write(
        bot,
        "INSERT INTO actions (game_id, ply, notation, seat, user_id, created_at)"
        " VALUES (2, ?, 'grow D4', 0, NULL, '2026-01-01T00:00:00')",
        (last + 1,),
    )
    db_write(bot, "UPDATE games SET version = version + 1 WHERE id = 2")
    db_write(bot, "DELETE FROM snapshots WHERE game_id = 2")
    await bot.start()
    await fake.wait_ready()

    # Every other game is still served: the healthy game's setup goes on.
    user = users[turn_owner(msg)]
    panel = await click(fake, user, msg, "Take my turn")
    assert panel.response is not None and panel.response.ephemeral

    # Each damaged game's channel is told so in one sentence, ephemeral, and nothing changes.
    for chan, game_id, who in ((damaged_row, 1, alice), (broken_log, 2, bob)):
        it = await answered(await fake.slash(who, "ps status", channel_id=chan))
        assert it.ephemeral
        assert it.content == texts.QUARANTINED.format(game_id=game_id)
        it = await answered(
            await fake.slash(who, "ps play", options={"action": "end"}, channel_id=chan)
        )
        assert it.ephemeral and it.content == texts.QUARANTINED.format(game_id=game_id)

    # Marked, with the reason, once each.
    marked = dict(db_rows(bot, "SELECT game_id, reason FROM quarantined_games ORDER BY game_id"))
    assert sorted(marked) == [1, 2]
    assert marked[1].startswith("its stored row does not read")
    assert marked[2] == "its action log no longer replays (IllegalAction)"
