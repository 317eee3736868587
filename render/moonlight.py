"""Under the Moonlight in the picture: the moon and its beams, the Moon Phase Tracker, animals,
the Great Elder Tree, moonstones, the Dam, the river and beaches, Baby Turtle tokens, and the
expansion's rows in the seat panels.

Everything is read from ``model.MoonView`` (itself read from the engine); nothing here decides a
rule. The composer (``draw.render_image``) adds these layers to the base game's; the base game
never reaches this module.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import cast

from PIL import Image, ImageChops, ImageDraw

from engine.geometry import LABEL_INDEX, LABELS, N_CELLS
from engine.moon import BEACHES, BEAMS, BORDER, FULL, HALF, N_GAPS, PHASE_TITLES, RIVER
from engine.moonlight.names import ANIMAL_INDEX, ANIMAL_TITLES
from translation import _, _p, is_right_to_left, join

from . import moon_sprites as MS
from . import palette as P
from . import sprites, stamps, text
from .layout import MIN_TEXT, Box, Layout, hex_points
from .model import MoonSeatView, MoonView, SeatView, View

#: Opacity (0..255) of the moonlight: the wide band of a beam, its bright core, and the glow on
#: every space where an animal is lit (the beams' spaces and the spaces by shining moonstones).
BEAM_EDGE_A = 100
BEAM_WIDE_A = 100
BEAM_CORE_A = 100
LIT_A = 72
#: Width of a beam's band, its bright edges and its core, in units of the hex radius.
BEAM_WIDE = 0.9
BEAM_EDGE = 0.05
BEAM_CORE = 0.36

RIVER_WATER: P.RGB = (0x3C, 0x8C, 0xD6)
RIVER_A = 96
SAND: P.RGB = (0xF2, 0xDE, 0xA4)
SAND_A = 170
LOG: P.RGB = (0x8A, 0x5A, 0x2E)
LOG_DARK: P.RGB = (0x4E, 0x30, 0x16)
LOG_END: P.RGB = (0xD8, 0xB0, 0x78)

#: Where things stand in a space, in units of the hex radius from its centre: alone (middle),
#: or sharing the space with a piece (the animal at the lower right, a token at the lower left).
ALONE = (0.0, 0.16)
ANIMAL_BESIDE = (0.44, 0.26)
TOKEN_BESIDE = (-0.5, 0.32)
#: An animal's badge radius, units of the hex radius: alone on its space, and beside a piece
#: (at 360 px wide a badge of 0.37 was 17 px across, its fox or beaver a smudge).
ANIMAL_R_ALONE = 0.5
ANIMAL_R = 0.46


def animal_radius(crowded: bool) -> float:
    """The badge radius of an animal alone on its space or sharing it (units of hex radius)."""
    return ANIMAL_R if crowded else ANIMAL_R_ALONE


def gap_words(gap: int) -> str:
    """The two border spaces of a gap, e.g. ``F1–E1``."""
    return f"{LABELS[BORDER[gap]]}–{LABELS[BORDER[(gap + 1) % N_GAPS]]}"


# -- ground: river, beaches, the Dam, moonlight ----------------------------------------------


@lru_cache(maxsize=8)
def _water(hex_r: float) -> tuple[Image.Image, tuple[int, int]]:
    mask, (mx, my) = sprites.hex_mask(hex_r, inset=0.955)
    im = Image.new("RGBA", mask.size, RIVER_WATER + (0,))
    im.putalpha(mask.point(lambda a: a * RIVER_A // 255))
    big = Image.new("RGBA", (mask.width * sprites.SS, mask.height * sprites.SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    R = hex_r * sprites.SS
    cx, cy = mx * sprites.SS, my * sprites.SS
    for dy, half in ((0.3, 0.42),):
        pts = []
        for k in range(25):
            t = -half + 2 * half * k / 24
            pts.append((cx + t * R, cy + (dy + 0.045 * math.sin(t * 14)) * R))
        d.line(pts, fill=(0xE8, 0xF4, 0xFF, 150), width=max(1, round(R * 0.035)), joint="curve")
    waves = sprites._down(big, mask.size)
    im.alpha_composite(waves)
    return im, (mx, my)


@lru_cache(maxsize=8)
def _sand(hex_r: float, ring_only: bool) -> tuple[Image.Image, tuple[int, int]]:
    mask, (mx, my) = sprites.hex_mask(hex_r, inset=0.955)
    if ring_only:  # a beach on the river: a sandy shore around the water
        inner, _anchor = sprites.hex_mask(hex_r, inset=0.72)
        mask = ImageChops.subtract(mask, inner)
    im = Image.new("RGBA", mask.size, SAND + (0,))
    im.putalpha(mask.point(lambda a: a * SAND_A // 255))
    return im, (mx, my)


def draw_ground(im: Image.Image, lay: Layout, v: View) -> None:
    """What lies on the soil under the shadows: river, beaches, the Dam and the moonlight."""
    mv = cast(MoonView, v.moon)  # drawn only in a game with the expansion
    R = lay.hex_r
    if mv.river:
        spr, a = _water(R)
        for i in RIVER:
            stamps.paste_at(im, spr, a, *lay.centres[i])
    if mv.beaches:
        for i in BEACHES:
            spr, a = _sand(R, mv.river and i in RIVER)
            stamps.paste_at(im, spr, a, *lay.centres[i])
    if mv.dam:
        spr, (x0, y0) = _dam_layer(lay, mv.dam)
        im.paste(spr, (x0, y0), spr)


def draw_moonlight(im: Image.Image, lay: Layout, v: View) -> None:
    """The beams and the glow of the lit spaces (over the sun's shadows: both count); the
    labels are drawn again over them (``board.draw_labels``)."""
    mv = cast(MoonView, v.moon)  # drawn only in a game with the expansion
    if mv.gap >= 0:
        mask, (x0, y0) = _moonlight_mask(lay, mv.gap, mv.beams, mv.blocked, mv.lit)
        im.paste(MS.MOON_LIGHT, (x0, y0, x0 + mask.width, y0 + mask.height), mask)


def _board_box(lay: Layout) -> tuple[int, int, int, int]:
    cx, cy = lay.board_centre
    r = lay.hex_r
    return (
        math.floor(cx - 7.0 * r),
        math.floor(cy - 6.2 * r),
        math.ceil(cx + 7.0 * r),
        math.ceil(cy + 6.2 * r),
    )


@lru_cache(maxsize=64)
def _moonlight_mask(
    lay: Layout,
    gap: int,
    beams: tuple[tuple[int, ...], ...],
    blocked: tuple[bool, ...],
    lit: int,
) -> tuple[Image.Image, tuple[int, int]]:
    """An "L" mask of the moonlight over the board: each beam as a soft band from the moon
    along its lit spaces (stopping at the Great Elder Tree), and a glow on every lit space."""
    x0, y0, x1, y1 = _board_box(lay)
    R = lay.hex_r
    mx, my = lay.gaps[gap]

    SS = sprites.SS
    wide = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
    d = ImageDraw.Draw(wide)
    paths = []
    for beam, full_beam, stopped in zip(beams, BEAMS[gap], blocked, strict=True):
        pts = [(mx - x0, my - y0)]
        centres = [(lay.centres[i][0] - x0, lay.centres[i][1] - y0) for i in beam]
        pts += centres
        if stopped:  # to the edge of the Great Elder Tree's space
            ex, ey = lay.centres[full_beam[len(beam)]]
            lx, ly = pts[-1]
            ex, ey = ex - x0, ey - y0
            dist = math.hypot(ex - lx, ey - ly)
            keep = max(0.0, dist - 0.8 * R) / dist
            pts.append((lx + (ex - lx) * keep, ly + (ey - ly) * keep))
        else:  # through the last space to the board's edge
            (ax, ay), (bx, by) = pts[-2], pts[-1]
            step = math.hypot(bx - ax, by - ay) or 1.0
            pts.append((bx + (bx - ax) / step * 0.75 * R, by + (by - ay) / step * 0.75 * R))
        paths.append([(x * SS, y * SS) for x, y in pts])
    # Drawn supersampled and scaled down: smooth edges one pixel wide (a blur would cost many
    # more PNG bytes).
    for fill, w in (
        (BEAM_EDGE_A, BEAM_WIDE + 2 * BEAM_EDGE),
        (BEAM_WIDE_A, BEAM_WIDE),
        (BEAM_CORE_A, BEAM_CORE),
    ):
        for pts in paths:
            d.line(pts, fill=fill, width=round(w * R * SS), joint="curve")
    wide = wide.reduce(SS)
    glow = Image.new("L", wide.size, 0)
    hmask, (hx, hy) = sprites.hex_mask(R, inset=0.955)
    on_beams = {i for beam in beams for i in beam}
    for i in range(N_CELLS):
        if lit >> i & 1 and i not in on_beams:  # lit by a shining moonstone
            x, y = lay.centres[i]
            px, py = round(x - x0) - hx, round(y - y0) - hy
            glow.paste(LIT_A, (px, py, px + hmask.width, py + hmask.height), hmask)
    return ImageChops.lighter(wide, glow), (x0, y0)


def _hex_edges(
    lay: Layout, spaces: Iterable[int]
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The outline of a group of spaces: edges of their hexagons not shared by two of them."""
    Point = tuple[float, float]
    count: dict[tuple[tuple[int, int], ...], int] = {}
    seg: dict[tuple[tuple[int, int], ...], tuple[Point, Point]] = {}
    for i in spaces:
        pts = hex_points(*lay.centres[i], lay.hex_r)
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            key = tuple(sorted(((round(a[0]), round(a[1])), (round(b[0]), round(b[1])))))
            count[key] = count.get(key, 0) + 1
            seg[key] = (a, b)
    return [seg[k] for k, n in count.items() if n == 1]


@lru_cache(maxsize=32)
def _dam_layer(lay: Layout, spaces: tuple[int, ...]) -> tuple[Image.Image, tuple[int, int]]:
    """The Dam: a band of logs through its three spaces and a wooden edge around them."""
    R = lay.hex_r
    xs = [lay.centres[i][0] for i in spaces]
    ys = [lay.centres[i][1] for i in spaces]
    x0, y0 = math.floor(min(xs) - R * 1.1), math.floor(min(ys) - R * 1.2)
    x1, y1 = math.ceil(max(xs) + R * 1.1), math.ceil(max(ys) + R * 1.2)
    SS = sprites.SS
    big = Image.new("RGBA", ((x1 - x0) * SS, (y1 - y0) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)

    def p(x: float, y: float) -> tuple[float, float]:
        return ((x - x0) * SS, (y - y0) * SS)

    # A wooden wash over the three spaces.
    for i in spaces:
        d.polygon([p(*q) for q in hex_points(*lay.centres[i], R * 0.955)], fill=LOG + (85,))
    # The edge: logs around the three spaces, each with a grain line and cut ends.
    edges = _hex_edges(lay, spaces)
    w = R * 0.17 * SS
    for a, b in edges:
        d.line([p(*a), p(*b)], fill=LOG_DARK + (255,), width=round(w))
    for a, b in edges:
        d.line([p(*a), p(*b)], fill=LOG + (255,), width=round(w * 0.62))
    for a, _b in edges:
        r = w * 0.55
        x, y = p(*a)
        d.ellipse((x - r, y - r, x + r, y + r), fill=LOG_END + (255,), outline=LOG_DARK + (255,),
                  width=max(1, round(r * 0.3)))  # fmt: skip
    return sprites._down(big, (x1 - x0, y1 - y0)), (x0, y0)


# -- objects on the spaces -------------------------------------------------------------------


def draw_board_objects(im: Image.Image, lay: Layout, v: View) -> None:
    """Pieces, the Great Elder Tree, moonstones, face-down Baby Turtle tokens and animals, space
    by space in reading order (lower spaces overlap upper ones, as for the pieces)."""
    mv = cast(MoonView, v.moon)  # drawn only in a game with the expansion
    R = lay.hex_r
    pieces = {LABEL_INDEX[label]: p for label, p in v.pieces.items()}
    animals = {a.space: a for a in mv.animals}
    tokens = set(mv.face_down)
    for i in range(N_CELLS):
        x, y = lay.centres[i]
        piece = pieces.get(i)
        stone = bool(mv.stones >> i & 1)
        crowded = piece is not None or i == mv.elder or stone
        if i in tokens:
            spr, a = MS.face_down_token(R)
            dx, dy = TOKEN_BESIDE if crowded or i in animals else ALONE
            stamps.paste_at(im, spr, a, x + dx * R, y + dy * R)
        if piece is not None:
            stamps.paste_piece(im, lay, i, *piece)
        if i == mv.elder:
            spr, a = MS.elder(R)
            stamps.paste_at(im, spr, a, x, y + MS.ELDER_FOOT * R)
        if stone:
            spr, a = MS.stone(R, bool(mv.shining >> i & 1))
            stamps.paste_at(im, spr, a, x, y + 0.2 * R)
        animal = animals.get(i)
        if animal is not None:
            beside = crowded or i in tokens
            radius = animal_radius(beside) * R
            spr, a = MS.animal_badge(animal.animal, animal.seat, radius, animal.lit)
            dx, dy = ANIMAL_BESIDE if beside else ALONE
            stamps.paste_at(im, spr, a, x + dx * R, y + dy * R)


def draw_moon(im: Image.Image, lay: Layout, v: View) -> None:
    """The moon at its gap (Half or Full), and a faint ring where it goes next (in a preview,
    the moon where it will be at the next photosynthesis and a ring where it is now)."""
    mv = cast(MoonView, v.moon)  # drawn only in a game with the expansion
    if mv.gap < 0:
        return
    ring = mv.now_gap if v.preview else mv.next_gap
    if ring >= 0 and ring != mv.gap and v.phase != "over":
        spr, a = MS.moon_ring(lay.moon_r)
        stamps.paste_at(im, spr, a, *lay.gaps[ring])
    x, y = lay.gaps[mv.gap]
    cx, cy = lay.board_centre
    towards = round(math.degrees(math.atan2(cy - y, cx - x)))
    spr, a = MS.moon(lay.moon_r, mv.full, towards)
    stamps.paste_at(im, spr, a, x, y)


# -- beside the board ------------------------------------------------------------------------


def phase_word(full: bool) -> str:
    return PHASE_TITLES[FULL if full else HALF]


def header_line(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, v: View, y: float,
                size: float | None = None, from_right: bool = False) -> None:  # fmt: skip
    """The Moon Phase Tracker in the strip's header: the moon now and where it goes next (in a
    preview: where it will be at the next photosynthesis). ``size``: of the text (default
    ``MIN_TEXT``); ``from_right``: the line starts at the header's right edge (the phone
    picture in a right-to-left language)."""
    mv = cast(MoonView, v.moon)  # drawn only in a game with the expansion
    if mv.now_gap < 0:
        return
    s_ = lay.s
    h = lay.header
    r, gap = (s_(10), s_(6)) if size is None else (size * 0.45, size * 0.5)
    size = s_(MIN_TEXT) if size is None else size
    spr, a = MS.moon(r, mv.full, 180)
    x = h.right - s_(4) - 2 * r if from_right else h.x + s_(4)
    # a right-to-left line from the left edge: the moon's picture after the text, beside the
    # gap it stands at (where the line starts reading)
    after = is_right_to_left(v.lang) and not from_right
    if not after:
        stamps.paste_at(im, spr, a, x + r, y)
    if v.preview:
        line = _("then {phase} Moon at {gap}", phase=phase_word(mv.full), gap=gap_words(mv.gap))
    elif v.phase == "over":
        line = _("{phase} Moon at {gap}", phase=phase_word(mv.now_full),
                 gap=gap_words(mv.now_gap))  # fmt: skip
    else:
        # the moon's picture before the line shows the phase now; the next one is said whole
        # ("Pleine lune", "ירח מלא"), which the line's room holds only once
        line = _("{gap} → {next_phase} {next_gap}", gap=gap_words(mv.now_gap),
                 next_phase=phase_word(mv.next_full), next_gap=gap_words(mv.next_gap))  # fmt: skip
    if from_right:
        room = x - gap - h.x
        words = text.fit(v.t(line), size, room)
        text.draw(d, (x - gap - text.width(words, size), y), words, size, MS.LUNAR_ON,
                  anchor="lm")  # fmt: skip
        return
    if after:
        words = text.fit(v.t(line), size, h.right - x - 2 * r - gap)
        width = text.draw(d, (x, y), words, size, MS.LUNAR_ON, anchor="lm")
        stamps.paste_at(im, spr, a, x + width + gap + r, y)
        return
    x += 2 * r + gap
    text.draw(d, (x, y), text.fit(v.t(line), size, h.right - x), size, MS.LUNAR_ON, anchor="lm")


#: Score parts in the cards (the engine's names, shortened).
PART_WORDS = {
    "baby turtle": _p("score", "turtle"),
    "lunar": _p("score", "lunar"),
    "light": _p("score", "light"),
    "trees": _p("score", "trees"),
}


def parts_line(d: ImageDraw.ImageDraw, ms: MoonSeatView, s: SeatView, v: View,
               at: tuple[float, float], size: float, right: float) -> None:  # fmt: skip
    """The final score's parts, ``50 + 2 light + 6 lunar = 58``: the tokens first, then each
    other part that scored."""
    parts = dict(ms.parts)
    shown = [str(parts.pop("tokens", 0))]
    shown += [
        _("{value} {part}", value=value, part=PART_WORDS.get(n, n))
        for n, value in parts.items()
        if value
    ]
    line = _("{parts} = {score}", parts=join(shown, " + "), score=s.score)
    text.draw(d, at, text.fit(v.t(line), size, right - at[0]), size, P.TEXT, anchor="lm")


def card_row(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, box: Box, s: SeatView,
             ms: MoonSeatView, v: View, y: float) -> None:  # fmt: skip
    """A seat's expansion rows: lunar points and its animal; under them the animal's abilities
    (used ones struck through) and face-up Baby Turtle tokens, or the final score parts."""
    s_ = lay.s
    d = text.mirrored(d, box, is_right_to_left(v.lang))  # a right-to-left card
    size = s_(MIN_TEXT)
    x = box.x + s_(14)
    right = box.right - s_(10)
    y2 = y + s_(26)
    if s.is_cynthia:
        text.draw(d, (x, y), text.fit(v.t(_("Cynthia: no animal,")), size, right - x), size,
                  P.TEXT_DIM, anchor="lm")  # fmt: skip
        if any(value for n, value in ms.parts if n != "tokens"):  # her trees (harder option)
            parts_line(d, ms, s, v, (x, y2), size, right)
            return
        text.draw(d, (x, y2), text.fit(v.t(_("no lunar points")), size, right - x), size,
                  P.TEXT_DIM, anchor="lm")  # fmt: skip
        return
    r = s_(9)
    spr, a = MS.moon(r, True, 180)
    text.paste(im, d, spr, (round(x + r) - a[0], round(y) - a[1]))
    x += 2 * r + s_(5)
    x += text.draw(d, (x, y), str(s.lunar), s_(22), MS.LUNAR_ON, bold=True, anchor="lm")
    if s.lunar_gain is not None:
        x += s_(3) + text.draw(d, (x + s_(3), y), f"+{s.lunar_gain}", size, MS.LUNAR_ON,
                               bold=True, anchor="lm")  # fmt: skip
    x += s_(10)
    x2 = box.x + s_(14)
    if ms.parts:
        parts_line(d, ms, s, v, (x2, y2), size, right)
    if ms.animal is None:
        word: str = _("choosing an animal") if ms.choosing else _("no animal yet")
        text.draw(d, (x, y), text.fit(v.t(word), size, right - x), size, P.TEXT_DIM, anchor="lm")
        return
    ic = MS.animal_icon(ms.animal, round(s_(12)), s.index)
    text.paste(im, d, ic, (x, y - ic.height / 2))
    x += ic.width + s_(5)
    index = ANIMAL_INDEX.get(ms.animal)
    title = v.t(ANIMAL_TITLES[index]) if index is not None else ms.animal.title()
    x += text.draw(d, (x, y), text.fit(title, size, right - x, True), size, P.TEXT, bold=True,
                   anchor="lm")  # fmt: skip
    if ms.parts:
        return
    items = [(v.t(name), used, False) for name, used in ms.abilities]
    items += [(v.t(baby), False, True) for baby in ms.babies]
    items += [(v.t(_("Scoring +{n}", n=3 * ms.scoring)), True, True)] if ms.scoring else []
    items += [(v.t(_("Rich soil next")), True, True)] if ms.rich else []
    placed, hidden, end = flow(
        [text.width(word, size) for word, _used, _chip in items],
        text.width(" · ", size),
        lambda n: text.width(f" +{n}", size),
        (x, y),
        (x2, y2),
        right,
    )
    for (word, used, chip), (ix, iy, sep) in zip(items, placed):
        if sep:
            ix += text.draw(d, (ix, iy), " · ", size, P.TEXT_DIM, anchor="lm")
        ink = (0xE8, 0xD6, 0xA8) if chip else (P.TEXT_DIM if used else P.TEXT)
        w = text.draw(d, (ix, iy), word, size, ink, anchor="lm")
        if used and not chip:  # used this turn: struck through
            d.line((ix, iy, ix + w, iy), fill=P.TEXT_DIM, width=max(1, round(s_(1.5))))
    if hidden:  # the space before the count as a gap: it stays between, mirrored or not
        gap = text.width(" ", size)
        text.draw(d, (end[0] + gap, end[1]), f"+{hidden}", size, P.TEXT_DIM, anchor="lm")


def flow(
    widths: list[float],
    sep: float,
    more: Callable[[int], float],
    first: tuple[float, float],
    second: tuple[float, float],
    right: float,
) -> tuple[list[tuple[float, float, bool]], int, tuple[float, float]]:
    """Where the items of a seat's animal row go: after the animal's name (the point
    ``first``), each after a separator ``sep`` wide, then on the row below from ``second``
    (its first item without one), up to ``right``. Returns each shown item's ``(x, y, after a
    separator)``, how many did not fit and where the row ends: those are counted there ("+3",
    ``more(n)`` wide), and the count always fits too."""
    placed: list[tuple[float, float, bool]] = []
    (x, y), gap = first, sep
    for i, w in enumerate(widths):
        if y == first[1] and x + gap + w > right:
            (x, y), gap = second, 0
        left = len(widths) - i - 1
        if y == second[1] and x + gap + w + (more(left) if left else 0) > right:
            return placed, len(widths) - i, (x, y)
        placed.append((x, y, gap > 0))
        x, gap = x + gap + w, sep
    return placed, 0, (x, y)
