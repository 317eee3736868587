"""Correspondence games end to end, on a controllable clock: turn timers with reminders and
deadlines, the autopilot, notifications, `/ps settings`, `/ps games`, leaving, vacations, and a
deadline across a restart. Time only moves when a test says so (`TestClock`)."""

from __future__ import annotations

import pytest

from bot.present import correspondence_texts as ct
from bot.services import GameService, refusals
from bot.services.scheduler import PENDING, JobStore
from bot.services.timers import TURN_DM_AFTER
from bot.storage import SQLiteStorage
from tests.e2e.corr import (
    ALARM,
    AUTOPILOT,
    HOUR,
    HOURGLASS,
    T0,
    TestClock,
    finished,
    in_threads,
    jobs,
    pending,
    rel,
    timer_field,
    two_player_game,
    wait_db,
)
from tests.e2e.fakediscord import FakeDiscord, shard_of
from tests.e2e.helpers import (
    action_rows,
    answered,
    click,
    db_rows,
    field,
    game_rows,
    is_game_message,
    mention,
    new_lobby,
    next_game_message,
    refused,
    seat_rows,
    write_db,
)


@pytest.fixture
def clock(tmp_path) -> TestClock:
    return TestClock(tmp_path)


def notice(text: str):
    """A plain channel message (not a game message) with exactly this text."""
    return lambda m: not m.embeds and m.content == text


async def play(fake: FakeDiscord, user, chan: str, action: str) -> None:
    it = await answered(
        await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
    )
    assert it.content.startswith("You played"), it.content


