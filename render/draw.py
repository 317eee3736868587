"""The composer: copy the cached static picture, lay the base game's layers and the expansion's
on it in order, and encode it."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngImageFile, PngInfo

from engine import GameState
from translation import is_right_to_left

from . import board, moonlight, panel, text
from .layout import DEFAULT_WIDTH, Layout, layout, phone_layout
from .model import View, view
from .png_palette import PALETTE

#: zlib level for the PNG. The pixels are the same at every level; for the 1180x766 palette
#: picture level 1 encodes in half the time of level 3 (7.6 vs 15.3 ms) for 11% more bytes
#: (87 vs 79 KB), and encoding was a third of each picture's time in the 50-game profile.
PNG_COMPRESS_LEVEL = 1
#: Discord shows the picture at most this wide in an embed.
DISPLAY_WIDTH = 550


#: The pictures ``board_png`` draws: ``"wide"`` (the board and a strip of seat cards, read
#: 550 px wide: no picture the bot sends uses it), ``"phone"`` (the board under a header band, no
#: seat cards: made to be read 360-400 px wide), ``"phone-cards"`` (the phone picture with every
#: seat's card under the board) and ``"phone-own"`` (with the card of ``viewer_seat`` alone).
LAYOUTS = ("wide", "phone", "phone-cards", "phone-own")


def _draw_board(im: Image.Image, lay: Layout, v: View) -> None:
    """The board of either layout on its base: the expansion's ground, the shadows, moonlight,
    highlights, a lesson's marks, the pieces, the sun and the moon, and last the labels of the
    spaces, so that nothing covers one."""
    mv = v.moon
    if mv is not None:
        moonlight.draw_ground(im, lay, v)
    board.draw_shadows(im, lay, v)
    if mv is not None:
        moonlight.draw_moonlight(im, lay, v)
    board.draw_highlights(im, lay, v)
    board.draw_marks(im, lay, v)
    if mv is None:
        board.draw_pieces(im, lay, v)
    else:
        moonlight.draw_board_objects(im, lay, v)
    board.draw_sun(im, lay, v)
    if mv is not None:
        moonlight.draw_moon(im, lay, v)
    board.draw_labels(im, lay)


def compose(v: View, width: int = DEFAULT_WIDTH, layout_name: str = "wide") -> Image.Image:
    """The picture of a ``View`` as an RGB image, in the layout ``layout_name``."""
    if layout_name.startswith("phone") and layout_name in LAYOUTS:
        return compose_phone(v, width, phone_cards(v, layout_name))
    if layout_name != "wide":
        raise ValueError(f"no layout {layout_name!r} (one of {', '.join(LAYOUTS)})")
    mv = v.moon
    lay = layout(width, len(v.seats), mv is not None and mv.rows, mv is not None and mv.gap >= 0)
    im = board.base(lay, panel.draw_static, v.lang).copy()
    _draw_board(im, lay, v)
    d = panel.draw_strip(im, lay, v)
    if mv is not None:
        if mv.now_gap >= 0:
            moonlight.header_line(im, d, lay, v, panel.header_line(lay, 4))
        if mv.rows:
            _moon_cards(im, d, lay, v)
    return im


def _moon_cards(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, v: View) -> None:
    """The expansion's rows of every seat card the layout has."""
    mv = v.moon
    if mv is None or not mv.rows:
        return
    for s in v.seats:
        card = lay.card_of(s.index)
        if card is not None:
            y = panel.card_row(lay, card, "moon")
            moonlight.card_row(im, d, lay, card, s, mv.seats[s.index], v, y)


def phone_cards(v: View, layout_name: str) -> tuple[int, ...]:
    """The seats whose cards the phone layout ``layout_name`` draws under the board."""
    if layout_name == "phone-cards":
        return tuple(s.index for s in v.seats)
    if layout_name == "phone-own" and v.viewer_seat is not None:
        return (v.viewer_seat,)
    return ()


def compose_phone(v: View, width: int = DEFAULT_WIDTH, seats: tuple[int, ...] = ()) -> Image.Image:
    """The phone picture of a ``View``: the board (with the expansion's moon, beams, Dam,
    animals and face-down tokens), the sun, the round and the scoring piles, and under the board
    the cards of ``seats`` (none by default)."""
    mv = v.moon
    lay = phone_layout(width, mv is not None and mv.rows, mv is not None and mv.gap >= 0, seats)
    im = board.base(lay, panel.draw_phone_static, v.lang).copy()
    _draw_board(im, lay, v)
    d = panel.draw_phone(im, lay, v)
    if mv is not None and mv.now_gap >= 0:
        moonlight.header_line(im, d, lay, v, panel.phone_row(lay, 3), lay.s(panel.PHONE_BODY),
                              from_right=is_right_to_left(v.lang))  # fmt: skip
    _moon_cards(im, d, lay, v)
    return im


def render_image(
    state: GameState,
    *,
    highlight: Sequence[str | tuple[int, str]] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str | None] | None = None,
    width: int = DEFAULT_WIDTH,
    lang: str | None = None,
    marks: Sequence[str] = (),
    layout: str = "wide",
    abandoned: bool = False,
) -> Image.Image:
    """The picture of ``state`` as an RGB image (see ``board_png`` for the arguments)."""
    v = view(
        state,
        highlight=highlight,
        preview_sun=preview_sun,
        viewer_seat=viewer_seat,
        names=names,
        lang=lang,
        marks=marks,
        abandoned=abandoned,
    )
    return compose(v, width, layout)


