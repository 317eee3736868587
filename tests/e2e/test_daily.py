"""`/ps daily` through the loopback Discord: a whole daily challenge played (the person's turns
chosen by the autopilot, every action sent through Discord: the panel's select and End turn,
and whole turns typed), the bot SIGKILLed in the middle and the attempt finished after the
restart; the result, the leaderboards and Share in four languages; yesterday's game replayed;
forged and replayed clicks of someone else's; nothing of the next day in any answer before it
comes; `/ps forget` and a hidden profile off the leaderboard. The days run on the test's
clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

import engine
from bot.present import daily_texts as dt
from bot.present import review_texts as rt
from bot.services.base import day_at
from bot.services.daily import NOT_YOURS
from engine.autopilot import autopilot_action
from tests.e2e.corr import TestClock, wait_db
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.gameplay import action_log, replay_log
from tests.e2e.helpers import (
    GLOBAL_COMMANDS,
    answered,
    assert_nothing_unreachable,
    bot_posts,
    crash_and_restart,
    db_rows,
    refused,
    user_only_server,
    write_db,
)
from translation import translate

#: The Expert at a hundredth of its budget (its review of the day's game is quick).
EXPERT_ENV = {"PS_EXPERT_BUDGET_SCALE": "0.01", "PS_REVIEW_NICE": "0", "EXPERT_WORKERS": "1"}
#: A Friday (the base game), an hour before its end.
FRIDAY = datetime(2026, 11, 27, 23, 0, tzinfo=UTC).timestamp()
DAY = day_at(FRIDAY)


def whole_turn(state: engine.GameState) -> list[str]:
    """The autopilot's whole turn from `state` (setup: one placement)."""
    turn, actions = engine.turn_id(state), []
    while not state.is_over and engine.turn_id(state) == turn:
        action = autopilot_action(state)
        actions.append(str(action))
        state = engine.apply(state, action)
    return actions


def attempt_of(bot, user: dict, day: int = DAY) -> tuple:
    (row,) = db_rows(
        bot,
        "SELECT game_id, margin, won, rounds FROM daily_results WHERE day = ? AND user_id = ?",
        (day, int(user["id"])),
    )
    return row


async def daily(fake: FakeDiscord, user: dict, chan: str, **options) -> FakeMessage:
    it = await answered(await fake.slash(user, "ps daily", options=options, channel_id=chan))
    assert it.ephemeral, it.content
    return it.response


def seen(message: FakeMessage) -> str:
    """Everything a reader reads of an answer."""
    return message.content + json.dumps(message.embeds) + json.dumps(message.components)


