"""Where everything goes in the picture, for a given width.

The picture is landscape, made for Discord, which shows it 400 to 550 pixels wide: the board on
the left (the scoring piles and the soil legend in its free corners) and a strip on the right
with the round, the turn, the sun (and the moon) and one compact card per seat.

All positions are design units for a ``DESIGN_WIDTH`` wide picture, scaled by
``width / DESIGN_WIDTH``. No text is drawn smaller than ``MIN_TEXT`` design units, so shown 550
pixels wide the smallest text is ``MIN_TEXT * 550 / DESIGN_WIDTH`` (about 9.3) pixels.

The phone picture (``phone_layout``) has a header band (the round, the turn, the
sun, the moon) over the board, ``PHONE_DESIGN_WIDTH`` design units wide, so that shown 400
pixels wide (a phone) its smallest text is ``MIN_TEXT * 400 / PHONE_DESIGN_WIDTH`` (about 9.8)
pixels. The phone picture may have seat cards under the board (``phone_layout(seats=...)``),
one under the other and as wide as the picture, the available pieces beside the store
(``PHONE_CARD_ROWS``): the panel's picture has the card of the one playing, ``/ps rules``'s
every seat's. No picture the bot sends uses the wide layout any more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.geometry import LABEL_INDEX, N_CELLS, pixel
from engine.moon import BORDER, N_GAPS

DESIGN_WIDTH = 1180
DEFAULT_WIDTH = 1180
#: The smallest text size anywhere in the picture (design units).
MIN_TEXT = 20

#: The board.
HEX_R = 52.0  # circumradius of a space
BOARD_CX, BOARD_CY = 436.0, 366.0
BOARD_H = 732.0  # height of the board area
SUN_DIST = 374.0  # distance of a sun position from the board centre
SUN_R = 22.0
#: Distance of the moon's centre from the board centre, measured along the normal of the board
#: side that holds its gap: on the wooden rim, just outside the notch between two border spaces.
MOON_RIM = 5.7 * HEX_R
MOON_R = 17.0

#: The strip on the right.
STRIP_X = 852.0
STRIP_W = 318.0
STRIP_TOP = 12.0
LINE = 26.0  # height of one text line in the strip
HEADER_LINES = 4  # round, dots, turn, sun (the moon adds one)
CARD_GAP = 6.0
CARD_TOP_H = 38.0  # the name row of a card
CARD_LINES = 4  # light, available, store, tokens (the animal and its abilities add two)
CARD_PAD = 10.0
BOTTOM_PAD = 10.0

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
    header: Box  # the strip's top: round, turn, sun, moon
    cards: tuple[Box, ...]  # one per seat
    piles_box: Box
    legend_box: Box
    corner_box: Box  # bottom right of the board: "PREVIEW"
    board_centre: tuple[float, float] = (0.0, 0.0)  # pixels
    moon: bool = False  # the cards have the expansion's rows (Moon and Forest Animals mode)
    gaps: tuple[tuple[float, float], ...] = ()  # the moon's centre at each gap 0..17
    moon_r: float = 0.0
    phone: bool = False  # the phone picture: a header band over the board (cards under it)
    card_seats: tuple[int, ...] = ()  # the seat of each card, in order (default: 0, 1, ...)

    def card_of(self, seat: int) -> Box | None:
        """The card of ``seat``, if the picture has one."""
        seats = self.card_seats or tuple(range(len(self.cards)))
        return self.cards[seats.index(seat)] if seat in seats else None

    def seat_cards(self) -> list[tuple[int, Box]]:
        """``(seat, card)`` for every card, in order."""
        return list(zip(self.card_seats or range(len(self.cards)), self.cards, strict=False))

    def s(self, v: float) -> float:
        """A design-unit length in pixels."""
        return v * self.scale

    def line(self, box: Box, k: int) -> float:
        """The middle of text line ``k`` of a card (0 is the name row; a phone card's rows are
        ``PHONE_CARD_ROWS``)."""
        if k == 0:
            return box.y + self.s(CARD_TOP_H / 2 + 2)
        return box.y + self.s(CARD_TOP_H + (k - 0.5) * LINE)


def header_height(moon_tracker: bool) -> float:
    """Design height of the strip's header."""
    return STRIP_TOP + 14 + (HEADER_LINES + (1 if moon_tracker else 0)) * LINE


