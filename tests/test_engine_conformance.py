"""One conformance suite for every rule set (tests.play_helpers.RULE_SETS: the base game, each
Under the Moonlight mode alone and all together, with Cynthias) and every verb.

Random legal play (fixed seeds) never raises and keeps every invariant; in sampled positions the
legal list is exactly the set of actions the rules accept, and every other action that can be
written raises ``IllegalAction`` with a sentence and changes nothing; every expansion verb in a
base game is refused with a sentence.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import IllegalAction, apply, legal_actions, parse_action
from engine.game import check
from tests.play_helpers import (
    ALL_ACTIONS,
    BASE_RULE_SETS,
    EXPANSION_ACTIONS,
    RULE_SETS,
    check_base_invariants,
    check_expansion_invariants,
    favour_abilities,
    random_game,
)

SEEDS = (1, 2, 3)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_random_legal_play_never_raises_and_keeps_every_invariant(name, seed):
    cfg = RULE_SETS[name]
    piles = [engine.new_game(cfg, seed).piles]
    rnd = random.Random(seed)
    samples = []

    def on_state(state):
        check_base_invariants(state, piles[-1])
        if cfg.expansion:
            check_expansion_invariants(state)
        piles.append(state.piles)
        if rnd.random() < 0.03:
            samples.append(state)

    final, actions = random_game(cfg, seed, on_state, favour_abilities)
    assert final.is_over and final.round == 6 * cfg.revolutions and final.current_seat is None
    assert engine.legal_actions(final) == []
    assert engine.replay(cfg, seed, actions) == final
    for state in [*samples, final]:
        again = engine.GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert again == state and again.to_dict() == state.to_dict()
    assert len(engine.scores(final)) == cfg.n_seats
    assert set(engine.winners(final)) <= set(range(cfg.n_seats))


def _sampled_positions(cfg, seed, n):
    """``n`` positions spread over one random game (setup included)."""
    states = []
    random_game(cfg, seed, states.append, favour_abilities)
    states = [s for s in states if not s.is_over]
    step = max(1, len(states) // n)
    return states[::step][:n]


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_legal_list_is_what_the_rules_accept_and_every_other_action_is_refused(name):
    cfg = RULE_SETS[name]
    for state in _sampled_positions(cfg, seed=4, n=8):
        legal = legal_actions(state)
        assert len(legal) == len(set(legal)) and legal
        automa = state.seats[state.current_seat].kind == "cynthia"
        if not automa:
            assert set(legal) == {a for a in ALL_ACTIONS if check(state, a) is None}
        before = state.to_dict()
        legal_set = set(legal)
        for action in ALL_ACTIONS:
            if action in legal_set:
                continue
            with pytest.raises(IllegalAction) as e:
                apply(state, action)
            assert str(e.value).endswith("."), (str(action), str(e.value))
        assert state.to_dict() == before
        for action in legal:  # and every legal action applies
            assert apply(state, action) is not state


@pytest.mark.parametrize("name", BASE_RULE_SETS)
def test_every_expansion_verb_in_a_base_game_is_refused_with_a_sentence(name):
    cfg = RULE_SETS[name]
    for state in _sampled_positions(cfg, seed=5, n=4):
        before = state.to_dict()
        for action in EXPANSION_ACTIONS:
            with pytest.raises(IllegalAction, match=r"which this game does not use\.$"):
                apply(state, action)
            with pytest.raises(IllegalAction, match=r"which this game does not use\.$"):
                apply(state, str(action))
        assert state.to_dict() == before


@pytest.mark.parametrize("name", ["base-3", "all-modes", "cynthia-all-modes"])
def test_canonical_notation_parses_back_to_the_action(name):
    def on_state(state):
        for action in legal_actions(state):
            text = str(action)
            assert parse_action(text) == action
            assert parse_action(text.upper().replace(" ", "  ")) == action

    random_game(RULE_SETS[name], 6, on_state, favour_abilities)


#: The verbs each Under the Moonlight mode brings.
MODE_VERBS = {
    "moon_animals": {"animal", "settle", "move", "use"},
    "elder_tree": {"elder"},
    "moonstones": {"moonstone"},
}


@pytest.mark.parametrize(
    "name", ["animals", "elder-tree", "moonstones", "cynthia-elder-moonstones"]
)
def test_the_verbs_of_a_mode_not_in_play_are_refused_with_a_sentence(name):
    cfg = RULE_SETS[name]
    absent = set().union(*(v for mode, v in MODE_VERBS.items() if not getattr(cfg, mode)))
    assert absent
    for state in _sampled_positions(cfg, seed=7, n=4):
        for action in EXPANSION_ACTIONS:
            if action.verb in absent:
                with pytest.raises(IllegalAction, match=r"which this game does not use\.$"):
                    apply(state, action)
