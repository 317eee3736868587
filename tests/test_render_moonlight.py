"""Tests of Under the Moonlight in the board picture (render/moonlight.py, render/moon_sprites.py).

Golden images: ``tests/golden/moon-*.png``, compared like the base game's goldens (square by
square, tests/golden_helpers.py). Regenerate after an intended change of the picture with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render_moonlight.py`` (see
tests/golden/README.md), then look at them before committing.
"""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageStat

import engine
import render
from engine import Config
from engine.geometry import LABEL_INDEX, LABELS, LEAVES
from engine.moon import BEAMS, BORDER
from engine.moonlight import ANIMALS, BABIES, arrange, moonlit_next_photosynthesis, tracker
from engine.position import build
from render import moon_sprites
from render.layout import BOARD_CX, BOARD_CY, layout
from render.model import view
from tests.golden_helpers import (
    GOLDEN,
    WINDOW_TOLERANCE,
    assert_matches_golden,
    mean_abs_diff,
    worst_window_diff,
)
from tests.moon_positions import ALL, POSITIONS, C, H, full_2, mid_4, over_3, setup_3


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def render_position(name: str) -> Image.Image:
    make, kwargs = POSITIONS[name]
    return image(render.board_png(make(), **kwargs))


def colour_distance(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=False)) ** 0.5


def patch(im: Image.Image, label: str, dx: float = 0.0, dy: float = 0.0):
    """Mean colour of a patch in the middle of a space (free of label and leaf pips)."""
    x, y = render.space_center(label)
    r = layout(render.DEFAULT_WIDTH).hex_r
    x, y = x + dx * r, y + dy * r
    box = (round(x - 0.2 * r), round(y - 0.15 * r), round(x + 0.2 * r), round(y + 0.15 * r))
    return ImageStat.Stat(im.crop(box)).mean


def luminance(rgb) -> float:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


# -- goldens ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_golden(name):
    assert_matches_golden(name, render_position(name))


def test_goldens_differ_from_each_other():
    a = render_position("moon-mid-4")
    b = Image.open(GOLDEN / "mid-4.png").convert("RGB").resize(a.size)
    assert worst_window_diff(a, b) > 2 * WINDOW_TOLERANCE


# -- the moon and its beams ------------------------------------------------------------------


def bare(gap: int, full: bool = False, elder: str | None = None, **kw):
    """An empty board (no shadows) with the moon at ``gap``; animals far from it if asked."""
    state = build(Config(seats=(H, H), **ALL), {}, round=3)
    return arrange(state, moon=(gap, full), elder=elder, **kw)


@pytest.mark.parametrize("gap", [0, 4, 10, 15])
def test_beam_spaces_are_tinted(gap):
    state = bare(gap)
    im = image(render.board_png(state))
    beam = {i for b in BEAMS[gap] for i in b}
    checked = 0
    for leaves in (1, 2, 3):
        on = [i for i in beam if LEAVES[i] == leaves]
        off = [i for i in range(37) if LEAVES[i] == leaves and i not in beam]
        if not on or not off:
            continue
        darkest_on = min(luminance(patch(im, LABELS[i])) for i in on)
        brightest_off = max(luminance(patch(im, LABELS[i])) for i in off)
        assert darkest_on > brightest_off + 8, (gap, leaves, darkest_on, brightest_off)
        for i in on:  # pale blue: more blue than the green soil gives
            r, g, b = patch(im, LABELS[i])
            r0, g0, b0 = patch(im, LABELS[off[0]])
            assert b - b0 > 25, LABELS[i]
        checked += 1
    assert checked >= 2


