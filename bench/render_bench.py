"""Render benchmark: prints figures, asserts nothing.

    python bench/render_bench.py [--repeat N]

Figures: the median time to render a mid-game 4-seat position at full size (drawing and PNG
encoding, the static board already cached), the median time to only encode the same finished
image with Pillow's PNG encoder (same settings), their ratio (goal: at most 2.0), the PNG size
(goal: at most 250 KB), and the one-off time to build the cached static board and sprites.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
import render  # noqa: E402
from render.demo import play_through, touched  # noqa: E402
from render.draw import encode_png  # noqa: E402


def mid_game_state():
    """A 4-seat position in round 9 of 18 (two eager random players, two Cynthias)."""
    config = engine.Config(seats=("human", "human", "cynthia", "cynthia"))
    state, last = play_through(config, seed=2024, rng_seed=2024, stop=lambda s: s.round >= 9)
    return state, touched(last)


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description="Render benchmark")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    state, hl = mid_game_state()
    names = ["Alice", "Bob", None, None]
    t = time.perf_counter()
    png = render.board_png(state, highlight=hl, names=names)
    first_ms = (time.perf_counter() - t) * 1000
    image = render.render_image(state, highlight=hl, names=names)
    render_ms = median_ms(lambda: render.board_png(state, highlight=hl, names=names), args.repeat)
    draw_ms = median_ms(lambda: render.render_image(state, highlight=hl, names=names), args.repeat)
    encode_ms = median_ms(lambda: encode_png(image), args.repeat)
    print(
        f"position: round {state.round}, {len(state.to_dict()['board'])} pieces on the board, 4 seats"
    )
    print(f"image: {image.width}x{image.height} RGB")
    print(f"first render (builds base and sprites): {first_ms:.1f} ms")
    print(f"render median (draw + encode): {render_ms:.1f} ms")
    print(f"  of which drawing median: {draw_ms:.1f} ms")
    print(f"encode-only median (same image): {encode_ms:.1f} ms")
    print(f"ratio render / encode-only: {render_ms / encode_ms:.2f} (goal <= 2.0)")
    print(f"PNG size: {len(png) / 1024:.1f} KB (goal <= 250 KB)")


if __name__ == "__main__":
    main()
