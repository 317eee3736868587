"""`engine.text.why_missing`: why the panel does not offer an action of the turn."""

from __future__ import annotations

import engine
from engine.moonlight import arrange
from engine.position import build
from engine.text import why_missing

BOARD = {"A1": (0, 1), "D4": (0, 3), "G4": (1, 1)}


def test_nothing_is_missing_when_every_action_is_possible() -> None:
    state = build(engine.Config(), BOARD, light=[4, 0])
    assert why_missing(state) == {}


def test_without_light_each_action_says_what_it_costs() -> None:
    state = build(engine.Config(), BOARD, light=[0, 0])
    assert why_missing(state) == {
        "buy": "Buying a seed costs 1 light point; you have 0.",
        "plant": "Planting costs 1 light point; you have 0.",
        "grow": "Growing into a medium tree costs 2 light points; you have 0.",
        "collect": "Collecting costs 4 light points; you have 0.",
    }


def test_without_pieces_the_reason_is_the_board_itself() -> None:
    state = build(engine.Config(), {}, light=[3, 0])
    assert why_missing(state) == {
        "plant": "None of your trees has an empty space within reach.",
        "grow": "You have no piece on the board that can grow.",
        "collect": "You have no large tree on the board.",
    }


def test_a_used_space_comes_after_the_other_reasons() -> None:
    state = build(engine.Config(), {"D4": (0, 3), "G4": (1, 1)}, light=[4, 0])
    state = engine.apply(state, "collect D4")  # 0 light left, D4 now empty and used
    assert why_missing(state)["collect"] == "You have no large tree on the board."
    state = build(engine.Config(), {"D4": (0, 1), "A1": (0, 0), "G4": (1, 1)}, light=[2, 0])
    state = engine.apply(state, "grow D4")  # D4 used this turn; 0 light left
    assert why_missing(state)["grow"] == (
        "Growing into a small tree costs 1 light point; you have 0. "
        "D4 was already used this turn (one action per space per turn)."
    )


def test_nothing_is_said_in_setup_or_after_the_game() -> None:
    assert why_missing(engine.new_game(engine.Config(), seed=1)) == {}


def test_a_moonstone_is_named_and_never_taken_for_the_reason() -> None:
    """Issue 44: "Plant: not now. A1 is not empty. Planting costs 1 light point; you have 0."
    when A1 held a moonstone the player never tried: the reason is the light, and a planting
    onto a moonstone (or the Great Elder Tree) says what is there."""
    config = engine.Config(seats=("human", "human"), moonstones=True, elder_tree=True)
    board = {"B2": (0, 1), "G4": (1, 1)}
    state = arrange(build(config, board, light=[0, 0]), moonstones=["A1"], elder="C2")
    assert why_missing(state)["plant"] == "Planting costs 1 light point; you have 0."
    rich = arrange(build(config, board, light=[5, 0]), moonstones=["A1"], elder="C2")
    for target, what in (("A1", "a moonstone"), ("C2", "the Great Elder Tree")):
        try:
            engine.apply(rich, f"plant B2 {target}")
        except engine.IllegalAction as refusal:
            assert str(refusal) == f"{target} holds {what}: nothing can be planted there."
        else:
            raise AssertionError(f"planted on {target}")


def test_the_light_it_costs_comes_before_the_missing_piece() -> None:
    """Issue 56: with 0 light and no medium tree available, "Grow: not now" said "You have no
    medium tree available" instead of the light it costs (buying one costs light too); with
    the light to grow, the missing piece is the reason."""
    board = {"A1": (0, 1), "G4": (1, 1)}
    state = build(engine.Config(), board, light=[0, 0])
    seats = [s.copy() for s in state.seats]
    seats[0].available = (seats[0].available[0], seats[0].available[1], 0, 0)
    state.seats = tuple(seats)
    assert why_missing(state)["grow"] == (
        "Growing into a medium tree costs 2 light points; you have 0."
    )
    rich = build(engine.Config(), board, light=[3, 0])
    seats = [s.copy() for s in rich.seats]
    seats[0].available = (seats[0].available[0], seats[0].available[1], 0, 0)
    rich.seats = tuple(seats)
    assert why_missing(rich)["grow"] == "You have no medium tree available: buy one first."
    empty = build(engine.Config(), board, light=[0, 0])
    seats = [s.copy() for s in empty.seats]
    seats[0].available = (0, *seats[0].available[1:])
    empty.seats = tuple(seats)
    assert why_missing(empty)["plant"] == "Planting costs 1 light point; you have 0."
