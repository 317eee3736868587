"""Fit the Expert's evaluation on self-play games; writes data/expert_weights.json.

Run: ``.venv/bin/python bench/expert_train.py [--games N] [--iterations K] [--jobs J]``.

Two fits, both on games of the Expert's playout policy (greedy whole turns on the evaluation):

- the human seat's weights by coordinate ascent on its mean final margin over a fixed set of
  games (the same seeds for every trial) against normal and harder Cynthias and two Cynthias;
- Cynthia's weights (the evaluation's forecast of her final score, which she never uses to
  decide) by a ridge regression of the points she scored after each turn's start on her features
  and her features times the phase (rounds left / rounds), on games against the tuned seat.

A few minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine import expert  # noqa: E402
from engine.config import CYNTHIA_DIFFICULTY  # noqa: E402
from engine.fast import END_CODE, FastGame  # noqa: E402

WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "data" / "expert_weights.json"
HARD = CYNTHIA_DIFFICULTY["harder"]
CONFIGS = (
    engine.Config(seats=("human", "cynthia")),
    engine.Config(seats=("cynthia", "human")),
    engine.Config(seats=("human", "cynthia"), **HARD),
    engine.Config(seats=("cynthia", "human"), **HARD),
    engine.Config(seats=("human", "cynthia", "cynthia")),
    engine.Config(seats=("human", "human")),
    engine.Config(seats=("human", "human", "human")),
)
RIDGE = 1.0


def _noisy_turn(g: FastGame, rnd: random.Random) -> None:
    if rnd.random() < 0.1:
        plans = expert.plan_turn(g, g.cur, width=3, depth=6)[:3]
        for code in rnd.choice(plans)[1]:
            g.make(code)
        g.make(END_CODE)
    else:
        expert.greedy_turn(g)


def play_game(args: tuple) -> list[tuple[str, list[float], float, float]]:
    """One self-play game: ``(kind, features, phase, points to come)`` per seat and turn."""
    config_index, seed, w = args
    expert.use_weights(w)
    cfg = CONFIGS[config_index]
    rnd = random.Random(seed)
    state = engine.new_game(cfg, seed=seed)
    while state.phase == "setup":
        state = engine.apply(state, engine.expert.expert_action(state, budget_s=0, seed=seed))
    g = FastGame.from_state(state)
    rows = []
    while g.phase == 1:
        feats = expert.fast_features(g)
        phase = (cfg.last_round - g.round) / cfg.last_round
        now = [_banked(g, s) for s in range(g.n)]
        rows.append((feats, phase, now))
        if g.cyn[g.cur]:
            g.make(g.legal()[0])
        else:
            _noisy_turn(g, rnd)
    final = g.scores()
    out = []
    for feats, phase, now in rows:
        for s in range(g.n):
            kind = "cynthia" if g.cyn[s] else "human"
            out.append((kind, feats[s], phase, final[s] - now[s]))
    return out


def _banked(g: FastGame, seat: int) -> float:
    """What ``expert.fast_values`` adds outside the model: tokens, and Cynthia's tree points."""
    value = g.token_points(seat)
    if g.cyn[seat] and g.config.harder_score_trees:
        value += sum(size * g.masks[4 * seat + size].bit_count() for size in (1, 2, 3))
    return value


def fit(rows: list[tuple[list[float], float, float]]) -> list[float]:
    """Ridge regression of the points to come on ``[f, f * phase]``."""
    n = 2 * expert.N_FEATURES
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for f, phase, y in rows:
        x = f + [v * phase for v in f]
        for i in range(n):
            xi = x[i]
            if xi:
                row = a[i]
                for j in range(n):
                    row[j] += xi * x[j]
                b[i] += xi * y
    for i in range(n):
        a[i][i] += RIDGE
    return _solve(a, b)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        for r in range(n):
            if r != col and m[r][col]:
                factor = m[r][col] / p
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def _margin_game(args: tuple) -> tuple[float, float]:
    """One greedy game of the human seat's weights against Cynthias: ``(margin, result)``, the
    human seat taking each seat in turn (``seed % seats``)."""
    config_index, seed, w = args
    expert.use_weights(w)
    options, n_cynthias = TUNE_CONFIGS[config_index]
    me = seed % (n_cynthias + 1)
    seats = ["cynthia"] * n_cynthias
    seats.insert(me, "human")
    state = engine.new_game(engine.Config(seats=tuple(seats), **options), seed=seed)
    while state.phase == "setup":
        if state.current_seat == me:
            action = expert.expert_action(state, budget_s=0, seed=seed)
        else:
            action = engine.auto_action(state)
        state = engine.apply(state, action)
    g = FastGame.from_state(state)
    while g.phase == 1:
        if g.cyn[g.cur]:
            g.make(g.legal()[0])
        else:
            expert.greedy_turn(g)
    sc = g.scores()
    best_other = max(x for i, x in enumerate(sc) if i != me)
    result = 1.0 if sc[me] > best_other else 0.5 if sc[me] == best_other else 0.0
    return sc[me] - best_other, result


