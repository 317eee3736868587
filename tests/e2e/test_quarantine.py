"""Issue 13, item 1: a game that cannot be loaded (a damaged games row, or an action log that no
longer replays) no longer stops the bot. It is quarantined: logged and marked, its channel is
told in one sentence when someone uses it, and every other game is still served. Issue 48: every
damaged row is found where it is read (a time without its zone, a negative version, a started
game without its seats), on SQLite and PostgreSQL; a damaged snapshot is only dropped."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

import engine
from bot.present import texts
from tests.e2e.corr import wait_db
from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.e2e.gameplay import action_log, replay_log, start_game, turn_owner
from tests.e2e.helpers import answered, click, db_rows, new_lobby
from tests.pg_server import fresh_database


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


async def test_damaged_rows_let_the_bot_start_and_each_gets_the_quarantine_sentence(
    fake: FakeDiscord, bot_process
) -> None:
    """Issue 48, items 1, 7 and 9: an active game whose `updated_at` does not read (a time
    without its zone, as SQLite's `datetime('now')` writes it; a word) no longer stops the bot
    from starting; neither does a game without its seat rows, one with a negative version or
    one whose options are not JSON. Each is quarantined, and Take my turn, `/ps status` and
    `/ps log` in its channel get the one-sentence answer; every other game is served."""
    bot = await bot_process()
    alice, carol = fake.add_user("alice"), fake.add_user("carol")
    damages = {
        "UPDATE games SET updated_at = '2026-11-27 10:00:00' WHERE id = ?": (
            "its stored updated_at is not a time with its time zone ('2026-11-27 10:00:00')"
        ),
        "UPDATE games SET updated_at = 'yesterday' WHERE id = ?": (
            "its stored updated_at is not a time with its time zone ('yesterday')"
        ),
        "DELETE FROM seats WHERE game_id = ?": "its 0 stored seats do not match its 2 players",
        "UPDATE games SET version = -1 WHERE id = ?": "its stored version is negative (-1)",
        "UPDATE games SET options = '{not json' WHERE id = ?": (
            "its stored row does not read (Expecting property name enclosed in double quotes:"
            " line 1 column 2 (char 1))"
        ),
    }
    channels = [fake.add_channel(f"damaged-{i}") for i in range(len(damages))]
    messages = [await start_game(fake, chan, alice, [], cynthias=1) for chan in channels]
    healthy = fake.add_channel("healthy")
    msg = await start_game(fake, healthy, carol, [alice], cynthias=0)

    bot.kill()
    await bot.wait_exit()
    for game_id, sql in enumerate(damages, start=1):
        db_write(bot, sql, (game_id,))
    await bot.start()
    await fake.wait_ready()

    # Every other game is still served.
    user = {u["id"]: u for u in (alice, carol)}[turn_owner(msg)]
    panel = await click(fake, user, msg, "Take my turn")
    assert panel.response is not None and panel.response.ephemeral

    # Each damaged game's channel gets the sentence, privately, wherever it is used.
    for game_id, (chan, message) in enumerate(zip(channels, messages, strict=True), start=1):
        sentence = texts.QUARANTINED.format(game_id=game_id)
        it = await click(fake, alice, message, "Take my turn")
        assert (it.ephemeral, it.content) == (True, sentence)
        for command in ("ps status", "ps log"):
            it = await answered(await fake.slash(alice, command, channel_id=chan))
            assert (it.ephemeral, it.content) == (True, sentence), command

    marked = dict(db_rows(bot, "SELECT game_id, reason FROM quarantined_games ORDER BY game_id"))
    assert marked == dict(enumerate(damages.values(), start=1))
    assert "Traceback" not in bot.output()


async def test_a_bad_snapshot_is_rebuilt_and_a_bad_log_or_seed_is_quarantined_in_the_log(
    fake: FakeDiscord, bot_process
) -> None:
    """Issue 48, items 5 and 7: a snapshot that is not JSON is only a bad cache: the game is
    rebuilt from its log (logged once) and goes on. `/ps log` and Game log on a game whose log
    or seed no longer replays get the quarantine sentence, not the apology."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    cached, bad_log, bad_seed = (fake.add_channel(n) for n in ("cached", "log", "seed"))
    msg = await start_game(fake, cached, alice, [], cynthias=1)  # game 1
    log_msg = await start_game(fake, bad_log, alice, [], cynthias=1)  # game 2
    seed_msg = await start_game(fake, bad_seed, alice, [], cynthias=1)  # game 3
    assert db_rows(bot, "SELECT game_id FROM snapshots ORDER BY game_id") == [(1,), (2,), (3,)]

    bot.kill()
    await bot.wait_exit()
    db_write(bot, "UPDATE snapshots SET state = 'garbage{' WHERE game_id = 1")
    (last,) = db_rows(bot, "SELECT COALESCE(MAX(ply), 0) FROM actions WHERE game_id = 2")[0]
    db_write(
        bot,
        "INSERT INTO actions (game_id, ply, notation, seat, user_id, created_at)"
        " VALUES (2, ?, 'grow D4', 0, NULL, '2026-01-01T00:00:00+00:00')",
        (last + 1,),
    )
    db_write(bot, "UPDATE games SET version = version + 1 WHERE id = 2")
    db_write(bot, "DELETE FROM snapshots WHERE game_id = 2")
    db_write(bot, "UPDATE games SET seed = 'x' WHERE id = 3")
    await bot.start()
    await fake.wait_ready()

    # The game with the bad snapshot: its status, panel and play as if nothing happened.
    status = await answered(await fake.slash(alice, "ps status", channel_id=cached))
    assert status.ephemeral and status.embeds[0]["title"] == msg.embeds[0]["title"]
    panel = await click(fake, alice, msg, "Take my turn")
    assert panel.response is not None and panel.response.ephemeral
    move = str(engine.legal_actions(replay_log(bot, 1))[0])
    it = await answered(
        await fake.slash(alice, "ps play", options={"action": move}, channel_id=cached)
    )
    assert it.ephemeral and it.content.startswith(f"You played `{move}`.")
    (ply, state), *_ = db_rows(bot, "SELECT ply, state FROM snapshots WHERE game_id = 1")
    assert ply == len(action_log(bot, 1))
    assert engine.GameState.from_dict(json.loads(state)) == replay_log(bot, 1)
    dropped = [line for line in bot.output().splitlines() if "snapshot dropped" in line]
    assert len(dropped) == 1 and '"game_id": 1' in dropped[0]

    # A log or a seed that no longer replays: quarantined, and its log is refused in one sentence.
    for chan, message, game_id in ((bad_log, log_msg, 2), (bad_seed, seed_msg, 3)):
        sentence = texts.QUARANTINED.format(game_id=game_id)
        it = await answered(await fake.slash(alice, "ps log", channel_id=chan))
        assert (it.ephemeral, it.content) == (True, sentence)
        it = await click(fake, alice, message, "Game log")
        assert (it.ephemeral, it.content) == (True, sentence)
    marked = dict(db_rows(bot, "SELECT game_id, reason FROM quarantined_games ORDER BY game_id"))
    assert marked == {
        2: "its action log no longer replays (IllegalAction)",
        3: "its stored seed is not a whole number ('x')",
    }
    # The turn clocks of the other games still run: the deadline scheduler started again.
    await wait_db(
        lambda: bot.output().count('"message": "scheduler started"') == 2,
        what="the scheduler to start after the restart",
    )
    assert "Traceback" not in bot.output()  # each damaged game logged once, by its quarantine


async def test_a_lobby_with_a_bad_time_stops_no_other_lobby_expiring(
    fake: FakeDiscord, bot_process
) -> None:
    """Issue 48, item 8: the upkeep at start expires the idle lobbies although another lobby's
    `updated_at` does not read; that one is quarantined and its channel told so."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    channels = [fake.add_channel(f"lobby-{i}") for i in range(3)]
    lobbies = [await new_lobby(fake, alice, chan) for chan in channels]
    stored = "SELECT game_id FROM messages WHERE kind = 'lobby' ORDER BY game_id"
    await wait_db(lambda: db_rows(bot, stored) == [(1,), (2,), (3,)], what="the lobby messages")

    bot.kill()
    await bot.wait_exit()
    idle = (datetime.now(UTC) - timedelta(days=2)).isoformat(timespec="milliseconds")
    db_write(bot, "UPDATE games SET updated_at = ? WHERE id IN (1, 3)", (idle,))
    db_write(bot, "UPDATE games SET updated_at = 'yesterday' WHERE id = 2")
    await bot.start()
    await fake.wait_ready()

    closed = [fake.message(lobbies[i].id) for i in (0, 2)]
    await fake.wait_until(lambda: not any(m.buttons for m in closed), 20, "the lobbies closed")
    assert [m.embeds[0]["title"] for m in closed] == [
        "Photosynthesis \N{EM DASH} lobby expired"
    ] * 2
    assert db_rows(bot, "SELECT id, status FROM games ORDER BY id") == [
        (1, "expired"),
        (2, "lobby"),
        (3, "expired"),
    ]
    assert fake.message(lobbies[1].id).buttons  # the damaged one's message is left as it was
    assert db_rows(bot, "SELECT game_id, reason FROM quarantined_games") == [
        (2, "its stored updated_at is not a time with its time zone ('yesterday')")
    ]
    it = await answered(await fake.slash(alice, "ps status", channel_id=channels[1]))
    assert (it.ephemeral, it.content) == (True, texts.QUARANTINED.format(game_id=2))
    assert "Traceback" not in bot.output()


async def pg_execute(url: str, sql: str) -> list[tuple]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(sql)]
    finally:
        await conn.close()


@pytest.mark.postgres
async def test_on_postgresql_a_bad_time_or_snapshot_stops_no_game(
    fake: FakeDiscord, bot_process, postgres_server
) -> None:
    """Issue 48, items 1 and 5, on PostgreSQL: a time without its zone quarantines its game
    and the bot starts; a snapshot that is not JSON is dropped and its game goes on."""
    url = await fresh_database(postgres_server)
    bot = await bot_process(env={"DATABASE_URL": url})
    alice, carol = fake.add_user("alice"), fake.add_user("carol")
    damaged, cached, healthy = (fake.add_channel(n) for n in ("damaged", "cached", "healthy"))
    damaged_msg = await start_game(fake, damaged, alice, [], cynthias=1)  # game 1
    cached_msg = await start_game(fake, cached, alice, [], cynthias=1)  # game 2
    msg = await start_game(fake, healthy, carol, [alice], cynthias=0)  # game 3

    bot.kill()
    await bot.wait_exit()
    await pg_execute(url, "UPDATE games SET updated_at = '2026-11-27 10:00:00' WHERE id = 1")
    await pg_execute(url, "UPDATE snapshots SET state = 'garbage{' WHERE game_id = 2")
    await bot.start()
    await fake.wait_ready()

    user = {u["id"]: u for u in (alice, carol)}[turn_owner(msg)]
    panel = await click(fake, user, msg, "Take my turn")
    assert panel.response is not None and panel.response.ephemeral
    it = await click(fake, alice, damaged_msg, "Take my turn")
    assert (it.ephemeral, it.content) == (True, texts.QUARANTINED.format(game_id=1))
    status = await answered(await fake.slash(alice, "ps status", channel_id=cached))
    assert status.ephemeral and status.embeds[0]["title"] == cached_msg.embeds[0]["title"]
    panel = await click(fake, alice, cached_msg, "Take my turn")
    assert panel.response is not None and panel.response.ephemeral

    assert await pg_execute(url, "SELECT game_id, reason FROM quarantined_games") == [
        (1, "its stored updated_at is not a time with its time zone ('2026-11-27 10:00:00')")
    ]
    assert await pg_execute(url, "SELECT game_id FROM snapshots ORDER BY game_id") == [(1,), (3,)]
    dropped = [line for line in bot.output().splitlines() if "snapshot dropped" in line]
    assert len(dropped) == 1 and '"game_id": 2' in dropped[0]
    assert "Traceback" not in bot.output()


async def test_a_seat_whose_user_id_is_not_a_number_sets_its_game_aside(
    fake: FakeDiscord, bot_process
) -> None:
    """A seat row written into the database by hand with a user id that is not a number: its
    game is set aside like any damaged game (its channel gets the quarantine sentence, not
    "You are not playing in this game"; its message is not redrawn), the others are served."""
    bot = await bot_process()
    alice, carol = fake.add_user("alice"), fake.add_user("carol")
    damaged, healthy = fake.add_channel("damaged"), fake.add_channel("healthy")
    message = await start_game(fake, damaged, alice, [], cynthias=1)  # game 1
    msg = await start_game(fake, healthy, carol, [alice], cynthias=0)  # game 2
    bot.kill()
    await bot.wait_exit()
    db_write(bot, "UPDATE seats SET user_id = 'abc' WHERE game_id = 1 AND kind = 'human'")
    await bot.start()
    await fake.wait_ready()

    user = {u["id"]: u for u in (alice, carol)}[turn_owner(msg)]
    panel = await click(fake, user, msg, "Take my turn")
    assert panel.response is not None and panel.response.ephemeral
    shown = (message.content, message.embeds, message.edits)
    sentence = texts.QUARANTINED.format(game_id=1)
    it = await click(fake, alice, message, "Take my turn")
    assert (it.ephemeral, it.content) == (True, sentence)
    for command in ("ps status", "ps log"):
        it = await answered(await fake.slash(alice, command, channel_id=damaged))
        assert (it.ephemeral, it.content) == (True, sentence), command
    assert (message.content, message.embeds, message.edits) == shown
    reason = "its stored seat 0 has a user_id that is not a number ('abc')"
    assert db_rows(bot, "SELECT game_id, reason FROM quarantined_games") == [(1, reason)]
    assert "Traceback" not in bot.output()
