"""The notation, game records and the position format of the base game (random legal play over
every rule set is in test_engine_conformance)."""

from __future__ import annotations

import random

import pytest

import engine
import engine.position
from engine import Action, Config, IllegalAction, apply, legal_actions, parse_action
from engine.game import check
from engine.record import Record
from tests.play_helpers import random_game


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("s a2", "place A2"),
        ("PLACE a2", "place A2"),
        ("b seed", "buy seed"),
        ("b s", "buy seed"),
        ("buy m", "buy medium"),
        ("b sm", "buy small"),
        ("b l", "buy large"),
        ("p c3-e5", "plant C3 E5"),
        ("plant c3>e5", "plant C3 E5"),
        ("plant  C3   E5 ", "plant C3 E5"),
        ("g d4", "grow D4"),
        ("c d4", "collect D4"),
        ("e", "end"),
        ("pass", "end"),
        ("pc3e5", "plant C3 E5"),
        ("plantc3e5", "plant C3 E5"),
        ("gd4", "grow D4"),
        ("grow d 4", "grow D4"),
        ("p c 3 e 5", "plant C3 E5"),
        ("plant c3→e5", "plant C3 E5"),
        ("b 1", "buy small"),
    ],
)
def test_forgiving_forms_parse_to_the_canonical_action(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Type an action"),
        ("jump d4", "'jump' is not an action"),
        ("grow z9", "'z9' is not a space"),
        ("grow", "Write growing as 'grow D4'"),
        ("plant c3", "Write a planting as"),
        ("buy tree", "Write a purchase as"),
        ("end now", "'end' takes nothing"),
    ],
)
def test_malformed_text_is_refused_with_a_sentence(text, message):
    with pytest.raises(IllegalAction, match=message):
        parse_action(text)


def test_several_actions_in_one_line():
    assert [str(a) for a in engine.parse_actions("grow D4; plant C3 E5;end")] == [
        "grow D4",
        "plant C3 E5",
        "end",
    ]


def test_a_game_record_round_trips_as_text():
    cfg = Config(seats=("human", "human"), revolutions=4, shadow_rule=True)
    final, actions = random_game(cfg, 7)
    record = Record(cfg, 7, actions)
    again = Record.from_text(record.to_text())
    assert again == record
    assert again.state() == final


def test_the_same_seed_and_actions_give_the_same_game():
    cfg = Config(seats=("human",) * 4)
    a, acts_a = random_game(cfg, 99)
    b, acts_b = random_game(cfg, 99)
    assert acts_a == acts_b and a == b
    c, acts_c = random_game(cfg, 100)
    assert acts_c != acts_a


def test_apply_never_mutates_its_input():
    cfg = Config(seats=("human", "human", "human"))
    rnd = random.Random(3)
    state = engine.new_game(cfg, 3)
    while not state.is_over:
        before = state.to_dict()
        nxt = apply(state, rnd.choice(legal_actions(state)))
        assert state.to_dict() == before
        state = nxt


@pytest.mark.parametrize(
    "action",
    [
        Action("grow", (99,)),
        Action("grow", (-1,)),
        Action("buy", (5,)),
        Action("plant", (0,)),
        Action("end", ("x",)),
        Action("fly", ()),
        Action("grow", ("D4",)),
    ],
)
def test_malformed_action_objects_are_refused_as_illegal(action):
    state = engine.position.build(Config(), {"G4": (0, 1)}, light=[10, 0])
    with pytest.raises(IllegalAction, match="not a well-formed action"):
        apply(state, action)
    assert check(state, action).startswith("That is not a well-formed action")
