"""The pictures of the Expert's review of a finished game (issues 47 and 57), and their alt text.

- ``decision_picture``: one reviewed turn on one board: the position the person faced, the
  spaces their turn acted on ringed with a circle, the spaces the Expert's turn acts on framed
  by a diamond (two shapes a phone tells apart, not only two colours), and under the board a
  key: each mark with the turn it stands for, in the order its actions were played; a frame in
  the colour of the seat whose turn it is (two turns of one round never look alike);
- ``progress_chart``: every seat's score and light over the rounds, one line a seat in its
  colour, the round numbers under them, each costly turn marked with its number at its round,
  and the points each person gave away per round (rounds run left to right in every language;
  a right-to-left language aligns its texts on the right).

Pure drawing: the positions and numbers come from the caller; nothing here imports the bot.
Both are ``DESIGN_WIDTH`` design units wide, drawn ``width`` pixels wide; no text is smaller
than ``chart.MIN_TEXT`` design units (10 px shown 400 px wide, 9 at 360).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import GameState
from engine.geometry import LABEL_INDEX
from translation import _, _p, decimal, is_right_to_left, join, notation, translate

from . import palette as P
from . import text
from .chart import BODY, GRID, MIN_TEXT, TITLE, ticks
from .draw import compose_phone
from .layout import phone_layout
from .model import view, words

DESIGN_WIDTH = 800
#: The separator of a list of clauses: "a; b" (French "a ; b").
SEMICOLON = _p("list separator", "; ")
#: The marks: the person's turn (a circle) and the Expert's (a diamond), and their halo.
PLAYED_MARK = P.HIGHLIGHT
EXPERT_MARK = P.SUN
HALO = (0x10, 0x18, 0x20)
#: The key under the board: a line per turn, in design units.
KEY_LINE = 44
#: The frame in the colour of the seat whose turn it is, in design units.
FRAME = 8


def _circle(d: ImageDraw.ImageDraw, x: float, y: float, r: float, w: float) -> None:
    for colour, width in ((HALO, w * 2.2), (PLAYED_MARK, w)):
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(1, round(width)))


def _diamond(d: ImageDraw.ImageDraw, x: float, y: float, r: float, w: float) -> None:
    corners = [(x, y - r), (x + r, y), (x, y + r), (x - r, y), (x, y - r)]
    for colour, width in ((HALO, w * 2.2), (EXPERT_MARK, w)):
        d.line(corners, fill=colour, width=max(1, round(width)), joint="curve")


def _spaces(turn: Sequence[str]) -> list[int]:
    """The spaces a turn's actions name last (where they act), in order, once each."""
    out: list[int] = []
    for n in turn:
        labels = [w.upper() for w in n.split() if w.upper() in LABEL_INDEX]
        if labels and LABEL_INDEX[labels[-1]] not in out:
            out.append(LABEL_INDEX[labels[-1]])
    return out


def _turn_words(turn: Sequence[str], lang: str | None) -> str:
    shown = [notation(n, lang) for n in turn if n != "end"] or [notation("end", lang)]
    return ", ".join(shown)


