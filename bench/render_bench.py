"""Render benchmark: prints figures, asserts nothing.

    python bench/render_bench.py [--repeat N] [--before TREE]

Figures, for a mid-game 4-seat position of the base game and one with all of Under the
Moonlight's modes: the median time to render it at full size (drawing and PNG encoding, the
static board already cached), the median time to only encode the same finished image with
Pillow's PNG encoder (same settings), their ratio (goal: at most 2.0), the PNG size (goal: at
most 250 KB), and the one-off time to build the cached static board and sprites.
`--before TREE` first runs the same benchmark of another checkout (its own `.venv`), so the two
sets of figures come from the same run on the same machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
import render  # noqa: E402
from render.demo import play_through, touched  # noqa: E402
from render.draw import encode_png  # noqa: E402


def mid_game_state(config=None):
    """A 4-seat position in round 9 of 18 (two eager random players, two Cynthias)."""
    config = config or engine.Config(seats=("human", "human", "cynthia", "cynthia"))
    state, last = play_through(config, seed=2024, rng_seed=2024, stop=lambda s: s.round >= 9)
    return state, touched(last)


#: The same seats with every mode of Under the Moonlight on.
MOONLIGHT = engine.Config(
    seats=("human", "human", "cynthia", "cynthia"),
    moon_animals=True,
    elder_tree=True,
    moonstones=True,
)


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def figures(title: str, state, hl, names, repeat: int) -> None:
    t = time.perf_counter()
    png = render.board_png(state, highlight=hl, names=names)
    first_ms = (time.perf_counter() - t) * 1000
    image = render.render_image(state, highlight=hl, names=names)
    render_ms = median_ms(lambda: render.board_png(state, highlight=hl, names=names), repeat)
    draw_ms = median_ms(lambda: render.render_image(state, highlight=hl, names=names), repeat)
    encode_ms = median_ms(lambda: encode_png(image), repeat)
    pieces = len(state.to_dict()["board"])
    print(f"== {title}")
    print(f"position: round {state.round}, {pieces} pieces on the board, 4 seats")
    print(f"image: {image.width}x{image.height} RGB")
    print(f"first render (builds base and sprites): {first_ms:.1f} ms")
    print(f"render median (draw + encode): {render_ms:.1f} ms")
    print(f"  of which drawing median: {draw_ms:.1f} ms")
    print(f"encode-only median (same image): {encode_ms:.1f} ms")
    print(f"ratio render / encode-only: {render_ms / encode_ms:.2f} (goal <= 2.0)")
    print(f"PNG size: {len(png) / 1024:.1f} KB (goal <= 250 KB)")


def main() -> None:
    parser = argparse.ArgumentParser(description="Render benchmark")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--before", type=Path, help="another checkout to measure first")
    args = parser.parse_args()
    print(f"load average (1, 5, 15 min): {os.getloadavg()}, {os.cpu_count()} cores")
    if args.before is not None:
        tree = args.before.resolve()
        print(f"###### before: {tree}")
        script = tree / "bench/render_bench.py"
        command = [str(tree / ".venv/bin/python"), str(script), "--repeat", str(args.repeat)]
        subprocess.run(command, cwd=tree, check=True)
        print(f"\n###### after: {Path(__file__).resolve().parent.parent}")
    names = ["Alice", "Bob", None, None]
    state, hl = mid_game_state()
    figures("base game", state, hl, names, args.repeat)
    state, hl = mid_game_state(MOONLIGHT)
    ext = state.to_dict()["moonlight"]
    animals = [x["animal"] for x in ext["seats"] if x["animal"]]
    print()
    figures("Under the Moonlight, all modes", state, hl, names, args.repeat)
    print(
        f"  moon at gap {ext['moon']['gap']} ({ext['moon']['phase']}), animals {animals}, "
        f"elder {ext['elder']}, moonstones {ext['moonstones']}, dam {ext['dam']}, "
        f"{len(ext['beach'])} face-down tokens"
    )


if __name__ == "__main__":
    main()
