"""A real evening under Discord's limits (issue 46): G games at once through the loopback Discord
with its rate limits on, a gateway fault every ~30 s and a stretch of REST 5xx in the middle.

    .venv/bin/python bench/discord_limits.py [--games 100] [--processes 1] [--minutes 5]
        [--think 6] [--outage 60] [--no-outage] [--drop-every 30]

The players are `bench/bot_latency.py`'s (each action a panel click or a `/ps play`, timed until
the answer carrying the new picture), one action every `--think` seconds on average per game
(exponential), for `--minutes` of play after every game was set up. `--processes 2` runs two bot
processes (one shard each) on one throwaway PostgreSQL with `--games` games each; one process
runs on SQLite.

Faults: every `--drop-every` seconds (±50 %) the gateway of a random shard gets, in turn, a close
1006, 4000, 4008, 4009 (not resumable), op 7 Reconnect, op 9 Invalid Session (resumable, then
not); in the middle of the play, for `--outage` seconds, every request on a channel (game
messages and threads: posts, edits, the old message's buttons) is answered 500/502/503/504 in
turn (the interaction endpoints stay up: their answers are what the players time).

Prints one line:

    limits: G games, A actions; lost 0, doubled 0, messages doubled 0; first answers over 3 s U;
    429s R, invalid requests I per 10 min; click-to-answer median M ms, p99 P ms

A: actions the players saw confirmed ("You played"); lost: of those, how many are missing from
the games' action logs at the end; doubled: human actions in the logs beyond those confirmed
(or answered as played twice); messages doubled: game messages in a thread drawn for the same
game version more than once; U: first answers later than Discord's 3 s (`late_interactions`);
R: 429s answered; I: invalid requests (401, 403, 429 not shared) scaled to 10 minutes.
Then the play's length, the faults, the players left without an answer, the clicks made again
(while the bot was reconnecting, or lost by the gateway with a session that ended: Discord loses
a session's events when the bot must identify anew, and the person sees "This interaction
failed" after 3 s) and the load average of the machine. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bot_latency  # noqa: E402
from bench.bot_latency import Game, percentile  # noqa: E402
from tests.e2e.fakediscord import BotProcess, FakeDiscord, shard_of  # noqa: E402
from tests.e2e.gameplay import next_turn  # noqa: E402

#: The gateway faults, in turn.
FAULTS = ("1006", "4000", "4008", "4009", "op7", "op9-resume", "op9-identify")
OUTAGE_STATUSES = (500, 502, 503, 504)
GAME_BUTTON = re.compile(r"^ps:turn:(?P<game>[0-9]+):(?P<version>[0-9]+)$")

#: Per parent channel: the actions the players saw confirmed.
confirmed: Counter[str] = Counter()
stuck: list[str] = []
#: Clicks made again because the bot was reconnecting to the gateway at the first try.
reconnecting = [0]
#: Clicks made again because the gateway lost them with a session that ended (Discord showed
#: the person "This interaction failed"; the bot never got them: `FakeDiscord.lost_by_gateway`).
lost_by_gateway = [0]
_complete = bot_latency.complete


async def counting_complete(it, timeout: float = 180) -> float:
    """`bot_latency.complete`, counting an answer that confirms a played action."""
    took = await _complete(it, timeout)
    if (it.content or "").startswith("You played"):
        confirmed[it.bench_channel] += 1
    return took


bot_latency.complete = counting_complete


class Player(Game):
    """`bot_latency.Game` for a stretch of time, its interactions tagged with their game; a
    click while the bot's gateway connection is down is made again half a second later (Discord
    would not deliver it either), and so is one the gateway lost with a session that ended (the
    person saw "This interaction failed" after 3 s)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        fake, chan = self.fake, self.chan
        for name in ("slash", "click", "select", "autocomplete"):
            original = getattr(fake, name)

            async def tagged(*a, _original=original, name=name, **k):
                for _ in range(120):  # while the bot reconnects, the player clicks again
                    try:
                        it = await _original(*a, **k)
                    except RuntimeError as exc:
                        if "not connected" not in str(exc):
                            raise
                        reconnecting[0] += 1
                        await asyncio.sleep(0.5)
                        continue
                    if name == "autocomplete" or not await lost(fake, it):
                        break
                    lost_by_gateway[0] += 1
                    await asyncio.sleep(0.5)
                else:
                    raise RuntimeError("the bot did not reconnect within a minute")
                if name != "autocomplete":  # (which answers the choices)
                    channel = it.channel_id
                    it.bench_channel = fake.channels.get(channel, {}).get("parent_id") or channel
                return it

            setattr(self, f"_{name}", tagged)
        self.fake = _Tagging(fake, self)
        self.chan = chan

    async def run_until(self, start, deadline: float) -> None:
        msg, turn = start, 0
        try:
            while time.monotonic() < deadline and "Take my turn" in [
                b["label"] for b in msg.buttons
            ]:
                play = self.panel_turn if turn % 2 == 0 else self.typed_turn
                await play(msg, self.args.per_turn)
                turn += 1
                msg = await next_turn(self.fake.real, self.chan, msg, timeout=180)
        except Exception as exc:  # a player left without an answer: counted, the others go on
            stuck.append(f"{self.chan}: {type(exc).__name__}: {exc}"[:300])