async def test_turn_timer_reminders_deadline_and_dm(fake: FakeDiscord, bot_process, clock) -> None:
    """A 1 h timer: the deadline in the game message, reminders at 30 and 54 minutes that
    mention the player, then the turn ends as it is (in setup the autopilot places) exactly
    once; the next player is mentioned and, having opted in, gets a DM with a jump link once
    the turn has waited for him five minutes (issue 44); a turn he plays at once gets none."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("slow")
    it = await answered(await fake.slash(bob, "ps notify", options={"mode": "on"}, channel_id=chan))
    assert it.ephemeral and it.content == ct.NOTIFY_ON
    msg = await two_player_game(fake, chan, alice, bob, turn_timer="1h")
    deadline = T0 + HOUR
    assert msg.content == f"{mention(alice)}, it is your turn."
    assert rel(deadline) in timer_field(msg) and "the turn ends as it is" in timer_field(msg)
    assert pending(bot, dms=True) == {
        "turn-dm": T0 + TURN_DM_AFTER,
        "deadline": deadline,
        "reminder-50": T0 + HOUR / 2,
        "reminder-90": T0 + 0.9 * HOUR,
    }

    # 30 minutes: the first reminder, in the channel, mentioning Alice, with a jump link.
    clock.advance(HOUR / 2, bot)
    reminder = await fake.wait_for_message(chan, lambda m: m.content.startswith(HOURGLASS))
    assert mention(alice) in reminder.content and rel(deadline) in reminder.content
    link = f"https://discord.com/channels/{fake.guild_id}/{msg.channel_id}/{msg.id}"
    assert link in reminder.content
    clock.advance(0.4 * HOUR, bot)
    await fake.wait_until(
        lambda: len([m for m in in_threads(fake, chan) if m.content.startswith(HOURGLASS)]) == 2,
        10,
        "the second reminder",
    )
    reminders = [m for m in in_threads(fake, chan) if m.content.startswith(HOURGLASS)]
    assert len(reminders) == 2 and fake.dms(alice) == []  # Alice did not ask for DMs

    # The hour is up: setup has no "end", so the autopilot places Alice's tree; Bob's turn.
    clock.advance(0.1 * HOUR, bot)
    bob_msg = await next_game_message(fake, chan, msg)
    assert bob_msg.content == f"{mention(bob)}, it is your turn."
    ((ply, notation, seat, user),) = action_rows(bot)
    assert (seat, user) == (0, AUTOPILOT) and notation.startswith("place ")
    assert in_threads(fake, chan)[-2].content == ct.TIMED_OUT_ENDED.format(
        player=mention(alice), notation=notation
    )
    assert rel(T0 + 2 * HOUR) in timer_field(bob_msg)
    await wait_db(lambda: pending(bot, dms=True).get("turn-dm") == T0 + HOUR + TURN_DM_AFTER)
    assert fake.dms(bob) == []  # not yet: the turn has not waited for him
    clock.advance(TURN_DM_AFTER, bot)
    dm = await fake.wait_for_dm(bob)
    assert (
        f"https://discord.com/channels/{fake.guild_id}/{bob_msg.channel_id}/{bob_msg.id}"
        in dm.content
    )
    assert rel(T0 + 2 * HOUR) in dm.content
    await wait_db(lambda: len(finished(bot, dms=True)) == 5)
    assert sorted(finished(bot, dms=True)) == [
        ("deadline", f"ended: {notation}"),
        ("reminder-50", "sent"),
        ("reminder-90", "sent"),
        ("turn-dm", "off"),  # Alice's: she asked for no DMs
        ("turn-dm", "sent"),
    ]

    # Bob plays in time: his turn's jobs are void when their time comes; Alice's turn is timed.
    await play(fake, bob, chan, "place G1")
    alice_msg = await next_game_message(fake, chan, bob_msg)
    assert rel(T0 + 2 * HOUR + TURN_DM_AFTER) in timer_field(alice_msg)  # her clock: from now
    # Alice places; Bob's next turn comes, he plays it at once: its DM is gone with it.
    await play(fake, alice, chan, "place D7")
    bob_msg = await next_game_message(fake, chan, alice_msg)
    await play(fake, bob, chan, "place G4")
    await next_game_message(fake, chan, bob_msg)
    clock.advance(TURN_DM_AFTER, bot)  # Alice's first turn in play has waited for her
    await wait_db(lambda: finished(bot, dms=True).count(("turn-dm", "off")) == 2)
    assert len(fake.dms(bob)) == 1  # a DM only when a turn of Bob's waited for him
    assert [r[1] for r in action_rows(bot)][1] == "place G1"
    assert fake.late_interactions == []


async def test_settings_autopilot_and_games_list(fake: FakeDiscord, bot_process, clock) -> None:
    """The host sets a 12 h timer with the autopilot in the lobby; when Alice's time runs out in
    the first round, the autopilot plays her whole turn under the rules (logged as the
    autopilot). `/ps games` lists each player's games with whose turn it is and links."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan, other = fake.add_channel("slow"), fake.add_channel("other")
    lobby = await new_lobby(fake, alice, chan)
    await click(fake, bob, lobby, "Join")
    await refused(
        await fake.slash(bob, "ps settings", options={"turn_timer": "1h"}, channel_id=chan),
        refusals.HOST_ONLY_SETTINGS.format(host=mention(alice)),
    )
    it = await answered(
        await fake.slash(
            alice,
            "ps settings",
            options={"turn_timer": "12h", "on_timeout": "autopilot"},
            channel_id=chan,
        )
    )
    assert it.ephemeral and "**12 hours**" in it.content  # a lobby: told in its message
    await fake.wait_until(
        lambda: "turn timer 12 h, then the autopilot" in field(lobby, "Options"), 10, "lobby"
    )
    it = await answered(await fake.slash(bob, "ps settings", channel_id=chan))
    assert it.ephemeral and it.content == ct.settings_line(
        {"turn_timer": 12, "on_timeout": "autopilot", "on_leave": "autopilot"}
    )
    await click(fake, alice, lobby, "Start")
    msg = await fake.wait_for_message(chan, is_game_message())
    for user, space in ((alice, "A1"), (bob, "G1"), (alice, "D7"), (bob, "G4")):
        await play(fake, user, chan, f"place {space}")
        msg = await next_game_message(fake, chan, msg)
    assert msg.embeds[0]["description"].startswith("Round 1") and timer_field(msg)

    # A second game, in another channel, where Bob hosts without a timer.
    lobby2 = await new_lobby(fake, bob, other)
    await click(fake, alice, lobby2, "Join")
    await click(fake, bob, lobby2, "Start")
    msg2 = await fake.wait_for_message(other, is_game_message())
    it = await answered(await fake.slash(alice, "ps games", channel_id=chan))
    assert it.ephemeral
    lines = it.embeds[0]["description"].splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"**#1** in <#{chan}>: **your turn**, ends ")
    assert lines[0].endswith(
        f"https://discord.com/channels/{fake.guild_id}/{msg.channel_id}/{msg.id}"
    )
    assert lines[1].startswith(f"**#2** in <#{other}>: {mention(bob)} to play \N{EM DASH}")
    assert lines[1].endswith(f"/{msg2.channel_id}/{msg2.id}")
    carol = fake.add_user("carol")
    await refused(await fake.slash(carol, "ps games", channel_id=chan), ct.NO_GAMES)

    # 12 hours later the autopilot plays Alice's turn, to its "end".
    before = len(action_rows(bot))
    clock.advance(12 * HOUR, bot)
    bob_msg = await next_game_message(fake, chan, msg)
    assert bob_msg.content == f"{mention(bob)}, it is your turn."
    played = action_rows(bot)[before:]
    assert played[-1][1] == "end" and {(r[2], r[3]) for r in played} == {(0, AUTOPILOT)}
    notations = "; ".join(r[1] for r in played)
    timed_out = ct.TIMED_OUT_AUTOPILOT.format(player=mention(alice), notation=notations)
    assert any(m.content == timed_out for m in in_threads(fake, chan))
    await wait_db(lambda: ("deadline", f"autopilot: {notations}") in finished(bot))
    assert sorted(finished(bot))[1:] == [("reminder-50", "moot"), ("reminder-90", "moot")]
    told = field(bob_msg, "Since Bob's last turn").splitlines()
    assert told[-1].startswith("\N{LARGE ORANGE CIRCLE} Alice (autopilot): ")
    assert "`" not in told[-1]  # its moves in words, not notation

    # During the game the host switches to a 1 h timer that ends the turn: Bob's clock restarts
    # now, the game message shows the new deadline; when it passes, Bob's turn just ends (and
    # with it round 1: round 2 starts with Bob, the new first player).
    it = await answered(
        await fake.slash(
            alice,
            "ps settings",
            options={"turn_timer": "1h", "on_timeout": "end turn"},
            channel_id=chan,
        )
    )
    assert it.ephemeral and "**1 hour**" in it.content
    # Told in the game's thread too, never in the channel (issue 44): the channel holds only
    # the lobby message.
    told = await fake.wait_for_message(chan, lambda m: m.content == it.content)
    assert told.channel_id == fake.threads_of(chan)[0] and not told.embeds
    assert [m.id for m in fake.messages(chan)] == [lobby.id]
    new_deadline = clock.now + HOUR
    await fake.wait_until(
        lambda: rel(new_deadline) in (timer_field(bob_msg) or ""), 10, "the new deadline"
    )
    clock.advance(HOUR, bot)
    round2 = await next_game_message(fake, chan, bob_msg)
    assert round2.embeds[0]["description"].startswith("Round 2")
    assert action_rows(bot)[-1][1:] == ("end", 1, AUTOPILOT)
    assert rel(clock.now + HOUR) in timer_field(round2)
    assert fake.late_interactions == []


