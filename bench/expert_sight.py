"""What knowing Cynthia's cards is worth to the Expert's own search, and why deep simulations fail.

Run: ``.venv/bin/python bench/expert_sight.py [--games N] [--lookahead K] [--sees]
[--spread] [--jobs 2]``.

This is an analysis, not a player: with ``--sees`` the Expert's simulations read what it may
not, Cynthia's real deck and the game's RNG (``FastGame.determinise`` replaced by a
copy of the true game). It plays the games of ``bench/expert_bench.py``'s match against
Cynthia with both harder options (its ``play``: same seeds, same seats, 0.25 s a decision) with
the Expert's ``LOOKAHEAD_TURNS`` set to ``--lookahead`` (2 as shipped; 40 plays every
simulation to the end of the game), and prints the games won and the mean margin.

With ``--spread`` it plays the Expert as shipped instead and, at every fifth decision of the
human seat, simulates each of the search's 4 candidates on 24 determinisations (common random
numbers) at ``--lookahead``: it prints, per revolution, the mean and median spread (standard
deviation) of a candidate's result minus the first candidate's over the same draws, which
decides how many simulations a comparison needs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.expert_bench import match_game, play  # noqa: E402
from engine import expert  # noqa: E402
from engine.expert import search  # noqa: E402
from engine.expert.fast import FastGame  # noqa: E402
from engine.expert.search import first_moves  # noqa: E402

#: Determinisations per candidate of ``--spread``.
DRAWS = 24
#: The quick budget, and the candidates its search simulates (18 simulations, 4 each).
QUICK_S = expert.Expert.QUICK_S
CANDIDATES = 4


def _setup(lookahead: int, sees: bool) -> None:
    """A worker's Expert: ``lookahead`` turns, and with ``sees`` simulations on the true game."""
    search.LOOKAHEAD_TURNS = lookahead
    if sees:
        FastGame.determinise = lambda g, _seat, _rnd: g.copy()  # type: ignore[method-assign]


def _spread(args: tuple) -> list[tuple[int, float]]:
    """For one game: ``(revolution, spread)`` for every candidate but the first, at every fifth
    decision of the human seat (the game itself played by the Expert as shipped)."""
    k, lookahead = args
    state, me = match_game("cynthia-hard", "base", k)
    out, decisions = [], 0
    while not state.is_over:
        if state.current_seat != me:
            state = engine.apply(state, engine.auto_action(state))
            continue
        if state.phase == "play":
            decisions += 1
            if decisions % 5 == 0:
                out += _candidates_spread(FastGame.from_state(state), me, lookahead, decisions)
        state = engine.apply(state, expert.expert_action(state, budget_s=QUICK_S, seed=k))
    return out


def _candidates_spread(g: FastGame, me: int, lookahead: int, salt: int) -> list[tuple[int, float]]:
    """The quick budget's candidates simulated at ``lookahead`` on the same ``DRAWS`` draws:
    ``(revolution, spread)`` of each candidate but the first against the first."""
    candidates = first_moves(search.root_plans(g, me, QUICK_S), CANDIDATES)
    rnd = random.Random(salt)
    draws = [rnd.getrandbits(64) for _ in range(DRAWS)]
    shipped = search.LOOKAHEAD_TURNS
    search.LOOKAHEAD_TURNS = lookahead
    try:
        results = [
            [search.simulate(g, me, plan, random.Random(draw)) for draw in draws]
            for plan in candidates
        ]
    finally:
        search.LOOKAHEAD_TURNS = shipped
    revolution = (g.round - 1) // 6 + 1
    return [
        (revolution, statistics.pstdev(a - b for a, b in zip(other, results[0], strict=True)))
        for other in results[1:]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--lookahead", type=int, default=search.LOOKAHEAD_TURNS)
    parser.add_argument("--sees", action="store_true", help="simulate on Cynthia's real cards")
    parser.add_argument("--spread", action="store_true", help="print the simulations' spread")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.spread:
        by_revolution = defaultdict(list)
        with Pool(args.jobs) as pool:
            jobs = [(k, args.lookahead) for k in range(args.games)]
            for rows in pool.imap(_spread, jobs):
                for revolution, spread in rows:
                    by_revolution[revolution].append(spread)
        for revolution, spreads in sorted(by_revolution.items()):
            print(
                f"lookahead {args.lookahead}, revolution {revolution}: spread of a candidate's "
                f"result against the first's, mean {statistics.mean(spreads):.1f} points, "
                f"median {statistics.median(spreads):.1f} ({len(spreads)} comparisons, "
                f"{DRAWS} draws each)"
            )
        return
    with Pool(args.jobs, initializer=_setup, initargs=(args.lookahead, args.sees)) as pool:
        jobs = [("cynthia-hard", "base", k, QUICK_S) for k in range(args.games)]
        results = pool.map(play, jobs, chunksize=1)
    won = sum(r[0] for r in results)
    margin = sum(r[1] - r[3] for r in results) / len(results)
    sight = "Cynthia's real cards" if args.sees else "cards drawn afresh (as shipped)"
    print(
        f"the Expert, lookahead {args.lookahead}, simulating on {sight}: "
        f"won {won:g}/{len(results)} against the harder Cynthia, margin {margin:+.1f} a game"
    )


if __name__ == "__main__":
    main()
