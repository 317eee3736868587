"""Many correspondence games at once (20 in the default run, 500 behind `-m load`) in the loopback harness: every reminder and every deadline
fires exactly once through the bot's real scheduler, also when players act at the deadline.

The games (and their game messages) are created through the service layer on the bot's database
before the bot starts, so the test spends its time on the firing, which goes through the bot
process: the scheduler, the service path, the messages.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from bot.services.clock import FileClock
from bot.services.scheduler import PENDING
from tests.e2e.corr import HOUR, TestClock, create_timed_games, wait_db
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.helpers import db_rows

RACERS_SHARE = 20  # one game in 20 has its player play right as the deadline comes
HOURGLASS = "\N{HOURGLASS WITH FLOWING SAND}"
ALARM = "\N{ALARM CLOCK}"


def fired_deadlines(bot, now: float) -> Counter:
    """Outcomes (up to the colon) of the deadlines due by `now` that finished firing (their
    timeout notice posted)."""
    rows = db_rows(
        bot,
        "SELECT outcome FROM timer_jobs WHERE kind = 'deadline' AND due_at <= ?"
        " AND outcome IS NOT NULL AND substr(outcome, 1, ?) != ?",
        (now, len(PENDING), PENDING),
    )
    return Counter(o.split(":")[0] for (o,) in rows)


def outcomes(bot, kind: str) -> Counter:
    rows = db_rows(bot, "SELECT outcome FROM timer_jobs WHERE kind = ?", (kind,))
    return Counter((o or "").split(":")[0] for (o,) in rows)


@pytest.mark.parametrize(
    "games", [20, pytest.param(500, marks=[pytest.mark.load, pytest.mark.timeout(1800)])]
)
async def test_games_fire_every_deadline_once(
    fake: FakeDiscord, bot_process, tmp_path: Path, games: int
) -> None:
    GAMES, RACERS = games, max(1, games // RACERS_SHARE)
    clock = TestClock(tmp_path)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    channels = [fake.add_channel(f"game-{i}") for i in range(GAMES)]
    await create_timed_games(
        fake, tmp_path / "bot.db", FileClock(clock.path), channels, 1, alice, bob
    )
    bot = await bot_process(env=clock.env, timeout=60)
    # Each game's first turn: its deadline, two reminders and its DM (`bot.services.timers.TURN_DM`).
    assert db_rows(bot, "SELECT COUNT(*) FROM timer_jobs WHERE fired_at IS NULL") == [(4 * GAMES,)]

    # Half time, then 90 %: one reminder per game each time.
    clock.advance(HOUR / 2, bot)
    await wait_db(lambda: outcomes(bot, "reminder-50")["sent"] == GAMES, 120, "reminders")
    clock.advance(0.4 * HOUR, bot)
    await wait_db(lambda: outcomes(bot, "reminder-90")["sent"] == GAMES, 120, "reminders")

    # The deadline, while some players play at that very moment: one placement per game.
    racers = [
        fake.slash(alice, "ps play", options={"action": "place A1"}, channel_id=chan)
        for chan in channels[:RACERS]
    ]
    clock.advance(0.1 * HOUR, bot)
    interactions = await asyncio.gather(*racers)
    await asyncio.gather(*(it.wait_response(30) for it in interactions))
    await wait_db(lambda: sum(fired_deadlines(bot, clock.now).values()) == GAMES, 180, "deadlines")
    deadlines = fired_deadlines(bot, clock.now)
    assert deadlines["ended"] + deadlines["void"] == GAMES and deadlines["ended"] >= GAMES - RACERS

    # Each game: exactly one placement for Alice's seat, by her or by the autopilot, and now
    # Bob's turn with its own deadline; each channel: two reminders, one timeout notice at most.
    per_game = db_rows(
        bot, "SELECT game_id, COUNT(*), MIN(seat), MAX(seat) FROM actions GROUP BY game_id"
    )
    assert len(per_game) == GAMES and all(row[1:] == (1, 0, 0) for row in per_game)
    by_user = Counter(u for (u,) in db_rows(bot, "SELECT user_id FROM actions"))
    assert by_user[0] == deadlines["ended"] and by_user[0] + by_user[int(alice["id"])] == GAMES
    for chan in channels:
        texts = [m.content for m in fake.messages(chan)]
        assert sum(t.startswith(HOURGLASS) for t in texts) == 2
        assert sum(t.startswith(ALARM) for t in texts) <= 1
    alarms = sum(m.content.startswith(ALARM) for c in channels for m in fake.messages(c))
    assert alarms == deadlines["ended"]
    assert db_rows(bot, "SELECT COUNT(*) FROM turn_clocks WHERE seat = 1") == [(GAMES,)]
