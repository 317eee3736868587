"""Two bot processes, one per shard (SHARD_COUNT=2), on one PostgreSQL database and the
loopback fake: the guild's events reach only the process of its shard, `(guild_id >> 22) % 2`.
That process is SIGKILLed in the middle of two games and restarted, then killed again just as
the games' deadlines come due: the other process fires them (through REST). No action is lost
or applied twice, and each deadline fires once."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot import correspondence_texts as ct
from tests.e2e.corr import HOUR, TestClock
from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.e2e.test_correspondence import ALARM, AUTOPILOT, in_threads, two_player_game
from tests.e2e.test_game_restart import type_action
from tests.e2e.test_lobby import mention
from tests.pg_server import fresh_database

pytestmark = pytest.mark.postgres

LOG = "SELECT game_id, ply, notation, user_id FROM actions ORDER BY game_id, ply"


async def rows(url: str, sql: str) -> list[tuple]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def until(check, timeout: float) -> None:
    """Wait until the database read `check()` holds (re-read every 50 ms)."""

    async def loop() -> None:
        while not await check():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(loop(), timeout)


async def test_two_shards_one_killed_lose_nothing_and_fire_each_deadline_once(
    fake: FakeDiscord, postgres_server, tmp_path
) -> None:
    url = await fresh_database(postgres_server)
    clock = TestClock(tmp_path)
    home = (int(fake.guild_id) >> 22) % 2  # the shard the guild is on
    env = {**clock.env, "DATABASE_URL": url, "SHARD_COUNT": "2"}
    other = BotProcess(fake, tmp_path / "other", env={**env, "SHARD_IDS": str(1 - home)})
    main = BotProcess(fake, tmp_path / "main", env={**env, "SHARD_IDS": str(home)})
    try:
        await other.start()
        await fake.wait_until(
            lambda: fake.live_shards() == {(1 - home, 2)}, 60, "the other shard's READY"
        )
        await main.start()
        await fake.wait_ready(timeout=60)
        assert fake.live_shards() == {(0, 2), (1, 2)}

        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        chans = [fake.add_channel("one"), fake.add_channel("two")]
        for chan in chans:
            await two_player_game(fake, chan, alice, bob, turn_timer="1h")
            await type_action(fake, alice, chan, "place A1")
        main.kill()  # mid-game: Alice placed in both, Bob's turns are planned
        await main.wait_exit()
        await main.start()
        await fake.wait_ready(timeout=60)
        games = await rows(url, "SELECT id, status FROM games ORDER BY id")
        assert [g[1] for g in games] == ["active", "active"]
        alices = [(g, 1, "place A1", int(alice["id"])) for g, _ in games]
        assert await rows(url, LOG) == alices

        # The shard's process dies again; the deadlines come due: the other process fires them.
        main.kill()
        await main.wait_exit()
        clock.advance(2 * HOUR, other)
        done = (
            "SELECT game_id, outcome FROM timer_jobs WHERE kind = 'deadline'"
            " AND fired_at IS NOT NULL ORDER BY game_id"
        )

        async def fired() -> bool:
            found = await rows(url, done)
            return len(found) == 2 and all(o and o.startswith("ended: ") for _, o in found)

        await until(fired, 30)
        outcomes = await rows(url, done)
        logged = await rows(url, LOG)
        bobs = [row for row in logged if row[1] == 2]
        assert [row for row in logged if row[1] == 1] == alices  # nothing lost or repeated
        assert [(g, u) for g, _, _, u in bobs] == [
            (games[0][0], AUTOPILOT),
            (games[1][0], AUTOPILOT),
        ]
        assert outcomes == [(g, f"ended: {n}") for g, _, n, _ in bobs]
        for chan, (_, _, notation, _) in zip(chans, bobs, strict=True):
            timed_out = ct.TIMED_OUT_ENDED.format(player=mention(bob), notation=notation)
            await fake.wait_until(
                lambda chan=chan, t=timed_out: (
                    [m.content for m in in_threads(fake, chan)].count(t) == 1
                ),
                30,
                "the time-out notice",
            )
        # The shard's process comes back: nothing fires again, nothing is played again.
        await main.start()
        await fake.wait_ready(timeout=60)
        assert await rows(url, done) == outcomes
        assert await rows(url, LOG) == logged
        for chan in chans:
            notices = [m for m in in_threads(fake, chan) if m.content.startswith(ALARM)]
            assert len(notices) == 1
        # Alice's turns (the time-out ended Bob's) have their own deadline, an hour ahead.
        assert await rows(url, "SELECT status FROM games ORDER BY id") == [("active",)] * 2
        planned = "SELECT count(*) FROM timer_jobs WHERE kind = 'deadline' AND fired_at IS NULL"
        assert await rows(url, planned) == [(2,)]
    finally:
        for process in (main, other):
            await process.stop()
