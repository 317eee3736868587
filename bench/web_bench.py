"""The web companion under load (issue 59): the real bot and its site, 50 games played at a
person's pace through the loopback Discord (as bench/bot_latency.py plays them), and 1,000
viewers following them.

    .venv/bin/python bench/web_bench.py [--games 50] [--viewers 1000] [--actions 12]
        [--think 1.0] [--finished 4] [--samples 8] [--site own|bot]

`--site own` (the default): the site in its own process (`WEB_SEPARATE=1` for the bot, which
gives the links, and `python -m bot.web`, which serves them, learning of plays by polling the
SQLite file); `--site bot`: in the bot's process (`WEB_PORT` alone).

Before the bot starts, `--finished` games are played to their end through the game service
(their replays are asked for), and two games that differ only in hidden information (Ann's kept
animal, tests/hidden_game.py) are stored. The bot starts, `/ps web on` turns the site on, the
games start, and every game's "Watch on the web" link gets `--viewers / --games` viewers: aiohttp
client connections to its event stream, each parsing (JSON) every event it gets. While the games
are played, a sampler asks `--samples` pages a second, live games' pages and finished games'
replay steps (a step never asked before: uncached).

Figures, in one line, then the load average:

    web: V viewers of G live games; page p99 P ms; play-to-browser p99 U ms; hidden-information leaks 0

- V: the viewers connected when the games end; G: the games watched;
- P: the 99th percentile of the sampled pages' times (request to the last byte);
- U: for each committed version of a watched game (its commit time written by a trigger of the
  bench's own, in the bot's database: wall clock, the same machine), the time until each of its
  viewers had parsed an event of that version or a later one; the 99th percentile over every
  (version, viewer);
- then, once the games are played, `REST_PAGES` pages one after another (the viewers still
  connected): the pages' cost without the games' own load;
- leaks: the pairs of responses (the live page, in English and Hebrew, at each of three points
  of the two games' setup: three pairs of games stored before the bot starts) that differ once the game's number and link are set aside.

The site's limits (requests a second, streams per address) are raised for the bench (every viewer comes from 127.0.0.1). Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_latency import Game, percentile  # noqa: E402

import engine  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.storage import SeatRow, SQLiteStorage  # noqa: E402
from tests import hidden_game  # noqa: E402
from tests.e2e.fakediscord import BotProcess, FakeDiscord  # noqa: E402
from tests.e2e.helpers import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

WATCH = "Watch on the web"
#: The seats of the hidden-information games: three people (Ann with an id, so that no bot
#: plays her seat once the bot starts).
HIDDEN_SEATS = (SeatRow(0, "human", 10, "Ann"), *hidden_game.SEATS[1:])
#: Pages sampled one after another once the games are played.
REST_PAGES = 200
#: The points of the hidden-information games compared (setup decisions made).
HIDDEN_POINTS = (1, 3, 5)
#: The bench's trigger: each game version's commit time (seconds since the epoch).
TRIGGER = """
CREATE TABLE bench_versions (game_id INTEGER, version INTEGER, at REAL);
CREATE TRIGGER bench_version AFTER UPDATE OF version ON games BEGIN
    INSERT INTO bench_versions VALUES (NEW.id, NEW.version,
        (julianday('now') - 2440587.5) * 86400.0);
