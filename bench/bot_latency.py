"""Bot latency: the real bot process driven through the loopback fake of Discord.

    .venv/bin/python bench/bot_latency.py [--games 1 50 100] [--actions 12] [--think 1.0]
        [--to-the-end 2] [--before ../wt-before17] [--profile DIR]

For each number of concurrent games (one channel and two people each, no Cynthia), every game
is set up by typing, then its players act: each turn they open their panel and play actions
from it (buy, plant, grow, collect: the first offered choice) until none is left or the turn has
had `--per-turn` of them, then end the turn; every other turn is typed with `/ps play` instead.
A player waits `--think` seconds on average (exponential) before each action, like a person.

Figures: the time from sending a click (or `/ps play`) that plays an action to the moment the
answer carrying the new picture (the panel's preview) is complete, as the test side sees it,
median and 99th percentile, for 1, 50 and 100 games, and the CPU time each action cost the bot's
process, its picture workers and this process (a figure the machine's other load barely moves,
unlike the latencies). The fake runs in this process and the bot in
its own, so both share this machine's cores; asserts nothing.

`--to-the-end R` measures games that end during the run: each game is first played through the
game service on the bot's database (random legal moves) until R rounds are left, the bot starts
on it (its games' messages redrawn as after a restart), and the players play those rounds as
above, with no limit on actions, to the game's end. Then it also prints the time from the turn
end that ends a game to its answer, which comes after the commit that records the result and
updates the ratings (issue 45), and how many game ends were measured.

`--drivers` also runs this tree's bot on the SQLite driver it had before aiosqlite
(`bench/sqlite3_bot.py`: statements on the loop's thread, COMMIT on a thread of its own), right
before the bot as it is, and prints both side by side (issue 55's comparison of the drivers).

`--before TREE` also runs the bot of another checkout (its own `.venv` and launcher, e.g. a
worktree of the commit before a change) under the same load, right before this tree's bot, and
prints both side by side at the end with the machine's load average. `--profile DIR` records each
bot process with py-spy (`pip install py-spy`) while the actions are played, its picture workers
included, into DIR (raw collapsed stacks, one file per bot and number of games). `--keep DIR`
keeps each bot's database and its log (at INFO) in DIR. A game that gets no game message within
120 s of a turn's end stops the run, after printing what its channel and thread show.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.storage.databases import open_storage  # noqa: E402
from tests.e2e.fakediscord import LAUNCHER, BotProcess, FakeDiscord, FakeMessage  # noqa: E402
from tests.e2e.gameplay import is_final, kinds, next_turn, turn_owner  # noqa: E402

VERBS = ("collect", "grow", "plant", "buy")


async def complete(it, timeout: float = 60) -> float:
    """Wait for the interaction's answer; the seconds from sending it to the answer."""
    await it.wait_response(timeout)
    return time.monotonic() - it.created


