"""Two bot processes, one per shard (SHARD_COUNT=2, SHARD_IDS 0 and 1), on one PostgreSQL
database and the loopback fake with a guild on each shard: each guild's events reach only the
process of its shard, `(guild_id >> 22) % 2`. Games are played in both guilds at once; shard 0's
process is SIGKILLed in the middle of an action and restarted while shard 1's game goes on; then
shard 1's process dies just before the games' deadlines come due, and shard 0's fires both (the
other guild's through REST). Checked against the database: every action confirmed to a player is
in the actions table once, nothing else is but the autopilot's time-outs, and each deadline fired
once (once more after the dead process is back)."""

from __future__ import annotations

import asyncio
import inspect

import asyncpg
import pytest

from bot.present import correspondence_texts as ct
from tests.e2e.corr import ALARM, AUTOPILOT, HOUR, TestClock, in_threads, two_player_game
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage, shard_of
from tests.e2e.gameplay import next_turn, turn_owner, type_action
from tests.e2e.helpers import mention
from tests.pg_server import fresh_database

pytestmark = pytest.mark.postgres

LOG = "SELECT notation, user_id FROM actions WHERE game_id = $1 ORDER BY ply"
FIRED = (
    "SELECT game_id, outcome FROM timer_jobs WHERE kind = 'deadline' AND fired_at IS NOT NULL"
    " ORDER BY game_id, id"
)
PLANNED = (
    "SELECT game_id, count(*) FROM timer_jobs WHERE kind = 'deadline' AND fired_at IS NULL"
    " GROUP BY game_id ORDER BY game_id"
)


async def rows(url: str, sql: str, *args: object) -> list[tuple]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def until(check, timeout: float) -> None:
    """Wait until `check()` (a database read, or a look at the processes) holds (re-checked
    every 50 ms)."""

    async def loop() -> None:
        while True:
            found = check()
            if inspect.isawaitable(found):
                found = await found
            if found:
                return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(loop(), timeout)


class Table:
    """A game in a channel of one guild, and every action confirmed to its players."""

    def __init__(self, fake: FakeDiscord, guild_id: str, name: str) -> None:
        self.fake, self.guild_id = fake, guild_id
        self.chan = fake.add_channel(name, guild_id=guild_id)
        self.game_id = 0
        self.shown: FakeMessage | None = None  # the last game message a turn was read from
        #: (notation, user id) of each action in the order it was applied: the players' own,
        #: each confirmed to them ("You played ..."), and the autopilot's at a deadline.
        self.log: list[tuple[str, int]] = []

    async def play(self, user: dict, action: str) -> None:
        await type_action(self.fake, user, self.chan, action)  # "You played `action`"
        self.log.append((action, int(user["id"])))

    async def next_player(self) -> str:
        """The user id the next game message asks to play (each turn gets a new message)."""
        self.shown = await next_turn(self.fake, self.chan, self.shown, timeout=30)
        return turn_owner(self.shown)


