"""Tests of the phone picture (``board_png(..., layout="phone")``): the board, the sun, the round
and the scoring piles, drawn to be read 360-400 px wide, without the seat cards."""

from __future__ import annotations

import dataclasses
import io
import math
from collections import Counter

import pytest
from PIL import Image, ImageStat

import render
from engine.geometry import LABEL_INDEX, LABELS
from render import draw, layout, sprites, text
from render.draw import compose, smallest_text_px
from render.layout import phone_layout
from render.model import view
from tests import base_positions as base
from tests import moon_positions as moon
from tests.golden_helpers import assert_matches_golden

#: Positions of the base game and of the expansion, with their ``board_png`` arguments.
CASES = {
    "start-2": lambda: (base.build("start-2"), base.POSITIONS["start-2"]),
    "mid-4": lambda: (base.build("mid-4"), base.POSITIONS["mid-4"]),
    "late-3-preview": lambda: (base.build("late-3-preview"), base.POSITIONS["late-3-preview"]),
    "moon-setup-3": lambda: (moon.setup_3(), moon.POSITIONS["moon-setup-3"][1]),
    "moon-mid-4": lambda: (moon.mid_4(), moon.POSITIONS["moon-mid-4"][1]),
    "moon-full-2": lambda: (moon.full_2(), moon.POSITIONS["moon-full-2"][1]),
    "moon-over-3": lambda: (moon.over_3(), moon.POSITIONS["moon-over-3"][1]),
}
ARGS = ("highlight", "preview_sun", "viewer_seat", "names")


def case(name: str):
    state, p = CASES[name]()
    return state, {k: p[k] for k in ARGS if k in p}


