"""The rating history chart of `/ps profile` (issue 45), and its alt text.

One line: a player's rating after each of their rated games, oldest on the left, games evenly
spaced (time runs left to right in every language; a right-to-left language lays out its texts
right to left and aligns the title on the right). The title names the rule family, with the
key to the marks on the other side (a green triangle: a game won); the line under it says the
rating now, the best one, the number of games and how many were won; a won game's point has a
green triangle above it; the dates of up to `DATE_TICKS` games, evenly spread from the first to
the last, are under the plot with a tick each.

The picture is ``DESIGN_WIDTH`` x ``DESIGN_HEIGHT`` design units, drawn ``width`` pixels wide;
no text is smaller than ``MIN_TEXT`` design units, so shown 400 pixels wide (Discord shows it
360 to 550 pixels wide) the smallest text is 10 pixels (9 at 360).

Pure drawing: the numbers come from the caller (`bot.ratings` computes them); nothing here
imports the bot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from translation import Text, _, _n, decimal, is_right_to_left, translate

from . import palette as P
from . import text
from .model import words

DESIGN_WIDTH = 800
DESIGN_HEIGHT = 420
DEFAULT_WIDTH = DESIGN_WIDTH
#: The smallest text size in the chart (design units).
MIN_TEXT = 20
TITLE = 30
BODY = 22
#: The plot's box (design units): left, top, right, bottom.
PLOT = (96.0, 112.0, 770.0, 360.0)
LINE: P.RGB = P.SUN
GRID: P.RGB = (0x2E, 0x3D, 0x4E)
#: A won game's mark (a triangle above its point): green, a shape of its own beside the dots.
WON: P.RGB = (0x6F, 0xD8, 0x6A)
#: How many dates the time axis names at most.
DATE_TICKS = 4

FAMILY_NAMES = {"base": _("base game"), "moonlight": _("Under the Moonlight")}


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """The rating after one game: the game's finish time (ISO 8601) and the rating shown."""

    finished_at: str
    rating: float
    #: whether the player won the game (finished first, alone or tied)
    won: bool = False


def number(value: float, lang: str | None) -> str:
    """A rating as shown: one decimal, in the language's way of writing numbers
    (`translation.decimal`: "-1.8", "-1,8"; in Hebrew the minus after a left-to-right mark, so
    that it stays before the digits in a right-to-left line, in a message as in the picture)."""
    return decimal(value, lang, 1)


def _date(finished_at: str) -> str:
    return finished_at[:10]


def ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values for the rating axis, covering ``low`` to ``high`` with at most ``most``."""
    if high - low < 1:
        low, high = math.floor(low) - 1, math.ceil(high) + 1
    raw = (high - low) / (most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(k * power for k in (1, 2, 2.5, 5, 10) if k * power >= raw)
    first = math.floor(low / step) * step
    out = [first]
    while out[-1] < high - 1e-9:
        out.append(out[-1] + step)
    return [round(t, 6) for t in out]


def _title(family: str) -> Text:
    return _("Rating: {rules}", rules=FAMILY_NAMES[family])


def date_ticks(n: int, most: int = DATE_TICKS) -> list[int]:
    """The games (their indexes, of ``n``) whose dates the time axis names: the first, the last
    and evenly spread between, at most ``most``."""
    if n <= 0:
        return []
    k = min(n, most)
    if k == 1:
        return [0]
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def _triangle(d: ImageDraw.ImageDraw, x: float, y: float, r: float, s: float) -> None:
    """A won game's mark: a triangle pointing up, centred on (x, y)."""
    d.polygon(
        [(x, y - r), (x + r, y + 0.8 * r), (x - r, y + 0.8 * r)],
        fill=WON,
        outline=P.BACKGROUND,
        width=max(1, round(s)),
    )


