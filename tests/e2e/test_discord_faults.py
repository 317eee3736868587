"""Issue 46: a game goes on as it was through gateway reconnects (RESUME, and a new session
after one that cannot be resumed), and a REST outage of Discord delays its game message but
loses no confirmed action and posts nothing twice."""

from __future__ import annotations

from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.gameplay import action_log, next_turn, start_game, turn_owner
from tests.e2e.helpers import answered, mention


async def test_reconnects_and_a_rest_outage_lose_and_double_nothing(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = {alice["id"]: alice, bob["id"]: bob}
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=0)
    confirmed: list[str] = []

    async def place(msg: FakeMessage) -> None:
        user = users[turn_owner(msg)]
        options = {"action": "place"}
        choices = await fake.autocomplete(
            user, "ps play", focused="action", options=options, channel_id=chan
        )
        action = choices[0]["value"]
        it = await answered(
            await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
        )
        assert it.content == f"You played `{action}`. Your turn is over.", it.content
        confirmed.append(action)

    # A resumable close: the bot resumes; then a session Discord will not resume: the bot
    # identifies anew. Each time the game is found as it was and goes on.
    identifies, resumes = fake.identifies, fake.resumes
    await fake.drop_connection(4000)
    await fake.wait_until(lambda: fake.resumes > resumes and fake.connected, 30, "a resume")
    await place(msg)
    msg = await next_turn(fake, chan, msg)
    await fake.drop_connection(4009)
    await fake.wait_until(
        lambda: fake.identifies > identifies and fake.connected, 30, "a new session"
    )
    assert fake.resumes == resumes + 1
    await place(msg)
    msg = await next_turn(fake, chan, msg)

    # Discord answers 503 to every request on a channel: the action is confirmed at once, its
    # game message is tried again and again, and posted once when Discord is back.
    outage = fake.schedule_rest_outage(503, 600, prefix="/channels/")
    await place(msg)
    await fake.wait_until(lambda: len(fake.limits.faults) >= 3, 30, "the post tried 3 times")
    assert fake.messages(msg.channel_id)[-1] is msg
    outage.end = fake.clock()
    after = await next_turn(fake, chan, msg)
    assert after.content == f"{mention(users[turn_owner(after)])}, it is your turn."
    await fake.wait_until(lambda: msg.buttons == [], 30, "the old message to close")

    # Every confirmed action is in the log, once; every turn's game message was posted once.
    assert [row[1] for row in action_log(bot) if row[3] is not None] == confirmed
    posted = [m for m in fake.messages(msg.channel_id) if m.content.endswith("it is your turn.")]
    assert len(posted) == 1 + len(confirmed) == len({m.id for m in posted})
