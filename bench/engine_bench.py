"""Engine speed: light_for_sun on a full mid-game board, and random play of 4-seat games.

Run: ``make bench`` or ``.venv/bin/python bench/engine_bench.py``. Prints medians; one core.
It also prints the search's fast path (``engine.fast``) on the same random play, and with
``--bge PATH`` (a checkout of Eirik0/BoardGameEngine) that Java engine's random play of its
Photosynthesis, measured in the same run by bench/BgeRandomPlay.java (compiled here with javac).
Both sides count the same thing: whole 4-seat games from a new position, every decision listing
the legal moves and playing one chosen uniformly at random (about 225 decisions a game on each
side: setup placements, buys, plants, grows, collects and ends of turn), one warm-up run, then the
median of five 2-second runs. ``--cpu`` times the facade, the fast path and the Java harness by
the CPU time of the playing thread instead of the wall clock, for a machine shared with others.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.fast import FastGame  # noqa: E402
from engine.position import build  # noqa: E402

FOUR = engine.Config(seats=("human",) * 4)


def mid_game_board() -> engine.GameState:
    """A crowded 4-seat board: 24 pieces of every size spread over the rings."""
    board = {
        "D4": (0, 3), "C3": (1, 2), "C4": (2, 2), "D5": (3, 3), "E4": (0, 2), "E3": (1, 1),
        "D3": (2, 1), "B2": (3, 2), "B3": (0, 1), "B4": (1, 3), "C5": (2, 0), "D6": (3, 1),
        "E5": (0, 0), "F4": (1, 1), "F3": (2, 3), "F2": (3, 0), "E2": (0, 1), "D2": (1, 0),
        "A1": (2, 1), "A4": (3, 1), "D7": (0, 1), "G4": (1, 1), "G1": (2, 1), "D1": (3, 1),
    }  # fmt: skip
    return build(FOUR, board, sun=2)


def bench_light(repeats: int = 7, calls: int = 20000) -> float:
    state = mid_game_board()
    runs = []
    for _ in range(repeats):
        t = time.perf_counter()
        for sun in range(calls):
            engine.light_for_sun(state, sun % 6)
        runs.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(runs)


def play_random_games(
    cfg: engine.Config, seconds: float, seed: int, clock=time.perf_counter
) -> tuple[int, int, float]:
    """Random legal play calling legal_actions and apply at every decision."""
    rnd = random.Random(seed)
    decisions = games = 0
    start = clock()
    while clock() - start < seconds:
        state = engine.new_game(cfg, seed=rnd.randrange(1 << 30))
        while not state.is_over:
            state = engine.apply(state, rnd.choice(engine.legal_actions(state)))
            decisions += 1
        games += 1
    return decisions, games, clock() - start


def bench_play(
    cfg: engine.Config, repeats: int = 5, seconds: float = 2.0, cpu: bool = False
) -> tuple[float, float]:
    clock = time.thread_time if cpu else time.perf_counter
    rates, game_rates = [], []
    for k in range(repeats):
        decisions, games, elapsed = play_random_games(cfg, seconds, seed=k, clock=clock)
        rates.append(decisions / elapsed)
        game_rates.append(games / elapsed)
    return statistics.median(rates), statistics.median(game_rates)


def play_random_fast(
    cfg: engine.Config, seconds: float, seed: int, clock=time.perf_counter
) -> tuple[int, int, float]:
    """The same uniform random play on ``engine.fast.FastGame``: whole games from the start
    (``FastGame.new``, as the Java harness makes a new position), each decision lists the legal
    codes and makes one chosen uniformly (the loop of BgeRandomPlay.java). Returns decisions,
    games and seconds on ``clock``."""
    rnd = random.Random(seed)
    pick = rnd.random
    decisions = games = 0
    start = clock()
    while clock() - start < seconds:
        game = FastGame.new(cfg, rnd.randrange(1 << 30))
        legal, make = game.legal, game.make
        while True:
            codes = legal()
            if not codes:
                break
            make(codes[int(pick() * len(codes))])
            decisions += 1
        games += 1
    return decisions, games, clock() - start


def bench_fast(
    cfg: engine.Config, repeats: int = 5, seconds: float = 2.0, cpu: bool = False
) -> tuple[float, float]:
    """Median decisions/s of the fast path and its decisions per game (one warm-up run first,
    as the Java harness does, so both sides are measured warm)."""
    clock = time.thread_time if cpu else time.perf_counter
    play_random_fast(cfg, seconds, 12345, clock)
    rates, decisions, games = [], 0, 0
    for k in range(repeats):
        d, g, elapsed = play_random_fast(cfg, seconds, k, clock)
        rates.append(d / elapsed)
        decisions += d
        games += g
    return statistics.median(rates), decisions / games


def compile_bge(checkout: Path, harness: Path, out: str) -> None:
    """Compile BoardGameEngine's Photosynthesis (from a checkout) and ``harness`` into ``out``."""
    src = checkout / "src" / "bge"
    sources = [
        src / "game" / "photosynthesis" / f"{name}.java"
        for name in ("PhotosynthesisPosition", "IPhotosynthesisMove", "PhotosynthesisConstants")
    ] + [
        src / "igame" / f"{name}.java"
        for name in ("IPosition", "MoveList", "ArrayMoveList", "Coordinate", "IDeepCopy")
    ]
    subprocess.run(
        ["javac", "--release", "17", "-d", out, *map(str, sources), str(harness)], check=True
    )


