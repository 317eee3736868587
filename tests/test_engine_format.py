"""Stored positions keep loading: format-1 positions written by the engine before the layering
(tests/data/positions_v1.json, with the actions that reached them) are migrated to format 2."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

import engine
from engine.state import FORMAT, migrate

STORED = json.loads((Path(__file__).parent / "data" / "positions_v1.json").read_text())


@pytest.mark.parametrize("stored", STORED, ids=[x["name"] for x in STORED])
def test_a_format_1_position_loads_and_plays_on(stored):
    d = stored["position"]
    assert d["format"] == 1
    state = engine.GameState.from_dict(d)
    out = state.to_dict()
    assert out["format"] == FORMAT == 2
    for key in ("board", "seats", "piles", "round", "sun", "current_seat", "activated", "rng"):
        assert out[key] == d[key]
    if "cynthia" in engine.Config.from_dict(d["config"]).seats:
        assert out["cynthia"] == d["cynthia"]
    else:
        assert "cynthia" not in out and all(x is None for x in d["cynthia"])
    if "moonlight" in d:
        assert out["moonlight"] == d["moonlight"]
    assert engine.GameState.from_dict(out) == state
    assert engine.legal_actions(state)


def test_the_base_positions_equal_a_replay_of_their_actions():
    for stored in STORED[:2]:  # no expansion ability was played: the rules did not change
        cfg = engine.Config.from_dict(stored["position"]["config"])
        replayed = engine.replay(cfg, stored["seed"], stored["actions"])
        loaded = engine.GameState.from_dict(stored["position"])
        assert replayed.to_dict() == loaded.to_dict()


def test_migration_refuses_a_newer_format():
    with pytest.raises(ValueError, match="newer than this engine"):
        migrate({"format": FORMAT + 1})
    assert migrate({"format": 1, "cynthia": [None, None]}) == {"format": 2}
    kept = migrate({"format": 1, "cynthia": [None, {"deck": [1], "half": "early"}]})
    assert kept["cynthia"][1] == {"deck": [1], "half": "early"}


def test_a_state_pickles_and_copies_without_its_cached_rules():
    stored = STORED[2]  # Under the Moonlight with a Cynthia: both layers' state
    cfg = engine.Config.from_dict(stored["position"]["config"])
    state = engine.replay(cfg, stored["seed"], stored["actions"])
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert again == state and again.to_dict() == state.to_dict()
        assert engine.legal_actions(again) == engine.legal_actions(state)


def test_a_state_built_slot_by_slot_finds_its_rules():
    state = engine.new_game(engine.Config(seats=("human", "cynthia")), 3)
    bare = engine.GameState.__new__(engine.GameState)
    for name in engine.GameState.__slots__:
        if name != "rules":
            setattr(bare, name, getattr(state, name))
    assert bare == state and engine.legal_actions(bare) == engine.legal_actions(state)
    assert engine.apply(bare, "place A1") == engine.apply(state, "place A1")
