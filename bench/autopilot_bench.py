"""The autopilot against a uniformly random legal player: win rate over 200 two-seat games.

Run: ``.venv/bin/python bench/autopilot_bench.py [games]``. Seats alternate between games.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.autopilot import autopilot_action  # noqa: E402


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    cfg = engine.Config(seats=("human", "human"))
    wins = ties = 0
    scores, opponent, timings = [], [], []
    for g in range(games):
        seat = g % 2
        rnd = random.Random(50_000 + g)
        state = engine.new_game(cfg, seed=50_000 + g)
        while not state.is_over:
            if state.current_seat == seat:
                t = time.perf_counter()
                action = autopilot_action(state)
                timings.append(time.perf_counter() - t)
            else:
                action = rnd.choice(engine.legal_actions(state))
            state = engine.apply(state, action)
        best = engine.winners(state)
        wins += best == [seat]
        ties += seat in best and len(best) > 1
        sc = engine.scores(state)
        scores.append(sc[seat])
        opponent.append(sc[1 - seat])
    print(
        f"autopilot vs random, {games} two-seat games: won {wins} ({100 * wins / games:.1f}%), "
        f"shared {ties}; average score {statistics.mean(scores):.1f} vs "
        f"{statistics.mean(opponent):.1f} (goal >= 95% wins)"
    )
    print(f"autopilot decision time: median {1000 * statistics.median(timings):.2f} ms")


if __name__ == "__main__":
    main()