async def test_leaving_and_vacation(fake: FakeDiscord, bot_process, clock) -> None:
    """Bob goes on vacation during his turn: nothing fires while he is away, and his deadline
    moves by exactly the time away. Alice leaves: the autopilot plays her seat at once. In a
    game whose host chose "end game", leaving ends the game."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("slow")
    msg = await two_player_game(fake, chan, alice, bob, turn_timer="24h")
    await play(fake, alice, chan, "place A1")
    bob_msg = await next_game_message(fake, chan, msg)
    assert rel(T0 + 24 * HOUR) in timer_field(bob_msg)

    clock.advance(HOUR, bot)
    it = await answered(
        await fake.slash(bob, "ps vacation", options={"mode": "on"}, channel_id=chan)
    )
    assert it.ephemeral and it.content == ct.VACATION_ON.format(games="1 turn")
    await fake.wait_until(
        lambda: timer_field(bob_msg) == ct.TIMER_PAUSED.format(player=mention(bob)), 10, "paused"
    )
    assert pending(bot) == {}
    clock.advance(48 * HOUR, bot)  # away for two days: no job is due, nothing fires
    it = await answered(
        await fake.slash(bob, "ps vacation", options={"mode": "on"}, channel_id=chan)
    )
    assert it.content == ct.VACATION_ALREADY_ON
    it = await answered(
        await fake.slash(bob, "ps vacation", options={"mode": "off"}, channel_id=chan)
    )
    assert it.content == ct.VACATION_OFF
    deadline = T0 + 24 * HOUR + 48 * HOUR
    assert pending(bot)["deadline"] == deadline
    await fake.wait_until(lambda: rel(deadline) in (timer_field(bob_msg) or ""), 10, "resumed")
    assert [r[1] for r in action_rows(bot)] == ["place A1"]
    assert ("reminder-50", "sent") not in finished(bot)[1:]

    # Alice, the host, leaves (the default: the autopilot takes her seat; her host powers
    # pass to the next person seated, Bob); Bob places; the autopilot places for her seat at
    # once, through the scheduler.
    it = await answered(await fake.slash(alice, "ps leave", channel_id=chan))
    left = ct.LEFT_AUTOPILOT + " " + ct.NEW_HOST.format(host=mention(bob))
    assert it.ephemeral and it.content == left.format(user=mention(alice))
    told = await fake.wait_for_message(chan, lambda m: m.content == it.content)
    assert told.channel_id == fake.threads_of(chan)[0]  # said in the game's thread too
    assert seat_rows(bot)[0] == (0, "human", None)
    assert db_rows(bot, "SELECT host_id FROM games WHERE id = 1") == [(int(bob["id"]),)]
    await play(fake, bob, chan, "place G1")
    bob_again = await next_game_message(
        fake, chan, bob_msg, lambda m: m.content == f"{mention(bob)}, it is your turn."
    )
    rows = action_rows(bot)
    assert rows[2][2:] == (0, AUTOPILOT) and rows[2][1].startswith("place ")
    assert "Alice (autopilot) (orange)" in field(bob_again, "Seats")
    await refused(
        await fake.slash(alice, "ps play", options={"action": "end"}, channel_id=chan),
        "You are not playing in this game.",
    )
    await refused(
        await fake.slash(alice, "ps settings", options={"turn_timer": "1h"}, channel_id=chan),
        refusals.HOST_ONLY_SETTINGS.format(host=mention(bob)),
    )

    # Another game where the host chose that leaving ends the game.
    chan2 = fake.add_channel("strict")
    await two_player_game(fake, chan2, alice, bob, on_leave="end game")
    it = await answered(await fake.slash(bob, "ps leave", channel_id=chan2))
    assert it.ephemeral and it.content == ct.LEFT_ENDED.format(user=mention(bob))
    told = await fake.wait_for_message(chan2, lambda m: m.content == it.content)
    assert told.channel_id == fake.threads_of(chan2)[0]
    assert len(fake.messages(chan)) == len(fake.messages(chan2)) == 1  # their lobby messages
    assert game_rows(bot)[1][1] == "abandoned"

    # In a lobby, /ps leave gives up the seat like the Leave button.
    chan3 = fake.add_channel("lobby")
    lobby = await new_lobby(fake, alice, chan3)
    await click(fake, bob, lobby, "Join")
    it = await answered(await fake.slash(bob, "ps leave", channel_id=chan3))
    assert it.ephemeral and it.content == ct.LEFT_LOBBY
    await fake.wait_until(lambda: field(lobby, "Seats") == f"1. {mention(alice)}", 10, "lobby")
    assert fake.late_interactions == []


async def test_a_deadline_across_a_restart_fires_once(
    fake: FakeDiscord, bot_process, clock
) -> None:
    """The bot is killed; the clock passes the deadline (and both reminders) while it is down;
    on restart the deadline fires exactly once and the moot reminders are not sent. Another
    restart fires nothing again."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("slow")
    msg = await two_player_game(fake, chan, alice, bob, turn_timer="1h")
    bot.kill()
    await bot.wait_exit()
    clock.advance(3 * HOUR)
    await bot.restart()
    await fake.wait_ready(timeout=30)
    bob_msg = await next_game_message(fake, chan, msg, lambda m: mention(bob) in m.content)
    assert [(r[2], r[3]) for r in action_rows(bot)] == [(0, AUTOPILOT)]
    await wait_db(lambda: len(finished(bot)) == 3)
    assert sorted(finished(bot)) == [
        ("deadline", f"ended: {action_rows(bot)[0][1]}"),
        ("reminder-50", "moot"),
        ("reminder-90", "moot"),
    ]
    assert not any(m.content.startswith(HOURGLASS) for m in in_threads(fake, chan))
    # Bob's turn started at the restart's catch-up (T0 + 3 h).
    assert rel(T0 + 4 * HOUR) in timer_field(bob_msg)

    await bot.restart()
    await fake.wait_ready(timeout=30)
    await wait_db(lambda: "scheduler started" in bot.output().split("start #3")[-1])
    clock.advance(HOUR, bot)  # Bob's deadline: fires once; Alice's old deadline stays fired
    await next_game_message(fake, chan, bob_msg, lambda m: mention(alice) in m.content)
    assert [(r[2], r[3]) for r in action_rows(bot)] == [(0, AUTOPILOT), (1, AUTOPILOT)]
    kinds = [k for k, _, fired, _ in jobs(bot) if fired is not None and k == "deadline"]
    assert len(kinds) == 2
    assert len([m for m in in_threads(fake, chan) if m.content.startswith(ALARM)]) == 2
    unfinished = "SELECT COUNT(*) FROM timer_jobs WHERE outcome IS NULL AND fired_at IS NOT NULL"
    await wait_db(lambda: db_rows(bot, unfinished) == [(0,)])


