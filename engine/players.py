"""Players and the one loop that lets them play (``play_until``).

A player is anything with ``step(state) -> Action``: the decision it makes for the current seat.
``CynthiaPlayer`` follows the automa's cards, ``AutopilotPlayer`` plays a human seat sensibly
(``engine.autopilot``), ``ExpertPlayer(budget_s, seed)`` searches (``engine.expert``: quick at
0.25 s a decision, strong at 2 s), ``RandomPlayer(seed)`` picks uniformly among the legal
actions.

``play_until(state, players, stop)`` is the driver for every automatic play: the automa, a
player's timeout, the autopilot, the demo, the terminal game and the tests. The model is
OpenSpiel's ``evaluate_bots`` loop: ask the player of the current seat for an action, apply it,
until the game ends, a seat has no player, or ``stop(state)`` says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, cast, runtime_checkable

from .actions import Action
from .autopilot import autopilot_action
from .expert import Expert
from .game import apply, auto_action, legal_actions, turn_id
from .state import GameState

#: The automa and the autopilot finish a turn in far fewer decisions; the cap guards a bug.
MAX_STEPS = 100_000


@runtime_checkable
class Player(Protocol):
    """Decides the current seat's next action."""

    def step(self, state: GameState) -> Action: ...


class CynthiaPlayer:
    """The automa: the decision her cards give (only for a Cynthia seat)."""

    def step(self, state: GameState) -> Action:
        action = auto_action(state)
        if action is None:
            raise ValueError("CynthiaPlayer plays only a Cynthia seat.")
        return action


class AutopilotPlayer:
    """A sensible player for a human seat (``engine.autopilot``)."""

    def step(self, state: GameState) -> Action:
        return autopilot_action(state)


#: The Expert for a human seat: a search over the seat's own view (``engine.expert.Expert``).
ExpertPlayer = Expert


class RandomPlayer:
    """A uniformly random legal action, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def step(self, state: GameState) -> Action:
        return self.random.choice(legal_actions(state))


Players = Sequence["Player | None"] | Mapping[int, Player]


def _player(players: Players, seat: int) -> Player | None:
    if isinstance(players, Mapping):
        return players.get(seat)
    return players[seat] if seat < len(players) else None


def turn_over(state: GameState) -> Callable[[GameState], bool]:
    """A ``stop`` for ``play_until``: true once the turn current in ``state`` has ended."""
    start = turn_id(state)
    return lambda s: turn_id(s) != start


def play_until(
    state: GameState,
    players: Players,
    stop: Callable[[GameState], bool] | None = None,
    *,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> tuple[GameState, list[Action]]:
    """Let ``players`` (by seat: a sequence, or a mapping; None or missing: nobody) play.

    Stops when the game is over, when the current seat has no player, or when ``stop(state)``
    is true (checked before every decision). Returns the last state and the actions applied, in
    order; ``on_action(before, action, after)`` sees each one. Raises ``RuntimeError`` after
    ``max_steps`` decisions (a player that never ends its turn).
    """
    applied: list[Action] = []
    while not state.is_over and not (stop is not None and stop(state)):
        player = _player(players, cast(int, state.current_seat))  # not over: one is to act
        if player is None:
            break
        if len(applied) >= max_steps:
            raise RuntimeError(f"play_until: no end after {max_steps} decisions")
        action = player.step(state)
        after = apply(state, action)
        if on_action is not None:
            on_action(state, action, after)
        applied.append(action)
        state = after
    return state, applied
