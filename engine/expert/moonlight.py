"""The expansion's score parts in the Expert's evaluation, and a ``GameState`` read as the
evaluation reads a position (``StateView``).

The evaluation counts a seat's lunar points as those it will hold at the end (``lunar_at_end``):
an animal the moon will light is worth its lunar points to come, and lunar points the cap of 14
would waste cost nothing to spend on an ability. An Owl's lunar points beyond the cap are light
it will hunt (``owl_surplus``).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from ..config import CYNTHIA, Config
from ..game import light_for_sun, score_parts, scores
from ..moon import moonlit, next_moon
from ..moonlight import OWL
from ..pieces import LUNAR_CAP, PILES
from ..state import GameState
from .eval import new_memo, remember

_PHASE = {"setup": 0, "play": 1, "over": 2}
#: An Owl's lunar points beyond the cap are light it will hunt (a Nighttime Hunting 3 turns 12
#: of them into 10 light): each is worth this much (``owl_surplus``).
OWL_SURPLUS_VALUE = 0.4


class StateView:
    """A ``GameState`` read the way the evaluation reads a ``FastGame`` (``eval.Readable``)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.config: Config = state.config
        self.phase = _PHASE[state.phase]
        self.round = state.round
        self.sun = state.sun
        self.n = len(state.seats)
        self.masks = state.masks
        self.cyn = tuple(s.kind == CYNTHIA for s in state.seats)
        self.light = [s.light for s in state.seats]
        self.avail = [x for s in state.seats for x in s.available]
        self.taken = [0] + [len(PILES[k]) - len(state.piles[k]) for k in (1, 2, 3, 4)]
        ext = state.ext
        #: What the light depends on besides the masks and the sun: the pieces that shade.
        self.shade_key: Hashable = None if ext is None else (ext.obstacles, ext.elder, ext.stones)

    def light_for_suns(self, suns: list[int]) -> list[list[int]]:
        return [light_for_sun(self.state, sun) for sun in suns]

    def scores(self) -> list[int]:
        return list(scores(self.state))

    def token_points(self, seat: int) -> float:
        """Everything that scores but light and Cynthia's trees: tokens, Baby Turtles, and the
        lunar points the seat will hold at the end if it spends none (``lunar_at_end``), and
        an Owl's ``owl_surplus``. Memoised by what they read: in a turn's beam the other seats'
        are the same in every position, and so are the seat's own but after a collect, an
        animal's step or an ability."""
        state = self.state
        seat_state = state.seats[seat]
        key = (
            state.config, seat, seat_state.tokens, seat_state.lunar,
            state.phase, state.round, state.sun, state.ext,
        )  # fmt: skip
        known = _TOKEN_POINTS.get(key)
        if known is None:
            known = _token_points(state, seat)
            remember(_TOKEN_POINTS, key, known)
        points, surplus = known
        return points + OWL_SURPLUS_VALUE * surplus


_TOKEN_POINTS = new_memo()


def _token_points(state: GameState, seat: int) -> tuple[int, int]:
    """``StateView.token_points`` as its points and the Owl's surplus lunar points."""
    parts = score_parts(state, seat)
    if "lunar" in parts:
        parts["lunar"] = lunar_at_end(state, seat)
    points = sum(v for k, v in parts.items() if k not in ("light", "trees"))
    return points, owl_surplus(state, seat)


@lru_cache(maxsize=65_536)
def _lunar_to_come(
    gap: int, full: bool, sun: int, rounds: int, space: int, elder: int, stones: int
) -> int:
    """The lunar points an animal on ``space`` gets at the next ``rounds`` photosyntheses, the
    moon moving on from ``gap`` and ``full`` while the sun moves on from ``sun``."""
    total = 0
    for _round in range(rounds):
        gap, full = next_moon(gap, full, sun)
        sun = (sun + 1) % 6
        if moonlit(gap, elder, stones) >> space & 1:
            total += 2 if full else 1
    return total


def _moonlight_to_come(state: GameState, seat: int) -> int:
    """The lunar points the moon will give the seat's animal where it stands at the
    photosyntheses left (``_lunar_to_come``); 0 before the moon or the animal is placed."""
    ext = state.ext
    space = ext.at[seat] if ext.at else -1
    if ext.moon < 0 or space < 0:
        return 0
    rounds = state.config.last_round - state.round
    return _lunar_to_come(ext.moon, ext.full, state.sun, rounds, space, ext.elder, ext.stones)


def lunar_at_end(state: GameState, seat: int) -> int:
    """The lunar points a seat would hold at the end if it spent none and its animal stayed where
    it stands: what it holds plus what the moon will give the animal there at the photosyntheses
    left, at most 14. Lunar points beyond that would be lost at the cap: spending them costs
    nothing, and an animal where the moon will shine is worth its lunar points to come."""
    lunar = state.seats[seat].lunar
    if state.phase != "play":
        return lunar
    return min(LUNAR_CAP, lunar + _moonlight_to_come(state, seat))


def owl_surplus(state: GameState, seat: int) -> int:
    """The lunar points the moon will give a seat's Owl, where it stands, beyond what fills its
    lunar points to the cap of 14 by the end: points ``lunar_at_end`` cannot count, which the Owl
    can still turn into light by Nighttime Hunting. 0 for another animal or one not placed."""
    ext = state.ext
    if ext is None or not ext.at or ext.animal[seat] != OWL or state.phase == "over":
        return 0
    return max(0, state.seats[seat].lunar + _moonlight_to_come(state, seat) - LUNAR_CAP)
