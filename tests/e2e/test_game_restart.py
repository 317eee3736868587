"""The bot killed with SIGKILL at several points of one game and restarted: no action is lost or
repeated (the action log is the truth, every change commits before it is answered), the game
message catches up, and the game goes on to its end."""

from __future__ import annotations

import pytest

import engine
from bot.services import refusals
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage
from tests.e2e.gameplay import (
    action_log,
    is_current,
    is_final,
    kinds,
    next_turn,
    replay_log,
    start_game,
    turn_owner,
    type_action,
)
from tests.e2e.helpers import answered, click, crash_and_restart, db_rows, field, mention


def human_moves(bot: BotProcess) -> list[str]:
    return [row[1] for row in action_log(bot) if row[3] is not None]


async def shows_the_log(fake: FakeDiscord, chan: str, bot: BotProcess) -> FakeMessage:
    """Wait until the channel's current game message shows what the stored log leads to: the
    light of every seat, and whose turn it is."""
    state = replay_log(bot)
    wanted = [f"{s.light} light" for s in state.seats]
    seats = db_rows(bot, "SELECT user_id FROM seats WHERE game_id = 1 ORDER BY position")
    turn = seats[state.current_seat][0]

    def current(m: FakeMessage) -> bool:
        if not is_current(m) or turn_owner(m) != str(turn):
            return False
        lines = field(m, "Seats").splitlines()
        return all(w in line for w, line in zip(wanted, lines, strict=True))

    return await fake.wait_for_message(chan, current, timeout=20)


@pytest.mark.long
async def test_sigkill_at_several_points_loses_and_repeats_nothing(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = {alice["id"]: alice, bob["id"]: bob}
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=1)
    intended: list[str] = []

    # Setup, typed, up to alice's first turn of round 1.
    while msg.embeds[0]["description"].startswith("Setup"):
        user = users[turn_owner(msg)]
        choices = await fake.autocomplete(
            user, "ps play", focused="action", options={"action": ""}, channel_id=chan
        )
        intended.append(choices[0]["value"])
        await type_action(fake, user, chan, choices[0]["value"])
        msg = await next_turn(fake, chan, msg)
    user = users[turn_owner(msg)]
    other = bob if user is alice else alice

    # 1. Killed right after a click is sent, before its answer is read: the click applied once
    #    or not at all. Clicking the same (now maybe outdated) panel again settles it.
    panel = (await click(fake, user, msg, "Take my turn")).response
    select = kinds(panel)["buy"]
    before = human_moves(bot)
    await fake.select(user, panel, select, ["buy seed"])
    await crash_and_restart(fake, bot)
    assert human_moves(bot) in (before, [*before, "buy seed"])
    again = await answered(await fake.select(user, panel, select, ["buy seed"]))
    if human_moves(bot) == [*before, "buy seed"] and again.content == refusals.STALE:
        assert "End turn" in [b["label"] for b in again.response.buttons]  # a fresh panel
    else:
        assert again.content.startswith("You played `buy seed`.")
    assert human_moves(bot) == [*before, "buy seed"]
    intended.append("buy seed")
    await shows_the_log(fake, chan, bot)

    # 2. Killed right after the answer, before the public message was edited: after the
    #    restart the game message catches up with the log.
    it = await answered(
        await fake.slash(user, "ps play", options={"action": "b s"}, channel_id=chan)
    )
    assert it.content.startswith("You played `buy seed`.")
    intended.append("buy seed")
    await crash_and_restart(fake, bot)
    assert human_moves(bot) == intended
    msg = await shows_the_log(fake, chan, bot)

    # 3. Killed right after the turn-ending click was acknowledged, while the bot may be
    #    applying it: the end (and the next turns) applied once or not at all.
    before = human_moves(bot)
    end = await fake.slash(user, "ps play", options={"action": "end"}, channel_id=chan)
    await end.wait_callback()
    await crash_and_restart(fake, bot)
    if human_moves(bot) == before:
        await type_action(fake, user, chan, "end")
    assert human_moves(bot) == [*before, "end"]
    intended.append("end")
    msg = await shows_the_log(fake, chan, bot)
    assert turn_owner(msg) == other["id"]

    # 4. The other person ends; Cynthia's turn follows in the same step. Killed as soon as it is
    #    acknowledged: never half of Cynthia's turn, the round goes on with a person to play.
    before, log_before = human_moves(bot), action_log(bot)
    end = await fake.slash(other, "ps play", options={"action": "end"}, channel_id=chan)
    await end.wait_callback()
    await crash_and_restart(fake, bot)
    if human_moves(bot) == before:
        assert action_log(bot) == log_before
        await type_action(fake, other, chan, "end")
    intended.append("end")
    assert human_moves(bot) == intended
    state = replay_log(bot)
    assert state.seats[state.current_seat].kind == "human"
    assert any(row[3] is None for row in action_log(bot)[len(log_before) :])  # Cynthia played
    msg = await shows_the_log(fake, chan, bot)
    assert msg.embeds[0]["description"].startswith("Round 2 ")

    # 5. A crash with nothing in flight, then the rest of the game typed: everything holds.
    await crash_and_restart(fake, bot)
    msg = await shows_the_log(fake, chan, bot)
    while not is_final(msg):
        user = users[turn_owner(msg)]
        await type_action(fake, user, chan, "end")
        intended.append("end")
        msg = await next_turn(fake, chan, msg)
    assert human_moves(bot) == intended
    final = replay_log(bot)
    assert final.is_over
    names = {0: mention(alice), 1: mention(bob), 2: "Cynthia"}
    winners = " and ".join(names[w] for w in engine.winners(final))
    assert msg.content == f"The game is over. Congratulations, {winners}!"
    assert bot.starts == 6
