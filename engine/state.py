"""The game state and its position format (docs/position-format.md).

A ``GameState`` is immutable by convention: ``engine.apply`` copies what it changes and shares the
rest (a seat that did not change is the same ``SeatState`` object in both states).

The board is held twice, for speed: ``cells[i]`` is ``-1`` for an empty space or
``seat * 4 + size``; ``masks[seat * 4 + size]`` is the bitmask of the spaces holding that seat's
pieces of that size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

from translation import _

from .config import Config, SeatKind
from .geometry import LABEL_INDEX, LABELS, N_CELLS, bits
from .layers import layers_for
from .pieces import PILES, SIZE_NAMES

if TYPE_CHECKING:
    from .game import GameRules

FORMAT = 2
#: The phase of a game: its setup, its rounds of play, or over.
Phase = Literal["setup", "play", "over"]
SETUP: Final = "setup"
PLAY: Final = "play"
OVER: Final = "over"


def _pieces_dict(counts: Sequence[int]) -> dict[str, int]:
    return {name: counts[i] for i, name in enumerate(SIZE_NAMES)}


def _pieces_list(d: dict[str, Any]) -> list[int]:
    return [int(d.get(name, 0)) for name in SIZE_NAMES]


class SeatState:
    """One seat: its light and lunar points, pieces off the board and scoring tokens.

    ``available``, ``store`` and ``out`` are counts per size (seed, small, medium, large); ``out``
    counts pieces that left the game. ``tokens`` are ``(pile leaves, points)`` pairs.
    """

    __slots__ = ("kind", "light", "lunar", "available", "store", "out", "tokens")

    kind: SeatKind
    light: int
    lunar: int
    available: list[int]
    store: list[int]
    out: list[int]
    tokens: tuple[tuple[int, int], ...]

    def __init__(
        self,
        kind: SeatKind,
        light: int,
        lunar: int,
        available: list[int],
        store: list[int],
        out: list[int],
        tokens: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.kind = kind
        self.light = light
        self.lunar = lunar
        self.available = available
        self.store = store
        self.out = out
        self.tokens = tokens

    def copy(self) -> SeatState:
        return SeatState(
            self.kind,
            self.light,
            self.lunar,
            self.available[:],
            self.store[:],
            self.out[:],
            self.tokens,
        )

    def _key(self) -> tuple[object, ...]:
        return (
            self.kind,
            self.light,
            self.lunar,
            tuple(self.available),
            tuple(self.store),
            tuple(self.out),
            tuple(self.tokens),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatState) and self._key() == other._key()

    def __repr__(self) -> str:
        return (
            f"SeatState({self.kind}, light={self.light}, lunar={self.lunar}, "
            f"available={self.available}, store={self.store}, tokens={list(self.tokens)})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "light": self.light,
            "lunar": self.lunar,
            "available": _pieces_dict(self.available),
            "store": _pieces_dict(self.store),
            "out": _pieces_dict(self.out),
            "tokens": [list(t) for t in self.tokens],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeatState:
        return cls(
            d["kind"],
            int(d["light"]),
            int(d.get("lunar", 0)),
            _pieces_list(d["available"]),
            _pieces_list(d["store"]),
            _pieces_list(d.get("out", {})),
            tuple((int(a), int(b)) for a, b in d.get("tokens", ())),
        )


class GameState:
    """A position of the game. Read it; change it only through ``engine.apply``.

    ``round`` counts rounds from 1 (0 during setup); ``revolution`` is 1..3 (or 4); ``sun`` is
    the sun position 0..5; ``activated`` is the bitmask of spaces the current seat activated this
    turn; ``piles[leaves]`` the scoring tokens left, top first. Two slots belong to the game's
    rule layers (``engine.layers``) and the core never reads them: ``ext`` a layer's game-wide
    state (None without), ``seat_ext[seat]`` a layer's state of one seat (None for a seat
    without). ``rules`` caches the game's rules chosen from ``config`` (not part of the position).
    ``events`` describe what happened by itself during the last ``apply`` (photosynthesis, the
    end of the game), for the game log.
    """

    __slots__ = (
        "config",
        "rules",
        "seed",
        "rng",
        "round",
        "revolution",
        "sun",
        "first_seat",
        "current_seat",
        "phase",
        "setup_step",
        "cells",
        "masks",
        "activated",
        "piles",
        "seats",
        "seat_ext",
        "ext",
        "events",
    )

    config: Config
    rules: GameRules | None
    seed: int
    rng: int
    round: int
    revolution: int
    sun: int
    first_seat: int
    current_seat: int | None
    phase: Phase
    setup_step: int
    cells: list[int]
    masks: list[int]
    activated: int
    piles: tuple[tuple[int, ...], ...]
    seats: tuple[SeatState, ...]
    #: A rule layer's state, read only by that layer (``engine.layers``): Any to the core.
    seat_ext: tuple[Any, ...]
    ext: Any
    events: tuple[str, ...]

    def copy(self) -> GameState:
        """A shallow copy: the caller replaces what it changes (lists are copied here)."""
        s = GameState.__new__(GameState)
        s.config = self.config
        s.rules = self.rules
        s.seed = self.seed
        s.rng = self.rng
        s.round = self.round
        s.revolution = self.revolution
        s.sun = self.sun
        s.first_seat = self.first_seat
        s.current_seat = self.current_seat
        s.phase = self.phase
        s.setup_step = self.setup_step
        s.cells = self.cells[:]
        s.masks = self.masks[:]
        s.activated = self.activated
        s.piles = self.piles
        s.seats = self.seats
        s.seat_ext = self.seat_ext
        s.ext = self.ext
        s.events = ()
        return s

    # -- reading -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    def occupied(self) -> int:
        """Bitmask of the spaces holding a seed or tree."""
        m = 0
        for x in self.masks:
            m |= x
        return m

    def piece_at(self, space: int) -> tuple[int, int] | None:
        """``(seat, size)`` of the piece on a space, or None."""
        c = self.cells[space]
        return None if c < 0 else (c >> 2, c & 3)

    def pieces_of(self, seat: int) -> list[tuple[int, int]]:
        """``(space, size)`` of every piece of a seat on the board, by space."""
        return sorted(
            (space, size) for size in range(4) for space in bits(self.masks[seat * 4 + size])
        )

    def board_count(self, seat: int) -> int:
        """Number of the seat's seeds and trees on the board."""
        return sum(self.masks[seat * 4 + size].bit_count() for size in range(4))

    # -- equality and the position format ------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self.config,
            self.seed,
            self.rng,
            self.round,
            self.revolution,
            self.sun,
            self.first_seat,
            self.current_seat,
            self.phase,
            self.setup_step,
            tuple(self.cells),
            self.activated,
            self.piles,
            self.seats,
            self.seat_ext,
            self.ext,
            self.events,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._key() == other._key()

    # mutable: compared, never hashed (the data model's `__hash__ = None`)
    __hash__ = None  # type: ignore[assignment]  # typeshed types object.__hash__ as a method only

    def __getstate__(self) -> dict[str, Any]:
        """For pickle and copy: every slot but the cached rules (looked up again when needed)."""
        return {k: getattr(self, k) for k in self.__slots__ if k != "rules"}

    def __setstate__(self, d: dict[str, Any]) -> None:
        for k, v in d.items():
            setattr(self, k, v)
        self.rules = None

    def __repr__(self) -> str:
        return (
            f"GameState(phase={self.phase}, round={self.round}, sun={self.sun}, "
            f"current_seat={self.current_seat})"
        )

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-serialisable data (docs/position-format.md)."""
        d = {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "rng": self.rng,
            "round": self.round,
            "revolution": self.revolution,
            "sun": self.sun,
            "first_seat": self.first_seat,
            "current_seat": self.current_seat,
            "phase": self.phase,
            "setup_step": self.setup_step,
            "board": {
                LABELS[i]: {"seat": c >> 2, "size": c & 3}
                for i, c in enumerate(self.cells)
                if c >= 0
            },
            "activated": [LABELS[i] for i in bits(self.activated)],
            "piles": {str(k): list(self.piles[k]) for k in (4, 3, 2, 1)},
            "seats": [s.to_dict() for s in self.seats],
            "events": list(self.events),
        }
        for layer in layers_for(self.config):
            layer.to_dict(self, d)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        """Rebuild a state from ``to_dict`` data (older formats are migrated first)."""
        d = migrate(d)
        s = cls.__new__(cls)
        s.config = Config.from_dict(d["config"])
        s.rules = None  # the game's rules (engine.game.GameRules), looked up when first needed
        s.seed = int(d["seed"])
        s.rng = int(d["rng"])
        s.round = int(d["round"])
        s.revolution = int(d["revolution"])
        s.sun = int(d["sun"])
        s.first_seat = int(d["first_seat"])
        s.current_seat = None if d["current_seat"] is None else int(d["current_seat"])
        s.phase = d["phase"]
        s.setup_step = int(d.get("setup_step", 0))
        n = len(d["seats"])
        s.cells = [-1] * N_CELLS
        s.masks = [0] * (4 * n)
        for label, piece in d["board"].items():
            i = LABEL_INDEX[label]
            seat, size = int(piece["seat"]), int(piece["size"])
            s.cells[i] = seat * 4 + size
            s.masks[seat * 4 + size] |= 1 << i
        s.activated = sum(1 << LABEL_INDEX[label] for label in d["activated"])
        s.piles = tuple(
            () if k == 0 else tuple(int(x) for x in d["piles"][str(k)]) for k in range(5)
        )
        s.seats = tuple(SeatState.from_dict(x) for x in d["seats"])
        s.seat_ext = (None,) * n
        s.ext = None
        s.events = tuple(d.get("events", ()))
        for layer in layers_for(s.config):
            layer.from_dict(d, s)
        return s


def empty_piles() -> tuple[tuple[int, ...], ...]:
    """The full scoring piles, indexed by leaves (index 0 unused)."""
    return ((),) + tuple(PILES[k] for k in (1, 2, 3, 4))


def _v1_to_v2(d: dict[str, Any]) -> dict[str, Any]:
    """Format 2: the per-seat list of Cynthia decks is written only in games with a Cynthia
    (format 1 wrote ``"cynthia": [null, ...]`` in every game)."""
    d = dict(d)
    if not any(d.get("cynthia") or ()):
        d.pop("cynthia", None)
    d["format"] = 2
    return d


#: ``MIGRATIONS[v]`` brings format ``v`` data to format ``v + 1``.
MIGRATIONS = {1: _v1_to_v2}


def migrate(d: dict[str, Any]) -> dict[str, Any]:
    """Bring position data of an older ``format`` up to ``FORMAT``, one format at a time."""
    version = d.get("format", FORMAT)
    if version > FORMAT:
        raise ValueError(
            _(
                "This position has format {version}, newer than this engine ({format}).",
                version=version,
                format=FORMAT,
            )
        )
    while version < FORMAT:
        d = MIGRATIONS[version](d)
        version = d["format"]
    return d
