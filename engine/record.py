"""Game records: the config, the seed and one canonical action per line (docs/notation.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .config import Config
from .game import apply, new_game
from .state import GameState


def replay(
    config: Config, seed: int, actions: Iterable[Action | str], *, start: GameState | None = None
) -> GameState:
    """The state reached by playing ``actions`` (Actions or notation) from a new game, or from
    ``start`` (a stored position of that game) when given."""
    state = new_game(config, seed) if start is None else start
    for action in actions:
        state = apply(state, action)
    return state


def states(config: Config, seed: int, actions: Iterable[Action | str]) -> Iterator[GameState]:
    """Each state of a game, after each of ``actions`` in turn (for its events, say)."""
    state = new_game(config, seed)
    for action in actions:
        state = apply(state, action)
        yield state


#: The longest player name a record keeps (Discord's display names are at most 32).
MAX_NAME = 100


@dataclass
class Record:
    """A game record. Its text form is a JSON header line, then one action per line.

    ``players`` optionally names the seats in order (the header's ``"players"``; a record
    without it, or with names that are not one short string per seat, reads as unnamed).
    """

    config: Config
    seed: int
    actions: list[str] = field(default_factory=list)
    players: tuple[str, ...] = ()

    def state(self) -> GameState:
        return replay(self.config, self.seed, self.actions)

    def to_text(self) -> str:
        head: dict[str, Any] = {"config": self.config.to_dict(), "seed": self.seed}
        if self.players:
            head["players"] = list(self.players)
        return "\n".join([json.dumps(head), *self.actions]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        lines = [line.strip() for line in text.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        if not lines:
            raise ValueError("An empty game record.")
        header = json.loads(lines[0])
        actions = [str(parse_action(line)) for line in lines[1:]]
        config = Config.from_dict(header["config"])
        players = header.get("players")
        named = (
            isinstance(players, list)
            and len(players) == len(config.seats)
            and all(isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in players)
        )
        return cls(config, int(header["seed"]), actions, tuple(players) if named else ())

    def append(self, action: Action | str) -> None:
        self.actions.append(str(parse_action(action)))
