"""The base game's fixed positions of the picture tests, `tests/golden/positions.json`: each a new
game from a fixed seed and fixed notation, with how it is drawn (highlight, preview, viewer,
names)."""

from __future__ import annotations

import json

import engine
from tests.golden_helpers import GOLDEN

POSITIONS = json.loads((GOLDEN / "positions.json").read_text())


def build(name: str):
    """The state of a fixed position: a new game from a fixed seed, then fixed notation."""
    p = POSITIONS[name]
    state = engine.new_game(engine.Config(seats=tuple(p["seats"])), seed=p["seed"])
    for notation in p["actions"]:
        state = engine.apply(state, notation)
    return state
