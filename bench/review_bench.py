"""The Expert's review under load (issue 47).

    .venv/bin/python bench/review_bench.py [--games 50] [--think 6]

Reviews two stored finished games, a 2-person one and a 4-person one (every seat a person,
played by the autopilot), through the review service and the Expert's worker pool
(`bot.services.reviews.ReviewService`, `bot.services.experts.Experts`: two worker processes, the review
at low priority, one job at a time), while `--games` other games are played in the real bot
process through the loopback fake of Discord by `bench/bot_latency.py`'s players, acting like
people (one action every `--think` seconds on average per game). The reviews run in this
process's worker pool rather than the bot's (the bot's own Expert workers stay idle: these games
seat no Expert), so they compete for the same two cores as they would inside the bot.

Prints `review: a 2-person game reviewed in S s (4-person: S4 s); other games' click-to-answer
p99 X ms during reviews; D decisions, R with a reason, A pictures alike` (X over the clicks and
`/ps play` answered while a review ran; D the turns the two reviews hold, R those whose reason
names their facts and reads like no other's of its review, A the pairs of one review's pictures
that differ in under 1% of their pixels, over every turn's picture at 400 px wide), then the same
p99 over the `--baseline` seconds before the reviews (the same games, no review) and the load
average. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_latency import Game, percentile  # noqa: E402

import engine  # noqa: E402
from bot.present import review_texts as rt  # noqa: E402
from bot.services.core import GameCore  # noqa: E402
from bot.services.experts import Experts  # noqa: E402
from bot.services.reviews import ReviewService  # noqa: E402
from bot.storage import NewAction, SeatRow, SQLiteStorage  # noqa: E402
from engine.expert.review import Decision  # noqa: E402
from engine.players import AutopilotPlayer  # noqa: E402
from render.review import decision_picture  # noqa: E402
from tests.e2e.fakediscord import BotProcess, FakeDiscord  # noqa: E402
from translation import translate  # noqa: E402


def alike(a: object, b: object) -> bool:
    """Two pictures that differ in under 1% of their pixels (over the shorter's height)."""
    from PIL import Image, ImageChops

    assert isinstance(a, Image.Image) and isinstance(b, Image.Image)
    height = min(a.height, b.height)
    diff = ImageChops.difference(a.crop((0, 0, a.width, height)), b.crop((0, 0, b.width, height)))
    changed = sum(1 for px in diff.get_flattened_data() if px != (0, 0, 0))
    return changed < 0.01 * a.width * height


async def counted(storage: SQLiteStorage, game_id: int) -> tuple[int, int, int]:
    """A done review's turns, those with a reason of their own, and its pictures alike."""
    game = await storage.get_game(game_id)
    review = await storage.review(game_id)
    assert game is not None and game.config is not None and review is not None
    decisions = [Decision.from_dict(d) for d in review.decisions]
    reasons = [translate(rt.reason(d, "P"), "en") for d in decisions]
    told = sum(
        1 for d, said in zip(decisions, reasons, strict=True)
        if said and reasons.count(said) == 1 and all(f.spaces is not None for f in d.facts)
    )  # fmt: skip
    notations = [row.notation for row in await storage.actions(game_id)]
    config = engine.Config.from_dict(game.config)
    pictures = [
        decision_picture(
            engine.replay(config, game.seed, notations[: d.ply]), d.played, d.best, width=400
        )
        for d in decisions
    ]
    same = sum(1 for i, a in enumerate(pictures) for b in pictures[i + 1 :] if alike(a, b))
    return len(decisions), told, same


async def stored_game(storage: SQLiteStorage, persons: int, seed: int, channel: int) -> int:
    """A finished game of `persons` people (the autopilot's moves), stored as the bot does."""
    config = engine.Config(seats=("human",) * persons)
    state, notations = engine.new_game(config, seed), []
    while not state.is_over:
        action = AutopilotPlayer().step(state)
        notations.append(str(action))
        state = engine.apply(state, action)
    game = await storage.create_game(
        guild_id=1, channel_id=channel, host_id=10, host_name="p0", options={}, seed=seed
    )
    seats = [SeatRow(k, "human", 10 + k, f"p{k}") for k in range(persons)]
    log = [NewAction(n + 1, text, 0, 10) for n, text in enumerate(notations)]
    await storage.update_game(
        game.id, game.version, seats=seats, config=config.to_dict(), status="over", actions=log
    )
    return game.id


async def review(service: ReviewService, storage: SQLiteStorage, game_id: int) -> float:
    start = time.monotonic()
    await storage.start_review(game_id)
    await service.run(game_id)
    return time.monotonic() - start


async def bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SQLiteStorage.open(str(Path(tmp) / "reviews.db"))
        two = await stored_game(storage, 2, 7, 900)
        four = await stored_game(storage, 4, 8, 901)
        experts = Experts(workers=2, scale=1.0)
        service = ReviewService(GameCore(storage), experts)
        fake = FakeDiscord(check_spec=False)
        await fake.start()
        bot = BotProcess(fake, tmp, env={"LOG_LEVEL": "WARNING"})
        try:
            await bot.start()
            await fake.wait_ready(timeout=120)
            rng = random.Random(args.games)
            games = [Game(fake, i, random.Random(rng.random()), args) for i in range(args.games)]
            starts = await asyncio.gather(*(g.start() for g in games))
            play = asyncio.gather(*(g.run(s) for g, s in zip(games, starts, strict=True)))
            await asyncio.sleep(args.think * 2)  # every game under way
            quiet = [(len(g.latencies), len(g.typed_latencies)) for g in games]
            await asyncio.sleep(args.baseline)  # the same load without a review, to compare
            before = [(len(g.latencies), len(g.typed_latencies)) for g in games]
            baseline = [
                x
                for g, (a, b), (c, d) in zip(games, quiet, before, strict=True)
                for x in g.latencies[a:c] + g.typed_latencies[b:d]
            ]
            s2 = await review(service, storage, two)
            s4 = await review(service, storage, four)
            during = [
                x
                for g, (a, b) in zip(games, before, strict=True)
                for x in g.latencies[a:] + g.typed_latencies[b:]
            ]
            load = os.getloadavg()
            play.cancel()
            counts = [await counted(storage, two), await counted(storage, four)]
            with contextlib.suppress(BaseException):  # the games were stopped mid-turn
                await play
        finally:
            experts.close()
            await bot.stop()
            await fake.stop()
            await storage.close()
    p99 = percentile(during, 0.99) * 1000 if during else float("nan")
    d, r, a = (sum(c[k] for c in counts) for k in range(3))
    print(
        f"review: a 2-person game reviewed in {s2:.1f} s (4-person: {s4:.1f} s); "
        f"other games' click-to-answer p99 {p99:.0f} ms during reviews; "
        f"{d} decisions, {r} with a reason, {a} pictures alike"
    )
    quiet = percentile(baseline, 0.99) * 1000 if baseline else float("nan")
    print(
        f"({len(during)} answers during the reviews; in the {args.baseline:.0f} s before them,"
        f" without a review, p99 {quiet:.0f} ms over {len(baseline)} answers; load average"
        f" (1, 5, 15 min) at the reviews' end: {load}, {os.cpu_count()} cores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="The Expert's review under load")
    parser.add_argument("--games", type=int, default=50, help="other games played meanwhile")
    parser.add_argument("--think", type=float, default=6.0, help="mean seconds per action")
    parser.add_argument("--actions", type=int, default=1000, help="actions per game at most")
    parser.add_argument(
        "--baseline", type=float, default=60.0, help="seconds measured before the reviews"
    )
    parser.add_argument("--per-turn", type=int, default=3, help="actions per turn at most")
    args = parser.parse_args()
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