class Game:
    """One channel with two players, driven like people would."""

    def __init__(
        self, fake: FakeDiscord, index: int, rng: random.Random, args, guild_id: str | None = None
    ) -> None:
        """A channel and two members in the guild `guild_id` (default the fake's guild)."""
        self.fake, self.rng, self.args = fake, rng, args
        self.chan = fake.add_channel(f"game-{index}", guild_id=guild_id)
        self.users = [fake.add_user(f"p{index}{side}", guild_id=guild_id) for side in "ab"]
        self.latencies: list[float] = []
        self.typed_latencies: list[float] = []
        self.turn_ends: list[float] = []  # a turn's end that does not end the game
        #: rounds left at the bot's start (0: a new game; postgres_bench's args have none)
        self.to_the_end: int = getattr(args, "to_the_end", 0)
        self.game_ends: list[float] = []  # the turn's end that ends the game (--to-the-end)

    def user(self, message: FakeMessage) -> dict:
        owner = turn_owner(message)
        return next(u for u in self.users if u["id"] == owner)

    async def think(self) -> None:
        if self.args.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.args.think))

    async def seed(self, service: GameService) -> None:
        """Play the game through the service (random legal moves, the bot not started yet) until
        `--to-the-end` rounds are left."""
        host, guest = self.users
        game = await service.lobby.new_lobby(
            guild_id=int(self.fake.guild_id),
            channel_id=int(self.chan),
            host_id=int(host["id"]),
            host_name=host["username"],
            options={},
        )
        game = await service.lobby.join(game.id, game.version, int(guest["id"]), guest["username"])
        result = await service.lobby.start(game.id, game.version, int(host["id"]))
        state = result.state
        while state.round <= state.config.last_round - self.to_the_end:
            legal = [str(a) for a in engine.legal_actions(state)]
            moves = [a for a in legal if a != "end"]
            ending = "end" in legal and (not moves or self.rng.random() < 0.4)
            action = "end" if ending else self.rng.choice(moves)
            result = await service.turns.play(
                game.id, result.game.seats[state.current_seat].user_id, action
            )
            state = result.state

    async def start(self) -> FakeMessage:
        fake, host, guest = self.fake, *self.users
        if self.to_the_end:  # seeded: the game message the bot redrew at its start
            return await next_turn(fake, self.chan, timeout=120)
        it = await fake.slash(host, "ps new", channel_id=self.chan)
        await complete(it)
        lobby = it.response
        await complete(await fake.click(guest, lobby, lobby.find_button(label="Join")))
        await complete(await fake.click(host, lobby, lobby.find_button(label="Start")))
        msg = await next_turn(fake, self.chan, timeout=60)
        while msg.embeds[0]["description"].startswith("Setup"):
            user = self.user(msg)
            choices = await fake.autocomplete(
                user,
                "ps play",
                focused="action",
                options={"action": "place"},
                channel_id=self.chan,
                timeout=60,  # as long as `complete` waits: a loaded machine is slow to answer
            )
            await complete(
                await fake.slash(
                    user, "ps play", options={"action": choices[0]["value"]}, channel_id=self.chan
                )
            )
            msg = await next_turn(fake, self.chan, msg, timeout=60)
        return msg

    async def panel_turn(self, msg: FakeMessage, budget: int) -> int:
        """Play up to `budget` actions from the panel, then end the turn; returns how many."""
        fake, user = self.fake, self.user(msg)
        it = await fake.click(user, msg, msg.find_button(label="Take my turn"))
        await complete(it)
        panel = it.response
        played = 0
        while played < min(budget, self.args.per_turn):
            offered = kinds(panel)
            verb = next((v for v in VERBS if v in offered), None)
            if verb is None:
                break
            select = offered[verb]
            if select is None:  # too many choices for the panel's first screen
                await complete(
                    await fake.click(user, panel, panel.find_button(label=f"{verb.title()}..."))
                )
                select = panel.selects[0]
            if select["custom_id"].split(":")[4] == "src":
                value = select["options"][0]["value"]
                await complete(await fake.select(user, panel, select, [value]))
                select = panel.selects[0]
            await self.think()
            it = await fake.select(user, panel, select, [select["options"][0]["value"]])
            self.latencies.append(await complete(it))
            assert panel.attachments and panel.attachments[0][0] == "preview.png", panel.content
            played += 1
        self.turn_ends.append(
            await complete(await fake.click(user, panel, panel.find_button(label="End turn")))
        )
        return played

    async def typed_turn(self, msg: FakeMessage, budget: int) -> int:
        """Type up to `budget` actions with `/ps play` (autocomplete's first grow/buy), then end."""
        fake, user = self.fake, self.user(msg)
        played = 0
        for verb in ("grow", "buy"):
            if played >= min(budget, self.args.per_turn):
                break
            choices = await fake.autocomplete(
                user,
                "ps play",
                focused="action",
                options={"action": verb},
                channel_id=self.chan,
                timeout=60,  # as long as `complete` waits: a loaded machine is slow to answer
            )
            if not choices:
                continue
            await self.think()
            it = await fake.slash(
                user, "ps play", options={"action": choices[0]["value"]}, channel_id=self.chan
            )
            self.typed_latencies.append(await complete(it))
            assert it.attachments and it.attachments[0][0] == "preview.png", it.content
            played += 1
        it = await fake.slash(user, "ps play", options={"action": "end"}, channel_id=self.chan)
        self.turn_ends.append(await complete(it))
        return played

    async def run(self, start: FakeMessage) -> None:
        msg, turn = start, 0
        left = 10**9 if self.to_the_end else self.args.actions
        while left > 0 and "Take my turn" in [b["label"] for b in msg.buttons]:
            play = self.panel_turn if turn % 2 == 0 else self.typed_turn
            left -= await play(msg, left)
            turn += 1
            try:
                msg = await next_turn(self.fake, self.chan, msg, timeout=120)
            except TimeoutError:
                self.stuck(msg)
                raise
            if is_final(msg):  # that turn's end ended the game
                self.game_ends.append(self.turn_ends.pop())

    def stuck(self, msg: FakeMessage) -> None:
        """Say what the channel shows when no next game message came after a turn's end."""
        print(f"game {self.chan}: no game message after #{msg.id} within 120 s; it shows:")
        for c in (self.chan, *self.fake.threads_of(self.chan)):
            for m in self.fake.messages(c)[-4:]:
                text = m.embeds[0].get("description", "")[:160] if m.embeds else m.content[:160]
                labels = [b["label"] for b in m.buttons]
                print(f"    {c} #{m.id} v{m.version}: {text!r} {labels}")


