"""The fonts shipped in ``data/fonts`` (never system fonts), read with importlib.resources
so that an installed wheel finds them as a checkout does.

DejaVu Sans draws Latin, Greek, Cyrillic and the symbols; Noto Sans faces draw names in other
scripts (Hebrew, Arabic, Devanagari, Thai, Bengali, Armenian, Georgian, Ethiopic, Tamil) and a
subset of Noto Sans CJK the common Chinese, Japanese and Korean characters, each in the weight
of the text it is part of (a bold name's Chinese in Noto Sans CJK Bold). Noto Color Emoji draws
emoji in colour (``EMOJI``: a bitmap font drawn at its one size and scaled to the text's, see
``render.text``). ``runs`` splits a text into pieces each drawn by the first face that has all
its characters; a symbol no face has is drawn as ◇ (``STAND_IN``), never as an empty box.

FreeType faces are not safe to share between threads, so each thread keeps its own loaded fonts;
loading is cheap and happens once per thread and size.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from functools import cache
from importlib import resources

from fontTools.ttLib import TTFont
from PIL import ImageFont, features

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
#: Fallback faces, in the order they are tried after DejaVu Sans.
FALLBACKS = (
    "NotoSansHebrew-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansThai-Regular.ttf",
    "NotoSansBengali-Regular.ttf",
    "NotoSansArmenian-Regular.ttf",
    "NotoSansGeorgian-Regular.ttf",
    "NotoSansEthiopic-Regular.ttf",
    "NotoSansTamil-Regular.ttf",
    "NotoSansCJKjp-Subset.otf",
)
#: The bold face of each fallback: a bold text (a name) is bold in every script.
BOLD_FALLBACKS = {
    name: name.replace("-Regular.ttf", "-Bold.ttf").replace("-Subset.otf", "-Bold-Subset.otf")
    for name in FALLBACKS
}
#: Noto Color Emoji: colour bitmaps (CBDT) of one size, ``EMOJI_PX`` pixels to the em.
EMOJI = "NotoColorEmoji.ttf"
EMOJI_PX = 109
#: Every face, for whoever reads their coverage ahead (``tests/e2e/zygote.py``).
FACES = (REGULAR, BOLD, *FALLBACKS, *BOLD_FALLBACKS.values(), EMOJI)
#: Right-to-left and joined scripts need text shaping (libraqm, with FriBiDi for the
#: bidirectional algorithm) when Pillow has it; ``make test`` insists on it.
_SHAPED = features.check("raqm")

_RTL = ("R", "AL")
#: Direction marks and isolates (UAX #9): they steer the layout and are never drawn.
_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                                "\u2066\u2067\u2068\u2069"))  # fmt: skip
#: The right-to-left mark: a picture's label in a right-to-left language starts with it.
RLM = "\u200f"

#: Any symbol no face has (an emoji newer than the emoji font): a white diamond, one for a run.
STAND_IN = "◇"

#: What joins or follows an emoji inside one emoji (UTS #51): the zero-width joiner, the emoji
#: presentation selector, the keycap mark, skin tones and the tags of a subdivision flag.
_ZWJ = "\u200d"
_VS16 = "\ufe0f"
_VS15 = "\ufe0e"
_MODIFIERS = frozenset([0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)])
_REGIONAL = range(0x1F1E6, 0x1F200)
_SKIN = range(0x1F3FB, 0x1F400)

_local = threading.local()
_lock = threading.Lock()


def font_bytes(name: str) -> bytes:
    """The file of a shipped font."""
    return resources.files("photosynthesis_data").joinpath("fonts", name).read_bytes()


@cache
def _coverage(name: str) -> frozenset[int]:
    """The code points a shipped face has."""
    with _lock:
        tt = TTFont(io.BytesIO(font_bytes(name)), lazy=True, fontNumber=0)
        try:
            return frozenset(tt.getBestCmap())
        finally:
            tt.close()


def _load(name: str, size: int, shaped: bool) -> ImageFont.FreeTypeFont:
    cache = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (name, size, shaped)
    f = cache.get(key)
    if f is None:
        # The basic layout engine gives the same pixels whether or not libraqm is installed;
        # the fallback faces use libraqm when there is one, for right-to-left and joined text.
        engine = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
        f = ImageFont.truetype(io.BytesIO(font_bytes(name)), size, layout_engine=engine)
        cache[key] = f
    return f


def px(size: float) -> int:
    """The pixel size a font of ``size`` is drawn at."""
    return max(6, round(size))


def font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or regular) at ``size`` pixels, cached for the calling thread."""
    return _load(BOLD if bold else REGULAR, px(size), False)


