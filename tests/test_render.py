"""Tests of the board picture (render/).

Golden images: ``tests/golden/*.png`` are compared square by square (tests/golden_helpers.py).
Regenerate them after an intended change of the picture with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render.py`` (see tests/golden/README.md),
then look at them before committing.
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

import engine
import render
from engine.geometry import LABEL_INDEX, LABELS, LEAVES
from render import board, draw, palette, panel, text
from render.demo import play, play_through, touched
from render.fonts import RLM
from render.layout import layout
from render.model import view
from tests.base_positions import POSITIONS, build
from tests.golden_helpers import (
    GOLDEN,
    WINDOW_TOLERANCE,
    assert_matches_golden,
    worst_window_diff,
)


def render_position(name: str) -> Image.Image:
    p = POSITIONS[name]
    png = render.board_png(
        build(name),
        highlight=p["highlight"],
        preview_sun=p["preview_sun"],
        viewer_seat=p["viewer_seat"],
        names=p["names"],
    )
    return Image.open(io.BytesIO(png)).convert("RGB")


def colour_distance(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_golden(name):
    assert_matches_golden(name, render_position(name))


def test_golden_comparison_can_fail():
    """Two different positions are far apart by the golden measure."""
    a = render_position("mid-4")
    b = Image.open(GOLDEN / "late-3-preview.png").convert("RGB").resize(a.size)
    assert worst_window_diff(a, b) > 2 * WINDOW_TOLERANCE


def _piece_box(label: str, width: int = render.DEFAULT_WIDTH):
    x, y = render.space_center(label, width)
    r = layout(width).hex_r
    return (round(x - 0.45 * r), round(y - 0.5 * r), round(x + 0.45 * r), round(y + 0.6 * r))


def _count_near(im: Image.Image, box, colour, tolerance: float = 45) -> int:
    data = im.crop(box).tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3])
    return sum(1 for px in pixels if colour_distance(px, colour) < tolerance)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_pieces_carry_their_seat_colour(name):
    state = build(name)
    im = render_position(name)
    board_ = state.to_dict()["board"]
    assert board_, "the position has pieces"
    for label, piece in board_.items():
        seat = piece["seat"]
        box = _piece_box(label)
        own = _count_near(im, box, palette.seat_colour(seat))
        assert own >= 25, f"{label}: only {own} pixels of seat {seat}'s colour"
        for other in range(len(state.seats)):
            if other != seat:
                assert _count_near(im, box, palette.seat_colour(other)) < own


def test_empty_space_has_no_seat_colour():
    state = build("start-2")
    im = render_position("start-2")
    empty = next(lab for lab in LABELS if lab not in state.to_dict()["board"])
    for seat in range(2):
        assert _count_near(im, _piece_box(empty), palette.seat_colour(seat)) == 0


def _patch_luminance(im: Image.Image, label: str) -> float:
    """Mean luminance of a patch in the middle of a space (free of label and leaf pips)."""
    x, y = render.space_center(label)
    r = layout(render.DEFAULT_WIDTH).hex_r
    box = (round(x - 0.25 * r), round(y - 0.2 * r), round(x + 0.25 * r), round(y + 0.2 * r))
    return ImageStat.Stat(im.crop(box).convert("L")).mean[0]


def test_shadowed_spaces_are_darker_than_lit_ones():
    state = build("mid-4")
    im = render_position("mid-4")
    shadows = engine.shadow_map(state)
    occupied = state.to_dict()["board"]
    checked = 0
    for leaves in (1, 2, 3):
        empty = [i for i in range(37) if LEAVES[i] == leaves and LABELS[i] not in occupied]
        dark = [i for i in empty if shadows[i]]
        lit = [i for i in empty if not shadows[i]]
        if dark and lit:
            darkest_lit = min(_patch_luminance(im, LABELS[i]) for i in lit)
            for i in dark:
                assert _patch_luminance(im, LABELS[i]) < darkest_lit - 10
            checked += 1
    assert checked, "the position has shadowed and lit empty spaces on one soil"


def test_preview_sun_draws_that_suns_shadows():
    state = build("mid-4")
    now, preview = engine.shadow_map(state), engine.shadow_map(state, (state.sun + 3) % 6)
    occupied = state.to_dict()["board"]
    changed = [
        i for i in range(37) if LABELS[i] not in occupied and bool(now[i]) != bool(preview[i])
    ]
    assert changed
    a = Image.open(io.BytesIO(render.board_png(state))).convert("RGB")
    b = Image.open(io.BytesIO(render.board_png(state, preview_sun=(state.sun + 3) % 6))).convert(
        "RGB"
    )
    for i in changed:
        la, lb = _patch_luminance(a, LABELS[i]), _patch_luminance(b, LABELS[i])
        assert (la < lb) == bool(now[i]), LABELS[i]


def test_sun_is_drawn_at_its_corner():
    state = build("mid-4")
    lay = layout(render.DEFAULT_WIDTH, 4)
    for p in range(6):
        im = Image.open(io.BytesIO(render.board_png(state, preview_sun=p))).convert("RGB")
        for q in range(6):
            x, y = lay.suns[q]
            px = im.getpixel((round(x), round(y)))
            bright = colour_distance(px, palette.SUN_CORE) < 40
            assert bright == (p == q), (p, q, px)


def test_highlight_outlines_the_spaces():
    state = build("mid-4")
    r = layout(render.DEFAULT_WIDTH).hex_r
    x, y = render.space_center("G2")
    edge = (x, round(y + 0.95 * r))  # on the bottom corner of the space
    plain = Image.open(io.BytesIO(render.board_png(state))).convert("RGB")
    lit = Image.open(io.BytesIO(render.board_png(state, highlight=["g2"]))).convert("RGB")
    assert colour_distance(lit.getpixel(edge), palette.HIGHLIGHT) < 60
    assert colour_distance(plain.getpixel(edge), palette.HIGHLIGHT) > 150


def test_space_center_follows_geometry_and_width():
    assert render.space_center("D4") == (436, 366)
    ax, ay = render.space_center("A1")
    gx, gy = render.space_center("G4")
    assert ay < render.space_center("D1")[1] < gy  # row A on top
    assert render.space_center("D1")[0] < render.space_center("D7")[0]
    half = render.space_center("A1", render.DEFAULT_WIDTH // 2)
    assert abs(half[0] - ax / 2) <= 1 and abs(half[1] - ay / 2) <= 1
    assert set(LABEL_INDEX) == set(LABELS)


def test_png_is_small_and_sized_by_width():
    state = build("mid-4")
    png = render.board_png(state)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) <= 250 * 1024
    im = Image.open(io.BytesIO(png))
    assert im.width == render.DEFAULT_WIDTH
    small = Image.open(io.BytesIO(render.board_png(state, width=600)))
    assert small.width == 600 and small.height < im.height


def test_png_holds_exactly_the_drawn_picture_in_its_palette():
    """The quick zlib level changes bytes, never pixels: the PNG decodes to the drawn picture
    mapped to the shared 256-colour palette, pixel for pixel, and that is within a few levels
    of the full-colour drawing."""
    state = build("mid-4")
    drawn = render.render_image(state, highlight=["D4"])
    decoded = Image.open(io.BytesIO(render.board_png(state, highlight=["D4"])))
    assert decoded.mode == "P"
    expected = drawn.quantize(palette=draw.shared_palette(), dither=Image.Dither.NONE)
    assert decoded.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    diff = ImageStat.Stat(ImageChops.difference(decoded.convert("RGB"), drawn)).mean
    assert max(diff) < 1.0


SHARED_PALETTE_CASES = {
    "3 seats, round 4": (engine.Config(seats=("human", "cynthia", "human")), 11, 4, {}),
    "4 people, round 12, a viewer": (engine.Config(seats=("human",) * 4), 12, 12, {"viewer_seat": 2}),
    "2 seats, game over": (engine.Config(seats=("human", "human")), 13, None, {}),
    "animals, Next-sun preview": (
        engine.Config(seats=("human", "human"), moon_animals=True), 13, 6, {"preview_sun": 3}
    ),
    "moonstones and Elder Tree": (
        engine.Config(seats=("human", "human", "cynthia"), moonstones=True, elder_tree=True),
        14, 12, {},
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", SHARED_PALETTE_CASES)
def test_the_shared_palette_keeps_pictures_as_close_as_their_own_palette(case):
    """Mapped to the palette made in advance (render.png_palette), a picture of positions
    other than those the palette was made from stays as close to its full-colour drawing as
    with a palette of its own (about half a level per channel on average)."""
    config, seed, rounds, kwargs = SHARED_PALETTE_CASES[case]
    stop = (lambda s: s.round >= rounds) if rounds is not None else None
    state, last = play_through(config, seed=seed, rng_seed=seed, stop=stop)
    drawn = render.render_image(state, highlight=touched(last), **kwargs)
    shared = Image.open(io.BytesIO(render.board_png(state, highlight=touched(last), **kwargs)))
    own = drawn.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)

    def error(im: Image.Image) -> tuple[float, int]:
        diff = ImageChops.difference(im.convert("RGB"), drawn)
        return max(ImageStat.Stat(diff).mean), max(high for _, high in diff.getextrema())

    (shared_mean, shared_max), (own_mean, own_max) = error(shared), error(own)
    assert shared_mean < 1.0 and shared_mean <= own_mean + 0.25
    assert shared_max <= max(own_max, 48)


def test_cached_base_is_never_drawn_on():
    state = build("mid-4")
    lay = layout(render.DEFAULT_WIDTH, 4)
    before = board.base(lay, panel.draw_static).tobytes()
    first = render.board_png(state, highlight=["D4"])
    assert board.base(lay, panel.draw_static).tobytes() == before
    assert render.board_png(state, highlight=["D4"]) == first


def test_rendering_in_threads_matches_serial():
    states = [build(name) for name in sorted(POSITIONS)] * 3
    serial = [render.board_png(s) for s in states]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(render.board_png, states))
    assert threaded == serial


def test_default_names_and_cynthia():
    config = engine.Config(seats=("human", "cynthia"))
    state, _ = play_through(config, seed=1, rng_seed=1, stop=lambda s: s.round >= 2)
    v = view(state)
    assert [s.name for s in v.seats] == ["Seat 1", "Cynthia"]
    assert [s.name for s in view(state, names=["Ann"]).seats] == ["Ann", "Cynthia"]
    assert v.seats[1].prices == (None, None, None, None)
    png = render.board_png(state)
    assert Image.open(io.BytesIO(png)).size[0] == render.DEFAULT_WIDTH


def test_whole_game_animation_and_final_picture():
    config = engine.Config(seats=("human", "human", "cynthia"))
    frames = []
    for state, _ in play(config, seed=9, rng_seed=9):
        if not frames or state.round != frames[-1].round:
            frames.append(state)
    state, last = play_through(config, seed=9, rng_seed=9)
    assert state.is_over
    gif = render.animation(frames[:: max(1, len(frames) // 6)] + [state], width=320)
    assert gif[:6] == b"GIF89a"
    anim = Image.open(io.BytesIO(gif))
    assert anim.n_frames >= 2
    webp = render.animation(frames[-2:], fmt="webp", width=320)
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    with pytest.raises(ValueError):
        render.animation([])
    final = render.board_png(state, highlight=touched(last))
    assert len(final) <= 250 * 1024


@pytest.mark.parametrize(
    ("seats", "names", "lang"),
    [
        (("human", "human"), ["Alice", "Bob"], "en"),
        (("human", "human"), ["Bartholomew", "Bob"], "en"),
        (("human", "human"), ["Bartholomew", "Bob"], "fr"),
        (("human", "human"), ["Alice", "Bob"], "he"),
    ],
)
def test_the_setup_line_shows_the_whole_name(seats, names, lang):
    """For Alice the setup read "A… places a starting tree": now the sentence takes two lines."""
    state = engine.new_game(engine.Config(seats=seats), seed=1)
    v = view(state, names=names, lang=lang)
    assert v.phase == "setup" and v.setup_kind == "place"
    with text.words_drawn() as drawn:
        draw.render_image(state, names=names, lang=lang)
    name = names[v.current_seat]
    assert name in drawn, drawn[:8]
    assert not any(w.endswith("…") for w in drawn), [w for w in drawn if w.endswith("…")]


def test_a_hebrew_name_is_one_right_to_left_paragraph():
    """The Expert's seat in Hebrew, "מומחה (מהיר)", was drawn piece by piece, its brackets
    unmirrored and the space misplaced: now as the right-to-left paragraph its first letter
    makes it, exactly as the same text with a right-to-left mark."""
    name = "מומחה (מהיר)"

    def drawn(words: str) -> Image.Image:
        im = Image.new("RGB", (300, 40))
        text.draw(ImageDraw.Draw(im), (5, 20), words, 22, (255, 255, 255), anchor="lm")
        return im

    assert ImageChops.difference(drawn(name), drawn(RLM + name)).getbbox() is None
    assert text.width(name, 22) == text.width(RLM + name, 22)


def test_tokens_that_do_not_fit_are_counted_unambiguously():
    """A card's "tokens 19 17 17 +2 =84" read as 19 + 17 + 17 + 2: the rest is "+2 more"."""
    state = build("mid-4")
    seats = [s.copy() for s in state.seats]
    seats[0].tokens = ((3, 19), (3, 17), (2, 17), (2, 16), (1, 15))
    state.seats = tuple(seats)
    with text.words_drawn() as drawn:
        draw.render_image(state)
    assert [w for w in drawn if "more" in w] == ["+2 more"]
    assert not any(w.startswith("+") and "=" in w for w in drawn)
    at = drawn.index("+2 more")
    assert drawn[at - 3 : at] == ["19", "17", "17"]  # the chips before it


