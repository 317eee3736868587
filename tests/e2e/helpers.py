"""The helpers of the end-to-end tests: read the bot's database, read and answer messages and
interactions, run a lobby, play a setup turn, restart the bot, and check what a message hides.

Helpers live here (and in `gameplay.py`, `corr.py`, `moonlight_deal.py`), never in a `test_*`
module: a test module imports from no other (tests/test_test_setup.py checks it). Their asserts
are rewritten by pytest like a test module's (`tests/conftest.py`).
"""

from __future__ import annotations

import json
import socket
import sqlite3
from collections.abc import Callable
from typing import Any

from bot.present import texts
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeInteraction, FakeMessage

#: The buttons of a game message, in order.
GAME_BUTTONS = ["Take my turn", "Next-sun preview", "Details", "Game log"]


def free_port() -> int:
    """A loopback port nothing listens on now (for a site the test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mention(user: dict) -> str:
    return f"<@{user['id']}>"


# --- the bot's database ---------------------------------------------------------------------------


def db_rows(bot: BotProcess, sql: str, params: tuple = ()) -> list[tuple]:
    """Read the bot's database (WAL: a reader in another process sees committed data)."""
    conn = sqlite3.connect(bot.database_path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def write_db(bot: BotProcess, sql: str, params: tuple = ()) -> None:
    """Change the bot's database while the bot is down (to stage a crash)."""
    conn = sqlite3.connect(bot.database_path)
    try:
        with conn:
            conn.execute(sql, params)
    finally:
        conn.close()


def game_rows(bot: BotProcess) -> list[tuple]:
    return db_rows(bot, "SELECT id, status, version FROM games ORDER BY id")


def seat_rows(bot: BotProcess, game_id: int = 1) -> list[tuple]:
    return db_rows(
        bot,
        "SELECT position, kind, user_id FROM seats WHERE game_id = ? ORDER BY position",
        (game_id,),
    )


def action_rows(bot: BotProcess, game_id: int = 1) -> list[tuple]:
    return db_rows(
        bot,
        "SELECT ply, notation, seat, user_id FROM actions WHERE game_id = ? ORDER BY ply",
        (game_id,),
    )


# --- messages and interactions --------------------------------------------------------------------


def field(message: FakeMessage, name: str) -> str:
    """The value of an embed field of a message."""
    for embed in message.embeds:
        for f in embed.get("fields", []):
            if f["name"] == name or f["name"].startswith(name + " ("):
                return f["value"]
    raise AssertionError(f"no field {name!r} in {message.embeds}")


def snapshot(message: FakeMessage) -> tuple[Any, ...]:
    """Everything visible about a message, to check that a refusal changed nothing."""
    return (message.content, message.embeds, message.components, message.edits)


async def answered(it):
    await it.wait_response()
    return it


async def refused(it, sentence: str) -> None:
    """The interaction got exactly `sentence`, privately."""
    await it.wait_response()
    assert it.ephemeral, f"expected an ephemeral refusal, got {it.content!r}"
    assert it.content == sentence


# --- wherever the player is: a DM with the bot, a server where only the user installed the app --

#: `bot_process(env=GLOBAL_COMMANDS)`: the bot syncs its commands globally, as in production,
#: instead of to the development guild (a guild's own commands reach only that guild: neither
#: a DM with the bot nor a server without the app).
GLOBAL_COMMANDS = {"DEV_GUILD_ID": ""}


def user_only_server(fake: FakeDiscord, *users: dict, name: str = "Elsewhere") -> tuple[str, str]:
    """A server the app is not installed in, with one channel; each of `users` joins it and
    installs the app to their account (a user install). Returns (guild id, channel id)."""
    guild_id = fake.add_guild(name, app_installed=False)
    channel_id = fake.add_channel("chat", guild_id=guild_id)
    for user in users:
        fake.add_member(user, guild_id)
        fake.install_for_user(user)
    return guild_id, channel_id


def places(fake: FakeDiscord, user: dict) -> dict[str, str]:
    """Where a player without a server of the bot's uses it, by name -> channel id: the DM
    with the bot, and a channel of a server where only they installed the app."""
    fake.install_for_user(user)
    _guild, channel = user_only_server(fake, user)
    return {"bot DM": fake.bot_dm(user), "user-installed server": channel}


async def slash_in(
    fake: FakeDiscord, user: dict, channel_id: str, command: str, **options: Any
) -> FakeInteraction:
    """`/command options` sent by `user` in `channel_id`, answered."""
    return await answered(await fake.slash(user, command, options=options, channel_id=channel_id))


def bot_posts(fake: FakeDiscord, channel_id: str) -> list[FakeMessage]:
    """The messages the bot posted in a channel by itself (not as an interaction's answer)."""
    return [
        m
        for m in fake.messages(channel_id)
        if m.author_id == fake.application_id and m.interaction is None
    ]


def assert_nothing_unreachable(fake: FakeDiscord) -> None:
    """The bot never called Discord about a channel it cannot reach (which Discord refuses
    with 403 50001 Missing Access)."""
    assert fake.unreachable == [], f"the bot tried channels it cannot reach: {fake.unreachable}"


# --- the lobby and the setup turns ----------------------------------------------------------------


async def new_lobby(fake: FakeDiscord, host: dict, chan: str, **options: Any) -> FakeMessage:
    it = await answered(await fake.slash(host, "ps new", options=options, channel_id=chan))
    assert not it.ephemeral
    return it.response


async def click(fake: FakeDiscord, user: dict, message: FakeMessage, label: str):
    return await answered(await fake.click(user, message, message.find_button(label=label)))


def bot_select(lobby: FakeMessage) -> dict:
    """The lobby's "Add bot" select."""
    return next(s for s in lobby.selects if s["custom_id"].startswith("ps:addbot:"))


async def add_bot(fake: FakeDiscord, user: dict, lobby: FakeMessage, kind: str = "cynthia"):
    """Choose a bot in the lobby's "Add bot" select: cynthia, expert or expert-strong."""
    return await answered(await fake.select(user, lobby, bot_select(lobby), [kind]))


def is_game_message(predicate: Callable[[FakeMessage], bool] = lambda m: True):
    def check(message: FakeMessage) -> bool:
        return (
            bool(message.attachments)
            and any("game #" in e.get("title", "") for e in message.embeds)
            and predicate(message)
        )

    return check


async def next_game_message(
    fake: FakeDiscord, chan: str, after: FakeMessage, predicate=lambda m: True
) -> FakeMessage:
    """The game message posted after `after` (the turn passed), once it matches `predicate`."""
    return await fake.wait_for_message(
        chan, is_game_message(lambda m: int(m.id) > int(after.id) and predicate(m))
    )


async def place_with_panel(fake: FakeDiscord, user: dict, game_msg: FakeMessage) -> str:
    """Take my turn -> the setup select -> the first offered space. Returns the notation."""
    it = await click(fake, user, game_msg, "Take my turn")
    assert it.ephemeral
    assert it.content == "Setup: choose an empty outer space for a small tree."
    select = it.response.selects[0]
    options = [o["value"] for o in select["options"]]
    assert options and all(v.startswith("place ") for v in options)
    choice = options[0]
    pick = await answered(await fake.select(user, it.response, select, [choice]))
    assert pick.content == f"You played `{choice}`. {texts.PANEL_DONE}"
    assert pick.response.components == []
    return choice


async def place_by_typing(fake: FakeDiscord, user: dict, chan: str) -> str:
    """Autocomplete offers the legal placements; `/ps play` the first one."""
    choices = await fake.autocomplete(
        user, "ps play", focused="action", options={"action": "pla"}, channel_id=chan
    )
    values = [c["value"] for c in choices]
    assert values and all(v.startswith("place ") for v in values)
    it = await answered(
        await fake.slash(user, "ps play", options={"action": values[0].lower()}, channel_id=chan)
    )
    assert it.ephemeral and it.content == f"You played `{values[0]}`. {texts.PANEL_DONE}"
    return values[0]


async def type_a_turn(fake: FakeDiscord, chan: str, user: dict, message: FakeMessage) -> None:
    """`user`'s turn shown by `message`, with `/ps play`: in setup the first suggested
    placement, else `end`."""
    action = "end"
    if message.embeds[0]["description"].startswith("Setup"):
        offered = await fake.autocomplete(
            user, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        action = offered[0]["value"]
    it = await answered(
        await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
    )
    assert it.content.startswith(f"You played `{action}`."), it.content


# --- a restart ------------------------------------------------------------------------------------


async def crash_and_restart(fake: FakeDiscord, bot: BotProcess) -> None:
    """SIGKILL the bot wherever it is, start it again on the same database, wait until ready."""
    bot.kill()
    await bot.wait_exit()
    await bot.start()
    await fake.wait_ready()


# --- what a message hides; the panel's selects ----------------------------------------------------


def public_text(message: FakeMessage) -> str:
    """Everything a channel member reads on a message."""
    return message.content + json.dumps(message.embeds) + json.dumps(message.components)


def assert_hides(text: str, *words: str) -> None:
    lowered = text.lower()
    for word in words:
        assert word.lower() not in lowered, f"{word!r} revealed in {text[:300]!r}"


def offered(panel: FakeMessage) -> dict[str, tuple[dict, dict]]:
    """value -> (select, option) over every select of the panel."""
    return {o["value"]: (s, o) for s in panel.selects for o in s["options"]}


async def choose(fake: FakeDiscord, user: dict, panel: FakeMessage, value: str) -> str:
    """Pick `value` in whichever select offers it; returns the panel's new content."""
    select, _ = offered(panel)[value]
    it = await answered(await fake.select(user, panel, select, [value]))
    assert it.response is panel
    return panel.content


async def take_turn(fake: FakeDiscord, user: dict, msg: FakeMessage) -> FakeMessage:
    it = await click(fake, user, msg, "Take my turn")
    assert it.ephemeral
    return it.response
