"""The Expert's strength: whole games against Cynthia, the autopilot and itself (issue 18).

Run: ``.venv/bin/python bench/expert_bench.py [--games N] [--first K] [--budget 0.25]
[--jobs 2] [--only NAME ...] [--rules base|moonlight|both] [--by-animal]``.

For each match it prints the Expert's wins (a shared win counts half), the win rate with its 95%
Wilson interval, the goal, in 2-seat games both sides' average score and tokens, and the Expert's
mean CPU time per decision (its budget is counted in simulations, see ``engine.expert.search``). A match
plays games ``K`` to ``K + N - 1`` (``--first``, 0 unless told). The Expert takes seat 1 in even
games and seat 2 in odd ones; game ``k`` uses seed ``k`` for the game and the Expert. A game
without Cynthia has no chance in it, so there the starting trees are placed at random (from
``k``) to make every game different. Games run in ``--jobs`` processes.
"moonlight" games play every Under the Moonlight mode. With ``--by-animal`` each expansion match
also prints its games by the animal the Expert kept and, against a human seat, by the animal
that seat kept: an expansion game between people turns much on who keeps the Owl.
Four matches play only when named with ``--only``: ``no-playouts`` (the plan search alone, for
calibration), ``person-and-cynthia`` (a table of three: the Expert, a person played by the
Expert at a quarter of the budget, and Cynthia; the Expert wins a game by beating both), and
``cynthia-harder-grow`` and ``cynthia-harder-trees`` (Cynthia with one of her two harder options
alone, to see which makes her hard).
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import sys
import time
import tracemalloc
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.autopilot import autopilot_action  # noqa: E402
from engine.config import CYNTHIA_DIFFICULTY  # noqa: E402
from engine.expert import expert_action, facade  # noqa: E402, F401 (facade: before the fork)
from engine.moonlight import ANIMALS  # noqa: E402

HARD = CYNTHIA_DIFFICULTY["harder"]
MOON = {"moon_animals": True, "elder_tree": True, "moonstones": True}
#: name -> (opponent seats, Config options, opponent kind, goal win rate)
MATCHES = {
    "cynthia": (("cynthia",), {}, "cynthia", 0.80),
    "cynthia-hard": (("cynthia",), HARD, "cynthia", 0.50),
    "two-cynthias": (("cynthia", "cynthia"), {}, "cynthia", 0.60),
    "autopilot": (("human",), {}, "autopilot", 0.95),
    "quarter-budget": (("human",), {}, "expert/4", 0.65),
}
#: Matches not in the default list: against the plan search alone (calibration), at a table of
#: three with a person (the Expert at a quarter of the budget) and Cynthia, and against Cynthia
#: with each harder option alone.
EXTRA = {
    "no-playouts": (("human",), {}, "expert/0", None),
    "person-and-cynthia": (("human", "cynthia"), {}, "expert/4", None),
    "cynthia-harder-grow": (("cynthia",), {"harder_grow_minus_one": True}, "cynthia", None),
    "cynthia-harder-trees": (("cynthia",), {"harder_score_trees": True}, "cynthia", None),
}


def match_game(name: str, rules: str, k: int) -> tuple[engine.GameState, int]:
    """Game ``k`` of the match ``name``: the new game (seed ``k``) and the Expert's seat, which
    moves round the table from one game to the next."""
    opponents, options, _kind, _goal = {**MATCHES, **EXTRA}[name]
    me = k % (1 + len(opponents))
    seats = list(opponents)
    seats.insert(me, "human")
    extra = MOON if rules == "moonlight" else {}
    return engine.new_game(engine.Config(seats=tuple(seats), **options, **extra), seed=k), me


def play(args: tuple) -> tuple[float, int, int, int, int, int, float, int, tuple[str, str]]:
    """One game: ``(expert's result 1/0.5/0, its score, tokens, opponent score, tokens, seat,
    the Expert's CPU seconds, its decisions, the animals the Expert and the next seat kept)``
    (an animal is "" in a base game and for a Cynthia)."""
    name, rules, k, budget = args
    opponents, _options, kind, _goal = {**MATCHES, **EXTRA}[name]
    state, me = match_game(name, rules, k)
    n = state.n_seats
    opening = random.Random(k)
    cpu, decisions = 0.0, 0
    while not state.is_over:
        seat = state.current_seat
        if "cynthia" not in opponents and state.phase == "setup" and _places(state):
            # Human seats alone make a game without chance: random starting trees vary it.
            action = opening.choice(engine.legal_actions(state))
        elif seat == me:
            t = time.process_time()
            action = expert_action(state, budget_s=budget, seed=k)
            cpu += time.process_time() - t
            decisions += 1
        elif state.seats[seat].kind == "cynthia":
            action = engine.auto_action(state)
        elif kind == "autopilot":
            action = autopilot_action(state)
        elif kind == "expert/0":
            action = expert_action(state, budget_s=0, seed=k + 1)
        else:
            action = expert_action(state, budget_s=budget / 4, seed=k + 1)
        state = engine.apply(state, action)
    winners = engine.winners(state)
    result = 0.0 if me not in winners else 1.0 / len(winners)
    sc = engine.scores(state)
    other = (me + 1) % n
    return (
        result,
        sc[me],
        len(state.seats[me].tokens),
        sc[other],
        len(state.seats[other].tokens),
        me,
        cpu,
        decisions,
        (kept_animal(state, me), kept_animal(state, other)),
    )


def kept_animal(state: engine.GameState, seat: int) -> str:
    """The animal ``seat`` kept, or "" (a base game, a Cynthia)."""
    ext = state.ext
    return ANIMALS[ext.animal[seat]] if ext is not None and ext.animal[seat] >= 0 else ""


def by_animal(results: list[tuple]) -> list[str]:
    """The games of a match by the animal kept: first by the animal the Expert kept, then by
    the animal the other seat kept (a human seat's), each in the order of
    ``engine.moonlight.ANIMALS``; each line gives the games, the Expert's wins and its mean
    margin."""
    lines = []
    for side, who in ((0, "the Expert keeps"), (1, "the other seat keeps")):
        for animal in ANIMALS:
            games = [r for r in results if r[8][side] == animal]
            if games:
                won = sum(r[0] for r in games)
                margin = sum(r[1] - r[3] for r in games) / len(games)
                lines.append(
                    f"  {who} the {animal}: won {won:g} of {len(games)} "
                    f"({won / len(games):.0%}), margin {margin:+.1f}"
                )
    return lines


def memory_at(budget: float) -> tuple[float, float]:
    """``(peak traced MB of one decision, process peak RSS MB)`` for a mid-game decision of a
    2-seat game against Cynthia at ``budget`` (run in a fresh worker process)."""
    state = engine.new_game(engine.Config(seats=("human", "cynthia")), seed=11)
    while state.round < 7 or state.current_seat != 0:
        if state.current_seat == 0:
            action = expert_action(state, budget_s=0, seed=1)
        else:
            action = engine.auto_action(state)
        state = engine.apply(state, action)
    tracemalloc.start()
    expert_action(state, budget_s=budget, seed=1)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _places(state: engine.GameState) -> bool:
    return any(a.verb == "place" for a in engine.legal_actions(state))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per match")
    parser.add_argument("--first", type=int, default=0, help="the first game's seed")
    parser.add_argument("--budget", type=float, default=0.25, help="seconds per decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--only", nargs="*", choices=sorted({**MATCHES, **EXTRA}), default=list(MATCHES)
    )
    parser.add_argument("--rules", choices=("base", "moonlight", "both"), default="both")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory figure")
    parser.add_argument(
        "--by-animal", action="store_true", help="expansion matches: the games by animal kept"
    )
    args = parser.parse_args()
    rule_sets = ("base", "moonlight") if args.rules == "both" else (args.rules,)
    seeds = range(args.first, args.first + args.games)
    print(
        f"Expert at {args.budget} s per decision, {args.games} games per match "
        f"(seeds {seeds.start}-{seeds.stop - 1})"
    )
    if not args.no_memory:
        with Pool(1, maxtasksperchild=1) as pool:
            peak, rss = pool.apply(memory_at, (2.0,))
        print(
            f"memory of one decision at the strong budget (2 s): {peak:.1f} MB traced peak, "
            f"{rss:.0f} MB process peak RSS (goal < 200 MB per game)"
        )
    with Pool(args.jobs) as pool:
        for rules in rule_sets:
            for name in args.only:
                t = time.perf_counter()
                jobs = [(name, rules, k, args.budget) for k in seeds]
                results = pool.map(play, jobs)
                wins = sum(r[0] for r in results)
                lo, hi = wilson(wins, len(results))
                opponents, _, _, goal = {**MATCHES, **EXTRA}[name]
                line = (
                    f"{rules:9} vs {name:14}: won {wins:g}/{len(results)} = "
                    f"{wins / len(results):4.0%} (95% {lo:.0%}-{hi:.0%}"
                    + (f"; goal >= {goal:.0%})" if goal is not None else ")")
                )
                if len(opponents) == 1:
                    m = len(results)
                    line += (
                        f"; score {sum(r[1] for r in results) / m:.1f} vs "
                        f"{sum(r[3] for r in results) / m:.1f}, tokens "
                        f"{sum(r[2] for r in results) / m:.1f} vs {sum(r[4] for r in results) / m:.1f}"
                    )
                per = sum(r[6] for r in results) / max(1, sum(r[7] for r in results))
                line += f"; {per:.3f} s CPU per decision"
                print(line + f" [{time.perf_counter() - t:.0f} s]", flush=True)
                if args.by_animal and rules == "moonlight" and len(opponents) == 1:
                    print("\n".join(by_animal(results)), flush=True)


if __name__ == "__main__":
    main()
