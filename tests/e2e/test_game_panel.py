"""A whole game of two people and Cynthia played through the Take-my-turn panel to the final
scores, with the game message's Next-sun preview and Game log, `/ps log` and `/ps replay`."""

from __future__ import annotations

import pytest

import engine
from bot.present import texts
from bot.services import refusals
from tests.e2e.corr import wait_db
from tests.e2e.fakediscord import PNG_SIGNATURE, FakeDiscord
from tests.e2e.gameplay import (
    action_log,
    eager,
    is_final,
    labels,
    next_turn,
    panel_turn,
    replay_log,
    start_game,
    turn_owner,
)
from tests.e2e.helpers import answered, click, db_rows, field, mention, write_db


@pytest.mark.long
async def test_two_people_and_cynthia_play_a_whole_game_through_the_panel(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = {alice["id"]: alice, bob["id"]: bob}
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=1)
    policy = eager(("collect", "grow", "buy", "plant"), per_turn=2)
    played: list[str] = []
    looked = False
    while not is_final(msg):
        user = users[turn_owner(msg)]
        assert labels(msg) == ["Take my turn", "Next-sun preview", "Details", "Game log"]
        assert field(msg, "Turn") == f"{mention(user)} to play"
        if not looked and msg.embeds[0]["description"].startswith("Round 3 "):
            looked = True
            await look_at_preview_and_log(fake, user, msg)
        played += await panel_turn(fake, user, msg, policy, biggest_buy)
        msg = await next_turn(fake, chan, msg)
    assert looked

    # The humans really played: every kind of action, from the panel's offered choices.
    assert {p.split()[0] for p in played} >= {"place", "buy", "grow", "plant", "collect", "end"}
    log = action_log(bot)
    humans = [row[1] for row in log if row[3] is not None]
    assert humans == played
    final = replay_log(bot)
    assert final.is_over
    cynthia_moves = [row for row in log if row[2] == 2]
    assert cynthia_moves and all(row[3] is None for row in cynthia_moves)

    # The end: the final picture, the score breakdown, the winners.
    assert msg.embeds[0]["description"] == "The game is over."
    assert msg.attachments[0][1].startswith(PNG_SIGNATURE)
    assert labels(msg) == ["Details", "Game log", "Rematch", "Replay", "Review"]
    names = {0: mention(alice), 1: mention(bob), 2: "Cynthia"}
    winners = " and ".join(names[w] for w in engine.winners(final))
    assert msg.content == f"The game is over. Congratulations, {winners}!"
    breakdown = field(msg, "Final scores").splitlines()
    scores = engine.scores(final)
    for seat, name in enumerate(("Alice", "Bob", "Cynthia")):
        line = breakdown[seat]
        assert f"**{name}: {scores[seat]}** = tokens " in line
        assert f"; {final.board_count(seat)} pieces on the board" in line
        for leaves, points in final.seats[seat].tokens:
            assert f"{leaves}-leaf " in line and str(points) in line
        if seat < 2:
            light, points = final.seats[seat].light, engine.score_parts(final, seat)["light"]
            assert f"light {points} (from {light} light)" in line
    if len(engine.winners(final)) > 1 or scores.count(max(scores)) > 1:
        won = " and ".join(("Alice", "Bob", "Cynthia")[w] for w in engine.winners(final))
        tie = texts.TIE_SHARED if len(engine.winners(final)) > 1 else texts.TIE_BROKEN
        assert breakdown[3] == tie.format(names=won)
    else:
        assert len(breakdown) == 3

    # A quiet channel: the lobby and the result; the game itself was played in its thread,
    # started from the lobby message, every turn pinging its player there.
    (thread,) = fake.threads_of(chan)
    await fake.wait_until(lambda: len(fake.messages(chan)) == 2, 10, "the result in the channel")
    assert fake.channels[thread]["name"] == "Photosynthesis #1: Alice, Bob, Cynthia"
    lobby, result = fake.messages(chan)
    assert lobby.id == thread and lobby.embeds[0]["title"].endswith("game over")
    assert msg.channel_id == thread and result.content == msg.content
    assert result.embeds == msg.embeds and result.attachments[0][1].startswith(PNG_SIGNATURE)
    pings = [m.content for m in fake.messages(thread) if m.content.endswith("it is your turn.")]
    assert pings and set(pings) == {f"{mention(u)}, it is your turn." for u in (alice, bob)}

    # The process died after posting the result, before storing its id: at the restart the
    # result is posted again with the same nonce, and Discord hands back the one it made.
    results = "SELECT message_id FROM messages WHERE kind = 'result'"
    assert await wait_db(lambda: db_rows(bot, results)) == [(int(result.id),)]
    bot.kill()
    await bot.wait_exit()
    write_db(bot, "DELETE FROM messages WHERE kind = 'result'")
    await bot.start()
    await fake.wait_ready()
    assert await wait_db(lambda: db_rows(bot, results)) == [(int(result.id),)]
    assert fake.messages(chan) == [lobby, result]

    # /ps log: the record replays to this very game; /ps replay draws it.
    it = await answered(await fake.slash(alice, "ps log", channel_id=chan))
    ((name, data),) = it.attachments
    assert name == "photosynthesis-1.txt"
    record = engine.Record.from_text(data.decode())
    assert record.actions == [row[1] for row in log] and record.state() == final
    assert record.players == ("Alice", "Bob", "Cynthia")  # /ps replay keeps the names
    it = await fake.slash(alice, "ps replay", options={"record": (name, data)}, channel_id=chan)
    await it.wait_response(timeout=60)
    assert it.ephemeral and it.embeds[0]["title"] == "Replay of a game record"
    assert it.embeds[0]["footer"]["text"] == f"Setup · action 0 of {len(log)}"
    (kept, text), (board, png) = it.attachments
    assert (kept, text, board) == ("record.txt", data, "board.png")
    assert png.startswith(PNG_SIGNATURE)
    # its last step tells the result, with the record's names
    (jump,) = it.response.selects
    assert jump["options"][-1]["label"] == "Final position"
    await answered(await fake.select(alice, it.response, jump, [jump["options"][-1]["value"]]))
    assert f"Final position after {len(log)} moves." in it.embeds[0]["description"]
    assert [line.split(":")[0][2:] for line in it.embeds[0]["description"].splitlines()[-3:]] == [
        "Alice", "Bob", "Cynthia",
    ]  # fmt: skip
    # A malformed record is refused in one sentence.
    bad = data.decode().replace("\nend\n", "\nend\nfly away\n", 1).encode()
    it = await answered(
        await fake.slash(alice, "ps replay", options={"record": ("x.txt", bad)}, channel_id=chan)
    )
    assert it.ephemeral and it.content.startswith("This file is not a game record I can replay: ")
    assert it.content.count(".") == 1 and ", 'fly away', is not a move." in it.content
    header, first_move, *rest = data.decode().splitlines()
    illegal = "\n".join([header, first_move, "collect D4", *rest]).encode()
    it = await answered(
        await fake.slash(
            alice, "ps replay", options={"record": ("y.txt", illegal)}, channel_id=chan
        )
    )
    assert it.content.startswith(
        "This file is not a game record I can replay: move 2, 'collect D4', is illegal ("
    )
    it = await answered(
        await fake.slash(
            alice, "ps replay", options={"record": ("x.png", PNG_SIGNATURE)}, channel_id=chan
        )
    )
    assert it.content == ("This file is not a game record I can replay: it is not a text file.")

    # Rematch, beside the final breakdown: for the players only; the same seats and options in
    # a new lobby in the channel, the player who asked its host.
    carol = fake.add_user("carol")
    it = await answered(await fake.click(carol, result, result.find_button(label="Rematch")))
    assert it.ephemeral and it.content == refusals.REMATCH_PLAYERS_ONLY
    it = await answered(await fake.click(bob, msg, msg.find_button(label="Rematch")))
    assert it.ephemeral and it.content == texts.REMATCH_OPEN.format(channel=chan)
    lobby2 = await fake.wait_for_message(chan, lambda m: m.id not in (lobby.id, result.id))
    assert lobby2.channel_id == chan and lobby2.embeds[0]["title"].endswith("new game")
    assert field(lobby2, "Seats") == f"1. {mention(alice)}\n2. {mention(bob)}\n3. Cynthia (automa)"
    assert lobby2.embeds[0]["description"].startswith(f"Host: {mention(bob)}.")
    assert field(lobby2, "Options") == field(lobby, "Options")
    it = await answered(await fake.click(alice, result, result.find_button(label="Rematch")))
    assert it.content == refusals.CHANNEL_BUSY
    assert fake.late_interactions == []


