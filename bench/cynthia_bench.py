"""Cynthia figures: decision time, and her results against a uniformly random legal player.

Run: ``.venv/bin/python bench/cynthia_bench.py [--games 200] [--self-games 100]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine import cynthia  # noqa: E402
from engine.config import CYNTHIA, HUMAN, Config  # noqa: E402


def play(config: Config, seed: int, turn_times: list[float], decision_times: list[float]):
    """Play one game: humans choose uniformly among the legal actions, Cynthias decide."""
    rnd = random.Random(seed)
    state = engine.new_game(config, seed)
    in_turn = None  # decide time summed over the current Cynthia turn
    while not state.is_over:
        seat = state.current_seat
        if state.seats[seat].kind == CYNTHIA:
            t0 = time.perf_counter()
            action, turn = cynthia.decide(state)
            dt = time.perf_counter() - t0
            if state.phase == "play":
                decision_times.append(dt)
                in_turn = dt if in_turn is None else in_turn + dt
            state = cynthia.perform(state, turn, action)
            if action.verb == "end" and in_turn is not None:
                turn_times.append(in_turn)
                in_turn = None
        else:
            state = engine.apply(state, rnd.choice(engine.legal_actions(state)))
    return state


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--self-games", type=int, default=100)
    args = p.parse_args()

    turn_times: list[float] = []
    decision_times: list[float] = []
    wins = ties = 0
    cyn_scores, rand_scores = [], []
    for g in range(args.games):
        seats = (HUMAN, CYNTHIA) if g % 2 == 0 else (CYNTHIA, HUMAN)
        state = play(Config(seats=seats), 1000 + g, turn_times, decision_times)
        me = seats.index(CYNTHIA)
        sc = engine.scores(state)
        cyn_scores.append(sc[me])
        rand_scores.append(sc[1 - me])
        won = engine.winners(state)
        if won == [me]:
            wins += 1
        elif me in won:
            ties += 1

    self_scores = []
    for g in range(args.self_games):
        state = play(Config(seats=(CYNTHIA, CYNTHIA)), 5000 + g, turn_times, decision_times)
        self_scores.extend(engine.scores(state))

    ms = 1000
    print(f"Cynthia decision time over {len(turn_times)} turns, {len(decision_times)} decisions:")
    print(
        f"  median per turn (all decisions of one turn): {statistics.median(turn_times) * ms:.3f} ms"
    )
    print(
        f"  95th percentile per turn:                    {statistics.quantiles(turn_times, n=20)[-1] * ms:.3f} ms"
    )
    print(
        f"  median per decision:                         {statistics.median(decision_times) * ms:.3f} ms"
    )
    print(
        f"Against a uniformly random legal player, {args.games} two-seat games (seat alternating):"
    )
    print(f"  Cynthia wins {wins} ({100 * wins / args.games:.1f}%), shared wins {ties}")
    print(
        f"  Cynthia average score {statistics.mean(cyn_scores):.1f}, random player {statistics.mean(rand_scores):.1f}"
    )
    print(
        f"Cynthia vs Cynthia, {args.self_games} games: average score {statistics.mean(self_scores):.1f}"
    )


if __name__ == "__main__":
    main()
