"""Under the Moonlight speed: random 4-seat games, base game vs all three modes on.

Same method as ``bench/engine_bench.py`` (random legal play calling ``legal_actions`` and
``apply`` at every decision). Run: ``.venv/bin/python bench/moonlight_bench.py``. Prints medians;
one core. Goal: all modes keep at least half the base game's decisions per second.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from engine_bench import bench_play  # noqa: E402

import engine  # noqa: E402

BASE = engine.Config(seats=("human",) * 4)
ALL_MODES = engine.Config(seats=("human",) * 4, moon_animals=True, elder_tree=True, moonstones=True)
TWO_ALL = engine.Config(seats=("human",) * 2, moon_animals=True, elder_tree=True, moonstones=True)


def main() -> None:
    base, base_games = bench_play(BASE)
    full, full_games = bench_play(ALL_MODES)
    two, two_games = bench_play(TWO_ALL)
    print(
        f"random 4-seat games, base game:          median {base:,.0f} decisions/s, {base_games:.1f} games/s"
    )
    print(
        f"random 4-seat games, all moonlight modes: median {full:,.0f} decisions/s, {full_games:.1f} games/s"
    )
    print(f"random 2-seat games, all moonlight modes (3 moonstones): median {two:,.0f} decisions/s")
    print(f"all modes / base: {full / base:.2f} (goal >= 0.50)")


if __name__ == "__main__":
    main()
