"""Turns after setup, end to end: the panel's kinds of action, typed actions, the game message
edited in place during a turn and posted anew when the turn passes, and `/ps status`."""

from __future__ import annotations

import pytest

import engine
from bot.present import texts
from bot.services import refusals
from tests.e2e.fakediscord import PNG_SIGNATURE, FakeDiscord
from tests.e2e.gameplay import kinds
from tests.e2e.helpers import (
    action_rows,
    add_bot,
    answered,
    click,
    db_rows,
    field,
    game_rows,
    is_game_message,
    mention,
    new_lobby,
    next_game_message,
)


def _details_field(it, name: str) -> str:
    """A field of the Details view (an ephemeral answer)."""
    (embed,) = it.embeds
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


async def test_a_first_round_through_the_panel_and_typing(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    await click(fake, bob, lobby, "Join")
    await click(fake, alice, lobby, "Start")
    msg = await fake.wait_for_message(chan, is_game_message())

    # Setup, typed: trees far apart so that none is in another's shadow (sun in the NE).
    for user, space in ((alice, "A1"), (bob, "G1"), (alice, "D7"), (bob, "G4")):
        it = await answered(
            await fake.slash(user, "ps play", options={"action": f"s {space}"}, channel_id=chan)
        )
        assert it.content == f"You played `place {space}`. {texts.PANEL_DONE}"
        msg = await next_game_message(fake, chan, msg)
    assert msg.embeds[0]["description"].startswith("Round 1 of 18")
    assert f"{mention(alice)} (orange) \N{EM DASH} 2 light" in field(msg, "Seats")
    assert f"{mention(bob)} (blue) \N{EM DASH} 2 light" in field(msg, "Seats")

    # Alice: the panel offers a select per kind of action she can take, and says why she
    # cannot collect; she buys a seed in one choice.
    panel = await click(fake, alice, msg, "Take my turn")
    assert panel.content == (
        "Your turn: you have 2 light. Choose an action, or end your turn.\n"
        "Collect: not now. You have no large tree on the board."
    )
    assert [b["label"] for b in panel.response.buttons] == ["End turn"]
    assert list(kinds(panel.response)) == ["buy", "plant", "grow"]
    select = kinds(panel.response)["buy"]
    assert select["placeholder"] == "Buy from your player board"
    options = [o["value"] for o in select["options"]]
    assert "buy seed" in options and all(v.startswith("buy ") for v in options)
    edits = msg.edits
    # What each seat has is a tap away (issue 56): Details, privately, for anyone.
    details = await click(fake, bob, msg, "Details")
    assert details.ephemeral and details.embeds[0]["title"] == "Game #1: details"
    pieces = _details_field(details, "\N{LARGE ORANGE CIRCLE} Alice").splitlines()
    assert pieces[:2] == [
        "Available: seed 2 \N{MIDDLE DOT} small 2 \N{MIDDLE DOT} medium 1 \N{MIDDLE DOT} large 0",
        "Store (next price in light): seed 4 (1) \N{MIDDLE DOT} small 4 (2) \N{MIDDLE DOT} "
        "medium 3 (3) \N{MIDDLE DOT} large 2 (4)",
    ]
    it = await answered(await fake.select(alice, panel.response, select, ["buy seed"]))
    assert it.response is panel.response and it.content.startswith(
        "You played `buy seed`.\nYour turn: you have 1 light. Choose an action, or end your turn."
    )
    # Same turn: the game message is edited in place; its text tells the seed bought (the
    # phone picture holds the board, not the player boards).
    await fake.wait_until(lambda: msg.edits > edits, 10, "the game message edited")
    assert f"{mention(alice)} (orange) \N{EM DASH} 1 light" in field(msg, "Seats")
    assert [f["name"] for f in msg.embeds[0]["fields"]][:2] == ["Seats", "Turn"]
    assert not any(f["name"].endswith("Alice") for f in msg.embeds[0]["fields"])
    details = await click(fake, alice, msg, "Details")
    assert _details_field(details, "\N{LARGE ORANGE CIRCLE} Alice").splitlines()[:2] == [
        "Available: seed 3 \N{MIDDLE DOT} small 2 \N{MIDDLE DOT} medium 1 \N{MIDDLE DOT} large 0",
        "Store (next price in light): seed 3 (1) \N{MIDDLE DOT} small 4 (2) \N{MIDDLE DOT} "
        "medium 3 (3) \N{MIDDLE DOT} large 2 (4)",
    ]
    assert msg.attachments[0][1].startswith(PNG_SIGNATURE)
    story = field(msg, "Since Alice's last turn").splitlines()
    assert story[-2].startswith("\N{BLACK SUN WITH RAYS} Round 1, sun at the NE corner: ")
    assert "photosynthesis Alice +" in story[-2] and ", Bob +" in story[-2]  # names, not seats
    assert story[-1] == "\N{LARGE ORANGE CIRCLE} Alice: bought a seed"
    # End turn from the panel: bob gets a new message.
    it = await answered(
        await fake.click(alice, it.response, it.response.find_button(label="End turn"))
    )
    assert it.content == f"You played `end`. {texts.PANEL_DONE}"
    bob_msg = await next_game_message(fake, chan, msg)
    assert bob_msg.content == f"{mention(bob)}, it is your turn."
    await fake.wait_until(lambda: msg.buttons == [], 10, "the old message to close")

    # Bob types: autocomplete narrows to what he may do; growing to medium costs 2 light.
    choices = await fake.autocomplete(
        bob, "ps play", focused="action", options={"action": "grow"}, channel_id=chan
    )
    assert [c["value"] for c in choices] == ["grow G1", "grow G4"]
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "g g1"}, channel_id=chan)
    )
    assert it.ephemeral and it.content.startswith("You played `grow G1`.\nYour turn: you have 0")
    # A second action on the same space this turn is refused by the engine, privately.
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "grow G1"}, channel_id=chan)
    )
    assert it.ephemeral and "G1" in it.content
    assert [r[1] for r in action_rows(bot)][-3:] == ["buy seed", "end", "grow G1"]

    # Undo: the panel offers it; /ps play undo takes the grow back (the log loses its last row).
    panel = await click(fake, bob, bob_msg, "Take my turn")
    assert "Undo" in [b["label"] for b in panel.response.buttons]
    offered = await fake.autocomplete(
        bob, "ps play", focused="action", options={"action": "un"}, channel_id=chan
    )
    assert [c["value"] for c in offered] == ["undo"]
    it = await answered(await fake.slash(bob, "ps play", {"action": "undo"}, channel_id=chan))
    assert it.ephemeral and it.content == (
        "You took back `grow G1`.\nYour turn: you have 2 light. Choose an action, or end your turn."
        "\nCollect: not now. You have no large tree on the board."
    )
    assert [r[1] for r in action_rows(bot)][-2:] == ["buy seed", "end"]
    await fake.wait_until(
        lambda: f"{mention(bob)} (blue) \N{EM DASH} 2 light" in field(bob_msg, "Seats"),
        10,
        "the game message showing the light given back",
    )
    offered = await fake.autocomplete(
        bob, "ps play", focused="action", options={"action": "un"}, channel_id=chan
    )
    assert offered == []  # nothing left to take back
    it = await answered(await fake.slash(bob, "ps play", {"action": "undo"}, channel_id=chan))
    assert it.ephemeral and it.content == refusals.NOTHING_TO_UNDO
    # The stale panel (drawn before the undo) is refused with a fresh one.
    it = await answered(
        await fake.click(bob, panel.response, panel.response.find_button(label="Undo"))
    )
    assert it.ephemeral and it.content == refusals.STALE
    assert "Undo" not in [b["label"] for b in it.response.buttons]
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "grow G1"}, channel_id=chan)
    )
    assert it.content.startswith("You played `grow G1`.")

    # Several actions at once apply all or nothing.
    log = action_rows(bot)
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "end; grow G4"}, channel_id=chan)
    )
    assert it.ephemeral and it.content == refusals.TURN_OVER_AFTER.format(actions="'end'")
    assert action_rows(bot) == log
    choices = await fake.autocomplete(
        bob, "ps play", focused="action", options={"action": "e"}, channel_id=chan
    )
    assert choices[0]["value"] == "end"
    it = await answered(await fake.slash(bob, "ps play", options={"action": "e"}, channel_id=chan))
    assert it.content == f"You played `end`. {texts.PANEL_DONE}"

    # Round 2: the sun moved, the first player passed to bob, photosynthesis paid him 3.
    round2 = await next_game_message(fake, chan, bob_msg)
    assert round2.embeds[0]["description"] == (
        "Round 2 of 18 \N{MIDDLE DOT} revolution 1 \N{MIDDLE DOT} sun in the E corner"
    )
    assert round2.content == f"{mention(bob)}, it is your turn."
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "b s; buy seed"}, channel_id=chan)
    )
    assert it.content == (
        "You played `buy seed`, `buy seed`.\n"
        "Your turn: you have 1 light. Choose an action, or end your turn.\n"
        "Buy: not now. Buying a seed costs 2 light points; you have 1.\n"
        # the light it costs before the piece that is missing (issue 56)
        "Grow: not now. Growing into a large tree costs 3 light points; you have 1.\n"
        "Collect: not now. You have no large tree on the board."
    )

    # /ps status: the game privately, with its picture and the Take my turn button.
    it = await answered(await fake.slash(alice, "ps status", channel_id=chan))
    assert it.ephemeral and it.attachments[0][0] == "board.png"
    assert field(it.response, "Turn") == f"{mention(bob)} to play"
    assert fake.late_interactions == []