def test_names_are_drawn_smaller_rather_than_cut():
    """The French picture cut "Expert (rapide)" to "Expert (rap…" in the turn line and to
    "Expert (rapid…" in its card: both now a little smaller, whole."""
    state = build("mid-4")
    names = ["Expert (rapide)", "Bartholomew", "Expert 2 (fort)", "Dana"]
    assert view(state).current_seat == 0
    with text.words_drawn() as drawn:
        draw.render_image(state, names=names, lang="fr")
    assert drawn.count("Expert (rapide)") == 2
    assert "Bartholomew" in drawn


@pytest.mark.parametrize(
    ("lang", "expected"), [("he", ["סינתיה", "סינתיה 2"]), ("en", ["Cynthia", "Cynthia 2"])]
)
def test_the_automa_is_named_in_the_pictures_language(lang, expected):
    """The bot names the automa "Cynthia" (in English): a Hebrew card said "Cynthia"."""
    state = engine.new_game(engine.Config(seats=("human", "cynthia", "cynthia")), seed=2)
    names = ["Alice", "Cynthia", "Cynthia 2"]
    assert [s.name for s in view(state, names=names, lang=lang).seats] == ["Alice", *expected]


@pytest.mark.parametrize(
    ("given", "drawn"),
    [
        ("Bob ⭐", "Bob ⭐"),  # the emoji font draws it, in colour (tests/test_render_fonts.py)
        ("Mo 🐢", "Mo 🐢"),
        ("Pé 🇫🇷", "Pé 🇫🇷"),  # a flag: two symbols, one emoji
        ("Fay 😀", "Fay 😀"),
        ("Ri \U0001f10d\U0001f10d", "Ri ◇"),  # a symbol no face has: a white diamond, once
        ("שרה 🌻", "שרה 🌻"),
    ],
)
def test_emoji_in_names_are_drawn_or_stood_in_for(given, drawn):
    """Emoji no font has were stripped from names ("Mo 🐢" was drawn "Mo"), then drawn as
    monochrome stand-ins ("Mo ◇"): the emoji font draws them now."""
    state = build("mid-4")
    names = [given, "Ada", "Grace", "Linus"]
    assert view(state, names=names).seats[0].name == drawn
    with text.words_drawn() as words:
        draw.render_image(state, names=names)
    assert drawn in words


