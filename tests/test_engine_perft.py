"""Exact legal-action counts at depths 1 and 2 (python-chess's perft files are the model).

The base game's counts come from an independent engine, Eirik0/BoardGameEngine (Java), run once
at the commit recorded in tests/data/perft_bge.json by bench/bge_perft.py (which says how its
moves map to ours and which positions its rules make incomparable). The other rule sets (the
expansion, Cynthia, the advanced variant), which no other engine plays, are pinned by counts our
own engine wrote once (tests/data/perft.json, ``python -m tests.perft``): those only detect a
change, and a changed count is a changed rule: regenerate only on purpose and read the diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.config import Config
from tests.perft import DATA, RULE_SETS, STOPS, perft, position

ENTRIES = json.loads(DATA.read_text())
BGE = json.loads((Path(__file__).parent / "data" / "perft_bge.json").read_text())


def test_the_independent_counts_are_recorded_with_their_engine_and_commit():
    assert BGE["engine"] == "https://github.com/Eirik0/BoardGameEngine"
    assert BGE["commit"] == "70d303d8dab6d415dacd6bf264790ae76480c428"
    positions = BGE["positions"]
    assert len(positions) == 162
    # Every player count, from the setup to round 17, and positions within a turn.
    assert {p["seats"] for p in positions} == {2, 3, 4}
    assert {p["position"] for p in positions if not p["actions"]} == {"setup"}
    rounds = {int(p["position"].split("-")[1].split("+")[0]) for p in positions if p["actions"]}
    assert min(rounds) == 1 and max(rounds) == 17
    assert {p["position"].split("+")[1] for p in positions if "+" in p["position"]} == {
        "0",
        "1",
        "2",
    }


@pytest.mark.parametrize(
    "entry",
    BGE["positions"],
    ids=[f"{p['seats']}-seats-seed-{p['seed']}-{p['position']}" for p in BGE["positions"]],
)
def test_base_game_perft_matches_boardgameengine(entry):
    state = engine.replay(
        Config(seats=("human",) * entry["seats"]), entry["seed"], entry["actions"]
    )
    assert [perft(state, 1), perft(state, 2)] == entry["perft"]


def test_the_data_covers_every_rule_set_and_position():
    assert {(e["rule_set"], e["position"]) for e in ENTRIES} >= {
        (name, stop) for name in RULE_SETS for stop in STOPS
    }


@pytest.mark.parametrize(
    "entry", ENTRIES, ids=[f"{e['rule_set']}-{e['position']}" for e in ENTRIES]
)
def test_perft(entry):
    state = position(entry)
    assert [perft(state, 1), perft(state, 2)] == entry["perft"]


@pytest.mark.parametrize(
    ("name", "counts"),
    [
        # 18 empty border spaces for the first starting tree, then 17 for the next seat's.
        ("base-2", [18, 18 * 17]),
        ("base-4-advanced", [18, 18 * 17]),
        # Two animals dealt to keep, then the next seat's two.
        ("all-modes", [2, 2 * 2]),
        # The Great Elder Tree on any of 37 spaces; then a starting tree on one of the 18 border
        # spaces, 17 when the Elder Tree took one of them.
        ("elder-tree", [37, 18 * 17 + 19 * 18]),
        # Three moonstones with 2 seats: the first on any space, the second on another.
        ("moonstones", [37, 37 * 36]),
        # Cynthia (seat 2) answers the first placement with her one decision.
        ("cynthia", [18, 18]),
        # Cynthia places the Great Elder Tree (one decision); seat 1 then a moonstone on 36.
        ("cynthia-elder-moonstones", [1, 36]),
    ],
)
def test_setup_counts_worked_out_by_hand(name, counts):
    entry = next(e for e in ENTRIES if e["rule_set"] == name and e["position"] == "setup")
    assert entry["perft"] == counts
    assert [perft(position(entry), 1), perft(position(entry), 2)] == counts
