"""Fit the level the Expert's reason lines add to its margin against a Cynthia (issue 18).

Run: ``.venv/bin/python bench/expert_calibrate.py [--first K] [--games N] [--jobs J] [--write]``.

The reason line says "expected margin +4.2 points". Against a Cynthia the evaluation's margin is
far too low early in the game (see ``engine.expert_eval.expected_margin``), so the line adds a
level, ``a * phase + b * phase ** 2`` (phase: rounds left over the rounds). This plays games
``K`` to ``K + N - 1`` of the bench's matches against Cynthia, Cynthia with both harder options
and two Cynthias, in the base game and the expansion, at 0.25 s a decision (the same games as
``bench/expert_bench.py``), and at each of the Expert's decisions takes the evaluation's margin
(the line's margin less the shipped level) and the game's final margin. It fits ``a`` and ``b``
per rule set by least squares on the difference, prints how far the lines are from the final
margins with no level, with the shipped one and with the fitted one (root mean square, and the
mean difference by revolution), and with ``--write`` stores the fitted level in
``data/expert_weights.json``. The level changes no decision: only what the line says.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from expert_bench import match_game  # noqa: E402

import engine  # noqa: E402
from engine import expert_moonlight  # noqa: E402, F401 (imported before the workers fork)
from engine.expert import expert_action  # noqa: E402
from engine.expert_eval import expected_margin  # noqa: E402

WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "data" / "expert_weights.json"
MATCHES = ("cynthia", "cynthia-hard", "two-cynthias")
RULES = ("base", "moonlight")


def game(args: tuple) -> tuple[str, list[tuple[float, float, int]], float]:
    """One game: its rule set, ``(phase, the evaluation's margin, revolution 0-2)`` at each of
    the Expert's decisions that states a margin, and its final margin over the best other
    seat."""
    name, rules, k = args
    state, me = match_game(name, rules, k)
    rows = []
    while not state.is_over:
        if state.current_seat != me:
            state = engine.apply(state, engine.auto_action(state))
            continue
        action = expert_action(state, budget_s=0.25, seed=k)
        stated = action.explanation.params.get("margin") if state.phase == "play" else None
        if stated is not None:
            level = expected_margin(0.0, state.config, state.round, me)
            last = state.config.last_round
            revolution = 3 * (state.round - 1) // last
            rows.append(((last - state.round) / last, float(stated) - level, revolution))
        state = engine.apply(state, action)
    scores = engine.scores(state)
    final = scores[me] - max(s for i, s in enumerate(scores) if i != me)
    return rules, rows, final


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """``(a, b)`` minimising the squares of ``y - a * phase - b * phase ** 2``."""
    s11 = sum(p * p for p, _ in points)
    s12 = sum(p**3 for p, _ in points)
    s22 = sum(p**4 for p, _ in points)
    t1 = sum(p * y for p, y in points)
    t2 = sum(p * p * y for p, y in points)
    det = s11 * s22 - s12 * s12
    return (t1 * s22 - t2 * s12) / det, (s11 * t2 - s12 * t1) / det


def rms(values: list[float]) -> float:
    return math.sqrt(sum(v * v for v in values) / len(values))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--write", action="store_true", help="store the fitted level")
    args = ap.parse_args()
    seeds = range(args.first, args.first + args.games)
    jobs = [(name, rules, k) for rules in RULES for name in MATCHES for k in seeds]
    with Pool(args.jobs) as pool:
        games = pool.map(game, jobs, chunksize=1)
    data = json.loads(WEIGHTS_PATH.read_text())
    for rules in RULES:
        # (phase, what the final margin adds to the evaluation's margin, revolution)
        points = [
            (p, final - m, rev) for r, rows, final in games if r == rules for p, m, rev in rows
        ]
        a, b = fit([(p, y) for p, y, _rev in points])
        shipped = data["reason_level"][rules]
        played = sum(r == rules for r, _rows, _final in games)
        print(f"{rules}: {len(points)} decisions of {played} games")
        for label, (la, lb) in (("no level", (0, 0)), ("shipped", shipped), ("fitted", (a, b))):
            errors = [(y - la * p - lb * p * p, rev) for p, y, rev in points]
            miss = rms([e for e, _rev in errors])
            by_revolution = []
            for rev in range(3):
                part = [e for e, r in errors if r == rev]
                by_revolution.append(f"{sum(part) / max(1, len(part)):+.1f}")
            print(
                f"  {label:8s} a={la:+7.2f} b={lb:+7.2f}: the line misses the final margin by "
                f"{miss:.1f} points (rms); mean by revolution {', '.join(by_revolution)}"
            )
        data["reason_level"][rules] = [round(a, 2), round(b, 2)]
    if args.write:
        WEIGHTS_PATH.write_text(json.dumps(data, indent=1) + "\n")
        print(f"written to {WEIGHTS_PATH}")


if __name__ == "__main__":
    main()
