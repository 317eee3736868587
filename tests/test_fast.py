"""The fast search position (engine.expert.fast) against the facade, over random games of fixed seeds.

At every decision the set (and order) of legal actions must be the facade's, and the position
after each action, converted back to a ``GameState``, must equal ``engine.apply``'s (board, light,
stores, tokens, piles, decks, RNG, events). One ``FastGame`` is carried through the whole game
(only ``make``), and a second is rebuilt from the facade's state at every step.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.expert.fast import ACTIONS, FastGame, _Memo, bitlist, code_of

CONFIGS = {
    "2 humans": engine.Config(seats=("human", "human")),
    "3 humans": engine.Config(seats=("human",) * 3),
    "4 humans, shadow rule": engine.Config(seats=("human",) * 4, shadow_rule=True),
    "2 humans, 4 revolutions": engine.Config(seats=("human", "human"), revolutions=4),
    "human and Cynthia": engine.Config(seats=("human", "cynthia")),
    "Cynthia harder": engine.Config(
        seats=("cynthia", "human"), harder_grow_minus_one=True, harder_score_trees=True
    ),
    "human and two Cynthias, shadow rule": engine.Config(
        seats=("human", "cynthia", "cynthia"), shadow_rule=True
    ),
    "3 humans, shadow rule, 4 revolutions": engine.Config(
        seats=("human",) * 3, shadow_rule=True, revolutions=4
    ),
    "4 humans, 4 revolutions": engine.Config(seats=("human",) * 4, revolutions=4),
    "2 humans, shadow rule": engine.Config(seats=("human", "human"), shadow_rule=True),
    "4 seats, two harder Cynthias, both advanced options": engine.Config(
        seats=("human", "cynthia", "human", "cynthia"),
        shadow_rule=True,
        revolutions=4,
        harder_grow_minus_one=True,
        harder_score_trees=True,
    ),
    "Cynthia first, normal": engine.Config(seats=("cynthia", "human", "human")),
}


def _favour(rnd: random.Random, legal: list, bias: float) -> engine.Action:
    """Uniform, but with probability ``bias`` a grow/collect/end, so games reach every pile."""
    if rnd.random() < bias:
        pick = [a for a in legal if a.verb in ("grow", "collect", "end")]
        if pick:
            return rnd.choice(pick)
    return rnd.choice(legal)


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_fast_path_matches_the_facade(name: str, seed: int) -> None:
    cfg = CONFIGS[name]
    rnd = random.Random(seed * 1000 + len(name))
    state = engine.new_game(cfg, seed=seed)
    carried = FastGame.from_state(state)
    assert carried.to_state() == state
    decisions = collects = 0
    while not state.is_over:
        legal = engine.legal_actions(state)
        rebuilt = FastGame.from_state(state)
        assert [ACTIONS[c] for c in carried.legal()] == legal
        assert [ACTIONS[c] for c in rebuilt.legal()] == legal
        suns = [(state.sun + k) % 6 for k in range(3)]
        assert carried.light_for_suns(suns) == [engine.light_for_sun(state, s) for s in suns]
        action = _favour(rnd, legal, 0.35 if seed % 2 else 0.1)
        collects += action.verb == "collect"
        before = carried.copy()
        state = engine.apply(state, action)
        carried.make(code_of(action))
        rebuilt.make(code_of(action))
        assert carried.to_state() == state
        assert rebuilt.to_state() == state
        assert before.to_state() != state  # the copy did not move with the original
        decisions += 1
    assert carried.legal() == []
    assert carried.is_over
    assert carried.scores() == engine.scores(state)
    assert decisions >= cfg.n_seats * (2 + cfg.last_round)  # setup, then a turn each per round
    assert collects >= 2


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_copies_branch_off_on_their_own(name: str) -> None:
    """At every decision a copy plays another action: the copy follows the facade from there,
    and the original (which shares the copy's cached plants until either moves) is unchanged."""
    cfg = CONFIGS[name]
    rnd = random.Random(len(name))
    state = engine.new_game(cfg, seed=11)
    game = FastGame.from_state(state)
    branches = 0
    while not state.is_over:
        legal = engine.legal_actions(state)
        assert [ACTIONS[c] for c in game.legal()] == legal
        other = rnd.choice(legal)
        branch = game.copy()
        branch.make(code_of(other))
        after = engine.apply(state, other)
        assert branch.to_state() == after
        assert [ACTIONS[c] for c in branch.legal()] == engine.legal_actions(after)
        branches += 1
        action = _favour(rnd, legal, 0.3)
        state = engine.apply(state, action)
        game.make(code_of(action))
        assert game.to_state() == state
    assert branches >= cfg.n_seats * (2 + cfg.last_round)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_new_is_the_facades_new_game(name: str) -> None:
    """``FastGame.new`` (no facade state for human seats) starts where ``engine.new_game`` does,
    for any seed, and plays on identically (its ``to_state`` builds the rest when asked)."""
    cfg = CONFIGS[name]
    for seed in (0, 7, 123456789):
        game = FastGame.new(cfg, seed)
        state = engine.new_game(cfg, seed)
        assert game.seed == seed
        rnd = random.Random(seed)
        for _ in range(40):
            codes = game.legal()
            assert [ACTIONS[c] for c in codes] == engine.legal_actions(state)
            code = rnd.choice(codes)
            game.make(code)
            state = engine.apply(state, ACTIONS[code])
        assert game.to_state() == state


def test_new_refuses_expansion_games() -> None:
    with pytest.raises(ValueError, match="base game only"):
        FastGame.new(engine.Config(moon_animals=True), 3)


def test_memos_forget_at_their_limit_and_stay_right() -> None:
    memo = _Memo(lambda m: tuple(bitlist(m)), 3)
    for m in (5, 6, 7, 5, 9, 10, 12, 5):
        assert memo[m] == tuple(i for i in range(37) if m >> i & 1)
        assert len(memo) <= 3
    assert list(memo) == [5]  # full at 9, 10, 12: forgotten at once before 5 came back


def test_bitlist_lists_every_set_bit_in_order() -> None:
    rnd = random.Random(7)
    for _ in range(500):
        m = rnd.getrandbits(37)
        assert list(bitlist(m)) == [i for i in range(37) if m >> i & 1]


def test_expansion_games_are_refused() -> None:
    state = engine.new_game(engine.Config(moonstones=True), seed=1)
    with pytest.raises(ValueError, match="base game only"):
        FastGame.from_state(state)