def test_a_beam_stops_at_the_great_elder_tree():
    gap = 10  # beams F1 F2 F3 F4 F5 and E1 D2 C2 B2 A2
    state = bare(gap, elder="F3")
    im = image(render.board_png(state))
    plain = image(render.board_png(bare(gap)))
    # Before the Elder: lit in both. Behind it (F4, F5): lit only without the Elder.
    for label in ("F1", "F2"):
        assert colour_distance(patch(im, label), patch(plain, label)) < 3, label
    for label in ("F4", "F5"):
        assert luminance(patch(plain, label)) - luminance(patch(im, label)) > 8, label
    # The other beam is untouched (C2 lies in the Elder's shadow of the sun).
    for label in ("E1", "D2", "B2", "A2"):
        assert colour_distance(patch(im, label), patch(plain, label)) < 3, label


def test_gap_point_lies_between_the_two_border_spaces():
    cx, cy = BOARD_CX, BOARD_CY
    for gap in range(18):
        mx, my = render.gap_point(gap)
        a = render.space_center(LABELS[BORDER[gap]])
        b = render.space_center(LABELS[BORDER[(gap + 1) % 18]])
        da, db = math.dist((mx, my), a), math.dist((mx, my), b)
        assert abs(da - db) <= 2, gap
        assert math.dist((mx, my), (cx, cy)) > max(math.dist(a, (cx, cy)), math.dist(b, (cx, cy)))
        half = render.gap_point(gap, render.DEFAULT_WIDTH // 2)
        assert abs(half[0] - mx / 2) <= 1 and abs(half[1] - my / 2) <= 1
    assert render.gap_point(10) != render.gap_point(11)


@pytest.mark.parametrize("gap", [0, 3, 7, 10, 14, 17])
def test_moon_is_drawn_at_its_gap(gap):
    im = image(render.board_png(bare(gap, full=True)))
    for other in range(18):
        px = im.getpixel(render.gap_point(other))
        assert (colour_distance(px, moon_sprites.MOON_BODY) < 30) == (other == gap), (other, px)


@pytest.mark.parametrize("gap", [2, 9])
def test_half_and_full_moon_differ(gap):
    """A Full Moon is bright all over; a Half Moon is dark on the side away from the board."""
    mx, my = render.gap_point(gap)
    cx, cy = BOARD_CX, BOARD_CY
    d = math.dist((mx, my), (cx, cy))
    r = layout(render.DEFAULT_WIDTH).moon_r
    towards = (round(mx + (cx - mx) / d * r * 0.75), round(my + (cy - my) / d * r * 0.75))
    away = (round(mx - (cx - mx) / d * r * 0.75), round(my - (cy - my) / d * r * 0.75))
    full = image(render.board_png(bare(gap, full=True)))
    half = image(render.board_png(bare(gap, full=False)))
    assert colour_distance(full.getpixel((round(mx), round(my))), moon_sprites.MOON_BODY) < 30
    for point in (towards, away):
        assert colour_distance(full.getpixel(point), moon_sprites.MOON_DARK) > 100
    assert colour_distance(half.getpixel(towards), moon_sprites.MOON_BODY) < 30
    assert colour_distance(half.getpixel(away), moon_sprites.MOON_DARK) < 30


def test_tracker_reads_the_engine():
    state = mid_4()
    v = view(state).moon
    assert (v.next_gap, v.next_full) == engine.moonlight.tracker(state)
    assert (v.gap, v.full) == (8, False)


# -- the Great Elder Tree, moonstones, animals -----------------------------------------------


def test_great_elder_tree_shadow_ray_is_darker():
    """The Elder's whole ray (to the board edge) is shadowed; spaces off the ray are not."""
    state = bare(4, elder="D4")  # moon beams on the W side: E1..., D1... (not on the ray)
    sun = state.sun  # round 3: sun at SE, shadows fall NW: C3 B2 A1
    shadows = engine.shadow_map(state, sun)
    ray = [LABELS[i] for i in range(37) if shadows[i]]
    assert ray == ["A1", "B2", "C3"]
    v = view(state).moon
    im = image(render.board_png(state))
    for label in ray:
        same_soil = [
            LABELS[i]
            for i in range(37)
            if LEAVES[i] == LEAVES[LABEL_INDEX[label]]
            and not shadows[i]
            and not v.lit >> i & 1
            and LABELS[i] != "D4"
        ]
        darkest_lit = min(luminance(patch(im, x)) for x in same_soil)
        assert luminance(patch(im, label)) < darkest_lit - 15, label


def test_great_elder_tree_is_in_no_seat_colour():
    from render import palette

    state = bare(4, elder="D4")
    im = image(render.board_png(state))
    x, y = render.space_center("D4")
    r = layout(render.DEFAULT_WIDTH).hex_r
    box = (round(x - 0.6 * r), round(y - 0.7 * r), round(x + 0.6 * r), round(y + 0.6 * r))
    data = im.crop(box).tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3], strict=True))
    for seat in range(4):
        near = sum(1 for px in pixels if colour_distance(px, palette.seat_colour(seat)) < 45)
        assert near < 5, seat
    teal = sum(1 for px in pixels if colour_distance(px, (0x2E, 0x6E, 0x62)) < 30)
    assert teal > 200


