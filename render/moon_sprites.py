"""Pre-rendered pieces of Under the Moonlight: the moon, the animals, the Great Elder Tree,
moonstones, Baby Turtle tokens and the Dam's logs.

Like ``sprites``: drawn supersampled, scaled down, cached, and only ever pasted from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from . import palette as P
from .sprites import SS, _down

#: Moonlight: the pale silver-blue of the moon, its beams and the lit spaces.
MOON_LIGHT: P.RGB = (0xD8, 0xE6, 0xFF)
MOON_BODY: P.RGB = (0xF4, 0xF1, 0xE0)
MOON_DARK: P.RGB = (0x34, 0x3E, 0x55)
MOON_EDGE: P.RGB = (0x9A, 0xA8, 0xC4)
#: Lunar points in the panels.
LUNAR_ON: P.RGB = (0xB8, 0xD0, 0xFF)
LUNAR_OFF: P.RGB = (0x35, 0x42, 0x56)
BADGE_BG: P.RGB = (0xF6, 0xF0, 0xE2)
INK: P.RGB = (0x2A, 0x22, 0x1E)

ANIMAL_TITLES = {
    "boar": "Boar",
    "hedgehog": "Hedgehog",
    "squirrel": "Squirrel",
    "fox": "Fox",
    "owl": "Owl",
    "badger": "Badger",
    "beaver": "Beaver",
    "turtle": "Turtle",
}


#: Blurred glows look softer but cost PNG bytes; flat halos keep the picture small.
SOFT_GLOW = False


def _glow(
    size: tuple[int, int],
    shape: Callable[[ImageDraw.ImageDraw, P.Colour], None],
    colour: P.RGB,
    alpha: int,
    blur: float,
) -> Image.Image:
    """A blurred glow: ``shape(draw)`` drawn in ``colour`` at ``alpha``, then blurred."""
    g = Image.new("RGBA", size, colour + (0,))
    if SOFT_GLOW:
        shape(ImageDraw.Draw(g), colour + (alpha,))
        return g.filter(ImageFilter.GaussianBlur(blur))
    # Two flat steps: an outer halo and a brighter inner one.
    shape(ImageDraw.Draw(g), colour + (alpha // 2,))
    inner = Image.new("RGBA", size, colour + (0,))
    shape(ImageDraw.Draw(inner), colour + (alpha,))
    w, h = size
    k = 1 - blur * 1.6 / (min(w, h) / 2)  # the inner step is a little smaller
    small = inner.resize((round(w * k), round(h * k)), Image.Resampling.BILINEAR)
    g.alpha_composite(small, ((w - small.width) // 2, (h - small.height) // 2))
    return g


# -- the moon --------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def moon(radius: float, full: bool, towards: float) -> tuple[Image.Image, tuple[int, int]]:
    """The moon: a Full Moon is a whole bright disc with a wide halo; a Half Moon is half bright
    (the half facing ``towards``, an angle in degrees: the board) and half dark."""
    reach = radius * (2.0 if full else 1.6)
    w = h = math.ceil(reach * 2)
    c = w * SS / 2
    R = radius * SS
    size = (w * SS, h * SS)
    halo = R * (1.45 if full else 1.18)
    big = _glow(
        size,
        lambda d, col: d.ellipse((c - halo, c - halo, c + halo, c + halo), fill=col),
        MOON_LIGHT,
        170 if full else 100,
        R * 0.15,
    )
    d = ImageDraw.Draw(big)
    line = max(1.0, R * 0.09)
    box = (c - R, c - R, c + R, c + R)
    d.ellipse(
        (c - R - line, c - R - line, c + R + line, c + R + line), fill=P.mix(MOON_DARK, INK, 0.5)
    )
    if full:
        d.ellipse(box, fill=MOON_BODY)
        for dx, dy, rr in ((-0.35, -0.25, 0.22), (0.3, 0.2, 0.28), (-0.1, 0.45, 0.14)):
            x, y, r = c + dx * R, c + dy * R, rr * R
            d.ellipse((x - r, y - r, x + r, y + r), fill=P.mix(MOON_BODY, MOON_EDGE, 0.45))
    else:
        d.ellipse(box, fill=MOON_DARK)
        d.pieslice(box, towards - 90, towards + 90, fill=MOON_BODY)
        a = math.radians(towards)
        for off, rr in ((0.5, 0.17), (0.25, 0.11)):
            x = c + math.cos(a) * R * off + math.cos(a + math.pi / 2) * R * 0.3 * (off - 0.35)
            y = c + math.sin(a) * R * off + math.sin(a + math.pi / 2) * R * 0.3 * (off - 0.35)
            r = rr * R
            d.ellipse((x - r, y - r, x + r, y + r), fill=P.mix(MOON_BODY, MOON_EDGE, 0.45))
        # The terminator, so the two halves read as one moon.
        ux, uy = math.cos(a + math.pi / 2), math.sin(a + math.pi / 2)
        d.line(
            (c - ux * R, c - uy * R, c + ux * R, c + uy * R),
            fill=MOON_EDGE,
            width=round(line * 0.8),
        )
    return _down(big, (w, h)), (w // 2, h // 2)


@lru_cache(maxsize=16)
def moon_ring(radius: float) -> tuple[Image.Image, tuple[int, int]]:
    """A faint dashed ring: where the moon goes next."""
    w = h = math.ceil(radius * 2 + 4)
    c = w * SS / 2
    R = radius * SS
    big = Image.new("RGBA", (w * SS, h * SS), MOON_LIGHT + (0,))
    d = ImageDraw.Draw(big)
    for k in range(12):
        a0 = k * 30
        d.arc(
            (c - R, c - R, c + R, c + R),
            a0,
            a0 + 18,
            fill=MOON_LIGHT + (200,),
            width=max(2, round(R * 0.12)),
        )
    return _down(big, (w, h)), (w // 2, h // 2)


# -- animals ---------------------------------------------------------------------------------


def _poly(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    s: float,
    pts: Sequence[tuple[float, float]],
    fill: P.Colour,
    outline: P.Colour | None = None,
    width: float = 0,
) -> None:
    d.polygon(
        [(cx + x * s, cy + y * s) for x, y in pts], fill=fill, outline=outline, width=round(width)
    )


def _ell(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    s: float,
    x: float,
    y: float,
    rx: float,
    ry: float,
    fill: P.Colour,
    outline: P.Colour | None = None,
    width: float = 0,
) -> None:
    d.ellipse(
        (cx + (x - rx) * s, cy + (y - ry) * s, cx + (x + rx) * s, cy + (y + ry) * s),
        fill=fill,
        outline=outline,
        width=round(width),
    )


def draw_animal(d: ImageDraw.ImageDraw, name: str, cx: float, cy: float, s: float) -> None:
    """The animal's picture inside a circle of radius ``s`` centred at (cx, cy)."""
    lw = max(1.0, s * 0.07)
    o = INK
    if name == "boar":
        body = (0x7A, 0x5A, 0x4A)
        for sx in (-1, 1):
            _poly(d, cx, cy, s, [(sx * 0.68, -0.78), (sx * 0.18, -0.5), (sx * 0.62, -0.22)],
                  body, o, lw)  # fmt: skip
        _ell(d, cx, cy, s, 0, 0.02, 0.66, 0.6, body, o, lw)
        _poly(d, cx, cy, s, [(-0.12, -0.58), (0, -0.78), (0.12, -0.58)], body, o, lw)
        _ell(d, cx, cy, s, 0, 0.32, 0.36, 0.26, (0xE8, 0xA0, 0x96), o, lw)
        for sx in (-1, 1):
            _ell(d, cx, cy, s, sx * 0.13, 0.32, 0.06, 0.09, o)
            _poly(d, cx, cy, s, [(sx * 0.3, 0.42), (sx * 0.46, 0.46), (sx * 0.52, 0.02)],
                  (0xFF, 0xFA, 0xEE), o, lw * 0.7)  # fmt: skip
            _ell(d, cx, cy, s, sx * 0.27, -0.14, 0.07, 0.08, o)
    elif name == "hedgehog":
        spikes = []
        for k in range(15):
            t = math.pi + math.pi * k / 14
            r = 1.0 if k % 2 == 0 else 0.78
            spikes.append((-0.15 + math.cos(t) * 0.78 * r, 0.3 + math.sin(t) * 0.78 * r))
        spikes += [(0.5, 0.45), (-0.85, 0.45)]
        _poly(d, cx, cy, s, spikes, (0x5E, 0x46, 0x32), o, lw)
        _ell(d, cx, cy, s, -0.15, 0.25, 0.5, 0.3, (0x8E, 0x6C, 0x4E))
        _poly(d, cx, cy, s, [(0.25, -0.12), (0.95, 0.3), (0.3, 0.5)], (0xE6, 0xC8, 0x9C), o, lw)
        _ell(d, cx, cy, s, 0.92, 0.3, 0.09, 0.09, o)
        _ell(d, cx, cy, s, 0.5, 0.14, 0.07, 0.07, o)
        for x in (-0.45, 0.05):
            _ell(d, cx, cy, s, x, 0.55, 0.1, 0.08, o)
    elif name == "squirrel":
        fur = (0xC0, 0x56, 0x22)
        _ell(d, cx, cy, s, 0.38, -0.12, 0.42, 0.72, fur, o, lw)  # the tail
        _ell(d, cx, cy, s, 0.3, -0.1, 0.2, 0.42, P.mix(fur, (255, 255, 255), 0.25))
        _ell(d, cx, cy, s, -0.12, 0.34, 0.36, 0.44, fur, o, lw)  # body
        _ell(d, cx, cy, s, -0.2, 0.42, 0.18, 0.3, (0xF2, 0xDC, 0xB8))  # belly
        _poly(d, cx, cy, s, [(-0.42, -0.5), (-0.34, -0.92), (-0.16, -0.5)], fur, o, lw)
        _ell(d, cx, cy, s, -0.32, -0.3, 0.3, 0.27, fur, o, lw)  # head
        _ell(d, cx, cy, s, -0.38, -0.34, 0.06, 0.07, o)
        _ell(d, cx, cy, s, -0.6, -0.24, 0.05, 0.05, o)
    elif name == "fox":
        orange = (0xEE, 0x78, 0x1E)
        for sx in (-1, 1):
            _poly(d, cx, cy, s, [(sx * 0.8, -0.9), (sx * 0.18, -0.45), (sx * 0.72, -0.1)],
                  orange, o, lw)  # fmt: skip
            _poly(d, cx, cy, s, [(sx * 0.7, -0.72), (sx * 0.36, -0.45), (sx * 0.66, -0.24)], o)
        head = [(-0.86, -0.38), (0.86, -0.38), (0.5, 0.22), (0.0, 0.86), (-0.5, 0.22)]
        _poly(d, cx, cy, s, head, orange, o, lw)
        for sx in (-1, 1):
            _poly(d, cx, cy, s, [(sx * 0.78, -0.2), (sx * 0.08, 0.3), (0, 0.82), (sx * 0.45, 0.25)],
                  (0xFF, 0xF8, 0xEE))  # fmt: skip
            _poly(d, cx, cy, s, [(sx * 0.42, -0.14), (sx * 0.18, -0.06), (sx * 0.36, 0.0)], o)
        _ell(d, cx, cy, s, 0, 0.74, 0.11, 0.09, o)
    elif name == "owl":
        body = (0x9A, 0x74, 0x50)
        for sx in (-1, 1):
            _poly(d, cx, cy, s, [(sx * 0.62, -0.95), (sx * 0.2, -0.6), (sx * 0.62, -0.5)],
                  body, o, lw)  # fmt: skip
        _ell(d, cx, cy, s, 0, 0.08, 0.64, 0.84, body, o, lw)
        _ell(d, cx, cy, s, 0, 0.5, 0.36, 0.36, (0xD8, 0xC0, 0x98))
        for sx in (-1, 1):
            _ell(d, cx, cy, s, sx * 0.3, -0.2, 0.3, 0.3, (0xFF, 0xFA, 0xEE), o, lw)
            _ell(d, cx, cy, s, sx * 0.3, -0.2, 0.18, 0.18, (0xF5, 0xB8, 0x1C))
            _ell(d, cx, cy, s, sx * 0.3, -0.2, 0.09, 0.09, o)
        _poly(d, cx, cy, s, [(-0.1, 0.02), (0.1, 0.02), (0, 0.26)], (0xE8, 0x90, 0x20), o, lw * 0.6)
    elif name == "badger":
        grey = (0x8A, 0x8A, 0x8A)
        for sx in (-1, 1):
            _ell(d, cx, cy, s, sx * 0.5, -0.55, 0.17, 0.17, o)
        _ell(d, cx, cy, s, 0, 0.02, 0.64, 0.8, grey, o, lw)
        _poly(d, cx, cy, s, [(-0.3, -0.76), (0.3, -0.76), (0.2, 0.3), (0, 0.82), (-0.2, 0.3)],
              (0xFA, 0xFA, 0xF6))  # fmt: skip
        for sx in (-1, 1):
            _poly(d, cx, cy, s, [(sx * 0.16, -0.78), (sx * 0.42, -0.7), (sx * 0.3, 0.42),
                                 (sx * 0.1, 0.52)], o)  # fmt: skip
            _ell(d, cx, cy, s, sx * 0.26, -0.1, 0.06, 0.06, (0xFF, 0xFF, 0xFF))
        _ell(d, cx, cy, s, 0, 0.72, 0.12, 0.09, o)
    elif name == "beaver":
        brown = (0x93, 0x5E, 0x30)
        for sx in (-1, 1):
            _ell(d, cx, cy, s, sx * 0.5, -0.56, 0.16, 0.16, brown, o, lw)
        _ell(d, cx, cy, s, 0, 0.0, 0.66, 0.64, brown, o, lw)
        _ell(d, cx, cy, s, 0, 0.26, 0.38, 0.26, (0xD0, 0xA0, 0x70))
        _ell(d, cx, cy, s, 0, 0.1, 0.14, 0.09, o)
        _poly(d, cx, cy, s, [(-0.18, 0.28), (0.18, 0.28), (0.18, 0.72), (-0.18, 0.72)],
              (0xFF, 0xFA, 0xEA), o, lw * 0.8)  # fmt: skip
        d.line((cx, cy + 0.3 * s, cx, cy + 0.7 * s), fill=o, width=max(1, round(lw * 0.7)))
        for sx in (-1, 1):
            _ell(d, cx, cy, s, sx * 0.3, -0.16, 0.07, 0.08, o)
    elif name == "turtle":
        skin = (0x86, 0xB4, 0x5A)
        _ell(d, cx, cy, s, 0, -0.7, 0.2, 0.2, skin, o, lw)
        for sx in (-1, 1):
            for sy in (-1, 1):
                _ell(d, cx, cy, s, sx * 0.55, sy * 0.42 + 0.06, 0.18, 0.14, skin, o, lw)
        _ell(d, cx, cy, s, 0, 0.1, 0.24, 0.2, skin, o, lw)  # tail
        shell(d, cx, cy + 0.06 * s, s * 0.62, (0x3C, 0x7A, 0x46), (0x6C, 0xA8, 0x6A), lw)
    else:  # an unknown animal: its initial
        from .fonts import font

        d.text((cx, cy), name[:1].upper(), font=font(s * 1.2, bold=True), fill=o, anchor="mm")