def phone(state, **kwargs) -> Image.Image:
    png = render.board_png(state, layout="phone", **kwargs)
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("lang", ["en", "he"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_smallest_text_is_at_least_9_px_at_400_px_wide(name, lang):
    state, kwargs = case(name)
    p = smallest_text_px(state, 400, lang=lang, layout="phone", **kwargs)
    assert p >= 9.0, p
    # The same position in today's wide picture (its seat cards) is smaller there.
    assert smallest_text_px(state, 400, lang=lang, **kwargs) < 7.0


def test_smallest_text_scales_with_the_display_width():
    state, kwargs = case("mid-4")
    at_400 = smallest_text_px(state, 400, layout="phone", **kwargs)
    assert smallest_text_px(state, 800, layout="phone", **kwargs) == pytest.approx(2 * at_400)
    # Drawn 820 px wide (one pixel per design unit) the smallest text is MIN_TEXT (20) px.
    assert smallest_text_px(state, 820, width=820, layout="phone", **kwargs) == 20


@pytest.mark.parametrize("name", ["mid-4", "moon-mid-4", "moon-over-3"])
def test_no_seat_cards_in_the_phone_picture(name):
    """What a seat has (points, light, store, tokens, animal, abilities) is not drawn: only
    the header band, the piles and the preview corner hold words."""
    state, kwargs = case(name)
    with text.words_drawn() as wide:
        draw.render_image(state, **kwargs)
    with text.words_drawn() as narrow:
        draw.render_image(state, layout="phone", **kwargs)
    card_words = ("pts", "tokens", "×")
    for word in card_words:
        assert any(word in w for w in wide), word
        assert not any(word in w for w in narrow), word
    names = [s.name for s in view(state, **kwargs).seats]
    current = {view(state, **kwargs).current_seat}
    for k, name in enumerate(names):  # a seat's name only in "… to play" or "… wins"
        assert (name in narrow) == (k in current), name
    assert phone_layout(render.DEFAULT_WIDTH).cards == ()


def test_the_four_piece_sizes_differ_at_400_px():
    """Shown 400 px wide, each size is at least 6 px taller than the one below it."""
    lay = phone_layout(400)
    heights = []
    for size in range(4):
        spr, _anchor = sprites.tree(0, size, lay.hex_r)
        box = spr.getchannel("A").point(lambda a: 255 if a > 64 else 0).getbbox()
        heights.append(box[3] - box[1])
    assert all(b - a >= 6 for a, b in zip(heights, heights[1:], strict=False)), heights


def label_brightness(im: Image.Image, lay, label: str) -> float:
    """The brightest luminance in a space's label (the 95th percentile of the patch)."""
    x, y = lay.centres[LABEL_INDEX[label]]
    r = lay.hex_r
    y -= r * 0.66
    box = (round(x - 0.3 * r), round(y - 0.18 * r), round(x + 0.3 * r), round(y + 0.18 * r))
    lum = im.crop(box).convert("L")
    hist = lum.histogram()
    n, seen = sum(hist), 0
    for value in range(255, -1, -1):
        seen += hist[value]
        if seen >= n * 0.05:
            return value
    return 0.0


def test_labels_on_shaded_spaces_stay_white():
    state, kwargs = case("mid-4")
    v = view(state, **kwargs)
    shaded = [LABELS[i] for i, h in enumerate(v.shadows) if h and LABELS[i] not in v.pieces]
    assert len(shaded) >= 3
    im = phone(state, **kwargs)
    lay = phone_layout(render.DEFAULT_WIDTH)
    for label in shaded:
        assert label_brightness(im, lay, label) >= 235, label


def patch_diff(a: Image.Image, b: Image.Image, xy, r: float) -> float:
    x, y = xy
    box = (round(x - r), round(y - r), round(x + r), round(y + r))
    sa, sb = ImageStat.Stat(a.crop(box)).mean, ImageStat.Stat(b.crop(box)).mean
    return math.dist(sa, sb)


def test_the_expansion_is_drawn_on_the_phone_board():
    """The moon, its beams, the Dam, the animals and the face-down tokens on the beaches are
    all in the phone picture: each changes its place compared with the board without them."""
    state, kwargs = case("moon-mid-4")
    v = view(state, **kwargs)
    mv = v.moon
    with_moon = compose(v, layout_name="phone")
    without = compose(dataclasses.replace(v, moon=None), layout_name="phone")
    lay = phone_layout(render.DEFAULT_WIDTH, True, True)
    R = lay.hex_r
    assert patch_diff(with_moon, without, lay.gaps[mv.gap], 0.6 * lay.moon_r) > 40
    places = {"beam": mv.beams[0][0], "dam": mv.dam[1]}
    places |= {f"animal {a.animal}": a.space for a in mv.animals}
    places |= {f"token {LABELS[i]}": i for i in mv.face_down}
    assert len(mv.face_down) == 4 and len(mv.animals) == 4
    for what, i in places.items():
        assert patch_diff(with_moon, without, lay.centres[i], 0.3 * R) > 12, what


@pytest.mark.parametrize("name", ["late-3-preview", "moon-mid-4"])
@pytest.mark.parametrize("lang", ["en", "he"])
def test_golden(name, lang):
    state, kwargs = case(name)
    assert_matches_golden(f"phone-{lang}-{name}", phone(state, lang=lang, **kwargs))


def test_an_unknown_layout_is_refused():
    state, _kwargs = case("start-2")
    with pytest.raises(ValueError, match="no layout 'tall'"):
        render.board_png(state, layout="tall")


# -- the phone picture with seat cards (issue 56: the panel's picture, /ps rules) -------------


def words_of(state, **kwargs) -> Counter[str]:
    """The words a picture draws besides its cached static parts (drawn once before)."""
    draw.render_image(state, **kwargs)
    with text.words_drawn() as words:
        draw.render_image(state, **kwargs)
    return Counter(words)


@pytest.mark.parametrize("name", ["mid-4", "moon-mid-4", "late-3-preview"])
def test_the_phone_cards_hang_under_the_board(name):
    """ "phone-cards" adds every seat's card under the board of the phone picture, "phone-own"
    the viewer's alone (none without a viewer); the board and its header do not move."""
    state, kwargs = case(name)
    kwargs = {k: v for k, v in kwargs.items() if k != "viewer_seat"}
    n = len(view(state).seats)
    moon_rows = name.startswith("moon")
    bare = compose(view(state, **kwargs), 820, "phone")
    every = compose(view(state, viewer_seat=1, **kwargs), 820, "phone-cards")
    own = compose(view(state, viewer_seat=1, **kwargs), 820, "phone-own")
    no_viewer = compose(view(state, **kwargs), 820, "phone-own")
    card = layout.phone_card_height(moon_rows) + layout.CARD_GAP
    assert every.height - bare.height == round(n * card + layout.BOTTOM_PAD)
    assert own.height - bare.height == round(card + layout.BOTTOM_PAD)
    assert no_viewer.size == bare.size
    box = (0, 0, 820, bare.height - 80)  # the header and the board, above the legend
    assert every.crop(box).tobytes() == bare.crop(box).tobytes() == own.crop(box).tobytes()
    lay = phone_layout(820, moon_rows, moon_rows, (1,))
    assert lay.card_of(1) == lay.cards[0] and lay.card_of(0) is None
    assert lay.cards[0].y >= bare.height and lay.cards[0].w == 820 - 24


def test_a_phone_card_says_what_a_wide_card_says():
    """The cards of "phone-cards" say what the wide picture's cards say, and the row of the
    animal's abilities, wider, shows the one the wide card counted ("+1"); the panel's card
    ("phone-own") names its seat, marked YOU, and no other seat."""
    state, _kwargs = case("moon-mid-4")
    names = ["Ada", "Grace", "Linus", "Barbara"]
    wide = words_of(state, names=names, viewer_seat=2, layout="wide")
    cards = words_of(state, names=names, viewer_seat=2, layout="phone-cards")
    bare = words_of(state, names=names, viewer_seat=2, layout="phone")
    assert wide - cards == Counter({"+1": 1})
    assert cards - wide == Counter({" · ": 4, "Medium": 1})
    assert {w: (cards - bare)[w] for w in ("YOU", "1st", "pts", "tokens")} == {
        "YOU": 1,
        "1st": 1,
        "pts": 4,
        "tokens": 4,
    }
    assert all((cards - bare)[name] == 1 for name in names)
    own = words_of(state, names=names, viewer_seat=2, layout="phone-own") - bare
    assert own["Linus"] == own["YOU"] == own["pts"] == 1
    assert not {"Ada", "Grace", "Barbara"} & set(own)


@pytest.mark.parametrize(
    ("name", "lang", "layout_name"),
    [("moon-mid-4", "he", "phone-cards"), ("late-3-preview", "en", "phone-own")],
)
def test_golden_with_cards(name, lang, layout_name):
    state, kwargs = case(name)
    kwargs.setdefault("viewer_seat", 1)
    png = render.board_png(state, layout=layout_name, lang=lang, **kwargs)
    assert_matches_golden(
        f"{layout_name}-{lang}-{name}", Image.open(io.BytesIO(png)).convert("RGB")
    )
