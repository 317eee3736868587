"""Where everything goes in the picture, for a given width.

All positions are designed for a 1000 px wide picture and scaled by ``width / 1000``. The board
sits on top (with free corners for the round, the scoring piles, the soil legend and the sun),
the seat panels below it in two columns. Room is kept for the expansion: a band around the board
edge for the moon, a bottom-centre box for the moon phase tracker and a lunar row in each panel.

With Under the Moonlight's Moon and Forest Animals mode (``moon=True``) the seat panels are taller:
a lunar row under the light row (the rows below it move down by ``MOON_SHIFT``) and a row at the
bottom for the animal's abilities, Baby Turtle tokens and the final score parts. The base game's
layout is unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.geometry import LABEL_INDEX, N_CELLS, pixel
from engine.moon import BORDER, N_GAPS

DESIGN_WIDTH = 1000
DEFAULT_WIDTH = 1000

#: Design-unit constants.
HEX_R = 60.0  # circumradius of a space
BOARD_H = 870.0  # height of the board area
BOARD_CX, BOARD_CY = 500.0, 434.0
SUN_DIST = 448.0  # distance of the sun from the board centre
SUN_R = 27.0
PANEL_TOP = BOARD_H
PANEL_W = 476.0
PANEL_H = 180.0
PANEL_GAP = 16.0
PANEL_X = (16.0, 508.0)
BOTTOM_PAD = 14.0
#: Expansion panels: taller, with the rows below the light row moved down.
PANEL_H_MOON = 236.0
MOON_SHIFT = 27.0
#: Distance of the moon's centre from the board centre, measured along the normal of the board
#: side that holds its gap: on the wooden rim, just outside the notch between two border spaces.
MOON_RIM = 5.7 * HEX_R
MOON_R = 20.0

#: Unit vectors (screen) from the board centre towards each sun corner 0..5 (NE, E, SE, SW, W, NW).
SUN_DIRS: tuple[tuple[float, float], ...] = tuple(
    (math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (-60, 0, 60, 120, 180, 240)
)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in pixels."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def ints(self) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` rounded, for Pillow."""
        return (round(self.x), round(self.y), round(self.right), round(self.bottom))


@dataclass(frozen=True)
class Layout:
    """Pixel positions for a picture of a given width and number of seats."""

    width: int
    height: int
    scale: float
    hex_r: float
    centres: tuple[tuple[float, float], ...]
    suns: tuple[tuple[float, float], ...]
    sun_r: float
    panels: tuple[Box, ...]
    title_box: Box
    piles_box: Box
    legend_box: Box
    sun_box: Box
    moon_box: Box
    moon: bool = False  # the expansion's lunar and animal rows are in the panels
    panel_shift: float = 0.0  # pixels the panel rows below the light row move down
    gaps: tuple[tuple[float, float], ...] = ()  # the moon's centre at each gap 0..17
    moon_r: float = 0.0

    def s(self, v: float) -> float:
        """A design-unit length in pixels."""
        return v * self.scale


def panel_rows(n_seats: int) -> int:
    """Rows of seat panels (two per row)."""
    return (max(1, n_seats) + 1) // 2


def _gap_points() -> tuple[tuple[float, float], ...]:
    """Design-unit centres of the moon at the 18 gaps (gap ``m`` between border spaces ``m``
    and ``m + 1`` of the clockwise border order, on board side ``m // 3``)."""
    out = []
    for m in range(N_GAPS):
        a = pixel(BORDER[m], HEX_R)
        b = pixel(BORDER[(m + 1) % N_GAPS], HEX_R)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        ang = math.radians(-30 + 60 * (m // 3))  # outward normal of the side
        nx, ny = math.cos(ang), math.sin(ang)
        push = MOON_RIM - (mx * nx + my * ny)
        out.append((BOARD_CX + mx + nx * push, BOARD_CY + my + ny * push))
    return tuple(out)


GAP_POINTS = _gap_points()


@lru_cache(maxsize=32)
def layout(width: int = DEFAULT_WIDTH, n_seats: int = 4, moon: bool = False) -> Layout:
    """The layout of a picture ``width`` pixels wide showing ``n_seats`` seat panels.

    ``moon``: the panels have the expansion's rows (Moon and Forest Animals mode).
    """
    k = width / DESIGN_WIDTH
    rows = panel_rows(n_seats)
    panel_h = PANEL_H_MOON if moon else PANEL_H
    height = round((PANEL_TOP + rows * (panel_h + PANEL_GAP) + BOTTOM_PAD - PANEL_GAP) * k)
    centres = tuple(
        ((BOARD_CX + x) * k, (BOARD_CY + y) * k)
        for x, y in (pixel(i, HEX_R) for i in range(N_CELLS))
    )
    suns = tuple(
        ((BOARD_CX + SUN_DIST * dx) * k, (BOARD_CY + SUN_DIST * dy) * k) for dx, dy in SUN_DIRS
    )
    panels = tuple(
        Box(
            PANEL_X[i % 2] * k,
            (PANEL_TOP + (i // 2) * (panel_h + PANEL_GAP)) * k,
            PANEL_W * k,
            panel_h * k,
        )
        for i in range(n_seats)
    )
    return Layout(
        width=width,
        height=height,
        scale=k,
        hex_r=HEX_R * k,
        centres=centres,
        suns=suns,
        sun_r=SUN_R * k,
        panels=panels,
        title_box=Box(16 * k, 14 * k, 226 * k, 250 * k),
        piles_box=Box(762 * k, 14 * k, 224 * k, 262 * k),
        legend_box=Box(16 * k, 650 * k, 220 * k, 200 * k),
        sun_box=Box(764 * k, 650 * k, 220 * k, 200 * k),
        moon_box=Box(330 * k, 790 * k, 340 * k, 60 * k),
        moon=moon,
        panel_shift=(MOON_SHIFT if moon else 0.0) * k,
        gaps=tuple((x * k, y * k) for x, y in GAP_POINTS),
        moon_r=MOON_R * k,
    )


def space_center(label: str, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Pixel centre of the space ``label`` (such as ``"D4"``) in a picture ``width`` wide."""
    x, y = layout(width).centres[LABEL_INDEX[label.strip().upper()]]
    return round(x), round(y)


def gap_point(gap: int, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Pixel centre of the moon standing at ``gap`` (0..17) in a picture ``width`` wide."""
    x, y = layout(width).gaps[gap % N_GAPS]
    return round(x), round(y)


def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hexagon."""
    return [
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]