def shell(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    dark: P.Colour,
    light: P.Colour,
    lw: float,
    plates: bool = True,
) -> None:
    """A turtle shell seen from above: an oval with a central plate (and plates around it)."""
    d.ellipse((cx - r, cy - r * 1.1, cx + r, cy + r * 1.1), fill=dark, outline=INK, width=round(lw))
    inner = [
        (cx + r * 0.42 * math.cos(math.radians(a)), cy + r * 0.46 * math.sin(math.radians(a)))
        for a in range(-90, 270, 60)
    ]
    d.polygon(inner, fill=light, outline=INK, width=max(1, round(lw * 0.6)))
    for (x, y), a in zip(inner, range(-90, 270, 60) if plates else (), strict=False):
        ex = cx + r * 0.95 * math.cos(math.radians(a))
        ey = cy + r * 1.05 * math.sin(math.radians(a))
        d.line((x, y, ex, ey), fill=INK, width=max(1, round(lw * 0.6)))


@lru_cache(maxsize=64)
def animal_badge(
    animal: str, seat: int, radius: float, lit: bool = False
) -> tuple[Image.Image, tuple[int, int]]:
    """An animal on the board: its picture on a round token ringed in its seat's colour; a lit
    animal has a silver glow and a small crescent."""
    pad = radius * (0.62 if lit else 0.15)
    w = h = math.ceil((radius + pad) * 2)
    c = w * SS / 2
    R = radius * SS
    size = (w * SS, h * SS)
    if lit:
        gr = R * 1.25
        big = _glow(
            size,
            lambda d, col: d.ellipse((c - gr, c - gr, c + gr, c + gr), fill=col),
            MOON_LIGHT,
            240,
            R * 0.11,
        )
    else:
        big = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    line = max(1.0, R * 0.07)
    d.ellipse((c - R, c - R, c + R, c + R), fill=INK)
    ring = R - line
    d.ellipse((c - ring, c - ring, c + ring, c + ring), fill=P.seat_colour(seat))
    inner = R * 0.8
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=BADGE_BG)
    draw_animal(d, animal, c, c, inner * 0.9)
    if lit:  # a crescent at the top right
        mx, my, mr = c + R * 0.78, c - R * 0.78, R * 0.38
        d.ellipse((mx - mr - line, my - mr - line, mx + mr + line, my + mr + line), fill=INK)
        d.ellipse((mx - mr, my - mr, mx + mr, my + mr), fill=MOON_BODY)
        cut = mr * 0.8
        d.ellipse((mx - cut + mr * 0.45, my - cut - mr * 0.3, mx + cut + mr * 0.45,
                   my + cut - mr * 0.3), fill=MOON_DARK)  # fmt: skip
    return _down(big, (w, h)), (w // 2, h // 2)


@lru_cache(maxsize=64)
def animal_icon(animal: str, radius: float, seat: int | None = None) -> Image.Image:
    """A small round animal icon for the panels (ringed in the seat's colour when given)."""
    if seat is not None:
        return animal_badge(animal, seat, radius)[0]
    w = h = math.ceil(radius * 2 + 2)
    c = w * SS / 2
    R = radius * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((c - R, c - R, c + R, c + R), fill=BADGE_BG, outline=INK, width=round(R * 0.08))
    draw_animal(d, animal, c, c, R * 0.8)
    return _down(big, (w, h))


# -- obstacles and tokens --------------------------------------------------------------------

#: Where the Great Elder Tree's trunk stands below the centre of its space (units of hex radius).
ELDER_FOOT = 0.66
ELDER_CROWN = (
    (-0.36, -0.55, 0.27),
    (0.36, -0.55, 0.27),
    (-0.5, -0.85, 0.27),
    (0.5, -0.85, 0.27),
    (-0.24, -1.1, 0.3),
    (0.24, -1.1, 0.3),
    (0.0, -0.8, 0.34),
)


@lru_cache(maxsize=8)
def elder(hex_r: float) -> tuple[Image.Image, tuple[int, int]]:
    """The Great Elder Tree: broader and taller than a large tree, a gnarled silver-grey trunk
    and a deep teal crown, in no seat's colour. The anchor is the foot of its trunk."""
    w = math.ceil(hex_r * 1.75)
    h = math.ceil(hex_r * 1.72)
    ax, ay = w // 2, h - math.ceil(hex_r * 0.14)
    R = hex_r * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fx, fy = ax * SS, ay * SS
    line = max(1.0, R * 0.035)
    bark = (0x8C, 0x80, 0x70)
    d.ellipse((fx - R * 0.55, fy - R * 0.08, fx + R * 0.55, fy + R * 0.08), fill=(0, 0, 0, 100))
    trunk = [
        (-0.34, 0.02), (-0.16, -0.12), (-0.13, -0.5), (0.13, -0.5), (0.16, -0.12), (0.34, 0.02),
        (0.12, -0.02), (0.0, 0.03), (-0.12, -0.02),
    ]  # fmt: skip
    pts = [(fx + x * R, fy + y * R) for x, y in trunk]
    d.polygon(pts, fill=bark, outline=P.OUTLINE, width=round(line * 1.4))
    d.line([(fx - R * 0.03, fy - R * 0.05), (fx - R * 0.05, fy - R * 0.4)],
           fill=P.mix(bark, (0, 0, 0), 0.35), width=round(line * 1.2))  # fmt: skip
    dark, body, light = (0x1E, 0x4A, 0x44), (0x2E, 0x6E, 0x62), (0x8E, 0xC8, 0xB4)
    for dx, dy, r in ELDER_CROWN:
        x, y, rr = fx + dx * R, fy + dy * R, r * R + line * 1.8
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=P.OUTLINE)
    for dx, dy, r in ELDER_CROWN:
        x, y, rr = fx + dx * R, fy + dy * R, r * R
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=dark)
    for dx, dy, r in ELDER_CROWN:
        x, y, rr = fx + dx * R - r * R * 0.1, fy + dy * R - r * R * 0.12, r * R * 0.84
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=body)
    for dx, dy, r in ELDER_CROWN[4:6]:  # moonlit highlights
        x, y, rr = fx + dx * R - r * R * 0.3, fy + dy * R - r * R * 0.35, r * R * 0.32
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=light)
    # A few silver leaves: the tree is ancient.
    for dx, dy in ((-0.45, -0.62), (0.42, -0.9), (0.05, -0.62), (-0.3, -0.95), (0.55, -0.58)):
        x, y, rr = fx + dx * R, fy + dy * R, R * 0.045
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=(0xD8, 0xEC, 0xE4))
    return _down(big, (w, h)), (ax, ay)