@pytest.mark.long
async def test_two_shards_play_in_both_guilds_one_killed_lose_nothing_fire_deadlines_once(
    fake: FakeDiscord, postgres_server, tmp_path
) -> None:
    url = await fresh_database(postgres_server)
    clock = TestClock(tmp_path)
    home = shard_of(fake.guild_id, 2)
    guilds = {home: fake.guild_id, 1 - home: fake.add_guild("Second", shard=(1 - home, 2))}
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(user, guilds[1 - home])
    tables = [Table(fake, guilds[k], f"shard-{k}") for k in (0, 1)]
    # Commands synced globally (DEV_GUILD_ID empty): both guilds have them.
    env = {**clock.env, "DATABASE_URL": url, "SHARD_COUNT": "2", "DEV_GUILD_ID": ""}
    bots = [
        BotProcess(fake, tmp_path / f"bot{k}", env={**env, "SHARD_IDS": str(k)}) for k in (0, 1)
    ]

    async def begin(table: Table) -> None:
        table.shown = await two_player_game(fake, table.chan, alice, bob, turn_timer="1h")
        assert turn_owner(table.shown) == alice["id"]
        await table.play(alice, "place A1")
        assert await table.next_player() == bob["id"]

    try:
        await asyncio.gather(*(bot.start() for bot in bots))
        await asyncio.gather(*(bot.wait_ready(timeout=90) for bot in bots))
        assert fake.live_shards() == {(0, 2), (1, 2)}
        await asyncio.gather(*(begin(table) for table in tables))  # both guilds at once
        games = await rows(url, "SELECT id, guild_id, channel_id FROM games ORDER BY id")
        by_channel = {str(chan): (game, str(guild)) for game, guild, chan in games}
        for table in tables:
            table.game_id, guild = by_channel[table.chan]
            assert guild == table.guild_id

        # Shard 0's process is SIGKILLed while it applies Bob's move, as shard 1's plays one.
        async def killed_mid_action() -> None:
            sent = await fake.slash(
                bob, "ps play", options={"action": "place A4"}, channel_id=tables[0].chan
            )
            await sent.wait_callback()  # acknowledged: the process is applying it
            bots[0].kill()
            await bots[0].wait_exit()
            await until(lambda: not bots[0].group_alive(), 10)  # its picture workers too

        await asyncio.gather(killed_mid_action(), tables[1].play(bob, "place A4"))
        await fake.wait_until(lambda: fake.live_shards() == {(1, 2)}, 10, "shard 0's drop")
        with pytest.raises(RuntimeError, match="not connected"):  # shard 0 has no process
            await fake.slash(bob, "ps status", channel_id=tables[0].chan)
        await bots[0].start()
        await bots[0].wait_ready(timeout=90)
        # Applied once or not at all (its answer never came): if not, Bob types it again.
        logged = await rows(url, LOG, tables[0].game_id)
        bobs = ("place A4", int(bob["id"]))
        assert logged in (tables[0].log, [*tables[0].log, bobs])
        if logged == tables[0].log:
            await tables[0].play(bob, "place A4")
        else:
            tables[0].log.append(bobs)
        for table in tables:  # either way, the game message now asks Alice
            assert await table.next_player() == alice["id"]
        await asyncio.gather(*(table.play(alice, "place G1") for table in tables))
        for table in tables:
            assert await rows(url, LOG, table.game_id) == table.log
            assert await table.next_player() == bob["id"]

        # Shard 1's process dies; Bob's deadlines come due: shard 0's process fires both.
        bots[1].kill()
        await bots[1].wait_exit()
        clock.advance(2 * HOUR, bots[0])

        async def fired() -> bool:
            found = await rows(url, FIRED)
            return len(found) == 2 and all(o and o.startswith("ended: ") for _, o in found)

        await until(fired, 30)
        outcomes = await rows(url, FIRED)
        assert sorted(game for game, _ in outcomes) == sorted(t.game_id for t in tables)
        for table in tables:
            (notation, user), *earlier = (await rows(url, LOG, table.game_id))[::-1]
            assert earlier[::-1] == table.log and user == AUTOPILOT
            assert dict(outcomes)[table.game_id] == f"ended: {notation}"
            table.log.append((notation, AUTOPILOT))
            notice = ct.TIMED_OUT_ENDED.format(player=mention(bob), notation=notation)
            await fake.wait_until(
                lambda t=table, n=notice: [m.content for m in in_threads(fake, t.chan)].count(n),
                30,
                "the time-out notice",
            )

        # Shard 1's process is back: nothing fires again; both guilds are served at once.
        await bots[1].start()
        await bots[1].wait_ready(timeout=90)
        players = {alice["id"]: alice, bob["id"]: bob}
        nexts = [players[await table.next_player()] for table in tables]
        await asyncio.gather(
            *(table.play(user, "end") for table, user in zip(tables, nexts, strict=True))
        )
        assert await rows(url, FIRED) == outcomes
        for table in tables:
            assert await rows(url, LOG, table.game_id) == table.log
            alarms = [m for m in in_threads(fake, table.chan) if m.content.startswith(ALARM)]
            assert len(alarms) == 1
        # Both games go on, each with the deadline of its current turn planned.
        assert await rows(url, "SELECT status FROM games ORDER BY id") == [("active",)] * 2
        assert await rows(url, PLANNED) == sorted((t.game_id, 1) for t in tables)
    finally:
        for bot in bots:
            await bot.stop()
