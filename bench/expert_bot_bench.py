"""The Expert at the table: how long its decisions take through the bot's worker pool, and what
its thinking costs the event loop.

    .venv/bin/python bench/expert_bot_bench.py [--positions 12] [--seed 1]

Positions: 2-seat games of a person (the autopilot) and Cynthia, taken every few rounds; in each
the person's seat is given to the Expert (`bot.services.experts.Experts`, one worker process).

Figures:
- per strength (quick 0.25 s, strong 2 s), the wall time of one decision through the pool
  (pickling, the worker's search, the answer): median, 90th percentile and maximum, and how
  many of them took longer than the budget;
- the event loop while the strong Expert plays whole turns: a ticker due every 10 ms, its
  lateness (median and maximum), with the Expert in a worker process and, for comparison, in a
  thread of the same process (`EXPERT_WORKERS=0`).
Asserts nothing; run it alone for figures that mean something (`nice` it on a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import engine
from bot.services.experts import EXPERT_BUDGETS, Experts
from engine.players import AutopilotPlayer, CynthiaPlayer, play_until

TICK = 0.010


def positions(count: int, seed: int) -> list[engine.GameState]:
    """The person's turns in a few games, every third round."""
    out: list[engine.GameState] = []
    game = 0
    while len(out) < count:
        state = engine.new_game(engine.Config(seats=("human", "cynthia")), seed=seed + game)
        players = [AutopilotPlayer(), CynthiaPlayer()]
        for wanted in range(1, 18, 3):
            state, _ = play_until(
                state,
                players,
                lambda s, r=wanted: s.phase == "play" and s.round >= r and s.current_seat == 0,
            )
            if state.is_over or len(out) >= count:
                break
            out.append(state)
        game += 1
    return out


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def decision_times(experts: Experts, states: list[engine.GameState], kind: str) -> None:
    budget = EXPERT_BUDGETS[kind]
    times = []
    for state in states:
        start = time.perf_counter()
        await experts.decide(state, kind, 1)
        times.append(time.perf_counter() - start)
    over = sum(t > budget for t in times)
    print(
        f"{kind:14} budget {budget:4.2f} s: median {statistics.median(times):.3f} s, "
        f"p90 {quantile(times, 0.9):.3f} s, max {max(times):.3f} s, "
        f"{over}/{len(times)} over the budget"
    )


async def loop_lateness(experts: Experts, states: list[engine.GameState], label: str) -> None:
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        due = time.perf_counter() + TICK
        while not done.is_set():
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            late.append(max(0.0, time.perf_counter() - due))
            due = time.perf_counter() + TICK

    ticking = asyncio.create_task(ticker())
    start = time.perf_counter()
    for state in states:
        await experts.turn(state, "expert-strong", 1)
    took = time.perf_counter() - start
    done.set()
    await ticking
    print(
        f"event loop, the strong Expert {label:17}: {len(states)} turns in {took:.1f} s, "
        f"ticks late by median {statistics.median(late) * 1000:.1f} ms, "
        f"max {max(late) * 1000:.1f} ms ({len(late)} ticks)"
    )


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    states = positions(args.positions, args.seed)
    pool = Experts(workers=1, scale=1.0)
    await pool.decide(states[0], "expert", 1)  # the worker started and warm
    try:
        for kind in EXPERT_BUDGETS:
            await decision_times(pool, states, kind)
        await loop_lateness(pool, states[:3], "in a worker")
    finally:
        pool.close()
    threaded = Experts(workers=0, scale=1.0)
    await loop_lateness(threaded, states[:3], "in a thread")


if __name__ == "__main__":
    asyncio.run(main())
