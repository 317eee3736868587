"""Everything beside the board: the strip (round, turn, sun, one card per seat) and the scoring
piles in the board's top-left corner. The expansion's lines are added by ``moonlight``.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.geometry import DIRECTION_NAMES, SHADOW_DIRECTION, SUN_CORNER_NAMES
from translation import _, _n, is_right_to_left

from . import palette as P
from . import sprites, text
from .fonts import RLM
from .layout import (
    MIN_TEXT,
    PHONE_CARD_ROWS,
    PHONE_ROW,
    PHONE_STORE_DX,
    WIDE_CARD_ROWS,
    Box,
    Layout,
)
from .model import SeatView, View, words

#: Where the shadows fall for each sun position.
SHADOW_TOWARDS = tuple(DIRECTION_NAMES[d] for d in SHADOW_DIRECTION)
#: What the setup is about, by the verb of the current setup decision.
SETUP_WORDS = {
    "place": _("{name} places a starting tree"),
    "animal": _("{name} keeps an animal"),
    "settle": _("{name} places an animal"),
    "elder": _("{name} places the Great Elder Tree"),
    "moonstone": _("{name} places a moonstone"),
}
TO_PLAY = _("{name} to play")
#: Instead of whose turn, in the picture of an abandoned game.
ABANDONED = _("Game abandoned")
#: Heights of the piece icons in the cards (design units), by size.
ICON_H = (10, 15, 20, 24)
#: Text sizes (design units); none is below ``layout.MIN_TEXT``.
SMALL = MIN_TEXT
BODY = 22
ROUND_SIZE = 28
NAME_SIZE = 23
SCORE_SIZE = 28
#: Where the columns of the available and store rows start, and their step (design units).
COL_X, COL_STEP = 74, 58


def card_x(lay: Layout, box: Box, dx: float) -> float:
    return box.x + lay.s(dx)


def card_row(lay: Layout, box: Box, what: str) -> float:
    """The middle of a card's row ``what`` ("light", "avail", "store", "tokens", "moon"): the
    wide picture's cards have a row each, the phone picture's (as wide as the picture) have
    the available pieces and the store side by side."""
    return lay.line(box, (PHONE_CARD_ROWS if lay.phone else WIDE_CARD_ROWS)[what])


def store_dx(lay: Layout) -> float:
    """Where a card's store starts, from its left edge (design units)."""
    return PHONE_STORE_DX if lay.phone else 0.0


def draw_static(im: Image.Image, lay: Layout, lang: str | None = None) -> None:
    """Card frames and the piles' caption, drawn once into the cached base (one per language)."""
    plain = ImageDraw.Draw(im)
    draw_frames(im, lay, lang)
    pb = lay.piles_box
    text.draw(plain, (pb.x, pb.y), words(_("Scoring piles"), lang), lay.s(SMALL), P.TEXT_DIM,
              bold=True)  # fmt: skip


def draw_frames(im: Image.Image, lay: Layout, lang: str | None = None) -> None:
    """The seat cards' frames, colour stripes and the words of their piece rows."""
    plain = ImageDraw.Draw(im)
    for seat, box in lay.seat_cards():
        d = text.mirrored(plain, box, is_right_to_left(lang))  # a right-to-left card
        d.rounded_rectangle(
            box.ints(),
            radius=round(lay.s(10)),
            fill=P.PANEL_BG,
            outline=P.PANEL_EDGE,
            width=max(1, round(lay.s(1.5))),
        )
        x0, y0, _x1, y1 = box.ints()
        d.rounded_rectangle(
            (x0, y0, x0 + round(lay.s(7)), y1), radius=round(lay.s(4)), fill=P.seat_colour(seat)
        )
        for row, dx, word in (("avail", 0.0, _("avail")), ("store", store_dx(lay), _("store"))):
            label = text.fit(words(word, lang), lay.s(SMALL), lay.s(COL_X - 12))
            text.draw(d, (card_x(lay, box, 14 + dx), card_row(lay, box, row)), label,
                      lay.s(SMALL), P.TEXT_DIM, anchor="lm")  # fmt: skip


