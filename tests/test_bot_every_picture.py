"""Every kind of picture the bot sends is made for a phone (issue 56): drawn as the bot draws it,
in English and Hebrew with the longest names the tests use, none holds text under 9 px when it
is shown 400 px wide, and the names are drawn whole.

The kinds are those of `tests/every_picture.py`, named by where the bot attaches them to a
message; a new place that sends a picture fails `test_every_place_that_sends_a_picture_is_drawn`
until its pictures are drawn here too. The smallest text is what the picture itself notes
(`render.draw.drawn_png`): every text drawn, cached parts included."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot.present import pictures
from render import draw, text
from render.draw import drawn_png, smallest_text_in, smallest_text_px
from render.model import view
from render.review import progress_chart
from tests import base_positions as base
from tests import moon_positions as moon
from tests.every_picture import LONG_NAMES, SENT_FROM, draw_every_kind

ROOT = Path(__file__).resolve().parent.parent
#: The smallest text allowed, in pixels, on a picture shown 400 px wide.
SMALLEST = 9.0
DISPLAY = 400


def too_small(drawn: list[tuple[str, str, bytes]]) -> list[tuple[str, str, float | None]]:
    """The pictures whose smallest text is under ``SMALLEST`` px shown ``DISPLAY`` px wide (or
    that do not say what their smallest text is)."""
    out = []
    for kind, which, png in drawn:
        px = smallest_text_in(png, DISPLAY)
        if px is None or px < SMALLEST:
            out.append((kind, which, px))
    return out


def sent_from() -> set[tuple[str, str]]:
    """Where `bot/` attaches a picture to a message: the module and the function of every call
    of `pictures.as_file`."""
    found = set()
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    f = node.func
                    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                    if name == "as_file" and fn.name != "as_file":
                        found.add((path.relative_to(ROOT).as_posix(), fn.name))
    return found


def test_every_place_that_sends_a_picture_is_drawn():
    assert sent_from() == set(SENT_FROM)


@pytest.mark.parametrize("lang", ["en", "he"])
def test_no_text_under_9_px_at_400_px_wide_in_any_picture_the_bot_sends(lang):
    drawn = draw_every_kind(lang)
    kinds = {kind for kind, _which, _png in drawn}
    assert kinds == {kind for sent in SENT_FROM.values() for kind in sent}
    assert too_small(drawn) == []
    # The note is the text drawn: a board picture's is `smallest_text_px` of the same drawing.
    state = moon.mid_4()
    png = pictures.board_png(state, names=list(LONG_NAMES), lang=lang,
                             layout=pictures.PANEL_LAYOUT, viewer_seat=1)  # fmt: skip
    assert smallest_text_in(png, DISPLAY) == pytest.approx(
        smallest_text_px(
            state,
            DISPLAY,
            names=list(LONG_NAMES),
            lang=lang,
            layout=pictures.PANEL_LAYOUT,
            viewer_seat=1,
        )  # fmt: skip
    )


def test_the_check_catches_a_small_text():
    """A text drawn 7 px high in a 400 px picture, the old wide picture's seat cards (6.8 px
    shown 400 px wide) and a picture that does not say its smallest text all fail the check."""

    def small() -> Image.Image:
        im = Image.new("RGB", (400, 100))
        text.draw(ImageDraw.Draw(im), (10, 10), "avail ×0", 20, (255, 255, 255))
        text.draw(ImageDraw.Draw(im), (10, 50), "store 4 1", 7, (255, 255, 255))
        return im

    wide = pictures.board_png(base.build("mid-4"), names=list(LONG_NAMES), layout="wide")
    plain = io.BytesIO()
    small().save(plain, "PNG")
    caught = too_small([
        ("small", "7 px", drawn_png(small)),
        ("wide", "mid-4", wide),
        ("no note", "", plain.getvalue()),
        ("phone", "mid-4", pictures.board_png(base.build("mid-4"), layout="phone")),
    ])  # fmt: skip
    assert [(kind, px if px is None else round(px, 1)) for kind, _w, px in caught] == [
        ("small", 7.0),
        ("wide", 6.8),
        ("no note", None),
    ]


@pytest.mark.parametrize("lang", ["en", "he"])
@pytest.mark.parametrize(
    ("layout", "build"),
    [
        (pictures.RULES_LAYOUT, lambda: base.build("mid-4")),
        (pictures.RULES_LAYOUT, moon.mid_4),
        (pictures.PANEL_LAYOUT, moon.mid_4),
    ],
)
def test_the_cards_show_the_names_whole(layout, build, lang):
    """A seat card under the board names its seat as the header band names who is to play:
    whole, the longest names the tests use included (emoji and CJK)."""
    state = build()
    names = list(LONG_NAMES)
    seen = view(state, names=names, lang=lang)
    with text.words_drawn() as words:
        draw.render_image(state, names=names, lang=lang, layout=layout, viewer_seat=2)
    carded = range(4) if layout == pictures.RULES_LAYOUT else [2]
    for seat in carded:
        assert seen.seats[seat].name in words, seen.seats[seat].name
    # The one to play, in the header band, is named whole too.
    assert any(seen.seats[seen.current_seat].name in w for w in words)


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_review_chart_names_every_seat_whole(lang):
    points = [[(k * 3 + s, (k * s) % 12) for s in range(4)] for k in range(7)]
    with text.words_drawn() as words:
        im = progress_chart(points, list(LONG_NAMES), lang, 550)
    for name in LONG_NAMES:
        assert name in words
    # Three rows of names at 550 px: the chart is two rows (34 design units each) taller than
    # with short names.
    short = progress_chart(points, ["Ann", "Bob"], lang, 550)
    assert im.height - short.height == round(2 * 34 * 550 / 800)
