"""What the game services share: their refusals, what a play returns, the lobby's options and
limits, and how a seat is named in their sentences.

No rule of the game lives in the services: legality, turn order and the automa all come from
`engine`. The lobby limits (2-4 seats, at most 2 Cynthias) are the table's seating rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import engine
from bot.services import refusals
from bot.services.experts import engine_kind
from bot.storage import GameRow, NewAction
from engine import GameState

MAX_SEATS = 4

MIN_SEATS = 2

MAX_CYNTHIAS = 2

#: Cynthia difficulty options, passed to `engine.Config` as they are.
CYNTHIA_OPTIONS = (
    "easier_no_final_collect",
    "easier_grow_plus_one",
    "easier_two_small_start",
    "harder_grow_minus_one",
    "harder_score_trees",
)

#: Under the Moonlight modes, passed to `engine.Config` as they are.
MOONLIGHT_OPTIONS = ("moon_animals", "elder_tree", "moonstones")

#: Correspondence options (`bot.services.timers`): the turn timer in hours (0 = off), what happens when it
#: runs out (the turn ends as it is, or the autopilot plays it), and what happens when a player
#: leaves a running game (the autopilot takes the seat, or the game ends). First = default.
TIMER_CHOICES: dict[str, tuple[Any, ...]] = {
    "turn_timer": (0, 1, 12, 24, 72),
    "on_timeout": ("end", "autopilot"),
    "on_leave": ("autopilot", "end"),
}

DEFAULT_OPTIONS: dict[str, Any] = {
    **{name: choices[0] for name, choices in TIMER_CHOICES.items()},
    "revolutions": 3,
    "shadow_rule": False,
    "random_seats": False,
    **{name: False for name in MOONLIGHT_OPTIONS},
    **{name: False for name in CYNTHIA_OPTIONS},
    "hints": False,  # `/ps hint`: the Expert suggests the best action to the player to play
}


class UserError(Exception):
    """A refusal caused by the user: one short sentence, shown ephemerally; nothing changed.

    `seats_of`, when given, is the game whose seats the sentence's seat numbers stand for (the
    engine's refusals say "seat 2"): the answer names them."""

    def __init__(self, sentence: Any, *, seats_of: GameRow | None = None) -> None:
        super().__init__(sentence)
        self.seats_of = seats_of

    @property
    def sentence(self) -> Any:
        """The refusal: a `translation.Text`, said in the reader's language where it is shown."""
        return self.args[0] if self.args else str(self)


class StaleComponent(UserError):
    """The component was built for an older version of the game."""

    def __init__(self, game: GameRow) -> None:
        super().__init__(refusals.STALE)
        self.game = game


#: One action applied to a game (by a player or by the automa): the very row the log stores.
Applied = NewAction


@dataclass(frozen=True)
class TurnResult:
    """What a start or a play did: the stored game, the new state, the actions applied."""

    game: GameRow
    state: GameState
    applied: tuple[Applied, ...]
    previous_turn: str | None  # `engine.turn_id` of the state before, None at start
    played: int = 1  # how many of `applied` (from the start) were the player's
    #: whether the player may take back the last of their actions now (`TurnService.undo`)
    can_undo: bool = False

    @property
    def notations(self) -> list[str]:
        """The player's actions in the notation."""
        return [a.notation for a in self.applied[: self.played]]


@dataclass(frozen=True)
class Turn:
    """A player's turn as their panel shows it: the game, its state, and whether Undo is
    offered."""

    game: GameRow
    state: GameState
    can_undo: bool


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Lobby options with defaults filled in and unknown keys dropped."""
    merged = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key in TIMER_CHOICES:
            merged[key] = value if value in TIMER_CHOICES[key] else merged[key]
        elif key in merged:
            merged[key] = int(value) if key == "revolutions" else bool(value)
    if merged["revolutions"] not in (3, 4):
        merged["revolutions"] = 3
    return merged


def engine_config(options: dict[str, Any], kinds: Sequence[str]) -> engine.Config:
    """The engine config for these lobby options and seat kinds (raises ValueError)."""
    opts = normalize_options(options)
    return engine.Config(
        seats=tuple(engine_kind(kind) for kind in kinds),
        revolutions=opts["revolutions"],
        shadow_rule=opts["shadow_rule"],
        **{name: opts[name] for name in (*MOONLIGHT_OPTIONS, *CYNTHIA_OPTIONS)},
    )


def status_error(game: GameRow) -> UserError | None:
    """The refusal for acting on a game that has ended (None while it is open)."""
    if game.status == "over":
        return UserError(refusals.GAME_OVER)
    if game.status == "abandoned":
        return UserError(refusals.GAME_ABANDONED)
    if game.status == "expired":
        return UserError(refusals.GAME_EXPIRED)
    return None
