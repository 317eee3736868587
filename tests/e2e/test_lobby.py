"""The lobby and the game lifecycle, end to end: the real bot process against loopback Discord.

Users act through slash commands, buttons and selects; the tests read what the bot showed and
what it stored (the SQLite file the bot process writes).
"""

from __future__ import annotations

import pytest

import engine
from bot.present import texts
from bot.services import refusals
from tests.e2e.fakediscord import PNG_SIGNATURE, FakeDiscord, FakeMessage
from tests.e2e.helpers import (
    GAME_BUTTONS,
    action_rows,
    add_bot,
    answered,
    bot_select,
    click,
    field,
    game_rows,
    is_game_message,
    mention,
    new_lobby,
    next_game_message,
    place_by_typing,
    place_with_panel,
    refused,
    seat_rows,
    snapshot,
    type_a_turn,
)

# --- the happy path -----------------------------------------------------------------------------


async def test_new_lobby_to_the_first_round_board(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")

    lobby = await new_lobby(fake, alice, chan)
    assert lobby.embeds[0]["title"] == "Photosynthesis \N{EM DASH} new game"
    assert field(lobby, "Seats") == f"1. {mention(alice)}"
    assert [b["label"] for b in lobby.buttons] == [
        "Join", "Leave", "Remove bot", "Start",
    ]  # fmt: skip
    assert lobby.selects[0]["custom_id"] == "ps:opts:1:0"
    assert lobby.selects[1]["custom_id"] == "ps:addbot:1:0"
    assert [o["label"] for o in lobby.selects[1]["options"]] == ["Cynthia", "Expert"]

    it = await click(fake, bob, lobby, "Join")
    assert it.response is lobby and not it.ephemeral
    assert field(lobby, "Seats") == f"1. {mention(alice)}\n2. {mention(bob)}"
    it = await add_bot(fake, alice, lobby)
    assert field(lobby, "Seats") == (f"1. {mention(alice)}\n2. {mention(bob)}\n3. Cynthia (automa)")
    assert seat_rows(bot) == [
        (0, "human", int(alice["id"])), (1, "human", int(bob["id"])), (2, "cynthia", None),
    ]  # fmt: skip

    mark = fake.mark()
    await click(fake, alice, lobby, "Start")
    assert lobby.embeds[0]["title"] == "Photosynthesis \N{EM DASH} game started"
    assert lobby.components == []
    game_msg = await fake.wait_for_message(chan, is_game_message(), since=mark)
    assert game_msg.content == f"{mention(alice)}, it is your turn."
    embed = game_msg.embeds[0]
    assert embed["description"] == "Setup: each seat places two small trees on empty outer spaces."
    assert field(game_msg, "Turn") == f"{mention(alice)} to play"
    assert [b["label"] for b in game_msg.buttons] == GAME_BUTTONS
    assert game_rows(bot) == [(1, "active", 3)]  # created 0, join 1, Cynthia 2, start 3

    # Setup round 1: alice through the panel, bob by typing, then Cynthia on her own.
    played = []
    played.append(await place_with_panel(fake, alice, game_msg))
    bob_msg = await next_game_message(fake, chan, game_msg)
    assert bob_msg.content == f"{mention(bob)}, it is your turn."
    # The previous turn's message loses its buttons (in an edit of its own, after the post).
    await fake.wait_until(lambda: game_msg.buttons == [], 10, "the old message to close")
    played.append(await place_by_typing(fake, bob, chan))
    # Cynthia placed right after bob; the next message is alice's second placement.
    alice_msg = await next_game_message(fake, chan, bob_msg)
    assert alice_msg.content == f"{mention(alice)}, it is your turn."
    assert "Cynthia: placed a small tree on " in field(alice_msg, "Since Alice's last turn")

    # Setup round 2.
    played.append(await place_with_panel(fake, alice, alice_msg))
    bob_msg = await next_game_message(fake, chan, alice_msg)
    played.append(await place_by_typing(fake, bob, chan))

    # The first round's board picture.
    round1 = await next_game_message(fake, chan, bob_msg)
    assert round1.embeds[0]["description"] == (
        "Round 1 of 18 \N{MIDDLE DOT} revolution 1 \N{MIDDLE DOT} sun in the NE corner"
    )
    assert round1.content == f"{mention(alice)}, it is your turn."
    ((name, data),) = round1.attachments
    assert name == "board.png" and data.startswith(PNG_SIGNATURE)
    assert round1.embeds[0]["image"]["url"] == "attachment://board.png"
    assert [b["label"] for b in round1.buttons] == GAME_BUTTONS

    log = action_rows(bot)
    assert [r[0] for r in log] == [1, 2, 3, 4, 5, 6]
    assert [r[1] for r in log if r[3] is not None] == played
    assert [r[2] for r in log] == [0, 1, 2, 0, 1, 2]
    assert [r[3] for r in log] == [int(alice["id"]), int(bob["id"]), None] * 2

    # In play, the panel offers the kinds of actions (the next issue builds them out).
    it = await click(fake, alice, round1, "Take my turn")
    assert it.ephemeral and it.content.startswith("Your turn: you have ")
    assert "End turn" in [b["label"] for b in it.response.buttons]


# --- refusals ------------------------------------------------------------------------------------


async def test_lobby_refusals_are_clear_private_and_change_nothing(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)

    async def unchanged(it, sentence: str) -> None:
        before, rows, seats = snapshot(lobby), game_rows(bot), seat_rows(bot)
        await refused(await it, sentence)
        assert snapshot(lobby) == before
        assert game_rows(bot) == rows and seat_rows(bot) == seats

    # A second /ps new in the channel.
    await unchanged(fake.slash(bob, "ps new", channel_id=chan), refusals.CHANNEL_BUSY)
    assert len(game_rows(bot)) == 1
    # Joining twice (the host sits in the first seat).
    await unchanged(
        fake.click(alice, lobby, lobby.find_button(label="Join")), refusals.ALREADY_JOINED
    )
    # Start with one seat.
    await unchanged(
        fake.click(alice, lobby, lobby.find_button(label="Start")), refusals.TOO_FEW_SEATS
    )
    # Clicks by someone outside the game.
    await unchanged(
        fake.click(carol, lobby, lobby.find_button(label="Leave")), refusals.NOT_IN_LOBBY
    )
    host_only = refusals.HOST_ONLY_BOTS.format(host=mention(alice))
    assert host_only == f"Only the host, {mention(alice)}, can add or remove bots."
    await unchanged(fake.select(carol, lobby, bot_select(lobby), ["expert"]), host_only)
    await unchanged(fake.click(carol, lobby, lobby.find_button(label="Remove bot")), host_only)
    await unchanged(
        fake.click(alice, lobby, lobby.find_button(label="Remove bot")), refusals.NO_BOT
    )
    await unchanged(
        fake.select(carol, lobby, lobby.selects[0], ["shadow_rule"]),
        refusals.HOST_ONLY_OPTIONS.format(host=mention(alice)),
    )

    # Start by someone else.
    await click(fake, bob, lobby, "Join")
    await unchanged(
        fake.click(bob, lobby, lobby.find_button(label="Start")),
        refusals.HOST_ONLY_START.format(host=mention(alice)),
    )

    # A Join drawn for an older version of the lobby (carol's private copy from /ps status,
    # then the host added Cynthia) still seats her: Join is guarded by the seats themselves.
    status = await answered(await fake.slash(carol, "ps status", channel_id=chan))
    assert status.ephemeral and field(status.response, "Seats") == field(lobby, "Seats")
    old_join = status.response.find_button(label="Join")["custom_id"]
    await add_bot(fake, alice, lobby)
    it = await answered(await fake.click(carol, status.response, old_join))
    assert it.ephemeral and field(it.response, "Seats").endswith(f"4. {mention(carol)}")
    await fake.wait_until(  # the public lobby is redrawn too
        lambda: field(lobby, "Seats") == field(it.response, "Seats"), 10, "the lobby redrawn"
    )
    assert lobby.find_button(label="Join")["custom_id"] == f"ps:lobby:join:1:{game_rows(bot)[0][2]}"
    assert [s[2] for s in seat_rows(bot)] == [
        int(alice["id"]), int(bob["id"]), None, int(carol["id"]),
    ]  # fmt: skip

    # A host button drawn for an older version (alice's private copy, then carol left):
    # refused, with a fresh one, which works.
    status = await answered(await fake.slash(alice, "ps status", channel_id=chan))
    old_remove = status.response.find_button(label="Remove bot")["custom_id"]
    await click(fake, carol, lobby, "Leave")
    before, rows = snapshot(lobby), game_rows(bot)
    it = await answered(await fake.click(alice, status.response, old_remove))
    assert it.ephemeral and it.content == refusals.STALE
    fresh = it.response.find_button(label="Remove bot")["custom_id"]
    assert fresh == f"ps:lobby:rembot:1:{game_rows(bot)[0][2]}" and fresh != old_remove
    assert snapshot(lobby) == before and game_rows(bot) == rows
    it = await answered(await fake.click(alice, it.response, fresh))
    await fake.wait_until(
        lambda: field(lobby, "Seats") == f"1. {mention(alice)}\n2. {mention(bob)}", 10, "redrawn"
    )

    # Options: only the host; they show in the lobby.
    it = await answered(
        await fake.select(alice, lobby, lobby.selects[0], ["shadow_rule", "four_revolutions"])
    )
    assert it.response is lobby and not it.ephemeral
    assert field(lobby, "Options") == (
        "4 revolutions (24 rounds)\nshadow rule\nseats in join order"
    )


async def test_people_joining_at_the_same_moment_are_all_seated(
    fake: FakeDiscord, bot_process
) -> None:
    """Three Join clicks on the same lobby message at once: all three are seated (Join checks
    the seats, not the version the button was drawn for), and the lobby ends up showing them;
    the host's buttons on it are current."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    others = [fake.add_user(name) for name in ("bob", "carol", "dave")]
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    join = lobby.find_button(label="Join")
    clicks = [await fake.click(user, lobby, join) for user in others]
    for it in clicks:
        await it.wait_response()
        assert not it.ephemeral and it.response is lobby
    assert sorted(s[2] for s in seat_rows(bot)[1:]) == sorted(int(u["id"]) for u in others)
    expected = [f"{s[0] + 1}. <@{s[2]}>" for s in seat_rows(bot)]
    await fake.wait_until(
        lambda: field(lobby, "Seats").splitlines() == expected, 10, "all four seats shown"
    )
    version = game_rows(bot)[0][2]
    assert lobby.find_button(label="Start")["custom_id"] == f"ps:lobby:start:1:{version}"
    await click(fake, alice, lobby, "Start")
    assert game_rows(bot)[0][1] == "active"


async def test_game_refusals_and_abandon(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    carol, mod = fake.add_user("carol"), fake.add_user("mod", manage_channels=True)
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    await click(fake, bob, lobby, "Join")
    mark = fake.mark()
    await click(fake, alice, lobby, "Start")
    game_msg = await fake.wait_for_message(chan, is_game_message(), since=mark)

    async def unchanged(it, sentence: str) -> None:
        before, rows, log = snapshot(game_msg), game_rows(bot), action_rows(bot)
        await refused(await it, sentence)
        assert snapshot(game_msg) == before
        assert game_rows(bot) == rows and action_rows(bot) == log

    turn = game_msg.find_button(label="Take my turn")
    await unchanged(fake.click(carol, game_msg, turn), refusals.NOT_A_PLAYER)
    not_yours = f"It is not your turn: it is {mention(alice)}'s turn."
    await unchanged(fake.click(bob, game_msg, turn), not_yours)
    await unchanged(
        fake.slash(bob, "ps play", options={"action": "place A1"}, channel_id=chan), not_yours
    )
    await unchanged(
        fake.slash(alice, "ps play", options={"action": "place D4"}, channel_id=chan),
        "Starting trees go on the outer ring (1-leaf spaces); D4 is not on it.",
    )
    await unchanged(
        fake.slash(alice, "ps play", options={"action": "dance"}, channel_id=chan),
        "'dance' is not an action. Try place, buy, plant, grow, collect or end.",
    )
    assert (
        await fake.autocomplete(
            bob, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        == []
    )
    await unchanged(fake.slash(bob, "ps new", channel_id=chan), refusals.CHANNEL_BUSY)

    # Abandon: not by a plain player; yes by a moderator, who confirms first (Keep playing
    # changes nothing); the channel is told and is free again.
    await unchanged(fake.slash(bob, "ps abandon", channel_id=chan), refusals.ABANDON_FORBIDDEN)
    it = await answered(await fake.slash(mod, "ps abandon", channel_id=chan))
    assert it.ephemeral and it.content == texts.ABANDON_CONFIRM.format(game=1)
    assert [b["label"] for b in it.response.buttons] == ["Abandon the game", "Keep playing"]
    keep = await answered(
        await fake.click(mod, it.response, it.response.find_button(label="Keep playing"))
    )
    assert keep.content == texts.ABANDON_KEPT and it.response.components == []
    assert game_rows(bot)[0][1] == "active"
    it = await answered(await fake.slash(mod, "ps abandon", channel_id=chan))
    stranger = await answered(
        await fake.click(bob, it.response, it.response.find_button(label="Abandon the game"))
    )
    assert stranger.ephemeral and stranger.content == refusals.ABANDON_FORBIDDEN
    assert game_rows(bot)[0][1] == "active"
    done = await answered(
        await fake.click(mod, it.response, it.response.find_button(label="Abandon the game"))
    )
    assert done.content == texts.ABANDONED.format(user=mention(mod))
    assert game_rows(bot)[0][1] == "abandoned"
    told = await fake.wait_for_message(
        chan, lambda m: m.content == texts.ABANDONED.format(user=mention(mod))
    )
    assert told.channel_id == game_msg.channel_id != chan  # in the game's thread (issue 44)
    await fake.wait_until(lambda: game_msg.buttons == [], 10, "the game message to close")
    # The closed game message: no turn to play, no timer; the seats and the board stay.
    assert game_msg.content == refusals.GAME_ABANDONED
    (embed,) = game_msg.embeds
    assert embed["description"] == refusals.GAME_ABANDONED
    assert [f["name"] for f in embed["fields"]] == ["Seats"]
    assert " to play" not in str(embed) and embed["image"]["url"] == "attachment://board.png"
    assert (
        field(game_msg, "Seats")
        .splitlines()[0]
        .startswith(
            f"\N{LARGE ORANGE CIRCLE} {mention(alice)} (orange) \N{EM DASH} 0 light, 0 points"
        )
    )
    assert [name for name, _ in game_msg.attachments] == ["board.png"]
    # Its picture and alt text say so too: nobody is to play (they said "alice to play").
    await fake.wait_until(
        lambda: "The game was abandoned." in (game_msg.files[0].description or ""), 10, "redrawn"
    )
    assert " to play" not in game_msg.files[0].description
    # /ps status still shows the abandoned game (issue 14: it said there was no game), privately.
    status = await answered(await fake.slash(bob, "ps status", channel_id=chan))
    assert status.ephemeral and status.embeds[0]["description"] == refusals.GAME_ABANDONED
    assert [name for name, _ in status.attachments] == ["board.png"]
    alt = status.response.files[0].description
    assert " to play" not in alt and "The game was abandoned." in alt
    again = await new_lobby(fake, bob, chan)
    assert field(again, "Seats") == f"1. {mention(bob)}"


# --- a crash between lobby and start ---------------------------------------------------------------


async def test_lobby_survives_a_killed_bot(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    await click(fake, bob, lobby, "Join")

    bot.kill()
    await bot.wait_exit()
    await bot.restart()
    await fake.wait_ready(timeout=30)

    # The buttons drawn before the crash still work.
    it = await click(fake, carol, lobby, "Join")
    assert not it.ephemeral and it.response is lobby
    assert field(lobby, "Seats") == (f"1. {mention(alice)}\n2. {mention(bob)}\n3. {mention(carol)}")
    await refused(
        await fake.click(bob, lobby, lobby.find_button(label="Join")), refusals.ALREADY_JOINED
    )
    mark = fake.mark()
    await click(fake, alice, lobby, "Start")
    game_msg = await fake.wait_for_message(chan, is_game_message(), since=mark)
    assert game_msg.content == f"{mention(alice)}, it is your turn."

    # And a crash in the middle of setup: the state is rebuilt from the log.
    first = await place_with_panel(fake, alice, game_msg)
    bob_msg = await next_game_message(fake, chan, game_msg)
    bot.kill()
    await bot.wait_exit()
    await bot.restart()
    await fake.wait_ready(timeout=30)
    it = await click(fake, bob, bob_msg, "Take my turn")
    offered = [o["value"] for o in it.response.selects[0]["options"]]
    assert first not in offered and len(offered) == 17
    assert [r[1] for r in action_rows(bot)] == [first]


# --- rules, help, a whole automatic game, shutdown ---------------------------------------------


@pytest.mark.long
async def test_rules_help_no_game_of_cynthias_alone_a_typed_game_and_shutdown(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")

    it = await answered(await fake.slash(alice, "ps rules", channel_id=chan))
    assert it.ephemeral and it.embeds[0]["title"] == "Photosynthesis \N{EM DASH} the rules in short"
    assert "**Collect** a large tree (4)" in it.embeds[0]["description"]
    ((name, data),) = it.attachments
    assert name == "board.png" and data.startswith(PNG_SIGNATURE)
    it = await answered(await fake.slash(alice, "ps help", channel_id=chan))
    assert it.ephemeral
    assert [f["name"] for f in it.embeds[0]["fields"]][:3] == [
        "/ps new",
        "Lobby buttons",
        "/ps status [words]",
    ]

    # Two Cynthias alone (the host leaves her seat but stays host): Start is refused (a game
    # of Cynthias alone is `make demo`) and nothing changes.
    lobby = await new_lobby(fake, alice, chan)
    await add_bot(fake, alice, lobby)
    await add_bot(fake, alice, lobby)
    await click(fake, alice, lobby, "Leave")
    assert field(lobby, "Seats") == "1. Cynthia (automa)\n2. Cynthia 2 (automa)"
    before, rows = snapshot(lobby), game_rows(bot)
    await refused(
        await fake.click(alice, lobby, lobby.find_button(label="Start")), refusals.NO_PERSON
    )
    assert refusals.NO_PERSON == "A game needs at least one player: join it first."
    assert snapshot(lobby) == before and game_rows(bot) == rows and action_rows(bot) == []
    assert not any(is_game_message()(m) for m in fake.messages(chan))

    # Alice joins (the third seat) and plays against them by typing: her placements, then
    # `end` each round, to the end of the game.
    await click(fake, alice, lobby, "Join")
    await click(fake, alice, lobby, "Start")
    final = await play_to_the_end_by_typing(fake, chan, alice)
    assert final.content.startswith("The game is over. Congratulations, ")
    assert [b["label"] for b in final.buttons] == [
        "Details", "Game log", "Rematch", "Replay", "Review",
    ]  # fmt: skip
    assert final.embeds[0]["description"] == "The game is over."
    assert game_rows(bot)[0][1] == "over"
    assert len(action_rows(bot)) > 40
    again = await new_lobby(fake, alice, chan)  # the channel is free again
    assert field(again, "Seats") == f"1. {mention(alice)}"

    # The finished game's log: the last moves with Cynthia's reasons, and a replayable record.
    it = await answered(await fake.slash(alice, "ps log", channel_id=chan))
    moves = action_rows(bot)
    assert it.ephemeral
    assert it.embeds[0]["title"] == f"Photosynthesis \N{EM DASH} game #1, {len(moves)} moves"
    lines = it.embeds[0]["description"].splitlines()
    assert any(line.startswith(f"`{len(moves):>3}` ") for line in lines)
    assert lines[-1] == "\N{BLACK SUN WITH RAYS} The game is over."
    ((name, data),) = it.attachments
    record = engine.Record.from_text(data.decode())
    assert name == "photosynthesis-1.txt" and record.actions == [m[1] for m in moves]
    assert record.state().is_over

    assert fake.late_interactions == []  # every interaction was answered within 3 s
    assert await bot.stop() == 0
    assert '"message": "shutting down"' in bot.output()
    assert fake.token not in bot.output()


async def play_to_the_end_by_typing(fake: FakeDiscord, chan: str, user: dict) -> FakeMessage:
    """Play `user`'s turns with `/ps play` (the first suggested placement in setup, then
    `end`) until the final game message, which is returned."""
    seen = 0

    def newer(m: FakeMessage) -> bool:
        over = m.content.startswith("The game is over.")
        return int(m.id) > seen and (over or m.content == f"{mention(user)}, it is your turn.")

    while True:
        message = await fake.wait_for_message(chan, is_game_message(newer))
        if message.content.startswith("The game is over."):
            return message
        seen = int(message.id)
        await type_a_turn(fake, chan, user, message)


async def test_a_wrong_token_fails_cleanly_without_logging_it(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process(env={"DISCORD_TOKEN": "wrong-token-123"}, wait=False)
    assert await bot.wait_exit(timeout=30) == 1
    assert '"message": "login failed: check DISCORD_TOKEN"' in bot.output()
    assert "wrong-token-123" not in bot.output()