def biggest_buy(verb: str, options: list[dict]) -> dict:
    """Buy the biggest piece offered (to get large trees to collect); else the first choice."""
    return options[-1] if verb == "buy" else options[0]


async def look_at_preview_and_log(fake: FakeDiscord, user: dict, msg) -> None:
    """Next-sun preview and Game log answer privately, for anyone."""
    outsider = fake.add_user("carol")
    it = await click(fake, outsider, msg, "Next-sun preview")
    assert it.ephemeral and it.embeds[0]["title"] == "Next sun: the SW corner"
    lines = it.embeds[0]["description"].splitlines()
    assert lines[0].startswith("If the board stayed as it is")
    assert [line.split(":")[0][2:] for line in lines[1:]] == ["Alice", "Bob", "Cynthia"]
    assert all(": +" in line for line in lines[1:])
    assert it.attachments[0][0] == "board.png"
    it = await click(fake, user, msg, "Game log")
    assert it.ephemeral and it.attachments == []  # its seed would reveal Cynthia's cards
    assert it.embeds[0]["footer"]["text"] == texts.RECORD_HIDDEN.format(
        hidden="the order of each Cynthia's action cards"
    )
    description = it.embeds[0]["description"]
    assert "photosynthesis" in description and "Cynthia: `" in description
    assert " \N{EM DASH} " in description  # Cynthia's explanation of her moves
