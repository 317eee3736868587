"""Wherever the player is (issue 58, part 4): `/ps` installed to a server or to a user's account,
used in a DM with the bot and in a server where only the player installed the app, through the
loopback Discord sending those interactions as Discord does (`tests/e2e/fakediscord.py`).

The daily challenge, the puzzles, the tutorial, the profile, the leaderboard (across servers
there) and the reader's own things (rules, replay, language, forget, help) answer there, each as
the interaction's own answer; every other subcommand is refused in one private sentence that
says where it works and how to add the bot, and changes nothing; the bot never calls Discord
about a channel it cannot reach."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord.places import ANYWHERE
from bot.present import i18n, texts
from bot.present import learn_texts as lt
from bot.present import player_texts as pt
from bot.services import refusals
from bot.storage import SQLiteStorage
from engine import tutorial
from tests.e2e.fakediscord import (
    OPT_BOOLEAN,
    OPT_INTEGER,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_USER,
    FakeDiscord,
    NotOffered,
)
from tests.e2e.finished_game import write_finished_game
from tests.e2e.helpers import (
    GLOBAL_COMMANDS,
    answered,
    assert_nothing_unreachable,
    bot_posts,
    db_rows,
    places,
    slash_in,
    user_only_server,
)


def subcommands(fake: FakeDiscord) -> dict[str, dict]:
    """The `/ps` subcommands as synced, by name."""
    ps = fake.global_commands["ps"]
    return {o["name"]: o for o in ps["options"] if o["type"] == OPT_SUB_COMMAND}


def anywhere(fake: FakeDiscord) -> list[str]:
    """The subcommands that answer everywhere, as the refusal lists them."""
    synced = subcommands(fake)
    return [f"/ps {name}" for name in ANYWHERE if name in synced]


def server_only(fake: FakeDiscord, name: str, lang: str = "en") -> str:
    with i18n.speaking(lang):
        commands = texts.and_list(anywhere(fake))
        return i18n.tr(texts.SERVER_ONLY.format(command=f"/ps {name}", commands=commands))


def required_options(definition: dict, user: dict) -> dict[str, Any]:
    """A value for each required option of a subcommand, as a player could send it."""
    values: dict[str, Any] = {}
    for option in definition.get("options") or []:
        if not option.get("required"):
            continue
        if option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif option["type"] == OPT_STRING:
            values[option["name"]] = "end"
        elif option["type"] == OPT_INTEGER:
            values[option["name"]] = option.get("min_value", 1)
        elif option["type"] == OPT_BOOLEAN:
            values[option["name"]] = True
        elif option["type"] == OPT_USER:
            values[option["name"]] = user
    return values


def row_counts(bot) -> dict[str, int]:
    """The number of rows of every table of the bot's database."""
    tables = [t for (t,) in db_rows(bot, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: db_rows(bot, f"SELECT count(*) FROM {t}")[0][0] for t in tables}  # noqa: S608


async def test_ps_is_installable_to_users_and_offered_everywhere(
    fake: FakeDiscord, bot_process
) -> None:
    await bot_process(env=GLOBAL_COMMANDS)
    ps = fake.global_commands["ps"]
    assert (ps["contexts"], ps["integration_types"]) == ([0, 1, 2], [0, 1])
    # A user who shares no server with the bot and did not install it is offered nothing.
    stranger = fake.add_user("stranger", member=False)
    _guild, chat = user_only_server(fake)
    fake.add_member(stranger, _guild)
    with pytest.raises(NotOffered):
        await fake.slash(stranger, "ps help", channel_id=chat)


async def test_the_allowed_commands_answer_in_a_dm_and_a_user_installed_server(
    fake: FakeDiscord, bot_process
) -> None:
    alice = fake.add_user("alice")
    bot = await bot_process(env=GLOBAL_COMMANDS)
    spots = places(fake, alice)
    for where, chan in spots.items():
        helped = await slash_in(fake, alice, chan, "ps help")
        assert helped.ephemeral, where
        description = helped.embeds[0]["description"]
        assert description.startswith("Wherever you are: in a DM with me"), where
        assert texts.and_list(anywhere(fake)) in description

        rules = await slash_in(fake, alice, chan, "ps rules", topic="cynthia")
        assert rules.ephemeral and rules.embeds, where

        learn = await slash_in(fake, alice, chan, "ps learn")
        assert learn.ephemeral and learn.attachments and learn.response.components, where

        profile = await slash_in(fake, alice, chan, "ps profile")
        assert profile.ephemeral and profile.embeds, where

        board = await slash_in(fake, alice, chan, "ps leaderboard")  # scope: this server
        assert board.ephemeral, where
        assert board.embeds[0]["title"] == "Leaderboard: base game, all servers"

        shown = await slash_in(fake, alice, chan, "ps language")
        assert shown.ephemeral and shown.content == "Your language: automatic.", where

        forget = await slash_in(fake, alice, chan, "ps forget")
        assert forget.ephemeral and forget.content == pt.FORGET_QUESTION
        keep = forget.response.find_button(label="Keep everything")
        kept = await answered(await fake.click(alice, forget.response, keep))
        assert kept.content == pt.NOT_FORGOTTEN

        assert bot_posts(fake, chan) == [] and fake.messages(chan) == []
        for it in (helped, rules, learn, profile, board, shown, forget, kept):
            assert it.errors == [], (where, it)
    # The server language is the server's own, and a server without the bot has none to set.
    user_server = spots["user-installed server"]
    refused = await slash_in(fake, alice, user_server, "ps language", server="fr")
    assert refused.ephemeral and refused.content == texts.SERVER_LANGUAGE_FORBIDDEN
    assert db_rows(bot, "SELECT count(*) FROM language_settings") == [(0,)]
    assert_nothing_unreachable(fake)


async def test_the_server_commands_refuse_in_one_sentence_and_change_nothing(
    fake: FakeDiscord, bot_process
) -> None:
    alice = fake.add_user("alice", administrator=True)
    bot = await bot_process(env=GLOBAL_COMMANDS)
    before = row_counts(bot)
    refused = set()
    for where, chan in places(fake, alice).items():
        for name, definition in subcommands(fake).items():
            if name in ANYWHERE:
                continue
            options = required_options(definition, alice)
            it = await fake.slash(
                alice, f"ps {name}", options=options, channel_id=chan, enforce_permissions=False
            )
            await it.wait_response()
            assert it.ephemeral, (where, name)
            assert it.content == server_only(fake, name), (where, name)
            refused.add(name)
        offered = await fake.autocomplete(
            alice, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        assert offered == [], where
        assert fake.messages(chan) == [] and bot_posts(fake, chan) == []
    assert {"new", "status", "play", "log", "history", "games", "notify"} <= refused
    # in the reader's language: their Discord client's, or the one they chose
    claire = fake.add_user("claire", locale="fr")
    said = await slash_in(fake, claire, fake.bot_dm(claire), "ps new")
    assert said.content == server_only(fake, "new", "fr")
    assert said.content.startswith("/ps new ne fonctionne que dans un serveur")
    await slash_in(fake, claire, fake.bot_dm(claire), "ps language", language="he")
    said = await slash_in(fake, claire, fake.bot_dm(claire), "ps games")
    assert said.content == server_only(fake, "games", "he")
    assert row_counts(bot) == {**before, "language_settings": 1}
    assert_nothing_unreachable(fake)


async def test_the_practice_game_and_other_servers_games_stay_in_servers(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    """The tutorial's end offers the game against Cynthia, which is played at a table of a
    server: refused in a DM. A finished game of a server is replayed from a DM by its player
    (the profile's Replay buttons and `/ps replay game:`), and by no one else."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    games = fake.add_channel("games")
    path = str(tmp_path / "bot.db")
    await write_finished_game(path, int(fake.guild_id), int(games), int(alice["id"]))
    storage = await SQLiteStorage.open(path)
    try:  # alice has done every lesson
        done = tutorial.Progress(lesson=len(tutorial.LESSONS)).to_json()
        await storage.set_tutorial_progress(int(alice["id"]), done)
    finally:
        await storage.close()
    bot = await bot_process(env=GLOBAL_COMMANDS)
    await fake.wait_for_message(games, lambda m: bool(m.buttons), timeout=30)  # resynced
    dm = fake.bot_dm(alice)
    fake.install_for_user(alice)

    ending = await slash_in(fake, alice, dm, "ps learn")
    play = ending.response.find_button(label=lt.PLAY_CYNTHIA)
    it = await answered(await fake.click(alice, ending.response, play))
    with i18n.speaking("en"):
        expected = i18n.tr(
            texts.SERVER_ONLY.format(
                command=lt.PLAY_CYNTHIA, commands=texts.and_list(anywhere(fake))
            )
        )
    assert it.ephemeral and it.content == expected
    assert db_rows(bot, "SELECT count(*) FROM games") == [(1,)]

    profile = await slash_in(fake, alice, dm, "ps profile")
    replay = profile.response.find_button(label="Replay #1")
    viewer = await answered(await fake.click(alice, profile.response, replay))
    assert viewer.ephemeral and viewer.embeds[0]["title"] == "Replay of game #1"
    # a modified client's Rematch of that game from the DM: refused, no lobby anywhere
    forged = await answered(await fake.forged_component(alice, profile.response, "ps:rematch:1"))
    assert forged.ephemeral and forged.content == refusals.NOT_OFFERED
    assert db_rows(bot, "SELECT count(*) FROM games") == [(1,)]
    typed = await slash_in(fake, alice, dm, "ps replay", game=1)
    assert typed.ephemeral and typed.embeds[0]["title"] == "Replay of game #1"
    # bob's DM: not his game, nor his server's to name from there
    fake.install_for_user(bob)
    other = await slash_in(fake, bob, fake.bot_dm(bob), "ps replay", game=1)
    assert other.ephemeral and other.content == refusals.REPLAY_NO_GAME.format(id=1)
    his_view = await slash_in(fake, bob, fake.bot_dm(bob), "ps profile", player=alice)
    assert his_view.response.buttons == []  # others' games: no Replay outside their server
    assert_nothing_unreachable(fake)