def cpu_seconds(root: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by a process and by all its descendants
    (the picture workers), from /proc; (nan, nan) where there is no /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents, used = {}, {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    if root not in used:
        return float("nan"), float("nan")

    def descends(pid: int) -> bool:
        while pid in parents and pid > 1:
            pid = parents[pid]
            if pid == root:
                return True
        return False

    return used[root], sum(t for pid, t in used.items() if descends(pid))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class TreeBot(BotProcess):
    """The bot of another checkout: its venv's Python and its own launcher (which puts that
    checkout first on the module path)."""

    def __init__(self, *args, tree: Path | None = None, **kw):
        super().__init__(*args, **kw)
        self.tree = tree

    @property
    def command(self) -> list[str]:
        command = super().command
        if self.tree is not None:
            launcher = Path(LAUNCHER).relative_to(Path(__file__).resolve().parent.parent)
            command[:2] = [str(self.tree / ".venv/bin/python"), str(self.tree / launcher)]
        return command


class Profiler:
    """py-spy attached to a running bot (its picture workers included) while the actions are
    played; stopped with SIGINT, which writes the samples (raw collapsed stacks) and leaves
    the bot running, so it still shuts down gracefully."""

    def __init__(self, pid: int, path: Path) -> None:
        self.pid, self.path = pid, path
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        spy = Path(sys.executable).with_name("py-spy")
        args = ["record", "--pid", str(self.pid), "--subprocesses", "--threads", "--idle"]
        args += ["--format", "raw"]
        self.process = await asyncio.create_subprocess_exec(
            str(spy), *args, "--rate", "50", "-o", str(self.path),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
            await self.process.wait()


async def seed(games: list[Game], path: Path) -> float:
    """Play each game through the game service until `--to-the-end` rounds are left; seconds."""
    began = time.monotonic()
    storage = await open_storage(None, str(path))
    try:
        service = GameService(storage, seed_source=lambda: 45)
        for game in games:
            await game.seed(service)
    finally:
        await storage.close()
    return time.monotonic() - began


async def measure(
    n_games: int, args, tree: Path | None = None, label: str = "", module: str | None = None
) -> list:
    fake = FakeDiscord(check_spec=False)  # a bench: no spec checks competing for the CPU
    await fake.start()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = str(args.keep / f"{label or 'this'}-{n_games}") if args.keep else scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        env = {
            "LOG_LEVEL": "INFO" if args.keep else "WARNING",
            **dict(e.split("=", 1) for e in args.env),
        }
        bot = TreeBot(fake, tmp, env=env, module=module or args.module, tree=tree)
        profiler = None
        try:
            rng = random.Random(n_games)
            games = [Game(fake, i, random.Random(rng.random()), args) for i in range(n_games)]
            if args.to_the_end:
                took = await seed(games, bot.database_path)
                print(f"{label} {n_games} game(s) played to {args.to_the_end} round(s) from their"
                      f" end in {took:.0f} s, before the bot starts")  # fmt: skip
            await bot.start()
            await fake.wait_ready(timeout=120)
            starts = await asyncio.gather(*(g.start() for g in games))
            assert bot.process is not None
            if args.profile:
                args.profile.mkdir(parents=True, exist_ok=True)
                path = args.profile / f"{label or 'this'}-{n_games}.txt"
                profiler = Profiler(bot.process.pid, path)
                await profiler.start()
            cpu0 = (*cpu_seconds(bot.process.pid), time.process_time())
            t0 = time.monotonic()
            await asyncio.gather(*(g.run(s) for g, s in zip(games, starts, strict=True)))
            elapsed = time.monotonic() - t0
            cpu = [
                b - a
                for a, b in zip(
                    cpu0, (*cpu_seconds(bot.process.pid), time.process_time()), strict=True
                )
            ]
        finally:
            if profiler is not None:
                await profiler.stop()
            await bot.stop()
            await fake.stop()
    clicks = [x for g in games for x in g.latencies]
    typed = [x for g in games for x in g.typed_latencies]
    both = clicks + typed
    print(
        f"{label} {n_games:>3} game(s): {len(both)} actions in {elapsed:.1f} s "
        f"({len(both) / elapsed:.1f} actions/s), think time {args.think:.1f} s"
    )
    for name, values in (("panel click", clicks), ("/ps play", typed), ("all", both)):
        if values:
            print(
                f"    {name:<12} median {statistics.median(values) * 1000:6.0f} ms   "
                f"p99 {percentile(values, 0.99) * 1000:6.0f} ms   max {max(values) * 1000:6.0f} ms"
                f"   (n={len(values)})"
            )
    per = 1000 / max(1, len(both))
    print(
        f"    CPU per action: bot {cpu[0] * per:.0f} ms, its picture workers {cpu[1] * per:.0f} ms,"
        f" this process (fake Discord and players) {cpu[2] * per:.0f} ms"
    )
    ends = [x for g in games for x in g.game_ends]
    if args.to_the_end:
        turns = [x for g in games for x in g.turn_ends]
        for name, values in (("turn end", turns), ("game end", ends)):
            if values:
                print(
                    f"    {name:<12} median {statistics.median(values) * 1000:6.0f} ms   "
                    f"p99 {percentile(values, 0.99) * 1000:6.0f} ms   "
                    f"max {max(values) * 1000:6.0f} ms   (n={len(values)})"
                )
        print(
            f"    {len(ends)} of {n_games} game(s) ended during the run (rating update included);"
            f" p99 of every answer (actions, turn ends, game ends) "
            f"{percentile(both + turns + ends, 0.99) * 1000:.0f} ms"
        )
    if fake.late_interactions:
        print(f"    {len(fake.late_interactions)} interaction(s) acknowledged after 3 s")
    return [
        (label, n_games, name, values)
        for name, values in (("panel click", clicks), ("/ps play", typed), ("all", both))
    ]


def table(rows: list) -> None:
    """Median and p99 per number of games and kind, one column pair per tree."""
    labels = list(dict.fromkeys(r[0] for r in rows))
    cells = {(r[0], r[1], r[2]): r[3] for r in rows}
    head = "".join(f" | {lb + ' median':>14} | {lb + ' p99':>11}" for lb in labels)
    print(f"\n| games | kind        {head} |")
    print("|---|---|" + "---:|---:|" * len(labels))
    for n in dict.fromkeys(r[1] for r in rows):
        for kind in ("panel click", "/ps play", "all"):
            line = f"| {n:>5} | {kind:<11} "
            for lb in labels:
                v = cells.get((lb, n, kind)) or [float("nan")]
                line += f" | {statistics.median(v) * 1000:11.0f} ms | {percentile(v, 0.99) * 1000:8.0f} ms"
            print(line + " |")
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}, {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description="Bot latency through the loopback fake")
    parser.add_argument("--actions", type=int, default=12, help="actions per game")
    parser.add_argument("--per-turn", type=int, default=3, help="actions per turn at most")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--module", default="bot", help="the bot module (e.g. a profiler)")
    parser.add_argument("--env", nargs="*", default=[], help="NAME=VALUE for the bot process")
    parser.add_argument("--before", type=Path, help="another checkout to measure first")
    parser.add_argument(
        "--drivers", action="store_true",
        help="measure this tree's bot on the sqlite3 driver (bench/sqlite3_bot.py) first",
    )  # fmt: skip
    parser.add_argument("--profile", type=Path, help="record the bot with py-spy into DIR")
    parser.add_argument("--games", type=int, nargs="+", default=[1, 50, 100])
    parser.add_argument("--keep", type=Path, help="keep each bot's database and log in DIR")
    parser.add_argument(
        "--to-the-end",
        type=int,
        default=0,
        metavar="R",
        help="start the games R rounds from their end and play them to it (game ends measured)",
    )
    args = parser.parse_args()
    print("time from sending an action to the answer carrying the new picture")
    print(f"load average (1, 5, 15 min) at the start: {os.getloadavg()}, {os.cpu_count()} cores")
    rows = []
    for n in args.games:
        if args.before is not None:
            rows += asyncio.run(measure(n, args, tree=args.before.resolve(), label="before"))
        if args.drivers:
            rows += asyncio.run(measure(n, args, label="sqlite3", module="bench.sqlite3_bot"))
        label = "after" if args.before else "aiosqlite" if args.drivers else "this"
        rows += asyncio.run(measure(n, args, label=label))
    table(rows)


if __name__ == "__main__":
    main()
