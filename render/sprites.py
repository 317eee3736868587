"""Pre-rendered pieces: trees, seeds, the sun, hexagon masks, marks, chips.

Everything here is drawn once per size at several times the final resolution and scaled down
(smooth edges that Pillow's polygon drawing does not give), then cached. Cached images are only
ever pasted from, never drawn on, so sharing them between threads is safe.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TypedDict, cast

from PIL import Image, ImageDraw, ImageFilter

from . import palette as P
from .fonts import font
from .layout import hex_points

SS = 2  # supersampling factor for sprites


class TreeShape(TypedDict):
    """One tree size's drawing: crown circles and the mark as ``(dx, dy, radius)``, the trunk
    as ``(width, top)``."""

    crown: tuple[tuple[float, float, float], ...]
    trunk: tuple[float, float]
    mark: tuple[float, float, float]


#: Crown circles of each tree size as ``(dx, dy, radius)`` in units of the hex radius, relative
#: to the foot of the trunk; plus trunk width, trunk top and where the seat mark sits.
TREE_SHAPES: dict[int, TreeShape] = {
    1: {"crown": ((0.0, -0.47, 0.23),), "trunk": (0.09, -0.26), "mark": (0.0, -0.47, 0.14)},
    2: {
        "crown": ((-0.2, -0.56, 0.23), (0.2, -0.56, 0.23), (0.0, -0.78, 0.27)),
        "trunk": (0.11, -0.36),
        "mark": (0.0, -0.64, 0.18),
    },
    3: {
        "crown": (
            (-0.24, -0.62, 0.29),
            (0.24, -0.62, 0.29),
            (-0.36, -0.92, 0.27),
            (0.36, -0.92, 0.27),
            (0.0, -1.16, 0.33),
        ),
        "trunk": (0.15, -0.46),
        "mark": (0.0, -0.86, 0.25),
    },
}
#: Where a tree's trunk stands, below the centre of its space (units of the hex radius).
TREE_FOOT = 0.64
#: Where a seed lies, below the centre of its space.
SEED_Y = 0.3


def _down(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Scale a supersampled drawing down with a box filter (smooth edges, no ringing)."""
    if im.mode == "RGBA":
        return _down(im.convert("RGBa"), size).convert("RGBA")
    if im.size == (size[0] * SS, size[1] * SS):
        return im.reduce(SS)
    return im.resize(size, Image.Resampling.BOX)


