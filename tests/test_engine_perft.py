"""Exact legal-action counts at depths 1 and 2 from fixed positions of every rule set
(tests/data/perft.json, written once by ``python -m tests.perft``; python-chess's perft files are
the model). A changed count is a changed rule: regenerate only on purpose and read the diff."""

from __future__ import annotations

import json

import pytest

from tests.perft import DATA, RULE_SETS, STOPS, perft, position

ENTRIES = json.loads(DATA.read_text())


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
