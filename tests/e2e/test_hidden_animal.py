"""The animal a person keeps in the draft of Under the Moonlight stays in their hand until they
place it (issue 48, item 3): the channel's game message (seat lines, story, picture and its alt
text), `/ps status`, Game log, `/ps log` and `/ps status words:True` say only that an animal was kept, while
the keeper's own views (the answer to the draft, the next-sun preview) name it. It used to show
at once: "(orange, Owl)" on the seat line and "Alice: `animal owl`" in the log.

The deal of `PS_TEST_SEED` 46 (tests/e2e/moonlight_deal.py): Alice is dealt the Fox and the
Owl and keeps the Owl; Bob keeps the Turtle; animals are placed backwards from Bob."""

from __future__ import annotations

from bot.present import texts
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from tests.e2e.gameplay import next_turn, turn_owner
from tests.e2e.helpers import (
    add_bot,
    answered,
    assert_hides,
    choose,
    click,
    field,
    mention,
    new_lobby,
    public_text,
    take_turn,
)
from tests.e2e.moonlight_deal import SEED


def everything(message: FakeMessage) -> str:
    """What a reader gets of a message: its text, embeds, buttons and the pictures' alt texts."""
    return public_text(message) + "".join(f.description or "" for f in message.files)


async def others_views(fake: FakeDiscord, user: dict, chan: str, msg: FakeMessage) -> list[str]:
    """Every view of the game `user` (not Alice) gets: the game message, Game log, `/ps log`,
    `/ps status`, `/ps status words:True` and the next-sun preview."""
    asked: list[FakeInteraction] = [
        await click(fake, user, msg, "Game log"),
        await click(fake, user, msg, "Next-sun preview"),
    ]
    for command, options in (("ps log", {}), ("ps status", {}), ("ps status", {"words": True})):
        asked.append(await answered(await fake.slash(user, command, options, channel_id=chan)))
    assert all(it.ephemeral for it in asked)
    assert texts.BOARD_TEXT_MOON not in asked[-1].content  # no MS or EL on its grid to explain
    return [everything(msg), *(everything(it.response) for it in asked)]


async def test_a_kept_animal_is_shown_to_others_only_once_it_is_placed(
    fake: FakeDiscord, bot_process
) -> None:
    await bot_process(env={"PS_TEST_SEED": str(SEED)})
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    chan = fake.add_channel("moonlight")
    lobby = await new_lobby(fake, alice, chan, moon_animals=True)
    await click(fake, bob, lobby, "Join")
    await add_bot(fake, alice, lobby)
    await click(fake, alice, lobby, "Start")

    msg = await next_turn(fake, chan)
    panel = await take_turn(fake, alice, msg)
    it = await answered(await fake.select(alice, panel, panel.selects[0], ["animal owl"]))
    assert it.ephemeral and it.content.startswith("You played `animal owl`.")  # hers alone

    # Bob chooses: nobody but Alice knows she kept the Owl (nor that she was dealt the Fox).
    msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == bob["id"]
    seats = field(msg, "Seats").splitlines()
    assert seats[0].startswith(f"\N{LARGE ORANGE CIRCLE} {mention(alice)} (orange) \N{EM DASH} ")
    assert "Alice: kept an animal" in field(msg, "Since Bob's last turn")
    for user in (bob, carol):
        views = await others_views(fake, user, chan, msg)
        for text in views:
            assert_hides(text, "owl", "fox")
        assert "Alice: `animal ?`" in views[1]  # Game log
        assert "Alice: `animal ?`" in views[3]  # /ps log
    # Alice's own picture (the next-sun preview) shows her animal in her hand.
    mine = await click(fake, alice, msg, "Next-sun preview")
    assert mine.ephemeral and ", owl;" in mine.response.files[0].description

    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "keep turtle"}, channel_id=chan)
    )
    assert it.ephemeral and it.content.startswith("You played `animal turtle`.")
    msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == bob["id"]  # the first to place his animal
    for text in await others_views(fake, carol, chan, msg):  # (the Baby Turtles are no animal)
        assert_hides(text.replace("Baby Turtle", ""), "owl", "turtle", "fox", "beaver")
    panel = await take_turn(fake, bob, msg)
    await choose(fake, bob, panel, "settle E4")

    # Bob's Turtle stands on the board: public. Alice's Owl is still in her hand.
    msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == alice["id"]
    seats = field(msg, "Seats").splitlines()
    assert "(orange) \N{EM DASH} " in seats[0] and "(blue, Turtle) \N{EM DASH} " in seats[1]
    views = await others_views(fake, carol, chan, msg)
    for text in views:
        assert_hides(text, "owl", "fox")
    assert "Bob: `animal turtle`" in views[1] and "Alice: `animal ?`" in views[1]
    panel = await take_turn(fake, alice, msg)
    await choose(fake, alice, panel, "settle C3")

    msg = await next_turn(fake, chan, msg)
    assert "(orange, Owl) \N{EM DASH} " in field(msg, "Seats").splitlines()[0]
    log = await click(fake, carol, msg, "Game log")
    assert "Alice: `animal owl`" in log.embeds[0]["description"]
    assert ", owl on C3;" in msg.files[0].description  # once placed, where it stands
