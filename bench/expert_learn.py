"""Learn a correction of the Expert's evaluation from self-play; writes data/expert_learned.json.

Run: ``nice -n 15 .venv/bin/python bench/expert_learn.py [--games N] [--first 10000] [--jobs J]
[--target points|margin] [--lam 1.0]``.

The games: the Expert's playout policy (greedy whole turns on the evaluation, one turn in ten
one of the three best short plans at random, as ``bench/expert_train.py`` plays) in two-seat
games between people (random starting trees) and against Cynthia from either seat, game ``k``
on seed ``first + k`` (10000-10999 by default: seeds no other script uses, and
``bench/expert_match.py`` plays 70000 and up). At the start of every turn it records, for each
human seat, the hand-made forecast of its points still to come (``eval._forecast``), the
features of the learned part (``eval.LEARNED_FEATURES``) and the phase.

The target of a row is what the hand-made forecast misses: with ``--lam 1`` (Monte Carlo, TD(1))
the points the seat went on to score beyond its banked points at that turn, minus the forecast;
with ``--lam`` below 1, TD(lambda) targets, each the lambda-mixed returns of the next turns'
forecasts (with the current fit, a few sweeps). The fit is a ridge regression on
the features and the features times the phase; the script prints the forecast's root mean square
error with and without the correction on every fifth game, held out of the fit.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.expert_train import _banked, _noisy_turn, _solve  # noqa: E402
from engine.expert import eval as ev  # noqa: E402
from engine.expert.fast import FastGame  # noqa: E402

OUT = Path(str(ev.learned_file()))
CONFIGS = (("human", "human"), ("human", "cynthia"), ("cynthia", "human"))
RIDGE = 3.0

Row = tuple[int, int, list[float], float, float, float]  # game, turn, features, phase, forecast, y


def play_game(seed: int) -> list[tuple[int, list[float], float, float, float, float]]:
    """One self-play game: per human seat and turn, ``(seat, learned features, phase, hand
    forecast, banked points now, final score)``."""
    seats = CONFIGS[seed % len(CONFIGS)]
    cfg = engine.Config(seats=seats)
    rnd = random.Random(seed)
    state = engine.new_game(cfg, seed=seed)
    while state.phase == "setup":
        legal = engine.legal_actions(state)
        if "cynthia" not in seats:
            action = rnd.choice(legal)
        elif state.seats[state.current_seat].kind == "cynthia":
            action = engine.auto_action(state)
        else:
            action = engine.expert_action(state, budget_s=0, seed=seed)
        state = engine.apply(state, action)
    g = FastGame.from_state(state)
    w = ev.weights()
    rows = []
    while g.phase == 1:
        rounds_left = cfg.last_round - g.round
        phase = rounds_left / cfg.last_round
        incomes = ev._incomes(g, rounds_left, range(g.n))
        for s in range(g.n):
            if g.cyn[s]:
                continue
            forecast = ev._forecast(g, s, rounds_left, incomes[s], w)
            f = ev.learned_features(
                g.masks, s, g.light[s], g.avail[4 * s : 4 * s + 4], incomes[s][1]
            )
            rows.append((s, f, phase, forecast, _banked(g, s), 0.0))
        if g.cyn[g.cur]:
            g.make(g.legal()[0])
        else:
            _noisy_turn(g, rnd)
    final = g.scores()
    return [(s, f, ph, fc, now, float(final[s])) for s, f, ph, fc, now, _ in rows]


def design(f: list[float], phase: float) -> list[float]:
    return f + [x * phase for x in f]


def fit(rows: list[tuple[list[float], float, float]]) -> list[float]:
    """Ridge regression of ``y`` on ``[f, f * phase]`` (the bias unpenalised)."""
    n = 2 * ev.N_LEARNED
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for f, phase, y in rows:
        x = design(f, phase)
        nz = [(i, xi) for i, xi in enumerate(x) if xi]
        for i, xi in nz:
            row = a[i]
            for j, xj in nz:
                row[j] += xi * xj
            b[i] += xi * y
    for i in range(n):
        if i != 0:
            a[i][i] += RIDGE * len(rows) / 1000
    return _solve(a, b)


def rmse(rows: list[tuple[list[float], float, float]], w: list[float] | None) -> float:
    total = 0.0
    for f, phase, y in rows:
        c = ev.learned_correction(w, f, phase) if w is not None else 0.0
        total += (y - c) ** 2
    return math.sqrt(total / max(1, len(rows)))


def targets(games: list[list], lam: float, w: list[float] | None) -> list[list[tuple]]:
    """Per game: ``(features, phase, target)`` rows, the target being what the hand-made forecast
    misses of the lambda-return: from a seat's last turn the final score; from an earlier turn
    ``(1 - lam) * V(next turn) + lam * return(next turn)``, where ``V`` is the seat's banked
    points plus the forecast plus the correction ``w`` (TD(lambda); ``lam = 1``: the final
    score, Monte Carlo)."""
    out = []
    for rows in games:
        by_seat: dict[int, list] = {}
        for r in rows:
            by_seat.setdefault(r[0], []).append(r)
        game_rows = []
        for seat_rows in by_seat.values():
            ret: float | None = None
            value = 0.0
            for _s, f, ph, fc, now, final in reversed(seat_rows):
                ret = final if ret is None else (1 - lam) * value + lam * ret
                game_rows.append((f, ph, ret - now - fc))
                corr = ev.learned_correction(w, f, ph) if w is not None else 0.0
                value = now + fc + corr
        out.append(game_rows)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--first", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--lam", type=float, default=1.0, help="TD(lambda); 1: Monte Carlo")
    parser.add_argument("--sweeps", type=int, default=3, help="fits of the TD targets")
    args = parser.parse_args()
    seeds = list(range(args.first, args.first + args.games))
    t = time.perf_counter()
    with Pool(args.jobs) as pool:
        games = pool.map(play_game, seeds, chunksize=8)
    print(f"{len(games)} games, {sum(map(len, games))} rows, {time.perf_counter() - t:.0f} s")
    train_idx = [i for i in range(len(games)) if i % 5 != 4]
    test_idx = [i for i in range(len(games)) if i % 5 == 4]
    w: list[float] | None = None
    for _sweep in range(1 if args.lam >= 1 else args.sweeps):
        rows = targets(games, args.lam, w)
        train = [r for i in train_idx for r in rows[i]]
        test = [r for i in test_idx for r in rows[i]]
        w = fit(train)
        print(
            f"held-out rmse of the points to come: {rmse(test, None):.2f} hand-made, "
            f"{rmse(test, w):.2f} with the correction ({len(train)} rows fitted)",
            flush=True,
        )
    assert w is not None
    data = {
        "features": list(ev.LEARNED_FEATURES),
        "note": (
            "a person's points to come beyond the hand-made forecast: weights[:n] constant, "
            "weights[n:] times phase; ridge regression by bench/expert_learn.py"
        ),
        "seeds": [seeds[0], seeds[-1]],
        "lambda": args.lam,
        "weights": [round(x, 5) for x in w],
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    n = ev.N_LEARNED
    print(
        " ".join(f"{name}={a:.2f}/{b:.2f}" for name, a, b in zip(ev.LEARNED_FEATURES, w[:n], w[n:]))
    )


if __name__ == "__main__":
    main()
