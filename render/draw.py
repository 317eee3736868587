"""Drawing a whole picture: copy the cached base, draw the state on it, encode it."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from . import board, panel
from .layout import DEFAULT_WIDTH, layout
from .model import view

#: zlib level for the PNG: 6 keeps the picture small while encoding stays quick.
PNG_COMPRESS_LEVEL = 6


def render_image(
    state,
    *,
    highlight: Sequence[str] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The picture of ``state`` as an RGB image (see ``board_png`` for the arguments)."""
    v = view(
        state, highlight=highlight, preview_sun=preview_sun, viewer_seat=viewer_seat, names=names
    )
    n = len(v.seats)
    rows = v.moon is not None and v.moon.rows
    lay = layout(width, n, rows)
    im = board.base(width, n, rows).copy()
    board.draw_board(im, lay, v)
    panel.draw_panels(im, lay, v)
    return im


def encode_png(im: Image.Image) -> bytes:
    """PNG bytes of a finished picture."""
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buf.getvalue()


def board_png(
    state,
    *,
    highlight: Sequence[str] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int = DEFAULT_WIDTH,
) -> bytes:
    """Draw a game state as PNG bytes.

    ``highlight``: labels of spaces to outline (the last actions). ``preview_sun``: draw the
    shadows of that sun position (0..5) instead of the current one. ``viewer_seat``: the seat of
    the person looking, marked "YOU". ``names``: display names per seat (default "Seat N" and
    "Cynthia"). ``width``: picture width in pixels (the layout scales with it).
    """
    im = render_image(
        state,
        highlight=highlight,
        preview_sun=preview_sun,
        viewer_seat=viewer_seat,
        names=names,
        width=width,
    )
    return encode_png(im)