def draw_strip(im: Image.Image, lay: Layout, v: View) -> ImageDraw.ImageDraw:
    """The dynamic parts: the header, the seat cards, the piles and the preview corner."""
    d = ImageDraw.Draw(im)
    _header(im, d, lay, v)
    draw_cards(im, d, lay, v)
    _piles(im, d, lay, v)
    if v.preview:
        b = lay.corner_box
        room = b.w + lay.s(27)  # to the sun in the corner
        title = text.fit(v.t(_("PREVIEW")), lay.s(26), room, True)
        text.draw(d, (b.right, b.y), title, lay.s(26), P.SUN, bold=True, anchor="ra")
        caption = text.fit(v.t(_("next photosynthesis")), lay.s(SMALL), room)
        text.draw(d, (b.right, b.y + lay.s(32)), caption, lay.s(SMALL), P.TEXT_DIM, anchor="ra")
    return d


def draw_cards(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, v: View) -> None:
    """The seat cards the layout has."""
    for seat in v.seats:
        box = lay.card_of(seat.index)
        if box is not None:
            _card(im, d, lay, box, seat, v)


def header_line(lay: Layout, k: int) -> float:
    """The middle of line ``k`` of the strip's header."""
    return lay.header.y + lay.s(16 + 27 * k)


def _header(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, v: View) -> None:
    s_ = lay.s
    h = lay.header
    x, right = h.x + s_(4), h.right
    y0 = header_line(lay, 0)
    total = v.revolutions * 6
    if v.phase == "setup":
        text.draw(d, (x, y0), v.t(_("Setup")), s_(ROUND_SIZE), P.TEXT, bold=True, anchor="lm")
    else:
        rev = v.t(_("rev. {revolution}/{revolutions}", revolution=v.revolution,
                    revolutions=v.revolutions))  # fmt: skip
        rev_w = text.draw(d, (right, y0 + s_(2)), rev, s_(SMALL), P.TEXT_DIM, anchor="rm")
        # The total as large as the round (smaller, "18" read as "10" at 550 px), dimmed.
        of_total = f"{total} /" if is_right_to_left(v.lang) else f"/ {total}"
        total_w = text.width(of_total, s_(ROUND_SIZE))
        room = h.w - rev_w - total_w - s_(20)
        label = text.fit(v.t(_("Round {round}", round=v.round)), s_(ROUND_SIZE), room, True)
        if is_right_to_left(v.lang):  # "Round 13 / 18" read from the right: the total left
            text.draw(d, (x, y0), of_total, s_(ROUND_SIZE), P.TEXT_DIM, anchor="lm")
            text.draw(d, (x + total_w + s_(6), y0), label, s_(ROUND_SIZE), P.TEXT, bold=True,
                      anchor="lm")  # fmt: skip
        else:
            w = text.draw(d, (x, y0), label, s_(ROUND_SIZE), P.TEXT, bold=True, anchor="lm")
            text.draw(d, (x + w + s_(6), y0), of_total, s_(ROUND_SIZE), P.TEXT_DIM, anchor="lm")
    # The round track: one dot per round, grouped by revolution, always inside the strip. In
    # the setup, when the turn's sentence does not fit one line with the whole name, it takes
    # the track's line too (no round has been played).
    y1 = header_line(lay, 1)
    wrap = False
    if v.phase == "setup" and v.current_seat is not None:
        what = v.t(SETUP_WORDS.get(v.setup_kind or "", TO_PLAY))
        wrap = not _name_fits(v.seats[v.current_seat], what, h.w - s_(34), s_(BODY))
    gap = s_(8)
    step = (h.w - s_(8) - (v.revolutions - 1) * gap) / total
    rr = min(s_(5), step * 0.36)
    for r in range(0 if wrap else v.revolutions):
        for p in range(6):
            n = r * 6 + p + 1
            done = v.phase != "setup" and n <= v.round
            cx = x + rr + r * gap + (r * 6 + p) * step
            fill = P.SUN if done else P.LIGHT_OFF
            d.ellipse((cx - rr, y1 - rr, cx + rr, y1 + rr), fill=fill)
    # Whose turn, or who won.
    y2 = header_line(lay, 2)
    if v.phase == "over":
        best = max((s.score for s in v.seats), default=0)
        win = [s for s in v.seats if s.index in v.winners] or [
            s for s in v.seats if s.score == best
        ]
        names = " & ".join(s.name for s in win)
        line = v.t(_n("★ {names} wins", "★ {names} win", len(win), names=names))
        text.draw(d, (x, y2), text.fit(line, s_(BODY), h.w, True), s_(BODY), P.SUN, bold=True,
                  anchor="lm")  # fmt: skip
    elif v.abandoned:
        line = text.fit(v.t(ABANDONED), s_(BODY), h.w, True)
        text.draw(d, (x, y2), line, s_(BODY), P.TEXT_DIM, bold=True, anchor="lm")
    elif v.current_seat is not None:
        s = v.seats[v.current_seat]
        ic = sprites.icon(s.index, 1, round(s_(22)))
        im.paste(ic, (round(x), round((y1 if wrap else y2) - ic.height / 2)), ic)
        what = TO_PLAY
        if v.phase == "setup":
            what = SETUP_WORDS.get(v.setup_kind or "", TO_PLAY)
        if wrap:
            _turn_lines(d, x + s_(30), (y1, y2), h.w - s_(34), s, v.t(what), s_(BODY))
        else:
            _turn_line(d, (x + s_(30), y2), h.w - s_(34), s, v.t(what), s_(BODY))
    # The sun.
    y3 = header_line(lay, 3)
    p = v.shadow_sun
    if v.preview:
        line = v.t(_("Next sun {corner}: shadows fall {towards}",
                     corner=SUN_CORNER_NAMES[p], towards=SHADOW_TOWARDS[p]))  # fmt: skip
        # Bold where it fits: in bold "shadows fall SE" lost its direction to the ellipsis.
        bold = text.width(line, s_(SMALL), True) <= h.w
        text.draw(d, (x, y3), text.fit(line, s_(SMALL), h.w, bold), s_(SMALL), P.SUN, bold=bold,
                  anchor="lm")  # fmt: skip
    else:
        line = v.t(_("Sun {corner}: shadows fall {towards}", corner=SUN_CORNER_NAMES[p],
                     towards=SHADOW_TOWARDS[p]))  # fmt: skip
        text.draw(d, (x, y3), text.fit(line, s_(SMALL), h.w), s_(SMALL), P.TEXT_DIM,
                  anchor="lm")  # fmt: skip