def decision_picture(
    before: GameState,
    played: Sequence[str],
    best: Sequence[str],
    *,
    names: Sequence[str] | None = None,
    lang: str | None = None,
    width: int = DESIGN_WIDTH,
) -> Image.Image:
    """The turn faced in ``before``: that position's board with the spaces of ``played`` ringed
    by circles and those of ``best`` (the Expert's turn) framed by diamonds, and the key under
    it (each mark, whose turn, its actions)."""
    seat = before.current_seat
    v = view(before, names=names, lang=lang)
    mv = v.moon
    board = compose_phone(v, width)
    lay = phone_layout(width, mv is not None and mv.rows, mv is not None and mv.gap >= 0)
    d = ImageDraw.Draw(board)
    r, w = lay.hex_r, max(2.0, lay.hex_r * 0.13)
    for i in _spaces(best):
        x, y = lay.centres[i]
        _diamond(d, x, y, r * 1.02, w)
    for i in _spaces(played):
        x, y = lay.centres[i]
        _circle(d, x, y, r * 0.5, w)
    s = width / DESIGN_WIDTH
    who = (names[seat] if names and seat is not None and seat < len(names) else None) or ""
    lines = [
        (_circle, _("{name} played: {actions}", name=who, actions=_turn_words(played, lang))),
        (_diamond, _("The Expert: {actions}", actions=_turn_words(best, lang))),
    ]
    rtl = is_right_to_left(lang)
    size = BODY * s
    room = width - 80 * s
    rows: list[tuple[int, list[tuple[str, float]]]] = []
    for n, (_mark, said) in enumerate(lines):
        rows.append((n, _wrapped(words(translate(said, lang), lang), size, MIN_TEXT * s, room)))
    height = 16 + sum(KEY_LINE * len(parts) for _n, parts in rows)
    key = Image.new("RGB", (width, round(height * s)), P.BACKGROUND)
    k = ImageDraw.Draw(key)
    top = 8.0
    for n, parts in rows:
        y = (top + KEY_LINE / 2) * s
        mx = width - 30 * s if rtl else 30 * s
        lines[n][0](k, mx, y, 14 * s, max(2.0, 3 * s))
        for shown, at in parts:
            tx, anchor = (width - 60 * s, "rm") if rtl else (60 * s, "lm")
            text.draw(k, (tx, (top + KEY_LINE / 2) * s), shown, at, P.TEXT, anchor=anchor)
            top += KEY_LINE
    out = Image.new("RGB", (width, board.height + key.height), P.BACKGROUND)
    out.paste(board, (0, 0))
    out.paste(key, (0, board.height))
    if seat is not None:  # a frame in the colour of the seat to play: whose turn, at a glance
        edge = max(2, round(FRAME * s))
        ImageDraw.Draw(out).rectangle(
            (0, 0, width - 1, out.height - 1), outline=P.seat_colour(seat), width=edge
        )
    return out


def _wrapped(said: str, size: float, smallest: float, room: float) -> list[tuple[str, float]]:
    """``said`` on one line, at most ``size`` and at least ``smallest``; else on two, broken
    after the comma nearest the middle (the second shortened with an ellipsis if need be)."""
    shown, at = text.fit_size(said, size, smallest, room)
    if shown == said:
        return [(shown, at)]
    commas = [i for i, c in enumerate(said) if c == ","]
    if not commas:
        return [(shown, at)]
    cut = min(commas, key=lambda i: abs(i - len(said) / 2)) + 1
    first, second = said[: cut - 1].strip(), said[cut:].strip()  # the comma at the break goes
    _one, a = text.fit_size(first, size, smallest, room)
    _two, b = text.fit_size(second, size, smallest, room)
    least = min(a, b)
    return [(text.fit(first, least, room), least), (text.fit(second, least, room), least)]


def decision_alt(
    before: GameState,
    played: Sequence[str],
    best: Sequence[str],
    name: str,
    lang: str | None = None,
) -> str:
    """What ``decision_picture`` shows, in words."""
    labels = {v: k for k, v in LABEL_INDEX.items()}
    mine = " ".join(labels[i] for i in _spaces(played)) or "-"
    expert = " ".join(labels[i] for i in _spaces(best)) or "-"
    return translate(
        _(
            "The board at {name}'s turn in round {round}. Circles: the spaces of the turn "
            "played ({played}): {mine}. Diamonds: the spaces of the Expert's turn ({best}): "
            "{expert}.",
            name=name,
            round=before.round,
            played=_turn_words(played, lang),
            mine=mine,
            best=_turn_words(best, lang),
            expert=expert,
        ),
        lang,
    )


#: The plots of the chart (design units): left, top, right, bottom.
SCORE_PLOT = (80.0, 120.0, 770.0, 330.0)
LIGHT_PLOT = (80.0, 400.0, 770.0, 540.0)
LOST_PLOT = (80.0, 610.0, 770.0, 730.0)
CHART_HEIGHT = 820
#: The height of each row the chart's legend adds when the names do not fit one (design units).
LEGEND_ROW = 34
#: A costly turn's mark on the score plot: a numbered disc, this radius (design units).
MARK_R = 17


