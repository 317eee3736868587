"""Board pictures for Discord messages: `render` draws, this module encodes for throughput.

A 256-colour palette PNG (the board is flat art, so no visible change) encodes about three
times faster than the full-colour one and is half the size, which matters when many games
are played at once: every action answers with a picture. Pure CPU: call it in a thread.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

import render

PNG_COMPRESS_LEVEL = 1


def board_png(
    state: Any,
    *,
    highlight: Sequence[str] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """`render.board_png` as a palette PNG (same arguments)."""
    image = render.render_image(
        state,
        highlight=highlight,
        preview_sun=preview_sun,
        viewer_seat=viewer_seat,
        names=names,
    )
    palette = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    palette.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