def bench_bge(
    checkout: Path, seats: int, repeats: int = 5, seconds: float = 2.0, cpu: bool = False
) -> tuple[float, float]:
    """Median decisions/s of BoardGameEngine's random play (compiled to a temporary folder)
    and its decisions per game."""
    harness = Path(__file__).resolve().parent / "BgeRandomPlay.java"
    with tempfile.TemporaryDirectory() as out:
        compile_bge(checkout, harness, out)
        result = subprocess.run(
            ["java", "-cp", out, "BgeRandomPlay", str(seats), str(seconds), str(repeats)]
            + (["cpu"] if cpu else []),
            check=True,
            capture_output=True,
            text=True,
        )
    rate, per_game = result.stdout.split()
    return float(rate), float(per_game)


def load_average() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def compare_fast_path(bge: Path | None, cpu: bool) -> None:
    unit = "decisions per CPU second of the playing thread" if cpu else "decisions/s"
    facade, _ = bench_play(FOUR, cpu=cpu)
    fast, fast_per_game = bench_fast(FOUR, cpu=cpu)
    print(
        f"same random 4-seat play ({unit}): facade {facade:,.0f}, fast path (engine.fast) "
        f"{fast:,.0f} ({fast / facade:.1f}x the facade), "
        f"{fast_per_game:.1f} decisions a game; {load_average()}"
    )
    if bge is not None:
        java, java_per_game = bench_bge(bge, 4, cpu=cpu)
        print(
            f"BoardGameEngine (Java, same uniform random policy, 4 seats): {java:,.0f}, "
            f"{java_per_game:.1f} decisions a game; facade 1/{java / facade:.1f} of it, "
            f"fast path 1/{java / fast:.1f} (goal 1/6); {load_average()}"
        )


def main() -> None:
    light_us = bench_light()
    print(f"light_for_sun, 24-piece 4-seat board: median {light_us:.2f} us per call (goal <= 20)")
    rate, games = bench_play(FOUR)
    print(
        f"random 4-seat games (legal_actions + apply per decision): median {rate:,.0f} "
        f"decisions/s, {games:.1f} games/s on one core (goal >= 15,000 decisions/s)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bge", type=Path, help="a checkout of Eirik0/BoardGameEngine")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the fast path and the Java harness by their playing thread's CPU time "
        "(steadier on a shared machine; wall time otherwise)",
    )
    args = parser.parse_args()
    main()
    compare_fast_path(args.bge, args.cpu)
