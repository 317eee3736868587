"""The Expert's decisions on a fixed set of games, hashed: equal hashes on two trees show that
the Expert decides the same in both (a refactoring of the search changes nothing it plays).

Run: ``.venv/bin/python bench/expert_decisions.py [--budget 0.1] [--tree PATH]``. Every seat
but Cynthia's is played by the Expert (seed: the game's seed times ten plus the seat), at
``--budget``; a game's hash is the sha256 of its actions, one per line, and the last line hashes
every game's hash. ``--tree`` imports the engine of another checkout (for example main's) so
both trees run with this script.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from types import ModuleType

MOON = {"moon_animals": True, "elder_tree": True, "moonstones": True}
#: (name, seats, options, seeds): base against Cynthia, at three with two people and a Cynthia,
#: between people (no chance), and the expansion against Cynthia and between people.
GAMES = (
    ("base-cynthia", ("human", "cynthia"), {}, (1, 2, 3)),
    ("base-3-seats", ("human", "human", "cynthia"), {}, (1, 2)),
    ("base-people", ("human", "human"), {}, (1,)),
    ("moon-cynthia", ("human", "cynthia"), MOON, (1, 2)),
    ("moon-people", ("human", "human"), MOON, (1, 2)),
)


def game_hash(
    engine: ModuleType,
    seats: tuple[str, ...],
    options: dict[str, bool],
    seed: int,
    budget: float,
    limit: int | None = None,
) -> tuple[str, int]:
    """The sha256 of one game's actions (the seat and ``str(action)``, one a line; the first
    ``limit`` actions only, if given) and its count of Expert decisions."""
    state = engine.new_game(engine.Config(seats=seats, **options), seed=seed)
    digest = hashlib.sha256()
    decisions = 0
    while not state.is_over and (limit is None or limit > 0):
        if limit is not None:
            limit -= 1
        seat = state.current_seat
        if state.seats[seat].kind == "cynthia":
            action = engine.auto_action(state)
        else:
            action = engine.expert_action(state, budget_s=budget, seed=10 * seed + seat)
            decisions += 1
        digest.update(f"{seat} {action}\n".encode())
        state = engine.apply(state, action)
    return digest.hexdigest(), decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    import engine

    print(f"engine from {Path(engine.__file__).resolve().parent}, budget {args.budget}")
    total = hashlib.sha256()
    for name, seats, options, seeds in GAMES:
        for seed in seeds:
            t = time.process_time()
            h, n = game_hash(engine, seats, options, seed, args.budget)
            total.update(h.encode())
            cpu = time.process_time() - t
            print(f"{name:13} seed {seed}: {h[:16]}  {n:3} decisions  {cpu:5.1f} s CPU", flush=True)
    print(f"all games: {total.hexdigest()}")


if __name__ == "__main__":
    main()
