"""The fonts shipped in ``data/fonts`` (DejaVu Sans), never system fonts.

FreeType faces are not safe to share between threads, so each thread keeps its own loaded
fonts; loading is cheap and happens once per thread and size.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

_local = threading.local()


def font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or regular) at ``size`` pixels, cached for the calling thread."""
    cache = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (max(6, round(size)), bold)
    f = cache.get(key)
    if f is None:
        # The basic layout engine gives the same pixels whether or not libraqm is installed.
        f = ImageFont.truetype(
            str(BOLD if bold else REGULAR), key[0], layout_engine=ImageFont.Layout.BASIC
        )
        cache[key] = f
    return f