async def test_a_reminder_and_a_timeout_notice_survive_a_crash(
    fake: FakeDiscord, bot_process, clock, tmp_path
) -> None:
    """The bot dies after claiming a reminder and before sending it: at the next start the
    reminder is sent (its turn is still on, its deadline ahead). It dies after a deadline
    played its turn and before the "Time ran out" notice went out: at the next start the
    notice is posted, once; and not again if it dies between posting it and recording it."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("slow")
    msg = await two_player_game(fake, chan, alice, bob, turn_timer="1h")
    bot.kill()
    await bot.wait_exit()
    # The reminder was claimed at 30 minutes, then the process died.
    clock.advance(HOUR / 2)
    claim = "UPDATE timer_jobs SET fired_at = ? WHERE kind = ? AND game_id = 1"
    write_db(bot, claim, (clock.now, "reminder-50"))
    clock.advance(HOUR / 10)
    await bot.restart()
    await fake.wait_ready(timeout=30)
    reminder = await fake.wait_for_message(chan, lambda m: m.content.startswith(HOURGLASS))
    assert mention(alice) in reminder.content and rel(T0 + HOUR) in reminder.content
    await wait_db(lambda: ("reminder-50", "sent") in finished(bot))

    # The deadline played Alice's turn (committed), and the process died before the notice.
    bot.kill()
    await bot.wait_exit()
    clock.advance(0.4 * HOUR)
    storage = await SQLiteStorage.open(str(bot.database_path))
    try:
        games = GameService(storage)
        (turn,) = {job.turn for job in await JobStore(storage).jobs(1)}
        result = await games.bots.play_automatically(1, turn, autopilot=False)
        assert result is not None
    finally:
        await storage.close()
    (notation,) = result.notations
    pending_notice = f"{PENDING}ended: {notation}"
    write_db(
        bot,
        "UPDATE timer_jobs SET fired_at = ?, outcome = ? WHERE kind = 'deadline' AND game_id = 1",
        (clock.now, pending_notice),
    )
    write_db(bot, "UPDATE timer_jobs SET fired_at = ?, outcome = 'moot' WHERE fired_at IS NULL",
             (clock.now,))  # fmt: skip
    await bot.restart()
    await fake.wait_ready(timeout=30)
    timed_out = ct.TIMED_OUT_ENDED.format(player=mention(alice), notation=notation)
    await fake.wait_for_message(chan, notice(timed_out))
    await next_game_message(fake, chan, msg, lambda m: mention(bob) in m.content)
    await wait_db(lambda: ("deadline", f"ended: {notation}") in finished(bot))
    assert [m.content for m in in_threads(fake, chan)].count(timed_out) == 1
    assert [(r[2], r[3]) for r in action_rows(bot)] == [(0, AUTOPILOT)]

    # Issue 13, item 4: it dies right after posting the notice, before recording it (the
    # outcome still says pending): at the next start the notice is not posted again.
    bot.kill()
    await bot.wait_exit()
    write_db(
        bot,
        "UPDATE timer_jobs SET outcome = ? WHERE kind = 'deadline' AND game_id = 1",
        (pending_notice,),
    )
    await bot.restart()
    await fake.wait_ready(timeout=30)
    await wait_db(lambda: ("deadline", f"ended: {notation}") in finished(bot))
    assert [m.content for m in in_threads(fake, chan)].count(timed_out) == 1
    assert len([m for m in in_threads(fake, chan) if m.content.startswith(HOURGLASS)]) == 1


@pytest.mark.long
async def test_alike_timeout_notices_are_each_posted_once_across_a_crash(
    fake: FakeDiscord, bot_process, clock
) -> None:
    """Issue 48, defect 2: Alice's turn times out twice with nothing played, so both "Time
    ran out" notices read the same (the turn ended (`end`)). The process dies after the second
    deadline's turn and pending notice were committed, before the notice was posted: at the
    next start it is posted (the first one, alike, in the thread is not taken for it). It dies
    again after posting it and before recording it: it is not posted a second time. Both
    notices are in the thread exactly once."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("slow")
    msg = await two_player_game(fake, chan, alice, bob, turn_timer="1h")
    ended = ct.TIMED_OUT_ENDED.format(player=mention(alice), notation="end")

    def ended_notices() -> int:
        return [m.content for m in in_threads(fake, chan)].count(ended)

    # Every turn times out (the autopilot places in setup; in play the turn ends as it is)
    # until Alice's turn has ended once with nothing played and it is her turn again.
    for _ in range(12):
        if ended_notices() == 1 and msg.content.startswith(mention(alice)):
            break
        clock.advance(HOUR, bot)
        msg = await next_game_message(fake, chan, msg)
    assert ended_notices() == 1 and msg.content.startswith(mention(alice))

    # Alice's deadline comes: its turn and pending notice are committed, then the process dies.
    bot.kill()
    await bot.wait_exit()
    clock.advance(HOUR)
    storage = await SQLiteStorage.open(str(bot.database_path))
    try:
        games = GameService(storage)
        due = [j for j in await JobStore(storage).jobs(1) if j.fired_at is None]
        (turn,) = {j.turn for j in due if j.kind == "deadline"}
        result = await games.bots.play_automatically(1, turn, autopilot=False)
        assert result is not None and result.notations == ["end"]
    finally:
        await storage.close()
    pending_notice = f"{PENDING}ended: end"
    outcome = "SELECT outcome FROM timer_jobs WHERE kind = 'deadline' AND turn = ?"
    write_db(
        bot,
        "UPDATE timer_jobs SET fired_at = ?, outcome = ? WHERE kind = 'deadline' AND turn = ?",
        (clock.now, pending_notice, turn),
    )
    write_db(bot, "UPDATE timer_jobs SET fired_at = ?, outcome = 'moot' WHERE fired_at IS NULL",
             (clock.now,))  # fmt: skip
    await bot.restart()
    await fake.wait_ready(timeout=30)
    await wait_db(lambda: db_rows(bot, outcome, (turn,)) == [("ended: end",)])
    assert ended_notices() == 2

    # It dies right after posting that notice, before recording it: not posted again.
    bot.kill()
    await bot.wait_exit()
    write_db(
        bot,
        "UPDATE timer_jobs SET outcome = ? WHERE kind = 'deadline' AND turn = ?",
        (pending_notice, turn),
    )
    await bot.restart()
    await fake.wait_ready(timeout=30)
    await wait_db(lambda: db_rows(bot, outcome, (turn,)) == [("ended: end",)])
    assert ended_notices() == 2
    # One notice for each deadline that ended a turn, no more.
    notices = [m for m in in_threads(fake, chan) if m.content.startswith(ALARM)]
    ended_turns = [o for k, o in finished(bot) if k == "deadline" and o.startswith("ended: ")]
    assert len(notices) == len(ended_turns) == 8  # 4 in setup, then 2 of Alice's, 2 of Bob's


