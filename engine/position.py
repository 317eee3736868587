"""Build a position directly, for tests, examples and puzzles.

``build(Config(...), board={"D4": (0, 3)}, light=[5, 3], sun=2)`` gives a state in the play phase
with those pieces on the board (taken from the seats' available areas, then stores, so pieces
stay conserved), those light points, and the other fields as at the start of a round.
"""

from __future__ import annotations

from .config import Config
from .game import new_game
from .geometry import LABEL_INDEX
from .state import PLAY, GameState


def build(
    config: Config,
    board: dict[str, tuple[int, int]] | None = None,
    *,
    light: list[int] | None = None,
    sun: int = 0,
    round: int | None = None,
    current_seat: int = 0,
    first_seat: int | None = None,
    seed: int = 0,
) -> GameState:
    """A play-phase position (see the module docstring). ``round`` defaults to the first round
    with that sun position."""
    s = new_game(config, seed).copy()
    s.phase = PLAY
    s.setup_step = 2 * config.n_seats
    s.sun = sun
    s.round = sun + 1 if round is None else round
    s.revolution = (s.round - 1) // 6 + 1
    s.current_seat = current_seat
    s.first_seat = current_seat if first_seat is None else first_seat
    seats = [seat.copy() for seat in s.seats]
    for label, (seat, size) in (board or {}).items():
        space = LABEL_INDEX[label.upper()]
        if s.cells[space] >= 0:
            raise ValueError(f"{label} is given twice.")
        seat_state = seats[seat]
        if seat_state.available[size] > 0:
            seat_state.available[size] -= 1
        elif seat_state.store[size] > 0:
            seat_state.store[size] -= 1
        else:
            raise ValueError(f"Seat {seat} has no {size}-size piece left for {label}.")
        s.cells[space] = seat * 4 + size
        s.masks[seat * 4 + size] |= 1 << space
    for seat, value in enumerate(light or []):
        seats[seat].light = value
    s.seats = tuple(seats)
    return s
