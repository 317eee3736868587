"""The autopilot plays legal, sensible games."""

from __future__ import annotations

import random

import engine
from engine.autopilot import autopilot_action, evaluate, light_value
from engine.position import build

TWO = engine.Config(seats=("human", "human"))


def play(seed: int, autopilot_seats: set[int], cfg=TWO):
    rnd = random.Random(seed)
    state = engine.new_game(cfg, seed)
    while not state.is_over:
        if state.current_seat in autopilot_seats:
            action = autopilot_action(state)
            assert action in engine.legal_actions(state)
        else:
            action = rnd.choice(engine.legal_actions(state))
        state = engine.apply(state, action)
    return state


def test_autopilot_beats_a_random_player():
    results = []
    for seed in range(12):
        seat = seed % 2
        final = play(seed, {seat})
        results.append(engine.winners(final) == [seat])
        assert engine.scores(final)[seat] >= 40
    assert all(results)


def test_autopilot_plays_every_seat_of_a_four_seat_game():
    final = play(5, {0, 1, 2, 3}, engine.Config(seats=("human",) * 4))
    assert final.is_over
    assert all(sum(p for _, p in s.tokens) > 0 for s in final.seats)


def test_autopilot_collects_in_the_last_round():
    state = build(TWO, {"D4": (0, 3), "A1": (0, 3)}, light=[9, 0], sun=5, round=18)
    first = autopilot_action(state)
    assert str(first) == "collect D4"  # the richest soil first
    state = engine.apply(state, first)
    assert str(autopilot_action(state)) == "collect A1"


def test_autopilot_keeps_a_large_tree_growing_light_early():
    # Round 2: a large tree on poor soil yields 3 light a round; collecting it now is too early.
    state = build(TWO, {"A1": (0, 3)}, light=[6, 0], sun=1, round=2)
    assert str(autopilot_action(state)) != "collect A1"


def test_light_is_worth_a_third_of_a_point_at_the_end_and_more_before():
    assert light_value(0) == 1 / 3
    assert light_value(12) > light_value(3) > light_value(0)


def test_a_finished_game_is_valued_by_its_score():
    final = play(3, {0})
    assert evaluate(final, 0) == engine.scores(final)[0]