def _badge_region(label: str, beside: bool):
    """The square around an animal's badge and its glow (1.25 times its radius), inside its
    space."""
    from render.moonlight import ALONE, ANIMAL_BESIDE, animal_radius

    x, y = render.space_center(label)
    r = layout(render.DEFAULT_WIDTH).hex_r
    dx, dy = ANIMAL_BESIDE if beside else ALONE
    cx, cy = x + dx * r, y + dy * r
    b = animal_radius(beside) * r * 1.3
    return (round(cx - b), round(cy - b), round(cx + b), round(cy + b))


def _count_near(im: Image.Image, box, colour, tolerance: float = 30) -> int:
    data = im.crop(box).tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for px in pixels if colour_distance(px, colour) < tolerance)


def test_lit_animals_are_marked():
    state = full_2()  # the Squirrel (C3, on a beam) is lit; move the Badger off the light
    state = arrange(state, animals={1: ("badger", "G1")})
    v = view(state).moon
    lit = {a.animal: a.lit for a in v.animals}
    assert lit == {"squirrel": True, "badger": False}
    im = image(render.board_png(state))
    # The crescent: a dark moon cut by a bright one; and the silver halo around the badge.
    on = _count_near(im, _badge_region("C3", False), moon_sprites.MOON_DARK, 16)
    off = _count_near(im, _badge_region("G1", False), moon_sprites.MOON_DARK, 16)
    assert on > 15 and off == 0, (on, off)
    halo = [
        _count_near(im, _badge_region(x, False), moon_sprites.MOON_LIGHT, 22) for x in ("C3", "G1")
    ]
    assert halo[0] > 100 and halo[1] == 0, halo


def test_animals_carry_their_seat_colour_and_differ():
    from render import palette

    state = mid_4()
    im = image(render.board_png(state))
    for label, seat, beside in (("C3", 0, False), ("E5", 1, False), ("B2", 3, False),
                                ("F1", 2, False)):  # fmt: skip
        n = _count_near(im, _badge_region(label, beside), palette.seat_colour(seat), 40)
        assert n > 40, (label, n)
    badges = [moon_sprites.animal_badge(a, 0, 30.0)[0].convert("RGB") for a in ANIMALS]
    for i in range(len(ANIMALS)):
        for j in range(i + 1, len(ANIMALS)):
            assert mean_abs_diff(badges[i], badges[j]) > 6, (ANIMALS[i], ANIMALS[j])


def test_face_down_tokens_hide_which_token_they_are():
    """Two positions differing only in the hidden tokens give byte-identical pictures."""
    a = arrange(mid_4(), beach={"A4": "double", "G1": "light", "D1": "scoring", "A1": "seed"})
    b = arrange(mid_4(), beach={"A4": "harvest", "G1": "small", "D1": "rich", "A1": "light"})
    assert a.ext.beach != b.ext.beach
    assert render.board_png(a) == render.board_png(b)
    assert render.board_png(a, width=600) == render.board_png(b, width=600)
    # ... while where the tokens lie is shown.
    c = arrange(mid_4(), beach={"A4": "double", "G1": "light", "D1": "scoring", "G4": "seed"})
    assert render.board_png(a) != render.board_png(c)