async def test_a_timeout_after_a_crash_at_the_start_is_told_in_the_games_thread(
    fake: FakeDiscord, bot_process, clock
) -> None:
    """The bot dies right after Start is answered, before the game's thread and message are
    made (Discord fails the thread's creation meanwhile), and stays down past a 1 h turn timer:
    at the next start the "Time ran out" notice goes to the game's thread once it can be made,
    never to the channel, which keeps only the lobby."""
    bot = await bot_process(env=clock.env)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("slow")
    lobby = await new_lobby(fake, alice, chan, turn_timer="1h")
    await click(fake, bob, lobby, "Join")
    threads = f"/channels/{chan}/messages/{lobby.id}/threads"
    outage = fake.schedule_rest_outage(500, 600, prefix=threads)
    await click(fake, alice, lobby, "Start")
    await fake.wait_until(lambda: fake.limits.faults, 10, "the thread tried")
    bot.kill()  # before the thread, and so the game message, is made
    await bot.wait_exit()
    assert fake.threads_of(chan) == [] and [m.id for m in fake.messages(chan)] == [lobby.id]
    clock.advance(3 * HOUR)
    await bot.restart()
    await fake.wait_ready(timeout=30)
    fired = "SELECT COUNT(*) FROM timer_jobs WHERE kind = 'deadline' AND fired_at IS NOT NULL"
    await wait_db(lambda: db_rows(bot, fired) == [(1,)])
    # Discord is back once the thread was tried after the deadline fired (a failed try waits
    # a second before the next): meanwhile the notice learned where to go.
    tried = len(fake.limits.faults)
    await fake.wait_until(lambda: len(fake.limits.faults) > tried, 30, "the thread tried")
    outage.end = fake.clock()
    said = f"{ALARM} Time ran out for {mention(alice)}: the turn ended"
    await fake.wait_until(
        lambda: any(m.content.startswith(said) for m in in_threads(fake, chan)), 30, "the notice"
    )
    assert [(r[2], r[3]) for r in action_rows(bot)] == [(0, AUTOPILOT)]
    assert [m.id for m in fake.messages(chan)] == [lobby.id]
    assert fake.late_interactions == []


