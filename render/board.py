"""The board: the static picture (drawn once per size) and the base game's layers on it: shadows,
outlined spaces, pieces and the sun. The expansion's layers are added by the composer
(``draw.render_image``) from ``moonlight``; this module never reaches into it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.geometry import LABEL_INDEX, LEAVES, N_CELLS
from translation import _

from . import palette as P
from . import sprites, stamps, text
from .layout import SUN_DIRS, Layout, hex_points
from .model import View, words

SS = 2  # supersampling of the static board

_lock = threading.Lock()
#: Cached static pictures with the text sizes drawn into them.
_bases: dict[tuple[object, ...], tuple[Image.Image, tuple[int, ...]]] = {}


def base(
    lay: Layout,
    extra: Callable[[Image.Image, Layout, str | None], None] | None = None,
    lang: str | None = None,
) -> Image.Image:
    """The static picture (background, board, soil, labels, and what ``extra`` adds: the strip's
    frames) for a layout and a language, drawn once and cached; callers must ``copy()`` it
    before drawing. The text sizes it holds are noted (``text.note``) on every call."""
    key = (lay, extra, lang or "en")
    with _lock:
        entry = _bases.get(key)
        if entry is None:
            with text.recording() as sizes:
                im = _draw_base(lay, lang)
                if extra is not None:
                    extra(im, lay, lang)
            im.readonly = 1  # best effort: a reminder that the cached picture is shared
            entry = _bases[key] = (im, tuple(sizes))
    for size in entry[1]:
        text.note(size)
    return entry[0]


def _draw_base(lay: Layout, lang: str | None = None) -> Image.Image:
    W, H = lay.width, lay.height
    big = Image.new("RGB", (W * SS, H * SS), P.BACKGROUND)
    d = ImageDraw.Draw(big)
    cx, cy = lay.board_centre[0] * SS, lay.board_centre[1] * SS
    R = lay.hex_r * SS

    # The board: a wooden rim, a dark green field, then the spaces.
    def big_hex(v: float) -> list[tuple[float, float]]:
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
        d.polygon(hex_points(x * SS, y * SS, R * 0.955), fill=P.SOIL[LEAVES[i]])
    small = big.reduce(SS)
    # The six sun positions, dim (the one shining is drawn over at render time).
    for p in range(6):
        spr, a = sprites.sun(lay.sun_r, bright=False)
        stamps.paste_at(small, spr, a, *lay.suns[p])
    for i in range(N_CELLS):
        stamps.paste_label(small, lay, i)
        x, y = lay.centres[i]
        stamps.leaf_pips(small, x, y + lay.hex_r * 0.8, LEAVES[i], lay.hex_r, P.LEAF_PIP[LEAVES[i]])
    _draw_legend(small, lay, lang)
    return small


def _draw_legend(im: Image.Image, lay: Layout, lang: str | None = None) -> None:
    """The soil legend in the bottom-left corner: a space of each soil with its leaves."""
    d = ImageDraw.Draw(im)
    box = lay.legend_box
    size = lay.s(20)
    text.draw(d, (box.x, box.y), words(_("Soil: leaves"), lang), size, P.TEXT_DIM, bold=True)
    mask, (mx, my) = sprites.hex_mask(lay.hex_r * 0.42, inset=1.0)
    for j, leaves in enumerate((1, 2, 3, 4)):
        x = box.x + lay.s(20) + j * lay.s(42)
        y = box.y + lay.s(48)
        im.paste(P.SOIL[leaves], (round(x) - mx, round(y) - my), mask)
        ink = P.TEXT_DARK if leaves < 3 else P.TEXT
        text.draw(d, (x, y), str(leaves), size, ink, bold=True, anchor="mm")


def draw_shadows(im: Image.Image, lay: Layout, v: View) -> None:
    """The shadows of the sun shown, darker the taller the tree casting them; a shaded space's
    leaf pips drawn again over its shadow, so that its soil reads as on a lit space."""
    R = lay.hex_r
    _mask, (mx, my) = sprites.hex_mask(R)
    for i, h in enumerate(v.shadows):
        if h:
            x, y = lay.centres[i]
            im.paste(P.SHADOW, (round(x) - mx, round(y) - my), sprites.shadow_mask(R, min(h, 3)))
            stamps.leaf_pips(im, x, y + R * 0.8, LEAVES[i], R, P.LEAF_PIP[LEAVES[i]])


def draw_labels(im: Image.Image, lay: Layout) -> None:
    """Every space's label drawn again, last, over all the board's layers: no shadow, beam,
    tree, Great Elder Tree, animal or token covers one (at 360 px wide the crowns and the
    Elder hid "A4", "B5", "E2", "F5"), and a shaded space's label is white, not grey."""
    for i in range(N_CELLS):
        stamps.paste_label(im, lay, i)


def draw_highlights(im: Image.Image, lay: Layout, v: View) -> None:
    """An outline around every space the last actions touched."""
    ring, (rx, ry) = sprites.highlight_ring(lay.hex_r)
    for label in v.highlight:
        i = LABEL_INDEX.get(label)
        if i is not None:
            x, y = lay.centres[i]
            im.paste(ring, (round(x) - rx, round(y) - ry), ring)


def draw_marks(im: Image.Image, lay: Layout, v: View) -> None:
    """A gold ring around every space a lesson talks about (``View.marks``; its label is drawn
    again over the ring by ``draw_labels``: at 360-400 px wide the ring's edge crossed a label,
    "F2" did not read)."""
    ring, (rx, ry) = sprites.mark_ring(lay.hex_r)
    for label in v.marks:
        i = LABEL_INDEX[label]
        x, y = lay.centres[i]
        im.paste(ring, (round(x) - rx, round(y) - ry), ring)


def draw_pieces(im: Image.Image, lay: Layout, v: View) -> None:
    """Every piece, in reading order (lower spaces overlap upper ones)."""
    for label, (seat, size) in sorted(v.pieces.items(), key=lambda kv: LABEL_INDEX[kv[0]]):
        stamps.paste_piece(im, lay, LABEL_INDEX[label], seat, size)


def draw_sun(im: Image.Image, lay: Layout, v: View) -> None:
    """The sun whose shadows are shown, with the direction its shadows fall."""
    p = v.shadow_sun
    dx, dy = SUN_DIRS[p]
    spr, a = sprites.sun(lay.sun_r, bright=True, arrow=(-dx, -dy))
    stamps.paste_at(im, spr, a, *lay.suns[p])