def test_face_up_tokens_and_used_scoring_in_the_panel():
    state = mid_4()
    v = view(state).moon
    assert v.seats[1].babies == ("Rich soil", "Medium")
    assert set(v.face_down) == {LABEL_INDEX[x] for x in ("A4", "G1", "D1", "A1")}
    more = arrange(state, babies={1: list(BABIES[:2])})
    assert render.board_png(more) != render.board_png(state)


def test_lunar_points_in_the_panel():
    state = mid_4()
    assert [s.lunar for s in view(state).seats] == [5, 9, 2, 12]
    lay = layout(render.DEFAULT_WIDTH, 4, True)
    seats = [s.copy() for s in state.seats]
    seats[2].lunar = 13
    more = state.copy()
    more.seats = tuple(seats)
    a, b = image(render.board_png(state)), image(render.board_png(more))
    for seat, card in enumerate(lay.cards):
        y = lay.line(card, 5)
        row = (round(card.x), round(y - lay.s(12)), round(card.right), round(y + lay.s(12)))
        changed = mean_abs_diff(a.crop(row), b.crop(row))
        assert (changed > 1) == (seat == 2), (seat, changed)


def test_final_score_parts_when_over():
    state = over_3()
    v = view(state)
    parts = [dict(s.parts) for s in v.moon.seats]
    assert parts[0]["lunar"] == 11 and parts[1]["baby turtle"] == 3
    assert parts[2] == {"tokens": 54}
    assert [s.score for s in v.seats] == engine.scores(state)
    playing = state.copy()
    playing.phase = "play"
    playing.current_seat = 0
    lay = layout(render.DEFAULT_WIDTH, 3, True)
    a, b = image(render.board_png(state)), image(render.board_png(playing))
    box = lay.cards[1]
    row = (round(box.x), round(lay.line(box, 6) - lay.s(12)), round(box.right), round(box.bottom))
    assert mean_abs_diff(a.crop(row), b.crop(row)) > 3


def test_cynthias_trees_are_among_her_final_score_parts():
    """With the harder option her trees left on the board score (her medium tree on E5: 2),
    and her card says so where it says "no lunar points" while the game goes on."""
    state = over_3(harder_score_trees=True)
    v = view(state)
    assert dict(v.moon.seats[2].parts) == {"tokens": 54, "trees": 2}
    assert v.seats[2].score == 56 == engine.scores(state)[2]
    lay = layout(render.DEFAULT_WIDTH, 3, True)
    box = lay.cards[2]
    row = (round(box.x), round(lay.line(box, 6) - lay.s(12)), round(box.right), round(box.bottom))
    harder, plain = image(render.board_png(state)), image(render.board_png(over_3()))
    assert mean_abs_diff(harder.crop(row), plain.crop(row)) > 3
    # The first line, "Cynthia: no animal,", is the same in both.
    y = lay.line(box, 5)
    first = (round(box.x), round(y - lay.s(12)), round(box.right), round(y + lay.s(12)))
    assert mean_abs_diff(harder.crop(first), plain.crop(first)) == 0


# -- the base game, sizes and speed ----------------------------------------------------------


def test_base_game_keeps_its_layout():
    for n in (2, 3, 4):
        base = layout(render.DEFAULT_WIDTH, n)
        assert base.width > base.height and not base.moon  # landscape, for Discord
        assert layout(render.DEFAULT_WIDTH, n, True).height >= base.height
    assert layout(render.DEFAULT_WIDTH, 4, True).height > layout(render.DEFAULT_WIDTH, 4).height
    state = build(Config(seats=(H, H)), {"D4": (0, 1)})
    assert view(state).moon is None


