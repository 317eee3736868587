"""Exact legal-action counts ("perft", as python-chess's perft files) from fixed positions of
every rule set, kept in tests/data/perft.json and checked by tests/test_engine_perft.py.

A position is a rule set (tests.play_helpers.RULE_SETS), a seed and the actions that reach it;
``perft(state, 1)`` is the number of legal actions, ``perft(state, 2)`` the number of legal
actions after each of them, summed. Regenerate the file only when a rule changes on purpose:
``.venv/bin/python -m tests.perft`` (then read the diff: every changed count is a changed rule).
The base game is also counted by an independent engine (bench/bge_perft.py,
tests/data/perft_bge.json).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import engine
from engine.moonlight import arrange
from engine.position import build
from tests.play_helpers import RULE_SETS

DATA = Path(__file__).parent / "data" / "perft.json"
SEED = 11
#: The positions: the first setup decision, and the first decision of a player's seat (not an
#: automa) in round 3 and in round 9, after seeded random play.
STOPS = {
    "setup": lambda s: True,
    "round-3": lambda s: s.round >= 3 and s.seats[s.current_seat].kind != "cynthia",
    "round-9": lambda s: s.round >= 9 and s.seats[s.current_seat].kind != "cynthia",
}


#: A crowded board with light to spend (the engine benchmark's), for the "rich" positions.
RICH_BOARD = {
    "D4": (0, 3), "C3": (1, 2), "C4": (2, 2), "E4": (0, 2), "E3": (1, 1), "D3": (2, 1),
    "B3": (0, 1), "B4": (1, 3), "C5": (2, 0), "E5": (0, 0), "F4": (1, 1), "F3": (2, 3),
    "E2": (0, 1), "D2": (1, 0), "A1": (2, 1), "D7": (0, 1), "G4": (1, 1), "G1": (2, 1),
}  # fmt: skip
RICH = {
    "base-3": lambda cfg: build(cfg, RICH_BOARD, light=[12, 9, 15], sun=2),
    "all-modes": lambda cfg: arrange(
        build(cfg, RICH_BOARD, light=[12, 9, 15], sun=2),
        animals={0: ("fox", "C4"), 1: ("beaver", "F1"), 2: ("turtle", "A4")},
        elder="B2",
        moonstones=["F5"],
        moon=(10, True),
        lunar=[14, 14, 14],
        beach={"A4": "seed", "G4": "double"},
        babies={2: ["harvest", "light", "rich"]},
    ),
}


def position(entry: dict) -> engine.GameState:
    """The position of a perft entry."""
    cfg = RULE_SETS[entry["rule_set"]]
    if entry["position"] == "rich":
        return RICH[entry["rule_set"]](cfg)
    return engine.replay(cfg, entry["seed"], entry["actions"])


def perft(state: engine.GameState, depth: int) -> int:
    if depth == 0 or state.is_over:
        return 1
    actions = engine.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(engine.apply(state, a), depth - 1) for a in actions)


def reach(name: str, stop: str) -> list[str]:
    """The actions of seeded random play from a new game until ``STOPS[stop]`` holds."""
    rnd = random.Random(f"{name}/{stop}")
    state = engine.new_game(RULE_SETS[name], SEED)
    actions: list[str] = []
    while not STOPS[stop](state):
        action = rnd.choice(engine.legal_actions(state))
        actions.append(str(action))
        state = engine.apply(state, action)
    return actions


def generate() -> list[dict]:
    entries = [
        {"rule_set": name, "position": stop, "seed": SEED, "actions": reach(name, stop)}
        for name in RULE_SETS
        for stop in STOPS
    ] + [{"rule_set": name, "position": "rich", "seed": 0, "actions": []} for name in RICH]
    for entry in entries:
        state = position(entry)
        entry["perft"] = [perft(state, 1), perft(state, 2)]
    return entries


if __name__ == "__main__":
    DATA.write_text(json.dumps(generate(), indent=1) + "\n")
    print(f"wrote {DATA}")
