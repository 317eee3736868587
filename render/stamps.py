"""Drawing stamps shared by the board and the expansion's layers: a sprite at a point, a space's
label, a seat's piece on a space, leaf pips. A leaf module: it imports no other drawing module.
"""

from __future__ import annotations

from PIL import Image

from engine.geometry import LABELS

from . import sprites, text
from .layout import Layout
from .palette import Colour

#: Size of the space labels (design units).
LABEL_SIZE = 21


def paste_at(
    im: Image.Image, spr: Image.Image, anchor: tuple[int, int], x: float, y: float
) -> None:
    """Paste ``spr`` so that its pixel ``anchor`` lands on (x, y)."""
    im.paste(spr, (round(x) - anchor[0], round(y) - anchor[1]), spr)


def label_at(lay: Layout, i: int) -> tuple[Image.Image, tuple[int, int]]:
    """The label sprite of space ``i`` and where its top-left corner goes: near the top of
    the space."""
    spr = sprites.label(LABELS[i], lay.s(LABEL_SIZE), max(1, round(lay.s(2.4))))
    x, y = lay.centres[i]
    y -= lay.hex_r * 0.66
    return spr, (round(x - spr.width / 2), round(y - spr.height / 2))


def paste_label(im: Image.Image, lay: Layout, i: int) -> None:
    """The label of space ``i`` near the top of the space."""
    text.note(lay.s(LABEL_SIZE))
    spr, xy = label_at(lay, i)
    im.paste(spr, xy, spr)


def leaf_pips(im: Image.Image, x: float, y: float, n: int, R: float, colour: Colour) -> None:
    """``n`` small leaves in a row centred at (x, y)."""
    spr = sprites.leaf(R * 0.2, colour)
    step = R * 0.17
    for j in range(n):
        px = x + (j - (n - 1) / 2) * step
        im.paste(spr, (round(px - spr.width / 2), round(y - spr.height / 2)), spr)


def paste_piece(im: Image.Image, lay: Layout, i: int, seat: int, size: int) -> None:
    """A seat's piece on space ``i`` (``board.draw_labels`` draws the labels again over the
    crowns)."""
    R = lay.hex_r
    x, y = lay.centres[i]
    spr, (ax, ay) = sprites.tree(seat, size, R)
    foot = y + R * (sprites.SEED_Y if size == 0 else sprites.TREE_FOOT)
    im.paste(spr, (round(x) - ax, round(foot) - ay), spr)