def draw_mark(
    draw: ImageDraw.ImageDraw,
    shape: str,
    cx: float,
    cy: float,
    r: float,
    fill: P.Colour,
    outline: P.Colour | None = None,
    width: int = 0,
) -> None:
    """Draw a seat mark (circle, square, triangle, diamond) of radius ``r`` centred at (cx, cy)."""
    if shape == "circle":
        draw.ellipse(
            (cx - r * 0.82, cy - r * 0.82, cx + r * 0.82, cy + r * 0.82),
            fill=fill,
            outline=outline,
            width=width,
        )
        return
    if shape == "square":
        a = r * 0.72
        pts = [(cx - a, cy - a), (cx + a, cy - a), (cx + a, cy + a), (cx - a, cy + a)]
    elif shape == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.92, cy + r * 0.62), (cx - r * 0.92, cy + r * 0.62)]
    else:  # diamond
        pts = [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    draw.polygon(pts, fill=fill, outline=outline, width=width)


def _mark_outline(seat: int) -> P.RGB:
    return P.mix(P.seat_colour(seat), (0, 0, 0), 0.55)


@lru_cache(maxsize=256)
def tree(
    seat: int, size: int, hex_r: float, flat: bool = False
) -> tuple[Image.Image, tuple[int, int]]:
    """An RGBA sprite of a seat's piece (0 seed .. 3 large) for spaces of radius ``hex_r``.

    Returns the sprite and the pixel in it that goes on the piece's anchor: the foot of the trunk
    for trees, the middle of a seed. ``flat`` leaves out the shading (small icons: fewer bytes).
    """
    if size == 0:
        return seed(seat, hex_r, flat)
    shape = TREE_SHAPES[size]
    w = math.ceil(hex_r * 1.4)
    h = math.ceil(hex_r * 1.7)
    ax, ay = w // 2, h - math.ceil(hex_r * 0.12)
    R = hex_r * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fx, fy = ax * SS, ay * SS
    colour = P.seat_colour(seat)
    dark = P.mix(colour, (0, 0, 0), 0.28)
    light = P.mix(colour, (255, 255, 255), 0.35)
    line = max(1.0, R * 0.035)
    if not flat:  # ground shadow
        gw = R * (0.2 + 0.1 * size)
        d.ellipse((fx - gw, fy - R * 0.06, fx + gw, fy + R * 0.06), fill=(0, 0, 0, 90))
    # Trunk.
    tw, ttop = shape["trunk"]
    d.rounded_rectangle(
        (fx - tw * R / 2 - line, fy + ttop * R, fx + tw * R / 2 + line, fy + line * 0.5),
        radius=tw * R / 3,
        fill=P.OUTLINE,
    )
    d.rectangle((fx - tw * R / 2, fy + ttop * R, fx + tw * R / 2, fy - line * 0.5), fill=P.TRUNK)
    crown = shape["crown"]
    # Outline, dark body, lit body, highlights: the crown looks round and lit from the top left.
    for dx, dy, r in crown:
        x, y, rr = fx + dx * R, fy + dy * R, r * R + line * 1.6
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=P.OUTLINE)
    for dx, dy, r in crown:
        x, y, rr = fx + dx * R, fy + dy * R, r * R
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=colour if flat else dark)
    for dx, dy, r in () if flat else crown:
        x, y, rr = fx + dx * R - r * R * 0.08, fy + dy * R - r * R * 0.1, r * R * 0.86
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=colour)
    for dx, dy, r in () if flat else crown[-1:]:
        x, y, rr = fx + dx * R - r * R * 0.35, fy + dy * R - r * R * 0.38, r * R * 0.3
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=light)
    mx, my, mr = shape["mark"]
    draw_mark(
        d,
        P.seat_mark(seat),
        fx + mx * R,
        fy + my * R,
        mr * R,
        P.MARK_INK[seat % 4],
        _mark_outline(seat),
        round(line),
    )
    return _down(big, (w, h)), (ax, ay)