END;
"""


async def until_listening(port: int, timeout: float = 60) -> None:
    """Wait until something listens on the port (the site's own process has started)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)
        else:
            writer.close()
            return


async def prepare(path: Path, finished: int, guild: int, channel: int) -> list[int]:
    """Finished games (random moves, two people) and the two hidden-information games; the
    ids of the finished ones. Then the bench's trigger."""
    storage = await SQLiteStorage.open(str(path))
    ids = []
    try:
        service = GameService(storage, seed_source=lambda: 45)
        rng = random.Random(1)
        for i in range(finished):
            game = await service.lobby.new_lobby(
                guild_id=guild, channel_id=channel + 1 + i, host_id=900 + i, host_name=f"f{i}",
                options={},
            )  # fmt: skip
            game = await service.lobby.join(game.id, game.version, 800 + i, f"g{i}")
            result = await service.lobby.start(game.id, game.version, 900 + i)
            while not result.state.is_over:
                state = result.state
                legal = [str(a) for a in engine.legal_actions(state)]
                moves = [a for a in legal if a != "end"]
                action = (
                    "end"
                    if "end" in legal and (not moves or rng.random() < 0.4)
                    else rng.choice(moves)
                )
                seat = result.game.seats[state.current_seat]
                result = await service.turns.play(game.id, seat.user_id or 0, action)
            ids.append(game.id)
        for until in HIDDEN_POINTS:  # each pair: the same log but Ann's animal
            for keep in (0, 1):
                row = await storage.create_game(
                    guild_id=guild, channel_id=channel + 100 + 2 * until + keep, host_id=11,
                    host_name="Ann", options={}, seed=hidden_game.SEED,
                )  # fmt: skip
                _, log = hidden_game.played(keep, until)
                await storage.update_game(
                    row.id, row.version, seats=HIDDEN_SEATS,
                    config=hidden_game.CONFIG.to_dict(), status="active", actions=log,
                )  # fmt: skip
    finally:
        await storage.close()
    with sqlite3.connect(path) as db:
        db.executescript(TRIGGER)
    return ids


async def hidden_pairs(path: Path, session: aiohttp.ClientSession, site: str, link_of) -> int:
    """Fetch the live pages of each pair of hidden-information games in English and Hebrew,
    and count the pairs that differ (their number and link set aside)."""
    with sqlite3.connect(path) as db:
        ids = [r[0] for r in db.execute("SELECT id FROM games WHERE host_id = 11 ORDER BY id")]
    leaks = 0
    for a, b in zip(ids[::2], ids[1::2], strict=True):
        for lang in ("en", "he"):
            bodies = []
            for game_id in (a, b):
                path_ = await link_of(game_id)
                async with session.get(site + path_, headers={"Accept-Language": lang}) as r:
                    text = await r.text()
                text = text.replace(path_, "/g/GAME/LINK")
                bodies.append(re.sub(rf"#{game_id}\b", "#GAME", text))
            if bodies[0] != bodies[1]:
                leaks += 1
                first = next(
                    (x, y) for x, y in zip(bodies[0].split("<"), bodies[1].split("<")) if x != y
                )
                print(f"    a leak? games {a} and {b} ({lang}) differ: {first}", file=sys.stderr)
    return leaks


async def viewer(session: aiohttp.ClientSession, url: str, game_id: int, got: list, ready) -> None:
    """One viewer: the event stream of a game, each event parsed; (game, version, time, who)."""
    me = object()
    try:
        async with session.get(url + "/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            ready()
            async for line in r.content:
                if line.startswith(b"data: "):
                    data = json.loads(line[6:])
                    got.append((game_id, int(data["version"]), time.time(), id(me)))
    except (aiohttp.ClientError, asyncio.CancelledError):
        pass


async def sampler(
    session,
    site: str,
    live: list[str],
    finished: list[str],
    stop,
    times,
    rate: float,
    kinds: dict[str, list[float]] | None = None,
) -> None:
    """`--samples` pages a second: a live game's page, or a finished game's next unasked step."""
    rng = random.Random(2)
    steps = {url: 0 for url in finished}
    kinds = {} if kinds is None else kinds
    while not stop.is_set():
        if finished and rng.random() < 0.5:
            url = rng.choice(finished)
            target = f"{url}/step/{steps[url]}"
            steps[url] += 1
            kind = "step"
        else:
            target = rng.choice(live)
            kind = "live"
        began = time.monotonic()
        async with session.get(site + target) as r:
            await r.read()
            if r.status == 200:
                times.append(time.monotonic() - began)
                kinds.setdefault(kind, []).append(times[-1])
        await asyncio.sleep(1 / rate)


async def run(args) -> None:
    fake = FakeDiscord(check_spec=False)
    await fake.start()
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "LOG_LEVEL": "WARNING", "WEB_PORT": str(port), "WEB_URL": site,
            "WEB_HOST": "127.0.0.1", "WEB_RATE": "1000000",
            "WEB_STREAMS": "100000",
        }  # fmt: skip
        if args.site == "own":  # the bot gives the links, `python -m bot.web` serves them
            env["WEB_SEPARATE"] = "1"
        bot = BotProcess(fake, tmp, env=env, module="bot")
        admin = fake.add_user("admin", administrator=True)
        chan = fake.add_channel("admin")
        finished_ids = await prepare(bot.database_path, args.finished, int(fake.guild_id), 10**6)
        await bot.start()
        await fake.wait_ready(timeout=120)
        web = None
        if args.site == "own":
            web = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.web", cwd=ROOT,
                env={**os.environ, **env, "DATABASE_PATH": str(bot.database_path)},
            )  # fmt: skip
            await until_listening(port)
        it = await fake.slash(admin, "ps web", options={"state": "on"}, channel_id=chan)
        await it.wait_response(60)
        rng = random.Random(args.games)
        games = [Game(fake, i, random.Random(rng.random()), args) for i in range(args.games)]
        starts = await asyncio.gather(*(g.start() for g in games))
        links = []
        for start in starts:
            (url,) = [b["url"] for b in start.buttons if b.get("label") == WATCH]
            links.append(url)
        connector = aiohttp.TCPConnector(limit=0)
        got: list = []
        connected = [0]
        async with aiohttp.ClientSession(connector=connector) as session:
            per_game = max(1, args.viewers // len(links))
            ids = [int(url.split("/g/")[1].split("/")[0]) for url in links]
            tasks = []
            for url, game_id in zip(links, ids, strict=True):
                for _ in range(per_game):
                    tasks.append(asyncio.create_task(
                        viewer(session, url, game_id, got, lambda: connected.__setitem__(0, connected[0] + 1))
                    ))  # fmt: skip
            while connected[0] < len(tasks):
                await asyncio.sleep(0.1)
            secret_links = {}

            async def link_of(game_id: int) -> str:
                if game_id not in secret_links:
                    from bot.services.web import token

                    with sqlite3.connect(bot.database_path) as db:
                        (secret,) = db.execute("SELECT secret FROM web_servers").fetchone()
                    secret_links[game_id] = f"/g/{game_id}/{token(secret, 'game', game_id)}"
                return secret_links[game_id]

            finished = [await link_of(i) for i in finished_ids]
            live_paths = [url[len(site) :] for url in links]
            stop = asyncio.Event()
            page_times: list[float] = []
            page_kinds: dict[str, list[float]] = {}
            sampling = asyncio.create_task(sampler(
                session, site, live_paths, finished, stop, page_times, args.samples, page_kinds
            ))  # fmt: skip
            began = time.time()
            await asyncio.gather(*(g.run(s) for g, s in zip(games, starts, strict=True)))
            await asyncio.sleep(2)  # the last events
            stop.set()
            await sampling
            viewers_now = sum(1 for t in tasks if not t.done())
            # The same pages once the games are played (the viewers still connected): what a
            # page costs without the games' own load (the bot's pictures, the fake, the players).
            at_rest: list[float] = []
            rest = asyncio.Event()
            resting = asyncio.create_task(
                sampler(session, site, live_paths, finished, rest, at_rest, 1000.0)
            )
            while len(at_rest) < REST_PAGES:
                await asyncio.sleep(0.05)
            rest.set()
            await resting
            leaks = await hidden_pairs(bot.database_path, session, site, link_of)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if web is not None:
            web.terminate()
            await web.wait()
        await bot.stop()
        await fake.stop()
        with sqlite3.connect(bot.database_path) as db:
            commits = db.execute(
                f"SELECT game_id, version, at FROM bench_versions WHERE at >= ?"
                f" AND game_id IN ({','.join('?' * len(ids))})",
                (began, *ids),
            ).fetchall()
    by_viewer: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for game_id, version, at, who in got:
        by_viewer.setdefault((game_id, who), []).append((version, at))
    viewers_of: dict[int, list[list[tuple[int, float]]]] = {}
    for (game_id, _who), events in by_viewer.items():
        viewers_of.setdefault(game_id, []).append(events)
    delays, missed = [], 0
    for game_id, version, at in commits:
        for events in viewers_of.get(game_id, []):
            seen = [t for v, t in events if v >= version]
            if seen:
                delays.append(min(seen) - at)
            else:
                missed += 1
    u = percentile(delays, 0.99) * 1000 if delays else float("nan")
    p = percentile(page_times, 0.99) * 1000 if page_times else float("nan")
    print(
        f"web: {viewers_now} viewers of {len(links)} live games; page p99 {p:.0f} ms; "
        f"play-to-browser p99 {u:.0f} ms; hidden-information leaks {leaks}"
    )
    print(
        "    while the games are played: "
        + "; ".join(
            f"{kind} pages p99 {percentile(v, 0.99) * 1000:.0f} ms, median"
            f" {statistics.median(v) * 1000:.0f} ms (n={len(v)})"
            for kind, v in sorted(page_kinds.items())
        )
    )
    print(
        f"    pages once the games are played (viewers connected): p99"
        f" {percentile(at_rest, 0.99) * 1000:.0f} ms, median"
        f" {sorted(at_rest)[len(at_rest) // 2] * 1000:.0f} ms (n={len(at_rest)})"
    )
    print(
        f"    {len(commits)} commits, {len(delays)} (commit, viewer) deliveries, {missed} never"
        f" delivered; {len(page_times)} pages sampled (median"
        f" {sorted(page_times)[len(page_times) // 2] * 1000 if page_times else 0:.0f} ms);"
        f" load average {os.getloadavg()}, {os.cpu_count()} cores"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="The web companion under load")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=12, help="actions per game")
    parser.add_argument("--per-turn", type=int, default=3, help="actions per turn at most")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--finished", type=int, default=4, help="finished games to replay")
    parser.add_argument("--samples", type=float, default=8.0, help="pages sampled a second")
    parser.add_argument(
        "--site", choices=("own", "bot"), default="own",
        help="the site in its own process (WEB_SEPARATE=1, python -m bot.web) or the bot's",
    )  # fmt: skip
    args = parser.parse_args()
    print(f"load average (1, 5, 15 min) at the start: {os.getloadavg()}, {os.cpu_count()} cores;"
          f" the site in {'its own process' if args.site == 'own' else 'the bot process'}")  # fmt: skip
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
