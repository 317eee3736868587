"""Pictures of a game: ``board_png`` draws a position as a PNG, ``animation`` a whole game.

``board_png(state, layout="phone")`` draws the phone picture: the board, the sun, the round and
the scoring piles, no seat cards (what each seat has is for text beside the picture), its
smallest text 9.8 px shown 400 px wide (``draw.smallest_text_px`` measures it);
``layout="phone-cards"`` and ``"phone-own"`` add every seat's card, or the viewer's, under the
board. Every PNG notes its smallest text (``draw.smallest_text_in`` reads it).

Rendering is pure CPU work on private images (the cached static board is copied, never drawn
on), so it is safe to run in a worker thread, e.g. ``await asyncio.to_thread(board_png, state)``.
"""

from __future__ import annotations

from .draw import board_png, render_image
from .layout import DEFAULT_WIDTH, gap_point, space_center
from .replay import animation

__all__ = [
    "DEFAULT_WIDTH",
    "animation",
    "board_png",
    "gap_point",
    "render_image",
    "space_center",
]
