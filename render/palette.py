"""Colours and seat marks of the board picture.

Seat colours come from the Okabe-Ito palette, which stays distinct for the common kinds of
colour blindness; each seat also has its own mark (a shape drawn on the crown of its trees and on
its seeds), so colour is never the only cue.
"""

from __future__ import annotations

RGB = tuple[int, int, int]
#: A colour with or without its alpha (RGB or RGBA).
Colour = tuple[int, ...]

#: Okabe-Ito colours chosen to stand out against green soil: vermillion, blue, yellow,
#: reddish purple (seat 0..3).
SEAT_COLOURS: tuple[RGB, ...] = (
    (0xD5, 0x5E, 0x00),
    (0x00, 0x72, 0xB2),
    (0xF0, 0xE4, 0x42),
    (0xCC, 0x79, 0xA7),
)
SEAT_COLOUR_NAMES = ("vermillion", "blue", "yellow", "purple")
#: The mark of each seat, drawn on its pieces and in its panel.
SEAT_MARKS = ("circle", "square", "triangle", "diamond")
#: Colour of the mark on a piece of each seat (light on dark colours, dark on light ones).
MARK_INK: tuple[RGB, ...] = (
    (255, 246, 230),
    (240, 248, 255),
    (60, 50, 10),
    (70, 20, 50),
)

#: Soil by leaves (index 1..4): light green on the border, darker = richer towards the centre.
SOIL: tuple[RGB, ...] = (
    (0, 0, 0),
    (0xB9, 0xD8, 0x7E),
    (0x86, 0xB8, 0x55),
    (0x57, 0x94, 0x3C),
    (0x2F, 0x6B, 0x2C),
)
#: Leaf pips drawn on each space, per leaves.
LEAF_PIP: tuple[RGB, ...] = (
    (0, 0, 0),
    (0x5E, 0x86, 0x30),
    (0x3E, 0x6E, 0x24),
    (0xB9, 0xDE, 0x8E),
    (0xC9, 0xEA, 0x9B),
)

BACKGROUND: RGB = (0x18, 0x24, 0x32)
BOARD_RIM: RGB = (0x4A, 0x3A, 0x26)
BOARD_GUTTER: RGB = (0x24, 0x3B, 0x22)

PANEL_BG: RGB = (0x24, 0x31, 0x40)
PANEL_EDGE: RGB = (0x3A, 0x4A, 0x5C)
TEXT: RGB = (0xEE, 0xF2, 0xF5)
TEXT_DIM: RGB = (0x9F, 0xAE, 0xBD)
TEXT_DARK: RGB = (0x14, 0x1E, 0x2A)
LABEL_TEXT: RGB = (0xFF, 0xFF, 0xFF)
LABEL_STROKE: RGB = (0x1A, 0x30, 0x16)

SUN: RGB = (0xFF, 0xC8, 0x3D)
SUN_CORE: RGB = (0xFF, 0xE8, 0x8A)
SUN_DIM: RGB = (0x5A, 0x5A, 0x48)
LIGHT_ON: RGB = (0xFF, 0xC8, 0x3D)
LIGHT_OFF: RGB = (0x3A, 0x47, 0x55)
#: Shadows: a dark slate blue laid over the soil; opacity (0..255) by shadow height 1..3. A
#: shaded space turns blue-grey, no soil's green: the nearest of any soil is 30 (CIE76 ΔE)
#: from every soil, when the soils are 15 to 45 apart (a near black-blue made a shaded 3-leaf
#: space 10 from the 4-leaf soil; tests/test_render_readable.py measures it).
SHADOW: RGB = (0x18, 0x20, 0x60)
SHADOW_ALPHA = (0, 130, 150, 170)
HIGHLIGHT: RGB = (0xFF, 0xFF, 0xFF)
HIGHLIGHT_HALO: RGB = (0x10, 0x18, 0x20)
TRUNK: RGB = (0x6B, 0x45, 0x26)
OUTLINE: RGB = (0x1A, 0x1A, 0x1A)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""

    def between(x: int, y: int) -> int:
        return round(x + (y - x) * t)

    return (between(a[0], b[0]), between(a[1], b[1]), between(a[2], b[2]))


def seat_colour(seat: int) -> RGB:
    """The colour of a seat (seats beyond four reuse the palette)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_mark(seat: int) -> str:
    """The mark shape name of a seat."""
    return SEAT_MARKS[seat % len(SEAT_MARKS)]
