"""Every piece of text in the pictures is drawn here: with the font fallback of ``fonts`` and a
note of its pixel size, so that ``smallest_text`` can tell the smallest text a picture holds.

Cached drawings (the static board, label sprites) hold text too: whoever pastes one calls
``note`` with the sizes it was drawn with.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .fonts import EMOJI_PX, font, px, rtl_font, runs, shaped_text, strip_marks
from .palette import Colour

_notes = threading.local()


def note(size: float) -> None:
    """Record that text of ``size`` pixels is in the picture being drawn (when recording)."""
    seen = getattr(_notes, "sizes", None)
    if seen is not None:
        seen.append(px(size))


@contextmanager
def recording() -> Iterator[list[int]]:
    """Collect the pixel size of every text drawn in this thread inside the block."""
    outer = getattr(_notes, "sizes", None)
    sizes: list[int] = []
    _notes.sizes = sizes
    try:
        yield sizes
    finally:
        _notes.sizes = outer
        if outer is not None:
            outer.extend(sizes)


@contextmanager
def words_drawn() -> Iterator[list[str]]:
    """Collect every text ``draw`` draws in this thread inside the block (without direction
    marks; the cached static parts are not drawn again, so not collected)."""
    outer = getattr(_notes, "texts", None)
    texts: list[str] = []
    _notes.texts = texts
    try:
        yield texts
    finally:
        _notes.texts = outer
        if outer is not None:
            outer.extend(texts)


class MirroredDraw(ImageDraw.ImageDraw):
    """An ``ImageDraw`` that draws a left-to-right layout mirrored about the vertical line
    ``x = axis / 2`` (``axis``: the left plus the right edge of the part mirrored): what was
    laid out from the left starts at the right. Shapes are mirrored here; ``draw`` mirrors where
    a text goes (never its letters) and ``paste`` where a sprite goes. A right-to-left card is
    the left-to-right card's code drawn through one."""

    def __init__(self, im: Image.Image, axis: float) -> None:
        super().__init__(im)
        self.axis = axis
        self._inside = False  # in a shape that Pillow draws with other shapes: mirrored once

    def mirror_x(self, x: float) -> float:
        return self.axis - x

    def _box(self, xy: Any) -> Any:
        if self._inside:
            return xy
        x0, y0, x1, y1 = xy
        return (self.axis - x1, y0, self.axis - x0, y1)

    def rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        super().rectangle(self._box(xy), *args, **kwargs)

    def ellipse(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        super().ellipse(self._box(xy), *args, **kwargs)

    def rounded_rectangle(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        box = self._box(xy)
        self._inside = True
        try:
            super().rounded_rectangle(box, *args, **kwargs)
        finally:
            self._inside = False

    def line(self, xy: Any, *args: Any, **kwargs: Any) -> None:
        if len(xy) == 4 and not isinstance(xy[0], tuple | list):
            x0, y0, x1, y1 = xy
            xy = (self.axis - x0, y0, self.axis - x1, y1)
        else:
            xy = [(self.axis - x, y) for x, y in xy]
        super().line(xy, *args, **kwargs)


def mirrored(d: ImageDraw.ImageDraw, box: Any, on: bool) -> ImageDraw.ImageDraw:
    """``d``, or when ``on`` a ``MirroredDraw`` on the same picture mirroring ``box`` (a
    ``layout.Box``) left to right."""
    if not on:
        return d
    return MirroredDraw(d._image, box.x + box.right)


def paste(im: Image.Image, d: ImageDraw.ImageDraw, spr: Image.Image, xy: tuple[float, float]
          ) -> None:  # fmt: skip
    """Paste ``spr`` (with its own alpha) with its top-left corner at ``xy``, or where a
    ``MirroredDraw`` ``d`` mirrors it (its top-right corner at the mirrored point)."""
    x, y = xy
    if isinstance(d, MirroredDraw):
        x = d.mirror_x(x) - spr.width
    im.paste(spr, (round(x), round(y)), spr)


def width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` drawn by ``draw``."""
    shaped = rtl_font(text, size, bold)
    if shaped is not None:
        return shaped.getlength(shaped_text(text), direction="rtl")
    return sum(f.getlength(piece) * k for piece, f, k in runs(text, size, bold))


def fit(text: str, size: float, room: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis to fit ``room`` pixels."""
    if width(text, size, bold) <= room:
        return text
    while text and width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_size(
    text: str, size: float, smallest: float, room: float, bold: bool = False
) -> tuple[str, float]:
    """``text`` and the largest size from ``size`` down to ``smallest`` (in steps of a tenth
    of ``size``) it fits ``room`` at; shortened with an ellipsis at ``smallest`` if it never
    fits."""
    step = size / 10
    while size - step >= smallest - 1e-9 and width(text, size, bold) > room:
        size -= step
    size = max(size, smallest)
    return fit(text, size, room, bold), size


@lru_cache(maxsize=256)
def _emoji_image(piece: str, size_px: int) -> tuple[Image.Image, int]:
    """``piece`` (emoji) in colour at ``size_px`` pixels to the em, and the height of its
    baseline from the top: drawn at the emoji font's one size and scaled down (a bitmap font
    draws at no other), so an emoji is as tall as the letters of its text."""
    f = runs(piece, size_px)[0][1]  # the emoji face, at EMOJI_PX, for the calling thread
    ascent, descent = f.getmetrics()
    big = Image.new("RGBA", (max(1, math.ceil(f.getlength(piece))), ascent + descent))
    ImageDraw.Draw(big).text((0, ascent), piece, font=f, anchor="ls", embedded_color=True)
    k = size_px / EMOJI_PX
    small = big.resize(
        (max(1, round(big.width * k)), max(1, round(big.height * k))), Image.Resampling.LANCZOS
    )
    return small, round(ascent * k)


def _draw_emoji(d: ImageDraw.ImageDraw, xy: tuple[float, float], piece: str,
                f: ImageFont.FreeTypeFont, k: float) -> None:  # fmt: skip
    """Paste the emoji ``piece`` with its baseline's left end at ``xy`` (in the picture's own
    coordinates: a ``MirroredDraw`` has already placed the text)."""
    del f  # the emoji are drawn by `_emoji_image`, cached across calls
    img, base = _emoji_image(piece, round(k * EMOJI_PX))
    target = d._image
    sprite = img if target.mode == "RGBA" else img.convert(target.mode)
    target.paste(sprite, (round(xy[0]), round(xy[1] - base)), img)


def draw(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: float,
    fill: Colour,
    *,
    bold: bool = False,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: Colour | None = None,
) -> float:
    """Draw ``text`` at ``xy`` (Pillow's ``anchor``: l/m/r then a/m/s/d) and return its width.

    Text in DejaVu Sans alone is one Pillow call; other scripts are drawn run by run on the
    main face's baseline. A right-to-left paragraph (a Hebrew label: its first strong character
    is Hebrew or a right-to-left mark) is laid out by libraqm, right to left.
    """
    if not text:
        return 0.0
    if isinstance(d, MirroredDraw):  # where the text goes mirrored, its letters not
        xy = (d.mirror_x(xy[0]), xy[1])
        anchor = {"l": "r", "r": "l"}.get(anchor[0], anchor[0]) + anchor[1:]
    note(size)
    seen = getattr(_notes, "texts", None)
    if seen is not None:
        seen.append(strip_marks(text))
    # Pillow keywords, given only for a stroked text.
    extra: dict[str, Any] = {"stroke_width": stroke, "stroke_fill": stroke_fill} if stroke else {}
    shaped = rtl_font(text, size, bold)
    if shaped is not None:
        plain = shaped_text(text)
        d.text(xy, plain, font=shaped, fill=fill, anchor=anchor, direction="rtl", **extra)
        return shaped.getlength(plain, direction="rtl")
    pieces = runs(text, size, bold)
    if not pieces:
        return 0.0
    x, y = xy
    main = font(size, bold)
    if len(pieces) == 1 and pieces[0][1] is main:
        d.text((x, y), pieces[0][0], font=main, fill=fill, anchor=anchor, **extra)
        return main.getlength(pieces[0][0])
    total = sum(f.getlength(p) * k for p, f, k in pieces)
    h, v = anchor[0], anchor[1]
    x -= {"l": 0.0, "m": total / 2, "r": total}[h]
    ascent, descent = main.getmetrics()
    base = y + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[v]
    for piece, f, k in pieces:
        if k != 1.0:
            _draw_emoji(d, (x, base), piece, f, k)
        else:
            d.text((x, base), piece, font=f, fill=fill, anchor="ls", **extra)
        x += f.getlength(piece) * k
    return total
