"""Where everything goes in the picture, for a given width.

All positions are designed for a 1000 px wide picture and scaled by ``width / 1000``. The board
sits on top (with free corners for the round, the scoring piles, the soil legend and the sun),
the seat panels below it in two columns. Room is kept for the expansion: a band around the board
edge for the moon, a bottom-centre box for the moon phase tracker and a lunar row in each panel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.geometry import LABEL_INDEX, N_CELLS, pixel

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

    def s(self, v: float) -> float:
        """A design-unit length in pixels."""
        return v * self.scale


def panel_rows(n_seats: int) -> int:
    """Rows of seat panels (two per row)."""
    return (max(1, n_seats) + 1) // 2


@lru_cache(maxsize=32)
def layout(width: int = DEFAULT_WIDTH, n_seats: int = 4) -> Layout:
    """The layout of a picture ``width`` pixels wide showing ``n_seats`` seat panels."""
    k = width / DESIGN_WIDTH
    rows = panel_rows(n_seats)
    height = round((PANEL_TOP + rows * (PANEL_H + PANEL_GAP) + BOTTOM_PAD - PANEL_GAP) * k)
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
            (PANEL_TOP + (i // 2) * (PANEL_H + PANEL_GAP)) * k,
            PANEL_W * k,
            PANEL_H * k,
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
    )


def space_center(label: str, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Pixel centre of the space ``label`` (such as ``"D4"``) in a picture ``width`` wide."""
    x, y = layout(width).centres[LABEL_INDEX[label.strip().upper()]]
    return round(x), round(y)


def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hexagon."""
    return [
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]
