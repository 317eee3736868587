"""Under the Moonlight's state in a position (``GameState.ext``), its position format, and what
other layers read of it (the Moon Phase Tracker, the moonlit spaces, an animal's steps).

``arrange`` sets expansion pieces directly, for tests, examples and puzzles.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, TypeVar, cast

from translation import _

from .. import game as G
from ..geometry import LABEL_INDEX, LABELS, bits
from ..moon import BORDER, FULL, HALF, N_GAPS, PHASE_NAMES, moonlit, next_moon
from ..state import SETUP, GameState, SeatState
from .names import (
    ABILITY_BIT,
    ANIMAL_INDEX,
    ANIMALS,
    BABIES,
    BABY_INDEX,
    NO_DOUBLE,
    SQUIRREL,
)


class Moonlight(NamedTuple):
    """Everything Under the Moonlight adds to a position. Per-seat fields are tuples by seat.

    ``obstacles`` is the bitmask of the Great Elder Tree and the moonstones; ``elder`` its space
    (-1: none); ``stones`` the moonstones; ``moon`` the moon's gap (-1 without the Moon and Forest
    Animals mode) and ``full`` its phase. ``dealt`` the two animals dealt to each seat, ``animal``
    each seat's animal (-1: none) and ``at`` its space (-1: not placed). ``beach`` the face-down
    Baby Turtle tokens as ``(space, token)`` pairs; ``babies`` each seat's face-up tokens;
    ``scoring`` each seat's used Scoring tokens; ``rich`` each seat's pending Rich soil.
    ``dam`` the Dam's gap (-1: not built). The current turn: ``used`` the abilities used (bits of
    ``ABILITY_BIT``), ``steps`` the animal steps taken, ``double`` the Double token (0 none,
    1 ready, 2 spent), ``fresh`` the seeds placed or moved by an ability (they cannot grow).
    """

    obstacles: int = 0
    elder: int = -1
    stones: int = 0
    moon: int = -1
    full: bool = HALF
    dealt: tuple[tuple[int, ...], ...] = ()
    animal: tuple[int, ...] = ()
    at: tuple[int, ...] = ()
    beach: tuple[tuple[int, int], ...] = ()
    babies: tuple[tuple[int, ...], ...] = ()
    scoring: tuple[int, ...] = ()
    rich: tuple[int, ...] = ()
    dam: int = -1
    used: int = 0
    steps: int = 0
    double: int = NO_DOUBLE
    fresh: int = 0

    @property
    def animal_mask(self) -> int:
        """Spaces holding an animal."""
        m = 0
        for i in self.at:
            if i >= 0:
                m |= 1 << i
        return m

    def seat_of_animal(self, animal: int) -> int:
        """The seat playing ``animal``, or -1."""
        try:
            return self.animal.index(animal)
        except ValueError:
            return -1

    def beach_token(self, space: int) -> int:
        """The face-down Baby Turtle token on a space, or -1."""
        for i, token in self.beach:
            if i == space:
                return token
        return -1

    @property
    def beach_mask(self) -> int:
        return sum(1 << i for i, _ in self.beach)

    def text_marks(self) -> dict[int, str]:
        """Two-character marks of the obstacles, for the text board."""
        marks = {i: "MS" for i in bits(self.stones)}
        if self.elder >= 0:
            marks[self.elder] = "EL"
        return marks

    def to_dict(self) -> dict[str, Any]:
        return {
            "moon": None if self.moon < 0 else {"gap": self.moon, "phase": PHASE_NAMES[self.full]},
            "elder": None if self.elder < 0 else LABELS[self.elder],
            "moonstones": [LABELS[i] for i in bits(self.stones)],
            "dam": None if self.dam < 0 else self.dam,
            "beach": {LABELS[i]: BABIES[t] for i, t in self.beach},
            "seats": [
                {
                    "dealt": [ANIMALS[a] for a in self.dealt[k]],
                    "animal": None if self.animal[k] < 0 else ANIMALS[self.animal[k]],
                    "space": None if self.at[k] < 0 else LABELS[self.at[k]],
                    "babies": [BABIES[t] for t in self.babies[k]],
                    "scoring": self.scoring[k],
                    "rich": self.rich[k],
                }
                for k in range(len(self.animal))
            ],
            "turn": {
                "used": [name for name, bit in ABILITY_BIT.items() if self.used & bit],
                "steps": self.steps,
                "double": ("none", "ready", "spent")[self.double],
                "fresh": [LABELS[i] for i in bits(self.fresh)],
            },
        }


def ext_from_dict(d: dict[str, Any]) -> Moonlight:
    """Rebuild the expansion state from ``Moonlight.to_dict`` data."""
    moon = d.get("moon")
    elder = -1 if d.get("elder") is None else LABEL_INDEX[d["elder"]]
    stones = sum(1 << LABEL_INDEX[x] for x in d.get("moonstones", ()))
    seats = d.get("seats", [])
    turn = d.get("turn", {})
    return Moonlight(
        obstacles=stones | (0 if elder < 0 else 1 << elder),
        elder=elder,
        stones=stones,
        moon=-1 if moon is None else int(moon["gap"]),
        full=FULL if moon is not None and moon["phase"] == "full" else HALF,
        dealt=tuple(tuple(ANIMAL_INDEX[a] for a in x["dealt"]) for x in seats),
        animal=tuple(-1 if x["animal"] is None else ANIMAL_INDEX[x["animal"]] for x in seats),
        at=tuple(-1 if x["space"] is None else LABEL_INDEX[x["space"]] for x in seats),
        beach=tuple(sorted((LABEL_INDEX[k], BABY_INDEX[v]) for k, v in d.get("beach", {}).items())),
        babies=tuple(tuple(BABY_INDEX[t] for t in x["babies"]) for x in seats),
        scoring=tuple(int(x["scoring"]) for x in seats),
        rich=tuple(int(x["rich"]) for x in seats),
        dam=-1 if d.get("dam") is None else int(d["dam"]),
        used=sum(ABILITY_BIT[name] for name in turn.get("used", ())),
        steps=int(turn.get("steps", 0)),
        double=("none", "ready", "spent").index(turn.get("double", "none")),
        fresh=sum(1 << LABEL_INDEX[x] for x in turn.get("fresh", ())),
    )


_T = TypeVar("_T")


def replace_at(t: tuple[_T, ...], k: int, value: _T) -> tuple[_T, ...]:
    return (*t[:k], value, *t[k + 1 :])


# -- reading helpers for other layers -------------------------------------------------------


def tracker(state: GameState) -> tuple[int, bool] | None:
    """The Moon Phase Tracker: ``(next gap, next phase)`` (True = Full), None without the moon."""
    ext: Moonlight | None = state.ext
    if ext is None or ext.moon < 0:
        return None
    return next_moon(ext.moon, ext.full, state.sun)


def moonlit_spaces(state: GameState) -> int:
    """Bitmask of the spaces where an animal would get lunar points now (0 without the moon)."""
    ext: Moonlight | None = state.ext
    if ext is None or ext.moon < 0:
        return 0
    return moonlit(ext.moon, ext.elder, ext.stones)


def moonlit_next_photosynthesis(state: GameState) -> int:
    """Bitmask of the spaces the moon will light at the next photosynthesis (0: none left, or no
    moon). During setup the moon has not moved yet; during a round it will have moved on."""
    ext: Moonlight | None = state.ext
    if ext is None or ext.moon < 0 or G.next_photosynthesis_sun(state) is None:
        return 0
    gap = ext.moon if state.phase == SETUP else cast(tuple[int, bool], tracker(state))[0]
    return moonlit(gap, ext.elder, ext.stones)


def steps_allowed(state: GameState, seat: int) -> int:
    """How many steps the seat's animal may take this turn (Squirrel 2; Running adds 1)."""
    ext: Moonlight = state.ext
    animal = ext.animal[seat]
    n = 2 if animal == SQUIRREL else 1
    if seat == state.current_seat and ext.used & ABILITY_BIT["run"]:
        n += 1
    return n