def _face_of(ch: str, primary: str) -> str | None:
    cp = ord(ch)
    # Right-to-left letters go to the Noto faces, which are drawn with text shaping.
    if cp in _coverage(primary) and unicodedata.bidirectional(ch) not in _RTL:
        return primary
    bold = primary == BOLD
    for name in FALLBACKS:
        face = BOLD_FALLBACKS[name] if bold else name
        if cp in _coverage(face):
            return face
    return None


def _emoji_end(text: str, i: int, primary: str) -> int:
    """Where the emoji starting at ``text[i]`` ends (UTS #51: a base with its presentation
    selector, skin tone, keycap mark or tags, a pair of regional indicators, such sequences
    joined by zero-width joiners), or ``i`` when ``text[i]`` starts none the emoji face draws.
    A character with a text form (♥, ©, a digit) is an emoji only with a selector or a keycap
    mark after it, or when no other face has it; one from the emoji planes always is."""
    cover = _coverage(EMOJI)
    cp = ord(text[i])
    if cp not in cover or text[i].isspace():
        return i
    n = len(text)

    def tail(j: int) -> int:
        while j < n and ord(text[j]) in _MODIFIERS:
            j += 1
        return j

    j = tail(i + 1)
    if cp in _REGIONAL and j < n and ord(text[j]) in _REGIONAL:
        j = tail(j + 1)
    while j + 1 < n and text[j] == _ZWJ and ord(text[j + 1]) in cover:
        j = tail(j + 2)
    if j < n and text[j] == _VS15:
        return i  # asked for in its text form
    if j > i + 1 or cp >= 0x1F000 or _face_of(text[i], primary) is None:
        return j
    return i


