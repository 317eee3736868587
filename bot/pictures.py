"""Board pictures for Discord messages: `render` draws and encodes (a palette PNG, made to be
read 400-550 px wide). Pure CPU: call it off the event loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import render


def board_png(
    state: Any,
    *,
    highlight: Sequence[Any] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """`render.board_png` (same arguments)."""
    return render.board_png(
        state, highlight=highlight, preview_sun=preview_sun, viewer_seat=viewer_seat, names=names
    )