async def test_a_turn_timed_out_for_another_shard_is_redrawn_after_the_process_dies(
    fake: FakeDiscord, bot_process, clock
) -> None:
    """Issue 56: a process fires the deadline of a game of another shard (through REST) and
    dies after the "Time ran out" notice, before the game message showing the turn lands: the
    job is recorded only once it has landed, so the restarted process hands it out again and
    redraws the message within seconds (its start-up redraw leaves other shards' games alone,
    and the other shard's process never learned of the turn); the notice is posted once."""
    home = shard_of(fake.guild_id, 2)
    other = fake.add_guild("Second", shard=(1 - home, 2))
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(user, other)
    chan = fake.add_channel("elsewhere", guild_id=other)
    env = {**clock.env, "SHARD_COUNT": "2", "DEV_GUILD_ID": ""}
    bot = await bot_process(env=env)  # both shards: the game is made through Discord
    msg = await two_player_game(fake, chan, alice, bob, turn_timer="1h")
    (thread,) = fake.threads_of(chan)
    bot.extra_env["SHARD_IDS"] = str(home)  # from now on the other guild is another's shard
    await bot.restart()
    await bot.wait_ready(timeout=60)
    assert fake.live_shards() == {(home, 2)}

    # Alice's deadline fires here; the game message's post fails until the process is killed.
    said = f"{ALARM} Time ran out for {mention(alice)}"

    def notices() -> int:
        return len([m for m in in_threads(fake, chan) if m.content.startswith(said)])

    clock.advance(HOUR, bot)
    await fake.wait_until(lambda: notices() == 1, 30, "the notice")
    outage = fake.schedule_rest_outage(500, 600, prefix=f"/channels/{thread}/messages")
    await fake.wait_until(lambda: fake.limits.faults, 30, "the game message tried")
    bot.kill()
    await bot.wait_exit()
    outage.end = fake.clock()
    assert [m.id for m in fake.messages(thread) if is_game_message()(m)] == [msg.id]

    await bot.restart()
    await bot.wait_ready(timeout=60)
    await next_game_message(fake, chan, msg, lambda m: mention(bob) in m.content)
    await wait_db(lambda: [o for k, o in finished(bot) if k == "deadline"] != [], 10)
    assert notices() == 1
    assert [(r[2], r[3]) for r in action_rows(bot)] == [(0, AUTOPILOT)]