def _turn_line(d: ImageDraw.ImageDraw, xy: tuple[float, float], room: float, s: SeatView, line: str,
               size: float, *, align_end: bool = False) -> None:  # fmt: skip
    """``line`` (a sentence with ``{name}``) with the seat's name in its colour and bold, the
    words around it plain; the name is shortened to fit ``room``. ``align_end``: the line ends
    ``room`` from ``xy`` (a right-to-left line that starts at the right)."""
    before, _name, after = line.partition("{name}")
    if not _name:  # a catalog without the name: the sentence alone
        line = text.fit(line, size, room)
        x = xy[0] + (room - text.width(line, size) if align_end else 0.0)
        text.draw(d, (x, xy[1]), line, size, P.TEXT, anchor="lm")
        return
    # Smaller (down to the smallest text) rather than the name cut.
    smallest = size * SMALL / BODY
    while size > smallest and not _name_fits(s, line, room, size):
        size = max(smallest, size - smallest / 20)
    mark = before[:1] if before[:1] == RLM else ""
    before = before[len(mark) :]
    rtl = bool(mark)
    words = text.width(mark + before, size) + text.width(mark + after, size)
    name = text.fit(s.name, size, max(room - words, size * 2), True)
    parts = [(mark + before, False, P.TEXT), (name, True, P.seat_colour(s.index)),
             (mark + after, False, P.TEXT)]  # fmt: skip
    total = sum(text.width(p, size, b) for p, b, _c in parts)
    x0 = xy[0] + (room - total if align_end else 0.0)
    if rtl:  # right to left: the first part is drawn rightmost
        x = x0 + total
        for part, bold, colour in parts:
            x -= text.width(part, size, bold)
            text.draw(d, (x, xy[1]), part, size, colour, bold=bold, anchor="lm")
        return
    x = x0
    for part, bold, colour in parts:
        x += text.draw(d, (x, xy[1]), part, size, colour, bold=bold, anchor="lm")


