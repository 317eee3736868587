"""Build a position directly, for tests, examples and puzzles.

``build(Config(...), board={"D4": (0, 3)}, light=[5, 3], sun=2)`` gives a state in the play phase
with those pieces on the board (taken from the seats' available areas, then stores, so pieces
stay conserved), those light points, and the other fields as at the start of a round.
"""

from __future__ import annotations

from translation import _

from . import cynthia
from .config import Config
from .game import new_game, setup_schedule
from .geometry import LABEL_INDEX
from .state import PLAY, GameState


def build(
    config: Config,
    board: dict[str, tuple[int, int]] | None = None,
    *,
    light: list[int] | None = None,
    sun: int | None = None,
    round: int | None = None,
    current_seat: int = 0,
    first_seat: int | None = None,
    seed: int = 0,
) -> GameState:
    """A play-phase position (see the module docstring).

    ``round`` defaults to the first round with that sun position and ``sun`` to the round's; in
    the last revolution every Cynthia's deck is in its late half, as in a game.
    """
    if round is None:
        round = 1 if sun is None else sun + 1
    if sun is None:
        sun = (round - 1) % 6
    if sun != (round - 1) % 6:
        raise ValueError(
            _(
                "Round {round} is played with the sun at position {n}.",
                round=round,
                n=(round - 1) % 6,
            )
        )
    s = new_game(config, seed).copy()
    s.phase = PLAY
    s.setup_step = len(setup_schedule(config))
    s.sun = sun
    s.round = round
    s.revolution = (s.round - 1) // 6 + 1
    if s.revolution >= config.revolutions:
        cynthia.start_late_half(s)
    s.current_seat = current_seat
    s.first_seat = current_seat if first_seat is None else first_seat
    seats = [seat.copy() for seat in s.seats]
    for label, (seat, size) in (board or {}).items():
        space = LABEL_INDEX[label.upper()]
        if s.cells[space] >= 0:
            raise ValueError(_("{label} is given twice.", label=label))
        seat_state = seats[seat]
        if seat_state.available[size] > 0:
            seat_state.available[size] -= 1
        elif seat_state.store[size] > 0:
            seat_state.store[size] -= 1
        else:
            raise ValueError(
                _(
                    "Seat {seat} has no {size}-size piece left for {label}.",
                    seat=seat,
                    size=size,
                    label=label,
                )
            )
        s.cells[space] = seat * 4 + size
        s.masks[seat * 4 + size] |= 1 << space
    for seat, value in enumerate(light or []):
        seats[seat].light = value
    s.seats = tuple(seats)
    return s