async def lost(fake: FakeDiscord, it) -> bool:
    """Whether the gateway lost the interaction: no first answer within Discord's deadline, and
    the fake says the bot cannot have received it (else the player waits on, as a person would
    not know either, and a missing answer is the bot's)."""
    deadline = it.created + (fake.interaction_deadline or 3.0)
    try:
        await fake.wait_until(lambda: it.acknowledged, max(0.0, deadline - fake.clock()), "")
        return False
    except TimeoutError:
        pass
    try:
        await fake.wait_until(
            lambda: it.acknowledged or fake.lost_by_gateway(it), 180, "an answer or its loss"
        )
    except TimeoutError:
        return False
    return not it.acknowledged


class _Tagging:
    """The fake as a player sees it: its interactions carry their game's channel."""

    def __init__(self, real: FakeDiscord, player: Player) -> None:
        self.real, self.player = real, player

    def __getattr__(self, name: str):
        tagged = getattr(self.player, f"_{name}", None)
        return tagged if tagged is not None else getattr(self.real, name)


async def faults(fake: FakeDiscord, guilds: list[str], args, stop: asyncio.Event) -> list[str]:
    done: list[str] = []
    rng = random.Random(46)
    for fault in itertools.cycle(FAULTS):
        pause = args.drop_every * rng.uniform(0.5, 1.5)
        try:
            await asyncio.wait_for(stop.wait(), pause)
            return done
        except TimeoutError:
            pass
        guild = rng.choice(guilds)
        try:
            if fault == "op7":
                await fake.request_reconnect(guild)
            elif fault.startswith("op9"):
                await fake.invalidate_session(resumable=fault == "op9-resume", guild_id=guild)
            else:
                await fake.drop_connection(int(fault), guild)
            done.append(fault)
        except RuntimeError:  # that shard is reconnecting from the last fault: next time
            pass


async def outage(fake: FakeDiscord, args, start_in: float, stop: asyncio.Event) -> None:
    try:
        await asyncio.wait_for(stop.wait(), start_in)
        return
    except TimeoutError:
        pass
    stretch = args.outage / len(OUTAGE_STATUSES)
    for status in OUTAGE_STATUSES:
        fake.schedule_rest_outage(status, stretch, prefix="/channels/")
        try:
            await asyncio.wait_for(stop.wait(), stretch)
            return
        except TimeoutError:
            pass


async def logged_actions(bots: list[BotProcess], url: str | None) -> Counter[str]:
    """Human actions in the games' logs, per channel."""
    sql = (
        "SELECT g.channel_id, COUNT(*) FROM actions a JOIN games g ON g.id = a.game_id"
        " WHERE a.user_id IS NOT NULL GROUP BY g.channel_id"
    )
    counts: Counter[str] = Counter()
    if url is None:
        for bot in bots:
            conn = sqlite3.connect(bot.database_path)
            counts.update({str(c): n for c, n in conn.execute(sql)})
            conn.close()
        return counts
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        counts.update({str(c): n for c, n in await conn.fetch(sql)})
    finally:
        await conn.close()
    return counts


def doubled_messages(fake: FakeDiscord, channels: list[str]) -> int:
    """Game messages of a thread drawn for the same game version more than once."""
    doubled = 0
    for chan in channels:
        for thread in [chan, *fake.threads_of(chan)]:
            drawn: Counter[tuple[str, str]] = Counter()
            for message in fake.messages(thread):
                if message.author.get("id") != fake.application_id:
                    continue
                for button in message.buttons:
                    match = GAME_BUTTON.match(button.get("custom_id", ""))
                    if match:
                        drawn[(match["game"], match["version"])] += 1
            doubled += sum(n - 1 for n in drawn.values() if n > 1)
    return doubled