def card_height(moon_rows: bool) -> float:
    """Design height of a seat card."""
    return CARD_TOP_H + (CARD_LINES + (2 if moon_rows else 0)) * LINE + CARD_PAD


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
def layout(
    width: int = DEFAULT_WIDTH, n_seats: int = 4, moon: bool = False, tracker: bool | None = None
) -> Layout:
    """The layout of a picture ``width`` pixels wide showing ``n_seats`` seat cards.

    ``moon``: the cards have the expansion's animal row (Moon and Forest Animals mode);
    ``tracker``: the header has the moon's line (default: same as ``moon``).
    """
    if tracker is None:
        tracker = moon
    k = width / DESIGN_WIDTH
    head_h = header_height(tracker)
    card_h = card_height(moon)
    strip_h = head_h + max(1, n_seats) * (card_h + CARD_GAP) - CARD_GAP + BOTTOM_PAD
    height = round(max(BOARD_H, strip_h) * k)
    cy = BOARD_CY  # the board stays at the top of a taller picture (positions never move)
    centres = tuple(
        ((BOARD_CX + x) * k, (cy + y) * k) for x, y in (pixel(i, HEX_R) for i in range(N_CELLS))
    )
    suns = tuple(((BOARD_CX + SUN_DIST * dx) * k, (cy + SUN_DIST * dy) * k) for dx, dy in SUN_DIRS)
    cards = tuple(
        Box(STRIP_X * k, (head_h + i * (card_h + CARD_GAP)) * k, STRIP_W * k, card_h * k)
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
        header=Box(STRIP_X * k, STRIP_TOP * k, STRIP_W * k, (head_h - STRIP_TOP) * k),
        cards=cards,
        piles_box=Box(12 * k, 10 * k, 190 * k, 190 * k),
        legend_box=Box(12 * k, height - 78 * k, 190 * k, 70 * k),
        corner_box=Box(690 * k, height - 64 * k, 178 * k, 56 * k),
        board_centre=(BOARD_CX * k, cy * k),
        moon=moon,
        gaps=tuple((x * k, (y - BOARD_CY + cy) * k) for x, y in GAP_POINTS),
        moon_r=MOON_R * k,
    )


#: The phone picture (``phone_layout``): design width, the board's centre from the left, the
#: header band's top padding and the height of each of its rows.
PHONE_DESIGN_WIDTH = 820
PHONE_BOARD_CX = 410.0
PHONE_TOP = 10.0
PHONE_ROW = 34.0
PHONE_HEADER_ROWS = 3  # round, turn, sun (the moon adds one)
#: The phone picture's seat cards, one under the other below the board, as wide as the picture:
#: their rows (the available pieces and the store side by side on one), and where the store
#: starts in a card (design units from its left edge).
PHONE_CARD_ROWS = {"light": 1, "avail": 2, "store": 2, "tokens": 3, "moon": 4}
WIDE_CARD_ROWS = {"light": 1, "avail": 2, "store": 3, "tokens": 4, "moon": 5}
PHONE_STORE_DX = 398.0
PHONE_CARD_LINES = 3  # light, available and store, tokens (the animal and abilities add two)


def phone_header_height(tracker: bool) -> float:
    """Design height of the phone picture's header band."""
    return PHONE_TOP + (PHONE_HEADER_ROWS + (1 if tracker else 0)) * PHONE_ROW + 4


def phone_card_height(moon_rows: bool) -> float:
    """Design height of a seat card of the phone picture."""
    return CARD_TOP_H + (PHONE_CARD_LINES + (2 if moon_rows else 0)) * LINE + CARD_PAD


@lru_cache(maxsize=32)
def phone_layout(width: int = DEFAULT_WIDTH, moon: bool = False, tracker: bool | None = None,
                 seats: tuple[int, ...] = ()) -> Layout:  # fmt: skip
    """The layout of the phone picture ``width`` pixels wide: a header band (the round, the
    turn, the sun and the moon) over the board, whose free corners hold the scoring piles, the
    soil legend and the preview's title; under the board a card for each of ``seats`` (none:
    what a seat has is told in text beside the picture), one under the other, as wide as the
    picture. Made to be read 360-400 pixels wide: ``MIN_TEXT`` design units are
    ``MIN_TEXT * 400 / PHONE_DESIGN_WIDTH`` (about 9.8) pixels there."""
    if tracker is None:
        tracker = moon
    k = width / PHONE_DESIGN_WIDTH
    head_h = phone_header_height(tracker)
    card_h = phone_card_height(moon)
    cards_top = head_h + BOARD_H
    cards = tuple(
        Box(12 * k, (cards_top + i * (card_h + CARD_GAP)) * k, (PHONE_DESIGN_WIDTH - 24) * k,
            card_h * k)
        for i in range(len(seats))
    )  # fmt: skip
    board_bottom = round((head_h + BOARD_H) * k)  # the legend and the preview's corner above
    height = board_bottom + round(
        (len(seats) * (card_h + CARD_GAP) + (BOTTOM_PAD if seats else 0)) * k
    )
    cx, cy = PHONE_BOARD_CX, head_h + BOARD_CY
    dx = PHONE_BOARD_CX - BOARD_CX
    centres = tuple(
        ((cx + x) * k, (cy + y) * k) for x, y in (pixel(i, HEX_R) for i in range(N_CELLS))
    )
    suns = tuple(((cx + SUN_DIST * ux) * k, (cy + SUN_DIST * uy) * k) for ux, uy in SUN_DIRS)
    return Layout(
        width=width,
        height=height,
        scale=k,
        hex_r=HEX_R * k,
        centres=centres,
        suns=suns,
        sun_r=SUN_R * k,
        header=Box(12 * k, PHONE_TOP * k, (PHONE_DESIGN_WIDTH - 24) * k, (head_h - PHONE_TOP) * k),
        cards=cards,
        piles_box=Box(12 * k, (head_h + 10) * k, 190 * k, 190 * k),
        legend_box=Box(12 * k, board_bottom - 78 * k, 190 * k, 70 * k),
        corner_box=Box((PHONE_DESIGN_WIDTH - 190) * k, board_bottom - 64 * k, 178 * k, 56 * k),
        board_centre=(cx * k, cy * k),
        moon=moon,
        gaps=tuple(((x + dx) * k, (y - BOARD_CY + cy) * k) for x, y in GAP_POINTS),
        moon_r=MOON_R * k,
        phone=True,
        card_seats=seats,
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
