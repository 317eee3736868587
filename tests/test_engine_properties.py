"""Invariants over random legal play (hypothesis), the notation and the position format."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import engine.position
from engine import Action, Config, IllegalAction, apply, legal_actions, parse_action
from engine.game import check
from engine.record import Record
from tests.play_helpers import BASE_ACTIONS, check_base_invariants, random_game

seat_configs = st.builds(
    lambda n, rev, shadow: Config(seats=("human",) * n, revolutions=rev, shadow_rule=shadow),
    st.integers(2, 4),
    st.sampled_from([3, 4]),
    st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=seat_configs, seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant(cfg, seed):
    piles = [engine.new_game(cfg, seed).piles]
    rounds = []

    def on_state(state):
        check_base_invariants(state, piles[-1])
        piles.append(state.piles)
        rounds.append(state.round)

    final, actions = random_game(cfg, seed, on_state)
    assert final.is_over and final.round == 6 * cfg.revolutions
    assert max(rounds) == 6 * cfg.revolutions
    # Replaying the record reproduces the state exactly, and so does the position format.
    assert engine.replay(cfg, seed, actions) == final
    assert engine.GameState.from_dict(json.loads(json.dumps(final.to_dict()))) == final


@settings(max_examples=15, deadline=None)
@given(cfg=seat_configs, seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_exactly_the_actions_that_pass_the_rules(cfg, seed):
    rnd = random.Random(seed)
    sampled = []

    def on_state(state):
        if not state.is_over and rnd.random() < 0.04:
            sampled.append(state)

    random_game(cfg, seed, on_state)
    for state in sampled:
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        assert set(legal) == {a for a in BASE_ACTIONS if check(state, a) is None}


@settings(max_examples=10, deadline=None)
@given(cfg=seat_configs, seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_raise_and_change_nothing(cfg, seed):
    rnd = random.Random(seed)
    states = []
    random_game(cfg, seed, lambda s: states.append(s) if rnd.random() < 0.03 else None)
    for state in states:
        if state.is_over:
            continue
        legal = set(legal_actions(state))
        before = state.to_dict()
        for action in rnd.sample(BASE_ACTIONS, 60):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as e:
                apply(state, action)
            assert str(e.value).endswith(".")
        assert state.to_dict() == before


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_canonical_notation_parses_back_to_the_action(seed):
    cfg = Config(seats=("human", "human", "human"))

    def on_state(state):
        for action in legal_actions(state):
            text = str(action)
            assert parse_action(text) == action
            assert parse_action(text.lower().replace(" ", "  ")) == action

    random_game(cfg, seed, on_state)


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
