"""Names in colour and in one weight (issue 56, item 4): an emoji in a name is drawn as the
emoji in colour (it was a monochrome stand-in: "🌲🌲🌲" as "♣♣♣", "🐉🐉" as "◇"), and a bold
name is bold in every script (a Chinese name was drawn in the regular weight)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

import render
from render import draw, fonts, text
from render.model import view
from tests.base_positions import build

WHITE = (255, 255, 255)


def drawn(name: str, size: float = 24, bold: bool = True) -> Image.Image:
    im = Image.new("RGB", (round(text.width(name, size, bold)) + 20, round(size * 2)))
    text.draw(ImageDraw.Draw(im), (10, size), name, size, WHITE, bold=bold, anchor="lm")
    return im


def coloured(im: Image.Image) -> int:
    """Pixels whose channels differ by more than 60: never white, grey or black ink."""
    r, g, b = (band.point(lambda v: v // 4) for band in im.split())  # 0..63
    spread = ImageChops.subtract(
        ImageChops.lighter(ImageChops.lighter(r, g), b),
        ImageChops.darker(ImageChops.darker(r, g), b),
    )
    return sum(spread.histogram()[16:])


@pytest.mark.parametrize("name", ["🌲🌲🌲", "🐉🐉", "Pé 🇫🇷", "Bob ⭐", "שרה 🌻"])
def test_an_emoji_is_drawn_in_colour(name: str) -> None:
    im = drawn(name)
    assert coloured(im) > 150, coloured(im)
    # The text around it stays white: the emoji brought the colour.
    assert coloured(drawn("Bob ★")) == 0


def test_an_emoji_name_is_itself_in_the_model_and_on_the_board() -> None:
    """The card's name is the name as given (no stand-in), and the board picture holds the
    tree emoji's green where the name is."""
    state = build("mid-4")
    names = ["🌲🌲🌲", "Ada", "Grace", "Linus"]
    assert view(state, names=names).seats[0].name == "🌲🌲🌲"
    with text.words_drawn() as words:
        draw.render_image(state, names=names)
    assert "🌲🌲🌲" in words and "♣♣♣" not in words
    trees = Image.open(io.BytesIO(render.board_png(state, names=names))).convert("RGB")
    plain = Image.open(io.BytesIO(render.board_png(state, names=["Sam", *names[1:]])))
    where = ImageChops.difference(trees, plain.convert("RGB")).getbbox()
    assert where is not None
    assert green(trees.crop(where)) > 60 and green(plain.convert("RGB").crop(where)) == 0


def green(im: Image.Image) -> int:
    """Pixels of a tree emoji's green."""
    raw = im.tobytes()
    return sum(
        1
        for r, g, b in zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
        if g > 110 and g > r + 40 and g > b + 40
    )


@pytest.mark.parametrize("size", [9, 20, 26.4])
def test_an_emoji_is_as_tall_as_its_text(size: float) -> None:
    """The emoji font has one size (109 px); its glyph is scaled to the text's pixel size, so
    the smallest-text measurement (which notes that size) holds for emoji too."""
    im = drawn("🐉", size)
    box = im.getbbox()
    assert box is not None
    ascent, descent = fonts.font(size, True).getmetrics()
    assert fonts.px(size) * 0.8 <= box[3] - box[1] <= ascent + descent, (box, size)
    assert fonts.px(size) * 1.1 <= text.width("🐉", size) <= fonts.px(size) * 1.3
    with text.recording() as sizes:
        drawn("🐉 Ada", size)
    assert sizes == [fonts.px(size)]


def test_a_symbol_with_a_text_form_stays_in_the_main_face() -> None:
    """♥ and © without the emoji selector are DejaVu's (white); with it, emoji (colour)."""
    assert coloured(drawn("♥ ©")) == 0
    assert coloured(drawn("❤\ufe0f")) > 50
    assert [p for p, _f, _k in fonts.runs("A ♥\ufe0f", 20)] == ["A ", "♥\ufe0f"]


def test_a_symbol_no_face_has_is_one_diamond() -> None:
    assert fonts.clean("Mo \U0001f10d\U0001f10d") == "Mo ◇"  # no face has it


def stroke_width(name: str, bold: bool, size: float = 48) -> float:
    """The mean stroke width of ``name`` drawn at ``size``: twice the ink's area over its
    outline's length (a stroke w wide and l long has area w·l and outline 2l)."""
    im = Image.new("L", (round(text.width(name, size, bold)) + 20, round(size * 2)))
    text.draw(ImageDraw.Draw(im), (10, size), name, size, (255,), bold=bold, anchor="lm")
    ink = im.point(lambda v: 255 if v >= 128 else 0)
    outline = ImageChops.subtract(ink, ink.filter(ImageFilter.MinFilter(3)))
    return 2 * ink.histogram()[255] / outline.histogram()[255]


@pytest.mark.parametrize("name", ["陈小明的森林", "김민준", "さくら", "محمد", "देवनागरी", "სანდრო"])
def test_a_bold_name_is_bold_in_every_script(name: str) -> None:
    """A Latin bold name's strokes are about 6.2 px at 48 px; a Chinese name's were 3.1 (the
    regular weight), now 4.9: within a quarter of the Latin's, and bolder than its own regular."""
    latin = stroke_width("Bartholomew", True)
    bold, regular = stroke_width(name, True), stroke_width(name, False)
    assert abs(bold - latin) / latin < 0.25, (bold, latin)
    assert bold > regular * 1.35, (bold, regular)


def test_a_skin_tone_is_drawn_as_the_emoji_in_its_default_colour() -> None:
    """The shipped emoji font has no skin tones (data/fonts/README.md): "👍🏽" is drawn as 👍,
    never as 👍 followed by a swatch or an empty box; so is a joined sequence."""
    assert ImageChops.difference(drawn("Jo 👍🏽"), drawn("Jo 👍")).getbbox() is None
    assert ImageChops.difference(drawn("👩🏾\u200d💻"), drawn("👩\u200d💻")).getbbox() is None
    assert text.width("👩\u200d💻", 24) == text.width("👩", 24)  # one glyph


def test_punctuation_after_a_hebrew_word_stays_beside_it_before_notation() -> None:
    # "<name> played: <turn>" in Hebrew with an emoji in the name (drawn run by run, not by
    # libraqm): the colon reads right after the Hebrew word, left of it, and the notation
    # after that; it was drawn at the far left of the notation ("…: plant D6 C5שיחק/ה").
    said = fonts.RLM + "\N{DRAGON} Ann שיחק/ה: \u2066plant D6 C5\u2069"
    drawn = [piece for piece, _font, _scale in fonts.runs(said, 20)]
    assert drawn[:3] == ["plant D6 C5", " :", "ה"]
    # A sign stays with its number, brackets with their run, a left-to-right line as it is.
    signed = fonts.RLM + "נקודות -1.8 (Ann)"
    assert [p for p, _f, _s in fonts.runs(signed, 20)] == ["-1.8 (Ann)", "נקודות "]
    assert [p for p, _f, _s in fonts.runs("Ann played: plant D6", 20)] == ["Ann played: plant D6"]
