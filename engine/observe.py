"""What one seat may see of a game (``engine.observation``) and what stays hidden
(``engine.hidden_information``).

An observation is plain JSON-able data in the shape of the position format
(docs/position-format.md) with every hidden part taken out: no game seed nor RNG state (they
decide every future draw), no Cynthia deck order (only how many cards are left and the half in
use), no animals dealt to another seat (a seat's kept animal shows once it stands on the board),
and no face-down Baby Turtle token (only the spaces where one lies). ``seat=None`` is a
spectator: it sees only what every seat sees.

The action log hides the same things: ``observed_actions`` gives actions as a viewer may know
them in a position (``animal ?`` for an animal kept and not yet placed by another seat).

Each rule layer says what it hides (``Layer.hidden``, ``Layer.observe`` and
``Layer.observe_action``), so a new layer with hidden information adds it where it is defined.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .config import Config
from .layers import Layer, layers_for
from .state import GameState

#: Hidden in every game: the seed and the random generator decide every future draw.
CORE_HIDDEN = {
    "rng": "the game's seed and the state of its random generator",
}


def hidden_information(config: Config) -> dict[str, str]:
    """What a game with ``config`` keeps from its players: key -> a sentence saying what.

    The keys name the parts of ``GameState.to_dict()`` that ``observation`` leaves out or masks.
    """
    out = dict(CORE_HIDDEN)
    for layer in layers_for(config):
        out.update(layer.hidden(config))
    return out


def observation(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see of ``state``, as JSON-able data.

    The shape is the position format without ``seed`` and ``rng``, plus ``"viewer": seat``;
    each layer masks its own hidden parts (see the module docstring).
    """
    if seat is not None and not 0 <= seat < state.n_seats:
        raise ValueError(f"There is no seat {seat} in this game.")
    d = state.to_dict()
    del d["seed"], d["rng"]
    d["viewer"] = seat
    for layer in layers_for(state.config):
        layer.observe(state, seat, d)
    return d


def observed_actions(
    state: GameState, viewer: int | None, actions: Iterable[tuple[int, str]]
) -> list[str]:
    """Actions (each ``(seat that played it, notation)``) as ``viewer`` (None: a spectator) may
    know them in position ``state``, the one now (an animal kept shows once it is placed): each
    notation itself, or with its hidden part masked (``animal ?``)."""
    actions = list(actions)
    layers = [
        x for x in layers_for(state.config) if type(x).observe_action is not Layer.observe_action
    ]
    if not layers:
        return [action for _, action in actions]
    seen = observation(state, viewer)
    out = []
    for actor, action in actions:
        masked = (layer.observe_action(seen, actor, action) for layer in layers)
        out.append(next((m for m in masked if m is not None), action))
    return out
