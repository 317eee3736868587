"""Learn a correction of the Expert's evaluation from self-play; writes data/expert_learned.json.

Run: ``nice -n 15 .venv/bin/python bench/expert_learn.py [--games N] [--first 10000] [--jobs J]
[--target points|margin] [--lam 1.0]``.

The games: the Expert's playout policy (greedy whole turns on the evaluation, one turn in ten
one of the three best short plans at random, as ``bench/expert_train.py`` plays) in two-seat
games between people (random starting trees) and against Cynthia from either seat, game ``k``
on seed ``first + k`` (10000-11999 by default: seeds no other script uses, and
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
from engine.expert import search  # noqa: E402
from engine.expert.fast import FastGame  # noqa: E402

OUT = Path(str(ev.learned_file()))
CONFIGS = (("human", "human"), ("human", "cynthia"), ("cynthia", "human"))
RIDGE = 3.0

Row = tuple[int, int, list[float], float, float, float]  # game, turn, features, phase, forecast, y


def play_game(args: tuple[int, list[float] | None]) -> list[tuple]:
    """One self-play game (seed, the correction the players use or None): per human seat and
    turn, ``(seat, learned features, phase, hand forecast, banked points now, final score)``."""
    seed, correction = args
    ev.use_learned(correction if correction is not None else False)
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
    rows: list[tuple] = []
    while g.phase == 1:
        rounds_left = cfg.last_round - g.round
        phase = rounds_left / cfg.last_round
        incomes = ev._incomes(g, rounds_left, range(g.n))
        for s in range(g.n):
            if g.cyn[s]:
                continue
            # the hand-made forecast alone (the memo may hold it with the correction)
            f_hand = ev._seat_features(g, s, rounds_left, incomes[s], w["params"])
            forecast = ev.predict(w["human"], f_hand, phase)
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


def _design_of(g: FastGame, seat: int) -> list[float]:
    """``design`` of a seat's learned features on a fast position."""
    rounds_left = g.config.last_round - g.round
    (income,) = ev._incomes(g, rounds_left, (seat,))
    f = ev.learned_features(
        g.masks, seat, g.light[seat], g.avail[4 * seat : 4 * seat + 4], income[1]
    )
    return design(f, rounds_left / g.config.last_round)


def harvest_game(seed: int) -> list[list[tuple[list[float], float]]]:
    """One game of the Expert at ``HARVEST_BUDGET`` against itself or Cynthia (``CONFIGS`` in
    turn, random starting trees between people), its simulations recorded: per decision, per
    plan it simulated, ``(x, r)``: ``x`` the learned design of the seat at the plan's end minus
    that of the other seat when it is a person (the correction moves both forecasts), ``r``
    the plan's mean simulated margin minus the evaluation's margin at the plan's end (what the
    lookahead knows that the evaluation does not)."""
    ev.use_learned(False)
    seats = CONFIGS[seed % len(CONFIGS)]
    rnd = random.Random(seed)
    state = engine.new_game(engine.Config(seats=seats), seed=seed)
    decisions: list[list[tuple[list[float], float]]] = []
    current: dict[tuple[int, ...], tuple[list[float], float, list[float]]] = {}
    simulate = search.simulate

    def recorded(pos: FastGame, seat: int, plan: list[int], draw: random.Random) -> float:
        value = simulate(pos, seat, plan, draw)
        entry = current.get(tuple(plan))
        if entry is None:
            end = search.play_plan(pos.copy(), plan)
            x = _design_of(end, seat)
            other = 1 - seat
            if not end.cyn[other]:
                x = [a - b for a, b in zip(x, _design_of(end, other), strict=True)]
            entry = current[tuple(plan)] = (x, end.margin(seat), [])
        entry[2].append(value)
        return value

    search.simulate = recorded  # type: ignore[assignment]
    try:
        while not state.is_over:
            legal = engine.legal_actions(state)
            if state.seats[state.current_seat].kind == "cynthia":
                action = engine.auto_action(state)
            elif "cynthia" not in seats and state.phase == "setup" and legal[0].verb == "place":
                action = rnd.choice(legal)
            else:
                current.clear()
                action = engine.expert_action(state, budget_s=HARVEST_BUDGET, seed=seed)
                if len(current) >= 2:
                    decisions.append(
                        [(x, sum(vs) / len(vs) - hand) for x, hand, vs in current.values()]
                    )
            state = engine.apply(state, action)
    finally:
        search.simulate = simulate
    return decisions


#: The budget of the Expert whose simulations are distilled (the bot's).
HARVEST_BUDGET = 0.25


def fit_centred(decisions: list[list[tuple[list[float], float]]]) -> list[float]:
    """Ridge regression, within each decision, of the plans' ``r`` about their mean on their
    ``x`` about theirs: the correction that ranks a decision's plans as the lookahead did (a
    shift common to them changes no choice)."""
    n = 2 * ev.N_LEARNED
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    rows = 0
    for plans in decisions:
        mx = [sum(x[i] for x, _ in plans) / len(plans) for i in range(n)]
        mr = sum(r for _, r in plans) / len(plans)
        for x, r in plans:
            d = [xi - mi for xi, mi in zip(x, mx, strict=True)]
            nz = [(i, v) for i, v in enumerate(d) if v]
            for i, v in nz:
                row = a[i]
                for j, u in nz:
                    row[j] += v * u
                b[i] += v * (r - mr)
            rows += 1
    for i in range(n):
        a[i][i] += RIDGE * rows / 1000 + 1e-6
    return _solve(a, b)


