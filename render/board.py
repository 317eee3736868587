"""The board: the static picture (drawn once per size) and the pieces, shadows and sun on it."""

from __future__ import annotations

import math
import threading

from PIL import Image, ImageDraw

from engine.geometry import LABEL_INDEX, LABELS, LEAVES, N_CELLS

from . import palette as P
from . import sprites
from .fonts import font
from .layout import BOARD_CX, BOARD_CY, SUN_DIRS, Layout, hex_points, layout
from .model import View

SS = 2  # supersampling of the static board

_lock = threading.Lock()
_bases: dict[tuple[int, int, bool], Image.Image] = {}


def base(width: int, n_seats: int, moon: bool = False) -> Image.Image:
    """The static picture (background, board, soil, labels, panel frames) for a size.

    ``moon``: the expansion's layout (taller seat panels).
    Drawn once per ``(width, n_seats, moon)`` and cached; callers must ``copy()`` it before
    drawing.
    """
    key = (width, n_seats, moon)
    with _lock:
        im = _bases.get(key)
        if im is None:
            from .panel import draw_static_panels  # late import: panel draws on the board base

            lay = layout(width, n_seats, moon)
            im = _draw_base(lay)
            draw_static_panels(im, lay)
            im.readonly = 1  # best effort: a reminder that the cached picture is shared
            _bases[key] = im
        return im


def _draw_base(lay: Layout) -> Image.Image:
    W, H = lay.width, lay.height
    k = lay.scale * SS
    big = Image.new("RGB", (W * SS, H * SS), P.BACKGROUND)
    d = ImageDraw.Draw(big)
    cx, cy = BOARD_CX * k, BOARD_CY * k
    R = lay.hex_r * SS

    # The board: a wooden rim, a dark green field, then the spaces.
    def big_hex(v: float):
        return [
            (cx + v * math.cos(math.radians(a)), cy + v * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]

    d.polygon(big_hex(R * 6.95), fill=P.mix(P.BOARD_RIM, (0, 0, 0), 0.35))
    d.polygon(big_hex(R * 6.85), fill=P.BOARD_RIM)
    d.polygon(big_hex(R * 6.62), fill=P.mix(P.BOARD_RIM, (255, 255, 255), 0.12))
    d.polygon(big_hex(R * 6.55), fill=P.BOARD_GUTTER)
    for i in range(N_CELLS):
        x, y = lay.centres[i]
        soil = P.SOIL[LEAVES[i]]
        d.polygon(hex_points(x * SS, y * SS, R * 0.955), fill=soil)
    # The six sun positions, dim (the current one is drawn over at render time).
    small = (
        big.reduce(SS) if big.size == (W * SS, H * SS) else big.resize((W, H), Image.Resampling.BOX)
    )
    for p in range(6):
        spr, (ax, ay) = sprites.sun(lay.sun_r, bright=False)
        sx, sy = lay.suns[p]
        small.paste(spr, (round(sx) - ax, round(sy) - ay), spr)
    _draw_labels(small, lay)
    _draw_legend(small, lay)
    return small


def _draw_labels(im: Image.Image, lay: Layout) -> None:
    for i in range(N_CELLS):
        paste_label(im, lay, i)
        x, y = lay.centres[i]
        _leaf_pips(im, x, y + lay.hex_r * 0.8, LEAVES[i], lay.hex_r, P.LEAF_PIP[LEAVES[i]])


def paste_label(im: Image.Image, lay: Layout, i: int) -> None:
    """The label of space ``i`` near the top of the space."""
    spr = sprites.label(LABELS[i], lay.s(19), max(1, round(lay.s(2.2))))
    x, y = lay.centres[i]
    y -= lay.hex_r * 0.68
    im.paste(spr, (round(x - spr.width / 2), round(y - spr.height / 2)), spr)


def _leaf_pips(im: Image.Image, x: float, y: float, n: int, R: float, colour) -> None:
    """``n`` small leaves in a row centred at (x, y)."""
    spr = sprites.leaf(R * 0.2, colour)
    step = R * 0.17
    for j in range(n):
        px = x + (j - (n - 1) / 2) * step
        im.paste(spr, (round(px - spr.width / 2), round(y - spr.height / 2)), spr)


def _draw_legend(im: Image.Image, lay: Layout) -> None:
    """The soil legend in the bottom-left corner."""
    d = ImageDraw.Draw(im)
    box = lay.legend_box
    f = font(lay.s(17))
    fb = font(lay.s(17), bold=True)
    d.text((box.x, box.y), "Soil", font=fb, fill=P.TEXT_DIM)
    mask, (mx, my) = sprites.hex_mask(lay.hex_r * 0.36, inset=1.0)
    for j, leaves in enumerate((4, 3, 2, 1)):
        y = box.y + lay.s(44) + j * lay.s(40)
        x = box.x + lay.s(16)
        im.paste(P.SOIL[leaves], (round(x) - mx, round(y) - my), mask)
        _leaf_pips(im, x + lay.s(40), y, leaves, lay.hex_r * 0.95, P.SOIL[leaves])
        d.text(
            (x + lay.s(92), y),
            f"{leaves} leaf" if leaves == 1 else f"{leaves} leaves",
            font=f,
            fill=P.TEXT,
            anchor="lm",
        )


def paste_piece(im: Image.Image, lay: Layout, i: int, seat: int, size: int) -> None:
    """A seat's piece on space ``i`` (the label is drawn again over a tall crown)."""
    R = lay.hex_r
    x, y = lay.centres[i]
    spr, (ax, ay) = sprites.tree(seat, size, R)
    foot = y + R * (sprites.SEED_Y if size == 0 else sprites.TREE_FOOT)
    im.paste(spr, (round(x) - ax, round(foot) - ay), spr)
    if size >= 2:  # a tall crown may reach the label: keep the label on top
        paste_label(im, lay, i)


def draw_board(im: Image.Image, lay: Layout, v: View) -> None:
    """Shadows, highlighted spaces, pieces and the sun, on a copy of the base (with the
    expansion: its terrain, moonlight, the Dam, animals, obstacles and tokens)."""
    from . import moonlight  # late import: moonlight pastes pieces with this module

    R = lay.hex_r
    if v.moon is not None:
        moonlight.draw_ground(im, lay, v)
    _, (mx, my) = sprites.hex_mask(R)
    for i, h in enumerate(v.shadows):
        if h:
            x, y = lay.centres[i]
            im.paste(P.SHADOW, (round(x) - mx, round(y) - my), sprites.shadow_mask(R, min(h, 3)))
    if v.moon is not None:
        moonlight.draw_moonlight(im, lay, v)
    ring, (rx, ry) = sprites.highlight_ring(R)
    for label in v.highlight:
        i = LABEL_INDEX.get(label)
        if i is not None:
            x, y = lay.centres[i]
            im.paste(ring, (round(x) - rx, round(y) - ry), ring)
    if v.moon is None:
        for label, (seat, size) in sorted(v.pieces.items(), key=lambda kv: LABEL_INDEX[kv[0]]):
            paste_piece(im, lay, LABEL_INDEX[label], seat, size)
    else:
        moonlight.draw_board_objects(im, lay, v)
    # The sun whose shadows are shown, with the direction its shadows fall.
    p = v.shadow_sun
    dx, dy = SUN_DIRS[p]
    spr, (ax, ay) = sprites.sun(lay.sun_r, bright=True, arrow=(-dx, -dy))
    sx, sy = lay.suns[p]
    im.paste(spr, (round(sx) - ax, round(sy) - ay), spr)
    if v.moon is not None:
        moonlight.draw_moon(im, lay, v)