@pytest.mark.long
async def test_a_whole_game_against_cynthia_to_the_final_scores(
    fake: FakeDiscord, bot_process
) -> None:
    """Alice places through autocomplete, then ends every turn at once; Cynthia plays hers.
    The game runs its 18 rounds, the final message names the winner, the channel is freed."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    await add_bot(fake, alice, lobby)
    await click(fake, alice, lobby, "Start")
    msg = await fake.wait_for_message(chan, is_game_message())
    rounds_seen = set()
    while "Take my turn" in [b["label"] for b in msg.buttons]:
        assert msg.content == f"{mention(alice)}, it is your turn."
        description = msg.embeds[0]["description"]
        if description.startswith("Round "):
            rounds_seen.add(int(description.split()[1]))
        choices = await fake.autocomplete(
            alice, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        action = "end" if description.startswith("Round ") else choices[0]["value"]
        it = await answered(
            await fake.slash(alice, "ps play", options={"action": action}, channel_id=chan)
        )
        assert it.content == f"You played `{action}`. {texts.PANEL_DONE}"
        msg = await next_game_message(fake, chan, msg)
    assert rounds_seen == set(range(1, 19))

    record = engine.Record(
        engine.Config(seats=("human", "cynthia")), db_seed(bot), [r[1] for r in action_rows(bot)]
    )
    final = record.state()
    assert final.is_over
    winners = ["Alice" if w == 0 else "Cynthia" for w in engine.winners(final)]
    scores = engine.scores(final)
    assert msg.embeds[0]["description"] == "The game is over."
    assert field(msg, "Seats").splitlines()[1].endswith(f"{scores[1]} points")
    expected = " and ".join(mention(alice) if w == "Alice" else "Cynthia" for w in winners)
    assert msg.content == f"The game is over. Congratulations, {expected}!"
    assert game_rows(bot) == [(1, "over", game_rows(bot)[0][2])]
    # /ps status after the end shows the finished game privately (it said there was no game)
    it = await answered(await fake.slash(alice, "ps status", channel_id=chan))
    assert it.ephemeral and it.content != refusals.NO_GAME_HERE
    assert it.embeds[0]["title"] == msg.embeds[0]["title"]
    assert fake.late_interactions == []


def db_seed(bot) -> int:
    return db_rows(bot, "SELECT seed FROM games WHERE id = 1")[0][0]


async def test_under_the_moonlight_setup_through_the_panel(fake: FakeDiscord, bot_process) -> None:
    """With the expansion, every setup decision (animal, its space, moonstones, trees) comes
    to the panel as one select of the legal choices; Cynthia makes hers on her own."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    options = {"moon_animals": True, "elder_tree": True, "moonstones": True}
    lobby = await new_lobby(fake, alice, chan, **options)
    assert field(lobby, "Options").splitlines()[3:] == [
        "Under the Moonlight: animals",
        "Under the Moonlight: Great Elder Tree",
        "Under the Moonlight: moonstones",
    ]
    await add_bot(fake, alice, lobby)
    await click(fake, alice, lobby, "Start")
    msg = await fake.wait_for_message(chan, is_game_message())
    prompts = []
    while msg.embeds[0]["description"].startswith("Setup"):
        panel = await click(fake, alice, msg, "Take my turn")
        prompts.append(panel.content)
        select = panel.response.selects[0]
        choice = select["options"][0]["value"]
        it = await answered(await fake.select(alice, panel.response, select, [choice]))
        assert it.content.startswith(f"You played `{choice}`.")
        if it.response.components:  # still alice's turn: the next decision is offered at once
            continue
        msg = await next_game_message(fake, chan, msg)
    assert prompts[0].startswith("Setup: choose your animal.\nYou were dealt these animals")
    assert prompts[1] == "Setup: choose a 3-leaf space for your animal."
    assert "Setup: choose an empty outer space for a small tree." in prompts
    assert msg.embeds[0]["description"].startswith("Round 1 of 18")
    assert " lunar, " in field(msg, "Seats").splitlines()[0]
    verbs = {r[1].split()[0] for r in action_rows(bot)}
    assert {"animal", "place"} <= verbs
    assert fake.late_interactions == []