def seat_colour_share(im: Image.Image, box: tuple[int, int, int, int], seat: int) -> float:
    """The share of the pixels in ``box`` within 40 of the seat's colour."""
    region = im.crop(box)
    pixels = (region.getpixel((x, y)) for x in range(region.width) for y in range(region.height))
    near = [p for p in pixels if colour_distance(p, palette.seat_colour(seat)) < 40]
    return len(near) / (region.width * region.height)


@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_hebrew_seat_card_reads_from_the_right(lang):
    """Hebrew cards were laid out left to right: a reader met "=74 +2" before its label. In
    Hebrew the card is mirrored (the colour stripe and the seat's tree on the right, the score
    on the left), its words not."""
    state = build("mid-4")
    im = Image.open(io.BytesIO(render.board_png(state, lang=lang))).convert("RGB")
    lay = layout(render.DEFAULT_WIDTH, 4)
    seat = 3  # not the seat to play: no outline in its colour
    box = lay.cards[seat]
    x0, y0, x1, _y1 = (round(v) for v in box.ints())
    s = lay.s
    name_row = (round(y0 + s(4)), round(y0 + s(36)))
    left = seat_colour_share(im, (x0 + round(s(12)), name_row[0], x0 + round(s(48)), name_row[1]),
                             seat)  # fmt: skip
    right = seat_colour_share(im, (x1 - round(s(48)), name_row[0], x1 - round(s(12)), name_row[1]),
                              seat)  # fmt: skip
    stripe_left = seat_colour_share(im, (x0 + 1, y0 + 20, x0 + 4, y0 + 60), seat)
    stripe_right = seat_colour_share(im, (x1 - 4, y0 + 20, x1 - 1, y0 + 60), seat)
    if lang == "he":
        assert right > 0.15 and left == 0 and stripe_right > 0.9 and stripe_left == 0
    else:
        assert left > 0.15 and right == 0 and stripe_left > 0.9 and stripe_right == 0