async def evening(args, url: str | None) -> None:
    fake = FakeDiscord(check_spec=False)  # a bench: no spec checks competing for the CPU
    await fake.start()
    guilds = [fake.guild_id]
    env = {"LOG_LEVEL": "WARNING", **({"DATABASE_URL": url} if url else {})}
    if args.processes > 1:
        home = shard_of(fake.guild_id, args.processes)
        guilds = [
            fake.guild_id if k == home else fake.add_guild(f"shard {k}", shard=(k, args.processes))
            for k in range(args.processes)
        ]
        env.update({"SHARD_COUNT": str(args.processes), "DEV_GUILD_ID": ""})
    players_args = argparse.Namespace(actions=10**9, per_turn=3, think=args.think)
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory() as tmp:
        bots = [
            BotProcess(
                fake,
                Path(tmp) / f"bot{k}",
                env={**env, "SHARD_IDS": str(k)} if args.processes > 1 else env,
            )
            for k in range(args.processes)
        ]
        try:
            await asyncio.gather(*(bot.start() for bot in bots))
            await asyncio.gather(*(bot.wait_ready(timeout=180) for bot in bots))
            rng = random.Random(args.games)
            players = [
                Player(fake, k * args.games + i, random.Random(rng.random()), players_args, guild)
                for k, guild in enumerate(guilds)
                for i in range(args.games)
            ]
            t_setup = time.monotonic()

            async def arrive(player: Player):  # the evening's players come over a minute
                await asyncio.sleep(player.rng.uniform(0, args.arrivals))
                return await player.start()

            starts = await asyncio.gather(*(arrive(p) for p in players))
            print(f"  {len(players)} games set up in {time.monotonic() - t_setup:.0f} s")
            limits = fake.limits
            rate_limited0, invalid0 = len(limits.rate_limited), len(limits.invalid)
            late0 = len(fake.late_interactions)
            t0 = time.monotonic()
            deadline = t0 + args.minutes * 60
            background = [asyncio.create_task(faults(fake, guilds, args, stop))]
            if not args.no_outage:
                start_in = max(0.0, args.minutes * 30 - args.outage / 2)
                background.append(asyncio.create_task(outage(fake, args, start_in, stop)))
            await asyncio.gather(*(p.run_until(s, deadline) for p, s in zip(players, starts)))
            elapsed = time.monotonic() - t0
            stop.set()
            done_faults = await background[0]
            await asyncio.gather(*background[1:])
            await asyncio.sleep(10)  # the last game messages land
            logged = await logged_actions(bots, url)
        finally:
            stop.set()
            for bot in bots:
                await bot.stop()
            await fake.stop()
    channels = [p.chan for p in players]
    seen = sum(confirmed[c] for c in channels)
    lost = sum(max(0, confirmed[c] - logged[c]) for c in channels)
    doubled = sum(max(0, logged[c] - confirmed[c]) for c in channels)
    times = [x for p in players for x in p.latencies + p.typed_latencies]
    late = len(fake.late_interactions) - late0
    rate_limited = len(limits.rate_limited) - rate_limited0
    invalid = (len(limits.invalid) - invalid0) * 600 / elapsed
    print(
        f"limits: {len(players)} games, {seen} actions; lost {lost}, doubled {doubled}, messages"
        f" doubled {doubled_messages(fake, channels)}; first answers over 3 s {late}; 429s"
        f" {rate_limited}, invalid requests {invalid:.0f} per 10 min; click-to-answer median"
        f" {statistics.median(times) * 1000:.0f} ms, p99 {percentile(times, 0.99) * 1000:.0f} ms"
    )
    print(
        f"  {elapsed:.0f} s of play ({len(times) / elapsed:.1f} timed actions/s); gateway faults"
        f" {dict(Counter(done_faults))}; REST faults answered {len(limits.faults)}; players left"
        f" without an answer {len(stuck)}, clicks made again during a reconnect"
        f" {reconnecting[0]}, clicks the gateway lost with a session that ended and made again"
        f" {lost_by_gateway[0]}; load average {os.getloadavg()}"
    )
    for line in stuck[:5]:
        print(f"    {line}")
    by_scope = defaultdict(int)
    for _, scope, _ in limits.rate_limited[rate_limited0:]:
        by_scope[scope] += 1
    if by_scope:
        print(f"  429s by scope {dict(by_scope)}")


async def main(args) -> None:
    if args.processes == 1:
        await evening(args, None)
        return
    from tests.pg_server import PostgresServer, fresh_database

    server = PostgresServer().start()
    try:
        await evening(args, await fresh_database(server))
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="G games under Discord's limits and faults")
    parser.add_argument("--games", type=int, default=None, help="games a process (100; 50 x 2)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=5.0, help="minutes of play")
    parser.add_argument("--think", type=float, default=6.0, help="mean seconds between actions")
    parser.add_argument("--outage", type=float, default=60.0, help="seconds of REST 5xx")
    parser.add_argument("--no-outage", action="store_true", help="no REST 5xx stretch")
    parser.add_argument("--arrivals", type=float, default=60.0, help="seconds the starts spread")
    parser.add_argument("--drop-every", type=float, default=30.0, help="seconds between faults")
    parsed = parser.parse_args()
    if parsed.games is None:
        parsed.games = 100 if parsed.processes == 1 else 50
    asyncio.run(main(parsed))