def rating_chart(
    points: Sequence[ChartPoint],
    family: str = "base",
    lang: str | None = None,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The chart of ``points`` (oldest first) for the rule family ``family``, in ``lang``."""
    s = width / DESIGN_WIDTH
    im = Image.new("RGB", (width, round(DESIGN_HEIGHT * s)), P.BACKGROUND)
    d = ImageDraw.Draw(im)
    rtl = is_right_to_left(lang)
    left, top, right, bottom = (v * s for v in PLOT)
    # The title and the summary, on the reader's side.
    edge, anchor = (right, "ra") if rtl else (left - 60 * s, "la")
    room = right - (left - 60 * s)
    legend = words(_("game won"), lang) if points else ""
    key = text.width(legend, MIN_TEXT * s) + 28 * s if legend else 0.0
    title = text.fit(words(_title(family), lang), TITLE * s, room - key - 20 * s, bold=True)
    text.draw(d, (edge, 18 * s), title, TITLE * s, P.TEXT, bold=True, anchor=anchor)
    if legend:
        # the key to the marks, on the other side: a triangle, then the words
        # (read from the reader's side: the triangle first)
        if rtl:
            far = left - 60 * s
            _triangle(d, far + key - 8 * s, 32 * s, 8 * s, s)
            text.draw(d, (far, 32 * s), legend, MIN_TEXT * s, P.TEXT_DIM, anchor="lm")
        else:
            _triangle(d, right - key + 8 * s, 32 * s, 8 * s, s)
            text.draw(d, (right, 32 * s), legend, MIN_TEXT * s, P.TEXT_DIM, anchor="rm")
    if not points:
        empty = words(_("No rated games yet."), lang)
        text.draw(d, ((left + right) / 2, (top + bottom) / 2), text.fit(empty, BODY * s, room),
                  BODY * s, P.TEXT_DIM, anchor="mm")  # fmt: skip
        return im
    shown = words(
        _n(
            "now {now}, best {best}, {n} rated game ({won} won)",
            "now {now}, best {best}, {n} rated games ({won} won)",
            len(points),
            now=number(points[-1].rating, lang),
            best=number(max(p.rating for p in points), lang),
            won=sum(p.won for p in points),
        ),
        lang,
    )
    text.draw(d, (edge, 62 * s), text.fit(shown, BODY * s, room), BODY * s, P.TEXT_DIM,
              anchor=anchor)  # fmt: skip
    # The rating axis: round values, a faint line each.
    values = [p.rating for p in points]
    marks = ticks(min(values), max(values))
    low, high = marks[0], marks[-1]

    def y_of(v: float) -> float:
        return bottom - (v - low) / (high - low) * (bottom - top)

    for mark in marks:
        y = y_of(mark)
        d.line((left, y, right, y), fill=GRID, width=max(1, round(s)))
        text.draw(d, (left - 10 * s, y), number(mark, lang), MIN_TEXT * s, P.TEXT_DIM,
                  anchor="rm")  # fmt: skip
    # The line, the games evenly spaced; a dot per game when they are few, the last one marked.
    n = len(points)

    def x_of(i: int) -> float:
        return (left + right) / 2 if n == 1 else left + i * (right - left) / (n - 1)

    xy = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    if n > 1:
        # rounded joints for a short history (a long one draws them 200 ms)
        d.line(xy, fill=LINE, width=max(2, round(3 * s)), joint="curve" if n <= 200 else None)
    if n <= 40:
        r = 4 * s
        for x, y in xy:
            d.ellipse((x - r, y - r, x + r, y + r), fill=LINE)
    x, y = xy[-1]
    r = 7 * s
    d.ellipse((x - r, y - r, x + r, y + r), fill=P.SUN_CORE, outline=P.TEXT, width=max(1, round(s)))
    # A won game: a triangle above its point (smaller when the games are many).
    size = (8 if n <= 40 else 5) * s
    for (x, y), point in zip(xy, points):
        if point.won:
            _triangle(d, x, y - size - 8 * s, size, s)
    # The time axis: a tick and the date of up to DATE_TICKS games (the ends' on the plot's
    # edges, the others centred), a date named once.
    below = bottom + 14 * s
    named = ""
    for i in date_ticks(n):
        day = _date(points[i].finished_at)
        if day == named:
            continue
        x = x_of(i)
        d.line((x, bottom, x, bottom + 8 * s), fill=P.TEXT_DIM, width=max(1, round(s)))
        where = "ma" if n == 1 else "la" if i == 0 else "ra" if i == n - 1 else "ma"
        text.draw(d, (x, below), day, MIN_TEXT * s, P.TEXT_DIM, anchor=where)
        named = day
    return im


def rating_chart_alt(
    points: Sequence[ChartPoint], family: str = "base", lang: str | None = None
) -> str:
    """What `rating_chart` shows, in words (the picture's alt text)."""
    if not points:
        return translate(
            _("Rating history ({rules}): no rated games yet.", rules=FAMILY_NAMES[family]),
            lang,
        )
    values = [p.rating for p in points]
    if len(points) == 1:
        return translate(
            _(
                "Rating history ({rules}): one rated game, on {first}; rating {now}.",
                rules=FAMILY_NAMES[family],
                first=_date(points[0].finished_at),
                now=number(values[0], lang),
            ),
            lang,
        )
    return translate(
        _n(
            "Rating history ({rules}): {n} rated game from {first} to {last}, {won} won; rating "
            "{start} after the first, {now} now, best {best}, lowest {lowest}.",
            "Rating history ({rules}): {n} rated games from {first} to {last}, {won} won; rating "
            "{start} after the first, {now} now, best {best}, lowest {lowest}.",
            len(points),
            rules=FAMILY_NAMES[family],
            first=_date(points[0].finished_at),
            last=_date(points[-1].finished_at),
            start=number(values[0], lang),
            now=number(values[-1], lang),
            best=number(max(values), lang),
            lowest=number(min(values), lang),
            won=sum(p.won for p in points),
        ),
        lang,
    )
