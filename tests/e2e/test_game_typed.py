"""A whole game of two people and Cynthia played with `/ps play` (autocomplete of the legal
actions, several actions in one command) to the final scores."""

from __future__ import annotations

import pytest

import engine
from bot.present import texts
from bot.services import refusals
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.gameplay import action_log, is_final, next_turn, replay_log, start_game, turn_owner
from tests.e2e.helpers import answered, field, mention


@pytest.mark.long
async def test_a_whole_game_typed_with_ps_play(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = {alice["id"]: alice, bob["id"]: bob}
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=1)
    typed: list[str] = []
    while not is_final(msg):
        user = users[turn_owner(msg)]
        choices = await fake.autocomplete(
            user, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        legal = [c["value"] for c in choices]
        if msg.embeds[0]["description"].startswith("Setup"):
            assert legal and all(v.startswith("place ") for v in legal)
            action, expected = legal[0].lower(), [legal[0]]
        else:
            grows = await fake.autocomplete(
                user, "ps play", focused="action", options={"action": "gro"}, channel_id=chan
            )
            assert all(c["value"].startswith("grow ") for c in grows)
            if grows:  # two actions in one command, in a short spelling
                target = grows[0]["value"].split()[1]
                action, expected = f"g {target.lower()}; e", [f"grow {target}", "end"]
            else:
                action, expected = "end", ["end"]
        it = await answered(
            await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
        )
        played = "`, `".join(expected)
        assert it.ephemeral and it.content == f"You played `{played}`. {texts.PANEL_DONE}"
        typed += expected
        msg = await next_turn(fake, chan, msg)

    log = action_log(bot)
    assert [row[1] for row in log if row[3] is not None] == typed
    assert sum(1 for t in typed if t.startswith("grow ")) >= 2
    final = replay_log(bot)
    assert final.is_over
    names = {0: mention(alice), 1: mention(bob), 2: "Cynthia"}
    winners = " and ".join(names[w] for w in engine.winners(final))
    assert msg.content == f"The game is over. Congratulations, {winners}!"
    scores = engine.scores(final)
    for seat, line in enumerate(field(msg, "Final scores").splitlines()[:3]):
        assert f": {scores[seat]}** = tokens " in line
    # The channel is free again; typing now is refused in one sentence.
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "end"}, channel_id=chan)
    )
    assert it.ephemeral and it.content == refusals.NO_GAME_HERE
    assert fake.late_interactions == []


async def setup_then_round_one(fake: FakeDiscord, chan: str, alice: dict) -> FakeMessage:
    """Alice and Cynthia: Alice places her two trees by typing; the game message of her first
    turn of round 1."""
    msg = await start_game(fake, chan, alice, [], cynthias=1)
    while msg.embeds[0]["description"].startswith("Setup"):
        offered = await fake.autocomplete(
            alice, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        await answered(
            await fake.slash(
                alice, "ps play", options={"action": offered[0]["value"]}, channel_id=chan
            )
        )
        msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == alice["id"]
    return msg


def suggested(state: engine.GameState, typed: str) -> list[str]:
    """What autocomplete should offer for `typed` "<complete action>; <start of another>":
    the legal actions after the first, starting with (then containing) the rest."""
    first, rest = (part.strip() for part in typed.split(";"))
    after = [str(a) for a in engine.legal_actions(engine.apply(state, first))]
    starts = [n for n in after if n.lower().startswith(rest)]
    contains = [n for n in after if rest in n.lower() and n not in starts]
    return [f"{first}; {n}" for n in starts + contains]


async def test_autocomplete_after_complete_actions(fake: FakeDiscord, bot_process) -> None:
    """`buy seed; pl`: the actions typed in full are applied in the engine, and the legal
    actions that may follow matching the last part are offered after what was typed."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    await setup_then_round_one(fake, chan, alice)
    state = replay_log(bot)
    legal = [str(a) for a in engine.legal_actions(state)]
    first = "buy seed" if "buy seed" in legal else next(n for n in legal if n != "end")
    after = [str(a) for a in engine.legal_actions(engine.apply(state, first))]
    follow = next(n for n in after if n != "end")
    typed = f"{first}; {follow[:2]}"
    expected = suggested(state, typed)
    assert f"{first}; {follow}" in expected

    async def offered(text: str) -> list[dict]:
        return await fake.autocomplete(
            alice, "ps play", focused="action", options={"action": text}, channel_id=chan
        )

    choices = await offered(typed)
    assert [c["value"] for c in choices] == expected[:25]
    assert all(c["name"] == c["value"] and len(c["value"]) <= 100 for c in choices)
    # Nothing typed after the `;`: every legal action that may follow.
    assert [c["value"] for c in await offered(f"{first};")] == [f"{first}; {n}" for n in after][:25]
    # An illegal complete action before the `;`: no suggestions.
    assert await offered("collect D4; gr") == []
    # Picking a suggestion plays all of it.
    it = await answered(
        await fake.slash(alice, "ps play", options={"action": choices[0]["value"]}, channel_id=chan)
    )
    played = choices[0]["value"].split("; ")
    assert it.content.startswith(f"You played `{'`, `'.join(played)}`.")
    assert [row[1] for row in action_log(bot)[-2:]] == played


async def test_end_clicked_and_typed_at_once_ends_one_turn(fake: FakeDiscord, bot_process) -> None:
    """`/ps play end` typed while End turn is clicked on the panel: the typed one is pinned to
    the turn it was typed in; the click ends that turn (Cynthia then plays hers, and a new
    round gives Alice her next turn), so the typed one plays nothing, in one sentence, and
    her next turn is hers to play."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    msg = await setup_then_round_one(fake, chan, alice)
    panel = await answered(await fake.click(alice, msg, msg.find_button(label="Take my turn")))
    before = action_log(bot)
    typed = await fake.slash(alice, "ps play", options={"action": "end"}, channel_id=chan)
    gate = typed.hold_callback()  # the typed command is slow on its way
    await fake.wait_until(lambda: typed.held, 10, "the typed command's answer")
    click_end = await answered(
        await fake.click(alice, panel.response, panel.response.find_button(label="End turn"))
    )
    assert click_end.content == f"You played `end`. {texts.PANEL_DONE}"
    following = await next_turn(fake, chan, msg)
    assert turn_owner(following) == alice["id"]
    gate.set()
    await typed.wait_response()
    assert typed.ephemeral and typed.content == refusals.TURN_CHANGED
    log = action_log(bot)
    mine = [row for row in log[len(before) :] if row[3] == int(alice["id"])]
    assert [row[1] for row in mine] == ["end"]  # one end: the click's
    state = replay_log(bot)
    assert state.current_seat == 0 and state.round == 2
    assert fake.late_interactions == []