def _name_fits(s: SeatView, line: str, room: float, size: float) -> bool:
    """Whether ``line`` (a sentence with ``{name}``) fits ``room`` with the seat's whole name."""
    before, _name, after = line.partition("{name}")
    return text.width(before, size) + text.width(s.name, size, True) + text.width(
        after, size) <= room  # fmt: skip


def _turn_lines(d: ImageDraw.ImageDraw, x0: float, rows: tuple[float, ...], room: float,
                s: SeatView, line: str, size: float) -> None:  # fmt: skip
    """``line`` (a sentence with ``{name}``) over the lines at heights ``rows``, word by word,
    with the seat's name whole (unless it alone is wider than ``room``), in its colour and bold;
    what does not fit the last line ends in an ellipsis. A right-to-left sentence (it starts
    with ``RLM``) fills each line from the right."""
    mark = RLM if line.startswith(RLM) else ""
    before, _name, after = line[len(mark) :].partition("{name}")
    words: list[tuple[str, bool, P.RGB]] = [(w, False, P.TEXT) for w in before.split()]
    if _name:
        words.append((text.fit(s.name, size, room, True), True, P.seat_colour(s.index)))
    words += [(w, False, P.TEXT) for w in after.split()]
    space = text.width(" ", size)
    lines: list[list[tuple[str, bool, P.RGB]]] = [[]]
    used = 0.0
    for word, bold, colour in words:
        w = text.width(mark + word, size, bold)
        if lines[-1] and used + space + w > room and len(lines) < len(rows):
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0.0) + w
        lines[-1].append((word, bold, colour))
    last = lines[-1]
    if used > room:  # the last line: as many words as fit, then an ellipsis
        kept = " ".join(w for w, _b, _c in last)
        lines[-1] = [(text.fit(mark + kept, size, room).removeprefix(mark), False, P.TEXT)]
    for row, y in zip(lines, rows, strict=False):
        x = x0 + room if mark else x0
        for word, bold, colour in row:
            w = text.width(mark + word, size, bold)
            left = x - w if mark else x
            text.draw(d, (left, y), mark + word, size, colour, bold=bold, anchor="lm")
            x = left - space if mark else x + w + space


