"""Ratings at scale (issue 45): the rebuild of every rating from N finished games.

    .venv/bin/python bench/ratings_bench.py [--games 100000] [--seed 45]

The games are generated, deterministically from ``--seed``: 2-4 seats each, about 200 people
spread over 5 servers (each person plays on one or two servers), Cynthia at each difficulty and
the Expert at each budget taking some seats, a quarter of the games with Under the Moonlight, a
few abandoned (they are not rated), ties now and then; finish times one minute apart.

Prints, for the core (the ratings computed from the games in memory, `bot.ratings.rate`):

    ratings: rebuild N games in S s (core; C s of CPU; ...)

Goal at N = 100,000 on the 2-core machine: S <= 60. The machine is shared: the CPU time this
process used (C) says what the rebuild costs when the wall time (S) is stretched by others.

The database part of the issue's figures (fill SQLite and PostgreSQL with the games, then
`python -m bot.ratings rebuild`, the leaderboard's and the profile's p99) is `bench_database`,
to be written once the ratings' storage exists: it takes the same generated games (`games`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ratings import GameResult, SeatResult, digest, identity, rate  # noqa: E402
from bot.ratings.core import Family  # noqa: E402

SERVERS = (1001, 1002, 1003, 1004, 1005)
PEOPLE = 200
#: The bots' identities: Cynthia at a few difficulties (named and mixed), the Expert's budgets.
BOTS = (
    identity.cynthia({}),
    identity.cynthia({"easier_no_final_collect": True, "easier_grow_plus_one": True,
                      "easier_two_small_start": True}),
    identity.cynthia({"harder_grow_minus_one": True, "harder_score_trees": True}),
    identity.cynthia({"harder_score_trees": True}),
    identity.expert("expert"),
    identity.expert("expert-strong"),
)  # fmt: skip
START = datetime(2026, 1, 1, tzinfo=UTC)


def games(n: int, seed: int = 45) -> Iterator[GameResult]:
    """``n`` generated games (the same ones for the same ``n`` and ``seed``), oldest first."""
    rng = random.Random(seed)
    # Each person plays on a home server, and a third of them on a second one too.
    homes = {
        user: rng.sample(SERVERS, 2 if rng.random() < 1 / 3 else 1)
        for user in range(10**17, 10**17 + PEOPLE)
    }
    regulars = {server: [u for u, h in homes.items() if server in h] for server in SERVERS}
    skill = {user: rng.gauss(0, 1) for user in homes}
    for game_id in range(1, n + 1):
        server = rng.choice(SERVERS)
        n_seats = rng.choice((2, 2, 3, 3, 3, 4, 4))
        n_bots = rng.choice((0, 0, 0, 1, 1, 2)) if n_seats > 2 else rng.choice((0, 1, 1))
        n_people = max(1, n_seats - n_bots)
        people = rng.sample(regulars[server], n_people)
        seats = [identity.person(u) for u in people]
        seats += [rng.choice(BOTS) for _ in range(n_seats - n_people)]
        rng.shuffle(seats)
        # Scores: skill plus luck; equal scores (ties) happen with 2-point steps.
        strength = [skill.get(int(s.split(":")[1]), 0.5) if s.startswith("user:") else 0.8
                    for s in seats]  # fmt: skip
        scores = [2 * round(8 * (x + rng.gauss(0, 1))) for x in strength]
        places = [1 + sum(other > mine for other in scores) for mine in scores]
        family: Family = "moonlight" if rng.random() < 0.25 else "base"
        yield GameResult(
            game_id=game_id,
            finished_at=(START + timedelta(minutes=game_id)).isoformat(),
            server_id=server,
            family=family,
            seats=tuple(SeatResult(who, place) for who, place in zip(seats, places)),
            status="abandoned" if rng.random() < 0.03 else "over",
        )


def bench_core(n: int, seed: int) -> float:
    """The rebuild from games in memory: seconds."""
    results = list(games(n, seed))
    began, cpu = time.perf_counter(), time.process_time()
    ratings = rate(results)
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    print(
        f"ratings: rebuild {n} games in {took:.1f} s (core; {cpu:.1f} s of CPU; "
        f"{ratings.games} rated, {len(ratings.table)} ratings, digest {digest(ratings.table)})"
    )
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=45)
    args = parser.parse_args()
    bench_core(args.games, args.seed)


if __name__ == "__main__":
    main()