@pytest.mark.long
async def test_a_daily_played_killed_finished_shared_and_replayed(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    clock = TestClock(tmp_path, start=FRIDAY - 10 * 3600)
    bot = await bot_process(env={**clock.env, **EXPERT_ENV, **GLOBAL_COMMANDS})
    chan = fake.add_channel("daily")
    ann, eve = fake.add_user("ann", administrator=True), fake.add_user("eve")

    screen = await daily(fake, ann, chan)
    game_id, margin, _won, _rounds = attempt_of(bot, ann)
    assert margin is None
    assert translate(dt.DAILY_TITLE.format(day=DAY), "en") in screen.content
    assert screen.attachments and screen.attachments[0][0] == "daily.png"
    state = replay_log(bot, game_id)
    logged = len(action_log(bot, game_id))
    assert state.config.seats in (("human", "cynthia"), ("cynthia", "human"))
    assert not state.config.expansion  # a Friday: the base game

    # Someone else clicks the screen (a replayed interaction), or forges a component with
    # their own id on it: refused in one sentence, nothing played.
    select = screen.selects[0]
    first = select["options"][0]["value"]
    await refused(await fake.select(eve, screen, select, [first]), translate(NOT_YOURS, "en"))
    forged = select["custom_id"].replace(f":{ann['id']}:", f":{eve['id']}:")
    await refused(
        await fake.forged_component(eve, screen, forged, [first]),
        "That choice was not offered here: use the buttons, menus and options shown.",
    )
    assert len(action_log(bot, game_id)) == logged

    # Typed, the autocomplete offers the legal actions of the attempt (none to anyone else).
    offered = await fake.autocomplete(
        ann, "ps daily", focused="action", options={"action": "pla"}, channel_id=chan
    )
    legal = [str(a) for a in engine.legal_actions(state) if str(a).startswith("place")]
    assert [c["value"] for c in offered] == legal[:25]
    assert await fake.autocomplete(eve, "ps daily", focused="action", channel_id=chan) == []

    # The first placement with the panel's select: the screen is edited in place.
    it = await answered(await fake.select(ann, screen, select, [first]))
    assert it.response is screen and screen.content.startswith(f"You played `{first}`.")

    killed = False
    while True:
        state = replay_log(bot, game_id)
        if state.is_over:
            break
        turn = whole_turn(state)
        if state.round >= 9 and not killed:  # killed while a turn is sent, then restarted
            killed = True
            before = len(action_log(bot, game_id))
            await fake.slash(ann, "ps daily", options={"action": "; ".join(turn)}, channel_id=chan)
            await crash_and_restart(fake, bot)
            after = len(action_log(bot, game_id))
            assert after == before or after > before + len(turn) - 1  # all of it, or none
            again = await daily(fake, ann, chan)  # goes on where it stopped
            assert attempt_of(bot, ann)[0] == game_id
            assert translate(dt.DAILY_TITLE.format(day=DAY), "en") in again.content
            if turn[-1] == "end" and after == before:  # End turn clicked on the fresh panel
                for action in turn[:-1]:
                    again = await daily(fake, ann, chan, action=action)
                end = again.find_button(label="End turn")
                assert end["custom_id"].startswith(f"ps:dly:{game_id}:")
                it = await answered(await fake.click(ann, again, end))
                assert it.response is again
                assert again.content.startswith("You played `end`.")
            continue
        answer = await daily(fake, ann, chan, action="; ".join(turn))
        if replay_log(bot, game_id).is_over:
            final = answer
            break
        assert answer.content.startswith("You played `"), answer.content
    assert killed
    margin_floor = 200  # above any margin a game can end with

    # Two others did better: one hides their profile, the other is forgotten: neither is on
    # a leaderboard.
    carol = fake.add_user("carol")
    for user, better in ((eve, 50), (carol, 40)):
        write_db(
            bot,
            "INSERT INTO daily_results (day, user_id, game_id, guild_id, started_at,"
            " finished_at, margin, won, rounds) VALUES (?, ?, NULL, ?, ?, ?, ?, 1, '+')",
            (DAY, int(user["id"]), int(fake.guild_id), "2026-11-27T01:00:00+00:00",
             "2026-11-27T02:00:00+00:00", margin_floor + better),
        )  # fmt: skip
        for scope in (0, int(fake.guild_id)):  # counted as a finish counts it
            write_db(
                bot,
                "INSERT INTO daily_counts (day, scope, margin, players) VALUES (?, ?, ?, 1)",
                (DAY, scope, margin_floor + better),
            )
    await answered(await fake.slash(eve, "ps profile", options={"hide": True}, channel_id=chan))
    it = await answered(await fake.slash(carol, "ps forget", channel_id=chan))
    await answered(await fake.click(carol, it.response, it.response.find_button(label="Forget me")))

    # The result: kept once, unrated, on both leaderboards with the reader's rank.
    state = replay_log(bot, game_id)
    game_id, margin, won, rounds = attempt_of(bot, ann)
    person = state.config.seats.index("human")
    scores = engine.scores(state)
    assert margin == scores[person] - scores[1 - person] and len(rounds) == 18
    assert db_rows(bot, "SELECT COUNT(*) FROM ratings") == [(0,)]
    final = await daily(fake, ann, chan)
    assert dt.emoji_row(rounds) in final.content
    titles = [e["title"] for e in final.embeds]
    assert titles == [f"Daily #{DAY}: this server", f"Daily #{DAY}: all servers"]
    assert all("Your rank: 1 of 1." in e["description"] for e in final.embeds)
    assert [b["custom_id"] for b in final.buttons] == [f"ps:dday:{DAY}:{ann['id']}:share"]
    streak = translate(dt.streaks(1, int(won)), "en")
    assert streak in final.content
    profile = (await answered(await fake.slash(ann, "ps profile", channel_id=chan))).response
    daily_field = {"name": "Daily challenge", "value": streak, "inline": False}
    assert daily_field in profile.embeds[0]["fields"]

    # Share: the line in the channel, in the channel's (the server's) language.
    share = final.buttons[0]
    lines = set()
    for lang in ("fr", "he", "nl", "en"):
        await answered(
            await fake.slash(ann, "ps language", options={"server": lang}, channel_id=chan)
        )
        it = await answered(await fake.click(ann, final, share))
        assert it.ephemeral
        posted = fake.messages(chan)[-1]
        assert posted.content == translate(dt.share_line(DAY, margin, 1, rounds), lang)
        lines.add(posted.content)
    assert len(lines) == 4  # four languages, four lines
    shared = len(fake.messages(chan))
    await refused(await fake.click(eve, final, share), translate(NOT_YOURS, "en"))
    assert len(fake.messages(chan)) == shared

    # In a server where only Ann installed the app: her result, and Share is the
    # interaction's own public answer (the bot cannot post there).
    _guild, elsewhere = user_only_server(fake, ann)
    there = await daily(fake, ann, elsewhere)
    assert [e["title"] for e in there.embeds] == [f"Daily #{DAY}: all servers"]
    it = await answered(await fake.click(ann, there, there.find_button(label="Share")))
    assert not it.ephemeral
    assert it.response.content == translate(dt.share_line(DAY, margin, 1, rounds), "en")
    assert bot_posts(fake, elsewhere) == []
    assert_nothing_unreachable(fake)

    # Not replayable while its day lasts; the next day, yesterday's game is.
    await refused(
        await fake.slash(ann, "ps replay", options={"game": game_id}, channel_id=chan),
        "That game is a daily challenge: it is played with `/ps daily`, and can be replayed "
        "and reviewed once its day is over.",
    )
    clock.set(FRIDAY + 2 * 3600, bot)
    old = await daily(fake, ann, chan, yesterday=True)
    assert [b["custom_id"].rsplit(":", 1)[1] for b in old.buttons] == ["share", "replay", "review"]
    viewer = await answered(await fake.click(ann, old, old.find_button(label="Replay yesterday's")))
    assert viewer.ephemeral and viewer.response.embeds[0]["title"].endswith(f"#{game_id}")
    # The Expert's review: started by the first click, shown privately by a later one (a daily
    # challenge has no thread to post it in).
    review = old.find_button(label="Review yesterday's")
    it = await answered(await fake.click(ann, old, review))
    assert it.ephemeral and it.content == translate(rt.DAILY_REVIEW_STARTED, "en")
    done = "SELECT status FROM reviews WHERE game_id = ?"
    await wait_db(lambda: db_rows(bot, done, (game_id,)) == [("posted",)], 120, "the review")
    shown = await answered(await fake.click(ann, old, review))
    (person,) = await shown.wait_followups(1, timeout=40)  # the chart, then the person's
    first = shown.response
    assert (
        person.ephemeral
        and first.ephemeral
        and first.embeds[0]["title"] == translate(rt.REVIEW_TITLE.format(id=game_id), "en")
    )
    assert all(m.channel_id == chan for m in fake.messages(chan))  # nothing posted elsewhere
    today = await daily(fake, ann, chan)  # Saturday's challenge: a new game, the expansion
    assert attempt_of(bot, ann, DAY + 1)[0] not in (None, game_id)
    assert translate(dt.DAILY_TITLE.format(day=DAY + 1), "en") in today.content


@pytest.mark.long
async def test_nothing_of_tomorrow_before_it_comes_forget_and_hidden_players(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    clock = TestClock(tmp_path, start=FRIDAY)
    bot = await bot_process(env={**clock.env, **GLOBAL_COMMANDS})
    # The deployment made its secret at its first start, before anyone asked for a daily.
    ((made,),) = db_rows(bot, "SELECT value FROM bot_secrets")
    chan = fake.add_channel("daily")
    ann, bob = fake.add_user("ann"), fake.add_user("bob")

    # Every view a player can ask for on Friday.
    views: list[FakeMessage] = [await daily(fake, ann, chan)]
    for command, options in [
        ("ps help", {}),
        ("ps profile", {}),
        ("ps leaderboard", {}),
        ("ps status", {}),
        ("ps rules", {"topic": "moonlight"}),
    ]:
        views.append(
            (await answered(await fake.slash(ann, command, options, channel_id=chan))).response
        )
    friday_game = attempt_of(bot, ann)[0]
    state = replay_log(bot, friday_game)
    views.append(await daily(fake, ann, chan, action="; ".join(whole_turn(state))))
    views.append(await daily(fake, ann, chan))

    # Saturday comes: its game, the same for everyone, was in none of them. Bob plays in a
    # DM with the bot: privately, on the leaderboard of every server only.
    clock.set(FRIDAY + 2 * 3600, bot)
    fake.install_for_user(bob)
    saturday = await daily(fake, bob, fake.bot_dm(bob))
    (sat_game, seed, config), *_ = db_rows(
        bot,
        "SELECT g.id, g.seed, g.config FROM games g JOIN daily_results d ON d.game_id = g.id"
        " WHERE d.day = ?",
        (DAY + 1,),
    )
    assert json.loads(config)["moon_animals"] or json.loads(config)["elder_tree"]
    ((secret,),) = db_rows(bot, "SELECT value FROM bot_secrets")
    assert secret == made
    before = [seen(v) for v in views]
    pictures = {png for v in views for _name, png in v.attachments}
    assert all(str(seed) not in text and secret not in text for text in before)
    assert all(png not in pictures for _name, png in saturday.attachments)
    assert "Under the Moonlight" not in before[0]
    assert secret not in Path(bot.log_path).read_text()
    assert secret not in seen(saturday)
    # Friday's attempt is still Ann's to finish (within its 24 hours); Bob's is Saturday's.
    assert attempt_of(bot, bob, DAY + 1)[0] == sat_game
    guild_of = "SELECT guild_id FROM daily_results WHERE user_id = ?"
    assert db_rows(bot, guild_of, (int(bob["id"]),)) == [(None,)]
    resumed = await daily(fake, ann, chan)
    assert attempt_of(bot, ann)[0] == friday_game
    assert translate(dt.YESTERDAYS.format(day=DAY, deadline="x"), "en").split(" before")[0] in (
        resumed.content
    )

    # /ps forget: the daily rows go, the attempt being played ends.
    it = await answered(await fake.slash(ann, "ps forget", channel_id=chan))
    forget = it.response.find_button(label="Forget me")
    done = await answered(await fake.click(ann, it.response, forget))
    assert done.response.content.startswith("Done")
    mine = "SELECT COUNT(*) FROM daily_results WHERE user_id = ?"
    assert db_rows(bot, mine, (int(ann["id"]),)) == [(0,)]
    ((status,),) = db_rows(bot, "SELECT status FROM games WHERE id = ?", (friday_game,))
    assert status == "abandoned"
