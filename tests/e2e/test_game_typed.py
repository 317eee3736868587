"""A whole game of two people and Cynthia played with `/ps play` (autocomplete of the legal
actions, several actions in one command) to the final scores."""

from __future__ import annotations

import engine
from bot import texts
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import action_log, is_final, next_turn, replay_log, start_game, turn_owner
from tests.e2e.test_lobby import answered, field, mention


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
    assert it.ephemeral and it.content == texts.NO_GAME_HERE
    assert fake.late_interactions == []