def arrange(
    state: GameState,
    *,
    animals: dict[int, tuple[str, str]] | None = None,
    elder: str | None = None,
    moonstones: Iterable[str] = (),
    moon: tuple[int, bool] | None = None,
    lunar: list[int] | None = None,
    beach: dict[str, str] | None = None,
    babies: dict[int, list[str]] | None = None,
    dam: int | None = None,
) -> GameState:
    """A copy of ``state`` (a position with the expansion) with expansion pieces set directly.

    For tests, examples and puzzles, like ``engine.position.build``: ``animals`` maps a seat to
    ``(animal name, label)``, ``moon`` is ``(gap, full)``, ``lunar`` each seat's lunar points,
    ``beach`` face-down Baby Turtle tokens by label, ``babies`` each seat's face-up tokens.
    """
    s = state.copy()
    ext: Moonlight = s.ext
    if animals is not None:
        animal, at = list(ext.animal), list(ext.at)
        for seat, (name, label) in animals.items():
            animal[seat] = ANIMAL_INDEX[name]
            at[seat] = LABEL_INDEX[label]
        ext = ext._replace(animal=tuple(animal), at=tuple(at))
    if elder is not None:
        ext = ext._replace(elder=LABEL_INDEX[elder])
    if moonstones:
        ext = ext._replace(stones=sum(1 << LABEL_INDEX[x] for x in moonstones))
    ext = ext._replace(obstacles=ext.stones | (1 << ext.elder if ext.elder >= 0 else 0))
    if moon is not None:
        ext = ext._replace(moon=moon[0], full=bool(moon[1]))
    if beach is not None:
        ext = ext._replace(
            beach=tuple(sorted((LABEL_INDEX[k], BABY_INDEX[v]) for k, v in beach.items()))
        )
    if babies is not None:
        mine = list(ext.babies)
        for seat, names in babies.items():
            mine[seat] = tuple(BABY_INDEX[x] for x in names)
        ext = ext._replace(babies=tuple(mine))
    if dam is not None:
        ext = ext._replace(dam=dam)
    s.ext = ext
    if lunar is not None:
        seats: list[SeatState] = []
        for seat_state, value in zip(s.seats, lunar, strict=False):
            seat_state = seat_state.copy()
            seat_state.lunar = value
            seats.append(seat_state)
        s.seats = (*seats, *s.seats[len(seats) :])
    return s


def obstacle_reason(ext: Moonlight, space: int) -> str | None:
    """``"C3 holds a moonstone."`` when an obstacle stands on ``space``, else None."""
    if ext.elder == space:
        return _("{space} holds the Great Elder Tree.", space=LABELS[space])
    if ext.stones >> space & 1:
        return _("{space} holds a moonstone.", space=LABELS[space])
    return None


def gap_words(gap: int) -> str:
    return _(
        "gap {gap} ({first}-{second})",
        gap=gap,
        first=LABELS[BORDER[gap]],
        second=LABELS[BORDER[(gap + 1) % N_GAPS]],
    )