def test_expansion_modes_without_the_moon():
    """Great Elder Tree and moonstones alone: no moon, no lunar rows, the base panels."""
    state = build(Config(seats=(H, H), elder_tree=True, moonstones=True), {"D1": (0, 2)})
    state = arrange(state, elder="D4", moonstones=["B2", "F3"])
    v = view(state).moon
    assert v.gap < 0 and not v.rows and v.shining == 0
    im = image(render.board_png(state))
    assert im.size == (render.DEFAULT_WIDTH, layout(render.DEFAULT_WIDTH, 2).height)


def test_expansion_pictures_are_small_and_scale():
    for make in (mid_4, setup_3):
        png = render.board_png(make())
        assert len(png) <= 250 * 1024
    small = image(render.board_png(mid_4(), width=500))
    assert small.width == 500


def test_whole_expansion_game_renders_within_budget():
    from render.demo import play_through, touched

    config = Config(seats=(H, H, C, C), **ALL)
    state, last = play_through(config, seed=7, rng_seed=7)
    assert state.is_over
    png = render.board_png(state, highlight=touched(last))
    assert len(png) <= 250 * 1024
    gif = render.animation([mid_4(), mid_4()], width=320)
    assert gif[:6] == b"GIF89a"


def test_rendering_in_threads_matches_serial():
    from concurrent.futures import ThreadPoolExecutor

    states = [make() for make, _ in POSITIONS.values()] * 2
    serial = [render.board_png(s) for s in states]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(render.board_png, states)) == serial


def test_preview_draws_the_moon_of_the_next_photosynthesis():
    """The Next-sun preview shows the moon where it will be when the light is collected, and
    each seat's lunar gain there."""
    state = mid_4()
    nxt = engine.next_photosynthesis_sun(state)
    gap, full = tracker(state)
    v = view(state, preview_sun=nxt).moon
    assert (v.gap, v.full, v.now_gap) == (gap, full, state.ext.moon) and gap != state.ext.moon
    assert v.lit == moonlit_next_photosynthesis(state)
    gains = [s.lunar_gain for s in view(state, preview_sun=nxt).seats]
    lit_seats = [
        k for k, a in enumerate(state.ext.at) if moonlit_next_photosynthesis(state) >> a & 1
    ]
    assert gains == [(2 if full else 1) if k in lit_seats else 0 for k in range(4)]
    assert lit_seats  # the position has a seat that gains
    a = image(render.board_png(state))
    b = image(render.board_png(state, preview_sun=nxt))
    x, y = render.gap_point(gap)
    assert colour_distance(a.getpixel((x, y)), b.getpixel((x, y))) > 60  # the moon moved there
    assert view(state).moon.gap == state.ext.moon  # without a preview: where it is now


def test_animal_row_counts_the_items_that_do_not_fit():
    # A Turtle's row: its two abilities, then every face-up Baby Turtle token. The items flow
    # after the animal's name (x 100, row 10), then from x 20 on row 36, up to x 200.
    from render.moonlight import flow

    def more(n):
        return 10 + 5 * len(str(n))  # " +n"

    placed, hidden, end = flow([30, 40, 50, 60, 50, 30], 6, more, (100, 10), (20, 36), 200)
    # Row 1: 100+6+30 = 136, then 136+6+40 = 182 (50 more would pass 200). Row 2: 20+50 = 70,
    # 70+6+60 = 136; the fifth item (50) would end at 192, but its " +1" (15) at 207: the last
    # two are counted, " +2" at 136.
    assert placed == [(100, 10, True), (136, 10, True), (20, 36, False), (70, 36, True)]
    assert (hidden, end) == (2, (136, 36))
    assert end[0] + more(hidden) <= 200
    # Everything fits: nothing counted, the row ends after the last item.
    assert flow([30, 30], 6, more, (100, 10), (20, 36), 200) == (
        [(100, 10, True), (136, 10, True)],
        0,
        (172, 10),
    )
    # The last item needs no room for a count after it.
    placed, hidden, _end = flow([90, 140, 30], 6, more, (100, 10), (20, 36), 200)
    assert (len(placed), hidden) == (3, 0)