def progress_chart(
    points: Sequence[Sequence[tuple[int, int]]],
    names: Sequence[str],
    lang: str | None = None,
    width: int = DESIGN_WIDTH,
    *,
    marks: Sequence[tuple[int, int, int]] = (),
    lost: Sequence[Sequence[float]] = (),
) -> Image.Image:
    """Every seat's score and light (``points``: per round, ``(score, light)`` per seat; the
    last entry the end of the game) as two plots of one line a seat, the round numbers under
    the rounds; ``marks``: the costly turns, ``(number, round, seat)``, each a disc with its
    number on the seat's score line in that round; ``lost``: per round (from round 1), the
    points each seat gave away in it, as bars in the seat's colour."""
    s = width / DESIGN_WIDTH
    rtl = is_right_to_left(lang)
    room = width - 40 * s
    # The legend: each seat's name whole after a dot in its colour, from the reader's side, on
    # as many rows as the names need (the plots move down by the rows added).
    r = 8 * s
    legend = [text.fit(words(name, lang), BODY * s, room - 2 * r - 6 * s) for name in names]
    wides = [2 * r + 6 * s + text.width(name, BODY * s) for name in legend]
    rows: list[list[int]] = [[]]
    used = 0.0
    for seat, wide in enumerate(wides):
        if rows[-1] and used + wide > room:
            rows.append([])
            used = 0.0
        rows[-1].append(seat)
        used += wide + 24 * s
    down = (len(rows) - 1) * LEGEND_ROW
    im = Image.new("RGB", (width, round((CHART_HEIGHT + down) * s)), P.BACKGROUND)
    d = ImageDraw.Draw(im)
    edge, anchor = ((width - 20 * s), "ra") if rtl else (20 * s, "la")
    title = text.fit(words(_("Score and light over the rounds"), lang), TITLE * s, room, bold=True)
    text.draw(d, (edge, 14 * s), title, TITLE * s, P.TEXT, bold=True, anchor=anchor)
    for k, line in enumerate(rows):
        x, y = 20 * s, (70 + k * LEGEND_ROW) * s
        for seat in line:
            wide = wides[seat]
            left = width - x - wide if rtl else x
            dot = left + wide - 2 * r if rtl else left
            d.ellipse((dot, y - r, dot + 2 * r, y + r), fill=P.seat_colour(seat))
            at = left if rtl else left + 2 * r + 6 * s
            text.draw(d, (at, y), legend[seat], BODY * s, P.TEXT, anchor="lm")
            x += wide + 24 * s
    n = len(points)
    rounds = max(1, n - 1)
    plot_left, plot_right = SCORE_PLOT[0] * s, SCORE_PLOT[2] * s

    def x_of(i: float) -> float:
        return (
            (plot_left + plot_right) / 2
            if n <= 1
            else plot_left + i * (plot_right - plot_left) / (n - 1)
        )

    score_y = None
    for which, box, label in (
        (0, SCORE_PLOT, _("Score")),
        (1, LIGHT_PLOT, _("Light")),
    ):
        left, right = box[0] * s, box[2] * s
        top, bottom = (box[1] + down) * s, (box[3] + down) * s
        values = [p[which] for step in points for p in step] or [0]
        ticks_ = ticks(min(values), max(values), 4)
        low, high = ticks_[0], ticks_[-1]

        def y_of(v: float, low: float = low, high: float = high, top: float = top,
                 bottom: float = bottom) -> float:  # fmt: skip
            return bottom - (v - low) / (high - low) * (bottom - top)

        if which == 0:
            score_y = y_of
        lx, la = (right, "rs") if rtl else (left, "ls")
        text.draw(d, (lx, top - 8 * s), words(label, lang), BODY * s, P.TEXT_DIM, anchor=la)
        for mark in ticks_:
            y = y_of(mark)
            d.line((left, y, right, y), fill=GRID, width=max(1, round(s)))
            shown = decimal(mark, lang, 0 if mark == int(mark) else 1)  # "2.5", French "2,5"
            text.draw(d, (left - 10 * s, y), shown, MIN_TEXT * s, P.TEXT_DIM, anchor="rm")
        for seat in range(len(names)):
            xy = [(x_of(i), y_of(step[seat][which])) for i, step in enumerate(points)]
            if len(xy) > 1:
                d.line(xy, fill=P.seat_colour(seat), width=max(2, round(3 * s)), joint="curve")
            r = 3.5 * s
            for px, py in xy:
                d.ellipse((px - r, py - r, px + r, py + r), fill=P.seat_colour(seat))
    # The points given away per round: a bar a person in the round's slot.
    left, right = LOST_PLOT[0] * s, LOST_PLOT[2] * s
    top, bottom = (LOST_PLOT[1] + down) * s, (LOST_PLOT[3] + down) * s
    lx, la = (right, "rs") if rtl else (left, "ls")
    said = words(_("Points given away per round"), lang)
    text.draw(d, (lx, top - 8 * s), said, BODY * s, P.TEXT_DIM, anchor=la)
    most = max((v for row in lost for v in row), default=0.0)
    scale_ticks = ticks(0, max(most, 1.0), 3)
    high = scale_ticks[-1]
    for mark in scale_ticks:
        y = bottom - mark / high * (bottom - top)
        d.line((left, y, right, y), fill=GRID, width=max(1, round(s)))
        shown = decimal(mark, lang, 0 if mark == int(mark) else 1)
        text.draw(d, (left - 10 * s, y), shown, MIN_TEXT * s, P.TEXT_DIM, anchor="rm")
    step = (right - left) / rounds
    for index, row in enumerate(lost[:rounds]):
        people = [(seat, v) for seat, v in enumerate(row) if v > 0]
        bar = step * 0.8 / max(1, len(row))
        for seat, v in people:
            x0 = left + index * step + step * 0.1 + seat * bar
            d.rectangle((x0, bottom - v / high * (bottom - top), x0 + bar - max(1, s), bottom),
                        fill=P.seat_colour(seat))  # fmt: skip
    # The round numbers, under each round's slot (every other one when they would crowd).
    below = bottom + 10 * s
    every = 1 if step >= 30 * s else 2
    for rnd in range(1, rounds + 1):
        if (rnd - 1) % every == 0 or rnd == rounds:
            cx = left + (rnd - 0.5) * step
            shown = decimal(rnd, lang, 0)
            text.draw(d, (cx, below), shown, MIN_TEXT * s, P.TEXT_DIM, anchor="ma")
    text.draw(d, ((left + right) / 2, below + 30 * s), words(_("rounds"), lang), MIN_TEXT * s,
              P.TEXT_DIM, anchor="ma")  # fmt: skip
    # The costly turns: a numbered disc on the seat's score line, in the middle of its round.
    assert score_y is not None
    rm = MARK_R * s
    for number, rnd, seat in marks:
        if not 1 <= rnd <= rounds or n < 2:
            continue
        i = rnd - 1
        a, b = points[i][seat][0], points[min(i + 1, n - 1)][seat][0]
        cx, cy = x_of(i + 0.5), score_y((a + b) / 2) - rm * 1.3
        d.ellipse((cx - rm, cy - rm, cx + rm, cy + rm), fill=P.seat_colour(seat),
                  outline=P.TEXT, width=max(1, round(2 * s)))  # fmt: skip
        text.draw(d, (cx, cy), str(number), MIN_TEXT * s, P.TEXT, bold=True, anchor="mm")
    return im


def progress_alt(
    points: Sequence[Sequence[tuple[int, int]]], names: Sequence[str], lang: str | None = None
) -> str:
    """What ``progress_chart`` shows, in words: each seat's score and light, round by round."""
    if not points:
        return translate(_("Score and light over the rounds: no rounds were played."), lang)
    lines = []
    for seat, name in enumerate(names):
        scores = ", ".join(str(step[seat][0]) for step in points)
        light = ", ".join(str(step[seat][1]) for step in points)
        lines.append(
            _("{name}: score {scores}; light {light}", name=name, scores=scores, light=light)
        )
    out = translate(
        _(
            "Score and light at the start of each round and at the end: {seats}.",
            seats=join(lines, SEMICOLON),
        ),  # fmt: skip
        lang,
    )
    return out if len(out) <= 1024 else out[:1023] + "…"
