"""An animation of a game, one frame per given state (for the bot's replays and the demo)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine import GameState

from .draw import render_image

#: Frames are drawn smaller than the still picture to keep the file small.
ANIMATION_WIDTH = 640


def animation(
    states: Sequence[GameState],
    *,
    fmt: str = "gif",
    width: int = ANIMATION_WIDTH,
    frame_ms: int = 700,
    last_frame_ms: int = 3000,
    names: Sequence[str | None] | None = None,
    lang: str | None = None,
) -> bytes:
    """An animated GIF (``fmt="gif"``) or WebP (``fmt="webp"``) showing ``states`` in order,
    its words in ``lang`` (None: English)."""
    if not states:
        raise ValueError("animation needs at least one state")
    frames = [render_image(s, names=names, width=width, lang=lang) for s in states]
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    buf = io.BytesIO()
    if fmt == "gif":
        # One shared adaptive palette keeps colours steady from frame to frame.
        pal = frames[-1].quantize(colors=255, method=2)
        frames = [f.quantize(palette=pal, dither=Image.Dither.NONE) for f in frames]
        frames[0].save(
            buf,
            "GIF",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            optimize=False,
            disposal=1,
        )
    elif fmt == "webp":
        frames[0].save(
            buf,
            "WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            quality=80,
            method=4,
        )
    else:
        raise ValueError(f"unknown animation format {fmt!r} (gif or webp)")
    return buf.getvalue()
