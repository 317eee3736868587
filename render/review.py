"""The pictures of the Expert's review of a finished game (issue 47), and their alt text.

- ``decision_picture``: one reviewed decision, before and after: the position the person faced,
  then the board after what they played and after what the Expert would have played, each
  with the spaces the action touched outlined (three boards, one above the other, a caption
  over each, on the reader's side);
- ``progress_chart``: every seat's score (top) and light (bottom) over the rounds, one line a
  seat in its colour (rounds run left to right in every language; a right-to-left language
  aligns its texts on the right).

Pure drawing: the positions and numbers come from the caller; nothing here imports the bot.
The chart is ``DESIGN_WIDTH`` design units wide, drawn ``width`` pixels wide; no text is smaller
than ``chart.MIN_TEXT`` design units (10 px shown 400 px wide, 9 at 360).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import GameState, apply
from engine.expert.review import unseen_redrawn
from translation import _, _p, decimal, is_right_to_left, join, notation, translate

from . import palette as P
from . import text
from .chart import BODY, GRID, MIN_TEXT, TITLE, ticks
from .draw import render_image
from .model import words

DESIGN_WIDTH = 800
#: The boards' layout: the phone's (the board, the sun, the round and the scoring piles), which
#: reads 360-400 px wide where the wide one's seat cards do not; the review's sentences say
#: what each decision changed.
LAYOUT = "phone"
#: The separator of a list of clauses: "a; b" (French "a ; b").
SEMICOLON = _p("list separator", "; ")
#: The height of a caption over a board, in pixels per pixel of width.
CAPTION = 0.07


def _caption(im: Image.Image, caption: str, lang: str | None) -> None:
    d = ImageDraw.Draw(im)
    w = im.width
    size = max(MIN_TEXT * w / DESIGN_WIDTH, CAPTION * w * 0.55)
    room = w - 16 * w / DESIGN_WIDTH * 2
    shown = text.fit(words(caption, lang), size, room, bold=True)
    x, anchor = (
        (w - 16 * w / DESIGN_WIDTH, "rm")
        if is_right_to_left(lang)
        else (16 * w / DESIGN_WIDTH, "lm")
    )
    text.draw(d, (x, im.height / 2), shown, size, P.TEXT, bold=True, anchor=anchor)


def decision_picture(
    before: GameState,
    played: str,
    best: str,
    *,
    names: Sequence[str] | None = None,
    lang: str | None = None,
    width: int = DESIGN_WIDTH,
) -> Image.Image:
    """The decision in ``before``: that position, then the board after ``played`` and after
    ``best`` (notations), each with a caption. The Expert's board shows no hidden token:
    ``best`` is played where the face-down ones are drawn afresh (``unseen_redrawn``)."""
    seat = before.current_seat
    boards = [
        (_("Before: round {round}", round=before.round), before, ()),
        (_("Played: {action}", action=notation(played, lang)), apply(before, played), (played,)),
        (
            _("The Expert: {action}", action=notation(best, lang)),
            apply(unseen_redrawn(before), best),  # a token it turns up is not the hidden one
            (best,),
        ),
    ]
    parts: list[Image.Image] = []
    for caption, state, touched in boards:
        band = Image.new("RGB", (width, round(CAPTION * width)), P.BACKGROUND)
        _caption(band, caption, lang)
        parts.append(band)
        highlight = [(seat, t) for t in touched] if seat is not None else list(touched)
        parts.append(
            render_image(
                state, highlight=highlight, names=names, width=width, lang=lang, layout=LAYOUT
            )
        )
    out = Image.new("RGB", (width, sum(p.height for p in parts)), P.BACKGROUND)
    y = 0
    for part in parts:
        out.paste(part, (0, y))
        y += part.height
    return out


def decision_alt(before: GameState, played: str, best: str, lang: str | None = None) -> str:
    """What ``decision_picture`` shows, in words."""
    return translate(
        _(
            "Three boards of round {round}: the position before the decision, then after "
            "{played} (played), then after {best} (the Expert's choice); the spaces each "
            "action touched are outlined.",
            round=before.round,
            played=notation(played, lang),
            best=notation(best, lang),
        ),
        lang,
    )


#: The two plots of the chart (design units): left, top, right, bottom.
SCORE_PLOT = (80.0, 120.0, 770.0, 330.0)
LIGHT_PLOT = (80.0, 400.0, 770.0, 560.0)
CHART_HEIGHT = 640
#: The height of each row the chart's legend adds when the names do not fit one (design units).
LEGEND_ROW = 34


def progress_chart(
    points: Sequence[Sequence[tuple[int, int]]],
    names: Sequence[str],
    lang: str | None = None,
    width: int = DESIGN_WIDTH,
) -> Image.Image:
    """Every seat's score and light (``points``: per round, ``(score, light)`` per seat; the
    last entry the end of the game) as two plots of one line a seat."""
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
    for k, row in enumerate(rows):
        x, y = 20 * s, (70 + k * LEGEND_ROW) * s
        for seat in row:
            wide = wides[seat]
            left = width - x - wide if rtl else x
            dot = left + wide - 2 * r if rtl else left
            d.ellipse((dot, y - r, dot + 2 * r, y + r), fill=P.seat_colour(seat))
            at = left if rtl else left + 2 * r + 6 * s
            text.draw(d, (at, y), legend[seat], BODY * s, P.TEXT, anchor="lm")
            x += wide + 24 * s
    n = len(points)
    for which, box, label in (
        (0, SCORE_PLOT, _("Score")),
        (1, LIGHT_PLOT, _("Light")),
    ):
        left, right = box[0] * s, box[2] * s
        top, bottom = (box[1] + down) * s, (box[3] + down) * s
        values = [p[which] for step in points for p in step] or [0]
        marks = ticks(min(values), max(values), 4)
        low, high = marks[0], marks[-1]

        def y_of(v: float, low: float = low, high: float = high, top: float = top,
                 bottom: float = bottom) -> float:  # fmt: skip
            return bottom - (v - low) / (high - low) * (bottom - top)

        lx, la = (right, "rs") if rtl else (left, "ls")
        text.draw(d, (lx, top - 8 * s), words(label, lang), BODY * s, P.TEXT_DIM, anchor=la)
        for mark in marks:
            y = y_of(mark)
            d.line((left, y, right, y), fill=GRID, width=max(1, round(s)))
            shown = decimal(mark, lang, 0 if mark == int(mark) else 1)  # "2.5", French "2,5"
            text.draw(d, (left - 10 * s, y), shown, MIN_TEXT * s, P.TEXT_DIM, anchor="rm")

        def x_of(i: int, left: float = left, right: float = right) -> float:
            return (left + right) / 2 if n <= 1 else left + i * (right - left) / (n - 1)

        for seat in range(len(names)):
            xy = [(x_of(i), y_of(step[seat][which])) for i, step in enumerate(points)]
            if len(xy) > 1:
                d.line(xy, fill=P.seat_colour(seat), width=max(2, round(3 * s)), joint="curve")
            r = 3.5 * s
            for px, py in xy:
                d.ellipse((px - r, py - r, px + r, py + r), fill=P.seat_colour(seat))
    below = (LIGHT_PLOT[3] + down) * s + 12 * s
    left, right = LIGHT_PLOT[0] * s, LIGHT_PLOT[2] * s
    text.draw(d, (left, below), words(_("start"), lang), MIN_TEXT * s, P.TEXT_DIM, anchor="la")
    text.draw(
        d, (right, below), words(_("end of the game"), lang), MIN_TEXT * s, P.TEXT_DIM, anchor="ra"
    )
    text.draw(d, ((left + right) / 2, below), words(_("rounds"), lang), MIN_TEXT * s,
              P.TEXT_DIM, anchor="ma")  # fmt: skip
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
