"""The order of the tests under work stealing (`tests.durations`): the slow ones first, spread
over the workers' first blocks, each whole module in one block."""

from __future__ import annotations

from dataclasses import dataclass

from tests.durations import block_sizes, order, unit_of


@dataclass
class Item:
    nodeid: str


def test_block_sizes_are_xdists_first_split():
    assert block_sizes(10, 4) == [2, 2, 3, 3]
    assert block_sizes(1530, 4) == [382, 382, 383, 383]
    assert block_sizes(3, 1) == [3]


def test_an_e2e_test_is_a_unit_and_another_module_is_one():
    assert unit_of("tests/e2e/test_lobby.py::test_a[x-1]") == "tests/e2e/test_lobby.py::test_a"
    assert unit_of("tests/test_expert.py::test_b[seats0]") == "tests/test_expert.py"
    assert unit_of("tests/test_expert.py::TestX::test_c") == "tests/test_expert.py"


def test_the_slow_units_lead_the_blocks_of_even_time():
    e2e = [Item(f"tests/e2e/test_game.py::test_{n}") for n in "abcd"]
    module = [Item(f"tests/test_slow.py::test_{n}") for n in range(3)]
    fast = [Item(f"tests/test_fast.py::test_{n}") for n in range(9)]
    table = {
        "tests/e2e/test_game.py::test_a": 10.0,
        "tests/e2e/test_game.py::test_b": 40.0,
        "tests/e2e/test_game.py::test_c": 30.0,
        "tests/e2e/test_game.py::test_d": 20.0,
        "tests/test_slow.py": 35.0,
    }
    ordered = order([*fast, *e2e, *module], 2, table)
    first, second = ordered[:8], ordered[8:]
    ids = [[i.nodeid.split("::")[1] for i in block] for block in (first, second)]
    # 40 + 20 + 10 in one block, the module's 35 + 30 in the other; the fast module does not
    # fit whole in either: it fills the less loaded block first
    assert ids == [
        ["test_b", "test_d", "test_a", "test_4", "test_5", "test_6", "test_7", "test_8"],
        ["test_0", "test_1", "test_2", "test_c", "test_0", "test_1", "test_2", "test_3"],
    ]
    assert second[:3] == module
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in [*fast, *e2e, *module])
