"""Every piece of text in the pictures is drawn here: with the font fallback of ``fonts`` and a
note of its pixel size, so that ``smallest_text`` can tell the smallest text a picture holds.

Cached drawings (the static board, label sprites) hold text too: whoever pastes one calls
``note`` with the sizes it was drawn with.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from PIL import ImageDraw

from .fonts import font, px, rtl_font, runs, strip_marks
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


def width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` drawn by ``draw``."""
    shaped = rtl_font(text, size, bold)
    if shaped is not None:
        return shaped.getlength(strip_marks(text), direction="rtl")
    return sum(f.getlength(piece) for piece, f in runs(text, size, bold))


def fit(text: str, size: float, room: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis to fit ``room`` pixels."""
    if width(text, size, bold) <= room:
        return text
    while text and width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


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
    note(size)
    # Pillow keywords, given only for a stroked text.
    extra: dict[str, Any] = {"stroke_width": stroke, "stroke_fill": stroke_fill} if stroke else {}
    shaped = rtl_font(text, size, bold)
    if shaped is not None:
        plain = strip_marks(text)
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
    total = sum(f.getlength(p) for p, f in pieces)
    h, v = anchor[0], anchor[1]
    x -= {"l": 0.0, "m": total / 2, "r": total}[h]
    ascent, descent = main.getmetrics()
    base = y + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[v]
    for piece, f in pieces:
        d.text((x, base), piece, font=f, fill=fill, anchor="ls", **extra)
        x += f.getlength(piece)
    return total