@lru_cache(maxsize=64)
def seed(seat: int, hex_r: float, flat: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    """An RGBA sprite of a seat's seed; the anchor is its middle."""
    w = math.ceil(hex_r * 0.66)
    h = math.ceil(hex_r * 0.8)
    ax, ay = w // 2, h // 2
    R = hex_r * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    cx, cy = ax * SS, ay * SS
    colour = P.seat_colour(seat)
    line = max(1.0, R * 0.035)
    if not flat:
        d.ellipse((cx - R * 0.2, cy + R * 0.12, cx + R * 0.2, cy + R * 0.25), fill=(0, 0, 0, 80))
    rx, ry = R * 0.25, R * 0.16  # a bean lying on the soil: wider than tall, no trunk
    # Two sprout leaves, so a seed reads as a seed and never as a small tree.
    green, stem = (0x4C, 0xA0, 0x3A), max(1.0, R * 0.03)
    d.line([(cx, cy - ry), (cx, cy - ry - R * 0.1)], fill=P.OUTLINE, width=round(stem * 2))
    for side in (-1, 1):
        d.ellipse(
            (cx + side * R * 0.01 - R * 0.08 + side * R * 0.07, cy - ry - R * 0.17,
             cx + side * R * 0.01 + R * 0.08 + side * R * 0.07, cy - ry - R * 0.07),
            fill=green, outline=P.OUTLINE, width=round(stem),
        )  # fmt: skip
    d.ellipse((cx - rx - line, cy - ry - line, cx + rx + line, cy + ry + line), fill=P.OUTLINE)
    d.ellipse(
        (cx - rx, cy - ry, cx + rx, cy + ry),
        fill=colour if flat else P.mix(colour, (0, 0, 0), 0.25),
    )
    if not flat:
        d.ellipse((cx - rx * 0.9, cy - ry, cx + rx * 0.82, cy + ry * 0.8), fill=colour)
    draw_mark(
        d,
        P.seat_mark(seat),
        cx,
        cy + ry * 0.05,
        R * 0.105,
        P.MARK_INK[seat % 4],
        _mark_outline(seat),
        round(line * 0.8),
    )
    return _down(big, (w, h)), (ax, ay)


@lru_cache(maxsize=128)
def icon(seat: int, size: int, height: int, faded: bool = False) -> Image.Image:
    """A piece cropped to about ``height`` pixels tall, for the panels (faint when ``faded``)."""
    scale = {0: 0.5, 1: 0.75, 2: 1.05, 3: 1.5}[size]
    im, _ = tree(seat, size, height / scale, flat=True)
    im = im.crop(im.getbbox() or (0, 0, im.width, im.height))
    if faded:
        im.putalpha(im.getchannel("A").point(lambda a: a * 30 // 100))
    return im


@lru_cache(maxsize=16)
def hex_mask(hex_r: float, inset: float = 0.965) -> tuple[Image.Image, tuple[int, int]]:
    """An anti-aliased "L" mask of one space and the offset of its centre within the mask."""
    r = hex_r * inset
    w = math.ceil(hex_r * math.sqrt(3)) + 2
    h = math.ceil(hex_r * 2) + 2
    big = Image.new("L", (w * SS, h * SS), 0)
    ImageDraw.Draw(big).polygon(hex_points(w * SS / 2, h * SS / 2, r * SS), fill=255)
    return _down(big, (w, h)), (w // 2, h // 2)


@lru_cache(maxsize=16)
def shadow_mask(hex_r: float, height: int) -> Image.Image:
    """The hex mask scaled to the opacity of a shadow of ``height`` (1..3)."""
    mask, _ = hex_mask(hex_r)
    a = P.SHADOW_ALPHA[height]
    return mask.point(lambda v: v * a // 255)


def _ring(
    hex_r: float, radius: float, halo: tuple[int, float], line: tuple[P.RGB, float]
) -> tuple[Image.Image, tuple[int, int]]:
    """An RGBA hexagonal ring around a space: ``radius`` of the hex's, a dark halo of (alpha,
    width) under a line of (colour, width), widths as shares of the hex's radius."""
    w = math.ceil(hex_r * math.sqrt(3)) + 8
    h = math.ceil(hex_r * 2) + 8
    R = hex_r * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = (w * SS / 2, h * SS / 2)
    ring = hex_points(*c, R * radius)
    (alpha, halo_w), (colour, line_w) = halo, line
    d.line(
        ring + ring[:1], fill=P.HIGHLIGHT_HALO + (alpha,), width=round(R * halo_w), joint="curve"
    )
    d.line(ring + ring[:1], fill=colour + (255,), width=round(R * line_w), joint="curve")
    return _down(big, (w, h)), (w // 2, h // 2)


@lru_cache(maxsize=16)
def highlight_ring(hex_r: float) -> tuple[Image.Image, tuple[int, int]]:
    """An RGBA outline drawn around a space that the last actions touched."""
    return _ring(hex_r, 0.97, (200, 0.16), (P.HIGHLIGHT, 0.08))


@lru_cache(maxsize=16)
def mark_ring(hex_r: float) -> tuple[Image.Image, tuple[int, int]]:
    """An RGBA ring, thicker than the highlight and in the sun's gold, around a space a lesson
    talks about."""
    return _ring(hex_r, 0.93, (220, 0.24), (P.SUN, 0.14))


@lru_cache(maxsize=32)
def sun(
    radius: float, bright: bool = True, arrow: tuple[float, float] | None = None
) -> tuple[Image.Image, tuple[int, int]]:
    """The sun (rays and a glow when ``bright``), with an arrow along ``arrow`` (unit vector)."""
    reach = radius * (3.1 if arrow else 1.7)
    w = h = math.ceil(reach * 2)
    c = w * SS / 2
    R = radius * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    if bright:
        glow = Image.new("RGBA", big.size, (0, 0, 0, 0))
        ImageDraw.Draw(glow).ellipse(
            (c - R * 1.45, c - R * 1.45, c + R * 1.45, c + R * 1.45), fill=P.SUN + (110,)
        )
        big = glow.filter(ImageFilter.GaussianBlur(R * 0.25))
        d = ImageDraw.Draw(big)
        for k in range(12):
            a = math.radians(k * 30 + 15)
            p1 = (c + math.cos(a) * R * 1.55, c + math.sin(a) * R * 1.55)
            p2 = (c + math.cos(a + 0.16) * R * 0.95, c + math.sin(a + 0.16) * R * 0.95)
            p3 = (c + math.cos(a - 0.16) * R * 0.95, c + math.sin(a - 0.16) * R * 0.95)
            d.polygon([p1, p2, p3], fill=P.SUN)
        d.ellipse(
            (c - R, c - R, c + R, c + R),
            fill=P.SUN,
            outline=(0xE0, 0x90, 0x10),
            width=round(R * 0.08),
        )
        d.ellipse((c - R * 0.72, c - R * 0.72, c + R * 0.72, c + R * 0.72), fill=P.SUN_CORE)
    else:
        d.ellipse(
            (c - R * 0.55, c - R * 0.55, c + R * 0.55, c + R * 0.55),
            outline=P.SUN_DIM,
            width=round(R * 0.12),
        )
    if arrow:
        ux, uy = arrow
        nx, ny = -uy, ux
        s0, s1, head = R * 1.62, R * 2.95, R * 0.7
        tail = (c + ux * s0, c + uy * s0)
        neck = (c + ux * (s1 - head), c + uy * (s1 - head))
        tip = (c + ux * s1, c + uy * s1)
        hw = R * 0.17
        body = [
            (tail[0] + nx * hw, tail[1] + ny * hw),
            (neck[0] + nx * hw, neck[1] + ny * hw),
            (neck[0] + nx * hw * 3, neck[1] + ny * hw * 3),
            tip,
            (neck[0] - nx * hw * 3, neck[1] - ny * hw * 3),
            (neck[0] - nx * hw, neck[1] - ny * hw),
            (tail[0] - nx * hw, tail[1] - ny * hw),
        ]
        d.polygon(body, fill=P.SUN, outline=(0xA0, 0x60, 0x00), width=round(R * 0.05))
    return _down(big, (w, h)), (w // 2, h // 2)


@lru_cache(maxsize=16)
def leaf(length: float, colour: tuple[int, int, int]) -> Image.Image:
    """A small leaf (pointed oval, tilted) about ``length`` pixels long."""
    n = math.ceil(length) + 2
    big = Image.new("RGBA", (n * SS, n * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = n * SS / 2
    L = length * SS / 2
    pts = []
    for k in range(24):
        t = math.pi * 2 * k / 24
        x = math.cos(t) * L
        y = math.sin(t) * L * 0.55 * (1 - abs(math.cos(t))) ** 0.5  # pointed at both ends
        # Tilt by -45 degrees.
        a = math.radians(-45)
        pts.append((c + x * math.cos(a) - y * math.sin(a), c + x * math.sin(a) + y * math.cos(a)))
    d.polygon(pts, fill=colour)
    return _down(big, (n, n))


@lru_cache(maxsize=128)
def label(text: str, size: float, stroke: int) -> Image.Image:
    """A space label: white bold text with a dark outline, as an RGBA sprite."""
    f = font(size, bold=True)
    # FreeType measures whole pixels (Pillow types the box as floats).
    box = cast(tuple[int, int, int, int], f.getbbox(text, stroke_width=stroke, anchor="mm"))
    left, top, right, bottom = box
    im = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(im).text(
        (1 - left, 1 - top), text, font=f, fill=P.LABEL_TEXT, anchor="mm",
        stroke_width=stroke, stroke_fill=P.LABEL_STROKE,
    )  # fmt: skip
    return im
