"""Shared by the property tests: every base action, random legal play, the base invariants."""

from __future__ import annotations

import random

import engine
from engine import Action, Config, apply, legal_actions
from engine.pieces import CYNTHIA_TOTAL, HUMAN_TOTAL

SPACES = range(37)
#: Every base-game action that can be written, legal or not.
BASE_ACTIONS = (
    [Action("place", (i,)) for i in SPACES]
    + [Action("buy", (k,)) for k in range(4)]
    + [Action("plant", (a, b)) for a in SPACES for b in SPACES]
    + [Action("grow", (i,)) for i in SPACES]
    + [Action("collect", (i,)) for i in SPACES]
    + [Action("end")]
)


def random_game(cfg: Config, seed: int, on_state=None, favour=None):
    """Play random legal actions to the end; returns (final state, canonical actions).

    ``on_state`` sees every state; ``favour(legal)`` may name a sublist picked 30% of the time
    when it is not empty (so that rare actions are played often enough to matter).
    """
    rnd = random.Random(seed)
    state = engine.new_game(cfg, seed=seed)
    actions = []
    while not state.is_over:
        if on_state:
            on_state(state)
        legal = legal_actions(state)
        preferred = favour(legal) if favour else None
        action = rnd.choice(preferred if preferred and rnd.random() < 0.3 else legal)
        actions.append(str(action))
        state = apply(state, action)
    if on_state:
        on_state(state)
    return state, actions


def check_base_invariants(state, previous_piles) -> None:
    """Pieces conserved per seat, light in 0..20, piles only shrink from the top, in order."""
    for seat, s in enumerate(state.seats):
        total = CYNTHIA_TOTAL if s.kind == "cynthia" else HUMAN_TOTAL
        for size in range(4):
            on_board = state.masks[seat * 4 + size].bit_count()
            assert on_board + s.available[size] + s.store[size] + s.out[size] == total[size]
            assert min(s.available[size], s.store[size], s.out[size]) >= 0
        assert 0 <= s.light <= 20
    for k in (1, 2, 3, 4):
        old, new = previous_piles[k], state.piles[k]
        assert old[len(old) - len(new) :] == new  # tokens only leave from the top
        assert list(new) == sorted(new, reverse=True)
    assert sum(1 for c in state.cells if c >= 0) == bin(state.occupied()).count("1")