#: The tuning matches: normal Cynthia, Cynthia with both harder options, two Cynthias.
TUNE_CONFIGS = (({}, 1), (HARD, 1), ({}, 2))
#: A margin counts up to this many points either way (one lopsided game must not decide).
MARGIN_CLIP = 40
#: Points of objective per game won (so that winning, not only the margin, is sought).
WIN_BONUS = 15
#: The shape parameters the tuning moves, and their first step.
PARAM_STEPS = {"discount": 0.02, "share": 0.2, "buy": 0.2, "income": 0.1}


def tune_human(pool: Pool, w: dict, games: int, passes: int) -> dict:
    """Coordinate ascent on the human weights (all but the bias) and the shape parameters: the
    objective is the mean clipped margin plus ``WIN_BONUS`` per win over fixed games (the same
    seeds for every trial), ``games`` per match."""
    jobs = [(c, 1000 + k) for k in range(games) for c in range(len(TUNE_CONFIGS))]

    def score(candidate: dict) -> float:
        results = pool.map(_margin_game, [(c, seed, candidate) for c, seed in jobs], chunksize=4)
        clipped = [max(-MARGIN_CLIP, min(MARGIN_CLIP, m)) for m, _ in results]
        return (sum(clipped) + WIN_BONUS * sum(r for _, r in results)) / len(results)

    best = score(w)
    print(f"start: objective {best:+.2f}", flush=True)
    bias = expert.FEATURES.index("bias")
    indices = [j for j in range(2 * expert.N_FEATURES) if j % expert.N_FEATURES != bias]
    step = 1.0
    for p in range(passes):
        for j in [*indices, *PARAM_STEPS]:
            for sign in (1, -1):
                trial = {
                    "human": w["human"][:],
                    "cynthia": w["cynthia"],
                    "params": dict(w["params"]),
                }
                if isinstance(j, str):
                    value = trial["params"][j] + sign * PARAM_STEPS[j] * step
                    trial["params"][j] = max(0.0, value)
                else:
                    trial["human"][j] += sign * step * max(0.25, abs(trial["human"][j]) / 2)
                value = score(trial)
                if value > best:
                    best, w = value, trial
                    now = trial["params"][j] if isinstance(j, str) else round(w["human"][j], 4)
                    print(f"pass {p + 1}: {j} -> {now}: {best:+.2f}", flush=True)
                    break
        step /= 2
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=140, help="games per regression")
    parser.add_argument("--tune-games", type=int, default=40, help="games per match per trial")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    shipped = expert.weights()
    w = {
        "human": shipped["human"][:],
        "cynthia": shipped["cynthia"][:],
        "params": dict(shipped["params"]),
    }
    with Pool(args.jobs) as pool:
        t = time.perf_counter()
        w = tune_human(pool, w, args.tune_games, args.passes)
        print(f"tuned in {time.perf_counter() - t:.0f} s")
        t = time.perf_counter()
        jobs = [(k % len(CONFIGS), k, w) for k in range(args.games)]
        rows = [r for game in pool.map(play_game, jobs) for r in game]
        w["cynthia"] = fit([(f, ph, y) for k, f, ph, y in rows if k == "cynthia"])
        print(f"Cynthia's model: {args.games} games, {time.perf_counter() - t:.0f} s")
    data = {
        "features": list(expert.FEATURES),
        "note": "weights[:n] constant, weights[n:] times phase; fitted by bench/expert_train.py",
        "human": [round(x, 5) for x in w["human"]],
        "cynthia": [round(x, 5) for x in w["cynthia"]],
        "params": {k: round(v, 4) for k, v in w["params"].items()},
        # The reason lines' level is fitted on the Expert's games by bench/expert_calibrate.py:
        # kept as it is here; fit it again after new weights.
        "reason_level": json.loads(WEIGHTS_PATH.read_text())["reason_level"],
    }
    WEIGHTS_PATH.write_text(json.dumps(data, indent=1) + "\n")
    print("the reason lines' level was kept: run bench/expert_calibrate.py --write to fit it again")
    n = expert.N_FEATURES
    for kind in ("human", "cynthia"):
        pairs = zip(expert.FEATURES, w[kind][:n], w[kind][n:], strict=True)
        print(kind, " ".join(f"{name}={a:.2f}/{b:.2f}" for name, a, b in pairs))


if __name__ == "__main__":
    main()
