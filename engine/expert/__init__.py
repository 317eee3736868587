"""The Expert: a searching player for a human seat (issue 18).

``expert_action(state, budget_s=…, seed=…)`` is its decision, ``Expert`` the same as a player.
How it decides is told once, in ``engine.expert.search``; the package holds:

- ``search``: the one search (turn plans, lookahead, simulation), over ``search.Position``;
- ``eval``: the evaluation (a seat's final score, predicted) and the value of a starting tree;
- ``fast``: the base game on a compact mutable position, a ``Position`` for base games;
- ``facade``: the full engine as a ``Position``, for expansion games;
- ``moonlight``: the expansion's score parts in the evaluation.
"""

from __future__ import annotations

import random

from translation import Text, _

from ..actions import Action
from ..game import legal_actions
from ..state import GameState
from .eval import (
    DEFAULT_PARAMS,
    FEATURES,
    N_FEATURES,
    fast_features,
    fast_values,
    seat_features,
    token_at,
    use_weights,
    weights,
)
from .facade import FacadePosition
from .fast import FastGame
from .search import decide


def expert_action(state: GameState, *, budget_s: float = 1.0, seed: int | None = None) -> Action:
    """The Expert's decision for the current seat (a human seat of a running game).

    ``explanation`` says what it expects. The same state, seed and budget give the same action.
    """
    legal = legal_actions(state)
    if not legal:
        raise ValueError("The game is over: there is no decision to make.")
    if len(legal) == 1:
        why: Text = _("{action}: the only legal action", action=str(legal[0]))
        return Action(legal[0].verb, legal[0].args, why)
    rnd = random.Random(f"{seed or 0}:{state.round}:{state.current_seat}:{state.setup_step}")
    if state.ext is not None:
        facade = FacadePosition(state)
        if facade.in_play():
            action, why = decide(facade, budget_s, rnd)
        else:
            action, why = facade.setup_choice(rnd)
    else:
        fast = FastGame.from_state(state)
        action, why = decide(fast, budget_s, rnd) if fast.in_play() else fast.setup_choice()
    return Action(action.verb, action.args, why)


class Expert:
    """The Expert as a player: ``step(state) -> Action`` (``engine.players.ExpertPlayer``).

    Its budget counts simulations (``search.Settings``), so the same ``seed`` and budget give
    the same decisions on any machine."""

    #: The two strengths a seat may have: quick and strong.
    QUICK_S = 0.25
    STRONG_S = 2.0

    def __init__(self, budget_s: float = QUICK_S, seed: int | None = None) -> None:
        self.budget_s = budget_s
        self.seed = seed

    def step(self, state: GameState) -> Action:
        return expert_action(state, budget_s=self.budget_s, seed=self.seed)


__all__ = [
    "DEFAULT_PARAMS",
    "FEATURES",
    "N_FEATURES",
    "Expert",
    "expert_action",
    "fast_features",
    "fast_values",
    "seat_features",
    "token_at",
    "use_weights",
    "weights",
]
