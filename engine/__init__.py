"""Photosynthesis rules engine: pure, deterministic, synchronous.

The facade and its place among the layers: docs/architecture.md#the-engine-facade.

The facade::

    cfg = engine.Config(seats=("human", "human", "cynthia"))
    state = engine.new_game(cfg, seed=42)
    engine.legal_actions(state)      # list[Action]; str(a) is the canonical notation
    engine.apply(state, "grow D4")   # a new state; raises engine.IllegalAction saying why
    engine.auto_action(state)        # Cynthia's decision when she is to act
    engine.light_for_sun(state, sun) # light each seat would collect with the sun at `sun`
    engine.scores(state)             # final-score formula on the current state
    engine.expert_action(state, budget_s=1.0, seed=None)  # the Expert's decision

Also: ``engine.observation(state, seat)`` and ``engine.hidden_information(config)`` (what a seat
may see), ``engine.observed_actions(state, seat, actions)`` (the log as that seat may know it),
``engine.players`` (``Player.step``, ``play_until``), ``engine.turn_id(state)`` and
``engine.can_undo(action)``.
"""

from . import (
    cynthia,  # noqa: F401 (registers the Cynthia layer)
    moonlight,  # noqa: F401 (registers the Under the Moonlight layer)
    players,
)
from .actions import Action, IllegalAction, parse_action, parse_actions
from .config import CYNTHIA, HUMAN, Config, ConfigDict
from .expert import expert_action
from .game import (
    apply,
    auto_action,
    can_undo,
    check,
    grow_cost,
    legal_actions,
    light_for_sun,
    new_game,
    next_photosynthesis_sun,
    next_price,
    score_parts,
    scores,
    shadow_map,
    turn_id,
    winners,
)
from .observe import hidden_information, observation, observed_actions
from .record import Record, replay
from .state import GameState, SeatState

__all__ = [
    "CYNTHIA",
    "HUMAN",
    "Action",
    "Config",
    "ConfigDict",
    "GameState",
    "IllegalAction",
    "Record",
    "SeatState",
    "apply",
    "auto_action",
    "can_undo",
    "check",
    "expert_action",
    "grow_cost",
    "hidden_information",
    "legal_actions",
    "light_for_sun",
    "new_game",
    "observation",
    "observed_actions",
    "next_photosynthesis_sun",
    "next_price",
    "parse_action",
    "parse_actions",
    "players",
    "replay",
    "score_parts",
    "scores",
    "shadow_map",
    "turn_id",
    "winners",
]
