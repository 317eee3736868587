"""Everything around the board: the seat panels, the round, the scoring piles, the sun box."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.geometry import DIRECTION_NAMES, SHADOW_DIRECTION, SUN_CORNER_NAMES

from . import moonlight, sprites
from . import palette as P
from .fonts import font
from .layout import Box, Layout
from .model import SeatView, View

#: Where the shadows fall for each sun position.
SHADOW_TOWARDS = tuple(DIRECTION_NAMES[d] for d in SHADOW_DIRECTION)
PIECE_WORDS = ("seed", "small", "medium", "large")
#: What the setup is about, by the current setup decision (two lines under "Setup").
SETUP_LINES = {
    "tree": ("Starting trees on", "the border spaces"),
    "animal": ("Each keeps one of", "two animals"),
    "settle": ("Animals go to empty", "3-leaf spaces"),
    "elder": ("Placing the Great", "Elder Tree"),
    "moonstone": ("Placing the", "moonstones"),
}
#: Heights of the piece icons in the panels (design units), by size.
ICON_H = (15, 22, 28, 32)


def _rel(lay: Layout, box: Box, dx: float, dy: float) -> tuple[float, float]:
    return box.x + lay.s(dx), box.y + lay.s(dy)


def draw_static_panels(im: Image.Image, lay: Layout) -> None:
    """Panel frames and captions, drawn once into the cached base."""
    d = ImageDraw.Draw(im)
    cap = font(lay.s(13), bold=True)
    sh = lay.panel_shift
    for seat, box in enumerate(lay.panels):
        d.rounded_rectangle(
            box.ints(),
            radius=round(lay.s(14)),
            fill=P.PANEL_BG,
            outline=P.PANEL_EDGE,
            width=max(1, round(lay.s(1.5))),
        )
        x0, y0, _, y1 = box.ints()
        d.rounded_rectangle(
            (x0, y0, x0 + round(lay.s(9)), y1), radius=round(lay.s(5)), fill=P.seat_colour(seat)
        )
        for dx, dy, text in ((24, 96, "AVAILABLE"), (246, 96, "STORE  (next price)"),
                             (24, 157, "TOKENS")):  # fmt: skip
            x, y = _rel(lay, box, dx, dy)
            d.text((x, y + sh), text, font=cap, fill=P.TEXT_DIM)
    tb = lay.title_box
    d.text((tb.x, tb.y), "PHOTOSYNTHESIS", font=font(lay.s(15), bold=True), fill=P.TEXT_DIM)
    pb = lay.piles_box
    d.text(
        (pb.right, pb.y),
        "SCORING PILES",
        font=font(lay.s(15), bold=True),
        fill=P.TEXT_DIM,
        anchor="ra",
    )
    mask, (mx, my) = sprites.hex_mask(lay.hex_r * 0.32, inset=1.0)
    for j, leaves in enumerate((4, 3, 2, 1)):
        x, y = _pile_row(lay, j)
        im.paste(P.SOIL[leaves], (round(x) - mx, round(y) - my), mask)
        d.text(
            (x, y),
            str(leaves),
            font=font(lay.s(17), bold=True),
            fill=P.TEXT_DARK if leaves < 3 else P.TEXT,
            anchor="mm",
        )


def _pile_row(lay: Layout, j: int) -> tuple[float, float]:
    pb = lay.piles_box
    return pb.x + lay.s(24), pb.y + lay.s(52) + j * lay.s(52)


def draw_panels(im: Image.Image, lay: Layout, v: View) -> None:
    """The dynamic parts: seat panels, round and turn, scoring piles, sun information."""
    d = ImageDraw.Draw(im)
    for seat in v.seats:
        if seat.index < len(lay.panels):
            _seat_panel(im, d, lay, lay.panels[seat.index], seat, v)
    _title(im, d, lay, v)
    _piles(d, lay, v)
    _sun_box(d, lay, v)
    if v.moon is not None:
        moonlight.tracker_box(im, d, lay, v)


def _seat_panel(
    im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, box: Box, s: SeatView, v: View
) -> None:
    s_ = lay.s
    colour = P.seat_colour(s.index)
    to_play = v.current_seat == s.index and v.phase != "over"
    if to_play:
        d.rounded_rectangle(
            box.ints(), radius=round(s_(14)), outline=colour, width=max(2, round(s_(3.5)))
        )
    # Header: a medium tree of the seat (colour and mark), the name, badges, the score.
    ic = sprites.icon(s.index, 2, round(s_(40)))
    x, y = _rel(lay, box, 22, 8)
    im.paste(ic, (round(x), round(y + s_(40) - ic.height)), ic)
    fx = box.x + s_(62)
    name = _fit(d, s.name, font(s_(23), bold=True), s_(250))
    d.text((fx, box.y + s_(28)), name, font=font(s_(23), bold=True), fill=P.TEXT, anchor="lm")
    bx = fx + d.textlength(name, font=font(s_(23), bold=True)) + s_(10)
    badges = []
    if to_play:
        badges.append(("TO PLAY", colour, P.TEXT_DARK if s.index == 2 else P.TEXT))
    if s.index == v.first_seat and v.phase == "play":
        badges.append(("1ST", P.TEXT_DIM, P.TEXT_DARK))
    if v.viewer_seat == s.index:
        badges.append(("YOU", P.TEXT, P.TEXT_DARK))
    bf = font(s_(12), bold=True)
    for text, bg, fg in badges:
        w = d.textlength(text, font=bf) + s_(12)
        d.rounded_rectangle(
            (bx, box.y + s_(19), bx + w, box.y + s_(37)), radius=round(s_(9)), fill=bg
        )
        d.text((bx + w / 2, box.y + s_(28)), text, font=bf, fill=fg, anchor="mm")
        bx += w + s_(6)
    d.text(
        (box.right - s_(14), box.y + s_(30)),
        str(s.score),
        font=font(s_(28), bold=True),
        fill=P.TEXT,
        anchor="rm",
    )
    d.text(
        (box.right - s_(14), box.y + s_(50)),
        "points",
        font=font(s_(12)),
        fill=P.TEXT_DIM,
        anchor="rm",
    )
    # Light: the number and a bar of 20.
    ly = box.y + s_(70)
    # The number right-aligned, so two digits never touch the word after it.
    d.text(
        (box.x + s_(48), ly), f"{s.light}", font=font(s_(21), bold=True), fill=P.LIGHT_ON,
        anchor="rm",
    )  # fmt: skip
    d.text((box.x + s_(52), ly), "light", font=font(s_(13)), fill=P.TEXT_DIM, anchor="lm")
    seg_w, seg_gap, group_gap = s_(14), s_(2.5), s_(5)
    sx = box.x + s_(92)
    gain_to = min(20, s.light + (s.gain or 0))
    for k in range(20):
        x0 = sx + k * (seg_w + seg_gap) + (k // 5) * group_gap
        fill = (
            P.LIGHT_ON
            if k < s.light
            else (P.mix(P.LIGHT_ON, P.LIGHT_OFF, 0.6) if k < gain_to else P.LIGHT_OFF)
        )
        d.rectangle((x0, ly - s_(7), x0 + seg_w, ly + s_(7)), fill=fill)
    if s.gain is not None:
        d.text(
            (box.right - s_(12), ly + s_(1)),
            f"+{s.gain}",
            font=font(s_(15), bold=True),
            fill=P.LIGHT_ON,
            anchor="rm",
        )
    if v.moon is not None and v.moon.rows:
        moonlight.seat_rows(im, d, lay, box, s, v.moon.seats[s.index], v)
    sh = lay.panel_shift
    # Pieces: available, and the store with the next price of each column.
    iy = box.y + s_(146) + sh  # icons stand on this line
    for size in range(4):
        x = box.x + s_(22) + size * s_(54)
        _piece(im, d, lay, s.index, size, x, iy, s.available[size])
    if s.is_cynthia:
        d.rectangle(
            (box.x + s_(244), box.y + s_(92) + sh, box.x + s_(470), box.y + s_(110) + sh),
            fill=P.PANEL_BG,
        )
        d.text(
            (box.x + s_(246), box.y + s_(96) + sh),
            "CYNTHIA (no store)",
            font=font(s_(13), bold=True),
            fill=P.TEXT_DIM,
        )
    else:
        for size in range(4):
            x = box.x + s_(244) + size * s_(57)
            _piece(im, d, lay, s.index, size, x, iy, s.store[size], price=s.prices[size])
    # Tokens.
    tx = box.x + s_(88)
    ty = box.y + s_(165) + sh
    tf = font(s_(14), bold=True)
    for leaves, points in s.tokens:
        w = s_(30)
        if tx + w > box.right - s_(10):
            d.text((tx, ty), "…", font=tf, fill=P.TEXT, anchor="lm")
            break
        d.rounded_rectangle(
            (tx, ty - s_(10), tx + w, ty + s_(10)),
            radius=round(s_(5)),
            fill=P.SOIL[leaves],
            outline=P.mix(P.SOIL[leaves], (0, 0, 0), 0.4),
        )
        d.text(
            (tx + w / 2, ty),
            str(points),
            font=tf,
            fill=P.TEXT_DARK if leaves < 3 else P.TEXT,
            anchor="mm",
        )
        tx += w + s_(4)
    if not s.tokens:
        d.text((tx, ty), "none yet", font=font(s_(13)), fill=P.TEXT_DIM, anchor="lm")


def _fit(d: ImageDraw.ImageDraw, text: str, f, width: float) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if d.textlength(text, font=f) <= width:
        return text
    while text and d.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def _piece(
    im,
    d,
    lay: Layout,
    seat: int,
    size: int,
    x: float,
    base_y: float,
    count: int,
    price: int | None | bool = False,
) -> None:
    """A piece icon standing on ``base_y`` at ``x`` with its count (and price for the store)."""
    s_ = lay.s
    ic = sprites.icon(seat, size, round(s_(ICON_H[size])), faded=count == 0)
    im.paste(ic, (round(x + s_(14) - ic.width / 2), round(base_y - ic.height)), ic)
    tx = x + s_(31)
    colour = P.TEXT if count else P.TEXT_DIM
    if price is False:
        d.text(
            (tx, base_y - s_(10)),
            f"×{count}",
            font=font(s_(17), bold=True),
            fill=colour,
            anchor="lm",
        )
        return
    d.text(
        (tx, base_y - s_(22)), f"×{count}", font=font(s_(16), bold=True), fill=colour, anchor="lm"
    )
    if price is not None:
        d.rounded_rectangle(
            (tx - s_(1), base_y - s_(10), tx + s_(23), base_y + s_(7)),
            radius=round(s_(8)),
            fill=P.LIGHT_ON,
        )
        d.text(
            (tx + s_(11), base_y - s_(1.5)),
            str(price),
            font=font(s_(13), bold=True),
            fill=P.TEXT_DARK,
            anchor="mm",
        )
    else:
        d.text(
            (tx + s_(2), base_y - s_(1.5)),
            "–",
            font=font(s_(13), bold=True),
            fill=P.TEXT_DIM,
            anchor="lm",
        )


def _title(im, d, lay: Layout, v: View) -> None:
    tb = lay.title_box
    s_ = lay.s
    x, y = tb.x, tb.y + s_(30)
    total = v.revolutions * 6
    if v.phase == "setup":
        d.text((x, y), "Setup", font=font(s_(32), bold=True), fill=P.TEXT)
        lines = SETUP_LINES.get(v.setup_kind or "tree", SETUP_LINES["tree"])
        for j, line in enumerate(lines):
            d.text((x, y + s_(42 + 22 * j)), line, font=font(s_(17)), fill=P.TEXT_DIM)
    else:
        d.text((x, y), f"Round {v.round}", font=font(s_(32), bold=True), fill=P.TEXT)
        d.text(
            (
                x + d.textlength(f"Round {v.round}", font=font(s_(32), bold=True)) + s_(6),
                y + s_(12),
            ),
            f"/ {total}",
            font=font(s_(18)),
            fill=P.TEXT_DIM,
        )
        d.text(
            (x, y + s_(42)),
            f"Revolution {v.revolution} of {v.revolutions}",
            font=font(s_(17)),
            fill=P.TEXT_DIM,
        )
        # Revolution pips: one per sun position, filled up to the current one.
        for r in range(v.revolutions):
            for p in range(6):
                done = r < v.revolution - 1 or (r == v.revolution - 1 and p <= v.sun)
                cx = x + s_(7) + p * s_(12) + r * s_(78)
                cy = y + s_(78)
                rr = s_(4.2)
                d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=P.SUN if done else P.LIGHT_OFF)
    y += s_(104)
    if v.phase == "over":
        d.text((x, y), "Game over", font=font(s_(22), bold=True), fill=P.SUN)
        best = max((s.score for s in v.seats), default=0)
        win = [s for s in v.seats if s.index in v.winners] or [
            s for s in v.seats if s.score == best
        ]
        for j, s in enumerate(win[:3]):
            d.text(
                (x, y + s_(30) + j * s_(24)),
                f"★ {s.name}",
                font=font(s_(18), bold=True),
                fill=P.seat_colour(s.index),
            )
    elif v.current_seat is not None:
        s = v.seats[v.current_seat]
        d.text((x, y), "To play", font=font(s_(15)), fill=P.TEXT_DIM)
        ic = sprites.icon(s.index, 1, round(s_(28)))
        im.paste(ic, (round(x), round(y + s_(52) - ic.height)), ic)
        f = font(s_(21), bold=True)
        name = _fit(d, s.name, f, lay.title_box.right - x - s_(32))
        d.text((x + s_(30), y + s_(39)), name, font=f, fill=P.seat_colour(s.index), anchor="lm")


def _piles(d, lay: Layout, v: View) -> None:
    s_ = lay.s
    for j, leaves in enumerate((4, 3, 2, 1)):
        x, y = _pile_row(lay, j)
        pile = v.piles.get(leaves, ())
        if not pile:
            d.text((x + s_(36), y), "empty", font=font(s_(16)), fill=P.TEXT_DIM, anchor="lm")
            continue
        d.text(
            (x + s_(36), y), str(pile[0]), font=font(s_(26), bold=True), fill=P.TEXT, anchor="lm"
        )
        rest = " ".join(str(t) for t in pile[1:])
        if rest:
            f = font(s_(14))
            limit = lay.piles_box.right - (x + s_(76))
            while rest and d.textlength(rest, font=f) > limit:
                rest = rest[: rest.rfind(" ")] + "…" if " " in rest else ""
            d.text((x + s_(76), y + s_(1)), rest, font=f, fill=P.TEXT_DIM, anchor="lm")
        d.text(
            (x + s_(76), y + s_(19)),
            f"{len(pile)} left",
            font=font(s_(11)),
            fill=P.TEXT_DIM,
            anchor="lm",
        )


def _sun_box(d, lay: Layout, v: View) -> None:
    s_ = lay.s
    b = lay.sun_box
    x = b.right
    y = b.y
    p = v.shadow_sun
    if v.preview:
        d.text((x, y), "PREVIEW", font=font(s_(20), bold=True), fill=P.SUN, anchor="ra")
        d.text(
            (x, y + s_(28)),
            f"Sun at {SUN_CORNER_NAMES[p]}",
            font=font(s_(17), bold=True),
            fill=P.TEXT,
            anchor="ra",
        )
        d.text(
            (x, y + s_(52)),
            f"(now at {SUN_CORNER_NAMES[v.sun]})",
            font=font(s_(15)),
            fill=P.TEXT_DIM,
            anchor="ra",
        )
    else:
        d.text((x, y), "SUN", font=font(s_(15), bold=True), fill=P.TEXT_DIM, anchor="ra")
        d.text(
            (x, y + s_(24)),
            f"Sun at {SUN_CORNER_NAMES[p]}",
            font=font(s_(19), bold=True),
            fill=P.TEXT,
            anchor="ra",
        )
    d.text(
        (x, y + s_(78)),
        f"Shadows fall {SHADOW_TOWARDS[p]}",
        font=font(s_(16)),
        fill=P.TEXT_DIM,
        anchor="ra",
    )