def right_to_left(text: str) -> bool:
    """Whether ``text`` is a right-to-left paragraph: its first strong character (a letter, or
    a direction mark) is right to left (UAX #9, rules P2 and P3)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in _RTL:
            return True
        if kind == "L":
            return False
    return False


def strip_marks(text: str) -> str:
    """``text`` without direction marks and isolates."""
    return text.translate(_MARKS)


#: What libraqm lays out of a right-to-left line: the marks and isolates dropped but the
#: left-to-right mark, part of a Hebrew number's sign (Unicode CLDR's "\u200e-",
#: `translation.decimal`), which keeps the sign before the digits ("-1.8", "+2").
_SHAPED_MARKS = {k: v for k, v in _MARKS.items() if k != 0x200E}


def shaped_text(text: str) -> str:
    """``text`` as ``render.text.draw`` gives it to libraqm (a right-to-left line)."""
    return text.translate(_SHAPED_MARKS)


def rtl_font(text: str, size: float, bold: bool = False) -> ImageFont.FreeTypeFont | None:
    """For a right-to-left paragraph (a label of a right-to-left language, which starts with
    ``RLM``, or a text whose first letter is Hebrew: a name such as "מומחה (מהיר)") that the
    main face draws whole (Hebrew with Latin names, numbers and notation), that face with
    libraqm's layout: FriBiDi orders the runs (Hebrew right to left, a label like ``D4`` or a
    number left to right) and mirrors brackets. None for any other text, one the main face
    lacks characters of, or without libraqm (then ``runs`` draws it)."""
    if not _SHAPED or not right_to_left(text):
        return None
    primary = BOLD if bold else REGULAR
    cover = _coverage(primary)
    if all(ord(ch) in cover or ch.isspace() for ch in strip_marks(text)):
        return _load(primary, px(size), True)
    return None


def _pieces(text: str, primary: str) -> list[tuple[str, str]]:
    """``text`` as ``(piece, face name)`` in logical order (``runs``): an emoji whole, in
    ``EMOJI``; spaces with the run before them, never in an emoji run."""
    out: list[tuple[str, str]] = []
    text = unicodedata.normalize("NFC", strip_marks(text))
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            if not out or out[-1][1] == EMOJI:
                out.append((" ", primary))
            elif not out[-1][0].endswith(" "):
                out[-1] = (out[-1][0] + " ", out[-1][1])
            continue
        end = _emoji_end(text, i, primary)
        if end > i:
            # The shipped emoji face has no skin tones (they would double its size): the
            # emoji in its default colour.
            ch, face, i = "".join(c for c in text[i:end] if ord(c) not in _SKIN), EMOJI, end
        else:
            i += 1
            if ch in (_ZWJ, _VS16, _VS15):
                continue  # a joiner or a selector outside an emoji: nothing to draw
            found = _face_of(ch, primary)
            if found is None:
                ch = STAND_IN if unicodedata.category(ch) == "So" else ""
                if not ch or (out and out[-1][0].endswith(STAND_IN)):
                    continue
                found = primary
            face = found
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + ch, face)
        else:
            out.append((ch, face))
    return out


def runs(
    text: str, size: float, bold: bool = False
) -> list[tuple[str, ImageFont.FreeTypeFont, float]]:
    """``text`` as ``(piece, font, scale)`` runs, each piece drawn by one face: ``scale`` is 1
    but for an emoji run, whose font is ``EMOJI`` at ``EMOJI_PX`` and is drawn scaled by
    ``scale`` to the text's size (``render.text``). A symbol no face has is drawn as
    ``STAND_IN``, other characters no face has are dropped (spaces go with the run they stand
    in). The pieces of a right-to-left paragraph come in visual order (the last piece first)."""
    primary = BOLD if bold else REGULAR
    size_px = px(size)
    rtl = right_to_left(text)
    fonts = []
    for piece, face in _pieces(text, primary):
        if face == EMOJI:
            # libraqm joins a sequence (a flag, a family) into its one glyph.
            fonts.append((piece, _load(EMOJI, EMOJI_PX, bool(_SHAPED)), size_px / EMOJI_PX))
            continue
        if not _SHAPED and any(unicodedata.bidirectional(c) in _RTL for c in piece):
            piece = piece[::-1]  # without libraqm: at least the letters in reading order
        loaded = _load(face, size_px, bool(_SHAPED) and face != primary)
        fonts.extend((part, loaded, 1.0) for part in _neutral_ends(piece, rtl))
    return fonts[::-1] if rtl else fonts


#: The bidi classes of the characters a run's ends give to the paragraph's direction: spaces,
#: punctuation and separators (a sign before a number, "-" or "+", stays with it).
_NEUTRAL = ("WS", "ON", "CS", "S", "B")
#: Brackets stay with the run they close (a name's "(2)"), never moved to the other end.
_BRACKETS = frozenset("()[]{}<>")


def _neutral_ends(piece: str, rtl: bool) -> list[str]:
    """``piece`` (one face's run, in logical order) as it is drawn in a right-to-left paragraph:
    the punctuation and spaces it starts or ends with, beside a left-to-right run (notation, a
    Latin name, a number), read right to left as the paragraph does (``": "`` after a Hebrew
    word is drawn " :" next to it, not at the far side of the notation that follows), each a
    piece of its own, reversed (brackets stay where they are); the rest unchanged. In a left-to-right paragraph,
    or for a run with right-to-left letters (laid out whole), ``[piece]``."""
    if not rtl or any(unicodedata.bidirectional(c) in _RTL for c in piece):
        return [piece]
    neutral = [unicodedata.bidirectional(c) in _NEUTRAL and c not in _BRACKETS for c in piece]
    if all(neutral):
        return [piece[::-1]]
    start = neutral.index(False)
    end = len(piece) - neutral[::-1].index(False)
    lead, core, tail = piece[:start], piece[start:end], piece[end:]
    return [part for part in (lead[::-1], core, tail[::-1]) if part]


def clean(text: str) -> str:
    """``text`` as the pictures draw it, in reading order: a symbol no shipped face has as
    ``STAND_IN`` (``runs``), other characters no face has left out, runs of spaces squeezed."""
    kept = "".join(piece for piece, _face in _pieces(text, REGULAR))
    return " ".join(kept.split())
