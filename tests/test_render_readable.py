"""The board read on a phone (issue 56, item 3): at 360 px wide the trees and the Great Elder
Tree covered the labels of A4, B5, E2 and F5, the fox and beaver were smudges, and a shaded
space looked like 4-leaf soil. Labels are now drawn over everything, animals are larger, and
the shadow turns a space blue-grey, unlike any soil."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops, ImageStat

from engine import Config, GameState
from engine.config import SeatKind
from engine.geometry import LABEL_INDEX, LABELS, LEAVES
from engine.moonlight import arrange
from engine.position import build
from render import draw, moon_sprites, moonlight, sprites, stamps
from render.layout import Layout, layout, phone_layout
from render.model import View, view

H: SeatKind = "human"
MOON = Config(seats=(H,) * 4, moon_animals=True, elder_tree=True, moonstones=True)
BASE = Config(seats=(H,) * 4)
WIDTH = 590
ANIMALS = ("fox", "beaver", "owl", "turtle", "boar", "hedgehog", "squirrel", "badger")
#: Where the Great Elder Tree stands in each position: the spaces whose labels it covered, and
#: the middle.
ELDERS = ("A4", "B5", "E2", "F5", "D4")


def full_board(k: int, moon: bool) -> GameState:
    """A tree on every space (but the Great Elder Tree's): 8 large, 16 medium, the rest small,
    the large ones on the ``k``-th eight spaces, so that over k = 0..4 every space has a large
    tree once; with the expansion, the Elder on ``ELDERS[k]`` and four animals beside trees
    (all eight over two positions), one on the space below-right of the Elder."""
    elder = ELDERS[k] if moon else None
    order = [n for n in LABELS[8 * k :] + LABELS[: 8 * k] if n != elder]
    board = {n: (j % 4, 3 if j < 8 else 2 if j < 24 else 1) for j, n in enumerate(order)}
    state = build(MOON if moon else BASE, board, light=[5] * 4, round=5)
    if not moon:
        return state
    spots = [n for n in ("A3", "B4", "E1", "F4", "C3", "D3", "G2", "E5") if n != elder][:4]
    group = ANIMALS[4 * (k % 2) : 4 * (k % 2) + 4]
    animals = {seat: (group[seat], spot) for seat, spot in enumerate(spots)}
    return arrange(state, animals=animals, elder=elder, lunar=[3] * 4)


def layout_of(v: View, name: str, width: int = WIDTH) -> Layout:
    """The layout ``render.draw.compose`` draws ``v`` with."""
    mv = v.moon
    rows, moon = mv is not None and mv.rows, mv is not None and mv.gap >= 0
    if name == "phone":
        return phone_layout(width, rows, moon)
    return layout(width, len(v.seats), rows, moon)


def covered_labels(im: Image.Image, lay: Layout) -> list[str]:
    """The labels some of whose opaque pixels (white letters, dark outline) are not in the
    picture as the label draws them: something was drawn over them."""
    out = []
    for i, name in enumerate(LABELS):
        spr, (x, y) = stamps.label_at(lay, i)
        region = im.crop((x, y, x + spr.width, y + spr.height)).convert("RGB")
        opaque = spr.getchannel("A").point(lambda a: 255 if a == 255 else 0)
        r, g, b = ImageChops.difference(region, spr.convert("RGB")).split()
        off = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v > 8 else 0)
        if ImageChops.multiply(off, opaque).getbbox() is not None:
            out.append(name)
    return out


def overlapping(lay: Layout, v: View) -> set[str]:
    """The labels whose box meets the opaque part of a tree, the Great Elder Tree or an animal
    where the board puts them (the geometry the check above is about)."""
    R = lay.hex_r
    boxes = []

    def put(spr: Image.Image, anchor: tuple[int, int], x: float, y: float) -> None:
        box = spr.getchannel("A").getbbox()
        if box is not None:
            left, top = round(x) - anchor[0], round(y) - anchor[1]
            boxes.append((left + box[0], top + box[1], left + box[2], top + box[3]))

    for label, (seat, size) in v.pieces.items():
        x, y = lay.centres[LABEL_INDEX[label]]
        spr, anchor = sprites.tree(seat, size, R)
        put(spr, anchor, x, y + R * (sprites.SEED_Y if size == 0 else sprites.TREE_FOOT))
    if v.moon is not None:
        if v.moon.elder >= 0:
            x, y = lay.centres[v.moon.elder]
            put(*moon_sprites.elder(R), x, y + moon_sprites.ELDER_FOOT * R)
        for a in v.moon.animals:
            x, y = lay.centres[a.space]
            radius = moonlight.animal_radius(True) * R
            dx, dy = moonlight.ANIMAL_BESIDE
            put(*moon_sprites.animal_badge(a.animal, a.seat, radius, a.lit), x + dx * R, y + dy * R)
    out = set()
    for i, name in enumerate(LABELS):
        spr, (x, y) = stamps.label_at(lay, i)
        if any(x < bx1 and bx0 < x + spr.width and y < by1 and by0 < y + spr.height
               for bx0, by0, bx1, by1 in boxes):  # fmt: skip
            out.add(name)
    return out


@pytest.mark.parametrize("layout_name", ["phone", "wide"])
@pytest.mark.parametrize("moon", [True, False], ids=["expansion", "base"])
def test_no_label_is_covered_with_trees_on_every_space(moon: bool, layout_name: str) -> None:
    met: set[str] = set()
    for k in range(len(ELDERS)):
        state = full_board(k, moon)
        v = view(state)
        lay = layout_of(v, layout_name)
        im = draw.render_image(state, width=WIDTH, layout=layout_name)
        assert covered_labels(im, lay) == [], k
        met |= overlapping(lay, v)
    # The crowns, the Elder and the animals do reach the labels: the check above is not empty.
    assert {"A4", "B5", "E2", "F5"} <= met
    assert len(met) >= 30, sorted(met)


def test_an_animal_keeps_clear_of_its_own_label() -> None:
    """An animal sharing a space stands at its lower right, alone in the middle: its badge
    never meets its own space's label, at any size it is drawn (a lit one's glow may pass
    under it)."""
    for display in (360, 400, 550):
        lay = phone_layout(display)
        R = lay.hex_r
        for beside in (True, False):
            spr, (ax, ay) = moon_sprites.animal_badge(
                "beaver", 0, moonlight.animal_radius(beside) * R
            )
            box = spr.getchannel("A").getbbox()
            assert box is not None
            i = LABEL_INDEX["D4"]
            x, y = lay.centres[i]
            dx, dy = moonlight.ANIMAL_BESIDE if beside else moonlight.ALONE
            top = round(y + dy * R) - ay + box[1]
            label, (_lx, ly) = stamps.label_at(lay, i)
            assert top >= ly + label.height, (display, beside, top, ly + label.height)


def badge_diameter_at(display: int) -> dict[str, float]:
    """Each animal's badge diameter in pixels when the phone picture is shown ``display`` px
    wide, alone on a space and beside a piece."""
    lay = phone_layout(display)
    return {
        "alone": 2 * moonlight.animal_radius(False) * lay.hex_r,
        "beside": 2 * moonlight.animal_radius(True) * lay.hex_r,
    }


def test_animals_are_large_enough_at_360_px() -> None:
    """At 360 px wide a badge was 17 px across (its picture 12): now at least 20 beside a tree
    and 22 alone, and every animal's picture differs from every other's at that size."""
    size = badge_diameter_at(360)
    assert size["beside"] >= 20 and size["alone"] >= 22, size
    r = size["beside"] / 2
    badges = [moon_sprites.animal_badge(a, 0, r)[0].convert("RGB") for a in ANIMALS]
    for i in range(len(ANIMALS)):
        for j in range(i + 1, len(ANIMALS)):
            stat = ImageStat.Stat(ImageChops.difference(badges[i], badges[j]))
            assert sum(stat.mean) / 3 > 6, (ANIMALS[i], ANIMALS[j])


# -- shade ---------------------------------------------------------------------------------------

#: Trees whose shadows (sun 2, the first round's) fall on empty spaces of soils 1 to 3, with
#: heights 1 to 3, and leave empty spaces of each soil unshaded; a tree on E4 shades D4 (the
#: only 4-leaf space) with the tree's height.
SHADE_BOARD = {
    "G1": (0, 3), "B4": (1, 2), "D5": (0, 1), "G3": (1, 1), "G4": (0, 2), "E3": (1, 3),
    "A4": (0, 1), "F2": (1, 1), "D7": (0, 1),
}  # fmt: skip


def lab(colour: Sequence[float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""

    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: Sequence[float], b: Sequence[float]) -> float:
    """CIE76 colour difference."""
    return math.dist(lab(a), lab(b))


def soil_colours(layout_name: str) -> dict[tuple[int, int], list[float]]:
    """The mean colour of the middle of empty spaces, by (soil leaves, shadow height), as drawn."""
    out: dict[tuple[int, int], list[float]] = {}
    boards = [SHADE_BOARD] + [{"E4": (0, h)} for h in (1, 2, 3)]
    for board in boards:
        state = build(Config(seats=(H, H)), board, light=[3, 3], round=3)
        v = view(state)
        lay = layout_of(v, layout_name)
        im = draw.render_image(state, width=WIDTH, layout=layout_name)
        R = lay.hex_r
        for i, name in enumerate(LABELS):
            if name in board:
                continue
            x, y = lay.centres[i]
            patch = im.crop((round(x - 0.3 * R), round(y - 0.3 * R), round(x + 0.3 * R),
                             round(y + 0.35 * R)))  # fmt: skip
            out.setdefault((LEAVES[i], v.shadows[i]), ImageStat.Stat(patch).mean)
    return out


@pytest.mark.parametrize("layout_name", ["phone", "wide"])
def test_a_shaded_space_is_unlike_every_soil(layout_name: str) -> None:
    """Shaded spaces of each soil, at every shadow height, measured in the picture against the
    four soils unshaded: the nearest is at least 25 apart (CIE76 ΔE; the soils are 15 to 45
    apart). It was 10: a 3-leaf space in a small tree's shadow against the 4-leaf soil."""
    colours = soil_colours(layout_name)
    soils = [colours[(leaves, 0)] for leaves in (1, 2, 3, 4)]
    shaded = {key: c for key, c in colours.items() if key[1] > 0}
    assert {(leaves, 1) for leaves in (1, 2, 3, 4)} <= set(shaded)
    assert len(shaded) >= 10
    nearest = {key: min(delta_e(c, soil) for soil in soils) for key, c in shaded.items()}
    assert min(nearest.values()) >= 25, nearest
    # Taller trees still cast darker shadows.
    for leaves in (1, 2, 3, 4):
        heights = [colours[(leaves, h)] for h in (1, 2, 3) if (leaves, h) in colours]
        lightness = [lab(c)[0] for c in heights]
        assert lightness == sorted(lightness, reverse=True), (leaves, lightness)


def test_a_shaded_space_shows_its_leaves() -> None:
    """The leaf pips of a shaded space are drawn over its shadow, in the colours of a lit
    space's (under the shadow they were dimmed into it)."""
    from render import palette

    state = build(Config(seats=(H, H)), SHADE_BOARD, light=[3, 3], round=3)
    v = view(state)
    lay = layout_of(v, "phone")
    im = draw.render_image(state, width=WIDTH, layout="phone")
    R = lay.hex_r
    seen = 0
    for i, name in enumerate(LABELS):
        if name in SHADE_BOARD or not v.shadows[i]:
            continue
        x, y = lay.centres[i]
        row = im.crop((round(x - 0.5 * R), round(y + 0.65 * R), round(x + 0.5 * R),
                       round(y + 0.95 * R))).tobytes()  # fmt: skip
        pip = palette.LEAF_PIP[LEAVES[i]]
        near = sum(
            1 for p in zip(row[0::3], row[1::3], row[2::3], strict=True) if math.dist(p, pip) < 12
        )
        assert near >= 2 * LEAVES[i], (name, near)
        seen += 1
    assert seen >= 8
