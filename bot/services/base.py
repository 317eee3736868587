"""What the game services share: their refusals, what a play returns, the lobby's options and
limits, and how a seat is named in their sentences.

No rule of the game lives in the services: legality, turn order and the automa all come from
`engine`. The lobby limits (2-4 seats, at most 2 Cynthias) are the table's seating rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Literal, TypeVar, get_args

import engine
from bot.services import refusals
from bot.services.experts import engine_kind
from bot.storage import GameOptions, GameRow, NewAction, OnLeave, OnTimeout
from engine import GameState

T = TypeVar("T")

#: The largest id stored (a signed 64-bit integer: SQLite's and PostgreSQL's `BIGINT`); every
#: Discord snowflake and every game number is below it.
MAX_ID = 2**63 - 1


def is_stored_id(value: int) -> bool:
    """Whether `value` can name a game or a person (1 to `MAX_ID`). An id from a forged
    custom_id or slash option outside that range names nothing, and is refused as an unknown
    one would be before any query (a database raises on it)."""
    return 0 < value <= MAX_ID


#: Cynthia's difficulty options and the Under the Moonlight modes (`GameOptions` keys, the same
#: as `engine.Config`'s fields); the flags of `GameOptions`.
CynthiaOption = Literal[
    "easier_no_final_collect",
    "easier_grow_plus_one",
    "easier_two_small_start",
    "harder_grow_minus_one",
    "harder_score_trees",
]
MoonlightOption = Literal["moon_animals", "elder_tree", "moonstones"]
Flag = Literal[
    "shadow_rule",
    "random_seats",
    "moon_animals",
    "elder_tree",
    "moonstones",
    "easier_no_final_collect",
    "easier_grow_plus_one",
    "easier_two_small_start",
    "harder_grow_minus_one",
    "harder_score_trees",
    "hints",
]

MAX_SEATS = 4

MIN_SEATS = 2

MAX_CYNTHIAS = 2

#: Cynthia difficulty options, passed to `engine.Config` as they are.
CYNTHIA_OPTIONS: tuple[CynthiaOption, ...] = get_args(CynthiaOption)

#: Under the Moonlight modes, passed to `engine.Config` as they are.
MOONLIGHT_OPTIONS: tuple[MoonlightOption, ...] = get_args(MoonlightOption)

#: The options that are on or off (`GameOptions`' flags), in the order they are stored.
FLAGS: tuple[Flag, ...] = (
    "shadow_rule",
    "random_seats",
    *MOONLIGHT_OPTIONS,
    *CYNTHIA_OPTIONS,
    "hints",
)

#: Correspondence options (`bot.services.timers`): the turn timer in hours (0 = off), what happens when it
#: runs out (the turn ends as it is, or the autopilot plays it), and what happens when a player
#: leaves a running game (the autopilot takes the seat, or the game ends). First = default.
TURN_TIMERS: tuple[int, ...] = (0, 1, 12, 24, 72)
ON_TIMEOUT: tuple[OnTimeout, ...] = ("end", "autopilot")
ON_LEAVE: tuple[OnLeave, ...] = ("autopilot", "end")

DEFAULT_OPTIONS: GameOptions = {
    "turn_timer": TURN_TIMERS[0],
    "on_timeout": ON_TIMEOUT[0],
    "on_leave": ON_LEAVE[0],
    "revolutions": 3,
    "shadow_rule": False,
    "random_seats": False,
    "moon_animals": False,
    "elder_tree": False,
    "moonstones": False,
    "easier_no_final_collect": False,
    "easier_grow_plus_one": False,
    "easier_two_small_start": False,
    "harder_grow_minus_one": False,
    "harder_score_trees": False,
    "hints": False,  # `/ps hint`: the Expert suggests the best action to the player to play
}


class UserError(Exception):
    """A refusal caused by the user: one short sentence, shown ephemerally; nothing changed.

    `seats_of`, when given, is the game whose seats the sentence's seat numbers stand for (the
    engine's refusals say "seat 2"): the answer names them."""

    def __init__(self, sentence: str, *, seats_of: GameRow | None = None) -> None:
        super().__init__(sentence)
        self.seats_of = seats_of

    @property
    def sentence(self) -> str:
        """The refusal: a `translation.Text`, said in the reader's language where it is shown."""
        sentence: str = self.args[0] if self.args else str(self)
        return sentence


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


def normalize_options(options: GameOptions | None) -> GameOptions:
    """Lobby options with defaults filled in and unknown keys dropped (every key of
    `GameOptions`, in `DEFAULT_OPTIONS`' order)."""
    given = options or {}
    merged = DEFAULT_OPTIONS.copy()
    if "turn_timer" in given:
        merged["turn_timer"] = _choice(given["turn_timer"], TURN_TIMERS, merged["turn_timer"])
    if "on_timeout" in given:
        merged["on_timeout"] = _choice(given["on_timeout"], ON_TIMEOUT, merged["on_timeout"])
    if "on_leave" in given:
        merged["on_leave"] = _choice(given["on_leave"], ON_LEAVE, merged["on_leave"])
    if "revolutions" in given:
        merged["revolutions"] = int(given["revolutions"])
    for flag in FLAGS:
        if flag in given:
            merged[flag] = bool(given[flag])
    if merged["revolutions"] not in engine.config.REVOLUTIONS:
        merged["revolutions"] = 3
    day = given.get("daily")
    if type(day) is int:  # a daily challenge's game (`bot.services.daily`)
        merged["daily"] = day
    return merged


#: The daily challenge's first day, day 1 (`bot.services.daily`); a day starts at 00:00 UTC.
DAILY_EPOCH = date(2026, 1, 1)


def day_at(when: float) -> int:
    """The daily challenge's day number at a UNIX time (UTC days; day 1 is `DAILY_EPOCH`)."""
    return (datetime.fromtimestamp(when, UTC).date() - DAILY_EPOCH).days + 1


def daily_of(game: GameRow) -> int | None:
    """The day of a daily challenge's game (None: any other game)."""
    day = game.options.get("daily")
    return day if type(day) is int else None


def _choice(value: T, choices: tuple[T, ...], default: T) -> T:
    """`value` when it is one of `choices`, else `default`."""
    return value if value in choices else default


def engine_config(options: GameOptions, kinds: Sequence[str]) -> engine.Config:
    """The engine config for these lobby options and seat kinds (raises ValueError)."""
    opts = normalize_options(options)
    return engine.Config(
        seats=tuple(engine_kind(kind) for kind in kinds),
        revolutions=opts["revolutions"],
        shadow_rule=opts["shadow_rule"],
        moon_animals=opts["moon_animals"],
        elder_tree=opts["elder_tree"],
        moonstones=opts["moonstones"],
        easier_no_final_collect=opts["easier_no_final_collect"],
        easier_grow_plus_one=opts["easier_grow_plus_one"],
        easier_two_small_start=opts["easier_two_small_start"],
        harder_grow_minus_one=opts["harder_grow_minus_one"],
        harder_score_trees=opts["harder_score_trees"],
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
