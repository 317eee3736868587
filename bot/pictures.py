"""Board pictures for Discord messages: `render` draws and encodes (a palette PNG, made to be
read 400-550 px wide). Pure CPU: call it off the event loop."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

import render
from render.alt import alt_text


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


def board_picture(state: Any, **kwargs: Any) -> tuple[bytes, str]:
    """The picture `board_png` draws with `kwargs` and its alt text (`render.alt`: the
    position in words, at most 1,024 characters, what the picture shows and nothing more)."""
    return board_png(state, **kwargs), alt_text(state, **kwargs)


def as_file(picture: tuple[bytes, str], filename: str) -> discord.File:
    """A picture and its alt text as a Discord attachment."""
    png, alt = picture
    return discord.File(io.BytesIO(png), filename=filename, description=alt)
