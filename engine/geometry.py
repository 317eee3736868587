"""Board geometry, precomputed once at import (docs/rules-data.md#1-board, #2-sun).

The 37 spaces are numbered 0..36 in reading order (row A left to right, then row B, ...).
Everything the rules ask of the geometry (labels, soil leaves, neighbours, spaces within a
distance, the lines a shadow falls along, ring orders) is a table indexed by that number, and sets
of spaces are ``int`` bitmasks with bit ``i`` for space ``i``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from translation import _, _p

N_CELLS = 37

#: Directions clockwise on screen: E, SE, SW, W, NW, NE as axial (dq, dr).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES = (
    _p("compass", "E"), _p("compass", "SE"), _p("compass", "SW"),
    _p("compass", "W"), _p("compass", "NW"), _p("compass", "NE"),
)  # fmt: skip
E, SE, SW, W, NW, NE = range(6)

#: Sun positions 0..5 (NE, E, SE, SW, W, NW corners) and the direction their shadows fall.
SUN_CORNER_NAMES = (
    _p("compass", "NE"), _p("compass", "E"), _p("compass", "SE"),
    _p("compass", "SW"), _p("compass", "W"), _p("compass", "NW"),
)  # fmt: skip
SHADOW_DIRECTION = (SW, W, NW, NE, E, SE)

ROW_LETTERS = "ABCDEFG"


def _build_coords() -> list[tuple[int, int]]:
    coords = []
    for r in range(-3, 4):
        for q in range(-3, 4):
            if max(abs(q), abs(r), abs(q + r)) <= 3:
                coords.append((q, r))
    return coords


#: Axial coordinates ``(q, r)`` of each space.
COORDS: tuple[tuple[int, int], ...] = tuple(_build_coords())
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}


def _label(q: int, r: int) -> str:
    return f"{ROW_LETTERS[r + 3]}{q - max(-3, -3 - r) + 1}"


#: Labels ``A1``..``G4`` of each space.
LABELS: tuple[str, ...] = tuple(_label(q, r) for q, r in COORDS)
LABEL_INDEX: dict[str, int] = {label: i for i, label in enumerate(LABELS)}
CENTRE = LABEL_INDEX["D4"]


def distance(a: int, b: int) -> int:
    """Hex distance between two spaces."""
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


#: Soil: 4 leaves at the centre down to 1 on the border.
LEAVES: tuple[int, ...] = tuple(4 - distance(i, CENTRE) for i in range(N_CELLS))

#: ``NEIGHBOUR[i][d]`` is the space one step from ``i`` in direction ``d``, or -1 off the board.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in COORDS
)
#: Bitmask of the (up to 6) spaces adjacent to each space.
ADJACENT_MASK: tuple[int, ...] = tuple(
    sum(1 << n for n in NEIGHBOUR[i] if n >= 0) for i in range(N_CELLS)
)

#: ``WITHIN[d][i]``: bitmask of spaces at distance 1..d from ``i`` (d = 0..3; d = 0 is empty).
WITHIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << j for j in range(N_CELLS) if 1 <= distance(i, j) <= d) for i in range(N_CELLS))
    for d in range(4)
)

#: ``RAY[i][d]``: the spaces from ``i`` (excluded) to the board edge in direction ``d``.
RAY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            INDEX[(COORDS[i][0] + k * dq, COORDS[i][1] + k * dr)]
            for k in range(1, 7)
            if (COORDS[i][0] + k * dq, COORDS[i][1] + k * dr) in INDEX
        )
        for dq, dr in DIRECTIONS
    )
    for i in range(N_CELLS)
)

ALL_MASK = (1 << N_CELLS) - 1
#: Bitmask of the spaces of each soil (index = leaves, 1..4).
RING_MASK: tuple[int, ...] = (0,) + tuple(
    sum(1 << i for i in range(N_CELLS) if LEAVES[i] == leaves) for leaves in (1, 2, 3, 4)
)
BORDER_MASK = RING_MASK[1]


def _ring_order(leaves: int) -> tuple[int, ...]:
    """Spaces of one ring clockwise, starting at its reference space (on the line A4 -> D4)."""
    if leaves == 4:
        return (CENTRE,)
    radius = 4 - leaves
    # Reference space: on the NE line from the centre, i.e. direction NE times the radius.
    start = INDEX[(radius, -radius)]
    order = [start]
    q, r = COORDS[start]
    # Walking clockwise around a ring starting at the NE corner goes SE, then SW, W, NW, NE, E.
    for d in (SE, SW, W, NW, NE, E):
        dq, dr = DIRECTIONS[d]
        for _step in range(radius):
            q, r = q + dq, r + dr
            if (q, r) != COORDS[start]:
                order.append(INDEX[(q, r)])
    return tuple(order)


#: ``RING_ORDER[leaves]``: the ring clockwise from its reference space (A4, B4, C4, D4).
RING_ORDER: tuple[tuple[int, ...], ...] = ((),) + tuple(_ring_order(k) for k in (1, 2, 3, 4))
#: Border index 0..17 of each border space (A4 = 0, clockwise), -1 elsewhere.
BORDER_INDEX: tuple[int, ...] = tuple(
    RING_ORDER[1].index(i) if LEAVES[i] == 1 else -1 for i in range(N_CELLS)
)


def pixel(i: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius ``size``; the centre space is at (0, 0)."""
    q, r = COORDS[i]
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def parse_label(text: str) -> int:
    """The space index of a label such as ``d4`` (case-insensitive); ValueError if none."""
    index = LABEL_INDEX.get(text.strip().upper())
    if index is None:
        raise ValueError(_("{strip!r} is not a space on the board (A1 to G4).", strip=text.strip()))
    return index


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