def centred_rmse(decisions: list[list[tuple[list[float], float]]], w: list[float] | None) -> float:
    total, count = 0.0, 0
    for plans in decisions:
        preds = [sum(wi * xi for wi, xi in zip(w, x)) if w else 0.0 for x, _ in plans]
        mp = sum(preds) / len(plans)
        mr = sum(r for _, r in plans) / len(plans)
        for (_x, r), p in zip(plans, preds, strict=True):
            total += ((r - mr) - (p - mp)) ** 2
            count += 1
    return math.sqrt(total / max(1, count))


def duel(args: tuple[int, list[float]]) -> tuple[float, float]:
    """A greedy game between two people, one playing with the correction: its result and
    margin. Game ``k`` of a check: seed ``DUEL_SEEDS + k // 2``, the corrected seat ``k % 2``,
    random starting trees."""
    k, correction = args
    seed, me = DUEL_SEEDS + k // 2, k % 2
    rnd = random.Random(seed)
    state = engine.new_game(engine.Config(seats=("human", "human")), seed=seed)
    while state.phase == "setup":
        state = engine.apply(state, rnd.choice(engine.legal_actions(state)))
    g = FastGame.from_state(state)
    while g.phase == 1:
        ev.use_learned(correction if g.cur == me else False)
        search.greedy_turn(g)  # the fast path plays in place
    sc = g.scores()
    m = sc[me] - sc[1 - me]
    return (1.0 if m > 0 else 0.5 if m == 0 else 0.0), float(m)


#: What the correction is, by method (the weights file's note).
NOTES = {
    "td": "a person's points to come beyond the hand-made forecast, TD(lambda) ridge regression",
    "distil": (
        "the Expert's lookahead's gain over the evaluation at a plan's end, ridge regression "
        "about each decision's mean (distilled from its simulations)"
    ),
}

#: The greedy duels' seeds (20000 and up).
DUEL_SEEDS = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", choices=("td", "distil"), default="td")
    parser.add_argument("--games", type=int, default=1000, help="games (per iteration, td)")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--first", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--lam", type=float, default=1.0, help="TD(lambda); 1: Monte Carlo")
    parser.add_argument("--duels", type=int, default=100, help="greedy games of each check")
    parser.add_argument("--out", type=Path, default=OUT, help="(data/expert_learned.json)")
    args = parser.parse_args()
    games: list[list] = []
    w: list[float] | None = None
    first = args.first
    with Pool(args.jobs) as pool:
        if args.method == "distil":
            t = time.perf_counter()
            seeds = range(first, first + args.games)
            first += args.games
            decisions = pool.map(harvest_game, seeds, chunksize=1)
            train = [d for i, game in enumerate(decisions) if i % 5 != 4 for d in game]
            test = [d for i, game in enumerate(decisions) if i % 5 == 4 for d in game]
            w = fit_centred(train)
            duels = pool.map(duel, [(k, w) for k in range(args.duels)], chunksize=4)
            won = sum(r for r, _ in duels)
            print(
                f"distilled: {args.games} games (seeds {args.first}-{first - 1}), "
                f"{sum(map(len, train))} plans of {len(train)} decisions fitted; held-out "
                f"rmse of the lookahead's gain over the evaluation, about each decision's mean: "
                f"{centred_rmse(test, None):.2f} without the correction, "
                f"{centred_rmse(test, w):.2f} with it; greedy duel against the hand-made: won "
                f"{won:g} of {len(duels)}, margin {sum(m for _, m in duels) / len(duels):+.1f} "
                f"[{time.perf_counter() - t:.0f} s]",
                flush=True,
            )
        for iteration in range(args.iterations if args.method == "td" else 0):
            t = time.perf_counter()
            seeds = range(first, first + args.games)
            first += args.games
            games += pool.map(play_game, [(seed, w) for seed in seeds], chunksize=8)
            rows = targets(games, args.lam, w)
            train = [r for i, game in enumerate(rows) if i % 5 != 4 for r in game]
            test = [r for i, game in enumerate(rows) if i % 5 == 4 for r in game]
            w = fit(train)
            duels = pool.map(duel, [(k, w) for k in range(args.duels)], chunksize=4)
            won = sum(r for r, _ in duels)
            print(
                f"iteration {iteration + 1}: {len(games)} games (seeds {args.first}-{first - 1}), "
                f"held-out rmse of the points to come {rmse(test, None):.2f} hand-made, "
                f"{rmse(test, w):.2f} corrected; greedy duel against the hand-made: won {won:g} "
                f"of {len(duels)}, margin {sum(m for _, m in duels) / len(duels):+.1f} "
                f"[{time.perf_counter() - t:.0f} s]",
                flush=True,
            )
    assert w is not None
    seeds = range(args.first, first)
    data = {
        "features": list(ev.LEARNED_FEATURES),
        "note": NOTES[args.method]
        + ": weights[:n] constant, weights[n:] times phase; bench/expert_learn.py",
        "seeds": [seeds[0], seeds[-1]],
        "method": args.method,
        **(
            {"lambda": args.lam, "iterations": args.iterations}
            if args.method == "td"
            else {"budget": HARVEST_BUDGET}
        ),
        "weights": [round(x, 5) for x in w],
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    n = ev.N_LEARNED
    print(
        " ".join(f"{name}={a:.2f}/{b:.2f}" for name, a, b in zip(ev.LEARNED_FEATURES, w[:n], w[n:]))
    )


if __name__ == "__main__":
    main()