@functools.cache
def shared_palette() -> Image.Image:
    """`render.png_palette.PALETTE` as a palette image for `Image.quantize`."""
    im = Image.new("P", (1, 1))
    im.putpalette(PALETTE)
    return im


#: The PNG text chunk that carries the smallest text a picture holds, in pixels of the picture
#: as drawn (`drawn_png`, `board_png`): what `smallest_text_in` reads back from a picture the
#: bot sent (the benches and tests measure what is sent, not a drawing of their own).
SMALLEST_TEXT_KEY = "photosynthesis:smallest-text-px"


def encode_png(im: Image.Image, smallest_text: float | None = None) -> bytes:
    """PNG bytes of a finished picture, as a 256-colour palette PNG: the board is flat art, so
    the palette changes nothing visible, while encoding is about three times quicker and the
    file less than half the size of a full-colour one. Every picture is mapped to the same
    palette (`render.png_palette`), made in advance: finding one per picture took longer
    than drawing it. ``smallest_text``: the smallest text drawn, in pixels, noted in the PNG
    (``SMALLEST_TEXT_KEY``)."""
    palette = im.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    palette.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False,
                 pnginfo=_text_info(smallest_text))  # fmt: skip
    return buf.getvalue()


def _text_info(smallest_text: float | None) -> PngInfo | None:
    if smallest_text is None:
        return None
    info = PngInfo()
    info.add_text(SMALLEST_TEXT_KEY, f"{smallest_text:g}")
    return info


def drawn_png(draw: Callable[[], Image.Image], *, palette: bool = True) -> bytes:
    """The PNG of the picture ``draw()`` makes (a chart, a review's boards), with the smallest
    text it drew noted in it (``SMALLEST_TEXT_KEY``). ``palette``: the board's shared palette
    (``encode_png``), else full colour (a chart's lines)."""
    with text.recording() as sizes:
        im = draw()
    smallest = min(sizes) if sizes else None
    if palette:
        return encode_png(im, smallest)
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True, pnginfo=_text_info(smallest))
    return buf.getvalue()


def smallest_text_in(png: bytes, display_width: int = 400) -> float | None:
    """The smallest text of a picture the bot made (``drawn_png``, ``board_png``), in pixels,
    when it is shown ``display_width`` pixels wide; None for a picture without the note."""
    with Image.open(io.BytesIO(png)) as im:
        said = im.text.get(SMALLEST_TEXT_KEY) if isinstance(im, PngImageFile) else None
        return None if said is None else float(said) * display_width / im.width


def board_png(
    state: GameState,
    *,
    highlight: Sequence[str | tuple[int, str]] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str | None] | None = None,
    width: int = DEFAULT_WIDTH,
    lang: str | None = None,
    marks: Sequence[str] = (),
    layout: str = "wide",
    abandoned: bool = False,
) -> bytes:
    """Draw a game state as PNG bytes, the smallest text it holds noted in it
    (``SMALLEST_TEXT_KEY``).

    ``highlight``: what the last actions touched: space labels, notations (their spaces are
    outlined) or ``(seat, notation)`` pairs (an ability naming no space outlines that seat's
    animal). ``preview_sun``: draw the shadows of that sun position (0..5) instead of the
    current one, each seat's light and lunar gain, and the moon where it will be at the next
    photosynthesis. ``viewer_seat``: the seat of the person looking, marked "YOU" (the picture
    shows only what that seat may see). ``names``: display names per seat (default "Seat N"
    and "Cynthia"). ``width``: picture width in pixels (the layout scales with it). ``lang``:
    the language of the words drawn (``translation.LANGUAGES``; None or ``"en"``: English);
    Hebrew words are laid out right to left. ``marks``: space labels a lesson talks about,
    ringed in gold (the tutorial's pictures). ``layout``: ``"wide"`` (landscape, the board and a
    card per seat, read 550 px wide), ``"phone"`` (the board, the sun, the round and the scoring
    piles, no seat cards: what a seat has goes in text beside it; read 360-400 px wide),
    ``"phone-cards"`` (the phone picture with every seat's card under the board) or
    ``"phone-own"`` (with the card of ``viewer_seat`` alone).
    ``abandoned``: the game was abandoned (the picture says so, and nobody is to play).
    """
    return drawn_png(
        lambda: render_image(
            state,
            highlight=highlight,
            preview_sun=preview_sun,
            viewer_seat=viewer_seat,
            names=names,
            width=width,
            lang=lang,
            marks=marks,
            layout=layout,
            abandoned=abandoned,
        )
    )


def smallest_text_px(
    state: GameState,
    display_width: int = DISPLAY_WIDTH,
    *,
    width: int = DEFAULT_WIDTH,
    **kwargs: Any,
) -> float:
    """The smallest text the picture of ``state`` holds, in pixels, when it is shown
    ``display_width`` pixels wide: every text drawn (static parts included) notes its font's
    pixel size, scaled by ``display_width / width``. ``kwargs`` as for ``board_png``."""
    with text.recording() as sizes:
        render_image(state, width=width, **kwargs)
    return min(sizes) * display_width / width