def _card(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, box: Box, s: SeatView,
          v: View) -> None:  # fmt: skip
    s_ = lay.s
    d = text.mirrored(d, box, is_right_to_left(v.lang))  # a right-to-left card
    colour = P.seat_colour(s.index)
    right = box.right - s_(10)
    if v.current_seat == s.index and v.phase != "over":
        d.rounded_rectangle(
            box.ints(), radius=round(s_(10)), outline=colour, width=max(2, round(s_(4)))
        )
    # Name row: a medium tree of the seat (colour and mark), the name, badges, the score.
    y = lay.line(box, 0)
    ic = sprites.icon(s.index, 2, round(s_(30)))
    text.paste(im, d, ic, (box.x + s_(14), y + s_(14) - ic.height))
    pts = text.draw(d, (right, y + s_(3)), v.t(_("pts")), s_(SMALL), P.TEXT_DIM, anchor="rm")
    score_w = text.draw(d, (right - pts - s_(5), y), str(s.score), s_(SCORE_SIZE), P.TEXT,
                        bold=True, anchor="rm")  # fmt: skip
    badges = []
    if v.viewer_seat == s.index:
        badges.append((v.t(_("YOU")), P.TEXT, P.TEXT_DARK))
    if s.index == v.first_seat and v.phase == "play":
        badges.append((v.t(_("1st")), P.TEXT_DIM, P.TEXT_DARK))
    badge_w = sum(text.width(b, s_(SMALL), True) + s_(16) for b, _bg, _fg in badges)
    nx = box.x + s_(48)
    room = right - pts - score_w - s_(14) - nx - badge_w
    name, size = text.fit_size(s.name, s_(NAME_SIZE), s_(SMALL), room, True)
    bx = nx + text.draw(d, (nx, y), name, size, P.TEXT, bold=True, anchor="lm")
    for word, bg, fg in badges:
        w = text.width(word, s_(SMALL), True) + s_(10)
        bx += s_(6)
        d.rounded_rectangle((bx, y - s_(12), bx + w, y + s_(12)), radius=round(s_(8)), fill=bg)
        text.draw(d, (bx + w / 2, y), word, s_(SMALL), fg, bold=True, anchor="mm")
        bx += w
    _light_row(im, d, lay, box, s, v)
    # Pieces: available, and the store with the next price of each column.
    ya, ys = card_row(lay, box, "avail"), card_row(lay, box, "store")
    sx = store_dx(lay)
    for size in range(4):
        x = card_x(lay, box, COL_X + size * COL_STEP)
        count = s.available[size]
        ic = sprites.icon(s.index, size, round(s_(ICON_H[size])), faded=count == 0)
        text.paste(im, d, ic, (x + s_(10) - ic.width / 2, ya + s_(10) - ic.height))
        # "×3" beside its piece; a right-to-left card, mirrored, reads "3×" (the sign beside
        # the piece, as "13 / 18" reads its round)
        times = f"{count}×" if is_right_to_left(v.lang) else f"×{count}"
        text.draw(d, (x + s_(22), ya), times, s_(SMALL), P.TEXT if count else P.TEXT_DIM,
                  bold=True, anchor="lm")  # fmt: skip
    if s.is_cynthia:
        d.rectangle((card_x(lay, box, 12 + sx), ys - s_(13), right, ys + s_(13)), fill=P.PANEL_BG)
        words = text.fit(v.t(_("Cynthia has no store")), s_(SMALL),
                         right - card_x(lay, box, 14 + sx))  # fmt: skip
        text.draw(d, (card_x(lay, box, 14 + sx), ys), words, s_(SMALL), P.TEXT_DIM, anchor="lm")
    else:
        for size in range(4):
            x = card_x(lay, box, sx + COL_X + size * COL_STEP)
            count, price = s.store[size], s.prices[size]
            w = text.draw(d, (x + s_(2), ys), str(count), s_(SMALL),
                          P.TEXT if count else P.TEXT_DIM, bold=True, anchor="lm")  # fmt: skip
            px = x + s_(6) + w
            if price is None:
                text.draw(d, (px + s_(4), ys), "–", s_(SMALL), P.TEXT_DIM, anchor="lm")
                continue
            pw = text.width(str(price), s_(SMALL), True) + s_(10)
            d.rounded_rectangle((px, ys - s_(11), px + pw, ys + s_(11)), radius=round(s_(6)),
                                fill=P.LIGHT_ON)  # fmt: skip
            text.draw(d, (px + pw / 2, ys), str(price), s_(SMALL), P.TEXT_DARK, bold=True,
                      anchor="mm")  # fmt: skip
    _tokens_row(d, lay, box, s, v)


