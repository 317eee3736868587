"""The board as SVG (the web companion's pages, issue 59), drawn from the same `render.model.View`
the PNG is drawn from: the spaces by their soil, the shadows of the sun shown, each piece in its
seat's colour and mark (a seed a dot, a tree a circle growing with its size), the spaces the last
turns changed outlined, the animals and the Great Elder Tree of Under the Moonlight, and the six
sun positions with the one shining. What it shows is what the view holds: the view is read from
`engine.observation` of the seat given (None: a spectator), never from the state itself.

The drawing is a few kilobytes of text, built in about a millisecond, and scales to any width
(a phone's 360 px to a desktop's), which the page's own text then says in the reader's language.
"""

from __future__ import annotations

import math
from html import escape

from engine.geometry import LABEL_INDEX, LABELS, LEAVES, N_CELLS, pixel

from . import palette as P
from .layout import SUN_DIRS
from .model import View

#: A space's circumradius in the drawing's units.
R = 10.0
#: Half the drawing's width and height (the board, the rim and the suns).
HALF = 82.0
#: A piece's radius by size (seed, small, medium, large).
PIECE_R = (2.0, 4.0, 5.5, 7.0)
#: How far the suns stand from the centre.
SUN_DIST = 74.0
#: The marks of the seats, as drawn on a tree (circle, square, triangle, diamond).
MARK_SIDES = (0, 4, 3, 4)


def _hex(rgb: tuple[int, ...]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])


def _points(cx: float, cy: float, r: float, start: float = -90.0, sides: int = 6) -> str:
    return " ".join(
        f"{cx + r * math.cos(math.radians(start + k * 360 / sides)):.1f},"
        f"{cy + r * math.sin(math.radians(start + k * 360 / sides)):.1f}"
        for k in range(sides)
    )


#: Each space's centre and outline (the static board, computed once).
_CENTRES = tuple(pixel(i, R) for i in range(N_CELLS))
_SPACES = tuple(_points(x, y, R * 0.95) for x, y in _CENTRES)
_OUTLINES = tuple(_points(x, y, R * 0.9) for x, y in _CENTRES)
#: The board's rim, its spaces by soil and their labels: the same in every drawing.
_BASE = "".join(
    [
        f'<polygon points="{_points(0, 0, R * 7.1, 0)}" fill="{_hex(P.BOARD_RIM)}"/>',
        f'<polygon points="{_points(0, 0, R * 6.8, 0)}" fill="{_hex(P.BOARD_GUTTER)}"/>',
        *(
            f'<polygon points="{_SPACES[i]}" fill="{_hex(P.SOIL[LEAVES[i]])}"/>'
            for i in range(N_CELLS)
        ),
    ]
)
_LABELS = "".join(
    f'<text x="{x:.1f}" y="{y + R * 0.72:.1f}" class="lbl">{LABELS[i]}</text>'
    for i, (x, y) in enumerate(_CENTRES)
)


def _mark(seat: int, cx: float, cy: float, r: float) -> str:
    """The seat's mark on a tree (what tells the seats apart without their colour)."""
    ink = _hex(P.MARK_INK[seat])
    if seat == 0:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{ink}"/>'
    start = {1: 45.0, 2: -90.0, 3: 0.0}[seat]
    return f'<polygon points="{_points(cx, cy, r * 1.2, start, MARK_SIDES[seat])}" fill="{ink}"/>'


def board_svg(v: View, title: str, *, outlined: bool = True) -> str:
    """The board of `v` as an SVG element whose accessible name is `title` (the alt text)."""
    out = [
        f'<svg class="board" viewBox="{-HALF} {-HALF} {2 * HALF} {2 * HALF}" role="img"'
        f' xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        _BASE,
    ]
    shade = _hex(P.SHADOW)
    for i in range(N_CELLS):
        height = v.shadows[i] if i < len(v.shadows) else 0
        if height:
            alpha = P.SHADOW_ALPHA[min(height, 3)] / 255
            out.append(
                f'<polygon points="{_SPACES[i]}" fill="{shade}" fill-opacity="{alpha:.2f}"/>'
            )
    out.append(_LABELS)
    moon = v.moon
    if moon is not None and moon.elder >= 0:
        x, y = _CENTRES[moon.elder]
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.8:.1f}" fill="#7a5a2e"/>')
    for label, (seat, size) in sorted(v.pieces.items()):
        x, y = _CENTRES[LABEL_INDEX[label]]
        colour = _hex(P.SEAT_COLOURS[seat])
        r = PIECE_R[size]
        out.append(
            f'<circle cx="{x:.1f}" cy="{y - 1:.1f}" r="{r}" fill="{colour}"'
            f' stroke="{_hex(P.OUTLINE)}" stroke-width="0.6"/>'
        )
        if size:
            out.append(_mark(seat, x, y - 1, r * 0.35))
    if moon is not None:
        for animal in moon.animals:
            x, y = _CENTRES[animal.space]
            colour = _hex(P.SEAT_COLOURS[animal.seat])
            out.append(
                f'<rect x="{x + 3:.1f}" y="{y - 8:.1f}" width="5" height="5" rx="1"'
                f' fill="{colour}" stroke="#fff" stroke-width="0.6"/>'
            )
    if outlined:
        for label in v.highlight:
            out.append(
                f'<polygon points="{_OUTLINES[LABEL_INDEX[label]]}" fill="none"'
                f' stroke="{_hex(P.HIGHLIGHT)}" stroke-width="1.1"/>'
            )
    for p, (dx, dy) in enumerate(SUN_DIRS):
        on = p == v.shadow_sun
        colour = _hex(P.SUN if on else P.SUN_DIM)
        out.append(
            f'<circle cx="{SUN_DIST * dx:.1f}" cy="{SUN_DIST * dy:.1f}" r="{5 if on else 3}"'
            f' fill="{colour}"/>'
        )
    out.append("</svg>")
    return "".join(out)