@lru_cache(maxsize=16)
def stone(hex_r: float, shining: bool) -> tuple[Image.Image, tuple[int, int]]:
    """A moonstone: a grey faceted stone; a shining one glows silver-blue and sparkles."""
    w = h = math.ceil(hex_r * 1.5)
    c = w * SS / 2
    R = hex_r * SS
    size = (w * SS, h * SS)
    cy = c + R * 0.05
    outline = [
        (-0.34, 0.14), (-0.26, -0.14), (-0.08, -0.3), (0.16, -0.28), (0.33, -0.08), (0.36, 0.14),
        (0.18, 0.26), (-0.16, 0.27),
    ]  # fmt: skip
    if shining:
        big = _glow(
            size,
            lambda d, col: d.ellipse(
                (c - R * 0.5, cy - R * 0.44, c + R * 0.5, cy + R * 0.44), fill=col
            ),  # fmt: skip
            MOON_LIGHT,
            230,
            R * 0.07,
        )
    else:
        big = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    line = max(1.0, R * 0.03)
    d.ellipse((c - R * 0.36, cy + R * 0.18, c + R * 0.38, cy + R * 0.32), fill=(0, 0, 0, 90))
    base = (0xA6, 0xB0, 0xBE) if shining else (0x92, 0x96, 0x9C)
    pts = [(c + x * R, cy + y * R) for x, y in outline]
    d.polygon(pts, fill=P.mix(base, (0, 0, 0), 0.3), outline=P.OUTLINE, width=round(line * 1.5))
    top = [(-0.26, -0.14), (-0.08, -0.3), (0.16, -0.28), (0.33, -0.08), (0.1, 0.0), (-0.12, 0.02)]
    d.polygon([(c + x * R, cy + y * R) for x, y in top], fill=base)
    hi = [(-0.18, -0.12), (-0.06, -0.24), (0.08, -0.22), (-0.04, -0.1)]
    d.polygon([(c + x * R, cy + y * R) for x, y in hi], fill=P.mix(base, (255, 255, 255), 0.55))
    if shining:  # a four-pointed sparkle
        sx, sy, a, b = c + R * 0.3, cy - R * 0.3, R * 0.16, R * 0.04
        d.polygon([(sx, sy - a), (sx + b, sy - b), (sx + a, sy), (sx + b, sy + b), (sx, sy + a),
                   (sx - b, sy + b), (sx - a, sy), (sx - b, sy - b)], fill=(255, 255, 255))  # fmt: skip
    return _down(big, (w, h)), (w // 2, h // 2)


SHELL_DARK: P.RGB = (0x6E, 0x62, 0x36)
SHELL_LIGHT: P.RGB = (0xB8, 0xA4, 0x5C)


@lru_cache(maxsize=16)
def face_down_token(hex_r: float) -> tuple[Image.Image, tuple[int, int]]:
    """A face-down Baby Turtle token: a plain round token with a turtle shell. Every face-down
    token looks the same (which token it is stays hidden)."""
    w = h = math.ceil(hex_r * 0.7)
    c = w * SS / 2
    R = hex_r * SS * 0.3
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    line = max(1.0, R * 0.1)
    d.ellipse((c - R, c - R, c + R, c + R), fill=(0xE8, 0xD6, 0xA8), outline=INK, width=round(line))
    shell(d, c, c, R * 0.66, SHELL_DARK, SHELL_LIGHT, line * 0.8, plates=False)
    return _down(big, (w, h)), (w // 2, h // 2)


@lru_cache(maxsize=16)
def baby_icon(radius: float) -> Image.Image:
    """A small face-up Baby Turtle for the panel chips."""
    w = h = math.ceil(radius * 2 + 2)
    c = w * SS / 2
    R = radius * SS
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    draw_animal(d, "turtle", c, c, R)
    return _down(big, (w, h))
