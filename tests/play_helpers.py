"""Shared by the engine tests: every action that can be written (base and expansion), the rule
sets every conformance test runs on, random legal play, and the invariants."""

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
#: Every Under the Moonlight action that can be written, legal or not.
EXPANSION_ACTIONS = (
    [Action("animal", (a,)) for a in range(8)]
    + [Action(verb, (i,)) for verb in ("settle", "elder", "moonstone", "move") for i in SPACES]
    + [Action("use", ("dig", k)) for k in (1, 2)]
    + [Action("use", ("hunt", k)) for k in (1, 2, 3)]
    + [Action("use", ("grow", k)) for k in (1, 2)]
    + [Action("use", (name,)) for name in ("run", "plant", "eat", "hatch")]
    + [Action("use", ("scare", a, i)) for a in range(8) for i in SPACES]
    + [Action("use", ("steal", a)) for a in range(8)]
    + [Action("use", ("scratch", i)) for i in SPACES]
    + [Action("use", ("improve", i)) for i in SPACES]
    + [Action("use", ("dam", g)) for g in range(18)]
    + [Action("use", ("baby", t)) for t in (0, 1, 2, 4, 6, 7)]
    + [Action("use", ("baby", t, i)) for t in (3, 5) for i in SPACES]
)
ALL_ACTIONS = BASE_ACTIONS + EXPANSION_ACTIONS

H, C = "human", "cynthia"
_ALL_MODES = {"moon_animals": True, "elder_tree": True, "moonstones": True}
#: Every rule set the conformance tests and the perft counts run on: the base game (2-4 seats,
#: both variants), each Under the Moonlight mode alone and all together, and with Cynthias.
RULE_SETS: dict[str, Config] = {
    "base-2": Config(seats=(H, H)),
    "base-3": Config(seats=(H, H, H)),
    "base-4-advanced": Config(seats=(H, H, H, H), revolutions=4, shadow_rule=True),
    "animals": Config(seats=(H, H), moon_animals=True),
    "elder-tree": Config(seats=(H, H, H), elder_tree=True),
    "moonstones": Config(seats=(H, H), moonstones=True),
    "all-modes": Config(seats=(H, H, H), **_ALL_MODES),
    "all-modes-4-advanced": Config(seats=(H,) * 4, revolutions=4, shadow_rule=True, **_ALL_MODES),
    "cynthia": Config(seats=(H, C)),
    "cynthias-options": Config(
        seats=(C, H, C),
        shadow_rule=True,
        easier_two_small_start=True,
        harder_grow_minus_one=True,
        harder_score_trees=True,
        cynthia_opponent_tiebreak=False,
    ),
    "cynthia-all-modes": Config(seats=(H, H, C), **_ALL_MODES),
    "cynthia-elder-moonstones": Config(seats=(H, C), elder_tree=True, moonstones=True),
}
BASE_RULE_SETS = [name for name, cfg in RULE_SETS.items() if not cfg.expansion]


def favour_abilities(legal):
    """Random play picks an ability 30% of the time when one is legal (they are rare)."""
    return [a for a in legal if a.verb == "use"]


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


def check_expansion_invariants(state) -> None:
    """Lunar points in 0..14, animals apart and off obstacles, nothing on an obstacle."""
    ext = state.ext
    for seat, s in enumerate(state.seats):
        assert 0 <= s.lunar <= 14
        if s.kind == "cynthia":
            assert s.lunar == 0 and ext.animal[seat] == -1
    spaces = [i for i in ext.at if i >= 0]
    assert len(spaces) == len(set(spaces))  # no two animals on one space
    assert not ext.animal_mask & ext.obstacles
    for i in engine.geometry.bits(ext.obstacles):
        assert state.cells[i] == -1  # nothing grows on an obstacle
    assert ext.obstacles == ext.stones | (1 << ext.elder if ext.elder >= 0 else 0)
    assert ext.stones.bit_count() <= 3
    assert len(ext.beach) + sum(len(b) for b in ext.babies) <= 6
    if ext.moon >= 0:
        assert 0 <= ext.moon < 18