def _light_row(
    im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, box: Box, s: SeatView, v: View
) -> None:
    """Light points: a sun, the number (and the gain in a preview), a bar up to the cap."""
    s_ = lay.s
    y = card_row(lay, box, "light")
    spr, a = sprites.sun(s_(8), bright=True)
    text.paste(im, d, spr, (round(card_x(lay, box, 24)) - a[0], round(y) - a[1]))
    x = card_x(lay, box, 40)
    x += text.draw(d, (x, y), str(s.light), s_(BODY), P.LIGHT_ON, bold=True, anchor="lm")
    if s.gain is not None:
        x += s_(4)
        x += text.draw(d, (x, y), f"+{s.gain}", s_(SMALL), P.SUN, bold=True, anchor="lm")
    cap = v.light_cap
    x0 = max(x + s_(8), card_x(lay, box, 104))
    groups = (cap - 1) // 5
    room = box.right - s_(12) - x0 - groups * s_(3)
    seg = room / cap
    gain_to = min(cap, s.light + (s.gain or 0))
    for k in range(cap):
        sx = x0 + k * seg + (k // 5) * s_(3)
        if k < s.light:
            fill = P.LIGHT_ON
        elif k < gain_to:
            fill = P.mix(P.LIGHT_ON, P.LIGHT_OFF, 0.55)
        else:
            fill = P.LIGHT_OFF
        d.rectangle((sx, y - s_(7), sx + seg - s_(1.5), y + s_(7)), fill=fill)


def _tokens_row(d: ImageDraw.ImageDraw, lay: Layout, box: Box, s: SeatView, v: View) -> None:
    """Scoring tokens won: one chip per token in its soil's colour, with its points."""
    s_ = lay.s
    y = card_row(lay, box, "tokens")
    x = card_x(lay, box, 14)
    right = box.right - s_(10)
    x += text.draw(d, (x, y), v.t(_("tokens")), s_(SMALL), P.TEXT_DIM, anchor="lm") + s_(8)
    if not s.tokens:
        text.draw(d, (x, y), v.t(_("none yet")), s_(SMALL), P.TEXT_DIM, anchor="lm")
        return
    total = sum(points for _leaves, points in s.tokens)

    def more(n: int) -> str:  # "+2 more", never "+2": read as one more token of 2 points
        return v.t(_("+{n} more", n=n))

    for j, (leaves, points) in enumerate(s.tokens):
        w = text.width(str(points), s_(SMALL), True) + s_(8)
        left = len(s.tokens) - j - 1
        need = w + (s_(4) + text.width(more(left), s_(SMALL), True) if left else 0)
        if x + need > right:  # the rest counted, with the total of all when it fits
            line = v.t(_("+{n} more, {total} in all", n=left + 1, total=total))
            if text.width(line, s_(SMALL), True) > right - x:
                line = text.fit(more(left + 1), s_(SMALL), right - x, True)
            text.draw(d, (x, y), line, s_(SMALL), P.TEXT, bold=True, anchor="lm")
            return
        d.rounded_rectangle((x, y - s_(11), x + w, y + s_(11)), radius=round(s_(5)),
                            fill=P.SOIL[leaves], outline=P.mix(P.SOIL[leaves], (0, 0, 0), 0.4))  # fmt: skip
        ink = P.TEXT_DARK if leaves < 3 else P.TEXT
        text.draw(d, (x + w / 2, y), str(points), s_(SMALL), ink, bold=True, anchor="mm")
        x += w + s_(3)


def _piles(im: Image.Image, d: ImageDraw.ImageDraw, lay: Layout, v: View) -> None:
    """The scoring piles (top token and how many are left), in the board's top-left corner."""
    s_ = lay.s
    pb = lay.piles_box
    mask, (mx, my) = sprites.hex_mask(lay.hex_r * 0.36, inset=1.0)
    y = pb.y + s_(44)
    for leaves in (4, 3, 2, 1):
        x = pb.x + s_(16)
        im.paste(P.SOIL[leaves], (round(x) - mx, round(y) - my), mask)
        ink = P.TEXT_DARK if leaves < 3 else P.TEXT
        text.draw(d, (x, y), str(leaves), s_(SMALL), ink, bold=True, anchor="mm")
        tx = x + s_(26)
        pile = v.piles.get(leaves, ())
        if leaves in v.unused_piles:
            text.draw(d, (tx, y - s_(11)), v.t(_("not used with")), s_(SMALL), P.TEXT_DIM,
                      anchor="lm")  # fmt: skip
            text.draw(d, (tx, y + s_(12)), v.t(_("2 players")), s_(SMALL), P.TEXT_DIM,
                      anchor="lm")  # fmt: skip
            y += s_(54)
            continue
        if not pile:
            text.draw(d, (tx, y), v.t(_("empty")), s_(SMALL), P.TEXT_DIM, anchor="lm")
        else:
            w = text.draw(d, (tx, y), str(pile[0]), s_(26), P.TEXT, bold=True, anchor="lm")
            left = v.t(_("{n} left", n=len(pile)))
            text.draw(d, (tx + w + s_(8), y + s_(1)), left, s_(SMALL), P.TEXT_DIM, anchor="lm")
        y += s_(36)


# -- the phone picture's header ---------------------------------------------------------------

#: Text sizes of the phone picture's header (design units of ``layout.PHONE_DESIGN_WIDTH``).
PHONE_BODY = 24
PHONE_SMALL = 22


def phone_row(lay: Layout, k: int) -> float:
    """The middle of row ``k`` of the phone picture's header band."""
    return lay.header.y + lay.s(PHONE_ROW * (k + 0.5))


def draw_phone(im: Image.Image, lay: Layout, v: View) -> ImageDraw.ImageDraw:
    """The phone picture's dynamic parts beside the board: the header band (the round and its
    track, whose turn or who won, the sun), the scoring piles and the preview corner. A
    right-to-left language reads the band from the right."""
    d = ImageDraw.Draw(im)
    s_ = lay.s
    h = lay.header
    rtl = is_right_to_left(v.lang)

    def at(dx: float, w: float = 0.0) -> float:
        """The left edge of something ``w`` wide ``dx`` from the band's reading start."""
        return h.right - dx - w if rtl else h.x + dx

    # Row 0: "Round 7 / 18", the round track, "rev. 2/3" at the far end.
    y0 = phone_row(lay, 0)
    total = v.revolutions * 6
    if v.phase == "setup":
        label, of_total, rev = v.t(_("Setup")), "", ""
    else:
        label = v.t(_("Round {round}", round=v.round))
        of_total = f"{total} /" if rtl else f"/ {total}"
        rev = v.t(_("rev. {revolution}/{revolutions}", revolution=v.revolution,
                    revolutions=v.revolutions))  # fmt: skip
    label_w = text.width(label, s_(ROUND_SIZE), True)
    total_w = text.width(of_total, s_(ROUND_SIZE)) if of_total else 0.0
    rev_w = text.width(rev, s_(PHONE_SMALL)) if rev else 0.0
    start_w = label_w + (s_(8) + total_w if of_total else 0.0)
    if rtl:  # from the right: the label, then the total on its left
        text.draw(d, (at(0, label_w), y0), label, s_(ROUND_SIZE), P.TEXT, bold=True, anchor="lm")
        if of_total:
            text.draw(d, (at(label_w + s_(8), total_w), y0), of_total, s_(ROUND_SIZE),
                      P.TEXT_DIM, anchor="lm")  # fmt: skip
    else:
        text.draw(d, (at(0), y0), label, s_(ROUND_SIZE), P.TEXT, bold=True, anchor="lm")
        if of_total:
            text.draw(d, (at(label_w + s_(8)), y0), of_total, s_(ROUND_SIZE), P.TEXT_DIM,
                      anchor="lm")  # fmt: skip
    if rev:
        text.draw(d, (at(h.w - rev_w, rev_w), y0 + s_(1)), rev, s_(PHONE_SMALL), P.TEXT_DIM,
                  anchor="lm")  # fmt: skip
    # The track: one dot per round, grouped by revolution, in reading order.
    track0 = start_w + s_(24)
    track_w = h.w - track0 - rev_w - s_(24)
    gap = s_(10)
    step = (track_w - (v.revolutions - 1) * gap) / total
    rr = min(s_(6), step * 0.36)
    for r in range(v.revolutions):
        for p in range(6):
            n = r * 6 + p + 1
            done = v.phase != "setup" and n <= v.round
            cx = at(track0 + r * gap + (r * 6 + p + 0.5) * step)
            fill = P.SUN if done else P.LIGHT_OFF
            d.ellipse((cx - rr, y0 - rr, cx + rr, y0 + rr), fill=fill)
    # Row 1: whose turn (with their piece), or who won.
    y1 = phone_row(lay, 1)
    size = s_(PHONE_BODY)
    if v.phase == "over":
        best = max((s.score for s in v.seats), default=0)
        win = [s for s in v.seats if s.index in v.winners] or [
            s for s in v.seats if s.score == best
        ]
        names = " & ".join(s.name for s in win)
        line = text.fit(v.t(_n("★ {names} wins", "★ {names} win", len(win), names=names)),
                        size, h.w, True)  # fmt: skip
        w = text.width(line, size, True)
        text.draw(d, (at(0, w), y1), line, size, P.SUN, bold=True, anchor="lm")
    elif v.abandoned:
        line = text.fit(v.t(ABANDONED), size, h.w, True)
        w = text.width(line, size, True)
        text.draw(d, (at(0, w), y1), line, size, P.TEXT_DIM, bold=True, anchor="lm")
    elif v.current_seat is not None:
        s = v.seats[v.current_seat]
        ic = sprites.icon(s.index, 1, round(s_(26)))
        im.paste(ic, (round(at(0, ic.width)), round(y1 - ic.height / 2)), ic)
        what = TO_PLAY
        if v.phase == "setup":
            what = SETUP_WORDS.get(v.setup_kind or "", TO_PLAY)
        room = h.w - ic.width - s_(8)
        _turn_line(d, (at(ic.width + s_(8), room), y1), room, s, v.t(what), size,
                   align_end=rtl)  # fmt: skip
    # Row 2: the sun whose shadows are drawn.
    y2 = phone_row(lay, 2)
    p = v.shadow_sun
    if v.preview:
        line = v.t(_("Next sun {corner}: shadows fall {towards}",
                     corner=SUN_CORNER_NAMES[p], towards=SHADOW_TOWARDS[p]))  # fmt: skip
        ink, bold = P.SUN, True
    else:
        line = v.t(_("Sun {corner}: shadows fall {towards}", corner=SUN_CORNER_NAMES[p],
                     towards=SHADOW_TOWARDS[p]))  # fmt: skip
        ink, bold = P.TEXT_DIM, False
    line = text.fit(line, size, h.w, bold)
    w = text.width(line, size, bold)
    text.draw(d, (at(0, w), y2), line, size, ink, bold=bold, anchor="lm")
    _piles(im, d, lay, v)
    draw_cards(im, d, lay, v)
    if v.preview:  # the corner right of the sun (the header's sun row says "Next sun")
        b = lay.corner_box
        room = b.right - (lay.suns[2][0] + lay.sun_r + s_(6))
        title, size = v.t(_("PREVIEW")), s_(26)
        while text.width(title, size, True) > room and size > s_(PHONE_SMALL):
            size -= s_(1)
        title = text.fit(title, size, room, True)
        text.draw(d, (b.right, b.y + s_(16)), title, size, P.SUN, bold=True, anchor="rm")
    return d


def draw_phone_static(im: Image.Image, lay: Layout, lang: str | None = None) -> None:
    """The piles' caption (and the cards' frames), drawn once into the phone picture's cached
    base."""
    draw_frames(im, lay, lang)
    d = ImageDraw.Draw(im)
    pb = lay.piles_box
    text.draw(d, (pb.x, pb.y), words(_("Scoring piles"), lang), lay.s(SMALL), P.TEXT_DIM, bold=True)
