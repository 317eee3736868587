"""Refusals during a game, end to end: not your turn, someone outside the game, malformed typed
actions, a stale panel, a double click and two people clicking at once. Each refusal is one
private sentence and changes nothing; each click that counts applies exactly once."""

from __future__ import annotations

import asyncio

from bot.services import refusals
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import action_log, kinds, next_turn, start_game, turn_owner
from tests.e2e.helpers import answered, click, mention, refused


async def test_refusals_and_concurrent_clicks_apply_once(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    users = {alice["id"]: alice, bob["id"]: bob}
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=1)
    assert turn_owner(msg) == alice["id"]
    log = action_log(bot)

    # Not your turn, and not in this game: the button and typing, privately, nothing changes.
    not_yours = refusals.NOT_YOUR_TURN.format(player=mention(alice))
    await refused(await fake.click(bob, msg, msg.find_button(label="Take my turn")), not_yours)
    await refused(
        await fake.click(carol, msg, msg.find_button(label="Take my turn")), refusals.NOT_A_PLAYER
    )
    await refused(
        await fake.slash(bob, "ps play", options={"action": "place A1"}, channel_id=chan), not_yours
    )
    await refused(
        await fake.slash(carol, "ps play", options={"action": "end"}, channel_id=chan),
        refusals.NOT_A_PLAYER,
    )
    assert (
        await fake.autocomplete(
            bob, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        == []
    )

    # Malformed or illegal typed actions: one sentence each.
    for typed, sentence in (
        ("fly away", "'fly' is not an action. Try place, buy, plant, grow, collect or end."),
        ("grow", None),
        ("place Z9", None),
        ("place D4", None),
        ("place A1; place A2", None),
    ):
        it = await answered(
            await fake.slash(alice, "ps play", options={"action": typed}, channel_id=chan)
        )
        assert it.ephemeral and "\n" not in it.content and not it.content.startswith("You played")
        if sentence is not None:
            assert it.content == sentence
    assert action_log(bot) == log

    # Through setup to alice's first turn.
    while msg.embeds[0]["description"].startswith("Setup"):
        user = users[turn_owner(msg)]
        choices = await fake.autocomplete(
            user, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        await answered(
            await fake.slash(
                user, "ps play", options={"action": choices[0]["value"]}, channel_id=chan
            )
        )
        msg = await next_turn(fake, chan, msg)
    user = users[turn_owner(msg)]
    other = bob if user is alice else alice

    # A stale panel: one panel is used, the older one is refused with a fresh one.
    old = (await click(fake, user, msg, "Take my turn")).response
    new = (await click(fake, user, msg, "Take my turn")).response
    it = await answered(
        await fake.slash(user, "ps play", options={"action": "buy seed"}, channel_id=chan)
    )
    assert it.content.startswith("You played `buy seed`.")
    stale = await answered(await fake.select(user, old, kinds(old)["buy"], ["buy seed"]))
    assert stale.ephemeral and stale.content == refusals.STALE
    assert "End turn" in [b["label"] for b in stale.response.buttons]

    # A double click: the same choice twice at once applies once; the other is out of date.
    menu = await answered(await fake.select(user, new, kinds(new)["buy"], ["buy seed"]))
    assert menu.content == refusals.STALE  # `new` was drawn before the typed buy: also stale
    fresh = menu.response
    select = kinds(fresh)["buy"]
    log = action_log(bot)
    first, second = await asyncio.gather(
        fake.select(user, fresh, select, ["buy seed"]),
        fake.select(user, fresh, select, ["buy seed"]),
    )
    await asyncio.gather(first.wait_response(), second.wait_response())
    answers = sorted([first.content.split("\n")[0], second.content.split("\n")[0]])
    assert answers == ["This button is out of date; here is a fresh one.", "You played `buy seed`."]
    assert [row[1] for row in action_log(bot)[len(log) :]] == ["buy seed"]

    # Two people at once: the player ends her turn from the panel while the other opens his
    # and types `end`, and an outsider clicks too. Exactly one end per person can count, in
    # turn order; nobody's end is applied twice.
    log = action_log(bot)
    panel = fresh
    clicks = await asyncio.gather(
        fake.click(user, panel, panel.find_button(label="End turn")),
        fake.slash(user, "ps play", options={"action": "end"}, channel_id=chan),
        fake.click(other, msg, msg.find_button(label="Take my turn")),
        fake.click(carol, msg, msg.find_button(label="Take my turn")),
    )
    await asyncio.gather(*(c.wait_response() for c in clicks))
    mine, typed, his, outsider = clicks
    ended = [c for c in (mine, typed) if c.content.startswith("You played `end`.")]
    assert len(ended) == 1
    assert outsider.content == refusals.NOT_A_PLAYER
    # Before the end counted it was not his turn; after it, his panel opens.
    assert his.content == refusals.NOT_YOUR_TURN.format(player=mention(user)) or (
        his.content.startswith("Your turn: you have")
    )
    new_rows = action_log(bot)[len(log) :]
    assert [(r[1], r[3]) for r in new_rows if r[3] is not None] == [("end", int(user["id"]))]
    assert fake.late_interactions == []
