"""The rating history chart of `/ps profile` (issue 45): readable, right to left, in words."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import palette as P
from render import text
from render.chart import (
    DESIGN_HEIGHT,
    DESIGN_WIDTH,
    PLOT,
    WON,
    ChartPoint,
    date_ticks,
    number,
    rating_chart,
    rating_chart_alt,
    ticks,
)
from render.fonts import RLM

POINTS = [
    ChartPoint("2026-01-03T10:00:00+00:00", 2.5),
    ChartPoint("2026-01-04T10:00:00+00:00", 4.0, won=True),
    ChartPoint("2026-02-10T10:00:00+00:00", 3.1),
    ChartPoint("2026-03-01T10:00:00+00:00", 7.25, won=True),
]


@pytest.mark.parametrize("width", [360, 400, 550, DESIGN_WIDTH])
@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_smallest_text_is_readable_where_discord_shows_it(width, lang):
    with text.recording() as sizes:
        im = rating_chart(POINTS, "base", lang, width=width)
    assert im.size == (width, round(DESIGN_HEIGHT * width / DESIGN_WIDTH))
    assert min(sizes) >= (9 if width == 360 else 10)


def _columns_with(im, colour, rows):
    px = im.load()
    return [x for x in range(im.width) if any(px[x, y] == colour for y in rows)]


def test_the_line_ends_at_the_last_rating_on_the_right():
    im = rating_chart(POINTS, "base", "en")
    left, top, right, bottom = PLOT
    marks = ticks(2.5, 7.25)
    assert marks == [2.0, 4.0, 6.0, 8.0]
    y = round(bottom - (7.25 - 2.0) / (8.0 - 2.0) * (bottom - top))
    assert im.getpixel((round(right), y)) == P.SUN_CORE
    first_y = round(bottom - (2.5 - 2.0) / 6.0 * (bottom - top))
    assert im.getpixel((round(left), first_y)) == P.SUN
    # one column of the line per pixel between the first game and the last
    line = _columns_with(im, P.SUN, range(round(top), round(bottom) + 1))
    assert line[0] >= round(left) - 5 and line[-1] <= round(right) + 8
    assert len(line) >= round(right - left) - 2


def test_the_title_is_on_the_readers_side():
    band = range(18, 50)
    english = _columns_with(rating_chart(POINTS, "base", "en"), P.TEXT, band)
    hebrew = _columns_with(rating_chart(POINTS, "base", "he"), P.TEXT, band)
    assert english[0] < 60 and english[-1] < DESIGN_WIDTH / 2
    assert hebrew[-1] > DESIGN_WIDTH - 40 and hebrew[0] > DESIGN_WIDTH / 2


def test_no_games_draws_no_line():
    im = rating_chart([], "moonlight", "fr")
    assert _columns_with(im, P.SUN, range(im.height)) == []
    assert _columns_with(im, P.TEXT, range(18, 50)) != []


def test_alt_text_in_words():
    assert rating_chart_alt(POINTS, "base", "en") == (
        "Rating history (base game): 4 rated games from 2026-01-03 to 2026-03-01, 2 won; "
        "rating 2.5 after the first, 7.2 now, best 7.2, lowest 2.5."
    )
    assert rating_chart_alt(POINTS[:1], "moonlight", "en") == (
        "Rating history (Under the Moonlight): one rated game, on 2026-01-03; rating 2.5."
    )
    assert rating_chart_alt([], "base", "nl") == (
        "Ratingverloop (basisspel): nog geen spellen met rating."
    )
    french = rating_chart_alt(POINTS, "moonlight", "fr")
    assert french.startswith(
        "Historique de la cote (Under the Moonlight)\u00a0: 4 parties classées"
    )
    assert "7,2 maintenant" in french
    hebrew = rating_chart_alt(POINTS, "base", "he")
    assert hebrew.startswith("היסטוריית הדירוג (המשחק הבסיסי): 4 משחקים מדורגים")
    assert "ניצחונות: 2;" in hebrew
    assert "\u20687.2\u2069 עכשיו" in hebrew


def test_numbers_and_ticks():
    assert number(7.25, "en") == "7.2"
    assert number(-0.04, "fr") == "0,0"
    assert number(-1.26, "he") == "\u200e-1.3"  # the sign after a left-to-right mark
    assert number(12.0, "nl") == "12,0"
    assert ticks(0.0, 0.3) == [-1.0, 0.0, 1.0, 2.0]
    assert ticks(-3.2, 27.9) == [-10.0, 0.0, 10.0, 20.0, 30.0]
    assert ticks(10.0, 12.0) == [10.0, 10.5, 11.0, 11.5, 12.0]


def _ink(im: Image.Image) -> list[int]:
    """The height in rows of each group of inked columns, left to right."""
    px = im.load()
    columns = [sum(1 for y in range(im.height) if px[x, y]) for x in range(im.width)]
    groups: list[int] = []
    for x, rows in enumerate(columns):
        if rows and (x == 0 or not columns[x - 1]):
            groups.append(0)
        if rows:
            start = next(y for y in range(im.height) if px[x, y])
            end = max(y for y in range(im.height) if px[x, y])
            groups[-1] = max(groups[-1], end - start + 1)
    return groups


def test_a_negative_rating_reads_with_its_minus_first_in_hebrew():
    """Hebrew writes a sign after a left-to-right mark (Unicode CLDR's "\u200e-", Babel's
    symbol): the text reads "-7.4" in logical order, and a right-to-left line, in a message or
    in the picture, draws the minus before the digits."""
    points = [ChartPoint("2026-01-03T10:00:00+00:00", -2.35), ChartPoint("2026-01-04", -7.4)]
    assert (number(-7.4, "he"), number(7.4, "he"), number(-7.4, "en")) == (
        "\u200e-7.4",
        "7.4",
        "-7.4",
    )
    with text.words_drawn() as drawn:
        rating_chart(points, "base", "he")
    (summary,) = [t for t in drawn if t.startswith("עכשיו")]
    assert summary.startswith("עכשיו -7.4, ")  # (the words drawn, without their marks)

    def leftmost(line: str) -> tuple[int, int]:
        im = Image.new("L", (400, 80))
        text.draw(ImageDraw.Draw(im), (390, 10), line, 40, 255, anchor="ra")
        return _ink(im)[0], _ink(im)[1]

    # "now -7.4" drawn right to left: the leftmost ink is the minus (a short dash), then the 7
    dash, digit = leftmost(RLM + "עכשיו " + number(-7.4, "he"))
    assert dash <= 5 and digit >= 25
    # the check can fail: without the mark the minus is drawn after the digits ("7.4-")
    assert leftmost(RLM + "עכשיו -7.4")[0] >= 25
    assert "\u200e-7.4" in rating_chart_alt(points, "base", "he")  # the alt text keeps it too


def test_won_games_are_marked_above_their_points():
    """A green triangle above each won game's point (and one in the key, top right), none
    above a game not won."""
    im = rating_chart(POINTS, "base", "en")
    left, top, right, bottom = PLOT
    marks = ticks(2.5, 7.25)
    xs = [left + i * (right - left) / 3 for i in range(4)]
    ys = [bottom - (p.rating - marks[0]) / (marks[-1] - marks[0]) * (bottom - top) for p in POINTS]
    for x, y, point in zip(xs, ys, POINTS):
        # the triangle's centre is 16 units above the point
        above = [im.getpixel((round(x), round(y) - dy)) for dy in range(12, 20)]
        assert (WON in above) == point.won, point
    # the key: a triangle in the title's band, right of the middle in English, left in Hebrew
    band = range(20, 46)
    assert _columns_with(im, WON, band) and min(_columns_with(im, WON, band)) > DESIGN_WIDTH / 2
    hebrew = _columns_with(rating_chart(POINTS, "base", "he"), WON, band)
    assert hebrew and max(hebrew) < DESIGN_WIDTH / 2
    # without a win: no green at all
    lost = [ChartPoint(p.finished_at, p.rating) for p in POINTS]
    assert _columns_with(rating_chart(lost, "base", "en"), WON, range(round(top), 420)) == []


def test_the_time_axis_names_dates_spread_from_the_first_game_to_the_last():
    assert date_ticks(0) == [] and date_ticks(1) == [0] and date_ticks(2) == [0, 1]
    assert date_ticks(4) == [0, 1, 2, 3]
    assert date_ticks(200) == [0, 66, 133, 199]
    with text.words_drawn() as drawn:
        rating_chart(POINTS, "base", "en")
    assert [t for t in drawn if t.startswith("2026-")] == [
        "2026-01-03",
        "2026-01-04",
        "2026-02-10",
        "2026-03-01",
    ]
    # a date is named once: games of one day share their label
    same = [ChartPoint(f"2026-04-01T0{i}:00:00+00:00", float(i)) for i in range(5)]
    with text.words_drawn() as drawn:
        rating_chart(same, "base", "he")
    assert [t for t in drawn if t.startswith("2026-")] == ["2026-04-01"]
    with text.words_drawn() as drawn:
        rating_chart(POINTS, "base", "en")
    assert "now 7.2, best 7.2, 4 rated games (2 won)" in drawn
