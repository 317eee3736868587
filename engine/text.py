"""A text picture of a position, for the terminal game and for logs."""

from __future__ import annotations

from .geometry import LABEL_INDEX, LABELS, LEAVES, SUN_CORNER_NAMES
from .pieces import SIZE_NAMES
from .state import GameState

#: Seat letters on the text board; the size is shown as a digit after it (0 seed .. 3 large).
SEAT_MARKS = "abcd"
ROWS = ("A", "B", "C", "D", "E", "F", "G")
ROW_LENGTH = (4, 5, 6, 7, 6, 5, 4)


def board_text(state: GameState) -> str:
    """The hex board as text: ``a2`` is seat 1's medium tree, ``.3`` an empty 3-leaf space.

    Shadowed spaces under the current sun are marked with ``*``.
    """
    from .game import shadow_map  # noqa: PLC0415 (game imports this module's users)

    shadows = shadow_map(state)
    obstacles = {} if state.ext is None else state.ext.text_marks()
    lines = []
    for row, length in zip(ROWS, ROW_LENGTH, strict=True):
        cells = []
        for n in range(1, length + 1):
            i = LABEL_INDEX[f"{row}{n}"]
            c = state.cells[i]
            if c >= 0:
                body = f"{SEAT_MARKS[c >> 2]}{c & 3}"
            elif i in obstacles:
                body = obstacles[i]
            else:
                body = f".{LEAVES[i]}"
            cells.append(body + ("*" if shadows[i] else " "))
        lines.append(" " * (2 * (7 - length)) + f"{row} " + " ".join(cells))
    return "\n".join(lines)


def status_text(state: GameState) -> str:
    """Round, sun and each seat's light, pieces and tokens."""
    from .game import scores  # noqa: PLC0415

    if state.phase == "setup":
        head = "Setup"
    else:
        head = (
            f"Round {state.round}/{state.config.last_round} (revolution {state.revolution}), "
            f"sun at the {SUN_CORNER_NAMES[state.sun]} corner"
        )
    lines = [head]
    sc = scores(state)
    for i, seat in enumerate(state.seats):
        mark = ">" if i == state.current_seat else " "
        avail = " ".join(f"{SIZE_NAMES[k]}:{seat.available[k]}" for k in range(4))
        store = " ".join(f"{SIZE_NAMES[k]}:{seat.store[k]}" for k in range(4))
        first = " (first player)" if i == state.first_seat and state.phase == "play" else ""
        lunar = f" lunar {seat.lunar}" if state.ext is not None else ""
        lines.append(
            f"{mark} seat {i + 1} [{SEAT_MARKS[i]}] {seat.kind}{first}: light {seat.light}{lunar}, "
            f"score {sc[i]}, available {avail}; store {store}; "
            f"tokens {[p for _, p in seat.tokens]}"
        )
    if state.ext is not None:
        lines.extend(_moonlight_lines(state))
    piles = ", ".join(f"{k} leaves {list(state.piles[k])}" for k in (4, 3, 2, 1))
    lines.append(f"Piles: {piles}")
    if state.activated:
        used = [LABELS[i] for i in range(37) if state.activated >> i & 1]
        lines.append(f"Used this turn: {' '.join(used)}")
    return "\n".join(lines)


def _moonlight_lines(state: GameState) -> list[str]:
    """The expansion's public state: the moon, each seat's animal, face-up Baby Turtles."""
    from .moonlight import ANIMALS, BABIES, tracker  # noqa: PLC0415

    ext = state.ext
    lines = []
    if ext.moon >= 0:
        nxt = tracker(state)
        lines.append(
            f"Moon at gap {ext.moon} ({'Full' if ext.full else 'Half'}); "
            f"next: gap {nxt[0]} ({'Full' if nxt[1] else 'Half'})"
        )
    for seat in range(len(state.seats)):
        parts = []
        if ext.animal and ext.animal[seat] >= 0:
            where = f"on {LABELS[ext.at[seat]]}" if ext.at[seat] >= 0 else "not placed yet"
            parts.append(f"{ANIMALS[ext.animal[seat]]} {where}")
        elif ext.dealt and ext.dealt[seat]:
            parts.append("dealt " + " and ".join(ANIMALS[a] for a in ext.dealt[seat]))
        if ext.babies and ext.babies[seat]:
            parts.append("baby turtles " + " ".join(BABIES[b] for b in ext.babies[seat]))
        if parts:
            lines.append(f"  seat {seat + 1}: " + "; ".join(parts))
    return lines
